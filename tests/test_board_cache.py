"""Connectivity cached per link set and shared between copies of a state (the adjacency updated,
not rebuilt, by a new link) equals a breadth-first search from scratch; networks kept through flips
and grown by new tiles and links equal networks counted from scratch."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from brass_stats.engine import apply_action, new_game
from brass_stats.engine.connectivity import connected_to_trade, distances_from, network, trade_locations
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog

REPLAYS = Path(__file__).parents[1] / "replays"
GAMES = ["real/gm7vza-4p.json", "generated/game-3003-00001.json", "lancashire/game-5004-00001.json"]


def bfs(state: GameState, origins: tuple[str, ...]) -> dict[str, int]:
    """Link-tile distances from scratch over the links on the board."""
    adj: dict[str, set[str]] = {}
    for link_id in state.links:
        ends = state.rules.links[link_id].connects
        for a in ends:
            adj.setdefault(a, set()).update(b for b in ends if b != a)
    dist = {o: 0 for o in origins}
    queue = deque(origins)
    while queue:
        here = queue.popleft()
        for nxt in adj.get(here, ()):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def networks_from_scratch(state: GameState) -> list[frozenset[str]]:
    out = []
    for seat in range(state.num_players):
        locs = {ref.split(":")[0] for ref, t in state.tiles.items() if t.owner == seat}
        for link_id, owner in state.links.items():
            if owner == seat:
                locs.update(state.rules.links[link_id].connects)
        out.append(frozenset(locs))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_cached_connectivity_equals_connectivity_from_scratch(name: str) -> None:
    log = GameLog.load(REPLAYS / name)
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    origins = [(loc,) for loc in state.rules.locations] + [link.connects for link in state.rules.links.values()]
    updated = 0
    for action in log.actions:
        for o in origins:  # cached before the action: shared with the state after it unless links change
            distances_from(state, o)
        state, _ = apply_action(state, action, AS_PLAYED)
        updated += "adj" in state.link_cache and bool(state.links)
        for o in origins:
            assert distances_from(state, o) == bfs(state, o), (o, state)
        assert [network(state, s) for s in range(state.num_players)] == networks_from_scratch(state)
    assert updated > 10  # adjacencies carried over (kept or updated by a new link), not rebuilt


@pytest.mark.parametrize("name", GAMES)
def test_a_trade_connection_searched_without_distances_equals_one_read_from_them(name: str) -> None:
    """connected_to_trade stops at the first trade location when no distances are cached (a build's
    coal from the market, a new coal mine's cubes to it): the answer read from full distances."""
    log = GameLog.load(REPLAYS / name)
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    origins = [(loc,) for loc in state.rules.locations] + [link.connects for link in state.rules.links.values()]
    searched = 0
    for action in log.actions:
        state, _ = apply_action(state, action, AS_PLAYED)
        fresh = state.copy()
        fresh.touch_board()  # nothing cached: every answer comes from the search that stops early
        for o in origins:
            trade = trade_locations(fresh)
            assert connected_to_trade(fresh, o) == (not trade.isdisjoint(bfs(state, o))), (o, state)
            searched += 1
    assert searched > 1000
