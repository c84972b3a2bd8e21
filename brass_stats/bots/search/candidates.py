"""Ranking legal actions with the greedy bot's evaluation: the order in which the search widens.

Actions that differ only in the card(s) they discard lead to the same board; they form one group
(:func:`board_key`). A group is scored once, with :func:`~brass_stats.bots.greedy.board_values`
(the greedy evaluation of the state it leads to, without the hand term), and represented by its
variant that keeps the most useful hand (greedy's hand term, :func:`~brass_stats.bots.greedy.card_values`).
:func:`rank` returns one action per group, best first: its first action is the one
:class:`~brass_stats.bots.greedy.GreedyBot` would play (up to greedy's random tie-break).

A group's board value does not depend on any hand (only on the board, the markets and the counts of
cards), so a search may keep it per tree node across determinizations: :func:`rank` takes such a
cache.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence
from typing import Any

from ...engine.actions import Action, Scout, Sell
from ...engine.state import GameState
from ..greedy import Evaluator, GreedyBot, board_values, card_values

_CARD_FIELDS = ("card", "second_card", "discards")
# greedy's hand term counts a scout as bringing two wild cards worth 1 each
_SCOUT_GAIN = 2.0
_KEYS: dict[type, Callable[[Action], object]] = {}


def board_key(a: Action) -> object:
    """Equal for two actions exactly when they are of one type, discard as many cards and agree on
    every field but the cards (every Scout shares one key).

    >>> from brass_stats.engine.actions import Pass, Loan
    >>> board_key(Pass(0, "loc:dudley")) == board_key(Pass(0, "ind:coal_mine"))
    True
    >>> board_key(Pass(0, "loc:dudley")) == board_key(Loan(0, "loc:dudley"))
    False
    """
    key = _KEYS.get(type(a))
    if key is None:
        key = _KEYS[type(a)] = _key_function(type(a))
    return key(a)


def _key_function(cls: Any) -> Callable[[Action], object]:
    if issubclass(cls, Scout):
        return lambda a: (Scout,)
    names = [f.name for f in dataclasses.fields(cls) if f.name not in _CARD_FIELDS]
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda a: (cls, len(a.cards), get(a))
    return lambda a: (cls, len(a.cards), *get(a))


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

    ``boards`` (board key -> board value) is read and filled: a tree node's cache.
    """
    seat = state.current_player
    assert seat is not None
    w = greedy.weights
    groups: dict[object, list[Action]] = {}
    for a in legal:
        k = board_key(a)
        g = groups.get(k)
        if g is None:
            groups[k] = [a]
        else:
            g.append(a)
    if len(groups) == 1:
        ((k, variants),) = groups.items()
        return [Candidate(variants[0], 0.0)]
    groups = _cap_sells(state, groups, w.sell_cap)
    if boards is None:
        boards = {}
    missing = [k for k in groups if k not in boards]
    if missing:
        values = board_values(state, seat, [groups[k] for k in missing], Evaluator(state, w))
        boards.update(zip(missing, values, strict=True))
    cards = card_values(state, seat)
    kept = sum(cards[c] for c in state.players[seat].hand)
    out: list[Candidate] = []
    for k, variants in groups.items():
        best = variants[0]
        if len(variants) > 1:
            lost = float("inf")
            for a in variants:
                cost = sum(cards[c] for c in a.cards)
                if cost < lost:
                    lost, best = cost, a
        else:
            lost = sum(cards[c] for c in best.cards)
        gain = _SCOUT_GAIN if isinstance(best, Scout) else 0.0
        out.append(Candidate(best, boards[k] + w.hand * (kept - lost + gain)))
    out.sort(key=lambda c: -c.score)  # stable: ties keep the legal list's order
    return out


def _cap_sells(state: GameState, groups: dict[object, list[Action]], cap: int) -> dict[object, list[Action]]:
    """At most ``cap`` Sell groups: those that flip the most tiles, then the most VP (as greedy does)."""
    sells = [k for k, v in groups.items() if isinstance(v[0], Sell)]
    if len(sells) <= cap:
        return groups

    def merit(k: object) -> tuple[int, int]:
        a = groups[k][0]
        assert isinstance(a, Sell)
        return len(a.sales), sum(state.level_info(state.tiles[s.tile]).vp for s in a.sales)

    keep = set(sorted(sells, key=merit, reverse=True)[:cap])
    return {k: v for k, v in groups.items() if not isinstance(v[0], Sell) or k in keep}
