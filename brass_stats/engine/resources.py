"""Consuming coal, iron and beer, and flipping tiles when their last cube or barrel goes.

Each ``consume_*`` function checks a stated list of sources against the rules
cube by cube (the options can change as mines run dry), or asks the choice
policy when the action left the sources out. It returns the sources used.

Its fast twin is :class:`~brass_stats.engine.legal.probe.Draw` (closest-mine order, market price
and trade reach on counters), held equal by ``tests/test_legal_reference.py``.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .connectivity import connected_to_trade, distances_from, slot_location
from .policy import BEER_SOURCE, COAL_MINE, IRON_WORKS, ChoicePolicy, decide, depart
from .state import Effect, GameState, Tile, new_effect

MARKET = "market"
MERCHANT = "merchant"


def spend(state: GameState, seat: int, amount: int, cause: str, what: str | None = None) -> None:
    """Pay money to the bank via the Character tile (counts toward turn order)."""
    if amount <= 0:
        return
    p = state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)  # player_mut, inlined (hot)
    if p.money < amount:
        raise IllegalAction(
            "money.afford",
            f"player {seat} must pay £{amount} for {what or cause} but has £{p.money}",
            player=seat,
            cost=amount,
            money=p.money,
        )
    p.money -= amount
    p.spent += amount
    if (effects := state.effects) is not None:  # state.effect, written out (hot)
        effects.append(new_effect(Effect, ("money", seat, -amount, cause, {})))


def take_resource(state: GameState, ref: str, cause: str) -> None:
    """Remove one cube/barrel from a tile; flip it and raise its owner's income when it empties."""
    t = state.tiles[ref] = state.tiles[ref].copy()  # tiles are shared between copies of a state
    t.resources -= 1
    if t.resources == 0:
        _flip_copied(state, ref, t, cause)


def flip(state: GameState, ref: str, cause: str) -> None:
    _flip_copied(state, ref, state.tiles[ref].copy(), cause)  # tiles are shared between copies of a state


def _flip_copied(state: GameState, ref: str, t: Tile, cause: str) -> None:
    """Flip ``t``, a copy of the tile at ``ref`` that no other state holds."""
    state.tiles[ref] = t
    t.flipped = True
    info = state.level_info(t)
    moved = state.advance_income(t.owner, info.income_spaces)
    if (effects := state.effects) is not None:  # state.effect, written out (hot)
        effects.append(
            new_effect(Effect, ("flip", t.owner, 1, cause, {"tile": ref, "industry": t.industry, "level": t.level}))
        )
        effects.append(new_effect(Effect, ("income_spaces", t.owner, moved, cause, {"tile": ref})))
    state.touch_board(links=False, placed=False)


def _stated(stated: tuple[str, ...] | None, n: int, what: str, seat: int) -> None:
    if stated is not None and len(stated) != n:
        rule = {"coal": "coal.count", "iron": "iron.count", "beer": "beer.count"}[what]
        raise IllegalAction(
            rule, f"{n} {what} needed but {len(stated)} source(s) stated", player=seat, needed=n, stated=list(stated)
        )


