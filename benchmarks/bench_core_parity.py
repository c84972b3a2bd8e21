"""A long differential campaign: the compiled core against the reference engine, fresh seeds.

Games of every player kind (random, greedy, exploring, search), both editions, 2-4 players and the
variants, each played on the reference; at every position the core must read the position back,
list the same legal actions in the same order and reach the reference's successor for a sample of
them (``tests/core_parity.py``). Games run on ``--workers`` processes; one JSON line per game goes to
``--out`` (resumable: games already there are skipped), and the totals are printed: positions
compared, successors compared, disagreements (each with its game, action index and first differing
field).

Example::

    python benchmarks/bench_core_parity.py --games 2000 --workers 2 --out parity.jsonl
    python benchmarks/bench_core_parity.py --seed-base 90000 --games 200   # fresh seeds
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

KINDS = ("random", "greedy", "explore", "search")
VARIANTS: dict[str, list[dict[str, bool]]] = {
    "birmingham": [{}, {}, {"introductory": True}],
    "lancashire": [{}, {"virtual_link": True}, {"classic_deck": True}],
}


def game_plan(index: int, seed_base: int) -> dict[str, Any]:
    """Game ``index`` of a campaign: its edition, players, player kind, variant and seed."""
    edition = ("birmingham", "lancashire")[index % 2]
    players = 2 + (index // 2) % 3
    kind = KINDS[(index // 6) % len(KINDS)]
    options = VARIANTS[edition][(index // 24) % 3]
    if options.get("classic_deck") and players == 2:
        options = {}
    return {
        "index": index,
        "edition": edition,
        "players": players,
        "kind": kind,
        "options": options,
        "seed": seed_base + index,
    }


def run_game(plan: dict[str, Any], successors: int) -> dict[str, Any]:
    import random

    from core_parity import check_game, random_chooser

    from brass_stats.bots.exploring import ExploringBot
    from brass_stats.bots.greedy import GreedyBot
    from brass_stats.bots.search import SearchBot

    bots = {"greedy": GreedyBot, "explore": lambda: ExploringBot(0.3), "search": lambda: SearchBot(simulations=8)}
    if plan["kind"] == "random":
        chooser = random_chooser
    else:
        bot = bots[plan["kind"]]()

        def chooser(state: Any, legal: Any, rng: random.Random) -> Any:
            return bot.choose(state, legal, rng)

    count, found = check_game(
        plan["edition"], plan["players"], plan["seed"], chooser, plan["options"] or None, successors
    )
    return {**plan, "positions": count, "successors": successors, "disagreements": [str(d) for d in found[:20]]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed-base", type=int, default=50_000, help="game i uses seed seed_base + i")
    p.add_argument("--successors", type=int, default=2, help="legal actions applied on both sides per position")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=Path("core-parity.jsonl"))
    args = p.parse_args()
    done: dict[int, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("seed") == args.seed_base + rec["index"]:
                done[rec["index"]] = rec
    todo = [game_plan(i, args.seed_base) for i in range(args.games) if i not in done]
    with args.out.open("a") as out, ProcessPoolExecutor(args.workers) as pool:
        for rec in pool.map(run_game, todo, [args.successors] * len(todo)):
            done[rec["index"]] = rec
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if rec["disagreements"]:
                print(f"game {rec['index']}: {rec['disagreements'][0]}", flush=True)
    recs = [done[i] for i in range(args.games) if i in done]
    positions = sum(r["positions"] for r in recs)
    bad = sum(len(r["disagreements"]) for r in recs)
    by: dict[str, int] = {}
    for r in recs:
        key = f"{r['edition']} {r['players']}p {r['kind']}"
        by[key] = by.get(key, 0) + r["positions"]
    print(
        f"{len(recs)} games, {positions:,} positions compared "
        f"(up to {args.successors} successors each), {bad} disagreements"
    )
    for key in sorted(by):
        print(f"  {key}: {by[key]:,} positions")


if __name__ == "__main__":
    main()
