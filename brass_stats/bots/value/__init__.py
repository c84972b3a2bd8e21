"""The learned evaluation of a position: models trained on self-play, read by the search and the review.

* :mod:`.features`: what the models see of a position (public facts only, one row per seat);
* :mod:`.model`: :class:`WinProbabilityModel`, each seat's probability of winning (ties shared);
* :mod:`.final_vp`: :class:`FinalVpModel`, each seat's expected final VP (and :func:`margins`);
* :mod:`.training`: the self-play corpus and both models rebuilt from scratch (``brass-stats winprob
  train``), with their held-out scores.

The shipped models (``model.txt.gz``, ``final_vp.txt.gz`` beside these modules) load on first use.

>>> import brass_stats as bs
>>> from brass_stats.bots.value import win_probabilities
>>> r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
>>> p = win_probabilities(r.state_at(60))
>>> len(p), abs(sum(p) - 1) < 1e-9
(2, True)

``docs/analysis.md`` says what the models were trained on and how well they do on held-out games.
"""

from __future__ import annotations

from ...engine.state import GameState
from .features import FEATURE_NAMES, position_features
from .final_vp import FinalVpModel, default_final_vp_model, margins
from .model import WinProbabilityModel, default_model


def win_probabilities(state: GameState) -> list[float]:
    """Each seat's probability of winning from ``state`` with the shipped model (ties shared)."""
    return default_model().predict(state)


__all__ = [
    "FEATURE_NAMES",
    "FinalVpModel",
    "WinProbabilityModel",
    "default_final_vp_model",
    "default_model",
    "margins",
    "position_features",
    "win_probabilities",
]
