"""Develop action: remove the lowest tile of one or two industries, one iron each."""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import Develop
from .policy import ChoicePolicy
from .resources import consume_iron, spend
from .state import GameState


def remove_for_develop(state: GameState, seat: int, industry: str, cause: str) -> int:
    """Take the lowest tile of ``industry`` off the mat (Develop, Gloucester bonus); returns its level."""
    if industry not in state.rules.industries:
        raise IllegalAction("log.unknown_name", f"unknown industry {industry!r}", player=seat)
    p = state.player_mut(seat)
    level = p.lowest_level(industry)
    if level is None:
        raise IllegalAction("develop.tiles_left", f"player {seat} has no {industry} tiles left to develop", player=seat)
    if not state.rules.level(industry, level).can_develop:
        raise IllegalAction(
            "develop.lightbulb", f"{industry} level {level} shows a lightbulb and cannot be developed", player=seat
        )
    p.take_from_mat(industry, level)
    state.effect("develop", seat, 1, cause, industry=industry, level=level)
    return level


def developable(state: GameState, seat: int) -> list[str]:
    """Industries whose lowest mat tile may be developed now."""
    p = state.players[seat]
    out = []
    for ind in state.rules.industries:
        lvl = p.lowest_level(ind)
        if lvl is not None and state.rules.level(ind, lvl).can_develop:
            out.append(ind)
    return out


def apply_develop(state: GameState, a: Develop, policy: ChoicePolicy) -> Develop:
    seat = a.player
    n = len(a.industries)
    if n not in (1, 2):
        raise IllegalAction("develop.count", f"a Develop action removes 1 or 2 tiles, not {n}", player=seat)
    for ind in a.industries:
        remove_for_develop(state, seat, ind, "develop")
    iron, cost = consume_iron(state, seat, n, a.iron, policy, "develop")
    spend(state, seat, cost, "develop")
    if iron == a.iron:
        return a  # every choice stated as made
    return Develop(seat, a.card, a.industries, iron)
