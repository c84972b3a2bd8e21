"""Open a corpus of stored games for analysis: a DuckDB file or a Parquet dataset, with the same tables.

:func:`open_corpus` returns a DuckDB connection in which ``games``, ``players``, ``actions``,
``effects``, ``turn_snapshots``, ``era_scores``, ``board``, ``failures`` (and every other table of
:data:`~brass_stats.storage.tables.SCHEMAS`) can be queried by name, with the same columns in the same
order and of the same types, whichever store is behind it. A Parquet dataset is read as views over
``read_parquet`` of the files its commit records name (see :mod:`.dataset`), with Hive partitioning.

:class:`CorpusRef` names a store (what the commands' ``--db FILE`` or ``--parquet DIR`` gave).

>>> import tempfile, os
>>> from brass_stats.storage import Store
>>> with tempfile.TemporaryDirectory() as d:
...     Store(os.path.join(d, "g.duckdb")).close()
...     con = open_corpus(db=os.path.join(d, "g.duckdb"))
...     con.execute("SELECT count(*) FROM games").fetchone()[0]
0
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from .analysis_table import ANALYSIS, ANALYSIS_SCHEMA
from .dataset import PARTITION_COLUMNS, Commit, DatasetError, dataset_files, table_of
from .duckdb_store import FAILURES_SCHEMA, CorpusBusy, CorpusError, connect_db, sql_string, sql_type
from .tables import SCHEMAS


def all_schemas() -> dict[str, pa.Schema]:
    """Every table a corpus exposes, by name: the game tables, then ``failures``.

    (A corpus also exposes ``analysis``, the stored reviews of games: empty unless games were analysed,
    and absent from a DuckDB file written by an older version.)"""
    return {**SCHEMAS, "failures": FAILURES_SCHEMA}


def open_corpus(db: str | Path | None = None, parquet: str | Path | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only view of the stored games: exactly one of ``db`` (DuckDB file) or ``parquet`` (dataset folder)."""
    if (db is None) == (parquet is None):
        raise CorpusError("give either a DuckDB file or a Parquet dataset folder (one of the two)")
    if db is not None:
        if not Path(db).is_file():
            raise CorpusError(f"database {db} does not exist")
        con = connect_db(db)
        disable_progress_bar(con)
        return con
    assert parquet is not None
    root = Path(parquet)
    if not root.is_dir():
        raise CorpusError(f"Parquet dataset {root} does not exist")
    con = duckdb.connect(":memory:")
    disable_progress_bar(con)
    attach_parquet(con, root)
    return con


def disable_progress_bar(con: duckdb.DuckDBPyConnection) -> None:
    """A long scan must not draw DuckDB's progress bar over a command's output (Jupyter may refuse the setting)."""
    with contextlib.suppress(duckdb.Error):
        con.execute("SET enable_progress_bar = false")


def attach_parquet(con: duckdb.DuckDBPyConnection, root: str | Path, only: list[Commit] | None = None) -> None:
    """Create one view per table of the dataset ``root`` in ``con`` (empty views for tables without files).

    With ``only``, the views show just those commits' files (to merge them).
    """
    try:
        if only is None:
            files = dataset_files(root)
        else:
            files = {}
            for c in only:
                for rel in c.files:
                    files.setdefault(table_of(rel), []).append(Path(root) / rel)
    except DatasetError as e:
        raise CorpusError(str(e)) from None
    schemas = {**all_schemas(), ANALYSIS: ANALYSIS_SCHEMA}
    for name in [*schemas, *(n for n in files if n not in schemas)]:
        schema = schemas.get(name)
        paths = files.get(name, [])
        if not paths:
            if schema is None:
                continue
            cols = ", ".join(f'CAST(NULL AS {sql_type(f.type)}) AS "{f.name}"' for f in schema)
            con.execute(f'CREATE VIEW "{name}" AS SELECT {cols} WHERE false')
            continue
        listing = "[" + ", ".join(sql_string(p) for p in paths) + "]"
        if all(f"/{c}=" in p.as_posix() for p in paths for c in PARTITION_COLUMNS):
            source = (
                f"read_parquet({listing}, hive_partitioning = true, union_by_name = true, "
                "hive_types = {'edition': VARCHAR, 'player_count': INTEGER})"
            )
        else:
            source = f"read_parquet({listing}, hive_partitioning = false, union_by_name = true)"
        if schema is None:  # a table this version does not know: expose it as it is
            con.execute(f'CREATE VIEW "{name}" AS SELECT * FROM {source}')
            continue
        present = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
        cols = ", ".join(
            f'CAST("{f.name}" AS {sql_type(f.type)}) AS "{f.name}"'
            if f.name in present
            else f'CAST(NULL AS {sql_type(f.type)}) AS "{f.name}"'
            for f in schema
        )
        if name == "failures":
            # failures are appended per batch: keep the latest per file, none for a game stored since
            con.execute(f'CREATE VIEW "_failures_all" AS SELECT {cols} FROM {source}')
            con.execute(
                'CREATE VIEW "failures" AS SELECT * FROM "_failures_all" '
                "WHERE game_id IS NULL OR game_id NOT IN (SELECT game_id FROM games) "
                "QUALIFY row_number() OVER (PARTITION BY file ORDER BY recorded_at DESC) = 1"
            )
        else:
            con.execute(f'CREATE VIEW "{name}" AS SELECT {cols} FROM {source}')


@dataclass(frozen=True)
class CorpusRef:
    """Where a command's games are: a DuckDB file (``db``) or a Parquet dataset folder (``parquet``)."""

    db: Path | None = None
    parquet: Path | None = None

    def connect(self) -> duckdb.DuckDBPyConnection:
        return open_corpus(self.db, self.parquet)

    def __str__(self) -> str:
        return str(self.db if self.db is not None else self.parquet)


__all__ = [
    "PARTITION_COLUMNS",
    "CorpusBusy",
    "CorpusError",
    "CorpusRef",
    "attach_parquet",
    "connect_db",
    "open_corpus",
]
