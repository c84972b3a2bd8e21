"""Contracts of the storage wing that a user relies on, each pinned by a mutant that survived.

* An import into a DuckDB file bounds DuckDB's memory while it loads (64 MiB plus 16 MiB per loader
  thread, docs/performance.md "Memory"), never above a limit the store was given, and puts the setting
  back afterwards; a committer made without saying how many loaders it has loads with one.
* A load that runs out of memory under the import's bound is retried under a doubled bound up to the
  store's own limit, once at that limit, then the import stops with the store's error; a store with no
  limit of its own (``-1``) still gets the retry.
* The ingest report's commit CPU seconds are the committing thread's CPU time plus its loaders': never
  negative, whatever the committer (a Parquet dataset's has no loader threads).
* A game whose values its columns cannot hold (a money amount that is not a number) is that file's
  failure (rule ``storage.tables``), found game by game; the other games of its batch are stored.
* One game's tables are converted to Arrow without copying its numeric columns (``game_tables``, and a
  batch converted game by game): the Arrow column is the game's own numpy memory.

Expectations come from the documented bound (its base and its room per loader), from the settings the
test gives the store, from how the test builds its games and its failures; never from the output of the
code under test.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from brass_stats.bots import RandomBot, play_game
from brass_stats.replay import replay
from brass_stats.storage import Store, ingest
from brass_stats.storage.corpus import open_corpus
from brass_stats.storage.duckdb_store import StoreWriteError
from brass_stats.storage.ingest import BatchResult, DuckDBCommitter, run_batch
from brass_stats.storage.tables import SCHEMAS, assemble_tables, game_parts

# the module, not the function `ingest` that shadows it as an attribute of brass_stats.storage
committer_module = importlib.import_module("brass_stats.storage.ingest.duckdb_committer")
worker_module = importlib.import_module("brass_stats.storage.ingest.worker")

SEEDS = (41, 42, 43)  # three small 2-player random games
MIB = "{:.1f} MiB"  # how DuckDB shows a memory limit set in whole MiB


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("storage-contract-logs")
    for seed in SEEDS:
        play_game([RandomBot()] * 2, seed).save(d / f"random-2p-{seed}.json")
    return d


def _files(logs: Path) -> list[str]:
    return sorted(str(p) for p in logs.glob("*.json"))


def _memory_limit(store: Store) -> str:
    cur = store.con.cursor()
    try:
        return str(cur.execute("SELECT current_setting('memory_limit')").fetchone()[0])  # type: ignore[index]
    finally:
        cur.close()


def _staged(committer: DuckDBCommitter, logs: Path) -> list[BatchResult]:
    """Each game file as a finished batch, staged where the committer loads from."""
    return [run_batch([f], frozenset(), str(committer.dest), f"b{i}", False) for i, f in enumerate(_files(logs))]


def _bound_mib(loaders: int) -> int:
    """The documented bound of an import with ``loaders`` loader threads, in MiB."""
    return int(committer_module.MEMORY_BASE_MB + committer_module.MEMORY_PER_LOADER_MB * loaders)


def _bound(loaders: int) -> str:
    """The same bound as DuckDB shows it."""
    return MIB.format(_bound_mib(loaders))


def _out_of_memory() -> duckdb.Error:
    return duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block of size 256.0 KiB")


# -- the memory bound of an import -------------------------------------------------------------


def test_an_import_bounds_a_store_with_duckdbs_default_limit_and_puts_it_back(logs: Path, tmp_path: Path) -> None:
    """DuckDB's default limit (80% of the machine) is far above the bound: the loads run under the bound
    (64 MiB plus 16 MiB for the one loader), and the store has its default again once the import is over."""
    store = Store(tmp_path / "g.duckdb")
    before = _memory_limit(store)
    committer = DuckDBCommitter(store, set(), loaders=1, background=False)
    committer.commit(_staged(committer, logs))
    committer.flush()
    assert _memory_limit(store) == _bound(1) != before
    committer.close()
    assert _memory_limit(store) == before
    assert store.count("games") == len(SEEDS)
    store.close()


def test_an_import_never_raises_the_memory_limit_the_store_was_given(logs: Path, tmp_path: Path) -> None:
    """A store given a limit below the import's bound keeps it: the import bounds memory, it never grants
    DuckDB more than the user allowed."""
    store = Store(tmp_path / "g.duckdb")
    store.con.execute("SET memory_limit = '48MiB'")  # below 64 + 16 MiB
    given = _memory_limit(store)
    committer = DuckDBCommitter(store, set(), loaders=1, background=False)
    committer.commit(_staged(committer, logs))
    committer.flush()
    assert _memory_limit(store) == given == MIB.format(48)
    committer.close()
    assert _memory_limit(store) == given
    assert store.count("games") == len(SEEDS)
    store.close()


def test_a_committer_made_with_its_defaults_loads_with_one_loader(logs: Path, tmp_path: Path) -> None:
    """Without a number of loaders the committer has one loader thread: DuckDB is bounded to the base
    plus one loader's room while it loads (not the room of two), and every game is stored."""
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set())
    committer.commit(_staged(committer, logs))
    committer.flush()
    assert _memory_limit(store) == _bound(1)
    committer.close()
    assert store.count("games") == len(SEEDS)
    store.close()


