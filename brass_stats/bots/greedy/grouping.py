"""Actions that differ only in their discarded cards lead to the same board: one group each.

The greedy bot scores a board once per group and only its hand term per card; the search ranks one
candidate per group and keys its tree's children by group. Both group with :func:`board_key` and
keep at most ``sell_cap`` Sell groups with :func:`cap_sells`.

>>> from brass_stats.engine.actions import Loan, Pass
>>> groups = group_by_board([Pass(0, "loc:dudley"), Loan(0, "loc:dudley"), Pass(0, "ind:coal_mine")])
>>> [[a.card for a in g] for g in groups.values()]
[['loc:dudley', 'ind:coal_mine'], ['loc:dudley']]
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from ...engine.actions import Action, Scout, Sell
from ...engine.state import GameState

_CARD_FIELDS = ("card", "second_card", "discards")
_BOARD_KEYS: dict[type, Callable[[Any], object]] = {}

G = TypeVar("G", bound=Sequence[Any])


def board_key(a: Action) -> object:
    """What an action does to the board, ignoring which card(s) it discards (but not how many).

    Two actions share a key exactly when they are of one type, discard as many cards and agree on
    every other field; every Scout shares one key. The key is ``(class, cards discarded, the other
    fields)`` (``(Scout,)`` for a Scout).

    >>> from brass_stats.engine.actions import Build, Loan, Pass
    >>> board_key(Pass(0, "loc:dudley")) == board_key(Pass(0, "ind:coal_mine"))
    True
    >>> board_key(Pass(0, "loc:dudley")) == board_key(Loan(0, "loc:dudley"))
    False
    >>> one = Build(0, "loc:bolton", "cotton_mill", "bolton", 0)
    >>> two = Build(0, "loc:bolton", "cotton_mill", "bolton", 0, second_card="loc:wigan")
    >>> board_key(one) == board_key(two)  # a Lancashire double-action build discards two
    False
    """
    key = _BOARD_KEYS.get(type(a))
    if key is None:
        key = board_key_function(type(a))
    return key(a)


def board_key_function(cls: type) -> Callable[[Any], object]:
    """:func:`board_key` for actions of class ``cls`` (made once per class, then cached): the other
    fields with one ``operator.attrgetter``, without building the action's tuple of cards."""
    found = _BOARD_KEYS.get(cls)
    if found is None:
        found = _BOARD_KEYS[cls] = _make_key_function(cls)
    return found


def _make_key_function(cls: Any) -> Callable[[Any], object]:
    # only a Build may discard two cards (a Lancashire double-action build); a Shortfall discards none
    if issubclass(cls, Scout):
        return lambda a: (Scout,)
    fields = [f.name for f in dataclasses.fields(cls)]
    get = operator.attrgetter(*(n for n in fields if n not in _CARD_FIELDS))  # one name: the value itself
    if "second_card" in fields:
        return lambda a: (cls, 1 if a.second_card is None else 2, get(a))
    if "card" in fields:
        return lambda a: (cls, 1 if a.card else 0, get(a))
    return lambda a: (cls, 0, get(a))


def group_by_board(actions: Iterable[Action]) -> dict[object, list[Action]]:
    """The actions by :func:`board_key`, groups and their actions in the order given."""
    groups: dict[object, list[Action]] = {}
    keys = _BOARD_KEYS
    for a in actions:
        key = (keys.get(type(a)) or board_key_function(type(a)))(a)
        group = groups.get(key)
        if group is None:
            groups[key] = [a]
        else:
            group.append(a)
    return groups


def cap_sells(state: GameState, groups: dict[object, G], cap: int) -> dict[object, G]:
    """At most ``cap`` Sell groups: those whose actions flip the most tiles, then score the most VP
    (ties keep the order given); every other group is kept. ``groups`` itself when it has no more.

    A group is any sequence whose first item is one of its actions (the greedy bot's lists of
    actions, the search's ``[cheapest action, its cost]``).
    """
    sells = [k for k, v in groups.items() if isinstance(v[0], Sell)]
    if len(sells) <= cap:
        return groups

    def merit(k: object) -> tuple[int, int]:
        a = groups[k][0]
        return len(a.sales), sum(state.level_info(state.tiles[s.tile]).vp for s in a.sales)

    keep = set(sorted(sells, key=merit, reverse=True)[:cap])  # sorted() is stable: ties keep the order
    return {k: v for k, v in groups.items() if not isinstance(v[0], Sell) or k in keep}
