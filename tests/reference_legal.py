"""The previous ``legal_actions``, kept as the reference the fast one must equal action for action.

Every candidate is tried through the engine (:func:`apply_action`); slow but obviously right.

Legal actions of the player to move.

Legality is always decided by the engine itself (:func:`apply_action`), never
by searching this list. Enumeration works in two stages:

* :func:`candidates` proposes action skeletons per action type with cheap,
  exact-as-possible filters (cards, network, era, slots, money);
* :func:`legal_actions` keeps the candidates the engine accepts, with every
  resource choice filled in canonically (closest/first source).

Resource sources (which tied coal mine, which iron works, which brewery) are
not enumerated as separate actions: two actions that differ only there share a
skeleton (:meth:`Action.skeleton`). Whether a merchant's barrel is drunk is
enumerated, since it changes the bonus.

>>> from brass_stats.engine import new_game, SeededChance
>>> g = new_game(["A", "B"], SeededChance(3))
>>> acts = legal_actions(g)
>>> sorted({a.TYPE for a in acts})
['build', 'develop', 'loan', 'network', 'pass', 'scout']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from brass_stats.engine.actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
from brass_stats.engine.build import slot_options, virtual_link_allows
from brass_stats.engine.connectivity import connected, connected_to_trade, network
from brass_stats.engine.develop import developable
from brass_stats.engine.loan import loan_allowed
from brass_stats.engine.policy import BEER_SOURCE, FIRST_OPTION, ChoicePolicy
from brass_stats.engine.resources import MERCHANT
from brass_stats.engine.sell_cotton import DISTANT_MARKET, market_closed
from brass_stats.engine.state import GameState
from brass_stats.engine.turn import apply_action, sellable_for_shortfall, tile_sale_value
from brass_stats.errors import IllegalAction
from brass_stats.rules_data import WILD_CARDS, WILD_INDUSTRY, WILD_LOCATION, card_industries, card_location

T = TypeVar("T")


class _BeerPreference(ChoicePolicy):
    """First option everywhere, but drinks the merchant's barrel only when asked to."""

    def __init__(self, merchant: bool) -> None:
        self.merchant = merchant

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        opts = list(options)
        if what == BEER_SOURCE:
            if self.merchant and MERCHANT in opts:
                return opts[opts.index(MERCHANT)]
            rest = [o for o in opts if o != MERCHANT]
            if rest:
                return rest[0]
        return FIRST_OPTION.choose(what, opts, context)


WITH_MERCHANT_BEER = _BeerPreference(True)
WITHOUT_MERCHANT_BEER = _BeerPreference(False)


def try_action(state: GameState, action: Action, policy: ChoicePolicy = FIRST_OPTION) -> Action | None:
    """The action with its choices filled in, or None if the engine rejects it."""
    try:
        return apply_action(state, action, policy)[1]
    except IllegalAction:
        return None


def candidates(state: GameState) -> dict[str, list[Action]]:
    """Action skeletons by type that pass the cheap checks (the engine decides the rest)."""
    seat = state.current_player
    if seat is None:
        return {}
    if state.phase == "shortfall":
        return {"shortfall": list(_shortfall_actions(state, seat))}
    p = state.players[seat]
    cards = sorted(set(p.hand))
    out: dict[str, list[Action]] = {
        "pass": [Pass(seat, c) for c in cards],
        "build": list(_build_candidates(state, seat, cards)),
        "network": list(_network_candidates(state, seat, cards)),
        "develop": list(_develop_candidates(state, seat, cards)),
        "sell": [],  # needs the engine at every step: see _sell_actions
        "loan": [],
        "scout": [],
    }
    rules = state.rules
    if loan_allowed(state):
        floor = rules.constants["loan"]["min_income_level"]
        amounts = [m for m, levels in rules.loan_options if state.income_level(seat) - levels >= floor]
        several = len(rules.loan_options) > 1
        out["loan"] = [Loan(seat, c, m if several else None) for c in cards for m in amounts]
    if rules.wild_cards and len(p.hand) >= 3 and not any(c in WILD_CARDS for c in p.hand):
        combos = sorted(set(itertools.combinations(sorted(p.hand), 3)))
        out["scout"] = [Scout(seat, combo) for combo in combos]
    return out


