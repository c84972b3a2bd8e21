"""Network action: canal links, one rail link, or two rail links with a brewery's beer."""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import Network
from .connectivity import network
from .policy import ChoicePolicy, depart
from .resources import consume_beer, consume_coal, spend
from .state import Effect, GameState, new_effect


def link_cost(era: str, n: int) -> int:
    """£3 per canal link; £5 for one rail link, £15 for two."""
    if era == "canal":
        return 3
    return 5 if n == 1 else 15


def check_link_placeable(state: GameState, seat: int, link_id: str) -> None:
    link = state.rules.links.get(link_id)
    if link is None:
        raise IllegalAction("log.unknown_name", f"unknown link {link_id!r}", player=seat)
    if link_id in state.links:
        raise IllegalAction("network.undeveloped", f"{link_id} already has a link tile", player=seat)
    if not link.allowed_in(state.era):
        kind = "canal" if state.era == "canal" else "rail"
        raise IllegalAction("network.era", f"{link_id} has no {kind} line", player=seat)
    net = network(state, seat)  # empty: no pieces on the board
    if (net or not state.rules.link_anywhere_without_pieces) and net.isdisjoint(link.connects):
        raise IllegalAction(
            "network.adjacent",
            f"{link_id} is not adjacent to player {seat}'s network",
            player=seat,
            network=sorted(net),
        )


def link_tile_limit(state: GameState) -> int:
    """Link tiles per player: ``options.link_tiles``, by default the 14 of the component list (D1)."""
    limit: int = state.options.get("link_tiles", state.rules.constants["per_player_components"]["link_tiles"])
    return limit


def check_link_tiles_left(state: GameState, seat: int, policy: ChoicePolicy) -> None:
    """A link is placed from the player's own link tiles (D1); a game as played may have gone past them."""
    left = state.players[seat].link_tiles
    if left <= 0:
        limit = link_tile_limit(state)
        error = IllegalAction(
            "network.link_tiles",
            f"player {seat} places a link tile beyond its {limit}: {limit - left} are already on the board",
            player=seat,
            limit=limit,
        )
        depart(policy, state, error, "network")


def apply_network(state: GameState, a: Network, policy: ChoicePolicy) -> Network:
    seat, era = a.player, state.era
    n = len(a.links)
    if n < 1 or n > (1 if era == "canal" else 2):
        raise IllegalAction("network.count", f"{n} links in one Network action in the {era.title()} Era", player=seat)
    if a.coal is not None and len(a.coal) != (n if era == "rail" else 0):
        raise IllegalAction(
            "coal.count", f"{n if era == 'rail' else 0} coal needed but {len(a.coal)} source(s) stated", player=seat
        )
    beer_needed = state.rules.double_rail_beer if n == 2 else 0
    if a.beer is not None and not beer_needed:
        rule = "beer.count" if state.rules.double_rail_beer else "network.count"
        raise IllegalAction(rule, "no beer is consumed for these links", player=seat)
    coal_used: list[str] = []
    market_cost = 0
    beer: str | None = None
    aliases = state.rules.link_aliases
    links = tuple([aliases.get(lid, lid) for lid in a.links])
    for i, link_id in enumerate(links):
        check_link_placeable(state, seat, link_id)
        if state.players[seat].link_tiles <= 0:  # what check_link_tiles_left checks first (hot)
            check_link_tiles_left(state, seat, policy)
        state.add_link(link_id, seat)
        p = state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)  # player_mut, inlined (hot)
        p.link_tiles -= 1  # below 0 only in a game replayed as played
        if (effects := state.effects) is not None:  # state.effect, written out (hot)
            effects.append(new_effect(Effect, ("link", seat, 1, "network", {"link": link_id, "link_type": era})))
        if era == "rail":
            stated = None if a.coal is None else a.coal[i : i + 1]
            origins = state.rules.links[link_id].connects
            used, cost = consume_coal(state, seat, origins, 1, stated, policy, "network")
            coal_used.extend(used)
            market_cost += cost
    if beer_needed:
        origins = state.rules.links[links[1]].connects
        (beer,) = consume_beer(
            state,
            seat,
            origins,
            1,
            None if a.beer is None else (a.beer,),
            policy,
            "network",
            rule="network.double_beer",
        )
    spend(state, seat, link_cost(era, n) + market_cost, "network")
    coal = tuple(coal_used) if era == "rail" else None
    if links == a.links and coal == a.coal and beer == a.beer:
        return a  # every choice stated as made
    return Network(seat, a.card, links, coal, beer)
