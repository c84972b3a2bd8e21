"""Legal actions of the player to move, each with every resource choice filled in canonically.

Legality of a *given* action is always decided by the engine itself (:func:`apply_action`), never
by searching this list. This list is for bots, move pickers and analysis: it is worked out
directly from the position, one module per action type (:mod:`.build`, :mod:`.network`,
:mod:`.develop`, :mod:`.sell`, :mod:`.cards` for Pass, Loan and Scout, :mod:`.shortfall`), with
the facts many candidates share gathered once (:class:`~.probe.Position`) and what an action
would take from the board worked out on counters (:class:`~.probe.Draw`) instead of a copy of the
state. The tests hold it to the engine in both directions: every listed action is accepted, and
every action the engine accepts is listed (``tests/test_legal_enumeration.py``,
``tests/test_properties.py``), action for action equal to the slow enumeration that tries each
candidate through the engine (``tests/reference_legal.py``).

Resource sources (which tied coal mine, which iron works, which brewery) are not enumerated as
separate actions: two actions that differ only there share a skeleton (:meth:`Action.skeleton`),
and the canonical one is listed (closest source, then location and slot order; the player's own
brewery first). Whether a merchant's barrel is drunk is enumerated, since it changes the bonus.
Two rail links are listed in one order, the first legal one.

>>> from brass_stats.engine import new_game, SeededChance
>>> g = new_game(["A", "B"], SeededChance(3))
>>> acts = legal_actions(g)
>>> sorted({a.TYPE for a in acts})
['build', 'develop', 'loan', 'network', 'pass', 'scout']
>>> len(legal_actions(g, types=["scout"]))  # every 3 of the 8 cards in hand
56
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..state import GameState
from .build import build_actions, double_action_builds
from .cards import loan_actions, pass_actions, scout_actions
from .develop import develop_actions
from .network import network_actions
from .probe import Position
from .sell import WITH_MERCHANT_BEER, WITHOUT_MERCHANT_BEER, sell_actions, try_action
from .shortfall import shortfall_actions

__all__ = [
    "ACTION_TYPES",
    "WITHOUT_MERCHANT_BEER",
    "WITH_MERCHANT_BEER",
    "legal_actions",
    "legal_actions_by_type",
    "try_action",
]

ACTION_TYPES = ("pass", "build", "network", "develop", "sell", "loan", "scout")
"""The order in which :func:`legal_actions` lists the action types (then each type's own order)."""


def legal_actions(state: GameState, types: Sequence[str] | None = None) -> list[Action]:
    """Every legal action of the player to move (resource choices filled canonically).

    ``types`` keeps only those action types (``"build"``, ``"sell"``, ...; ``"shortfall"`` while a
    shortfall is being paid)."""
    seat = state.current_player
    if seat is None:
        return []
    if state.phase == "shortfall":
        if types is not None and "shortfall" not in types:
            return []
        return list(shortfall_actions(state, seat))
    pos = Position(state, seat)
    cards = sorted(set(pos.player.hand))
    out: list[Action] = []
    wanted = ACTION_TYPES if types is None else [t for t in ACTION_TYPES if t in types]
    for kind in wanted:
        if kind == "pass":
            out.extend(pass_actions(pos, cards))
        elif kind == "build":
            out.extend(build_actions(pos, cards))
            out.extend(double_action_builds(pos))
        elif kind == "network":
            out.extend(network_actions(pos, cards))
        elif kind == "develop":
            out.extend(develop_actions(pos, cards))
        elif kind == "sell":
            out.extend(sell_actions(state, seat, cards))
        elif kind == "loan":
            out.extend(loan_actions(pos, cards))
        else:
            out.extend(scout_actions(pos))
    return out


def legal_actions_by_type(state: GameState) -> dict[str, list[Action]]:
    by: dict[str, list[Action]] = {}
    for a in legal_actions(state):
        by.setdefault(a.TYPE, []).append(a)
    return by