def legal_actions(state: GameState, types: Sequence[str] | None = None) -> list[Action]:
    """Every legal action of the player to move (resource choices filled canonically)."""
    cands = candidates(state)
    out: list[Action] = []
    for kind, acts in cands.items():
        if types is not None and kind not in types:
            continue
        if kind == "sell":
            out.extend(_sell_actions(state))
            continue
        if kind in CARD_BLIND:
            out.extend(_card_blind(state, acts))
        else:
            for a in acts:
                done = try_action(state, a)
                if done is not None:
                    out.append(done)
        if kind == "build":
            out.extend(_double_action_builds(state))
    return _one_order(_dedupe(out))


def _one_order(actions: list[Action]) -> list[Action]:
    """Two rail links placed in either order lead to the same board: keep the first legal order listed."""
    seen: set[tuple[int, str, frozenset[str]]] = set()
    out = []
    for a in actions:
        if isinstance(a, Network) and len(a.links) == 2:
            key = (a.player, a.card, frozenset(a.links))
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out


# Action types whose legality cannot depend on which card is discarded (any card will do).
CARD_BLIND = frozenset({"pass", "network", "develop", "loan", "scout"})


def _card_blind(state: GameState, acts: list[Action]) -> list[Action]:
    """Check each action once per card-free skeleton, then offer it with every card (or card set)."""
    groups: dict[Action, list[Action]] = {}
    for a in acts:
        groups.setdefault(_with_card(a, ""), []).append(a)
    out: list[Action] = []
    for variants in groups.values():
        done = try_action(state, variants[0])
        if done is None:
            continue
        out.extend(_with_card(done, a.discards if isinstance(a, Scout) else a.cards[0]) for a in variants)
    return out


_FIELDS: dict[type, tuple[str, ...]] = {}


def _with_card(a: Action, card: str | tuple[str, ...]) -> Action:
    """``a`` with another card (a Scout: other discards); ``dataclasses.replace`` without its overhead."""
    names = _FIELDS.get(type(a))
    if names is None:
        names = _FIELDS[type(a)] = tuple(f.name for f in fields(a))
    which = "discards" if isinstance(a, Scout) else "card"
    values: list[Any] = [card if n == which else getattr(a, n) for n in names]
    return type(a)(*values)


def legal_actions_by_type(state: GameState) -> dict[str, list[Action]]:
    by: dict[str, list[Action]] = {}
    for a in legal_actions(state):
        by.setdefault(a.TYPE, []).append(a)
    return by


def _dedupe(actions: list[Action]) -> list[Action]:
    seen: set[Action] = set()
    out = []
    for a in actions:
        if a not in seen:
            seen.add(a)
            out.append(a)
    return out


# -- shortfall ---------------------------------------------------------------------


def _shortfall_actions(state: GameState, seat: int) -> Iterator[Action]:
    """Every set of own tiles that covers the debt, the most valuable removed last (so none is removed
    after the debt is covered); or every tile when even all of them do not cover it."""
    owed = state.shortfalls[0][1]
    own = sellable_for_shortfall(state, seat)
    value = {ref: tile_sale_value(state, ref) for ref in own}
    if sum(value.values()) <= owed:
        yield Shortfall(seat, tuple(own))
        return

    def extend(chosen: list[str], start: int, total: int, most: int) -> Iterator[Action]:
        # a set is legal when it covers the debt and still falls short without its most valuable tile
        # (removed last); sets are visited in board order, a set before its supersets
        for i in range(start, len(own)):
            ref = own[i]
            now, top = total + value[ref], max(most, value[ref])
            if now - top >= owed:
                continue  # covered before its last tile, whatever the order: so are its supersets
            if now >= owed:
                order = sorted((*chosen, ref), key=lambda r: value[r])
                yield Shortfall(seat, tuple(order))
            yield from extend([*chosen, ref], i + 1, now, top)

    yield from extend([], 0, 0, 0)


# -- build ---------------------------------------------------------------------


