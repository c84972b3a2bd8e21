"""Expected final VP: each seat's final score from a position, a LightGBM regression over :mod:`.features`.

The win-probability model answers "who wins?"; for a seat out of contention the answer is near 0
whatever it does, so it cannot tell that seat's good moves from its bad ones. This model answers "how
many VP will each seat end with?", which every seat's moves change. The review judges moves by the
mover's expected *margin*: its expected final VP minus the mean of its opponents' (a move that gains
VP but hands the opponents more is still a loss), see ``docs/analysis.md``.

Trained on the same positions as the win-probability model (the self-play corpus of
:mod:`.training`), labelled with each seat's final VP; the shipped booster is ``final_vp.txt.gz``
beside this module, rebuilt by ``brass-stats winprob train``.

>>> import brass_stats as bs
>>> r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
>>> vp = default_final_vp_model().predict(r.state_at(40))
>>> len(vp), all(40 < v < 250 for v in vp)
(2, True)
>>> default_final_vp_model().predict(r.state) == [float(p.vp) for p in r.state.players]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ...engine.state import GameState
from .booster import BASE_PARAMS, BoosterModel
from .features import FEATURE_NAMES, position_features

SHIPPED_FINAL_VP = "final_vp.txt.gz"

FINAL_VP_PARAMS: dict[str, Any] = {**BASE_PARAMS, "objective": "regression", "num_leaves": 31}
"""Squared error on each seat's final VP."""
FINAL_VP_ROUNDS = 200


def margins(vps: Sequence[float]) -> list[float]:
    """Each seat's VP minus the mean of its opponents' VP.

    >>> margins([100.0, 80.0, 60.0])
    [30.0, 0.0, -30.0]
    """
    n, total = len(vps), sum(vps)
    return [v - (total - v) / (n - 1) for v in vps]


class FinalVpModel(BoosterModel):
    """Each seat's expected final VP from a position (a finished game: its VP)."""

    def predict_rows(self, rows: np.ndarray, sizes: Sequence[int]) -> list[list[float]]:
        """Expected final VP for consecutive positions whose seats' rows are stacked in ``rows``."""
        values = np.asarray(self.booster.predict(rows, num_threads=1), dtype=float)
        out, at = [], 0
        for n in sizes:
            out.append([float(x) for x in values[at : at + n]])
            at += n
        return out

    def predict(self, state: GameState) -> list[float]:
        """Each seat's expected final VP from ``state`` (a finished game: the VP it ended with)."""
        if state.game_over:
            return [float(p.vp) for p in state.players]
        return self.predict_rows(position_features(state), [state.num_players])[0]


def train_final_vp(
    rows: Sequence[np.ndarray], final_vps: Sequence[Sequence[float]], rounds: int = FINAL_VP_ROUNDS
) -> FinalVpModel:
    """Fit the regression on positions (``rows``: one array of seat rows each) and their games' final VP."""
    import lightgbm

    x = np.vstack(rows)
    y = np.concatenate([np.asarray(v, dtype=float) for v in final_vps])
    data = lightgbm.Dataset(x, label=y, feature_name=list(FEATURE_NAMES), free_raw_data=True)
    return FinalVpModel(lightgbm.train(FINAL_VP_PARAMS, data, num_boost_round=rounds))


@cache
def default_final_vp_model() -> FinalVpModel:
    """The shipped model, loaded once, on first use (never at ``import brass_stats``)."""
    return FinalVpModel.shipped(__package__, SHIPPED_FINAL_VP)
