"""Legal Network actions: one canal link, one rail link, or two rail links (with a barrel).

The rules are those of :mod:`brass_stats.engine.network`: an unbuilt line of the era, touching the
player's network (anywhere with nothing on the board, where the edition allows it), a link tile
left, coal for each rail link from its own ends, beer for a double rail link from the second
link's ends, and the money. Which card is discarded never matters, so each link (or pair) is
worked out once and offered with every card.
"""

from __future__ import annotations

from ..actions import Action, Network
from ..network import link_cost
from ..resources import MARKET
from .probe import INF, Position


def _placeable(pos: Position) -> list[str]:
    """Links the player may place now (network rule and era), in the rules data's order."""
    state = pos.state
    rules = state.rules
    era = state.era
    net = pos.net
    anywhere = not pos.has_pieces and rules.link_anywhere_without_pieces
    placed = state.links
    return [
        lid
        for lid, link in rules.links.items()
        if lid not in placed and link.allowed_in(era) and (anywhere or not net.isdisjoint(link.connects))
    ]


class _Coal:
    """Rail links' coal: the closest mines from each link's ends, ranked once per call."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.cubes = [m[2] for m in pos.mines]
        self.ranks: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        self.trade: dict[tuple[str, ...], bool] = {}
        self.opponent_beer: dict[tuple[str, ...], int] = {}

    def rank(self, ends: tuple[str, ...]) -> list[tuple[int, int]]:
        """(distance, mine index) of every connected mine with coal, closest then slot order first."""
        r = self.ranks.get(ends)
        if r is None:
            d = self.pos.dist(ends)
            r = sorted((d[loc], i) for i, (_, loc, _) in enumerate(self.pos.mines) if loc in d)
            self.ranks[ends] = r
        return r

    def closest(self, ends: tuple[str, ...], taken: int) -> tuple[int, int] | None:
        """The closest mine with a cube left once mine ``taken`` (-1: none) gave one cube."""
        cubes = self.cubes
        for d, i in self.rank(ends):
            if cubes[i] - (i == taken) > 0:
                return d, i
        return None

    def reaches_trade(self, ends: tuple[str, ...]) -> bool:
        r = self.trade.get(ends)
        if r is None:
            d = self.pos.dist(ends)
            r = self.trade[ends] = any(t in d for t in self.pos.trade)
        return r

    def first_opponent_brewery(self, ends: tuple[str, ...]) -> int:
        """Index in ``pos.breweries`` of the first connected opponent brewery with a barrel (INF: none)."""
        r = self.opponent_beer.get(ends)
        if r is None:
            d = self.pos.dist(ends)
            seat = self.pos.seat
            r = next((i for i, (_, loc, owner, _) in enumerate(self.pos.breweries) if owner != seat and loc in d), INF)
            self.opponent_beer[ends] = r
        return r


def network_actions(pos: Position, cards: list[str]) -> list[Action]:
    state, seat, p = pos.state, pos.seat, pos.player
    era = state.era
    rules = state.rules
    out: list[Action] = []
    if p.link_tiles <= 0 or p.money < link_cost(era, 1):
        return out
    singles = _placeable(pos)
    links = rules.links
    if era == "canal":
        for lid in singles:
            one = (lid,)
            out.extend([Network(seat, card, one, None, None) for card in cards])
        return out
    money = p.money
    coal = _Coal(pos)
    mines = pos.mines
    market = rules.markets["coal"]
    cm = state.coal_market
    price = market.buy_price(cm)  # a first cube from the market
    after = cm - 1 if cm > 0 else 0
    price2 = market.buy_price(after)  # a second one after it
    # the first link: (mine index or -1 for the market, its source, its cost)
    first: dict[str, tuple[int, str, int]] = {}
    for lid in singles:
        ends = links[lid].connects
        c = coal.closest(ends, -1)
        if c is not None:
            first[lid] = (c[1], mines[c[1]][0], 0)
        elif coal.reaches_trade(ends):
            first[lid] = (-1, MARKET, price)
        else:
            continue
        if 5 + first[lid][2] <= money:
            one = (lid,)
            src = (first[lid][1],)
            out.extend([Network(seat, card, one, src, None) for card in cards])
    if money < link_cost(era, 2) or p.link_tiles < 2:
        return out
    # two links: the second must touch the network with the first in place; its coal and the barrel
    # come from its ends, with the first link in place (a shortest path crosses it at most once:
    # d'(x) = min(d(S, x), d(S, E) + 1 + d(E, x)), E the first link's ends); either order may be
    # the legal one, and the first one listed is kept
    order = {lid: i for i, lid in enumerate(links)}
    unbuilt = [lid for lid, link in links.items() if lid not in state.links and link.allowed_in(era)]
    touching: dict[str, list[str]] = {}
    for lid in unbuilt:
        for x in links[lid].connects:
            touching.setdefault(x, []).append(lid)
    net = pos.net
    near = {lid for lid in unbuilt if not net.isdisjoint(links[lid].connects)}  # touching the network
    beer_needed = rules.double_rail_beer
    own_beer = next((i for i, b in enumerate(pos.breweries) if b[2] == seat), INF)
    dist = pos.dist
    closest = coal.closest
    done: set[tuple[str, str]] = set()  # pairs in link order
    ends_dist: dict[str, dict[str, int]] = {}  # a second link's distances from its ends
    closest_by: dict[tuple[str, int], tuple[int, int] | None] = {}  # (second link, mine taken) -> its coal
    for lid1 in singles:
        start = first.get(lid1)
        if start is None:
            continue
        taken, src1, cost1 = start
        ends1 = links[lid1].connects
        o1 = order[lid1]
        seconds = set(near)
        for x in ends1:
            seconds.update(touching.get(x, ()))
        seconds.discard(lid1)
        other1 = closest(ends1, taken)  # lid1's own ends, reached through lid1 (below)
        for lid2 in sorted(seconds, key=order.__getitem__):
            pair = (lid1, lid2) if o1 < order[lid2] else (lid2, lid1)
            if pair in done:
                continue
            ends2 = links[lid2].connects
            d2 = ends_dist.get(lid2)
            if d2 is None:
                d2 = ends_dist[lid2] = dist(ends2)
            to_via = INF
            for e in ends1:
                k = d2.get(e, INF)
                if k < to_via:
                    to_via = k
            key = (lid2, taken)
            if key in closest_by:
                best = closest_by[key]
            else:
                best = closest_by[key] = closest(ends2, taken)
            if to_via < INF and other1 is not None:
                via = (to_via + 1 + other1[0], other1[1])
                if best is None or via < best:
                    best = via
            if best is not None:
                src2, cost2 = mines[best[1]][0], 0
            elif coal.reaches_trade(ends2) or (to_via < INF and coal.reaches_trade(ends1)):
                src2, cost2 = MARKET, (price2 if taken < 0 else price)
            else:
                continue
            beer = None
            if beer_needed:
                i = own_beer
                if i == INF:
                    i = coal.first_opponent_brewery(ends2)
                    if to_via < INF:
                        i = min(i, coal.first_opponent_brewery(ends1))
                if i == INF:
                    continue
                beer = pos.breweries[i][0]
            if 15 + cost1 + cost2 > money:
                continue
            done.add(pair)
            both = (lid1, lid2)
            srcs = (src1, src2)
            out.extend([Network(seat, card, both, srcs, beer) for card in cards])
    return out
