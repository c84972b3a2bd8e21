"""Scale-out benchmark: a script, not a test.

Rows:

* ``ingest``: throughput, games/s and actions/s per worker, into a fresh store: local ingest into DuckDB
  and into a Parquet dataset, and a Dask LocalCluster (started before the clock, as a real cluster would
  be running already), with each of ``--workers`` (default 1,2); scaling efficiency of W workers =
  rate(W) / (W x rate(1)). Wall-clock: meaningful only on a machine with a core per worker and
  nothing else running;
* ``costs``: the per-game CPU costs from one-process runs, which a loaded machine inflates little:
  the worker's task (replay, tables, its Parquet files), the parent's commit (DuckDB bulk load, or
  the Parquet commit record) and the end-of-run merge of a dataset's batches; and the scaling
  efficiency they predict for 2-32 workers (see :func:`efficiency`);
* ``workers``: the import's workers alone, with each of ``--workers``: every 32-game batch handed at once to
  the import's own local workers (forked as ``ingest`` forks them, ``workers=1`` in this process), each
  writing its staging files, and nothing committed: the ceiling that any store leaves below it, and the
  efficiency the machine itself allows the workers' part (80-86% at 16 workers on
  the benchmark machine);
* ``loaders``: staged batches loaded into a fresh DuckDB file by ``--loaders`` loader threads at once (what
  the ``ingest`` process does while its workers replay): the speed-up over one thread, which the ``costs``
  model then uses for the DuckDB file (no gain assumed beyond the most threads measured);
* ``rss``: client peak memory (peak RSS of the process running ``ingest``, measured in a child process)
  for ``--rss-games`` games (default 1,000 and 10,000) on a 2-worker LocalCluster: flat when the file
  list is streamed, the client never gathers the games' tables and the merge runs on a worker;
* ``queries``: latency over a ``--big``-game Parquet dataset (default 100,000), built by replicating an
  ingested corpus under new game ids: ``stats --by seat|strategy|opening``, ``income``, ``vp`` and
  ``report`` of one game, ``games`` (the whole list), a corpus-wide mean income curve (one SQL query)
  and the ``curves`` command (median of ``--repeat`` runs, in this process, from opening the dataset to
  the finished output; wall and CPU seconds, CPU counting DuckDB's threads).

The games are the sample games shipped in the package, replicated under other player names (distinct
game ids, the same replay work), imported as played (the real gm7vza-4p breaks D1). Every number is a
median of ``--repeat`` runs. On a shared machine the wall-clock numbers are noisy: compare rows of one
run, not runs of different days. Examples::

    python benchmarks/bench_scale.py --games 400 --rss-games 1000,10000 --big 100000 --repeat 3
    python benchmarks/bench_scale.py --only ingest,loaders,costs --games 2000 --workers 1,2,4,8,16 \\
        --loaders 1,2,4,8 --repeat 3
    python benchmarks/bench_scale.py --only workers --games 4000 --workers 1,8,16 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brass_stats.engine.policy import AS_PLAYED  # noqa: E402
from brass_stats.log.format import GameLog  # noqa: E402
from brass_stats.storage import ingest  # noqa: E402

SAMPLES = ROOT / "brass_stats" / "replays_data"


def make_corpus(folder: Path, n: int) -> int:
    """``n`` game files in ``folder``: the sample games, then copies under other player names. Returns actions."""
    base = [GameLog.load(p) for p in sorted(SAMPLES.rglob("*.json"))]
    folder.mkdir(parents=True, exist_ok=True)
    actions = 0
    for i in range(n):
        log = base[i % len(base)]
        copy = i // len(base)
        if copy:
            log = replace(log, players=tuple(f"{name}#{copy}" for name in log.players))
        log.save(folder / f"g{i:06d}.json")
        actions += len(log.actions)
    return actions


PARENT: dict[str, float] = {}
COSTS: dict[str, dict[str, float]] = {}  # per store: CPU ms per game of the worker's task, the commit, the merge


_INGEST_CHILD = """
import json, sys, time
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest
args = json.loads(sys.argv[1])
corpus = args.pop("corpus")
start = time.perf_counter()
r = ingest([corpus], progress=False, policy=AS_PLAYED, **args)
fields = ("stored", "failed", "stored_actions", "task_seconds", "task_cpu_seconds", "commit_seconds",
          "commit_cpu_seconds", "compact_seconds", "compact_cpu_seconds")
