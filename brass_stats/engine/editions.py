"""The small part of each edition that is behaviour rather than data.

Everything else that differs between Brass: Birmingham and Brass: Lancashire (industries, loans,
the deck tile, trade icons, beer for double rails, shipyards flipping on build, cash VP) is a field
of :class:`~brass_stats.rules_data.RulesData`, read by the shared core.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import Sell
from .policy import ChoicePolicy
from .sell import apply_sell
from .sell_cotton import apply_sell_cotton
from .state import GameState


@dataclass(frozen=True)
class Edition:
    name: str
    sell: Callable[[GameState, Sell, ChoicePolicy], Sell]  # merchants and beer, or ports and the Distant Market


EDITIONS: dict[str, Edition] = {
    "birmingham": Edition("birmingham", apply_sell),
    "lancashire": Edition("lancashire", apply_sell_cotton),
}


def edition_of(state: GameState) -> Edition:
    return EDITIONS[state.rules.edition]


def apply_edition_sell(state: GameState, a: Sell, policy: ChoicePolicy) -> Sell:
    return edition_of(state).sell(state, a, policy)
