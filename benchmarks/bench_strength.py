"""Strength of the bots: one focus bot against the others, seats rotated, with 95% intervals.

Each row plays ``--games`` seeded games of one edition and player count: the focus bot in one
seat, the opponent bot in every other seat. Game ``i`` puts the focus bot in seat
``i % players`` (so each seat position is played equally often when ``--games`` is a multiple
of the player count) and uses the game seed ``game_seed(--seed, i)`` of
:mod:`brass_stats.bots.selfplay` (deal, turn order and the bots' randomness). It prints, per row:
the focus bot's win rate (a shared first place counts as a fraction) with its 95% Wilson interval,
the mean VP of the winner, and the focus bot's CPU seconds per decision (decisions with one legal
action included; CPU rather than wall time, so that a busy machine does not inflate it).

Bots are given by spec (:mod:`brass_stats.bots.specs`): ``random``, ``greedy``, ``mcts`` (default
budget) or ``mcts:KEY=VALUE:...`` with the :class:`~brass_stats.bots.search.SearchBot` knobs
(``sims``, ``seconds``, ``c_ucb``, ``pw_c``, ``pw_alpha``, ``rollout_depth``, ``max_depth``) and
``temp`` (the leaf softmax temperature).
Example (the numbers in the docs)::

    python benchmarks/bench_strength.py --games 40 --players 2 --editions birmingham,lancashire \\
        --focus mcts:sims=100 --opponent greedy --workers 2

Tune on other seeds (``--seed``) than the ones you report. ``--json FILE`` keeps the rows, with each
game's share of the win, so that a row can be extended later with ``--first N`` (games ``N`` on) and
the two pooled.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from brass_stats.analysis.statistics.win_rates import wilson
from brass_stats.bots import Agent, play_game
from brass_stats.bots.selfplay import game_seed
from brass_stats.bots.specs import make_bot
from brass_stats.engine import apply_action, new_game
from brass_stats.engine.scoring import standings
from brass_stats.engine.state import GameState


class Timed:
    """An agent that counts its decisions and the time they take."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, state: GameState, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        start = time.process_time()  # CPU time: the machine may be shared
        action = self.agent.choose(state, legal_actions, rng)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return action


@dataclass(frozen=True)
class Game:
    share: float  # the focus bot's share of first place (1, 1/k for a k-way tie, or 0)
    winning_vp: int
    seconds: float
    decisions: int


def play_one(args: tuple[str, int, str, str, int, int]) -> Game:
    try:
        return _play_one(*args)
    except Exception as e:  # raised again in the parent, which may not unpickle every exception type
        raise RuntimeError(f"game {args}: {type(e).__name__}: {e}\n{traceback.format_exc()}") from None


def _play_one(edition: str, players: int, focus: str, opponent: str, seed: int, index: int) -> Game:
    seat = index % players
    timed = Timed(make_bot(focus))
    agents: list[Agent] = [timed if s == seat else make_bot(opponent) for s in range(players)]
    log = play_game(agents, seed=game_seed(seed, index), edition=edition)
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    for a in log.actions:
        state, _ = apply_action(state, a)
    ranks = standings(state)
    first = [r.seat for r in ranks if r.rank == 1]
    share = 1.0 / len(first) if seat in first else 0.0
    return Game(share, max(r.vp for r in ranks), timed.seconds, timed.decisions)


def run_row(
    edition: str, players: int, focus: str, opponent: str, games: int, seed: int, pool: Any, first: int = 0
) -> dict[str, Any]:
    tasks = [(edition, players, focus, opponent, seed, i) for i in range(first, first + games)]
    start = time.perf_counter()
    results: list[Game] = list(pool.imap(play_one, tasks) if pool is not None else map(play_one, tasks))
    wall = time.perf_counter() - start
    wins = sum(g.share for g in results)
    rate = wins / games
    lo, hi = wilson(wins, games)
    decisions = sum(g.decisions for g in results)
    return {
        "edition": edition,
        "players": players,
        "focus": focus,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "win_rate": rate,
        "ci95": [lo, hi],
        "par": 1 / players,
        "mean_winning_vp": statistics.fmean(g.winning_vp for g in results),
        "seconds_per_decision": sum(g.seconds for g in results) / decisions if decisions else 0.0,
        "decisions": decisions,
        "wall_seconds": wall,
        "seed": seed,
        "first": first,
        "shares": [g.share for g in results],  # per game, to pool rows played over other game indices
        "winning_vp": [g.winning_vp for g in results],
        "cpu_seconds": sum(g.seconds for g in results),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per row (default 40)")
    ap.add_argument("--editions", default="birmingham,lancashire")
    ap.add_argument("--players", default="2,4", help="player counts, comma-separated")
    ap.add_argument("--focus", action="append", help="focus bot spec (repeat for several rows; default mcts)")
    ap.add_argument("--opponent", default="greedy", help="the bot in every other seat")
    ap.add_argument("--seed", type=int, default=2026, help="corpus seed of the game seeds (default 2026)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to extend a row; default 0)")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args(argv)
    focus = args.focus or ["mcts"]
    for spec in [*focus, args.opponent]:
        make_bot(spec)  # fail early on a bad spec
    pool = multiprocessing.get_context("fork").Pool(args.workers) if args.workers > 1 else None
    rows = []
    head = f"{'edition':<11} {'p':>1} {'focus':<28} {'vs':<8} {'games':>5} {'win rate':>8} {'95% CI':>15} "
    print(head + f"{'par':>5} {'win VP':>7} {'s/dec':>7}")
    try:
        for edition in args.editions.split(","):
            for players in (int(p) for p in args.players.split(",")):
                for spec in focus:
                    row = run_row(edition, players, spec, args.opponent, args.games, args.seed, pool, args.first)
                    rows.append(row)
                    lo, hi = row["ci95"]
                    print(
                        f"{edition:<11} {players:>1} {spec:<28} {args.opponent:<8} {row['games']:>5} "
                        f"{row['win_rate']:>8.1%} {f'[{lo:.1%}, {hi:.1%}]':>15} {row['par']:>5.0%} "
                        f"{row['mean_winning_vp']:>7.1f} {row['seconds_per_decision']:>7.3f}",
                        flush=True,
                    )
    finally:
        if pool is not None:
            pool.close()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