def consume_coal(
    state: GameState,
    seat: int,
    origins: tuple[str, ...],
    n: int,
    stated: tuple[str, ...] | None,
    policy: ChoicePolicy,
    cause: str,
) -> tuple[tuple[str, ...], int]:
    """Consume ``n`` coal for something at ``origins``; returns (sources, market cost to pay)."""
    _stated(stated, n, "coal", seat)
    used: list[str] = []
    cost = 0
    market = state.rules.markets["coal"]
    for i in range(n):
        # distances only once a coal mine with coal is found: often none is (then the market only
        # needs to know whether a merchant is connected)
        dist: dict[str, int] | None = None
        best: int | None = None
        closest: list[str] = []
        for ref, t in state.tiles.items():
            if t.industry != "coal_mine" or t.flipped or t.resources <= 0:
                continue
            if dist is None:
                dist = distances_from(state, origins)
            d = dist.get(ref.partition(":")[0])
            if d is None:
                continue
            if best is None or d < best:
                best, closest = d, [ref]
            elif d == best:
                closest.append(ref)
        if len(closest) > 1:
            closest.sort(key=_slot_sort_key)
        if stated is not None:
            src = stated[i]
        elif closest:
            context = {
                "player": seat,
                "state": state,
                "used": used,
                "remaining": n - i,
                "cause": cause,
                "origins": origins,
            }
            src = policy.fill(COAL_MINE, closest, context)
        else:
            src = MARKET
        if src not in closest:
            _check_named_source(state, src, "coal_mine", seat)
            if src != MARKET and slot_location(src) not in (dist or distances_from(state, origins)):
                raise IllegalAction(
                    "coal.connected",
                    f"coal mine {src} is not connected to {'/'.join(origins)}",
                    player=seat,
                    origins=list(origins),
                    stated=src,
                )
            if closest:
                depart(policy, state, _not_closest(seat, closest, best, src), cause)
        if src != MARKET:
            take_resource(state, src, cause)
            if (effects := state.effects) is not None:  # state.effect, written out (hot)
                detail = {"source": src, "owner": state.tiles[src].owner}
                effects.append(new_effect(Effect, ("coal_used", seat, 1, cause, detail)))
        else:
            if not connected_to_trade(state, origins):
                raise IllegalAction(
                    "coal.market",
                    f"no connected coal mine has coal and {'/'.join(origins)} is not connected to a merchant, "
                    "so coal cannot be bought",
                    player=seat,
                    origins=list(origins),
                )
            price = market.buy_price(state.coal_market)
            if state.coal_market > 0:
                state.coal_market -= 1
            cost += price
            if (effects := state.effects) is not None:  # state.effect, written out (hot)
                effects.append(new_effect(Effect, ("coal_used", seat, 1, cause, {"source": MARKET, "price": price})))
        used.append(src)
    return tuple(used), cost


def _not_closest(seat: int, closest: list[str], best: int | None, src: str) -> IllegalAction:
    return IllegalAction(
        "coal.closest_mine",
        f"coal must come from the closest connected coal mine ({', '.join(closest)}, {best} link(s) away), not {src}",
        player=seat,
        closest=closest,
        distance=best,
        stated=src,
    )


def consume_iron(
    state: GameState,
    seat: int,
    n: int,
    stated: tuple[str, ...] | None,
    policy: ChoicePolicy,
    cause: str,
) -> tuple[tuple[str, ...], int]:
    """Consume ``n`` iron (no connection needed); returns (sources, market cost to pay)."""
    _stated(stated, n, "iron", seat)
    used: list[str] = []
    cost = 0
    market = state.rules.markets["iron"]
    for i in range(n):
        works = [r for r, t in state.tiles.items() if t.industry == "iron_works" and not t.flipped and t.resources > 0]
        if len(works) > 1:
            works.sort(key=_slot_sort_key)
        if works:
            src = (
                stated[i]
                if stated is not None
                else decide(
                    policy,
                    IRON_WORKS,
                    works,
                    {"player": seat, "state": state, "used": used, "remaining": n - i, "cause": cause},
                )
            )
            if src not in works:
                _check_named_source(state, src, "iron_works", seat)
                error = IllegalAction(
                    "iron.works_first",
                    f"iron must come from an unflipped iron works ({', '.join(works)}), not {src}",
                    player=seat,
                    iron_works=works,
                    stated=src,
                )
                depart(policy, state, error, cause)  # only the market can get here: the works' priority
        else:
            src = MARKET
            _market_stated(state, stated, i, "iron_works", seat)
        if src != MARKET:
            take_resource(state, src, cause)
            if (effects := state.effects) is not None:  # state.effect, written out (hot)
                detail = {"source": src, "owner": state.tiles[src].owner}
                effects.append(new_effect(Effect, ("iron_used", seat, 1, cause, detail)))
        else:
            price = market.buy_price(state.iron_market)
            if state.iron_market > 0:
                state.iron_market -= 1
            cost += price
            if (effects := state.effects) is not None:  # state.effect, written out (hot)
                effects.append(new_effect(Effect, ("iron_used", seat, 1, cause, {"source": MARKET, "price": price})))
        used.append(src)
    return tuple(used), cost


