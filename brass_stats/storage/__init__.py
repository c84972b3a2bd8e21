"""Replayed games stored as tables: Arrow tables per game, a DuckDB store, Parquet export, bulk import.

* :func:`game_tables` / :func:`frames`: one replayed game as Arrow tables or DataFrames (no database);
  :func:`batch_tables`: several games' tables at once (converted to Arrow together).
* :class:`Store`: a DuckDB file of games (one transaction per game) with a ``failures`` table.
* :func:`ingest`: validate, replay and store many logs in parallel.

The columns are documented in ``docs/storage-schema.md``.
"""

from __future__ import annotations

from .duckdb_store import Store
from .ingest import IngestReport, ingest, replay_files
from .tables import SCHEMAS, batch_tables, frames, game_id, game_tables

__all__ = [
    "SCHEMAS",
    "IngestReport",
    "Store",
    "batch_tables",
    "frames",
    "game_id",
    "game_tables",
    "ingest",
    "replay_files",
]
