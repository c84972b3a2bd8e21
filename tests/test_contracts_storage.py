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
* ``write_version`` copies every table it is given into the dataset, whatever their order: an empty
  ``failures`` table only writes no file.
* Into a DuckDB file, once the file listing has ended a free loader takes what has gathered at once
  (``drain_games``), never more than ``loaders`` loads at a time; the final flush shares what waits
  among the free loaders.
* A dataset's end-of-run merge is one task under 2,000 games, a task per table up to 20,000, a task
  per table partition beyond (games times the workers sharing the merge, docs/storage-schema.md and
  docs/performance.md); a merge split so keeps every row.
* The ingest report's ``seconds`` are the import's own time: between zero and the time around the call.
* An action's ``resource_sources`` lists every cube and barrel it used, in order (docs/storage-schema.md).
* Storing reviews into a dataset that already holds some replaces the reviewed games' rows and keeps
  the others'.
* A load out of memory in a store with no limit of its own is retried under a bound doubled up to 256
  times (eight retries), then the import stops with the store's error.
* A load takes the oldest waiting batches up to ``group_games`` games, never more, except a single
  batch bigger than that, loaded alone.
* Once a group is loaded, its staged files are deleted while the import goes on.
* The ingest report's failures by rule (``summary``) list the most frequent rule first.
* An action's JSON text (the actions table's ``action_json``, what the game id hashes) is what the
  encoder writes of ``to_json()`` whatever types its values hold: values the direct writer does not
  expect go through ``to_json``.
* Before the file listing has ended, gathered games wait for a full group (or ``group_seconds``); a
  one-process import (``background=False``) loads only full groups even once it has ended, in the
  committing thread.
* The ingest report's commit CPU seconds are CPU time the import spent: an import of an empty folder
  reports no more than the process's CPU time around the call.

Expectations come from the documented bound (its base and its room per loader), from the settings the
test gives the store, from how the test builds its games and its failures; never from the output of the
code under test.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import json
import math
import threading
import time
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from brass_stats.bots import RandomBot, play_game
from brass_stats.engine.actions import Action, Build, Loan, Pass, Sale, Sell
from brass_stats.log.format import GameLog
from brass_stats.replay import replay
from brass_stats.storage import Store, ingest
from brass_stats.storage.analysis_table import analysis_table, replace_in_dataset
from brass_stats.storage.corpus import open_corpus
from brass_stats.storage.dataset import Commit, DatasetWriter, live_commits, read_commits, write_version
from brass_stats.storage.duckdb_store import StoreWriteError
from brass_stats.storage.ingest import BatchResult, DuckDBCommitter, InlineRunner, run_batch
from brass_stats.storage.ingest.merge import merge_commits, merge_parts
from brass_stats.storage.tables import SCHEMAS, assemble_tables, game_id, game_parts, game_tables
from brass_stats.storage.tables.action_json import action_texts

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


