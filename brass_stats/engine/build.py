"""Build action: cards, network, slot choice, overbuilding, cost, and coal/iron to the markets."""

from __future__ import annotations

from ..errors import IllegalAction
from ..rules_data import WILD_INDUSTRY, WILD_LOCATION, Location, Slot, card_industries, card_location
from .actions import Build
from .connectivity import connected_to_trade, network
from .policy import SLOT, ChoicePolicy, decide, depart
from .resources import consume_coal, consume_iron, flip, spend
from .state import Effect, GameState, Tile, new_effect


def check_card(state: GameState, a: Build, loc: Location) -> bool:
    """Which cards may build which industry where (Build Action step 1, Farm Breweries).

    Returns True when only "Building If You Have No Tiles on the Board" allows it: then the tile
    must go on an undeveloped space."""
    seat, card = a.player, a.card
    farm = loc.kind == "farm_brewery"
    if a.second_card is not None:
        _check_double_action(state, a)
        return False  # two cards as any location card
    named = card_location(card)
    if named is not None:
        if named != a.location:
            raise IllegalAction("build.card", f"a {named} location card cannot build in {a.location}", player=seat)
        return False
    if card == WILD_LOCATION:
        if farm:
            raise IllegalAction(
                "build.wild_location_farm", "a Wild Location card cannot build on a Farm Brewery", player=seat
            )
        return False
    if card == WILD_INDUSTRY or card.startswith("ind:"):
        if card != WILD_INDUSTRY and a.industry not in card_industries(card):
            raise IllegalAction("build.card", f"card {card} cannot build a {a.industry}", player=seat)
        if a.location in network(state, seat):
            return False
        if virtual_link_allows(state, seat, a.location):
            return False
        if not state.has_pieces_on_board(seat):
            return True  # Building If You Have No Tiles on the Board
        raise IllegalAction(
            "build.network",
            f"{a.location} is not in player {seat}'s network, so an industry card cannot build there",
            player=seat,
            network=sorted(network(state, seat)),
        )
    raise IllegalAction("build.card", f"card {card} cannot be used to build", player=seat)


def virtual_link_allows(state: GameState, seat: int, location: str) -> bool:
    """The classic Lancashire rule: Liverpool in your network lets an industry card build in Birkenhead."""
    pair = state.rules.virtual_link
    return (
        bool(state.options.get("virtual_link"))
        and pair is not None
        and location == pair[1]
        and (pair[0] in network(state, seat))
    )


def _check_double_action(state: GameState, a: Build) -> None:
    """Lancashire: discard any 2 cards, regarded as any 1 location card, instead of both actions."""
    if not state.rules.double_action_build:
        raise IllegalAction("build.card", "a Build action discards one card", player=a.player)
    if state.actions_this_turn != 0 or state.actions_per_turn() < 2:
        raise IllegalAction(
            "build.double_action",
            "the double-action build takes both actions of a turn: it must be the turn's first action, "
            "in a turn of two actions",
            player=a.player,
        )


def slot_options(state: GameState, seat: int, industry: str, level: int, loc: Location) -> tuple[list[int], list[int]]:
    """(empty slots the rules allow, slots whose tile may be overbuilt).

    In the Canal Era a player who already has a tile in the location may only
    replace that tile (one tile per location per player).
    """
    tiles = state.tiles
    empty: list[int] = []  # undeveloped slots showing the industry
    singles: list[int] = []  # those showing it alone
    placed: list[tuple[Slot, Tile]] = []
    own_here: tuple[Slot, Tile] | None = None  # the player's first tile here
    for s in loc.slots:
        t = tiles.get(s.ref)
        if t is None:
            if industry in s.industries:
                empty.append(s.index)
                if len(s.industries) == 1:
                    singles.append(s.index)
        else:
            placed.append((s, t))
            if own_here is None and t.owner == seat:
                own_here = (s, t)
    if state.era == "canal" and own_here is not None:
        s, t = own_here
        can = t.industry == industry and t.level < level and industry in s.industries
        return [], [s.index] if can else []
    over = []
    for s, t in placed:
        if t.industry != industry or t.level >= level:
            continue
        if t.owner == seat or (industry in ("coal_mine", "iron_works") and resource_gone(state, industry)):
            over.append(s.index)
    return singles or empty, over


def resource_gone(state: GameState, industry: str) -> bool:
    """No cube of this industry's resource anywhere on the board or in its market."""
    market = state.coal_market if industry == "coal_mine" else state.iron_market
    if market:
        return False
    return not any(t.industry == industry and t.resources > 0 for t in state.tiles.values())


