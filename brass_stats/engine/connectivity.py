"""Connectivity on the board: cached per board version, never recomputed while the board is unchanged.

"Connected" follows links of any owner; distance counts link tiles. A link
that joins three locations (Kidderminster–Worcester and the southern farm
brewery) puts all three at distance 1 from each other.
"""

from __future__ import annotations

from .state import GameState


def _adjacency(state: GameState) -> dict[str, frozenset[str]]:
    adj: dict[str, frozenset[str]] | None = state.link_cache.get("adj")
    if adj is None:
        sets: dict[str, set[str]] = {}
        links = state.rules.links
        for link_id in state.links:
            ends = links[link_id].connects
            for a in ends:
                sets.setdefault(a, set()).update(b for b in ends if b != a)
        adj = {a: frozenset(s) for a, s in sets.items()}
        state.link_cache["adj"] = adj
    return adj


def distances_from(state: GameState, origins: tuple[str, ...]) -> dict[str, int]:
    """Link-tile distance from the nearest of ``origins`` to every connected location."""
    dist = state.link_cache.get(origins)
    if dist is None:
        adj = _adjacency(state)
        dist = dict.fromkeys(origins, 0)
        # breadth first, one distance at a time (every location reached by a link is in adj)
        frontier = [o for o in origins if o in adj]
        d = 0
        while frontier:
            d += 1
            reached = []
            for here in frontier:
                for nxt in adj[here]:
                    if nxt not in dist:
                        dist[nxt] = d
                        reached.append(nxt)
            frontier = reached
        state.link_cache[origins] = dist
    return dist


def connected(state: GameState, a: str, b: str) -> bool:
    return b in distances_from(state, (a,))


def trade_locations(state: GameState) -> frozenset[str]:
    """Locations showing a market/trade icon: printed ones (Birmingham's merchants, Lancashire's
    external markets) and, in Lancashire, every location holding a Port tile (flipped or not)."""
    key = ("trade",)
    locs = state.place_cache.get(key)
    if locs is None:
        rules = state.rules
        locs = set(rules.trade_locations)
        if rules.trade_industries:
            locs.update(ref.split(":", 1)[0] for ref, t in state.tiles.items() if t.industry in rules.trade_industries)
        locs = frozenset(locs)
        state.place_cache[key] = locs
    return locs


def connected_to_trade(state: GameState, origins: tuple[str, ...]) -> bool:
    """True when a trade location is reachable (Birmingham: any merchant location, tiles or not)."""
    key = ("to trade", origins)
    found: bool | None = state.place_cache.get(key)
    if found is None:
        dist = state.link_cache.get(origins)
        trade = trade_locations(state)
        found = state.place_cache[key] = reaches(state, origins, trade) if dist is None else not trade.isdisjoint(dist)
    return found


def reaches(state: GameState, origins: tuple[str, ...], targets: frozenset[str]) -> bool:
    """Some location of ``targets`` is connected to ``origins``: a breadth-first search that stops at
    the first one found (when no distances from ``origins`` are cached, it does less than them)."""
    if not targets.isdisjoint(origins):
        return True
    adj = _adjacency(state)
    seen = set(origins)
    frontier = [o for o in origins if o in adj]
    while frontier:
        reached = []
        for here in frontier:
            for nxt in adj[here]:
                if nxt not in seen:
                    if nxt in targets:
                        return True
                    seen.add(nxt)
                    reached.append(nxt)
        frontier = reached
    return False


def network(state: GameState, seat: int) -> frozenset[str]:
    """Locations in the player's network: their industry tiles, and both ends of their links."""
    nets: list[frozenset[str]] | None = state.place_cache.get("nets")
    if nets is None:  # every player's at once: one pass over the board
        locs: list[set[str]] = [set() for _ in state.players]
        for ref, t in state.tiles.items():
            locs[t.owner].add(ref.partition(":")[0])
        links = state.rules.links
        for link_id, owner in state.links.items():
            locs[owner].update(links[link_id].connects)
        nets = state.place_cache["nets"] = [frozenset(s) for s in locs]
    return nets[seat]


def slot_location(ref: str) -> str:
    return ref.split(":", 1)[0]
