"""Fast twin of consume_coal / consume_iron in engine/resources.py (held equal by tests/test_legal_reference.py).

What an action would take from the board, worked out without applying it.

One :class:`Position` per ``legal_actions`` call gathers the facts every action type asks for
(the coal mines, iron works and breweries with something left, the player's network, the trade
locations) once. A :class:`Draw` then follows one action's coal and iron cube by cube exactly as
:mod:`brass_stats.engine.resources` does with the canonical choices (the closest coal mine, then
location and slot order; the first iron works), on counters instead of a copy of the state: the
source of every cube, and what the market cubes cost.

Distances come from :func:`~brass_stats.engine.connectivity.distances_from` (cached per link set).

>>> from brass_stats.engine import new_game, SeededChance
>>> g = new_game(["A", "B"], SeededChance(3))
>>> pos = Position(g, g.current_player)
>>> draw = Draw(pos)
>>> draw.iron(2), draw.cost  # no iron works yet: two cubes from the market at £2 each
(('market', 'market'), 4)
>>> Draw(pos).coal(("birmingham",), 1) is None  # no mine, and no link to a merchant to buy from
True"""

from __future__ import annotations

from ..connectivity import distances_from, network, trade_locations
from ..resources import MARKET
from ..state import GameState

INF = 1 << 30


def slot_key(ref: str) -> tuple[str, int]:
    loc, _, idx = ref.partition(":")
    return loc, int(idx)


class Position:
    """Facts about the state that many candidate actions share (computed once per call)."""

    __slots__ = ("state", "seat", "player", "mines", "works", "breweries", "net", "trade", "has_pieces", "_dist")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.player = state.players[seat]
        mines: list[tuple[str, str, int]] = []
        works: list[tuple[str, int]] = []
        breweries: list[tuple[str, str, int, int]] = []
        has_pieces = False
        for ref, t in state.tiles.items():
            if t.owner == seat:
                has_pieces = True
            if t.flipped or t.resources <= 0:
                continue
            ind = t.industry
            if ind == "coal_mine":
                mines.append((ref, ref.partition(":")[0], t.resources))
            elif ind == "iron_works":
                works.append((ref, t.resources))
            elif ind == "brewery":
                breweries.append((ref, ref.partition(":")[0], t.owner, t.resources))
        # the engine's canonical order: location and slot (own breweries first, see beer_options)
        mines.sort(key=lambda m: slot_key(m[0]))
        works.sort(key=lambda w: slot_key(w[0]))
        breweries.sort(key=lambda b: (b[2] != seat, slot_key(b[0])))
        self.mines = mines
        self.works = works
        self.breweries = breweries
        self.net = network(state, seat)
        self.trade = trade_locations(state)
        self.has_pieces = has_pieces or seat in state.links.values()
        self._dist: dict[tuple[str, ...], dict[str, int]] = {}

    def dist(self, origins: tuple[str, ...]) -> dict[str, int]:
        d = self._dist.get(origins)
        if d is None:
            d = self._dist[origins] = distances_from(self.state, origins)
        return d


class Draw:
    """Cubes and barrels taken so far by one action (counters over a :class:`Position`)."""

    __slots__ = ("pos", "taken", "coal_market", "iron_market", "cost", "removed")

    def __init__(self, pos: Position, removed: str | None = None) -> None:
        self.pos = pos
        self.taken: dict[str, int] = {}
        self.coal_market = pos.state.coal_market
        self.iron_market = pos.state.iron_market
        self.cost = 0
        self.removed = removed  # a tile taken off the board first (overbuilt): its cubes are gone

    def _trade(self) -> frozenset[str]:
        trade = self.pos.trade
        removed = self.removed
        if removed is not None:
            state = self.pos.state
            industries = state.rules.trade_industries
            t = state.tiles[removed]
            if t.industry in industries:
                loc = removed.partition(":")[0]
                others = any(
                    r != removed and r.partition(":")[0] == loc and x.industry in industries
                    for r, x in state.tiles.items()
                )
                if not others and loc not in state.rules.trade_locations:
                    trade = trade - {loc}
        return trade

    def coal(self, origins: tuple[str, ...], n: int) -> tuple[str, ...] | None:
        """Sources of ``n`` coal for something at ``origins`` (None: the engine would refuse)."""
        pos = self.pos
        d = pos.dist(origins)
        used: list[str] = []
        for _ in range(n):
            best, src = INF, None
            for ref, loc, cubes in pos.mines:
                if cubes - self.taken.get(ref, 0) <= 0 or ref == self.removed:
                    continue
                k = d.get(loc, INF)
                if k < best:
                    best, src = k, ref
            if src is not None:
                self.taken[src] = self.taken.get(src, 0) + 1
                used.append(src)
                continue
            if not any(t in d for t in self._trade()):
                return None
            self.coal_market = self._buy("coal", self.coal_market)
            used.append(MARKET)
        return tuple(used)

    def iron(self, n: int) -> tuple[str, ...]:
        """Sources of ``n`` iron (no connection needed; the market always sells)."""
        pos = self.pos
        used: list[str] = []
        for _ in range(n):
            src = None
            for ref, cubes in pos.works:
                if cubes - self.taken.get(ref, 0) > 0 and ref != self.removed:
                    src = ref
                    break
            if src is not None:
                self.taken[src] = self.taken.get(src, 0) + 1
                used.append(src)
                continue
            self.iron_market = self._buy("iron", self.iron_market)
            used.append(MARKET)
        return tuple(used)

    def _buy(self, resource: str, cubes: int) -> int:
        """Pay for one cube from a market holding ``cubes``; returns the cubes left (an empty market
        still sells at its empty price, from the general supply)."""
        self.cost += self.pos.state.rules.markets[resource].buy_price(cubes)
        return cubes - 1 if cubes > 0 else 0
