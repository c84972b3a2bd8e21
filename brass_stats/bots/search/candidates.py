"""Ranking legal actions with the greedy bot's evaluation: the order in which the search widens.

Actions that differ only in the card(s) they discard lead to the same board; they form one group
(:func:`~brass_stats.bots.greedy.board_key`, the greedy bot's groups, with at most ``sell_cap`` Sell
groups: :func:`~brass_stats.bots.greedy.cap_sells`). A group is scored once, with
:func:`~brass_stats.bots.greedy.board_values` (the greedy evaluation of the state it leads to,
without the hand term), and represented by its variant that keeps the most useful hand (greedy's
hand term, :func:`~brass_stats.bots.greedy.card_values`).
:func:`rank` returns one action per group, best first: its first action is the one
:class:`~brass_stats.bots.greedy.GreedyBot` would play (up to greedy's random tie-break).

The search ranks only :func:`~brass_stats.engine.information.knowable` actions: in Lancashire, the
engine's legal list reveals the order of the face-down Distant Cotton Market tiles through the
Sells with more than one sale.

A group's board value does not depend on any hand (only on the board, the markets and the counts of
cards), so a search may keep it per tree node across determinizations: :func:`rank` takes such a
cache.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ...engine.actions import Action, Scout
from ...engine.state import GameState
from ..greedy import SCOUT_GAIN, Evaluator, GreedyBot, board_key_function, board_values, cap_sells, card_values

# greedy's hand term counts a scout as bringing two wild cards worth 1 each
# per class of action: (its board key, the card values it discards)
_CLASSES: dict[type, tuple[Callable[[Any], object], Callable[[Any, dict[str, float]], float]]] = {}


def _class_functions(cls: type) -> tuple[Callable[[Any], object], Callable[[Any, dict[str, float]], float]]:
    found = _CLASSES.get(cls)
    if found is None:
        found = _CLASSES[cls] = (board_key_function(cls), _cost_function(cls))
    return found


def _cost_function(cls: Any) -> Callable[[Any, dict[str, float]], float]:
    """The card values an action of class ``cls`` discards (greedy's hand term)."""
    fields = {f.name for f in dataclasses.fields(cls)}
    if issubclass(cls, Scout):
        return _scout_cost
    if "second_card" in fields:
        return _build_cost
    if "card" in fields:
        return _card_cost
    return lambda a, values: 0.0


def _scout_cost(a: Any, values: dict[str, float]) -> float:
    return sum(values[c] for c in a.discards)


def _build_cost(a: Any, values: dict[str, float]) -> float:
    return values[a.card] + (0.0 if a.second_card is None else values[a.second_card])


def _card_cost(a: Any, values: dict[str, float]) -> float:
    return float(values[a.card])


@dataclasses.dataclass(frozen=True, slots=True)
class Candidate:
    """One group's representative action and its greedy score (estimated final VP of the mover)."""

    action: Action
    score: float


def rank(
    state: GameState,
    legal: Sequence[Action],
    greedy: GreedyBot,
    boards: dict[object, float] | None = None,
) -> list[Candidate]:
    """One candidate per board group of ``legal``, best greedy score first (ties: list order).

    A group's candidate is its first action that discards the least useful card(s) (when all the
    legal actions form one group: the first one).
    ``boards`` (board key -> board value) is read and filled: a tree node's cache.
    """
    seat = state.current_player
    assert seat is not None
    if len(legal) == 1:
        return [Candidate(legal[0], 0.0)]
    w = greedy.weights
    cards = card_values(state, seat)
    groups: dict[object, list[Any]] = {}  # board key -> [the cheapest variant, its cost]
    classes = _CLASSES
    for a in legal:
        functions = classes.get(type(a)) or _class_functions(type(a))
        k = functions[0](a)
        cost = functions[1](a, cards)
        g = groups.get(k)
        if g is None:
            groups[k] = [a, cost]
        elif cost < g[1]:
            g[0], g[1] = a, cost
    if len(groups) == 1:
        return [Candidate(legal[0], 0.0)]
    groups = cap_sells(state, groups, w.sell_cap)
    if boards is None:
        boards = {}
    missing = [k for k in groups if k not in boards]
    if missing:
        values = board_values(state, seat, [groups[k][:1] for k in missing], Evaluator(state, w))
        boards.update(zip(missing, values, strict=True))
    kept = sum(cards[c] for c in state.players[seat].hand)
    out = [
        Candidate(a, boards[k] + w.hand * (kept - cost + (SCOUT_GAIN if type(a) is Scout else 0.0)))
        for k, (a, cost) in groups.items()
    ]
    out.sort(key=lambda c: -c.score)  # stable: ties keep the legal list's order
    return out