def _canal_one_per_location(state: GameState, seat: int, loc: Location, replacing: Tile | None) -> None:
    if state.era != "canal":
        return
    for s in loc.slots:
        t = state.tiles.get(s.ref)
        if t is not None and t.owner == seat and t is not replacing:
            raise IllegalAction(
                "build.canal_one_per_location",
                f"player {seat} already has a tile in {loc.id} ({s.ref}); the Canal Era allows one per location",
                player=seat,
            )


def apply_build(state: GameState, a: Build, policy: ChoicePolicy) -> Build:
    rules, seat = state.rules, a.player
    loc = rules.locations.get(a.location)
    if loc is None:
        raise IllegalAction("log.unknown_name", f"unknown location {a.location!r}", player=seat)
    if a.industry not in rules.industries:
        raise IllegalAction("log.unknown_name", f"unknown industry {a.industry!r}", player=seat)
    if loc.kind == "farm_brewery" and a.card == WILD_LOCATION:
        raise IllegalAction(
            "build.wild_location_farm", "a Wild Location card cannot build on a Farm Brewery", player=seat
        )
    if loc.kind == "farm_brewery" and not (a.card == WILD_INDUSTRY or "brewery" in card_industries(a.card)):
        raise IllegalAction(
            "build.farm_brewery",
            "a Farm Brewery can only be built with a Brewery card or a Wild Industry card",
            player=seat,
        )
    anywhere = check_card(state, a, loc)
    p = state.players[seat]
    level = p.lowest_level(a.industry)
    if level is None:
        raise IllegalAction("build.tiles_left", f"player {seat} has no {a.industry} tiles left", player=seat)
    info = rules.level(a.industry, level)
    if not info.canal_ok and not info.rail_ok:
        raise IllegalAction(
            "build.locked",
            f"{a.industry} level {level} may not be built; it can only be removed by the Develop action",
            player=seat,
            level=level,
        )
    if not info.buildable_in(state.era):
        raise IllegalAction(
            "build.era",
            f"{a.industry} level {level} cannot be built in the {state.era.title()} Era (develop it away first)",
            player=seat,
            level=level,
        )
    if a.industry not in rules.location_industries[loc.id]:
        raise IllegalAction("build.slot_icon", f"no space in {a.location} displays the {a.industry} icon", player=seat)
    empty, over = slot_options(state, seat, a.industry, level, loc)
    if anywhere:
        if a.slot is not None and f"{a.location}:{a.slot}" in state.tiles:
            raise IllegalAction(
                "build.no_tiles_on_board",
                f"{a.location} is outside the player's network: with no tiles on the board an industry card "
                "builds only on an undeveloped space",
                player=seat,
            )
        over = []
    one_per_location_checked = False
    if a.slot is None:
        options = empty + over
        if not options:
            _canal_one_per_location(state, seat, loc, None)
            raise IllegalAction(
                "build.slot_icon", f"no undeveloped {a.industry} space left in {a.location}", player=seat
            )
        slot = decide(
            policy,
            SLOT,
            options,
            {"player": seat, "state": state, "location": a.location, "industry": a.industry, "level": level},
        )
    else:
        slot = a.slot
        if not 0 <= slot < len(loc.slots):
            raise IllegalAction("log.unknown_name", f"{a.location} has no slot {slot}", player=seat)
        s = loc.slots[slot]
        target = state.tiles.get(s.ref)
        if target is None or target.owner != seat:
            _canal_one_per_location(state, seat, loc, None)
            one_per_location_checked = True  # no tile of the player's here at all (Canal Era)
        if a.industry not in s.industries:
            raise IllegalAction("build.slot_icon", f"slot {s.ref} does not display the {a.industry} icon", player=seat)
        if slot not in empty and slot not in over:
            t = state.tiles.get(s.ref)
            if t is None:
                raise IllegalAction(
                    "build.single_icon_first",
                    f"slot {s.ref} shows two icons but a single-icon {a.industry} space is free "
                    f"({', '.join(f'{a.location}:{i}' for i in empty)})",
                    player=seat,
                )
            if t.industry != a.industry or t.level >= level:
                raise IllegalAction(
                    "build.overbuild",
                    f"{s.ref} holds {t.industry} level {t.level}; "
                    "only a higher-level tile of the same industry may replace it",
                    player=seat,
                )
            if t.industry not in ("coal_mine", "iron_works"):
                raise IllegalAction("build.overbuild", f"an opponent's {t.industry} cannot be overbuilt", player=seat)
            raise IllegalAction(
                "build.overbuild_resource_gone",
                f"an opponent's {t.industry} may be overbuilt only when no "
                f"{'coal' if t.industry == 'coal_mine' else 'iron'} is left on the board or in the market",
                player=seat,
            )
    ref = f"{a.location}:{slot}"
    replacing = state.tiles.get(ref)
    if not one_per_location_checked:
        _canal_one_per_location(state, seat, loc, replacing)

    if replacing is not None:
        del state.tiles[ref]
        state.effect(
            "tile_removed",
            replacing.owner,
            1,
            "overbuilt",
            tile=ref,
            industry=replacing.industry,
            level=replacing.level,
        )
        state.touch_board(links=False)
    # most tiles need no coal or no iron: the consume_* calls only check that no source is stated then
    coal: tuple[str, ...] = ()
    iron: tuple[str, ...] = ()
    coal_cost = iron_cost = 0
    if info.cost_coal or a.coal is not None:
        coal, coal_cost = consume_coal(state, seat, (a.location,), info.cost_coal, a.coal, policy, "build")
    if info.cost_iron or a.iron is not None:
        iron, iron_cost = consume_iron(state, seat, info.cost_iron, a.iron, policy, "build")
    cost = info.cost_money
    if played := state.options.get("played_costs"):  # a game as played, its server's price (rarely set)
        cost = played_cost(state, seat, a.industry, level, cost, played, policy)
    spend(state, seat, cost + coal_cost + iron_cost, "build", f"building {a.industry} level {level}")
    p = state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)  # player_mut, inlined (hot)
    p.take_from_mat(a.industry, level)
    tile = Tile(seat, a.industry, level, info.resources_on_build(state.era))
    state.place_tile(ref, tile)
    if (effects := state.effects) is not None:  # state.effect, written out (hot)
        detail = {"tile": ref, "industry": a.industry, "level": level}
        effects.append(new_effect(Effect, ("build", seat, 1, "build", detail)))
    if a.industry in rules.flips_on_build:
        flip(state, ref, "build")  # Lancashire shipyards
    _sell_to_market(state, ref, tile)
    coal_out = coal if info.cost_coal else None
    iron_out = iron if info.cost_iron else None
    if slot == a.slot and coal_out == a.coal and iron_out == a.iron:
        return a  # every choice stated as made (a log written by this engine): no new action to make
    return Build(seat, a.card, a.industry, a.location, slot, coal_out, iron_out, a.second_card)


