"""Loan action: money from the bank, income marker down to the highest space of a lower level.

Birmingham has one loan (£30, 3 levels); Lancashire offers £10/£20/£30 for 1/2/3 levels and none
once the draw deck is exhausted in the Rail Era.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import Loan
from .policy import LOAN_AMOUNT, ChoicePolicy, decide
from .state import GameState


def loan_allowed(state: GameState) -> bool:
    """Lancashire: no loans in the Rail Era once the draw deck is empty (the deck tile's warning)."""
    return not (state.rules.deck_tile and state.era == "rail" and not state.deck)


def apply_loan(state: GameState, a: Loan, policy: ChoicePolicy) -> Loan:
    rules, seat = state.rules, a.player
    p = state.player_mut(seat)
    if not loan_allowed(state):
        raise IllegalAction("loan.deck_exhausted", "no loans once the Rail Era's draw deck is exhausted", player=seat)
    options = dict(rules.loan_options)
    if a.amount is None:
        amount = decide(policy, LOAN_AMOUNT, sorted(options), {"player": seat, "state": state})
    elif a.amount in options:
        amount = a.amount
    else:
        raise IllegalAction(
            "loan.amount", f"a loan is {', '.join(f'£{m}' for m in sorted(options))}, not £{a.amount}", player=seat
        )
    floor = rules.constants["loan"]["min_income_level"]
    level = rules.income_level(p.income_space) - options[amount]
    if level < floor:
        raise IllegalAction(
            "loan.limit",
            f"a £{amount} loan would take player {seat}'s income level to {level}, below {floor}",
            player=seat,
        )
    before = p.income_space
    p.income_space = rules.top_space_of_level(level)
    p.money += amount
    p.loans += 1
    state.effect("money", seat, amount, "loan")
    state.effect("income_spaces", seat, p.income_space - before, "loan")
    stated = amount if len(options) > 1 else None
    return a if stated == a.amount else Loan(seat, a.card, stated)