def loads_never_fit(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every load runs out of memory; the list it returns gets the store's memory limit at each try."""
    limits: list[str] = []

    def never_fits(self: Any, waiting: list[Any], new: list[str]) -> None:
        limits.append(_memory_limit(self.store))
        raise _out_of_memory()

    monkeypatch.setattr(DuckDBCommitter, "_load", never_fits)
    return limits


def test_a_load_that_never_fits_is_retried_up_to_the_stores_limit_once_then_the_import_stops(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load out of memory under the bound is tried again under a doubled bound, capped at the limit the
    store was given; out of memory at that limit too, more memory is not the store's to give: the import
    stops with the store's error instead of trying again under the same limit."""
    limits = loads_never_fit(monkeypatch)
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


# -- a dataset version written from DuckDB -------------------------------------------------------


def _rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[Any, ...]]:
    return con.execute(f'SELECT * FROM "{table}" ORDER BY ALL').fetchall()


def test_write_version_copies_every_table_it_is_given_whatever_their_order(logs: Path, tmp_path: Path) -> None:
    """``write_version`` copies the tables it is named into the dataset as one commit: an empty ``failures``
    table named first only writes no file of its own, every table after it is still copied."""
    store = Store(tmp_path / "g.duckdb")
    report = ingest([logs], store, workers=1, progress=False)
    assert (report.stored, report.failed) == (len(SEEDS), 0)
    assert store.count("failures") == 0
    out = tmp_path / "pq"
    with DatasetWriter(out) as writer:
        commit = write_version(writer, store.con, ["failures", *SCHEMAS])
    assert commit.games == len(SEEDS)
    assert not any(rel.startswith("failures/") for rel in commit.files)
    con = open_corpus(parquet=out)
    for name in SCHEMAS:
        assert con.execute(f'SELECT count(*) FROM "{name}"').fetchone() == (store.count(name),), name
    assert store.count("actions") > 0
    con.close()
    store.close()


# -- the loaders of an import into a DuckDB file ---------------------------------------------------


def test_once_the_listing_has_ended_a_free_loader_takes_what_has_gathered_at_once(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the file listing has ended (``draining``) a free loader starts on what waits as soon as
    ``drain_games`` games have gathered, without waiting for a full group or for the flush; while every
    loader is busy the rest waits for one: never more than ``loaders`` loads at a time. Every game is
    stored in the end."""
    release, entered = threading.Event(), threading.Semaphore(0)
    lock = threading.Lock()
    running: list[int] = []
    most = [0]
    load = DuckDBCommitter._load

    def held(self: Any, waiting: list[Any], new: list[str]) -> None:
        with lock:
            running.append(1)
            most[0] = max(most[0], len(running))
        entered.release()
        try:
            release.wait(timeout=120)  # (a safety net: the test releases the loads itself)
            load(self, waiting, new)
        finally:
            with lock:
                running.pop()

    monkeypatch.setattr(DuckDBCommitter, "_load", held)
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2)
    committer.group_seconds = math.inf  # only gathered games start a load, never the clock
    committer.draining, committer.drain_games = True, 1
    first, second, third = _staged(committer, logs)
    try:
        committer.commit([first])
        assert committer.waiting_games == 0  # a free loader took it
        committer.commit([second])
        assert committer.waiting_games == 0  # the second loader took this one
        committer.commit([third])
        assert committer.waiting_games == len(third.game_ids)  # both loaders busy: it waits
        assert entered.acquire(timeout=120) and entered.acquire(timeout=120)  # both loads under way at once
    finally:
        release.set()
    committer.flush()
    committer.close()
    assert most[0] == 2
    assert store.count("games") == len(SEEDS)
    store.close()


def test_the_final_flush_shares_what_waits_among_the_free_loaders(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the workers are done, the flush splits what waits among the free loaders, loading side by side:
    two waiting batches and two free loaders are two loads of a batch each, not one load of both."""
    groups: list[list[str]] = []
    lock = threading.Lock()
    load = DuckDBCommitter._load

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        with lock:
            groups.append(sorted(new))
        load(self, waiting, new)

    monkeypatch.setattr(DuckDBCommitter, "_load", recorded)
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2)
    committer.group_seconds = math.inf  # nothing loads before the flush (far fewer games than a group)
    first, second, _ = _staged(committer, logs)
    committer.commit([first, second])
    assert groups == []
    committer.flush()
    committer.close()
    assert sorted(groups) == sorted([sorted(first.game_ids), sorted(second.game_ids)])
    assert store.count("games") == len(first.game_ids) + len(second.game_ids)
    store.close()


# -- the end-of-run merge of a dataset ---------------------------------------------------------------

RUN_FILES = [  # one batch's files: two tables partitioned, failures not
    "games/edition=birmingham/player_count=2/part-a-0.parquet",
    "actions/edition=birmingham/player_count=2/part-a-0.parquet",
    "actions/edition=birmingham/player_count=3/part-a-0.parquet",
    "failures/part-a.parquet",
]
BY_TABLE = ["actions", "failures", "games"]
BY_PARTITION = [
    "actions/edition=birmingham/player_count=2",
    "actions/edition=birmingham/player_count=3",
    "failures",
    "games/edition=birmingham/player_count=2",
]


@pytest.mark.parametrize(
    ("games", "workers", "parts"),
    [
        ((1_000, 999), 1, ["*"]),  # under 2,000 games: one task
        ((1_000, 1_000), 1, BY_TABLE),  # from 2,000: a task per table
        ((10_000, 9_999), 1, BY_TABLE),  # up to 20,000
        ((10_000, 10_000), 1, BY_PARTITION),  # from 20,000: a task per table partition
        ((999,), 2, ["*"]),  # workers sharing the merge: thresholds that many times smaller
        ((1_000,), 2, BY_TABLE),
        ((10_000,), 2, BY_PARTITION),
    ],
)
def test_a_dataset_merge_is_split_by_table_from_2000_games_and_by_partition_from_20000(
    games: tuple[int, ...], workers: int, parts: list[str]
) -> None:
    """docs/storage-schema.md: the merge runs one task for a run under 2,000 games, a task per table up to
    20,000, a task per table partition beyond; docs/performance.md: divided by the workers sharing the
    merge. A run's games are summed over its commits."""
    commits = [Commit(i, f"b{i}", RUN_FILES, games=n) for i, n in enumerate(games)]
    assert merge_parts(commits, workers) == parts


class _SharedMerge(InlineRunner):
    """Runs the merge's tasks here, counted as a cluster of ``n`` workers sharing the merge."""

    def __init__(self, n: int) -> None:
        super().__init__(frozenset())
        self.n = n

    def workers(self) -> int:
        return self.n


@pytest.mark.parametrize("workers", [700, 7_000])  # 3 games: 2,100 (by table) and 21,000 (by partition)
def test_a_merge_split_by_table_or_partition_keeps_every_row(logs: Path, tmp_path: Path, workers: int) -> None:
    """A run's batches merged task by task (a table each, or a table partition each, as when many workers
    share the merge) become one commit with one file per table and partition, and the dataset reads the
    same rows as before the merge."""
    out = tmp_path / "pq"
    report = ingest([logs], parquet_dir=out, workers=1, progress=False, batch_size=1, compact=False)
    assert (report.stored, report.failed) == (len(SEEDS), 0)
    batches = [c.batch for c in live_commits(read_commits(out))]
    assert len(batches) == len(SEEDS)
    con = open_corpus(parquet=out)
    before = {name: _rows(con, name) for name in SCHEMAS}
    con.close()
    runner = _SharedMerge(workers)
    try:
        with DatasetWriter(out) as writer:
            merge_commits(writer, batches, runner)
    finally:
        runner.close()
    (merged,) = live_commits(read_commits(out))
    assert merged.supersedes == batches and merged.games == len(SEEDS)
    tables = [rel.split("/", 1)[0] for rel in merged.files]
    assert sorted(tables) == sorted({name for name, rows in before.items() if rows})  # one file each (one partition)
    con = open_corpus(parquet=out)
    assert {name: _rows(con, name) for name in SCHEMAS} == before
    assert len(before["games"]) == len(SEEDS)
    con.close()


# -- the ingest report's time ------------------------------------------------------------------------


def test_an_imports_reported_seconds_are_its_own_time(logs: Path, tmp_path: Path) -> None:
    """The report's ``seconds`` are the time the import took: never below zero, never more than the time
    measured around the call; an import of games stored already as much as a first one."""
    store = Store(tmp_path / "g.duckdb")
    for stored in (len(SEEDS), 0):  # a first import, then the same files again: every game known
        before = time.perf_counter()
        report = ingest([logs], store, workers=1, progress=False)
        wall = time.perf_counter() - before
        assert report.stored == stored
        assert 0.0 <= report.seconds <= wall
    assert report.skipped == len(SEEDS)
    store.close()


# -- the actions table's resource sources -------------------------------------------------------------

USED = {"coal_used": "coal", "iron_used": "iron", "beer_used": "beer"}


@pytest.mark.parametrize(("players", "seed"), [(2, SEEDS[0]), (3, SEEDS[2])])  # coal and iron; beer too
def test_each_actions_resource_sources_lists_every_cube_and_barrel_it_used(players: int, seed: int) -> None:
    """docs/storage-schema.md: ``resource_sources`` is every cube and barrel the action used, in order, as
    JSON ``[{"resource", "source", "owner"}]`` (the owner's seat, or null for the market and merchants):
    what the action's ``*_used`` effects say, and ``[]`` for an action that used none."""
    r = replay(play_game([RandomBot()] * players, seed), keep_states=True)
    actions = game_tables(r, None)["actions"]
    got = dict(
        zip(actions.column("action_index").to_pylist(), actions.column("resource_sources").to_pylist(), strict=True)
    )
    assert sorted(got) == [s.index for s in r.steps]
    used_any = 0
    for s in r.steps:
        expected = [
            {"resource": USED[e.kind], "source": e.detail["source"], "owner": e.detail.get("owner")}
            for e in s.effects
            if e.kind in USED
        ]
        text = got[s.index]
        assert isinstance(text, str), (s.index, text)
        assert json.loads(text) == expected, s.index
        used_any += bool(expected)
    assert used_any > 0


# -- reviews stored in a dataset ----------------------------------------------------------------------


def _review(gid: str, seed: int, actions: int) -> list[dict[str, Any]]:
    """A review's rows of game ``gid`` (``actions`` of them), told apart by ``seed``."""
    return [
        {
            "game_id": gid,
            "action_index": i,
            "seat": i % 2,
            "judged": False,
            "win_after": [0.5, 0.5],
            "simulations": 1,
            "seed": seed,
            "as_played": False,
        }
        for i in range(actions)
    ]


def test_storing_reviews_into_a_dataset_that_holds_some_replaces_only_the_reviewed_games(
    logs: Path, tmp_path: Path
) -> None:
    """Reviews stored again into a dataset that holds reviews already: the reviewed game's rows are
    replaced (never doubled), the other games' reviews are kept, those in a file shared with it as well
    as those in a file of their own."""
    out = tmp_path / "pq"
    ingest([logs], parquet_dir=out, workers=1, progress=False)
    con = open_corpus(parquet=out)
    held = con.execute("SELECT game_id, edition, player_count FROM games").fetchall()
    partitions = {g: (e, int(n)) for g, e, n in held}
    con.close()
    a, b, c = sorted(partitions)
    replace_in_dataset(out, analysis_table(_review(a, 1, 3) + _review(b, 1, 2)), partitions)  # one file
    replace_in_dataset(out, analysis_table(_review(c, 1, 2)), partitions)  # a file of its own
    assert replace_in_dataset(out, analysis_table(_review(a, 2, 1)), partitions) == 1  # a again
    con = open_corpus(parquet=out)
    rows = con.execute("SELECT game_id, count(*), min(seed), max(seed) FROM analysis GROUP BY ALL ORDER BY ALL")
    assert rows.fetchall() == sorted([(a, 1, 2, 2), (b, 2, 1, 1), (c, 2, 1, 1)])
    con.close()


# -- an out-of-memory load in a store without a limit ----------------------------------------------


def _shown(mib: int) -> str:
    """How DuckDB shows a memory limit of ``mib`` MiB (asked of a fresh connection)."""
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"SET memory_limit = '{mib}MiB'")
        return str(con.execute("SELECT current_setting('memory_limit')").fetchone()[0])  # type: ignore[index]
    finally:
        con.close()


