"""Every row of the speed table, in one command (a script, not a test).

Rows, each measured in this process (single core) unless it says workers:

* validate: replay with ``keep_states=False`` (what ``brass-stats validate`` does), actions/s;
* replay + every table: replay with states, then the tables, as an ingest task does them: each game's
  parts (:func:`~brass_stats.storage.tables.game_parts`), converted to Arrow together per batch of
  ``--tables-batch`` games (32, ingest's batch size; 1: :func:`~brass_stats.storage.game_tables` game by
  game), actions/s;
* ``legal_actions`` latency per era: p50 and p99 over every state of the corpus (Birmingham and
  Lancashire), in ms;
* greedy self-play: 4-player all-greedy games, games/s;
* ingest scaling: games/s with 1, 2, ... workers into a fresh DuckDB file (the storage layer's
  :func:`~brass_stats.storage.ingest`), and its efficiency against 1 worker;
* peak RSS of an ingest of 1,000 and 10,000 games (replicated games under other player names,
  so distinct game ids with the same replay work), measured in a child process.

The corpus is the sample games shipped in ``replays/`` (Birmingham generated, real, Lancashire),
optionally plus ``--random`` RandomBot games. Each timed row is run ``--repeat`` times and the
median is printed (this machine may be shared: medians of several runs, never one). The in-process
rows count this process's CPU time (``time.process_time``), so other load on a shared machine
inflates them less than wall-clock time would; the ingest rows are wall-clock. Example::

    python benchmarks/bench_speed.py                      # everything, defaults
    python benchmarks/bench_speed.py --only validate,tables,legal --repeat 5
    python benchmarks/bench_speed.py --rss-games 1000,10000 --workers 1,2,4,8,16
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

from brass_stats.bots import RandomBot, play_game  # noqa: E402
from brass_stats.engine.legal import legal_actions  # noqa: E402
from brass_stats.engine.policy import AS_PLAYED  # noqa: E402
from brass_stats.engine.setup import new_game  # noqa: E402
from brass_stats.engine.turn import apply_action  # noqa: E402
from brass_stats.log.format import GameLog  # noqa: E402
from brass_stats.replay import Replay, gc_paused  # noqa: E402
from brass_stats.storage import game_tables  # noqa: E402
from brass_stats.storage.tables import assemble_tables, game_parts  # noqa: E402

ROWS = ("validate", "tables", "legal", "greedy", "ingest", "rss")


def corpus(random_games: int, seed: int) -> list[GameLog]:
    """The sample games (replayed as played: gm7vza breaks the link limit, D1) and RandomBot games."""
    logs = [GameLog.load(p) for p in sorted((ROOT / "replays").rglob("*.json"))]
    for i in range(random_games):
        logs.append(play_game([RandomBot()] * (2 + i % 3), seed + i))
    return logs


def _median_rate(fn: Any, repeat: int) -> tuple[float, list[float]]:
    rates = [fn() for _ in range(repeat)]
    return statistics.median(rates), rates


def bench_validate(logs: list[GameLog]) -> float:
    actions = 0
    start = time.process_time()
    for log in logs:
        r = Replay(log, policy=AS_PLAYED, keep_states=False).run()
        assert r.error is None and r.finished, r.error
        actions += len(r.steps)
    return actions / (time.process_time() - start)


def bench_tables(logs: list[GameLog], batch: int = 32) -> float:
    actions = 0
    start = time.process_time()
    for i in range(0, len(logs), batch):
        parts = []
        for log in logs[i : i + batch]:
            r = Replay(log, policy=AS_PLAYED, keep_states=True).run()
            with gc_paused():
                if batch == 1:
                    game_tables(r, None)
                else:
                    parts.append(game_parts(r, None))
            actions += len(r.steps)
        if parts:
            with gc_paused():
                assemble_tables(parts)
    return actions / (time.process_time() - start)


def bench_legal(logs: list[GameLog], every: int) -> dict[str, list[float]]:
    """Seconds per legal_actions call, by era, over every ``every``-th state of each game."""
    out: dict[str, list[float]] = {"canal": [], "rail": []}
    with gc_paused():
        for log in logs:
            state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
            for i, action in enumerate(log.actions):
                if i % every == 0:
                    t0 = time.process_time()
                    legal_actions(state)
                    out[state.era].append(time.process_time() - t0)
                state, _ = apply_action(state, action, AS_PLAYED)
    return out


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_greedy(games: int, seed: int) -> float:
    from brass_stats.bots.selfplay import play_selfplay_game

    start = time.process_time()
    for i in range(games):
        play_selfplay_game(seed, i, ["greedy"] * 4)
    return games / (time.process_time() - start)


# (folder, players, corpus seed, bots, edition, games): every command of replays/README.md
SAMPLE_CORPORA = (
    ("generated", 2, 2002, "greedy", "birmingham", 6),
    ("generated", 2, 2012, "greedy,random", "birmingham", 3),
    ("generated", 2, 2022, "random,greedy", "birmingham", 3),
    ("generated", 3, 3003, "greedy", "birmingham", 6),
    ("generated", 3, 3013, "greedy,random", "birmingham", 6),
    ("generated", 4, 4004, "greedy", "birmingham", 6),
    ("generated", 4, 4014, "greedy,random", "birmingham", 6),
    ("lancashire", 2, 5002, "greedy", "lancashire", 4),
    ("lancashire", 3, 5003, "greedy,random", "lancashire", 4),
    ("lancashire", 4, 5004, "greedy", "lancashire", 4),
)


def check_corpora() -> list[str]:
    """Regenerate every game of every sample corpus into a temp folder; the files that differ from replays/."""
    from brass_stats.bots.selfplay import generate

    differ = []
    with tempfile.TemporaryDirectory(prefix="check-corpora-") as tmp:
        for folder, players, seed, bots, edition, games in SAMPLE_CORPORA:
            paths = generate(games, players, seed, bots.split(","), tmp, progress=False, edition=edition)
            for i, path in enumerate(paths):
                sample = ROOT / "replays" / folder / f"game-{seed}-{i:05d}.json"
                if path.read_bytes() != sample.read_bytes():
                    differ.append(str(sample.relative_to(ROOT)))
    return differ


def _write_copies(logs: list[GameLog], n: int, folder: Path) -> None:
    """``n`` logs: the corpus repeated under other player names (distinct game ids, same replay work)."""
    for k in range(n):
        log = logs[k % len(logs)]
        copy = k // len(logs)
        renamed = replace(log, players=tuple(f"{name}#{copy}" for name in log.players)) if copy else log
        renamed.save(folder / f"game-{k:06d}.json")


def bench_ingest(folder: Path, workers: int) -> tuple[float, int, float]:
    """(games per second, games stored, seconds of the final flush: the loads left when the workers were done)."""
    from brass_stats.storage import ingest

    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()  # wall clock: the workers' time is not this process's
        report = ingest([folder], Path(d) / "bench.duckdb", workers=workers, progress=False, policy=AS_PLAYED)
        seconds = time.perf_counter() - t0
        assert report.failed == 0, report.failures
        return report.stored / seconds, report.stored, report.flush_seconds


def peak_rss_of_ingest(folder: Path, workers: int) -> tuple[float, float, float]:
    """(the parent's CPU seconds, parent peak RSS MiB, largest worker peak RSS MiB) of an ingest run in a
    fresh child process."""
    code = (
        "import resource, sys, tempfile, time; from pathlib import Path\n"
        "from brass_stats.engine.policy import AS_PLAYED\n"
        "from brass_stats.storage import ingest\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        "    t0 = time.process_time()\n"
        f"    r = ingest([Path({str(folder)!r})], Path(d) / 'x.duckdb', workers={workers}, progress=False,\n"
        "               policy=AS_PLAYED)\n"
        "    assert r.failed == 0, r.failures[:3]\n"
        "    s = time.process_time() - t0\n"
        "print(s, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
        " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    secs, parent, child = out.stdout.split()[-3:]
    return float(secs), int(parent) / 1024, int(child) / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(ROWS), help=f"rows to run, comma-separated ({', '.join(ROWS)})")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timed row; the median is printed")
    ap.add_argument("--random", type=int, default=0, help="RandomBot games added to the sample corpus")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--legal-every", type=int, default=1, help="time legal_actions on every k-th state")
    ap.add_argument(
        "--tables-batch",
        type=int,
        default=32,
        help="games converted to Arrow together in the tables row (32: as ingest; 1: game_tables per game)",
    )
    ap.add_argument("--greedy-games", type=int, default=4, help="4-player greedy games per greedy run")
    ap.add_argument("--workers", default="1,2", help="worker counts for the ingest-scaling row")
    ap.add_argument("--ingest-games", type=int, default=400, help="games per ingest-scaling run")
    ap.add_argument("--rss-games", default="1000,10000", help="ingest sizes whose peak RSS is measured")
    ap.add_argument("--rss-workers", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    ap.add_argument(
        "--check-corpora",
        action="store_true",
        help="only regenerate every sample corpus of replays/README.md and compare it byte for byte",
    )
    args = ap.parse_args(argv)
    if args.check_corpora:
        t0 = time.perf_counter()
        differ = check_corpora()
        games = sum(c[-1] for c in SAMPLE_CORPORA)
        seconds = time.perf_counter() - t0
        print(f"{games - len(differ)} of {games} sample games regenerated byte for byte ({seconds:.0f} s)")
        for name in differ:
            print(f"differs: {name}")
        return 1 if differ else 0
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    report: dict[str, Any] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}

    logs = corpus(args.random, args.seed)
    n_actions = sum(len(log.actions) for log in logs)
    print(f"corpus: {len(logs)} games, {n_actions} actions; median of {args.repeat} runs per row")
    rows: list[tuple[str, str, str]] = []

    if "validate" in only:
        med, runs = _median_rate(lambda: bench_validate(logs), args.repeat)
        report["validate_actions_per_s"] = runs
        rows.append(("validate (replay, no states)", f"{med:,.0f} actions/s", "target >= 50,000"))
    if "tables" in only:
        med, runs = _median_rate(lambda: bench_tables(logs, args.tables_batch), args.repeat)
        report["tables_actions_per_s"] = runs
        what = "game by game" if args.tables_batch == 1 else f"batches of {args.tables_batch}"
        rows.append((f"replay + every table ({what})", f"{med:,.0f} actions/s", "target >= 25,000"))
    if "legal" in only:
        runs_by_era: dict[str, list[tuple[float, float]]] = {"canal": [], "rail": []}
        for _ in range(args.repeat):
            for era, xs in bench_legal(logs, args.legal_every).items():
                runs_by_era[era].append((_percentile(xs, 0.5), _percentile(xs, 0.99)))
        for era, runs in runs_by_era.items():
            p50 = statistics.median(r[0] for r in runs) * 1000
            p99 = statistics.median(r[1] for r in runs) * 1000
            report[f"legal_{era}_ms"] = {"p50": p50, "p99": p99}
            rows.append((f"legal_actions, {era} era", f"p50 {p50:.2f} ms, p99 {p99:.2f} ms", "p50 < 0.5, p99 < 3"))
    if "greedy" in only:
        med, runs = _median_rate(lambda: bench_greedy(args.greedy_games, args.seed), args.repeat)
        report["greedy_games_per_s"] = runs
        rows.append(("greedy self-play, 4 players", f"{med:.2f} games/s", "target >= 2"))
    if "ingest" in only or "rss" in only:
        with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
            if "ingest" in only:
                folder = Path(tmp) / f"ingest-{args.ingest_games}"
                folder.mkdir()
                _write_copies(logs, args.ingest_games, folder)
                base = None
                for w in [int(x) for x in args.workers.split(",") if x.strip()]:
                    flushes: list[float] = []

                    def one(w: int = w, flushes: list[float] = flushes) -> float:
                        rate, _, flush = bench_ingest(folder, w)
                        flushes.append(flush)
                        return rate

                    med, runs = _median_rate(one, args.repeat)
                    base = base or med / w
                    report[f"ingest_games_per_s_w{w}"] = runs
                    report[f"ingest_final_flush_s_w{w}"] = flushes
                    rows.append(
                        (
                            f"ingest, {w} worker(s)",
                            f"{med:,.1f} games/s",
                            f"efficiency {med / (w * base):.0%} vs 1; final flush {statistics.median(flushes):.2f} s",
                        )
                    )
            if "rss" in only:
                for n in [int(x) for x in args.rss_games.split(",") if x.strip()]:
                    folder = Path(tmp) / f"rss-{n}"
                    folder.mkdir()
                    _write_copies(logs, n, folder)
                    secs, parent, child = peak_rss_of_ingest(folder, args.rss_workers)
                    report[f"ingest_{n}_peak_rss_mib"] = {"parent": parent, "worker": child, "seconds": secs}
                    rows.append(
                        (
                            f"ingest of {n:,} games, peak RSS",
                            f"parent {parent:,.0f} MiB",
                            f"largest worker {child:,.0f} MiB; {args.rss_workers} workers, parent CPU {secs:.1f} s",
                        )
                    )

    width = max(len(r[0]) for r in rows)
    rate_w = max(len(r[1]) for r in rows)
    print(f"{'what':<{width}}  {'measured':<{rate_w}}  note")
    for name, rate, note in rows:
        print(f"{name:<{width}}  {rate:<{rate_w}}  {note}")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"cores: {os.cpu_count()}, load average: {load}, self peak RSS: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
