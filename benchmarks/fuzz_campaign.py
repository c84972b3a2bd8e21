"""A long fuzz campaign over mutated game logs, in several processes.

    PYTHONPATH=. python benchmarks/fuzz_campaign.py --cases 100000 --workers 8 --seed 1

Each case i is derived from (seed, i) alone, so a failure is reproduced with --first i --cases 1.
Prints the verdict counts and every case that broke the property (see tests/fuzzing.py);
the exit status is 1 if any did.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from fuzzing import check_verdict, mutate, mutate_text, seed_logs  # noqa: E402

SEEDS = seed_logs()


def one_case(seed: int, i: int) -> tuple[str, str | None]:
    rng = random.Random(f"{seed}:{i}")
    doc = mutate(SEEDS[rng.randrange(len(SEEDS))], rng, rng.randint(0 if i % 5 == 0 else 1, 4))
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    if i % 5 == 0:
        text = mutate_text(text, rng)
    try:
        return check_verdict(text), None
    except Exception as e:  # the property broke: report the case, keep going
        return "BUG", f"case {i}: {type(e).__name__}: {str(e)[:300]}\n{traceback.format_exc()[-1500:]}"


def run_chunk(args: tuple[int, int, int]) -> tuple[Counter[str], list[str]]:
    seed, start, stop = args
    counts: Counter[str] = Counter()
    bugs = []
    for i in range(start, stop):
        kind, bug = one_case(seed, i)
        counts[kind] += 1
        if bug:
            bugs.append(bug)
    return counts, bugs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    start = time.perf_counter()
    step = 200
    chunks = [(a.seed, s, min(s + step, a.first + a.cases)) for s in range(a.first, a.first + a.cases, step)]
    total: Counter[str] = Counter()
    bugs: list[str] = []
    with ProcessPoolExecutor(a.workers) as pool:
        for counts, found in pool.map(run_chunk, chunks):
            total += counts
            bugs += found
            done = sum(total.values())
            if done % 5000 < step:
                print(f"{done} cases, {len(bugs)} bugs, {time.perf_counter() - start:.0f} s", flush=True)
    for b in bugs[:20]:
        print(b)
    print(
        json.dumps(
            {
                "cases": sum(total.values()),
                "verdicts": dict(total),
                "bugs": len(bugs),
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
