"""Turns, rounds and eras: who acts, discarding, refilling, turn order, income, shortfalls, era ends.

:func:`apply_action` is the engine's single entry point. It never changes the
state it is given: it returns a new state and the action with every choice
filled in, or raises :class:`~brass_stats.errors.IllegalAction`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..errors import IllegalAction
from ..rules_data import WILD_CARDS
from .actions import Action, Build, Develop, Loan, Network, Pass, Scout, Sell, Shortfall
from .build import apply_build
from .develop import apply_develop
from .editions import apply_edition_sell
from .loan import apply_loan
from .network import apply_network
from .policy import SHORTFALL_TILE, STRICT, ChoicePolicy, decide
from .scoring import score_cash, score_era, score_introductory
from .scout import apply_scout, check_scout
from .setup import distant_market_tiles
from .state import Effect, GameState, Tile, new_effect

Handler = Callable[[GameState, Any, ChoicePolicy], Action]

HANDLERS: dict[type[Action], Handler] = {
    Build: apply_build,
    Network: apply_network,
    Develop: apply_develop,
    Sell: apply_edition_sell,
    Loan: apply_loan,
    Scout: apply_scout,
    Pass: lambda state, a, policy: a,
}


def apply_action(
    state: GameState, action: Action, policy: ChoicePolicy = STRICT, in_place: bool = False
) -> tuple[GameState, Action]:
    """Apply one action to a copy of ``state``; returns (new state, action with all choices stated).

    ``in_place=True`` changes ``state`` itself (no copy), for a caller that keeps no earlier state;
    after an :class:`IllegalAction` such a state is half-changed and must be thrown away.
    """
    if state.phase == "over":
        raise IllegalAction("turn.game_over", "the game is over; no further actions may be taken", player=action.player)
    shortfall = state.phase == "shortfall"
    expected = state.shortfalls[0][0] if shortfall else state.turn_order[state.turn_pos]  # current_player
    if action.player != expected:
        raise IllegalAction(
            "turn.order",
            f"it is player {expected}'s turn, not player {action.player}'s",
            player=action.player,
            expected=expected,
        )
    new = state if in_place else state.successor()
    new.effects = state.effects
    if shortfall:
        if not isinstance(action, Shortfall):
            raise IllegalAction(
                "turn.shortfall_pending",
                f"player {expected} must first remove tiles to pay £{state.shortfalls[0][1]} of negative income",
                player=action.player,
            )
        resolved: Action = apply_shortfall(new, action, policy)
        new.action_count += 1
        return new, resolved
    if isinstance(action, Shortfall):
        raise IllegalAction("shortfall.not_needed", "no shortfall is being paid now", player=action.player)

    p = new.player_mut(action.player)  # the acting player always changes (cards)
    cards = action.cards
    if not cards:
        raise IllegalAction("turn.card_in_hand", "every action discards a card", player=action.player)
    if isinstance(action, Scout):
        check_scout(new, action)
    if len(cards) == 1:
        short = [] if cards[0] in p.hand else [(cards[0], 1)]
    else:
        need, have = Counter(cards), Counter(p.hand)
        short = [(card, n) for card, n in need.items() if have[card] < n]
    if short:
        card, n = short[0]
        if card not in new.rules.all_card_codes:
            raise IllegalAction("log.unknown_name", f"unknown card {card!r}", player=action.player)
        raise IllegalAction(
            "turn.card_in_hand",
            f"player {action.player} does not hold {card}" + (f" x{n}" if n > 1 else ""),
            player=action.player,
            hand=sorted(p.hand),
        )
    for card in cards:
        p.hand.remove(card)
    resolved = HANDLERS[type(action)](new, action, policy)
    for card in cards:
        if card in WILD_CARDS:
            new.wild = {**new.wild, card: new.wild[card] + 1}  # a new dict: states share it
        else:
            p.discard.append(card)
    new.action_count += 1
    new.actions_this_turn += len(cards) if isinstance(action, Build) else 1  # a double-action build uses both
    c = new.rules.constants  # actions_per_turn(), written out: once per action
    first = new.era == "canal" and new.era_round == 1
    per_turn = c["actions_first_round_canal_era"] if first else c["actions_per_turn"]
    if new.actions_this_turn >= per_turn or not p.hand:
        _end_turn(new)
    return new, resolved


def _end_turn(state: GameState) -> None:
    seat = state.turn_order[state.turn_pos]
    p = state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)  # player_mut, inlined (hot)
    draw = state.rules.constants["hand_size"] - len(p.hand)
    if draw > 0 and state.deck:
        p.hand.extend(state.deck[:draw])
        state.deck = state.deck[draw:]  # a new list: states share the deck
    state.actions_this_turn = 0
    state.turn_pos += 1
    if state.turn_pos == state.num_players:
        _end_round(state)


def _end_round(state: GameState) -> None:
    era_ends = not state.deck and all(not p.hand for p in state.players)
    final_round = era_ends and (state.era == "rail" or bool(state.options.get("introductory")))
    state.turn_order = sorted(state.turn_order, key=[p.spent for p in state.players].__getitem__)
    for seat, p in enumerate(state.players):
        if p.spent:
            state.player_mut(seat).spent = 0
    state.turn_pos = 0
    if not final_round:
        for seat in state.turn_order:
            _take_income(state, seat)
    if state.shortfalls:
        state.phase = "shortfall"
        state.era_ends_after_shortfall = era_ends
        return
    _after_round(state, era_ends)


def _take_income(state: GameState, seat: int) -> None:
    p = state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)  # player_mut, inlined (hot)
    income = state.rules.income_levels[p.income_space]  # state.income_level(seat)
    if income >= 0:
        p.money += income
        if (effects := state.effects) is not None:  # state.effect, written out (hot)
            effects.append(new_effect(Effect, ("money", seat, income, "income", {})))
        return
    owed = -income
    paid = min(owed, p.money)
    p.money -= paid
    state.effect("money", seat, -paid, "income")
    short = owed - paid
    if short == 0:
        return
    if sellable_for_shortfall(state, seat):
        state.shortfalls = [*state.shortfalls, (seat, short)]  # a new list: states share it
    else:
        _lose_vp(state, seat, short)


def _lose_vp(state: GameState, seat: int, short: int) -> None:
    p = state.player_mut(seat)
    lost = min(p.vp, short)  # "lose 1 VP (if possible)": never below 0
    p.vp -= lost
    state.effect("vp", seat, -lost, "shortfall", short=short)


def sellable_for_shortfall(state: GameState, seat: int) -> list[str]:
    """The player's tiles that raise money when removed (a £0 tile raises nothing: D21)."""
    own = [r for r, t in state.tiles.items() if t.owner == seat and tile_sale_value_of(state, t) > 0]
    return sorted(own, key=_ref_key)