def test_a_load_that_never_fits_a_store_without_a_limit_is_retried_eight_times_then_the_import_stops(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no limit of the store's to stop at, a load that keeps running out of memory is tried under the
    bound, then under the bound doubled eight times over (up to 256 times it), and then the import stops
    with the store's error rather than doubling for ever; the store has no limit again afterwards."""
    limits = loads_never_fit(monkeypatch)
    store = Store(tmp_path / "g.duckdb")
    store.con.execute("SET memory_limit = '-1'")
    with pytest.raises(StoreWriteError, match="could not allocate block"):
        ingest([logs], store, workers=1, progress=False)
    assert limits == [_shown(_bound_mib(1) * 2**k) for k in range(9)]
    assert limits[-1] == _shown(256 * _bound_mib(1))
    assert _memory_limit(store) == NO_LIMIT
    store.close()


# -- the groups a DuckDB file's loads take ------------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "group", "loads"),
    [
        ([[0], [1], [2]], 2, [[0, 1], [2]]),  # one game a batch: two batches a load, the third waits
        ([[0, 1], [2]], 1, [[0, 1], [2]]),  # a batch bigger than a group: loaded alone, never with another
        ([[0], [1, 2]], 2, [[0], [1, 2]]),  # the next batch would overflow the group: it waits
    ],
    ids=["two-of-three-batches", "a-batch-bigger-than-a-group", "the-next-batch-overflows"],
)
def test_a_load_takes_waiting_batches_up_to_a_group_of_games_never_more(
    logs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    layout: list[list[int]],
    group: int,
    loads: list[list[int]],
) -> None:
    """A load takes the oldest waiting batches while they fit in ``group_games`` games: never a bigger group
    (except a single batch bigger than that on its own); what does not fit waits for the next load."""
    groups: list[list[str]] = []
    load = DuckDBCommitter._load

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        groups.append(sorted(new))
        load(self, waiting, new)

    monkeypatch.setattr(DuckDBCommitter, "_load", recorded)
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=1, background=False)
    committer.group_games, committer.group_seconds = group, math.inf  # only a full group starts a load
    files = _files(logs)
    batches = [
        run_batch([files[i] for i in idx], frozenset(), str(committer.dest), f"b{n}", False)
        for n, idx in enumerate(layout)
    ]
    ids = {files[i]: g for b, idx in zip(batches, layout, strict=True) for i, g in zip(idx, b.game_ids, strict=True)}
    committer.commit(batches)
    committer.flush()
    committer.close()
    assert groups == [sorted(ids[files[i]] for i in load_) for load_ in loads]
    assert store.count("games") == len(SEEDS)
    store.close()


