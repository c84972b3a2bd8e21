"""Ingest that scales out: one per-game function for local processes and a Dask cluster, workers writing
their own batches, whole batches committed, runs that can be killed and run again (issue 14, 15, 11)."""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import GOLDEN_GAMES, convert_golden

from brass_stats.bots import RandomBot, play_game
from brass_stats.bots.selfplay import generate
from brass_stats.cli import main
from brass_stats.cli.stats import stats_command, vp_command
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.storage import SCHEMAS, Store, ingest
from brass_stats.storage.corpus import all_schemas, open_corpus
from brass_stats.storage.dataset import dataset_files, read_commits
from brass_stats.storage.ingest import (
    MIN_BATCH,
    BatchResult,
    DatasetCommitter,
    DuckDBCommitter,
    IngestReport,
    InlineRunner,
    WorkerLost,
    file_batches,
    merge_parts,
    run_batch,
    run_import,
    staging_dir,
)
from brass_stats.storage.tables import game_id

RANDOM_GAMES = ((2, 31), (3, 32), (4, 33), (2, 34))
TIMESTAMPS = {"imported_at", "recorded_at"}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    for name in GOLDEN_GAMES:  # imported as played: gm7vza-4p's server let a seat place 16 links (D1)
        convert_golden(name).save(d / f"{name}.json")
    for n, seed in RANDOM_GAMES:
        play_game([RandomBot()] * n, seed).save(d / f"random-{n}p-{seed}.json")
    (d / "zz-broken.json").write_text('{"format": "brass-stats-log", ', encoding="utf-8")
    return d


N_GAMES = len(GOLDEN_GAMES) + len(RANDOM_GAMES)


def table_rows(con: object, name: str) -> list[tuple[object, ...]]:
    cols = [r[0] for r in con.execute(f'DESCRIBE "{name}"').fetchall() if r[0] not in TIMESTAMPS]  # type: ignore[attr-defined]
    return con.execute(f'SELECT {", ".join(cols)} FROM "{name}" ORDER BY ALL').fetchall()  # type: ignore[attr-defined]


def assert_same_rows(a: object, b: object) -> None:
    for name in all_schemas():
        rows = table_rows(a, name)
        assert rows, name
        assert rows == table_rows(b, name), name


def test_cluster_ingest_equals_local_ingest_row_for_row(logs: Path, tmp_path: Path) -> None:
    db, pq = tmp_path / "local.duckdb", tmp_path / "cluster"
    local = ingest([logs], db, workers=1, progress=False, policy=AS_PLAYED)
    assert (local.stored, local.failed) == (N_GAMES, 1)
    res = CliRunner().invoke(
        main, ["ingest", str(logs), "--parquet", str(pq), "--cluster", "local:2", "--batch-size", "2", "--as-played"]
    )
    assert res.exit_code == 1, res.output  # the broken file
    assert f"{N_GAMES} stored, 0 skipped (already stored), 1 failed" in res.output
    assert "failures by rule: log.format 1" in res.output
    assert_same_rows(open_corpus(db=db), open_corpus(parquet=pq))
    # Hive partitions by edition and player count; the run's batches merged into one commit
    assert {p.name for p in (pq / "actions" / "edition=birmingham").iterdir()} == {
        "player_count=2",
        "player_count=3",
        "player_count=4",
    }
    assert len(read_commits(pq)) == 1
    assert not [p for p in pq.rglob(".*")]
    again = CliRunner().invoke(main, ["ingest", str(logs), "--parquet", str(pq), "--cluster", "local:2", "--as-played"])
    assert f"0 stored, {N_GAMES} skipped (already stored), 1 failed" in again.output  # known ids reach the workers
    runner = CliRunner()
    for dimension in ("seat", "strategy", "opening"):
        a = runner.invoke(stats_command, ["--by", dimension, "--min-games", "1", "--format", "csv", "--db", str(db)])
        b = runner.invoke(
            stats_command, ["--by", dimension, "--min-games", "1", "--format", "csv", "--parquet", str(pq)]
        )
        assert a.exit_code == 0 and a.output == b.output
    gid = open_corpus(db=db).execute("SELECT min(game_id) FROM games").fetchone()[0]
    a = runner.invoke(vp_command, [gid, "--format", "csv", "--db", str(db)])
    b = runner.invoke(vp_command, [gid, "--format", "csv", "--parquet", str(pq)])
    assert a.exit_code == 0 and a.output == b.output


