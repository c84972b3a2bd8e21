"""Sell action: flip cotton mills, manufacturers and potteries at connected merchants."""

from __future__ import annotations

from ..errors import IllegalAction
from ..rules_data import SELLABLE
from .actions import Sale, Sell
from .connectivity import connected, slot_location
from .develop import developable, remove_for_develop
from .policy import BONUS_DEVELOP, MERCHANT_TILE, ChoicePolicy, decide
from .resources import MERCHANT, consume_beer, flip
from .state import GameState


def accepting_spaces(state: GameState, merchant: str, industry: str) -> list[int]:
    """Indices into ``state.merchant_spaces`` of the merchant's tiles that buy ``industry``."""
    return [i for i, ms in enumerate(state.merchant_spaces) if ms.location == merchant and industry in ms.accepts]


def check_sellable(state: GameState, seat: int, sale: Sale) -> list[int]:
    """Check tile and merchant; returns the accepting merchant spaces."""
    t = state.tiles.get(sale.tile)
    if t is None or t.owner != seat or t.industry not in SELLABLE or t.flipped:
        what = "no tile" if t is None else f"{'a flipped ' if t.flipped else ''}{t.industry} of player {t.owner}"
        raise IllegalAction(
            "sell.tile",
            f"{sale.tile} holds {what}: only your unflipped cotton mills, manufacturers and potteries sell",
            player=seat,
        )
    if sale.merchant not in state.rules.merchants:
        raise IllegalAction("log.unknown_name", f"unknown merchant {sale.merchant!r}", player=seat)
    spaces = accepting_spaces(state, sale.merchant, t.industry)
    if not spaces:
        faces = [ms.face for ms in state.merchant_spaces if ms.location == sale.merchant] or ["no merchant tiles"]
        raise IllegalAction(
            "sell.merchant", f"{sale.merchant} ({', '.join(faces)}) does not buy {t.industry}", player=seat
        )
    if not connected(state, slot_location(sale.tile), sale.merchant):
        raise IllegalAction("sell.merchant", f"{sale.tile} is not connected to {sale.merchant}", player=seat)
    return spaces


def _choose_space(
    state: GameState, seat: int, sale: Sale, spaces: list[int], beer_needed: int, policy: ChoicePolicy
) -> int:
    if sale.merchant_space is not None:
        for i in spaces:
            if state.merchant_spaces[i].index == sale.merchant_space:
                return i
        if not 0 <= sale.merchant_space < state.rules.merchants[sale.merchant].spaces:
            raise IllegalAction(
                "log.unknown_name", f"{sale.merchant} has no merchant tile {sale.merchant_space}", player=seat
            )
        raise IllegalAction(
            "sell.merchant", f"merchant tile {sale.merchant}:{sale.merchant_space} does not buy this good", player=seat
        )
    with_barrel = [i for i in spaces if state.merchant_spaces[i].beer]
    merchant_beer_possible = beer_needed > 0 and (sale.beer is None or MERCHANT in sale.beer)
    if not merchant_beer_possible or len(with_barrel) <= 1:
        return with_barrel[0] if (merchant_beer_possible and with_barrel) else spaces[0]
    labels = [f"{sale.merchant}:{state.merchant_spaces[i].index}" for i in with_barrel]
    chosen = decide(policy, MERCHANT_TILE, labels, {"player": seat, "state": state, "sale": sale})
    return with_barrel[labels.index(chosen)]


def apply_sale(state: GameState, seat: int, sale: Sale, policy: ChoicePolicy) -> Sale:
    spaces = check_sellable(state, seat, sale)
    t = state.tiles[sale.tile]
    info = state.level_info(t)
    space = _choose_space(state, seat, sale, spaces, info.beer_to_sell, policy)
    if sale.beer is not None and MERCHANT in sale.beer and not state.merchant_spaces[space].beer:
        raise IllegalAction(
            "sell.merchant_beer",
            f"no barrel is left beside merchant tile {sale.merchant}:{state.merchant_spaces[space].index}",
            player=seat,
        )
    beer = consume_beer(
        state,
        seat,
        (slot_location(sale.tile),),
        info.beer_to_sell,
        sale.beer,
        policy,
        "sell",
        merchant_space=space,
        context={"sale": sale},
    )
    flip(state, sale.tile, "sell")
    bonus_develop = None
    if MERCHANT in beer:
        bonus_develop = _merchant_bonus(state, seat, sale, policy)
    elif sale.bonus_develop is not None:
        raise IllegalAction("sell.bonus_develop", "a develop bonus needs the Gloucester merchant's beer", player=seat)
    index = state.merchant_spaces[space].index
    beer_out = beer if info.beer_to_sell else None
    if index == sale.merchant_space and beer_out == sale.beer and bonus_develop == sale.bonus_develop:
        return sale  # every choice stated as made
    return Sale(sale.tile, sale.merchant, index, beer_out, bonus_develop)


def _merchant_bonus(state: GameState, seat: int, sale: Sale, policy: ChoicePolicy) -> str | None:
    m = state.rules.merchants[sale.merchant]
    p = state.player_mut(seat)
    cause = f"merchant_bonus:{m.id}"
    if m.bonus_type == "money":
        p.money += m.bonus_amount
        state.effect("money", seat, m.bonus_amount, cause)
    elif m.bonus_type == "vp":
        p.vp += m.bonus_amount
        state.effect("vp", seat, m.bonus_amount, cause)
    elif m.bonus_type == "income":
        moved = state.advance_income(seat, m.bonus_amount)
        state.effect("income_spaces", seat, moved, cause)
    elif m.bonus_type == "develop":
        options = developable(state, seat)
        if sale.bonus_develop is not None:
            remove_for_develop(state, seat, sale.bonus_develop, cause)
            return sale.bonus_develop
        if not options:
            return None
        choice = decide(policy, BONUS_DEVELOP, options, {"player": seat, "state": state, "sale": sale})
        remove_for_develop(state, seat, choice, cause)
        return choice
    if sale.bonus_develop is not None:
        raise IllegalAction("sell.bonus_develop", f"the {m.id} merchant's bonus is not a develop", player=seat)
    return None


def apply_sell(state: GameState, a: Sell, policy: ChoicePolicy) -> Sell:
    if not a.sales:
        raise IllegalAction("sell.at_least_one", "a Sell action must sell at least one tile", player=a.player)
    done = tuple(apply_sale(state, a.player, s, policy) for s in a.sales)
    return a if done == a.sales else Sell(a.player, a.card, done)