# -- the staging files of an import into a DuckDB file ---------------------------------------------


def _staged_files(committer: DuckDBCommitter) -> set[str]:
    return {p.relative_to(committer.dest).as_posix() for p in committer.dest.rglob("*") if p.is_file()}


def test_a_loaded_groups_staged_files_are_deleted_while_the_import_goes_on(logs: Path, tmp_path: Path) -> None:
    """docs/storage-schema.md: the parent bulk-loads the staged files of finished batches a group at a time
    and deletes them: once a group is loaded its files leave the staging folder (the import does not hold
    every game twice on disk until it ends), while the batches still waiting keep theirs."""
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=1, background=False)
    first, second, third = _staged(committer, logs)
    committer.group_games, committer.group_seconds = len(first.game_ids), math.inf  # a group: one batch
    assert set(first.files) and set(second.files) and _staged_files(committer) >= {*first.files, *second.files}
    committer.commit([first])  # a full group: loaded at once
    assert store.count("games") == len(first.game_ids)
    assert _staged_files(committer) == {*second.files, *third.files}
    committer.group_games = 2 * len(SEEDS)  # the others wait for the flush
    committer.commit([second, third])
    assert _staged_files(committer) == {*second.files, *third.files}
    committer.flush()
    assert _staged_files(committer) == set()  # before the committer is closed
    committer.close()
    assert store.count("games") == len(SEEDS)
    store.close()


