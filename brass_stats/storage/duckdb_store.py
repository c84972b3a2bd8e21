"""A DuckDB file holding replayed games (the tables of :mod:`.tables`) and the games that failed to import.

The parent process of an import is the only writer. Each game is written in one transaction, so a
crash or an interrupt leaves every game either fully stored or absent. Storing a game that is
already there does nothing.

>>> import tempfile, os
>>> from brass_stats.bots import RandomBot, play_game
>>> from brass_stats.replay import replay
>>> from brass_stats.storage.tables import game_tables
>>> t = game_tables(replay(play_game([RandomBot(), RandomBot()], seed=3)), None)
>>> with tempfile.TemporaryDirectory() as d, Store(os.path.join(d, "g.duckdb")) as s:
...     s.write_game(t), s.write_game(t), s.count("games")
(True, False, 1)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import duckdb
import pyarrow as pa

from ..errors import BrassError
from .analysis_table import ANALYSIS, ANALYSIS_SCHEMA, game_ids
from .dataset import PARTITION_COLUMNS as PARTITION_COLUMNS
from .dataset import DatasetBusy, DatasetWriter, write_version
from .tables import SCHEMAS

CorpusBusy = DatasetBusy  # the DuckDB file or the dataset is being written by another process


class CorpusError(BrassError):
    """A store cannot be opened: the file or folder is missing or is not a store of games."""


class StoreWriteError(BrassError):
    """The games could not be written into a store (a full disk): what was committed before is kept."""


def _lock_holder(message: str) -> str:
    m = re.search(r"\(PID (\d+)\)", message)
    return f" (process {m.group(1)})" if m else ""


def connect_db(path: str | Path, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """Open a DuckDB file, turning a lock conflict into :class:`CorpusBusy` with one clear line."""
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as e:
        text = str(e)
        if "lock" in text.lower():
            raise CorpusBusy(
                f"{path} is in use by another process{_lock_holder(text)} (an ingest writing to it); "
                "wait for it to finish, then run again"
            ) from None
        raise CorpusError(f"cannot open {path}: {text.splitlines()[0]}") from None
    except duckdb.Error as e:
        raise CorpusError(f"cannot open {path} as a DuckDB database: {str(e).splitlines()[0]}") from None


FAILURES_SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("game_id", pa.string()),
        ("error_kind", pa.string()),
        ("rule", pa.string()),
        ("action_index", pa.int32()),
        ("message", pa.string()),
        ("recorded_at", pa.timestamp("us", tz="UTC")),
    ]
)

_PRIMARY_KEYS = {"games": ("game_id",)}


def sql_string(value: str | Path) -> str:
    """``value`` as a single-quoted SQL string literal (its quotes doubled), e.g. a file name in a query."""
    return "'" + str(value).replace("'", "''") + "'"


def sql_type(t: pa.DataType) -> str:
    """The DuckDB column type for an Arrow type used in the schemas."""
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_int16(t):
        return "SMALLINT"
    if pa.types.is_int32(t):
        return "INTEGER"
    if pa.types.is_int64(t):
        return "BIGINT"
    if pa.types.is_floating(t):
        return "DOUBLE"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "VARCHAR"
    if pa.types.is_timestamp(t):
        return "TIMESTAMPTZ" if t.tz else "TIMESTAMP"
    if pa.types.is_list(t):
        return sql_type(t.value_type) + "[]"
    raise TypeError(f"no DuckDB type for Arrow type {t}")


def create_table_sql(name: str, schema: pa.Schema) -> str:
    cols = [f'"{f.name}" {sql_type(f.type)}' for f in schema]
    pk = _PRIMARY_KEYS.get(name)
    if pk:
        cols.append("PRIMARY KEY (" + ", ".join(pk) + ")")
    return f'CREATE TABLE IF NOT EXISTS "{name}" (' + ", ".join(cols) + ")"


class Store:
    """A DuckDB database file of replayed games."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.con = connect_db(self.path, read_only=read_only)
        if not read_only:
            for name, schema in SCHEMAS.items():
                self.con.execute(create_table_sql(name, schema))
            self.con.execute(create_table_sql("failures", FAILURES_SCHEMA))
            self.con.execute(create_table_sql(ANALYSIS, ANALYSIS_SCHEMA))
            # a file written before the analysis table gained columns: add them (empty for old rows)
            for f in ANALYSIS_SCHEMA:
                self.con.execute(f'ALTER TABLE {ANALYSIS} ADD COLUMN IF NOT EXISTS "{f.name}" {sql_type(f.type)}')

    # -- lifecycle ---------------------------------------------------------------------
    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------
    def has_game(self, game_id: str) -> bool:
        return bool(self.con.execute("SELECT 1 FROM games WHERE game_id = ?", [game_id]).fetchall())

    def game_ids(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT game_id FROM games").fetchall()}

    def count(self, table: str) -> int:
        if table not in SCHEMAS and table not in ("failures", ANALYSIS):
            raise ValueError(f"unknown table {table!r}")
        return int(self.con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])

    def counts(self) -> dict[str, int]:
        return {name: self.count(name) for name in [*SCHEMAS, "failures"]}

    def query(self, sql: str, params: list[Any] | None = None) -> Any:
        """Run SQL and return a pandas DataFrame."""
        return self.con.execute(sql, params or []).df()

    # -- writing -----------------------------------------------------------------------
    def _insert(self, name: str, table: pa.Table) -> None:
        view = f"_in_{name}"
        self.con.register(view, table)
        try:
            self.con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM "{view}"')
        finally:
            self.con.unregister(view)

    def write_game(self, tables: dict[str, pa.Table]) -> bool:
        """Store one game's tables in one transaction; False (and nothing written) when it is already stored."""
        return self.write_games([tables]) == 1

    def write_games(self, games: Sequence[dict[str, pa.Table]]) -> int:
        """Store several games' tables in one transaction (each game is whole or absent); returns how many were new.

        Games already stored, and repeats within ``games``, are skipped. Any error rolls back the whole batch.
        """
        batch: dict[str, dict[str, pa.Table]] = {}
        for tables in games:
            g = tables["games"]
            if g.num_rows != 1:
                raise ValueError(f"each game's tables hold one game (games has {g.num_rows} rows)")
            batch.setdefault(g.column("game_id")[0].as_py(), tables)
        if not batch:
            return 0
        self.con.execute("BEGIN TRANSACTION")
        try:
            ids = list(batch)
            stored = self.con.execute("SELECT game_id FROM games WHERE list_contains(?, game_id)", [ids]).fetchall()
            for (gid,) in stored:
                del batch[gid]
            if not batch:
                self.con.execute("ROLLBACK")
                return 0
            for name in SCHEMAS:
                parts = [t[name] for t in batch.values()]
                self._insert(name, parts[0] if len(parts) == 1 else pa.concat_tables(parts))
            self.con.execute("DELETE FROM failures WHERE list_contains(?, game_id)", [ids])
            self.con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # a COMMIT that failed has rolled back already
                self.con.execute("ROLLBACK")
            raise
        return len(batch)

    def record_failure(
        self,
        file: str,
        error_kind: str,
        rule: str | None = None,
        action_index: int | None = None,
        message: str | None = None,
        game_id: str | None = None,
    ) -> None:
        """Record why a file could not be imported; replaces any earlier failure recorded for the same file."""
        row = pa.Table.from_pylist(
            [
                {
                    "file": file,
                    "game_id": game_id,
                    "error_kind": error_kind,
                    "rule": rule,
                    "action_index": action_index,
                    "message": message,
                    "recorded_at": datetime.now(UTC),
                }
            ],
            schema=FAILURES_SCHEMA,
        )
        self.con.execute("BEGIN TRANSACTION")
        try:
            self.con.execute("DELETE FROM failures WHERE file = ?", [file])
            self._insert("failures", row)
            self.con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # (as in write_games)
                self.con.execute("ROLLBACK")
            raise

    def replace_analysis(self, table: pa.Table) -> int:
        """Store the analysis of some games (rows of :data:`~.analysis_table.ANALYSIS_SCHEMA`) in one
        transaction, replacing the rows stored before for those games; returns how many rows were written."""
        ids = game_ids(table)
        self.con.execute("BEGIN TRANSACTION")
        try:
            self.con.execute(f"DELETE FROM {ANALYSIS} WHERE list_contains(?, game_id)", [ids])
            self._insert(ANALYSIS, table)
            self.con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # (as in write_games)
                self.con.execute("ROLLBACK")
            raise
        return table.num_rows

    # -- export ------------------------------------------------------------------------
    def to_parquet(self, directory: str | Path) -> dict[str, Path]:
        """Write every table as a new version of the Parquet dataset ``DIR`` (see :mod:`.dataset`).

        Each table is Hive-partitioned, ``DIR/<table>/edition=../player_count=../*.parquet`` (tables
        without the partition columns get them from ``games``); ``failures`` goes to ``DIR/failures/``.
        The export is all-or-nothing: readers see the previous version until the new one is complete
        and committed, then only the new one; the previous version's files are deleted.
        Returns the folder of each table written.
        """
        out = Path(directory)
        with DatasetWriter(out) as writer:
            commit = write_version(writer, self.con, [*SCHEMAS, ANALYSIS, "failures"], base=True)
        return {rel.split("/", 1)[0]: out / rel.split("/", 1)[0] for rel in commit.files}