print(json.dumps({"seconds": time.perf_counter() - start, **{f: getattr(r, f) for f in fields}}))
"""


def timed_ingest(corpus: Path, repeat: int, store: str = "parquet", **kwargs: Any) -> tuple[float, int, int]:
    """Median wall seconds of ``ingest`` into a fresh store (``"db"`` or ``"parquet"``), games and actions stored.

    Each run is a fresh process, as the command is (local worker processes forked from this long-lived
    one ran much slower, for a reason not yet found). Also leaves in :data:`PARENT` the medians of the
    parent's commit time and the workers' task time per game: the serial and the parallel part of a run.
    """
    times, stored, actions = [], 0, 0
    commit, task = [], []
    cpu: dict[str, list[float]] = {"task": [], "commit": [], "compact": [], "compact_wall": []}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(dir=corpus.parent) as d:
            target = {"db": str(Path(d) / "b.duckdb")} if store == "db" else {"parquet_dir": str(Path(d) / "pq")}
            args = json.dumps({"corpus": str(corpus), **target, **kwargs})
            res = subprocess.run(
                [sys.executable, "-c", _INGEST_CHILD, args], capture_output=True, text=True, env=env, check=True
            )
            r = json.loads(res.stdout.strip().splitlines()[-1])
            assert r["failed"] == 0, res.stderr[-2000:]
            times.append(r["seconds"])
            stored, actions = r["stored"], r["stored_actions"]
            commit.append(r["commit_seconds"] / stored)
            task.append(r["task_seconds"] / stored)
            cpu["task"].append(r["task_cpu_seconds"] / stored * 1000)
            cpu["commit"].append(r["commit_cpu_seconds"] / stored * 1000)
            cpu["compact"].append(r["compact_cpu_seconds"] / stored * 1000)
            cpu["compact_wall"].append(r["compact_seconds"] / stored * 1000)
    PARENT.update(commit=statistics.median(commit), task=statistics.median(task))
    PARENT.update({f"{k}_cpu_ms": statistics.median(v) for k, v in cpu.items()})
    return statistics.median(times), stored, actions


def efficiency(
    task: float, commit: float, merge: float, workers: int, largest_part: float = 0.0, loaders: float = 1.0
) -> float:
    """Scaling efficiency of ``workers`` workers on as many cores against one, from per-game costs (one unit).

    Each worker replays and writes its games (``task`` per game, in parallel); the parent commits the
    finished batches (``commit`` per game, on the same cores, worth ``loaders`` loads at once: it keeps up
    while ``commit / loaders <= (task + commit) / workers``); a dataset's batches are then merged on the
    workers (``merge`` per game in all; its tail is ``max(largest_part, merge / workers)``, a table
    partition per task). Time per game on W cores: ``max((task + commit) / W, commit / loaders) +
    max(largest_part, merge / W)``; on one: ``task + commit + merge``.

    An upper bound, not a forecast: it leaves out the run's tails (the last batches, the last load, the
    store's closing checkpoint), each process's warm-up and the slower cores of a fully loaded machine.
    On the 16-core benchmark machine it gave 96% for a DuckDB file where 46-61% was measured.
    """
    one = task + commit + merge
    many = max((task + commit) / workers, commit / loaders) + max(largest_part, merge / workers)
    return one / (workers * many)


def duckdb_loaders(workers: int) -> int:
    """The loader threads an ingest into a DuckDB file runs with ``workers`` workers (see ``DuckDBCommitter``)."""
    from brass_stats.storage.ingest import LOADERS_MAX, WORKERS_PER_LOADER

    return min(LOADERS_MAX, -(-workers // WORKERS_PER_LOADER))


LOADER_SPEED_UP: dict[int, float] = {}  # loader threads -> measured speed-up over one (the loaders row)


def effective_loaders(workers: int) -> float:
    """How many loads at once the DuckDB loader threads of a ``workers``-worker import are worth: the
    speed-up the loaders row measured for that many threads; for more threads than it measured, the best
    it measured (no gain assumed beyond); all of them when the row did not run."""
    n = duckdb_loaders(workers)
    if not LOADER_SPEED_UP:
        return float(n)
    if n in LOADER_SPEED_UP:
        return LOADER_SPEED_UP[n]
    return max([v for k, v in LOADER_SPEED_UP.items() if k <= n] or [1.0])


def largest_merge_part(corpus: Path) -> float:
    """CPU ms per game of merging a run's largest table partition: the merge's tail on many workers (a run of
    20,000 games or more is merged a partition per task)."""
    import importlib

    from brass_stats.storage.dataset import read_commits

    ingest_module = importlib.import_module("brass_stats.storage.ingest.merge")
    with tempfile.TemporaryDirectory(dir=corpus.parent) as d:
        root = Path(d) / "pq"
        ingest([corpus], parquet_dir=root, workers=1, progress=False, policy=AS_PLAYED, compact=False)
        commits = read_commits(root)
        games = sum(c.games for c in commits)
        split = ingest_module.MERGE_SPLIT_GAMES
        ingest_module.MERGE_SPLIT_GAMES = (0, 0)  # as a run of 20,000 games or more is merged: by partition
        try:
            parts = ingest_module.merge_parts(commits)
        finally:
            ingest_module.MERGE_SPLIT_GAMES = split
        times = []
        for part in parts:
            start = time.process_time()
            ingest_module.merge_files(str(root), [c.batch for c in commits], part)
            times.append(time.process_time() - start)
    return max(times) / games * 1000


def bench_costs(corpus: Path, repeat: int) -> list[dict[str, Any]]:
    """The per-game costs in CPU time, from one-process runs (no worker competes with the parent), and the model."""
    rows = []
    for store in ("db", "parquet"):
        timed_ingest(corpus, repeat, store, workers=1)
        c = {k: PARENT[f"{k}_cpu_ms"] for k in ("task", "commit", "compact", "compact_wall")}
        part = statistics.median(largest_merge_part(corpus) for _ in range(repeat)) if store == "parquet" else 0.0
        loaders = effective_loaders if store == "db" else (lambda w: 1.0)  # a dataset's commit records: one at a time
        COSTS[store] = {**c, "largest_part": part}
        rows.append(
            {
                "what": f"per-game CPU ms, ingest -> {'DuckDB' if store == 'db' else 'Parquet'}",
                "worker_task_ms": round(c["task"], 2),
                "parent_commit_ms": round(c["commit"], 3),
                "merge_ms": round(c["compact"], 3),
                "merge_largest_part_ms": round(part, 3),
                **{
                    f"model_efficiency_{w}": round(
                        efficiency(c["task"], c["commit"], c["compact"], w, part, loaders(w)), 3
                    )
                    for w in (2, 4, 8, 16, 32)
                },
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def bench_ingest(corpus: Path, repeat: int, counts: list[int]) -> list[dict[str, Any]]:
    """Wall-clock throughput with each number of workers; efficiency of W workers = rate(W) / (W x rate(1))."""
    from distributed import LocalCluster

    rows: list[dict[str, Any]] = []

    def row(what: str, workers: int, seconds: float, games: int, actions: int) -> None:
        c = {k: PARENT[f"{k}_cpu_ms"] for k in ("task", "commit", "compact")}
        rows.append(
            {
                "what": what,
                "workers": workers,
                "seconds": round(seconds, 2),
                "games_per_s_per_worker": round(games / seconds / workers, 1),
                "actions_per_s_per_worker": round(actions / seconds / workers),
                "worker_task_cpu_ms_per_game": round(c["task"], 2),
                "parent_commit_cpu_ms_per_game": round(c["commit"], 3),
                "merge_cpu_ms_per_game": round(c["compact"], 3),
            }
        )
        print(json.dumps(rows[-1]), flush=True)

    for workers in counts:
        s, g, a = timed_ingest(corpus, repeat, "db", workers=workers)
        row("local ingest -> DuckDB", workers, s, g, a)
        s, g, a = timed_ingest(corpus, repeat, workers=workers)
        row("local ingest -> Parquet", workers, s, g, a)
    for workers in counts:
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None, silence_logs=40) as lc:
            s, g, a = timed_ingest(corpus, repeat, cluster=lc.scheduler_address)
        row("Dask LocalCluster -> Parquet", workers, s, g, a)
    for what in ("local ingest -> DuckDB", "local ingest -> Parquet", "Dask LocalCluster -> Parquet"):
        mine = {r["workers"]: r for r in rows if r.get("what") == what and "workers" in r}
        one = mine[min(mine)]
        for w, r in sorted(mine.items()):
            if w == min(mine):
                continue
            eff = r["games_per_s_per_worker"] / one["games_per_s_per_worker"]
            rows.append({"what": what, f"scaling_efficiency_{w}_vs_{min(mine)}": round(eff, 3)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


_RSS_CHILD = """
import json, resource, sys, time
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest
start = time.perf_counter()
r = ingest([sys.argv[1]], parquet_dir=sys.argv[2], cluster=sys.argv[3], progress=False, policy=AS_PLAYED)
print(json.dumps({"stored": r.stored, "failed": r.failed, "seconds": time.perf_counter() - start,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def bench_rss(work: Path, sizes: list[int]) -> list[dict[str, Any]]:
    from distributed import LocalCluster

    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=40) as lc:
        for n in sizes:
            corpus = work / f"rss-{n}"
            make_corpus(corpus, n)
            out = work / f"rss-{n}-pq"
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
            res = subprocess.run(
                [sys.executable, "-c", _RSS_CHILD, str(corpus), str(out), lc.scheduler_address],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            data = json.loads(res.stdout.strip().splitlines()[-1])
            rows.append({"what": "client peak RSS, 2-worker LocalCluster -> Parquet", "games": n, **data})
            print(json.dumps(rows[-1]), flush=True)
            shutil.rmtree(corpus)
            if n != max(sizes):
                shutil.rmtree(out)
    return rows


def build_big(base: Path, big: Path, games: int) -> int:
    """Replicate the dataset ``base`` under new game ids until it holds ``games`` games (one new version)."""
    import duckdb

    from brass_stats.storage.corpus import open_corpus
    from brass_stats.storage.dataset import PARTITION_COLUMNS, DatasetWriter, new_batch_id
    from brass_stats.storage.tables import SCHEMAS

    con = open_corpus(parquet=base)
    n = con.execute("SELECT count(*) FROM games").fetchone()[0]
    copies = -(-games // n)
    batch = new_batch_id()
    files: list[str] = []
    with DatasetWriter(big) as w:
        root = w.root.resolve()
        for name in SCHEMAS:
            cols = [r[0] for r in con.execute(f"DESCRIBE {name}").fetchall()]
            parts = "" if all(c in cols for c in PARTITION_COLUMNS) else ", g.edition, g.player_count"
            join = "" if not parts else " JOIN games g USING (game_id)"
            # copy k of a game: its id with the first 4 hex digits replaced by k (ids stay 16 hex, unique,
            # and grouped by copy, so row groups hold narrow id ranges)
            select = (
                f"SELECT t.* REPLACE (lpad(printf('%x', k.range), 4, '0') || substr(t.game_id, 5) AS game_id){parts} "
                f"FROM range({copies}) k, {name} t{join}"
            )
            (root / name).mkdir(parents=True, exist_ok=True)
            rows = con.execute(
                f"COPY ({select}) TO '{root / name}' (FORMAT PARQUET, COMPRESSION zstd, "
                f"PARTITION_BY ({', '.join(PARTITION_COLUMNS)}), FILENAME_PATTERN 'part-{batch}-{{i}}', "
                "OVERWRITE_OR_IGNORE, RETURN_FILES true)"
            ).fetchall()
            files += [Path(f).resolve().relative_to(root).as_posix() for f in rows[0][1]]
        w.commit(batch, files, games=n * copies, base=True)
    del duckdb
    return n * copies


# each player's income level as each round ended (the round's last snapshot), averaged per round
MEAN_INCOME_CURVE = """
SELECT round, avg(income_level) AS mean_income_level, count(*) AS player_rounds
FROM (
  SELECT game_id, round, seat, arg_max(income_level, action_index) AS income_level
  FROM turn_snapshots GROUP BY game_id, round, seat
)
GROUP BY round ORDER BY round
"""


def bench_queries(big: Path, repeat: int) -> list[dict[str, Any]]:
    import io
    from contextlib import redirect_stdout

    from click.testing import CliRunner

    from brass_stats.cli.report import report_command
    from brass_stats.cli.stats import curves_command, games_command, income_command, stats_command, vp_command
    from brass_stats.storage.corpus import open_corpus

    con = open_corpus(parquet=big)
    games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    gid = con.execute(f"SELECT game_id FROM games ORDER BY game_id LIMIT 1 OFFSET {games // 2}").fetchone()[0]
    runner = CliRunner()
    cases: list[tuple[str, Any]] = []
    for dim in ("seat", "strategy", "opening"):
        cases.append(
            (f"stats --by {dim}", lambda d=dim: runner.invoke(stats_command, ["--parquet", str(big), "--by", d]))
        )
    cases.append(("income GAME", lambda: runner.invoke(income_command, [gid, "--parquet", str(big)])))
    cases.append(("vp GAME", lambda: runner.invoke(vp_command, [gid, "--parquet", str(big)])))
    out = big.parent / "bench-report.html"
    cases.append(
        (
            "report GAME --no-viewer",
            lambda: runner.invoke(report_command, [gid, "--parquet", str(big), "--out", str(out), "--no-viewer"]),
        )
    )
    games_csv = ["--parquet", str(big), "--format", "csv"]
    cases.append(("games (list all, csv)", lambda: runner.invoke(games_command, games_csv)))
    cases.append(("mean income curve (corpus)", lambda: open_corpus(parquet=big).execute(MEAN_INCOME_CURVE).df()))
    cases.append(
        (
            "curves --metric income --by result",
            lambda: runner.invoke(curves_command, ["--parquet", str(big), "--metric", "income", "--by", "result"]),
        )
    )
    rows = []
    for what, fn in cases:
        times, cpu = [], []
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            with redirect_stdout(io.StringIO()):
                res = fn()
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)  # every thread of this process (DuckDB's too)
            if hasattr(res, "exit_code"):
                assert res.exit_code == 0, res.output
        rows.append(
            {
                "what": what,
                "games": games,
                "median_wall_s": round(statistics.median(times), 3),
                "median_cpu_s": round(statistics.median(cpu), 3),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


_WORKERS_CHILD = """
import json, sys, tempfile, time
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage.dataset import new_batch_id
from brass_stats.storage.ingest import InlineRunner, ProcessRunner, iter_game_files
corpus, workers = sys.argv[1], int(sys.argv[2])
files = list(iter_game_files([corpus]))
with tempfile.TemporaryDirectory(dir=sys.argv[3]) as dest:
    start = time.perf_counter()
    runner = InlineRunner(frozenset(), AS_PLAYED) if workers == 1 else ProcessRunner(workers, frozenset(), AS_PLAYED)
    try:
        pending = [runner.submit(files[i : i + 32], dest, new_batch_id(), False) for i in range(0, len(files), 32)]
        results = [runner.result(f) for f in pending]
    finally:
        runner.close()
    seconds = time.perf_counter() - start
games = sum(len(r.game_ids) for r in results)
print(json.dumps({"seconds": seconds, "games": games, "failed": sum(len(r.failures) for r in results),
                  "task_cpu_seconds": sum(r.cpu_seconds for r in results)}))
"""


def bench_workers(corpus: Path, repeat: int, counts: list[int]) -> list[dict[str, Any]]:
    """The import's workers alone (see the module's doc): games/s with each number of workers, and the
    efficiency against the fewest, each run a fresh process (as :func:`timed_ingest`)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    rows: list[dict[str, Any]] = []
    rates: dict[int, float] = {}
    for workers in sorted(counts):  # (the fewest first: the others' efficiency is against it)
        runs = []
        for _ in range(repeat):
            res = subprocess.run(
                [sys.executable, "-c", _WORKERS_CHILD, str(corpus), str(workers), str(corpus.parent)],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            runs.append(json.loads(res.stdout.strip().splitlines()[-1]))
            assert runs[-1]["failed"] == 0, res.stderr[-2000:]
        run = sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]
        rates[workers] = run["games"] / run["seconds"]
        fewest = min(rates)
        rows.append(
            {
                "what": "workers alone (nothing committed)",
                "workers": workers,
                "games": run["games"],
                "seconds": round(run["seconds"], 3),
                "games_per_s": round(rates[workers], 1),
                "task_cpu_ms_per_game": round(1000 * run["task_cpu_seconds"] / run["games"], 2),
                f"efficiency_vs_{fewest}": round(rates[workers] * fewest / (workers * rates[fewest]), 3),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def bench_loaders(corpus: Path, repeat: int, counts: list[int], group: int = 0) -> list[dict[str, Any]]:
    """Loading staged batches into a fresh DuckDB file with 1, 2, ... loader threads at once (what the
    ``ingest`` process does while its workers replay): wall seconds and the speed-up over one loader.
    The batches are staged once by this process (as workers would) and copied for each run; the loads
    use the real ``DuckDBCommitter`` in groups of ``group`` games (default: a sixteenth of the corpus, at
    least 32, so that several loaders get a fair share of groups)."""
    from brass_stats.storage import Store
    from brass_stats.storage.ingest import DuckDBCommitter, run_batch

    files = sorted(str(p) for p in corpus.glob("*.json"))
    group = group or max(32, len(files) // 16)
    with tempfile.TemporaryDirectory(dir=corpus.parent) as d:
        staged = Path(d) / "staged"
        results = [
            run_batch(files[i : i + 32], frozenset(), str(staged), f"b{i:06d}", False, AS_PLAYED)
            for i in range(0, len(files), 32)
        ]
        rows: list[dict[str, Any]] = []
        base = 0.0
        for loaders in counts:
            walls, cpus = [], []
            for run in range(repeat):
                db = Path(d) / f"load-{loaders}-{run}.duckdb"
                store = Store(db)
                committer = DuckDBCommitter(store, set(), loaders=loaders, background=True)
                committer.group_games = group
                shutil.copytree(staged, committer.dest, dirs_exist_ok=True)
                start = time.perf_counter()
                for r in results:
                    committer.commit([r])
                committer.flush()
                walls.append(time.perf_counter() - start)
                cpus.append(committer.load_cpu_seconds)
                committer.close()
                assert store.count("games") == len(files), store.count("games")
                store.close()
                db.unlink()
            wall = statistics.median(walls)
            base = base or wall
            LOADER_SPEED_UP[loaders] = base / wall
            rows.append(
                {
                    "what": f"DuckDB load, {loaders} loader thread(s)",
                    "games": len(files),
                    "wall_s": round(wall, 3),
                    "load_cpu_ms_per_game": round(1000 * statistics.median(cpus) / len(files), 3),
                    "speed_up": round(base / wall, 2),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games for the throughput rows")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts for the throughput rows")
    ap.add_argument("--rss-games", default="1000,10000", help="comma-separated corpus sizes for client memory")
    ap.add_argument("--big", type=int, default=100_000, help="games in the dataset for query latency (0: skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--loaders", default="1,2,4", help="comma-separated loader-thread counts for the loaders row")
    ap.add_argument("--only", default="ingest,workers,costs,loaders,rss,queries")
    ap.add_argument("--work", type=Path, default=None, help="working folder (default: a temporary one)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    print(json.dumps({"cpus": os.cpu_count(), "python": sys.version.split()[0], "work": str(work)}), flush=True)
    try:
        corpus = work / "corpus"
        if only & {"ingest", "workers", "costs", "loaders", "queries"}:
            actions = make_corpus(corpus, args.games)
            print(json.dumps({"corpus_games": args.games, "corpus_actions": actions}), flush=True)
        if "ingest" in only:
            bench_ingest(corpus, args.repeat, [int(x) for x in args.workers.split(",")])
        if "workers" in only:
            bench_workers(corpus, args.repeat, [int(x) for x in args.workers.split(",")])
        if "loaders" in only:  # (before costs: the model takes the loaders' measured speed-up)
            bench_loaders(corpus, args.repeat, [int(x) for x in args.loaders.split(",")])
        if "costs" in only:
            bench_costs(corpus, args.repeat)
        if "rss" in only:
            bench_rss(work, [int(x) for x in args.rss_games.split(",") if x])
        if "queries" in only and args.big:
            base = work / "base-pq"
            if not base.exists():
                ingest([corpus], parquet_dir=base, workers=2, progress=False, policy=AS_PLAYED)
            big = work / f"big-{args.big}-pq"
            if not big.exists():  # building it takes minutes: reuse it with --work
                start = time.perf_counter()
                n = build_big(base, big, args.big)
                seconds = round(time.perf_counter() - start, 1)
                print(json.dumps({"built_dataset_games": n, "seconds": seconds}), flush=True)
            bench_queries(big, args.repeat)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
