"""A replayed game as a set of Arrow tables (the rows the storage layer writes).

Every table carries ``game_id``, a stable id derived from the log's content (see :func:`game_id`).
The columns are documented in ``docs/storage-schema.md``; the schemas (:data:`SCHEMAS`) are the
single source of truth for their types, used for the Arrow tables, the DuckDB tables and the Parquet
files.

>>> from brass_stats.bots import RandomBot, play_game
>>> from brass_stats.replay import replay
>>> t = game_tables(replay(play_game([RandomBot(), RandomBot()], seed=3)), None)
>>> sorted(t) == sorted(SCHEMAS)
True
>>> t["turn_snapshots"].num_rows == 2 * t["actions"].num_rows
True

The modules, from the bottom up:

* :mod:`.schemas`: the Arrow schemas of the eight tables.
* :mod:`.action_json`: an action's JSON text, written directly (a fast twin of ``json.dumps``).
* :mod:`.ids`: the content-hash game id.
* :mod:`.provenance`: where a log came from, who played it, when.
* :mod:`.assemble`: games' columns and rows converted to Arrow once per batch.
* :mod:`.board_statistics`: each seat's board statistics, kept up to date from board to board.
* :mod:`.board_table`: the board table (every piece at the end of each round).
* :mod:`.per_action`: the actions, effects, turn_snapshots and era_scores tables, in one pass.
* :mod:`.game`: a game's tables (:func:`game_tables`, :func:`batch_tables`, :func:`game_parts`).
* :mod:`.frames`: the tables as pandas or polars DataFrames.
"""

from __future__ import annotations

from .assemble import GameParts, assemble_tables
from .frames import frames
from .game import batch_tables, game_parts, game_tables, replayed_result
from .ids import game_id
from .provenance import played_at, player_kinds, source_game_id, source_kind
from .schemas import (
    ACTIONS_SCHEMA,
    BOARD_SCHEMA,
    DEVIATIONS_SCHEMA,
    EFFECTS_SCHEMA,
    ERA_SCORES_SCHEMA,
    ERAS,
    GAMES_SCHEMA,
    PLAYERS_SCHEMA,
    SCHEMAS,
    TURN_SNAPSHOTS_SCHEMA,
)

__all__ = [
    "ACTIONS_SCHEMA",
    "BOARD_SCHEMA",
    "DEVIATIONS_SCHEMA",
    "EFFECTS_SCHEMA",
    "ERAS",
    "ERA_SCORES_SCHEMA",
    "GAMES_SCHEMA",
    "PLAYERS_SCHEMA",
    "SCHEMAS",
    "TURN_SNAPSHOTS_SCHEMA",
    "GameParts",
    "assemble_tables",
    "batch_tables",
    "frames",
    "game_id",
    "game_parts",
    "game_tables",
    "played_at",
    "player_kinds",
    "replayed_result",
    "source_game_id",
    "source_kind",
]