# -- failures by rule in the ingest report -------------------------------------------------------------


def test_the_ingest_reports_failures_by_rule_list_the_most_frequent_rule_first(logs: Path, tmp_path: Path) -> None:
    """Two games whose first action is taken out of turn (rule ``turn.order``) and one file that is not
    JSON (``log.format``): the report's failures by rule, and its summary line, name the rule broken
    twice first."""
    d = tmp_path / "logs"
    d.mkdir()
    good, *others = _files(logs)
    (d / "good.json").write_text(Path(good).read_text())
    for n, f in enumerate(others):
        log = json.loads(Path(f).read_text())
        log["actions"][0]["player"] = 1 - log["actions"][0]["player"]  # the other seat, out of turn
        (d / f"out-of-turn-{n}.json").write_text(json.dumps(log))
    (d / "broken.json").write_text("{not json")
    report = ingest([d], tmp_path / "g.duckdb", workers=1, progress=False)
    assert (report.stored, report.failed) == (1, 3)
    assert report.by_rule() == [("turn.order", 2), ("log.format", 1)]
    assert "failures by rule: turn.order 2, log.format 1" in report.summary().splitlines()


# -- an action's JSON text whatever its values' types -------------------------------------------------


class _Seat(enum.IntEnum):
    """A seat held as an enum: an integer to JSON, not an ``int`` to the direct writer."""

    FIRST = 0
    SECOND = 1


_NUMBER: Any = 30.0  # an amount as a float
_BONUS_NUMBER: Any = 2  # a Gloucester bonus given as a number, not an industry's name
_BONUS_LIST: Any = ["coal_mine"]


