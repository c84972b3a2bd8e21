"""Scout action: discard three cards for one Wild Location and one Wild Industry card."""

from __future__ import annotations

from ..errors import IllegalAction
from ..rules_data import WILD_CARDS, WILD_INDUSTRY, WILD_LOCATION
from .actions import Scout
from .policy import ChoicePolicy
from .state import GameState


def check_scout(state: GameState, a: Scout) -> None:
    """Checked before the discards leave the hand: the rule speaks of the hand as it was."""
    p = state.players[a.player]
    if not state.rules.wild_cards:
        raise IllegalAction(
            "scout.edition", f"Brass: {state.rules.edition.title()} has no Scout action", player=a.player
        )
    if any(c in WILD_CARDS for c in p.hand):
        raise IllegalAction("scout.wild_in_hand", f"player {a.player} already holds a wild card", player=a.player)
    if len(a.discards) != state.rules.constants["scout"]["cards_discarded"]:
        raise IllegalAction("scout.cards", f"Scout discards 3 cards, not {len(a.discards)}", player=a.player)


def apply_scout(state: GameState, a: Scout, policy: ChoicePolicy) -> Scout:
    p = state.player_mut(a.player)
    for wild in (WILD_LOCATION, WILD_INDUSTRY):
        if state.wild[wild] <= 0:
            raise IllegalAction("scout.cards", f"no {wild} card is left in its pile", player=a.player)
        state.wild = {**state.wild, wild: state.wild[wild] - 1}  # a new dict: states share it
        p.hand.append(wild)
    return a