def tile_sale_value(state: GameState, ref: str) -> int:
    """A tile removed for a shortfall is worth half its cost, rounded down."""
    return tile_sale_value_of(state, state.tiles[ref])


def tile_sale_value_of(state: GameState, tile: Tile) -> int:
    return state.level_info(tile).cost_money // 2


def apply_shortfall(state: GameState, a: Shortfall, policy: ChoicePolicy) -> Shortfall:
    """Remove own tiles (half their cost each) until the shortfall is covered; then 1 VP per £1 still short.

    A tile list left out is filled in when every way the rules allow ends in the same state. Every
    tile can begin a way (each raises money), so that is when every way removes every tile: when
    all the tiles but the cheapest do not cover the debt. They then go in board order; otherwise
    the policy chooses (the strict one refuses).
    """
    seat, remaining = state.shortfalls[0]
    p = state.player_mut(seat)
    stated = None if a.tiles is None else list(a.tiles)
    chosen: list[str] = []
    while remaining > 0:
        own = sellable_for_shortfall(state, seat)
        if not own:
            break
        if stated is None:
            values = [tile_sale_value(state, r) for r in own]
            # all the tiles but the cheapest do not cover the debt: every tile goes whatever the order,
            # every way ends in the same state, so there is no choice (board order)
            forced = sum(values) - min(values) < remaining
            ref = (
                own[0]
                if forced
                else decide(policy, SHORTFALL_TILE, own, {"player": seat, "state": state, "owed": remaining})
            )
        elif len(chosen) < len(stated):
            ref = stated[len(chosen)]
            if ref not in own:
                t0 = state.tiles.get(ref)
                why = (
                    "is worth £0 and raises no money"
                    if t0 is not None and t0.owner == seat
                    else (f"is not one of player {seat}'s tiles on the board")
                )
                raise IllegalAction("shortfall.tiles", f"{ref} {why}", player=seat)
        else:
            raise IllegalAction(
                "shortfall.tiles",
                f"£{remaining} is still owed and player {seat} still has tiles on the board; "
                "tiles must be removed until the shortfall is covered",
                player=seat,
            )
        t = state.tiles.pop(ref)
        state.touch_board(links=False)
        value = tile_sale_value_of(state, t)
        take = min(value, remaining)
        remaining -= take
        p.money += value - take
        chosen.append(ref)
        state.effect("tile_removed", seat, 1, "shortfall", tile=ref, industry=t.industry, level=t.level, value=value)
        state.effect("money", seat, value - take, "shortfall_tile_sale", tile=ref)
    if stated is not None and len(chosen) < len(stated):
        raise IllegalAction(
            "shortfall.tiles",
            f"the shortfall was covered after {len(chosen)} tile(s); "
            f"removing {stated[len(chosen)]} as well is not allowed",
            player=seat,
        )
    if remaining > 0:
        _lose_vp(state, seat, remaining)
    state.shortfalls = state.shortfalls[1:]
    if not state.shortfalls:
        state.phase = "actions"
        _after_round(state, state.era_ends_after_shortfall)
    done = tuple(chosen)
    return a if done == a.tiles else Shortfall(seat, done)


