"""Legal Pass, Loan and Scout actions: they depend on the hand, the income level and the wild piles."""

from __future__ import annotations

import itertools

from ...rules_data import WILD_CARDS, WILD_INDUSTRY, WILD_LOCATION
from ..actions import Action, Loan, Pass, Scout
from ..loan import loan_allowed
from .probe import Position


def pass_actions(pos: Position, cards: list[str]) -> list[Action]:
    return [Pass(pos.seat, c) for c in cards]


def loan_actions(pos: Position, cards: list[str]) -> list[Action]:
    """A loan (each amount the edition offers) that keeps the income level at or above the floor."""
    state, seat = pos.state, pos.seat
    rules = state.rules
    if not loan_allowed(state):
        return []
    floor = rules.constants["loan"]["min_income_level"]
    level = state.income_level(seat)
    several = len(rules.loan_options) > 1
    out: list[Action] = []
    for amount, levels in rules.loan_options:
        if level - levels >= floor:
            m = amount if several else None
            out.extend(Loan(seat, c, m) for c in cards)
    return out


def scout_actions(pos: Position) -> list[Action]:
    """Every set of three cards to discard, when the player holds no wild card and both piles have one."""
    state, seat, p = pos.state, pos.seat, pos.player
    if not state.rules.wild_cards or len(p.hand) < 3 or any(c in WILD_CARDS for c in p.hand):
        return []
    if state.wild[WILD_LOCATION] <= 0 or state.wild[WILD_INDUSTRY] <= 0:
        return []
    if state.rules.constants["scout"]["cards_discarded"] != 3:
        return []
    return [Scout(seat, combo) for combo in sorted(set(itertools.combinations(sorted(p.hand), 3)))]