def _build_candidates(state: GameState, seat: int, cards: list[str]) -> Iterator[Build]:
    rules, p = state.rules, state.players[seat]
    net = network(state, seat)
    anywhere = not state.has_pieces_on_board(seat)
    levels = {}
    for ind in rules.industries:
        lvl = p.lowest_level(ind)
        if lvl is None:
            continue
        info = rules.level(ind, lvl)
        if info.buildable_in(state.era) and info.cost_money <= p.money:
            levels[ind] = lvl
    for card in cards:
        named = card_location(card)
        if named is not None:
            pairs = [(named, ind) for ind in levels]
        elif card == WILD_LOCATION:
            pairs = [(loc, ind) for loc, L in rules.locations.items() if L.kind == "town" for ind in levels]
        else:
            inds = list(levels) if card == WILD_INDUSTRY else [i for i in card_industries(card) if i in levels]
            locs = [
                loc
                for loc, L in rules.locations.items()
                if L.slots and (anywhere or loc in net or virtual_link_allows(state, seat, loc))
            ]
            pairs = [(loc, ind) for loc in locs for ind in inds]
        for loc, ind in pairs:
            L = rules.locations[loc]
            if L.kind == "farm_brewery" and not (card == WILD_INDUSTRY or "brewery" in card_industries(card)):
                continue
            if not any(ind in s.industries for s in L.slots):
                continue
            empty, over = slot_options(state, seat, ind, levels[ind], L)
            if anywhere and card_location(card) is None and loc not in net:
                over = []  # "Building If You Have No Tiles on the Board": undeveloped spaces only
            for slot in empty + over:
                yield Build(seat, card, ind, loc, slot)


def _double_action_builds(state: GameState) -> list[Action]:
    """Lancashire: any two cards as any location card. Which two cards are discarded cannot make a
    build legal or illegal, so each build is checked once and then offered with every pair."""
    seat = state.current_player
    rules = state.rules
    if seat is None or not rules.double_action_build or state.actions_this_turn or state.actions_per_turn() < 2:
        return []
    p = state.players[seat]
    if len(p.hand) < 2:
        return []
    pairs = sorted(set(itertools.combinations(sorted(p.hand), 2)))
    first = pairs[0]
    out: list[Action] = []
    for loc_id, loc in rules.locations.items():
        for ind in rules.industry_ids:
            lvl = p.lowest_level(ind)
            if lvl is None or not any(ind in s.industries for s in loc.slots):
                continue
            empty, over = slot_options(state, seat, ind, lvl, loc)
            for slot in empty + over:
                done = try_action(state, Build(seat, first[0], ind, loc_id, slot, second_card=first[1]))
                if isinstance(done, Build):
                    out.extend(Build(seat, a, ind, loc_id, slot, done.coal, done.iron, b) for a, b in pairs)
    return out


# -- network ---------------------------------------------------------------------


def _placeable_links(state: GameState, seat: int) -> list[str]:
    net = network(state, seat)
    anywhere = not state.has_pieces_on_board(seat)
    return [
        lid
        for lid, link in state.rules.links.items()
        if lid not in state.links and link.allowed_in(state.era) and (anywhere or any(x in net for x in link.connects))
    ]


def _network_candidates(state: GameState, seat: int, cards: list[str]) -> Iterator[Network]:
    p = state.players[seat]
    cost_one = 3 if state.era == "canal" else 5
    if p.money < cost_one:
        return
    singles = _placeable_links(state, seat)
    for card in cards:
        for lid in singles:
            yield Network(seat, card, (lid,))
    if state.era != "rail" or p.money < 15:
        return
    # both orders: the second link must touch the network with the first in place, and its ends are
    # where the beer comes from; legal_actions keeps one legal order per pair
    pairs: list[tuple[str, str]] = []
    net = network(state, seat)
    links = state.rules.links
    for first in singles:
        # with the first link placed, the network also holds its ends (and the player has pieces)
        reach = net.union(links[first].connects)
        pairs.extend(
            (first, lid)
            for lid, link in links.items()
            if lid != first
            and lid not in state.links
            and link.allowed_in(state.era)
            and any(x in reach for x in link.connects)
        )
    for card in cards:
        for pair in pairs:
            yield Network(seat, card, pair)


