"""The search tree: nodes with one value per seat (max^n), progressive widening, UCB selection.

A node is a point in the line of play that the searching seat sees: the actions taken since the
root, whatever the hidden cards. A child is keyed by the action's
:func:`~brass_stats.bots.greedy.board_key` (below the root) so that an opponent's move is one child
whatever card its sampled hand discards; the root's children are keyed by the actions themselves.

Each node stores its visit count and the sum of the values backed up through it, one per seat.
The player to move at a node picks the child whose mean value is best *for that player*
(max^n: every player maximises its own chance of winning, nobody minimises anyone's).

Information-set search: each simulation plays in its own determinization, where a node's
legal actions may differ (the mover's hand is sampled). Only the candidates available in the
current determinization compete, and UCB's exploration term counts how often a child was
available (``avail``) rather than how often its parent was visited (Cowling, Powley and Whitehouse
2012, "Information Set Monte Carlo Tree Search").

Progressive widening: a node visited ``n`` times considers only the first
``widen(n) = ceil(pw_c * (n + 1) ** pw_alpha)`` candidates of the greedy ranking; an available
candidate never tried is tried first (best ranked first).

A node caches the ranking of its legal actions. In a determinization they depend on the line of
play, the hand of the player to move, the wild-card piles (a child key does not say which card was
discarded, and a wild one goes back to its pile) and the chance drawn on the way (Lancashire's
Distant Cotton Market tiles change income, money and whether a mill flips; the Rail Era deal
changes hands): the caches are keyed by all three (see ``_Search.ranking``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...engine.actions import Action
from .candidates import Candidate


class Node:
    """One node: who moves here, visits, value sums per seat, children by key."""

    __slots__ = ("player", "visits", "value_sum", "children", "avail", "action", "boards", "ranked", "score")

    def __init__(self, player: int | None, seats: int, action: Action | None = None, score: float = 0.0) -> None:
        self.player = player  # the seat to move here (None: the game is over)
        self.visits = 0
        self.value_sum = [0.0] * seats
        self.children: dict[object, Node] = {}
        self.avail = 0  # how often this node was available when its parent chose (ISMCTS)
        self.action = action  # the action that led here (the last one tried with this key)
        # Caches, by the chance drawn on the way here (see below): board key -> greedy board value
        # (see candidates.rank); the mover's sorted hand -> (ranked candidates, their keys).
        self.boards: dict[object, dict[object, float]] = {}
        self.ranked: dict[object, tuple[list[Candidate], list[object]]] = {}
        self.score = score  # the greedy score of ``action`` when it was first tried

    def mean(self, seat: int) -> float:
        return self.value_sum[seat] / self.visits if self.visits else 0.0

    def means(self) -> tuple[float, ...]:
        n = self.visits
        return tuple(v / n for v in self.value_sum) if n else ()

    def backup(self, value: Sequence[float]) -> None:
        self.visits += 1
        s = self.value_sum
        for i, v in enumerate(value):
            s[i] += v

    def __repr__(self) -> str:
        means = ", ".join(f"{v:.3f}" for v in self.means())
        return f"<Node p{self.player} n={self.visits} [{means}] {len(self.children)} children>"


def widen(visits: int, pw_c: float, pw_alpha: float) -> int:
    """How many ranked candidates a node visited ``visits`` times considers (at least 1).

    >>> [widen(n, 1.0, 0.5) for n in (0, 1, 3, 8, 99)]
    [1, 2, 2, 3, 10]
    """
    return max(1, math.ceil(pw_c * (visits + 1) ** pw_alpha - 1e-9))


def select(
    node: Node,
    candidates: Sequence[Candidate],
    keys: Sequence[object],
    seats: int,
    c_ucb: float,
) -> tuple[object, Node, Action]:
    """The child to follow among the available ``candidates`` (ranked, already widened).

    An available candidate without a child (or never visited) is taken first, best ranked first;
    otherwise the one with the best UCB for the player to move, counting availability, with the
    siblings' mean values rescaled to [0, 1]. Returns
    (key, child, the action to play in this determinization).
    """
    children = node.children
    player = node.player
    assert player is not None
    for cand, key in zip(candidates, keys, strict=True):
        child = children.get(key)
        if child is None:
            child = children[key] = Node(None, seats, cand.action, cand.score)
        child.avail += 1
    lo, hi = math.inf, -math.inf
    for key in keys:
        child = children[key]
        if child.visits == 0:
            return key, child, candidates[keys.index(key)].action
        q = child.value_sum[player] / child.visits
        lo, hi = min(lo, q), max(hi, q)
    # means rescaled to [0, 1] among the siblings: exploration does not depend on how sure the
    # leaf evaluator is (a near-decided game has tiny differences in win probability)
    scale = 1.0 / (hi - lo) if hi - lo > 1e-12 else 0.0
    best: tuple[object, Node, Action] | None = None
    best_ucb = -math.inf
    for cand, key in zip(candidates, keys, strict=True):
        child = children[key]
        q = (child.value_sum[player] / child.visits - lo) * scale
        ucb = q + c_ucb * math.sqrt(math.log(child.avail) / child.visits)
        if ucb > best_ucb:
            best_ucb, best = ucb, (key, child, cand.action)
    assert best is not None
    return best
