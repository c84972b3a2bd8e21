"""Loan action: £30, income marker down 3 levels to the highest space of the new level."""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import Loan
from .policy import ChoicePolicy
from .state import GameState


def apply_loan(state: GameState, a: Loan, policy: ChoicePolicy) -> Loan:
    rules, seat = state.rules, a.player
    p = state.players[seat]
    loan = rules.constants["loan"]
    level = rules.income_level(p.income_space) - loan["income_levels_lost"]
    if level < loan["min_income_level"]:
        raise IllegalAction(
            "loan.limit",
            f"a loan would take player {seat}'s income level to {level}, below {loan['min_income_level']}",
            player=seat,
        )
    before = p.income_space
    p.income_space = rules.top_space_of_level(level)
    p.money += loan["money"]
    p.loans += 1
    state.effect("money", seat, loan["money"], "loan")
    state.effect("income_spaces", seat, p.income_space - before, "loan")
    return a
