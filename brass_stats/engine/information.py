"""Sampling the cards one player cannot see: a determinization of that player's information set.

What a seat knows (docs/log-format.md, "chance"): the board, the markets, the merchant tiles, every
player's money, VP, income, mat and links, the wild-card piles, every discard pile but its face-down
setup card (Birmingham, Canal Era), its own hand, and how many cards each hand, the deck and the
cards beneath the deck tile (Lancashire) hold. What it does not know:

* the other players' hands;
* the order, and so the contents, of the draw deck;
* the face-down card at the bottom of each discard pile (its own one too: nobody looks at it);
* the cards beneath the deck tile (Lancashire);
* the order of the Distant Cotton Market tiles still to be drawn (Lancashire);
* every later chance draw (the Rail Era reshuffle): the state's chance source is replaced.

:func:`determinize` pools the unseen cards, sorts the pool (so the result depends on the multiset
only, never on where the cards really are), shuffles it with the ``rng`` given and deals it back
into places of the same sizes. Two states that differ only in what ``seat`` cannot see give the
same determinization for the same ``rng`` state (``tests/test_search_bot.py`` checks it).

>>> from brass_stats.engine import SeededChance, new_game
>>> import random
>>> g = new_game(["A", "B"], SeededChance(3))
>>> d = determinize(g, 0, random.Random(1))
>>> d.players[0].hand == g.players[0].hand, len(d.players[1].hand) == len(g.players[1].hand)
(True, True)
>>> sorted(unseen_cards(d, 0)) == sorted(unseen_cards(g, 0))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import IllegalAction
from .actions import Action, Sell
from .policy import STRICT, ChoicePolicy
from .sell_cotton import DISTANT_MARKET
from .setup import SeededChance
from .state import GameState
from .turn import apply_action


def face_down_count(state: GameState) -> int:
    """How many cards at the bottom of each discard pile are face down now (Canal Era setup discards)."""
    return state.rules.face_down_discards if state.era == "canal" else 0


def unseen_cards(state: GameState, seat: int) -> list[str]:
    """The cards ``seat`` cannot see, sorted: other hands, the deck, face-down discards, the reserve."""
    k = face_down_count(state)
    pool = [c for p in state.players if p.seat != seat for c in p.hand]
    pool += state.deck
    if k:
        pool += [c for p in state.players for c in p.discard[:k]]
    pool += state.reserve
    pool.sort()
    return pool


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` whose hidden cards (for ``seat``) are drawn at random from the unseen ones.

    Reads only what ``seat`` can know (plus the sizes of the hidden places); the copy shares nothing
    one may change with ``state``, and its chance source is a fresh :class:`SeededChance` drawn
    from ``rng`` (the true one would tell the Rail Era deal).
    """
    new = state.copy()
    pool = unseen_cards(state, seat)
    rng.shuffle(pool)
    at = 0
    for p in new.players:
        if p.seat != seat:
            n = len(p.hand)
            p.hand = pool[at : at + n]
            at += n
    k = face_down_count(state)
    if k:
        for p in new.players:
            n = min(k, len(p.discard))
            p.discard = pool[at : at + n] + p.discard[n:]
            at += n
    n = len(new.deck)
    new.deck = pool[at : at + n]
    at += n
    new.reserve = pool[at:]
    if new.dcm_pile:
        pile = sorted(new.dcm_pile)
        rng.shuffle(pile)
        new.dcm_pile = pile
    new.chance = SeededChance(rng.getrandbits(48))
    return new


def knowable(state: GameState, legal: Sequence[Action]) -> list[Action]:
    """The legal actions whose legality the player to move can know.

    A Lancashire Sell with a Distant Cotton Market sale before another sale is legal only if the
    market does not close on that sale, which the face-down tiles decide: the engine's list reveals
    their order. Such actions are left out (the sales can still be made one Sell at a time, or with
    the Distant Cotton Market sale last); every other legal action's legality is public.

    >>> from brass_stats.engine import SeededChance, new_game
    >>> from brass_stats.engine.legal import legal_actions
    >>> g = new_game(["A", "B"], SeededChance(3))
    >>> knowable(g, legal_actions(g)) == legal_actions(g)
    True
    """
    if not state.rules.dcm_track:
        return list(legal)
    return [a for a in legal if not (isinstance(a, Sell) and _distant_sale_before_another(a))]


def _distant_sale_before_another(a: Sell) -> bool:
    return any(s.merchant == DISTANT_MARKET for s in a.sales[:-1])


def attempt(state: GameState, action: Action, policy: ChoicePolicy = STRICT) -> GameState:
    """``action`` applied, as the player would attempt it at the table: a Lancashire Sell whose
    Distant Cotton Market sale closes the market in this determinization stops there (the later
    sales cannot happen), as it would have if the tiles had been these.

    An action taken from the true position (a forced candidate, or the action a recorded player chose)
    may depend on the face-down tiles' order, which a determinization shuffles; every other
    :class:`~brass_stats.errors.IllegalAction` is raised as it is.
    """
    try:
        return apply_action(state, action, policy)[0]
    except IllegalAction:
        if not isinstance(action, Sell) or len(action.sales) < 2:
            raise
        for k in range(len(action.sales) - 1, 0, -1):
            try:
                return apply_action(state, Sell(action.player, action.card, action.sales[:k]), policy)[0]
            except IllegalAction:
                continue
        raise
