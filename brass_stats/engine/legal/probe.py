"""What an action would take from the board, worked out without applying it.

One :class:`Position` per ``legal_actions`` call gathers the facts every action type asks for
(the coal mines, iron works and breweries with something left, the player's network, the trade
locations) once. A :class:`Draw` then follows one action's consumption cube by cube exactly as
:mod:`brass_stats.engine.resources` does with the canonical choices (closest coal mine, then
location and slot order; the first iron works; the player's own brewery first), on counters
instead of a copy of the state: the source of every cube, and the market cost.

Distances come from :func:`~brass_stats.engine.board.distances_from` (cached per link set). A
link that the action places first (the first of two rail links) is added on the fly: a shortest
path uses it at most once, so the distance from ``S`` to ``x`` becomes
``min(d(S, x), d(S, E) + 1 + d(E, x))`` with ``E`` the new link's ends.
"""

from __future__ import annotations

from ..board import distances_from, network, trade_locations
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

    def copy(self) -> Draw:
        d = Draw.__new__(Draw)
        d.pos, d.taken, d.coal_market, d.iron_market = self.pos, dict(self.taken), self.coal_market, self.iron_market
        d.cost, d.removed = self.cost, self.removed
        return d

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

    def coal(self, origins: tuple[str, ...], n: int, via: tuple[str, ...] | None = None) -> tuple[str, ...] | None:
        """Sources of ``n`` coal for something at ``origins`` (None: the engine would refuse).

        ``via``: the ends of a link placed earlier in the same action (not yet on the board)."""
        pos = self.pos
        d = pos.dist(origins)
        if via is not None:
            dv = pos.dist(via)
            to_via = min((d.get(e, INF) for e in via), default=INF)
        used: list[str] = []
        for _ in range(n):
            best, src = INF, None
            for ref, loc, cubes in pos.mines:
                if cubes - self.taken.get(ref, 0) <= 0 or ref == self.removed:
                    continue
                k = d.get(loc, INF)
                if via is not None and to_via < INF:
                    k = min(k, to_via + 1 + dv.get(loc, INF))
                if k < best:
                    best, src = k, ref
            if src is not None:
                self.taken[src] = self.taken.get(src, 0) + 1
                used.append(src)
                continue
            trade = self._trade()
            reach = any(t in d for t in trade)
            if not reach and via is not None and to_via < INF:
                reach = any(t in dv for t in trade)
            if not reach:
                return None
            market = pos.state.rules.markets["coal"]
            self.cost += market.buy_price(self.coal_market)
            if self.coal_market > 0:
                self.coal_market -= 1
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
            market = pos.state.rules.markets["iron"]
            self.cost += market.buy_price(self.iron_market)
            if self.iron_market > 0:
                self.iron_market -= 1
            used.append(MARKET)
        return tuple(used)

    def beer(self, origins: tuple[str, ...], via: tuple[str, ...] | None = None) -> str | None:
        """The first barrel the canonical choice drinks for something at ``origins`` (no merchant
        barrel): the player's own brewery anywhere, else a connected one (None: no beer)."""
        pos = self.pos
        d = pos.dist(origins)
        dv: dict[str, int] = {}
        if via is not None and any(e in d for e in via):
            dv = pos.dist(via)
        for ref, loc, owner, barrels in pos.breweries:
            if barrels - self.taken.get(ref, 0) <= 0:
                continue
            if owner == pos.seat or loc in d or loc in dv:
                self.taken[ref] = self.taken.get(ref, 0) + 1
                return ref
        return None
