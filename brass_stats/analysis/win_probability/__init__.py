"""Win probability: each player's chance of winning a position, from a model trained on self-play.

>>> import brass_stats as bs
>>> from brass_stats.analysis.win_probability import win_probabilities
>>> r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
>>> p = win_probabilities(r.state_at(60))
>>> len(p), abs(sum(p) - 1) < 1e-9
(2, True)

The model (LightGBM, ``model.txt.gz`` beside this package, loaded on first use) sees public facts only
(:mod:`.features`); ``docs/analysis.md`` says what it was trained on and how well it is calibrated.
"""

from __future__ import annotations

from ...engine.state import GameState
from .features import FEATURE_NAMES, position_features
from .model import WinProbabilityModel, default_model


def win_probabilities(state: GameState) -> list[float]:
    """Each seat's probability of winning from ``state`` with the shipped model (ties shared)."""
    return default_model().predict(state)


__all__ = [
    "FEATURE_NAMES",
    "WinProbabilityModel",
    "default_model",
    "position_features",
    "win_probabilities",
]