def played_cost(
    state: GameState, seat: int, industry: str, level: int, printed: int, played: dict[str, int], policy: ChoicePolicy
) -> int:
    """The money a tile costs in a game as played (``options.played_costs``): a price other than the
    printed one breaks ``build.cost``, which only a policy that tolerates it accepts (recorded)."""
    price = played.get(f"{industry}.{level}", printed)
    if price != printed:
        error = IllegalAction(
            "build.cost",
            f"{industry} level {level} costs £{printed} as printed; the game as played charged £{price} "
            "(options.played_costs)",
            player=seat,
        )
        depart(policy, state, error, "build")
    return price


def _sell_to_market(state: GameState, ref: str, tile: Tile) -> None:
    """Moving Coal and Iron to the Market: most expensive spaces first, only during this build."""
    if tile.industry == "coal_mine":
        if not connected_to_trade(state, (ref.split(":", 1)[0],)):
            return
        market, attr = state.rules.markets["coal"], "coal_market"
    elif tile.industry == "iron_works":
        market, attr = state.rules.markets["iron"], "iron_market"
    else:
        return
    p = state.player_mut(tile.owner)
    while tile.resources > 0:
        price = market.sell_price(getattr(state, attr))
        if price is None:
            break
        setattr(state, attr, getattr(state, attr) + 1)
        tile.resources -= 1
        p.money += price
        if (effects := state.effects) is not None:  # state.effect, written out (hot)
            resource = market.resource
            effects.append(
                new_effect(Effect, ("market_sale", tile.owner, price, "build", {"resource": resource, "tile": ref}))
            )
            effects.append(new_effect(Effect, ("money", tile.owner, price, "market_sale", {"resource": resource})))
    if tile.resources == 0:
        flip(state, ref, "market_sale")
