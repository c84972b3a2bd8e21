"""Game review: win probability along a game, each action judged against the search's best.

>>> from brass_stats.analysis.review import thresholds
>>> thresholds(3)
(0.033333333333, 0.066666666667, 0.1)
"""

from __future__ import annotations

from .game import (
    DEFAULT_SIMULATIONS,
    ActionReview,
    GameReview,
    PlayerReview,
    action_seed,
    review_game,
    review_rows,
)
from .judgement import LABELS, game_accuracy, label, move_accuracy, thresholds

__all__ = [
    "DEFAULT_SIMULATIONS",
    "LABELS",
    "ActionReview",
    "GameReview",
    "PlayerReview",
    "action_seed",
    "game_accuracy",
    "label",
    "move_accuracy",
    "review_game",
    "review_rows",
    "thresholds",
]
