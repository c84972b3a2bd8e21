"""Throughput of the replay and storage layers (a script, not a test).

Measures, on the two golden games plus N generated RandomBot games:

* validated actions per second: replay with ``keep_states=False`` (what ``validate`` does);
* games per second for replay (``keep_states=True``) plus computing every table;
* ingest games per second into a fresh DuckDB file with 1 and 2 (or ``--workers``) processes.

Usage::

    python benchmarks/bench_storage.py --games 40 --workers 1 2
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import GOLDEN_GAMES, convert_golden  # noqa: E402

from brass_stats.bots import RandomBot, play_game  # noqa: E402
from brass_stats.log.format import GameLog  # noqa: E402
from brass_stats.replay import Replay, gc_paused  # noqa: E402
from brass_stats.storage import Store, game_tables, ingest  # noqa: E402


def make_logs(n: int, seed: int) -> list[GameLog]:
    logs = [convert_golden(name) for name in GOLDEN_GAMES]
    for i in range(n):
        players = 2 + i % 3
        logs.append(play_game([RandomBot()] * players, seed + i))
    return logs


def bench_validate(logs: list[GameLog], repeat: int) -> tuple[float, int]:
    actions = 0
    start = time.perf_counter()
    for _ in range(repeat):
        for log in logs:
            r = Replay(log, keep_states=False).run()
            assert r.error is None and r.finished
            actions += len(r.steps)
    return time.perf_counter() - start, actions


def bench_tables(logs: list[GameLog], repeat: int) -> tuple[float, int, int]:
    rows = 0
    start = time.perf_counter()
    for _ in range(repeat):
        for log in logs:
            r = Replay(log, keep_states=True).run()
            with gc_paused():
                t = game_tables(r, None)
            rows += sum(x.num_rows for x in t.values())
    return time.perf_counter() - start, len(logs) * repeat, rows


def bench_ingest(folder: Path, workers: int) -> tuple[float, float, float, int, dict[str, int]]:
    """(wall seconds, parent CPU seconds, worker CPU seconds, games stored, row counts)."""
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.duckdb"
        t0, c0 = time.perf_counter(), os.times()
        report = ingest([folder], db, workers=workers, progress=False)
        seconds, c1 = time.perf_counter() - t0, os.times()
        assert report.failed == 0, report.failures
        with Store(db) as s:
            counts = s.counts()
        parent = c1.user + c1.system - c0.user - c0.system
        children = max(0.0, c1.children_user + c1.children_system - c0.children_user - c0.children_system)
        return seconds, parent, children, report.stored, counts


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def parallel_capacity(workers: int, n: int = 5_000_000) -> float:
    """Speed-up of ``workers`` processes over one on pure-Python work: what this machine can give at best."""
    from concurrent.futures import ProcessPoolExecutor

    t0 = time.perf_counter()
    for _ in range(workers):
        _burn(n)
    serial = time.perf_counter() - t0
    with ProcessPoolExecutor(workers) as pool:
        t0 = time.perf_counter()
        list(pool.map(_burn, [n] * workers))
        parallel = time.perf_counter() - t0
    return serial / parallel


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="generated RandomBot games (default 40)")
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first generated game")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the games for the in-process timings")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts for ingest (default 1 2)")
    ap.add_argument(
        "--copies",
        type=int,
        default=4,
        help="ingest each game this many times under other player names (distinct game ids, same replay work)",
    )
    args = ap.parse_args()

    t0 = time.perf_counter()
    logs = make_logs(args.games, args.seed)
    gen = time.perf_counter() - t0
    n_actions = sum(len(log.actions) for log in logs)
    print(f"{len(logs)} games ({len(GOLDEN_GAMES)} golden + {args.games} RandomBot, generated in {gen:.1f} s), ")
    print(f"{n_actions} actions, {n_actions / len(logs):.0f} actions/game on average")
    print()

    results: list[tuple[str, str, str]] = []
    secs, actions = bench_validate(logs, args.repeat)
    results.append(("validate (keep_states=False)", f"{actions / secs:,.0f} actions/s", f"{secs:.2f} s"))
    secs, games, rows = bench_tables(logs, args.repeat)
    results.append(("replay + tables", f"{games / secs:,.1f} games/s", f"{secs:.2f} s, {rows // games} rows/game"))

    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        for k in range(args.copies):
            for i, log in enumerate(logs):
                renamed = replace(log, players=tuple(f"{name}#{k}" for name in log.players)) if k else log
                renamed.save(folder / f"game-{k:02d}-{i:04d}.json")
        counts: dict[str, int] = {}
        for w in args.workers:
            secs, parent, children, stored, counts = bench_ingest(folder, w)
            note = f"{secs:.2f} s, {stored} games; CPU parent {parent:.2f} s, workers {children:.2f} s"
            results.append((f"ingest, {w} worker(s)", f"{stored / secs:,.1f} games/s", note))

    width = max(len(r[0]) for r in results)
    print(f"{'measure':<{width}}  {'rate':>18}  time")
    print(f"{'-' * width}  {'-' * 18}  {'-' * 50}")
    for name, rate, note in results:
        print(f"{name:<{width}}  {rate:>18}  {note}")
    print()
    print("rows stored: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"cores: {os.cpu_count()}, load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for w in args.workers:
        if w > 1:
            print(f"machine check: {w} processes run pure-Python work {parallel_capacity(w):.2f}x as fast as one")


if __name__ == "__main__":
    main()
