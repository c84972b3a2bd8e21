"""Cost of reading a log: strict JSON, the schema, the reader's checks, per action.

    PYTHONPATH=. python benchmarks/bench_load.py [--repeat 7]

Reads every sample game (replays/) from memory, single process, and prints the median over
--repeat runs of actions read per second for each stage and for the whole of ``GameLog.loads``.
The machine is shared: treat the numbers as rough and compare stages within one run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from brass_stats.log import schema
from brass_stats.log.format import GameLog, parse_json
from brass_stats.log.limits import Limits

REPO = Path(__file__).parents[1]


def rate(texts: list[str], actions: int, fn: Callable[[str], Any], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for t in texts:
            fn(t)
        runs.append(actions / (time.perf_counter() - start))
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    files = sorted((REPO / "replays").rglob("*.json"))
    texts = [p.read_text("utf-8") for p in files]
    datas = [json.loads(t) for t in texts]
    actions = sum(len(d["actions"]) for d in datas)
    limits = Limits()
    schema.check(datas[0], limits.max_string_length)  # compile once, outside the timing
    by_text = dict(zip(texts, datas, strict=True))
    stages = {
        "json.loads (plain)": lambda t: json.loads(t),
        "parse_json (strict, limits)": lambda t: parse_json(t, None, limits),
        "schema.check (compiled)": lambda t: schema.check(by_text[t], limits.max_string_length),
        "reader checks (GameLog._check)": lambda t: GameLog._check(by_text[t], lambda m, w=None: ValueError(m)),
        "GameLog.loads (all of it)": lambda t: GameLog.loads(t, None, limits),
    }
    print(f"{len(files)} logs, {actions} actions; median of {a.repeat} runs, single process")
    for name, fn in stages.items():
        print(f"{name:34s} {rate(texts, actions, fn, a.repeat):>12,.0f} actions/s")


if __name__ == "__main__":
    main()