def test_cluster_ingest_as_played_stores_the_real_game_that_breaks_d1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gm7vza-4p (a real server game) gave one seat more links than its link tiles (D1): a strict cluster
    import records it as a failure; run again with --as-played the cluster stores it with its deviations,
    row for row as a local import as played does, and its failure record is gone. Paths given relative
    reach the workers absolute (a worker elsewhere runs in another folder)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    convert_golden("gm7vza-4p").save(logs / "gm7vza-4p.json")
    pq, db = tmp_path / "cluster", tmp_path / "local.duckdb"
    monkeypatch.chdir(tmp_path)
    args = ["ingest", "logs", "--parquet", "cluster", "--cluster", "local:2"]
    strict = CliRunner().invoke(main, args)
    assert strict.exit_code == 1, strict.output
    assert "0 stored, 0 skipped (already stored), 1 failed" in strict.output
    assert "failures by rule: network.link_tiles 1" in strict.output
    played = CliRunner().invoke(main, [*args, "--as-played"])
    assert played.exit_code == 0, played.output
    assert "1 stored, 0 skipped (already stored), 0 failed" in played.output
    assert "gm7vza-4p.json: stored as played, with" in played.output
    local = ingest([logs], db, workers=1, progress=False, policy=AS_PLAYED)
    assert (local.stored, local.failed, len(local.as_played)) == (1, 0, 1)
    a, b = open_corpus(db=db), open_corpus(parquet=pq)
    for name in all_schemas():
        assert table_rows(a, name) == table_rows(b, name), name
    assert table_rows(b, "failures") == []  # stored since: the strict run's failure no longer shows
    deviations = b.execute("SELECT DISTINCT rule FROM deviations").fetchall()
    n = b.execute("SELECT n_deviations FROM games").fetchone()
    count = b.execute("SELECT count(*) FROM deviations").fetchone()
    assert deviations == [("network.link_tiles",)] and n is not None and count is not None and n[0] == count[0] > 0
    assert f"with {count[0]} departure(s)" in played.output


def test_selfplay_on_a_cluster_writes_the_same_bytes(tmp_path: Path) -> None:
    local = generate(3, 2, 7, ["random"], tmp_path / "local", workers=1, progress=False)
    res = CliRunner().invoke(
        main,
        [
            "selfplay",
            "-n",
            "3",
            "-p",
            "2",
            "-s",
            "7",
            "-b",
            "random",
            "-o",
            str(tmp_path / "c"),
            "--cluster",
            "local:2",
        ],
    )
    assert res.exit_code == 0, res.output
    for p in local:
        assert (tmp_path / "c" / p.name).read_bytes() == p.read_bytes()
    assert sorted(x.name for x in (tmp_path / "c").iterdir()) == sorted(p.name for p in local)


def test_two_local_workers_write_the_same_dataset_as_one(logs: Path, tmp_path: Path) -> None:
    one = ingest([logs], parquet_dir=tmp_path / "one", workers=1, progress=False, policy=AS_PLAYED, batch_size=3)
    two = ingest([logs], parquet_dir=tmp_path / "two", workers=2, progress=False, policy=AS_PLAYED, batch_size=1)
    assert (one.stored, one.failed) == (two.stored, two.failed) == (N_GAMES, 1)
    assert_same_rows(open_corpus(parquet=tmp_path / "one"), open_corpus(parquet=tmp_path / "two"))


@pytest.mark.parametrize("split", [(0, 10**9), (0, 0)], ids=["a-task-per-table", "a-task-per-partition"])
def test_the_merge_split_into_tasks_gives_the_same_dataset(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: tuple[int, int]
) -> None:
    """A large run's batches are merged a table, or a table's partition, per task on the workers: the
    same rows as the one merge of a small run, one file per table and partition, one commit."""
    one = ingest([logs], parquet_dir=tmp_path / "one", workers=1, progress=False, policy=AS_PLAYED, batch_size=2)
    ingest_module = importlib.import_module("brass_stats.storage.ingest.merge")
    monkeypatch.setattr(ingest_module, "MERGE_SPLIT_GAMES", split)
    many = ingest([logs], parquet_dir=tmp_path / "many", workers=2, progress=False, policy=AS_PLAYED, batch_size=2)
    assert (one.stored, one.failed) == (many.stored, many.failed) == (N_GAMES, 1)
    assert_same_rows(open_corpus(parquet=tmp_path / "one"), open_corpus(parquet=tmp_path / "many"))
    assert len(read_commits(tmp_path / "many")) == 1
    for name in SCHEMAS:
        for folder in {f.parent for f in dataset_files(tmp_path / "many").get(name, [])}:
            assert len(list(folder.glob("*.parquet"))) == 1, folder
    assert not (tmp_path / "many" / "_tmp").exists()


def test_more_workers_split_the_merge_into_more_tasks() -> None:
    """A merge task costs about 0.1 s besides its rows, so a small run is merged in one task; workers that
    share the merge make smaller runs worth splitting: by table, then by each table's partition."""
    files = [
        "games/edition=birmingham/player_count=2/part-a-0.parquet",
        "games/edition=lancashire/player_count=3/part-a-0.parquet",
        "actions/edition=birmingham/player_count=2/part-a-0.parquet",
        "failures/part-a.parquet",
    ]
    commits = [type("C", (), {"games": 1000, "files": files})()]
    by_table = ["actions", "failures", "games"]
    by_partition = sorted({f.rsplit("/", 1)[0] for f in files})
    assert [merge_parts(commits, w) for w in (1, 2, 16, 32)] == [["*"], by_table, by_table, by_partition]