# -- develop -----------------------------------------------------------------------


def _develop_candidates(state: GameState, seat: int, cards: list[str]) -> Iterator[Develop]:
    first = developable(state, seat)
    combos: list[tuple[str, ...]] = [(i,) for i in first]
    for a in first:
        after = state.players[seat].copy()
        after.take_from_mat(a)
        for b in state.rules.industries:
            lvl = after.lowest_level(b)
            if lvl is not None and state.rules.level(b, lvl).can_develop and (b, a) not in combos:
                combos.append((a, b))
    for card in cards:
        for combo in combos:
            yield Develop(seat, card, combo)


# -- sell ------------------------------------------------------------------------------


def _sale_options(state: GameState, seat: int) -> list[tuple[Sale, bool]]:
    """(sale skeleton, drink the merchant's barrel?) for every tile/buyer pair that may connect."""
    if state.rules.dcm_track:
        return _cotton_sale_options(state, seat)
    out = []
    for ref, t in sorted(state.tiles.items()):
        if t.owner != seat or t.flipped or t.industry not in state.rules.sellable:
            continue
        loc = ref.split(":", 1)[0]
        for m in state.rules.merchants:
            if not any(ms.location == m and t.industry in ms.accepts for ms in state.merchant_spaces):
                continue
            if not connected(state, loc, m):
                continue
            out.append((Sale(ref, m), False))
            if state.level_info(t).beer_to_sell and any(
                ms.location == m and t.industry in ms.accepts and ms.beer for ms in state.merchant_spaces
            ):
                out.append((Sale(ref, m), True))
    return out


def _cotton_sale_options(state: GameState, seat: int) -> list[tuple[Sale, bool]]:
    """Lancashire: each own unflipped cotton mill to each connected unflipped port, or the Distant Market."""
    out: list[tuple[Sale, bool]] = []
    ports = [ref for ref, t in sorted(state.tiles.items()) if t.industry == "port" and not t.flipped]
    for ref, t in sorted(state.tiles.items()):
        if t.owner != seat or t.flipped or t.industry not in state.rules.sellable:
            continue
        loc = ref.split(":", 1)[0]
        out.extend((Sale(ref, port), False) for port in ports if connected(state, loc, port.split(":", 1)[0]))
        if not market_closed(state) and connected_to_trade(state, (loc,)):
            out.append((Sale(ref, DISTANT_MARKET), False))
    return out


def _sell_actions(state: GameState) -> list[Action]:
    """Every sequence of sales (tiles in board order), each with or without merchant beer."""
    seat = state.current_player
    assert seat is not None
    options = _sale_options(state, seat)
    if not options:
        return []
    out: list[Action] = []
    cards = sorted(set(state.players[seat].hand))

    def extend(prefix: tuple[Sale, ...], start: int) -> None:
        used = {s.tile for s in prefix}
        for i in range(start, len(options)):
            sale, with_beer = options[i]
            if sale.tile in used:
                continue
            trial = Sell(seat, cards[0], (*prefix, sale))
            policy = WITH_MERCHANT_BEER if with_beer else WITHOUT_MERCHANT_BEER
            done = try_action(state, _resolve_prefix(trial, prefix), policy)
            if done is None:
                continue
            assert isinstance(done, Sell)
            last = done.sales[-1]
            if with_beer != (last.beer is not None and MERCHANT in last.beer):
                continue  # the variant asked for is not what happened: another entry covers it
            out.append(done)
            extend(done.sales, i + 1)

    extend((), 0)
    # the same sales with any other card in hand
    result: list[Action] = []
    for a in _dedupe(out):
        assert isinstance(a, Sell)
        result.extend(Sell(seat, c, a.sales) for c in cards)
    return result


def _resolve_prefix(trial: Sell, prefix: tuple[Sale, ...]) -> Sell:
    """Sales already resolved keep their stated choices; only the new one is open."""
    return Sell(trial.player, trial.card, (*prefix, trial.sales[-1]))