def test_a_load_that_never_fits_is_retried_up_to_the_stores_limit_once_then_the_import_stops(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load out of memory under the bound is tried again under a doubled bound, capped at the limit the
    store was given; out of memory at that limit too, more memory is not the store's to give: the import
    stops with the store's error instead of trying again under the same limit."""
    limits: list[str] = []

    def never_fits(self: Any, waiting: list[Any], new: list[str]) -> None:
        limits.append(_memory_limit(self.store))
        raise _out_of_memory()

    monkeypatch.setattr(DuckDBCommitter, "_load", never_fits)
    store = Store(tmp_path / "g.duckdb")
    # one loader: between twice and four times the bound, so that a second doubling reaches it
    store.con.execute(f"SET memory_limit = '{int(2.5 * _bound_mib(1))}MiB'")
    given = _memory_limit(store)
    with pytest.raises(StoreWriteError, match="could not allocate block"):
        ingest([logs], store, workers=1, progress=False)
    assert limits == [_bound(1), MIB.format(2 * _bound_mib(1)), given]
    assert _memory_limit(store) == given
    store.close()


NO_LIMIT = "16383.9 PiB"  # how DuckDB shows memory_limit = '-1'


def test_a_store_without_a_memory_limit_still_gets_an_out_of_memory_load_retried(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store told to have no limit (``SET memory_limit = '-1'``, shown in PiB) is bounded for the import
    like any other; a load that runs out of memory under the bound is retried under a doubled bound (no
    limit of the store's to stop at), the import stores every game, and the store has no limit again."""
    limits: list[str] = []
    load = DuckDBCommitter._load

    def fits_the_second_time(self: Any, waiting: list[Any], new: list[str]) -> None:
        limits.append(_memory_limit(self.store))
        if len(limits) == 1:
            raise _out_of_memory()
        load(self, waiting, new)

    monkeypatch.setattr(DuckDBCommitter, "_load", fits_the_second_time)
    store = Store(tmp_path / "g.duckdb")
    store.con.execute("SET memory_limit = '-1'")
    report = ingest([logs], store, workers=1, progress=False)
    assert (report.stored, report.failed) == (len(SEEDS), 0)
    assert limits == [_bound(1), MIB.format(2 * _bound_mib(1))]
    assert store.count("games") == len(SEEDS)
    assert _memory_limit(store) == NO_LIMIT  # and put back as it was: no limit
    store.close()


# -- the ingest report ---------------------------------------------------------------------------


def test_the_commit_cpu_seconds_of_an_import_into_a_dataset_are_never_negative(logs: Path, tmp_path: Path) -> None:
    """A Parquet dataset's committer has no loader threads: the report's commit CPU time is the committing
    thread's own, a time, never below zero."""
    report = ingest([logs], parquet_dir=tmp_path / "pq", workers=1, progress=False)
    assert (report.stored, report.failed) == (len(SEEDS), 0)
    assert report.commit_cpu_seconds >= 0.0
    assert report.commit_seconds >= 0.0


# -- a game whose values its columns cannot hold ---------------------------------------------


def test_a_game_whose_money_is_not_a_number_is_its_files_failure_not_the_imports(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Converting a batch's games to Arrow together raises a ValueError for a value an integer column
    cannot hold (NaN money): that game is found game by game and recorded as its file's failure (kind
    ``tables``, rule ``storage.tables``); the import goes on and stores the batch's other games."""
    real = worker_module.game_parts
    bad = f"random-2p-{SEEDS[1]}"

    def not_a_number(r: Any, source_file: str | None, gid: str | None = None) -> Any:
        parts = real(r, source_file, gid)
        if source_file and bad in source_file:
            kind, columns = parts["turn_snapshots"]
            parts["turn_snapshots"] = (kind, {**columns, "money": [math.nan] * len(columns["money"])})
        return parts

    monkeypatch.setattr(worker_module, "game_parts", not_a_number)
    db = tmp_path / "g.duckdb"
    report = ingest([logs], db, workers=1, progress=False, batch_size=len(SEEDS))  # one batch
    assert (report.stored, report.failed) == (len(SEEDS) - 1, 1)
    assert dict(report.by_rule()) == {"storage.tables": 1}
    (failure,) = report.failures
    assert bad in failure.file and failure.error_kind == "tables"
    con = open_corpus(db=db)
    assert con.execute("SELECT count(*) FROM games WHERE source_file LIKE ?", [f"%{bad}%"]).fetchone() == (0,)
    assert con.execute("SELECT count(DISTINCT game_id) FROM turn_snapshots").fetchone() == (len(SEEDS) - 1,)
    con.close()


# -- one game's tables -------------------------------------------------------------------------


def test_one_games_tables_take_its_numeric_columns_without_a_copy() -> None:
    """A game converted alone (``game_tables``, a batch converted game by game) hands its int32 numpy
    columns to Arrow as they are: the Arrow column is the game's own memory, not a second copy, and holds
    the same values."""
    r = replay(play_game([RandomBot()] * 2, SEEDS[0]), keep_states=True)
    parts = game_parts(r, None)
    tables = assemble_tables([parts])
    checked = 0
    for name, (kind, columns) in parts.items():
        if kind != "columns":
            continue
        for col, values in columns.items():
            if not (isinstance(values, np.ndarray) and values.dtype == np.int32):
                continue
            assert SCHEMAS[name].field(col).type == pa.int32()
            column = tables[name].column(col)
            assert column.num_chunks == 1
            assert column.chunk(0).buffers()[1].address == values.ctypes.data, (name, col)
            assert column.to_pylist() == values.tolist()
            checked += 1
    assert checked >= 10  # actions, effects, turn_snapshots and board have several each
