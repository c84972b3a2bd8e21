"""The board table follows every tile, including one changed without a new board version."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.replay import replay
from brass_stats.storage.tables import BOARD_SCHEMA
from brass_stats.storage.tables.assemble import _column
from brass_stats.storage.tables.board_statistics import BoardStatistics
from brass_stats.storage.tables.board_table import BoardTable

SAMPLES = sorted((Path(__file__).parents[1] / "replays").rglob("*.json"))


def test_the_board_table_shows_a_tile_changed_without_a_new_board_version() -> None:
    """Taking iron or coal replaces a tile without a new board version (a Develop at the end of a
    round does): the board table compares every tile, not just those the board statistics saw."""
    r = replay(GameLog.load(SAMPLES[0]), AS_PLAYED)
    rules = r.initial.rules
    end = next(
        s
        for s in r.steps
        if s.state is not None
        and s.state.round != s.round
        and s.state.era == s.era
        and any(t.resources for t in s.state.tiles.values())
    )
    st = end.state
    assert st is not None
    tracker = BoardStatistics(rules, st.num_players)
    tracker.update(st.tiles, st.links)
    board = BoardTable(rules)
    board.add(end, st, tracker)
    # the same board a round later, one tile's cubes taken: a new tile object, the same board version
    later = st.copy()
    ref, tile = next((ref, t) for ref, t in later.tiles.items() if t.resources)
    later.tiles[ref] = changed = tile.copy()
    changed.resources -= 1
    later.round += 1
    board.add(end, later, tracker)
    columns = board.columns("g")
    arrays = [_column([columns[f.name]], f.type) for f in BOARD_SCHEMA]
    rows = pa.Table.from_arrays(arrays, schema=BOARD_SCHEMA).to_pylist()
    where = (ref.partition(":")[0], int(ref.partition(":")[2]))
    shown = [row["resources"] for row in rows if row["piece"] == "tile" and (row["location"], row["slot"]) == where]
    assert shown == [tile.resources, tile.resources - 1]