def test_a_merge_runs_few_duckdb_threads_whatever_the_cores(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The merge's sort and partitioned write take memory per DuckDB thread: with all 16 threads of a
    16-core machine it overflowed its 512 MB limit (4,000 games). Here DuckDB starts as on a 64-core machine,
    and the merge still runs at most 4 threads, under its memory limit."""
    import duckdb

    connect = duckdb.connect
    seen: list[tuple[int, str]] = []

    class Spy:  # a connection that records its settings when the merge writes
        def __init__(self, con: Any) -> None:
            self.con = con

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("COPY"):
                settings = "SELECT current_setting('threads'), current_setting('memory_limit')"
                seen.append(self.con.execute(settings).fetchone())
            return self.con.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.con, name)

    def many_cores(database: str = ":memory:", *args: Any, **kwargs: Any) -> Any:
        con = connect(database, *args, **kwargs)
        con.execute("SET threads = 64")
        return Spy(con) if database == ":memory:" else con

    monkeypatch.setattr(duckdb, "connect", many_cores)
    report = ingest([logs], parquet_dir=tmp_path / "pq", workers=1, progress=False, policy=AS_PLAYED, batch_size=2)
    assert report.stored == N_GAMES and seen
    assert all(1 <= threads <= 4 and limit.startswith(("488", "512")) for threads, limit in seen), seen


def test_appending_to_a_dataset_and_importing_again(logs: Path, tmp_path: Path) -> None:
    part = tmp_path / "part"
    part.mkdir()
    for p in sorted(logs.glob("random-*.json"))[:2]:
        shutil.copy(p, part / p.name)
    pq = tmp_path / "pq"
    first = ingest([part], parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert first.stored == 2
    second = ingest([logs], parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert (second.stored, second.skipped, second.failed) == (N_GAMES - 2, 2, 1)
    third = ingest([logs], parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert (third.stored, third.skipped, third.actions) == (0, N_GAMES, 0)  # skipped before replaying
    con = open_corpus(parquet=pq)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)
    assert con.execute("SELECT count(*) FROM failures").fetchone() == (1,)  # the latest failure per file


def test_a_game_met_twice_in_one_run_is_stored_once(logs: Path, tmp_path: Path) -> None:
    d = tmp_path / "in"
    d.mkdir()
    src = next(iter(sorted(logs.glob("random-*.json"))))
    for name in ("a.json", "b.json", "c.json"):
        shutil.copy(src, d / name)
    for kwargs in ({"parquet_dir": tmp_path / "pq"}, {"db": tmp_path / "g.duckdb"}):
        report = ingest([d], workers=1, progress=False, policy=AS_PLAYED, batch_size=1, **kwargs)  # type: ignore[arg-type]
        assert (report.stored, report.skipped) == (1, 2)
    for con in (open_corpus(parquet=tmp_path / "pq"), open_corpus(db=tmp_path / "g.duckdb")):
        assert con.execute("SELECT count(*) FROM games").fetchone() == (1,)
        assert con.execute("SELECT count(DISTINCT action_index) = count(*) FROM actions").fetchone() == (True,)


@pytest.mark.parametrize("workers", [1, 2])
def test_duckdb_loads_in_groups_of_batches_give_the_same_rows(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """The parent loads finished batches into DuckDB a group at a time (one transaction, one statement per
    table): groups of 2 games, with a game met twice across groups and a failure, store what one group does.
    With 2 workers the groups load in 2 loader threads at once (each with its own transaction)."""
    d = tmp_path / "in"
    shutil.copytree(logs, d)
    shutil.copy(next(iter(sorted(logs.glob("random-*.json")))), d / "zz-again.json")  # a repeat, in a later batch
    one = ingest([d], tmp_path / "one.duckdb", workers=1, progress=False, policy=AS_PLAYED, batch_size=1)
    ingest_module = importlib.import_module("brass_stats.storage.ingest.orchestrate")
    monkeypatch.setattr(ingest_module.DuckDBCommitter, "group_games", 2)
    monkeypatch.setattr(ingest_module, "WORKERS_PER_LOADER", 1)
    loads: list[tuple[int, str, int]] = []  # games, loader thread, loaders
    load = ingest_module.DuckDBCommitter._load

    def counted(self: Any, waiting: list[Any], new: list[str]) -> None:
        loads.append((len(new), threading.current_thread().name, self.loaders))
        load(self, waiting, new)

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", counted)
    path = tmp_path / "groups.duckdb"
    groups = ingest([d], path, workers=workers, progress=False, policy=AS_PLAYED, batch_size=1)
    assert len([n for n, _, _ in loads if n]) >= 3  # several groups were loaded
    if workers == 2:  # in loader threads, two of them
        assert all(name.startswith("duckdb-load") and loaders == 2 for _, name, loaders in loads)
    else:  # in this thread
        assert {name for _, name, _ in loads} == {threading.current_thread().name}
    assert (one.stored, one.skipped, one.failed) == (groups.stored, groups.skipped, groups.failed) == (N_GAMES, 1, 1)
    assert_same_rows(open_corpus(db=tmp_path / "one.duckdb"), open_corpus(db=path))
    assert not staging_dir(path).exists()  # every staging file loaded, and the folder removed


def test_the_loads_run_beside_a_read_transaction_that_ends_with_the_import(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the groups load, the committer holds a read transaction open (DuckDB then commits each group
    with less work): its snapshot, taken before the first load, sees no game while group after group is
    committed. It ends with the import: the store given stays usable, holds every game, and a second
    import into it skips them all."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest")
    monkeypatch.setattr(ingest_module.DuckDBCommitter, "group_games", 2)
    load = ingest_module.DuckDBCommitter._load
    seen: list[tuple[int, int]] = []  # (games the held snapshot sees, games committed before this load)

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        held = self._reader.execute("SELECT count(*) FROM games").fetchone()[0]
        seen.append((held, self.store.con.cursor().execute("SELECT count(*) FROM games").fetchone()[0]))
        load(self, waiting, new)

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", recorded)
    store = Store(tmp_path / "g.duckdb")
    first = ingest([logs], store, workers=1, progress=False, policy=AS_PLAYED, batch_size=1)
    assert first.stored == N_GAMES and len(seen) >= 3
    assert all(held == 0 for held, _ in seen) and seen[-1][1] >= 4  # the snapshot stayed; the store grew
    assert store.count("games") == N_GAMES
    again = ingest([logs], store, workers=1, progress=False, policy=AS_PLAYED, batch_size=1)
    assert (again.stored, again.skipped) == (0, N_GAMES)
    store.close()


def test_a_failed_duckdb_load_stops_the_import_and_keeps_only_whole_groups(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load that fails in a loader thread (here: the disk fills up while the group holding a given game
    loads, whichever group that is) stops the import with its error; what is stored is whole groups, and a
    second run stores the rest."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest.orchestrate")
    monkeypatch.setattr(ingest_module.DuckDBCommitter, "group_games", 2)
    monkeypatch.setattr(ingest_module, "WORKERS_PER_LOADER", 1)
    load = ingest_module.DuckDBCommitter._load
    target = game_id(GameLog.load(sorted(logs.glob("random-*.json"))[1]))
    calls: list[list[str]] = []
    loaded: list[str] = []

    def failing(self: Any, waiting: list[Any], new: list[str]) -> None:
        calls.append(new)
        if target in new:
            raise OSError("No space left on device")
        load(self, waiting, new)
        loaded.extend(new)

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", failing)
    path = tmp_path / "g.duckdb"
    with pytest.raises(OSError, match="No space left"):
        ingest([logs], path, workers=2, progress=False, policy=AS_PLAYED, batch_size=1)
    con = open_corpus(db=path)
    stored = {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    failed = next(c for c in calls if target in c)
    assert stored == set(loaded) and stored.isdisjoint(failed)  # every group but the failed one
    whole = (
        "SELECT count(*) FROM games g WHERE n_actions <> (SELECT count(*) FROM actions a WHERE a.game_id = g.game_id)"
    )
    assert con.execute(whole).fetchone() == (0,)
    con.close()
    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", load)
    again = ingest([logs], path, workers=2, progress=False, policy=AS_PLAYED, batch_size=1)
    assert again.stored == N_GAMES - len(stored)
    con = open_corpus(db=path)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)


@pytest.mark.parametrize("files", [1000, 5000, 7])
def test_the_last_batches_are_smaller_so_that_workers_finish_together(files: int) -> None:
    """Batches of 32 while the listing goes on; once it has ended, what is left is cut into about a 32nd
    (the tasks in flight), never under MIN_BATCH: the last tasks take a few games each. Every file is
    handed out once, in order."""
    names = [f"g{i:05d}.json" for i in range(files)]
    batches = list(file_batches(iter(names), 32, 32))
    assert [f for b in batches for f in b] == names
    sizes = [len(b) for b in batches]
    assert max(sizes) <= 32 and sizes == sorted(sizes, reverse=True)
    assert all(n >= MIN_BATCH for n in sizes[:-1])
    if files > 32 * 32:  # the listing was still going on: full batches first
        assert sizes[: (files - 32 * 32) // 32] == [32] * ((files - 32 * 32) // 32)
    if files >= 1000:
        assert sizes[-2] == MIN_BATCH and len(sizes) > files // 32
    # one task at a time (one process): full batches to the end
    sizes_inline = [len(b) for b in file_batches(iter(names), 32, 1)]
    assert sizes_inline == [32] * (files // 32) + ([files % 32] if files % 32 else [])


def test_worker_processes_start_warm() -> None:
    """The parent replays a sample game before it forks its workers, so that what the first game of a
    process builds (the log schema's validators, about 70 ms) is built once, not once per worker."""
    code = (
        "from brass_stats.log import schema\n"
        "from brass_stats.storage.ingest import ProcessRunner\n"
        "assert schema._validators.cache_info().currsize == 0\n"
        "runner = ProcessRunner(2, frozenset())\n"
        "print(schema._validators.cache_info().currsize)\n"
        "runner.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout.split()[-1]) >= 1


def _counted_loads(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The new game ids of every group the DuckDB committer loads from now on, in the order loaded."""
    loads: list[list[str]] = []
    load = DuckDBCommitter._load

    def counted(self: Any, waiting: list[Any], new: list[str]) -> None:
        loads.append(new)
        load(self, waiting, new)

    monkeypatch.setattr(DuckDBCommitter, "_load", counted)
    return loads


def test_free_loaders_share_what_waits_at_the_end_of_a_run(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches wait for a group while the workers run; once the run drains (the listing has ended) a free
    loader takes what waits as soon as ``drain_games`` have gathered, and the final flush shares what is
    left among the free loaders, each group in a transaction of its own, then checkpoints. Every game is
    stored once, whole."""
    files = sorted(str(p) for p in logs.glob("*.json"))
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=3, background=True)
    committer.group_games = 10**6  # never by size: only by draining, or the flush
    loads = _counted_loads(monkeypatch)
    # a batch per file: 6 games, and the broken file (a failure) last
    results = [run_batch([f], frozenset(), str(committer.dest), f"b{i}", False, AS_PLAYED) for i, f in enumerate(files)]
    assert [len(r.game_ids) for r in results] == [1] * N_GAMES + [0] and N_GAMES == 6
    committer.commit(results[:3])
    assert loads == [] and committer.waiting_games == 3  # a group gathers
    committer.draining = True
    committer.drain_games = 5
    committer.commit(results[3:4])  # 4 games wait: fewer than drain_games
    assert loads == [] and committer.waiting_games == 4
    committer.drain_games = 4
    committer.commit([])  # a loader is free and drain_games wait: everything waiting loads now
    committer._reap(wait_all=True)
    assert [len(x) for x in loads] == [4] and committer.waiting_games == 0
    committer.draining = False
    committer.commit(results[4:])
    committer.commit(results[:1])  # a batch met again: nothing new
    assert committer.waiting_games == 2 and len(loads) == 1
    committer.flush()  # 2 new games and the failure wait, 3 loaders are free: a group each
    assert sorted(len(x) for x in loads) == [0, 1, 1, 4]
    committer.close()
    con = store.con
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)
    whole = (
        "SELECT count(*) FROM games g WHERE n_actions <> (SELECT count(*) FROM actions a WHERE a.game_id = g.game_id)"
    )
    assert con.execute(whole).fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM failures").fetchone() == (1,)
    store.close()


@pytest.mark.parametrize("background", [True, False])
def test_results_that_come_together_never_make_a_group_bigger_than_group_games(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, background: bool
) -> None:
    """Many results at once (16 workers finish batches while every loader is busy) are loaded in groups of
    at most ``group_games`` (the memory bound per loader is sized for such a group), the oldest first."""
    files = sorted(str(p) for p in logs.glob("*.json"))
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2, background=background)
    committer.group_games = 2
    loads = _counted_loads(monkeypatch)
    results = [run_batch([f], frozenset(), str(committer.dest), f"b{i}", False, AS_PLAYED) for i, f in enumerate(files)]
    committer.commit(results[:5])  # 5 games at once: two groups of 2 now, 1 game waits
    committer._reap(wait_all=True)
    assert [len(x) for x in loads] == [2, 2] and committer.waiting_games == 1
    assert loads == [[g for r in results[i : i + 2] for g in r.game_ids] for i in (0, 2)]  # the oldest first
    committer.commit(results[5:])  # the last game and the failure: a group of 2 (the failure adds no game)
    committer.flush()
    assert [len(x) for x in loads] == [2, 2, 2]
    committer.close()
    assert store.con.execute("SELECT count(DISTINCT game_id), count(*) FROM games").fetchone() == (N_GAMES, N_GAMES)
    assert store.con.execute("SELECT count(*) FROM failures").fetchone() == (1,)
    store.close()


@pytest.mark.parametrize("given", [None, "80MB"])
def test_an_import_bounds_duckdbs_memory_and_puts_the_setting_back(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None
) -> None:
    """DuckDB's default memory limit (80% of the machine) let the blocks an import wrote stay cached, so the
    importing process grew with the corpus; the loads now run under a bound (a base and room per loader),
    never above a limit the store was given, and the store's setting is put back after the import."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest")
    store = Store(tmp_path / "g.duckdb")
    if given:
        store.con.execute(f"SET memory_limit = '{given}'")
    before = store.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    seen: list[str] = []
    load = ingest_module.DuckDBCommitter._load

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        seen.append(self.store.con.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0])
        load(self, waiting, new)

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", recorded)
    report = ingest([logs], store, workers=2, progress=False, policy=AS_PLAYED, batch_size=2)
    assert report.stored == N_GAMES and seen
    bound = f"{ingest_module.MEMORY_BASE_MB + ingest_module.MEMORY_PER_LOADER_MB}.0 MiB"  # 2 workers: 1 loader
    assert set(seen) == ({before} if given else {bound}) and before != bound
    assert store.con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == before
    store.close()


def test_a_load_that_runs_out_of_memory_under_the_bound_is_tried_again_with_more(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound is the import's own choice: a group that does not fit is rolled back and loaded again under
    a doubled bound (never above the setting before the import), rather than failing the import."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest.duckdb_committer")
    monkeypatch.setattr(ingest_module, "MEMORY_BASE_MB", 1)
    monkeypatch.setattr(ingest_module, "MEMORY_PER_LOADER_MB", 0)
    store = Store(tmp_path / "g.duckdb")
    before = store.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    tries: list[tuple[str, str | None]] = []
    load = ingest_module.DuckDBCommitter._load

    def recorded(self: Any, waiting: list[Any], new: list[str]) -> None:
        limit = self.store.con.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0]
        try:
            load(self, waiting, new)
        except Exception as e:
            tries.append((limit, type(e).__name__))
            raise
        tries.append((limit, None))

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", recorded)
    report = ingest([logs], store, workers=1, progress=False, policy=AS_PLAYED)
    assert report.stored == N_GAMES
    # every game in one group: tried under 1, 2, 4 ... MiB until it fits
    assert len(tries) >= 2 and all(error is not None for _, error in tries[:-1]) and tries[-1][1] is None
    assert [limit for limit, _ in tries] == [f"{2**i:.1f} MiB" for i in range(len(tries))]
    con = store.con
    assert con.execute("SELECT count(DISTINCT game_id) FROM actions").fetchone() == (N_GAMES,)
    assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == before
    store.close()


def test_a_load_that_never_fits_stops_after_a_few_doublings(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of memory for a reason the bound does not explain: the bound is doubled at most 8 times, then
    the import stops with DuckDB's error as a store error (never an endless retry)."""
    import duckdb

    from brass_stats.storage.duckdb_store import StoreWriteError

    ingest_module = importlib.import_module("brass_stats.storage.ingest")
    tries: list[int] = []

    def never(self: Any, waiting: list[Any], new: list[str]) -> None:
        tries.append(1)
        raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block of size 1 TiB")

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", never)
    store = Store(tmp_path / "g.duckdb")
    store.con.execute("SET memory_limit = '1TB'")  # (the doublings stop by count, not at the store's limit)
    with pytest.raises(StoreWriteError, match="could not allocate block"):
        ingest([logs], store, workers=1, progress=False, policy=AS_PLAYED)
    assert len(tries) == 1 + 8
    store.close()


def test_the_end_of_an_import_leaves_no_log_for_the_close_to_write(logs: Path, tmp_path: Path) -> None:
    """The final flush checkpoints while the import's read transaction is open: a checkpoint left to the
    close (after that transaction has ended) rewrote the tables, the longest part of the run's tail."""
    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set(), loaders=2, background=True)
    files = sorted(str(p) for p in logs.glob("*.json"))
    results = [run_batch([f], frozenset(), str(committer.dest), f"b{i}", False, AS_PLAYED) for i, f in enumerate(files)]
    committer.commit(results)
    wal = Path(str(store.path) + ".wal")
    checkpoint = DuckDBCommitter._checkpoint
    committer._checkpoint = lambda: None  # type: ignore[method-assign]
    committer._start_load()
    committer._reap(wait_all=True)
    assert wal.exists() and wal.stat().st_size > 0  # what the loads wrote is in DuckDB's log
    committer._checkpoint = lambda: checkpoint(committer)  # type: ignore[method-assign]
    committer.flush()
    assert not wal.exists() or wal.stat().st_size == 0
    committer.close()
    assert store.con.execute("SELECT count(*) FROM games").fetchone() == (N_GAMES,)
    store.close()


