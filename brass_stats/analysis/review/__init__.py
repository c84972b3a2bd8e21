"""Game review: win probability along a game, each action judged against the search's best.

For every action of a game (up to its first illegal action, if any): each player's win probability
after it; for the player who moved, unless the action was forced, the loss against the best action a
search from that player's information found, and a label; per player, accuracy and the number of
inaccuracies, mistakes and blunders (``docs/analysis.md``). One idea per module:

* :mod:`.records`: the results (:class:`ActionReview`, :class:`PlayerReview`, :class:`GameReview`), their
  JSON, and a review's rows for the ``analysis`` table (:func:`review_rows`);
* :mod:`.judge`: :class:`Reviewer`, the judge of one action (search, samples of the hidden cards, loss);
* :mod:`.judgement`: labels, thresholds and accuracy;
* :mod:`.seeds`: :func:`action_seed`, each action's search seed;
* :mod:`.run`: :func:`review_game`, a whole game's actions fanned out as tasks (this process, local
  workers or a Dask cluster), the same review wherever they run.
* :mod:`.collection`: :func:`~.collection.review_collection`, every stored game not yet reviewed, one
  game per task, its rows stored in the store's ``analysis`` table as it comes back (imported from
  there, not here: it reads and writes a store).

>>> from brass_stats.analysis.review import margin_thresholds, thresholds
>>> margin_thresholds(), thresholds(3)
((4.0, 8.0, 15.0), (0.033333333333, 0.066666666667, 0.1))
"""

from __future__ import annotations

from .judge import DEFAULT_SIMULATIONS, Reviewer
from .judgement import (
    LABELS,
    game_accuracy,
    label,
    margin_accuracy,
    margin_game_accuracy,
    margin_label,
    margin_thresholds,
    move_accuracy,
    thresholds,
)
from .records import ActionReview, GameReview, PlayerReview, review_rows
from .run import review_game
from .seeds import action_seed

__all__ = [
    "DEFAULT_SIMULATIONS",
    "LABELS",
    "ActionReview",
    "GameReview",
    "PlayerReview",
    "Reviewer",
    "action_seed",
    "game_accuracy",
    "label",
    "margin_accuracy",
    "margin_game_accuracy",
    "margin_label",
    "margin_thresholds",
    "move_accuracy",
    "review_game",
    "review_rows",
    "thresholds",
]