@pytest.mark.parametrize(
    "action",
    [
        Loan(_Seat.SECOND, "loc:dudley", 30),  # every field stated, the seat of an unexpected type
        Loan(0, "loc:dudley", _NUMBER),  # every field stated, the amount of an unexpected type
        Pass(_Seat.FIRST, "ind:coal_mine"),
        Sell(0, "loc:gloucester", (Sale("gloucester:0", "gloucester", 0, ("merchant",), _BONUS_NUMBER),)),
        Sell(1, "loc:gloucester", (Sale("gloucester:0", "gloucester", None, None, _BONUS_LIST),)),
        Build(_Seat.FIRST, "loc:dudley", "coal_mine", "dudley", 0, ("market",), ("market",), "loc:walsall"),
    ],
    ids=["loan-enum-seat", "loan-float-amount", "pass-enum-seat", "sale-number-bonus", "sale-list-bonus", "build"],
)
def test_an_actions_json_is_its_to_json_as_the_encoder_writes_it_whatever_its_values_types(action: Action) -> None:
    """docs/storage-schema.md: ``action_json`` is the action in the log format (``Action.to_json()``), and
    the game id hashes the log's actions as ``json.dumps`` writes them (sorted keys, compact). Values of
    types the direct writer does not expect (an enum seat, a float amount, a bonus that is not a name)
    are still written as the encoder writes ``to_json()``, in both key orders: no field lost, no error."""
    d = action.to_json()
    in_order = json.dumps(d, ensure_ascii=False, separators=(",", ":"))
    by_key = json.dumps(d, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert action_texts(action) == (in_order, by_key)
    log = GameLog.new(["a", "b"], 7, actions=[Pass(0, "loc:dudley"), action])
    body = {"actions": [a.to_json() for a in log.actions], "chance": log.chance}
    body |= {"edition": log.edition, "options": log.options, "players": list(log.players)}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert game_id(log) == hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- when gathered games load: before the listing has ended, and in one process ------------------------


def _recording_loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], str]]:
    """Each load's new games, and the name of the thread it ran in."""
    loads: list[tuple[list[str], str]] = []
    lock = threading.Lock()
    load = DuckDBCommitter._load

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        with lock:
            loads.append((sorted(new), threading.current_thread().name))
        load(self, waiting, new)

    monkeypatch.setattr(DuckDBCommitter, "_load", recorded)
    return loads


def test_before_the_listing_has_ended_gathered_games_wait_for_a_full_group(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the file listing goes on (not ``draining``) a load starts only for a full group (or after
    ``group_seconds``): ``drain_games`` gathered games and free loaders start nothing (small groups cost a
    commit each). The flush loads them all."""
    loads = _recording_loads(monkeypatch)
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2)
    committer.group_seconds = math.inf  # only a full group starts a load, never the clock
    committer.draining, committer.drain_games = False, 1
    staged = _staged(committer, logs)
    for n, batch in enumerate(staged, start=1):
        committer.commit([batch])
        assert committer.waiting_games == n  # one game a batch, far from a group: they wait
    assert loads == []
    committer.flush()
    committer.close()
    assert sorted(g for new, _ in loads for g in new) == sorted(g for b in staged for g in b.game_ids)
    assert store.count("games") == len(SEEDS)
    store.close()


def test_a_one_process_import_loads_only_full_groups_in_its_own_thread_even_once_the_listing_has_ended(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committer without background loaders (``background=False``, a one-process import) loads no
    small groups once the listing has ended: there is no loader to keep busy beside the work, so what
    gathers waits for a full group or the flush, and every load runs in the committing thread."""
    loads = _recording_loads(monkeypatch)
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2, background=False)
    committer.group_seconds = math.inf
    committer.draining, committer.drain_games = True, 1
    staged = _staged(committer, logs)
    for n, batch in enumerate(staged, start=1):
        committer.commit([batch])
        assert committer.waiting_games == n
    assert loads == []
    committer.flush()
    committer.close()
    here = threading.current_thread().name
    assert loads and all(thread == here for _, thread in loads)
    assert sorted(g for new, _ in loads for g in new) == sorted(g for b in staged for g in b.game_ids)
    assert store.count("games") == len(SEEDS)
    store.close()


# -- the commit CPU seconds of an import of nothing ----------------------------------------------------


@pytest.mark.parametrize("into", ["duckdb", "dataset"])
def test_an_import_of_an_empty_folder_reports_no_more_commit_cpu_time_than_it_took(tmp_path: Path, into: str) -> None:
    """The report's commit CPU seconds are CPU time spent by the import's own threads (the committing
    thread and its loaders, all in this process with one worker): an import of an empty folder stores
    nothing and reports between zero and the process's CPU time measured around the call, starting from
    nothing of its own."""
    empty = tmp_path / "logs"
    empty.mkdir()
    where: dict[str, Any] = {"db": tmp_path / "g.duckdb"} if into == "duckdb" else {"parquet_dir": tmp_path / "pq"}
    c0 = time.process_time()
    report = ingest([empty], workers=1, progress=False, **where)
    spent = time.process_time() - c0
    assert (report.files, report.stored, report.failed) == (0, 0, 0)
    assert 0.0 <= report.commit_cpu_seconds <= spent