def test_a_store_that_cannot_take_the_games_is_a_clear_error_not_a_bug(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB failing to write (a full disk) ends `ingest` with one line naming the file, DuckDB's reason and
    what is kept, exit status 2, not the 'internal error ... a bug' of status 3; a second run imports the rest."""
    import duckdb

    ingest_module = importlib.import_module("brass_stats.storage.ingest")
    load = ingest_module.DuckDBCommitter._load

    def full(self: Any, waiting: list[Any], new: list[str]) -> None:
        raise duckdb.IOException('Could not write file "g.duckdb.wal": No space left on device')

    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", full)
    db = tmp_path / "g.duckdb"
    args = ["ingest", str(logs), "--db", str(db), "--workers", "2", "--as-played"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2, out.output
    line = out.output.strip()
    assert line.startswith(f"error: {db}: the games could not be stored") and "No space left on device" in line
    assert "run the same command again" in line and "\n" not in line and "internal error" not in line
    monkeypatch.setattr(ingest_module.DuckDBCommitter, "_load", load)
    out = CliRunner().invoke(main, args)
    store = Store(db, read_only=True)
    assert out.exit_code == 1 and store.count("games") == N_GAMES  # (1: the broken file)
    store.close()


@pytest.mark.parametrize("store", ["--db", "--parquet"])
def test_a_batch_that_cannot_be_written_names_the_folder(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    """Arrow's write errors name no file: a worker that cannot write its batch (a full disk) ends the
    import with one line naming the folder it writes to, exit status 2."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest.worker")

    def full(*args: Any, **kwargs: Any) -> list[str]:
        raise OSError(28, "Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(ingest_module, "write_batch_files", full)
    target = tmp_path / ("g.duckdb" if store == "--db" else "pq")
    out = CliRunner().invoke(main, ["ingest", str(logs), store, str(target), "--workers", "1", "--as-played"])
    assert out.exit_code == 2, out.output
    line = out.output.strip()
    assert line.startswith(f"error: {tmp_path}") and "could not be written" in line and "No space left" in line
    assert "\n" not in line and "run the same command again" in line


def test_a_dataset_commit_that_cannot_be_written_names_its_file(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit record that cannot be written (a full disk: the write names no file) ends the import with
    one line naming the record, exit status 2, and leaves no temporary file behind."""
    real = os.fsync

    def full(fd: int) -> None:
        if "_commits" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", full)
    pq = tmp_path / "pq"
    out = CliRunner().invoke(main, ["ingest", str(logs), "--parquet", str(pq), "--workers", "1", "--as-played"])
    assert out.exit_code == 2, out.output
    line = out.output.strip()
    assert line.startswith(f"error: {pq / '_commits'}") and line.endswith("No space left on device"), line
    assert not [p for p in (pq / "_commits").iterdir() if p.name.endswith(".tmp")]


def test_a_rollback_after_a_failed_commit_keeps_the_first_error(logs: Path, tmp_path: Path) -> None:
    """A COMMIT that fails (out of memory, disk full) has rolled back already: the ROLLBACK that follows
    must not replace its error with 'no transaction is active'; the group is absent, its files kept."""
    import duckdb

    store = Store(tmp_path / "g.duckdb")
    committer = DuckDBCommitter(store, set())
    files = sorted(str(p) for p in logs.glob("*.json"))
    result = run_batch(files[:1], frozenset(), str(committer.dest), "b0", False, AS_PLAYED)
    real = store.con

    class FailingCommit:  # what DuckDB does when a commit fails: the transaction is gone, then the error
        def __init__(self, cur: Any) -> None:
            self.cur = cur

        def execute(self, sql: str, *args: Any) -> Any:
            if sql == "COMMIT":
                self.cur.execute("ROLLBACK")
                raise duckdb.TransactionException("Failed to commit: could not write the log (simulated)")
            return self.cur.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.cur, name)

    class Connection:
        def cursor(self) -> FailingCommit:
            return FailingCommit(real.cursor())

    store.con = Connection()  # type: ignore[assignment]
    with pytest.raises(duckdb.TransactionException, match="simulated"):
        committer._load([(result, None)], list(result.game_ids))
    store.con = real
    assert all((committer.dest / rel).exists() for rel in result.files)
    assert store.con.execute("SELECT count(*) FROM games").fetchone() == (0,)
    committer.close()
    store.close()


def test_one_bad_file_never_stops_an_import(logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest_module = importlib.import_module("brass_stats.storage.ingest.worker")  # where the name is used
    real = ingest_module.game_parts

    def buggy(replay: object, source_file: str | None, gid: str | None = None) -> dict:
        if source_file and "random-3p" in source_file:
            raise RuntimeError("a bug in building the tables")
        return real(replay, source_file, gid)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest_module, "game_parts", buggy)
    for kwargs in ({"parquet_dir": tmp_path / "pq"}, {"db": tmp_path / "g.duckdb"}):
        # one batch holds every file: the good games of the batch are still stored
        report = ingest([logs], workers=1, progress=False, policy=AS_PLAYED, batch_size=100, **kwargs)  # type: ignore[arg-type]
        assert (report.stored, report.failed) == (N_GAMES - 1, 2)
        assert dict(report.by_rule()) == {"internal": 1, "log.format": 1}
    for con in (open_corpus(parquet=tmp_path / "pq"), open_corpus(db=tmp_path / "g.duckdb")):
        kinds = con.execute("SELECT error_kind, rule, message FROM failures ORDER BY error_kind").fetchall()
        assert [k[:2] for k in kinds] == [("format", "log.format"), ("internal", "internal")]
        assert "a bug in building the tables" in kinds[1][2]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (N_GAMES - 1,)


def test_a_game_arrow_cannot_take_fails_alone_in_its_batch(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's games are converted to Arrow together; a game with a value its column cannot hold (here a
    money amount past 32 bits) is then found game by game and recorded as a failure of its own (kind
    ``tables``), and every other game of the batch is stored."""
    ingest_module = importlib.import_module("brass_stats.storage.ingest.worker")
    real = ingest_module.game_parts

    def overflowing(replay: Any, source_file: str | None, gid: str | None = None) -> dict:
        parts = real(replay, source_file, gid)
        if source_file and "random-3p" in source_file:
            kind, columns = parts["turn_snapshots"]
            parts["turn_snapshots"] = (kind, {**columns, "money": [2**40] * len(columns["money"])})
        return parts

    monkeypatch.setattr(ingest_module, "game_parts", overflowing)
    report = ingest([logs], tmp_path / "g.duckdb", workers=1, progress=False, policy=AS_PLAYED, batch_size=100)
    assert (report.stored, report.failed) == (N_GAMES - 1, 2)
    assert dict(report.by_rule()) == {"storage.tables": 1, "log.format": 1}
    con = open_corpus(db=tmp_path / "g.duckdb")
    (file, kind) = con.execute("SELECT file, error_kind FROM failures WHERE rule = 'storage.tables'").fetchone()
    assert "random-3p" in file and kind == "tables"
    assert con.execute("SELECT count(*) FROM games WHERE source_file LIKE '%random-3p%'").fetchone() == (0,)
    assert con.execute("SELECT count(DISTINCT game_id) FROM turn_snapshots").fetchone() == (N_GAMES - 1,)


class _Dead:
    """A task whose worker process died."""


class _DyingRunner(InlineRunner):
    """Runs in this process, but the batch holding ``killer`` loses its worker (as if the file crashed it)."""

    def __init__(self, killer: str) -> None:
        super().__init__(frozenset(), AS_PLAYED)  # the golden gm7vza-4p as played (D1)
        self.killer = killer
        self.alone_calls: list[str] = []

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> object:
        if any(self.killer in p for p in paths):
            return _Dead()
        return super().submit(paths, dest, batch, partitioned)

    def result(self, fut: object) -> BatchResult:
        if isinstance(fut, _Dead):
            raise WorkerLost("worker died")
        return super().result(fut)  # type: ignore[arg-type]

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        self.alone_calls.append(path)
        if self.killer in path:
            from brass_stats.storage.ingest import worker_died

            return worker_died(path, dest, "died")
        return super().alone(path, dest, partitioned)


def test_a_file_that_kills_its_worker_costs_only_that_file(logs: Path, tmp_path: Path) -> None:
    from brass_stats.storage.dataset import DatasetWriter
    from brass_stats.storage.ingest import iter_game_files

    runner = _DyingRunner("random-4p")
    report = IngestReport()
    with DatasetWriter(tmp_path / "pq") as w:
        run_import(iter_game_files([logs]), runner, DatasetCommitter(w, set()), report, 4, 1, lambda n: None)
    files = sorted(str(p) for p in logs.glob("*.json"))
    assert runner.alone_calls == files[4:]  # the dead batch's files, each in a process of its own
    assert (report.stored, report.failed, report.files) == (N_GAMES - 1, 2, N_GAMES + 1)
    con = open_corpus(parquet=tmp_path / "pq")
    died = con.execute("SELECT file, rule FROM failures WHERE error_kind = 'internal'").fetchall()
    assert len(died) == 1 and "random-4p" in died[0][0]


def test_leftovers_of_a_killed_run_are_invisible_and_removed(logs: Path, tmp_path: Path) -> None:
    pq = tmp_path / "pq"
    ingest([sorted(logs.glob("random-*.json"))[0]], parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    # a worker finished a batch but the run was killed before committing it; another was killed mid-write
    files = sorted(str(p) for p in logs.glob("*.json"))
    run_batch(files[:3], frozenset(), str(pq), "killed", True)
    (pq / "actions" / ".part-half.parquet.tmp").write_bytes(b"PAR1")
    assert open_corpus(parquet=pq).execute("SELECT count(*) FROM games").fetchone() == (1,)
    again = ingest([logs], parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert again.stored == N_GAMES - 1
    con = open_corpus(parquet=pq)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)
    live = {str(f) for fs in dataset_files(pq).values() for f in fs}
    assert not [p for p in pq.rglob("*.parquet") if str(p) not in live]
    assert not [p for p in pq.rglob(".*")]
    # the DuckDB import: staged batches of a killed run are removed, never loaded twice
    db = tmp_path / "g.duckdb"
    ingest([files[0]], db, workers=1, progress=False, policy=AS_PLAYED)
    run_batch(files[:3], frozenset(), str(staging_dir(db)), "killed", False)
    again = ingest([logs], db, workers=1, progress=False, policy=AS_PLAYED)
    assert again.stored == N_GAMES - 1
    assert not staging_dir(db).exists()
    with Store(db) as s:
        assert s.con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)


@pytest.mark.parametrize("store", ["parquet", "db"])
def test_a_run_killed_part_way_and_run_again_stores_every_game_once(logs: Path, tmp_path: Path, store: str) -> None:
    target = tmp_path / ("pq" if store == "parquet" else "g.duckdb")
    args = [sys.executable, "-m", "brass_stats.cli", "ingest", str(logs), f"--{store}", str(target), "--as-played"]
    args += ["--workers", "1", "--batch-size", "1"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    p = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # kill it (SIGKILL: no clean-up) once it has committed something
    committed = (lambda: len(read_commits(target)) >= 2) if store == "parquet" else (lambda: target.exists())
    deadline = time.monotonic() + 120
    while p.poll() is None and not committed() and time.monotonic() < deadline:
        time.sleep(0.05)
    if store == "db":
        time.sleep(0.5)
    if p.poll() is None:
        p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    again = ingest(
        [logs], **{"parquet_dir" if store == "parquet" else "db": target}, workers=1, progress=False, policy=AS_PLAYED
    )
    con = open_corpus(**{store: target})  # type: ignore[arg-type]
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (N_GAMES, N_GAMES)
    for name in SCHEMAS:
        orphans = con.execute(f'SELECT count(*) FROM "{name}" WHERE game_id NOT IN (SELECT game_id FROM games)')
        assert orphans.fetchone() == (0,), name
    whole = (
        "SELECT count(*) FROM games g WHERE n_actions = (SELECT count(*) FROM actions a WHERE a.game_id = g.game_id)"
    )
    assert con.execute(whole).fetchone() == (N_GAMES,)
    assert again.stored + again.skipped == N_GAMES


def test_ingest_needs_a_store_and_rejects_bad_cluster_specs(logs: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["ingest", str(logs)])
    assert res.exit_code == 2 and "--db FILE" in res.output
    res = runner.invoke(main, ["ingest", str(logs), "--parquet", str(tmp_path / "x"), "--cluster", "local:zero"])
    assert res.exit_code == 2 and "local:N" in res.output