def _ref_key(ref: str) -> tuple[str, int]:
    loc, _, idx = ref.partition(":")
    return loc, int(idx)


def _after_round(state: GameState, era_ends: bool) -> None:
    if era_ends:
        score_era(state)
        if state.options.get("introductory"):
            score_introductory(state)
            state.phase = "over"
            return
        if state.era == "rail":
            score_cash(state)
            state.phase = "over"
            return
        _start_rail_era(state)
        return
    state.round += 1
    state.era_round += 1


def _start_rail_era(state: GameState) -> None:
    """End of Canal Era: remove level-1 tiles, refill merchant beer, reshuffle, new hands."""
    for ref in [r for r, t in state.tiles.items() if t.level == 1]:
        t = state.tiles.pop(ref)
        state.effect("tile_removed", t.owner, 1, "canal_era_end", tile=ref, industry=t.industry, level=1)
    state.merchant_spaces = [ms.with_beer(bool(ms.accepts)) for ms in state.merchant_spaces]
    state.touch_board(links=False)
    n = state.num_players
    state.chance = state.chance.copy()  # the chance source is shared with earlier states (successor)
    if state.rules.dcm_tiles:  # Distant Cotton Market: marker to the top, all tiles reshuffled
        state.dcm_position = 0
        state.dcm_drawn = []
        state.dcm_pile = state.chance.distant_market(distant_market_tiles(state.rules, n, state.options), "rail")
    cards = [c for p in state.players for c in p.discard] + state.reserve
    state.reserve = []
    remove = state.rules.classic_deck_removed_in_rail.get(n, 0) if state.options.get("classic_deck") else 0
    deal = state.chance.rail_deal(cards, n, remove)
    for seat, hand in zip(range(n), deal.hands, strict=True):
        p = state.player_mut(seat)
        p.discard = []
        p.hand = list(hand)
    state.deck = list(deal.deck)
    state.era = "rail"
    state.round += 1
    state.era_round = 1
