"""Positions that differ only in what the player to move cannot see (for the fairness tests)."""

from __future__ import annotations

import random

from brass_stats.engine.information import unseen_cards
from brass_stats.engine.setup import SeededChance
from brass_stats.engine.state import GameState


def hide_differently(state: GameState, seed: int) -> GameState:
    """The same position with the cards its mover cannot see moved around: the other players' hands,
    the deck, the face-down discards and the reserve exchange cards; the Distant Cotton Market pile
    (Lancashire) and the chance source (the Rail Era deal) change too."""
    seat = state.current_player
    assert seat is not None
    new = state.copy()
    pool = unseen_cards(state, seat)
    random.Random(seed).shuffle(pool)
    k = state.rules.face_down_discards if state.era == "canal" else 0
    for p in new.players:
        if p.seat != seat:
            p.hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
    for p in new.players:
        p.discard, pool = pool[:k] + p.discard[k:], pool[k:]
    new.deck, pool = pool[: len(new.deck)], pool[len(new.deck) :]
    new.reserve = pool
    new.dcm_pile = list(reversed(new.dcm_pile))
    new.chance = SeededChance(seed + 1)
    return new
