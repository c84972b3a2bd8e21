"""The compiled core against the Python reference, on the same positions (a script, not a test).

Rows (CPU time of this process, ``time.process_time``; medians of ``--repeat`` runs):

* ``legal``: ``legal_actions`` per call, over the positions of played games (both editions, 2-4
  players): the reference's call against the core's own loop (``_core.time_legal_actions``);
* ``apply``: applying every legal action of those positions to a copy, per call;
* ``random``: random play in the core (legal actions, the random bot's choice, apply) from new
  four-player Birmingham games, steps per second on one core;
* ``greedy``: a greedy decision on the same positions, the reference's ``GreedyBot.choose`` against the
  core's, per decision;
* ``search``: simulations per CPU-second of the default search (``mcts``) on the same positions, both
  paths, one decision each, at ``--sims`` simulations;
* ``game``: one four-player Birmingham game with the search at 200 simulations in every seat, played in
  the core (``play_game``), CPU seconds;
* ``review``: the review of the real game gm7vza at the default budget on the core (CPU seconds of a
  ``brass-stats analyse`` process; ``--review-python`` also times the Python path, about a minute).

Example::

    python benchmarks/bench_core.py                    # every row but the Python review
    python benchmarks/bench_core.py --only legal,apply,random --repeat 5
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brass_stats import _core  # noqa: E402
from brass_stats.bots import play_game  # noqa: E402
from brass_stats.bots.greedy import GreedyBot  # noqa: E402
from brass_stats.bots.search import SearchBot  # noqa: E402
from brass_stats.bots.specs import make_bot  # noqa: E402
from brass_stats.engine import SeededChance, apply_action, new_game  # noqa: E402
from brass_stats.engine.compiled import SWITCH, to_core  # noqa: E402
from brass_stats.engine.legal import legal_actions  # noqa: E402
from brass_stats.engine.state import GameState  # noqa: E402
from brass_stats.rules_data import load_rules  # noqa: E402

ROWS = ("legal", "apply", "random", "greedy", "search", "game", "review")


@contextmanager
def python_path() -> Iterator[None]:
    before = os.environ.get(SWITCH)
    os.environ[SWITCH] = "python"
    try:
        yield
    finally:
        if before is None:
            del os.environ[SWITCH]
        else:
            os.environ[SWITCH] = before


def positions(games: int, every: int) -> list[GameState]:
    """Every ``every``-th position of greedy games, both editions, 2-4 players."""
    out = []
    with python_path():
        for i in range(games):
            edition = ("birmingham", "lancashire")[i % 2]
            players = 2 + i % 3
            state = new_game([f"p{k}" for k in range(players)], SeededChance(1000 + i), load_rules(edition))
            rng = random.Random(i)
            while not state.game_over:
                if state.action_count % every == 0:
                    out.append(state)
                state = apply_action(state, GreedyBot().choose(state, legal_actions(state), rng))[0]
    return out


def cpu(f: Callable[[], object]) -> float:
    t = time.process_time()
    f()
    return time.process_time() - t


def median_of(repeat: int, f: Callable[[], float]) -> float:
    return statistics.median(f() for _ in range(repeat))


def row_legal(states: list[GameState], repeat: int) -> str:
    calls = len(states)
    py = median_of(repeat, lambda: cpu(lambda: [legal_actions(s) for s in states])) / calls
    cores = [to_core(s) for s in states]
    core = median_of(repeat, lambda: sum(_core.time_legal_actions(c, 20)[1] for c in cores) / 20) / calls
    return f"legal_actions per call: Python {py * 1e6:.1f} µs, core {core * 1e6:.2f} µs, {py / core:.0f}x"


def row_apply(states: list[GameState], repeat: int) -> str:
    legal = [legal_actions(s) for s in states]
    calls = sum(len(x) for x in legal)
    pairs = [(s, a) for s, ls in zip(states, legal, strict=True) for a in ls]
    py = median_of(repeat, lambda: cpu(lambda: [apply_action(s, a) for s, a in pairs]))
    cores = [to_core(s) for s in states]
    core = median_of(repeat, lambda: sum(_core.time_apply(c, 5)[1] for c in cores) / 5)
    py, core = py / calls, core / calls
    return (
        f"apply_action per call (a copy and the action): Python {py * 1e6:.1f} µs, "
        f"core {core * 1e6:.2f} µs, {py / core:.0f}x"
    )


def row_random(repeat: int) -> str:
    start = to_core(new_game(["a", "b", "c", "d"], SeededChance(1)))

    def rate() -> float:
        steps, seconds = _core.time_random_play(start, list(range(200)))
        return steps / seconds

    return f"random play in the core, 4p Birmingham: {median_of(repeat, rate):,.0f} steps/s (one core)"


def row_greedy(states: list[GameState], repeat: int) -> str:
    states = [s for s in states if len(legal_actions(s)) > 1]
    legal = [legal_actions(s) for s in states]
    with python_path():
        py = median_of(
            repeat,
            lambda: cpu(
                lambda: [GreedyBot().choose(s, ls, random.Random(0)) for s, ls in zip(states, legal, strict=True)]
            ),
        )
    weights = GreedyBot().core_spec()["weights"]  # type: ignore[index]
    import json

    cores = [to_core(s) for s in states]
    core = median_of(repeat, lambda: sum(_core.time_greedy(c, json.dumps(weights), 5)[1] for c in cores) / 5)
    n = len(states)
    return f"greedy decision: Python {py / n * 1e3:.2f} ms, core {core / n * 1e3:.3f} ms, {py / core:.0f}x"


def row_search(states: list[GameState], sims: int) -> str:
    sample = states[:: max(1, len(states) // 24)]
    bot = SearchBot(simulations=sims)
    with python_path():
        py = cpu(lambda: [bot.analyse(s, None, random.Random(i)) for i, s in enumerate(sample)])
    core = cpu(lambda: [bot.analyse(s, None, random.Random(i)) for i, s in enumerate(sample)])
    total = sims * len(sample)
    return (
        f"search ({sims} simulations, {len(sample)} decisions): Python {total / py:,.0f} sims/CPU-s, "
        f"core {total / core:,.0f} sims/CPU-s (boundary included), {py / core:.0f}x"
    )


def row_game(seed: int) -> str:
    spent = cpu(lambda: play_game([make_bot("mcts:sims=200") for _ in range(4)], seed=seed))
    return f"4p Birmingham game, mcts:sims=200 in every seat, in the core: {spent:.2f} s CPU"


def child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def row_review(python_too: bool) -> str:
    game = str(ROOT / "replays" / "real" / "gm7vza-4p.json")
    cmd = [sys.executable, "-m", "brass_stats.cli", "analyse", game, "--as-played", "--format", "json"]
    env = {k: v for k, v in os.environ.items() if k != SWITCH}
    core = child_cpu(cmd, env)
    line = f"review of gm7vza (default budget, whole process): core {core:.1f} s CPU"
    if python_too:
        py = child_cpu(cmd, {**env, SWITCH: "python"})
        line += f", Python {py:.1f} s CPU, {py / core:.1f}x"
    return line


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", default=",".join(ROWS), help=f"comma-separated rows of {ROWS}")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--games", type=int, default=6, help="games whose positions are measured")
    p.add_argument("--sims", type=int, default=50, help="simulations per decision in the search row")
    p.add_argument("--review-python", action="store_true", help="also time the review on the Python path")
    args = p.parse_args()
    rows = args.only.split(",")
    states = positions(args.games, 5) if set(rows) & {"legal", "apply", "greedy", "search"} else []
    for row in rows:
        if row == "legal":
            print(row_legal(states, args.repeat), flush=True)
        elif row == "apply":
            print(row_apply(states, args.repeat), flush=True)
        elif row == "random":
            print(row_random(args.repeat), flush=True)
        elif row == "greedy":
            print(row_greedy(states, args.repeat), flush=True)
        elif row == "search":
            print(row_search(states, args.sims), flush=True)
        elif row == "game":
            print(row_game(11), flush=True)
        elif row == "review":
            print(row_review(args.review_python), flush=True)
        else:
            raise SystemExit(f"unknown row {row!r}; rows: {', '.join(ROWS)}")


if __name__ == "__main__":
    main()
