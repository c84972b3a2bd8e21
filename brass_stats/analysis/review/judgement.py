"""How a loss becomes a label and an accuracy figure.

**The review's measure: VP margin.** A move is judged by the mover's expected final *margin*: its
expected final VP minus the mean of its opponents' (the expected-final-VP model read after the move
and the rest of the turn, over samples of the hidden cards). The loss of a move is the margin of the
best compared move minus the margin of the move played, in VP. Every seat's moves change its margin,
also a seat that cannot win any more, which a win probability cannot see (it is near 0 whatever such a
seat does). Labels: a loss of 4 VP or more is an inaccuracy, 8 a mistake, 15 a blunder (the same at
every table size: the margin is against the opponents' mean). Accuracy: lichess's formula with one VP
of margin in place of one point of win probability (a 10 VP loss scores 63.6, as a 10-point loss does
on lichess).

>>> margin_thresholds()
(4.0, 8.0, 15.0)
>>> margin_label(3.9), margin_label(4.0), margin_label(9.0), margin_label(15.0)
(None, 'inaccuracy', 'mistake', 'blunder')
>>> round(margin_accuracy(0.0), 1), round(margin_accuracy(10.0), 1)
(100.0, 63.6)

**Win probability (lichess's scales, for 2-4 players)**, kept for the win chart and for comparison.
lichess labels a chess move by the win probability it loses, from the mover's side: 5 points or
more an inaccuracy, 10 a mistake, 15 a blunder. With two players a fair share of the win is 50%;
with N players it is 100/N %, so the same slip costs a smaller share of a smaller stake. The
thresholds scale with the fair share: they are 5, 10 and 15 points times 2/N (3p: 3.3, 6.7, 10;
4p: 2.5, 5, 7.5). The loss is likewise rescaled to two-player points (times N/2) before lichess's
accuracy formula, so an accuracy figure means the same at every table size.

>>> thresholds(2), thresholds(4)
((0.05, 0.1, 0.15), (0.025, 0.05, 0.075))
>>> label(0.06, 2), label(0.06, 4), label(0.01, 4)
('inaccuracy', 'mistake', None)
>>> round(move_accuracy(0.0, 2), 1), round(move_accuracy(0.10, 2), 1), round(move_accuracy(0.05, 4), 1)
(100.0, 63.6, 63.6)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

LABELS = ("inaccuracy", "mistake", "blunder")
TWO_PLAYER_THRESHOLDS = (0.05, 0.10, 0.15)
MARGIN_THRESHOLDS = (4.0, 8.0, 15.0)
"""VP of expected margin lost that make an inaccuracy, a mistake and a blunder (any table size)."""


def margin_thresholds() -> tuple[float, float, float]:
    """VP of margin lost that make an inaccuracy, a mistake and a blunder."""
    return MARGIN_THRESHOLDS


def margin_label(loss: float) -> str | None:
    """The label of an action that lost ``loss`` VP of the mover's expected margin; None: a fine move."""
    found = None
    for name, limit in zip(LABELS, MARGIN_THRESHOLDS, strict=True):
        if loss >= limit - 1e-9:
            found = name
    return found


def margin_accuracy(loss: float) -> float:
    """lichess's accuracy formula, 0-100, with one VP of margin lost in place of one point of win %."""
    d = max(0.0, loss)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))


def margin_game_accuracy(losses: Sequence[float]) -> float | None:
    """A player's accuracy over a game: the mean of its judged moves' :func:`margin_accuracy` (None: none)."""
    if not losses:
        return None
    return sum(map(margin_accuracy, losses)) / len(losses)


def thresholds(players: int) -> tuple[float, float, float]:
    """Win-probability losses (0-1) that make an inaccuracy, a mistake and a blunder at this table size."""
    scale = 2 / players
    a, b, c = (round(t * scale, 12) for t in TWO_PLAYER_THRESHOLDS)
    return a, b, c


def label(loss: float, players: int) -> str | None:
    """The label of an action that lost ``loss`` (0-1) of the mover's win probability; None: a fine move."""
    found = None
    for name, limit in zip(LABELS, thresholds(players), strict=True):
        if loss >= limit - 1e-12:
            found = name
    return found


def move_accuracy(loss: float, players: int) -> float:
    """lichess's accuracy of one move, 0-100, from its win-probability loss in two-player points.

    ``103.1668 * exp(-0.04354 * d) - 3.1669`` with ``d`` the loss in percentage points (times N/2),
    clipped to 0-100 (lichess's ``AccuracyPercent``)."""
    d = max(0.0, loss) * 100 * players / 2
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))


def game_accuracy(losses: Sequence[float], players: int) -> float | None:
    """A player's accuracy over a game: the mean of its judged moves' accuracies (None: no judged move).

    (lichess mixes a volatility-weighted mean with a harmonic mean; with tens of moves per player and
    no engine evaluation between them, the plain mean is the one that can be reproduced by hand.)"""
    if not losses:
        return None
    return sum(move_accuracy(x, players) for x in losses) / len(losses)
