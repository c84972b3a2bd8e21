"""The win-probability model: a LightGBM booster over :mod:`.features`, loaded on first use.

The booster scores each seat on its own (a logistic output trained with cross-entropy on the seat's
share of the win: 1, 0, or 1/k for a k-way tie); a position's probabilities are those scores divided
by their sum, so they are positive and add up to 1. The shipped model is ``model.txt.gz`` beside this
module, rebuilt from scratch by ``brass-stats winprob train`` (see ``docs/analysis.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ...engine.scoring import win_shares
from ...engine.state import GameState
from .booster import BoosterModel
from .features import position_features

SHIPPED = "model.txt.gz"


class WinProbabilityModel(BoosterModel):
    """Each seat's probability of winning a position (ties shared), summing to 1.

    >>> import brass_stats as bs
    >>> model = default_model()
    >>> r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
    >>> p = model.predict(r.state_at(40))
    >>> len(p), round(sum(p), 9)
    (2, 1.0)
    """

    def seat_scores(self, rows: np.ndarray) -> np.ndarray:
        """The booster's per-seat probability-like scores for feature rows (no normalisation)."""
        return np.asarray(self.booster.predict(rows, num_threads=1), dtype=float)

    def predict_rows(self, rows: np.ndarray, sizes: Sequence[int]) -> list[list[float]]:
        """Probabilities for consecutive positions whose seats' rows are stacked in ``rows``."""
        scores = np.clip(self.seat_scores(rows), 1e-6, None)
        out, at = [], 0
        for n in sizes:
            s = scores[at : at + n]
            out.append([float(x) for x in s / s.sum()])
            at += n
        return out

    def predict(self, state: GameState) -> list[float]:
        """Each seat's probability of winning from ``state`` (a finished game: its result)."""
        if state.game_over:
            return list(win_shares(state))
        return self.predict_rows(position_features(state), [state.num_players])[0]

    def predict_many(self, states: Sequence[GameState]) -> list[list[float]]:
        """:meth:`predict` for many positions at once (one booster call)."""
        live = [s for s in states if not s.game_over]
        rows = [position_features(s) for s in live]
        probs = iter(self.predict_rows(np.vstack(rows), [len(r) for r in rows]) if rows else [])
        return [list(win_shares(s)) if s.game_over else next(probs) for s in states]


@cache
def default_model() -> WinProbabilityModel:
    """The shipped model, loaded once, on first use (never at ``import brass_stats``)."""
    return WinProbabilityModel.shipped(__package__, SHIPPED)