def beer_options(state: GameState, seat: int, origins: tuple[str, ...], merchant_space: int | None = None) -> list[str]:
    """Barrels the player may drink for something at ``origins``: own breweries anywhere,
    connected opponents' breweries, and (when selling) the barrel beside the merchant tile."""
    dist = distances_from(state, origins)
    opts = [
        ref
        for ref, t in state.tiles.items()
        if t.industry == "brewery"
        and not t.flipped
        and t.resources > 0
        and (t.owner == seat or slot_location(ref) in dist)
    ]
    opts.sort(key=lambda r: (state.tiles[r].owner != seat, _slot_sort_key(r)))
    if merchant_space is not None and state.merchant_spaces[merchant_space].beer:
        opts.insert(0, MERCHANT)
    return opts


def consume_beer(
    state: GameState,
    seat: int,
    origins: tuple[str, ...],
    n: int,
    stated: tuple[str, ...] | None,
    policy: ChoicePolicy,
    cause: str,
    merchant_space: int | None = None,
    rule: str = "beer.source",
    context: dict[str, object] | None = None,
) -> tuple[str, ...]:
    """Consume ``n`` barrels; ``merchant_space`` is the index into ``state.merchant_spaces`` sold to, if any."""
    _stated(stated, n, "beer", seat)
    used: list[str] = []
    for i in range(n):
        opts = beer_options(state, seat, origins, merchant_space)
        if stated is not None and stated[i] not in opts and stated[i] != MERCHANT:
            _check_named_source(state, stated[i], "brewery", seat)
        if not opts:
            raise IllegalAction(
                rule, "no beer is available: no own brewery, no connected brewery, no merchant barrel", player=seat
            )
        src = (
            stated[i]
            if stated is not None
            else decide(
                policy,
                BEER_SOURCE,
                opts,
                {
                    "player": seat,
                    "state": state,
                    "used": used,
                    "remaining": n - i,
                    "cause": cause,
                    "origins": origins,
                    **(context or {}),
                },
            )
        )
        if src not in opts:
            if src != MERCHANT:
                _check_named_source(state, src, "brewery", seat)
            raise IllegalAction(
                rule,
                f"beer cannot come from {src}; available: {', '.join(opts)}",
                player=seat,
                options=opts,
                stated=src,
            )
        if src == MERCHANT:
            assert merchant_space is not None
            spaces = list(state.merchant_spaces)  # a new list: states share it
            spaces[merchant_space] = spaces[merchant_space].with_beer(False)
            state.merchant_spaces = spaces
            state.effect("beer_used", seat, 1, cause, source=MERCHANT)
        else:
            take_resource(state, src, cause)
            state.effect("beer_used", seat, 1, cause, source=src, owner=state.tiles[src].owner)
        used.append(src)
    return tuple(used)


def _market_stated(state: GameState, stated: tuple[str, ...] | None, i: int, industry: str, seat: int) -> None:
    """With no tile to take from, a stated source must be the market."""
    if stated is None or stated[i] == MARKET:
        return
    _check_named_source(state, stated[i], industry, seat)  # every works is empty: this raises source.unknown


def _check_named_source(state: GameState, src: str, industry: str, seat: int) -> None:
    """A named source must be a tile of that industry with something left on it."""
    if src == MARKET and industry != "brewery":
        return
    t = state.tiles.get(src)
    if t is None or t.industry != industry or t.resources <= 0:
        what = "nothing" if t is None else f"{'an empty ' if t.resources <= 0 else 'a '}{t.industry}"
        resource = {"coal_mine": "coal", "iron_works": "iron", "brewery": "beer"}[industry]
        raise IllegalAction(
            "source.unknown", f"{src} holds {what}: it cannot provide {resource}", player=seat, stated=src
        )


def _slot_sort_key(ref: str) -> tuple[str, int]:
    loc, _, idx = ref.partition(":")
    return loc, int(idx)
