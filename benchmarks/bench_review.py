"""Does the game review find planted blunders, and how often does it cry wolf? Fixed seeds, 95% intervals.

**Planted blunders.** For each edition and player count, ``--games`` greedy self-play games (game
``i`` uses the self-play game seed ``game_seed(--seed, i)``). In each game one action is replaced by a
clearly worse legal one, of one of two kinds:

* ``pass``: an action of the last round (the game's final round) replaced by a pass (greedy's choice
  of the card to discard);
* ``worst``: an action of the Rail Era before its last round replaced by the legal action the greedy
  evaluation ranks last.

A replacement is planted only when it decides the game: from the position before it, the same bots
finish the game twice with the same random seed, once after the action played and once after the
planted one, and the mover's share of the win (1, 1/k for a k-way tie, 0) drops by at least a half
(it won and now loses or ties); and not by the luck of the deck: on average over three other samples
of the cards the mover cannot see (other hands, deck order), finished the same way, the drop is at
least a half too. Among the positions of a game where that holds, one of each kind is
drawn at random (seeded). The planted log (the prefix, the planted action, the bots' continuation)
is legal; only the planted action is reviewed (``Reviewer(...).review(index)``) and it counts as
found when it is labelled a mistake or a blunder. Games where no replacement decides the game (the
winner was far ahead) plant nothing of that kind; the table says how many plants each row holds.

**False alarms.** ``--fa-games`` games per edition between search bots (``SearchBot`` at
``--bot-simulations`` per decision in every seat, ``--fa-players`` players), every action reviewed:
the share of judged actions (those with more than one legal action) labelled blunder, and the same
share in the first ``--fa-games`` greedy games of that player count (for comparison). Actions of one
game are not independent, so the Wilson interval over actions is narrower than the truth.

Every review uses ``--simulations`` per judged action (default: the review's default budget) and the
review seed ``--seed``. Example (the numbers in ``docs/analysis.md``)::

    python benchmarks/bench_review.py --games 16 --fa-games 2 --workers 2

``--examples`` prints that many planted actions the review missed and false alarms; ``--json FILE``
keeps every record.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
import traceback
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from brass_stats.analysis.review import DEFAULT_SIMULATIONS, Reviewer, review_game
from brass_stats.analysis.statistics.win_rates import wilson
from brass_stats.bots import Agent, play_game
from brass_stats.bots.greedy import GreedyBot, board_key
from brass_stats.bots.search import SearchBot
from brass_stats.bots.search.candidates import rank
from brass_stats.bots.selfplay import game_seed
from brass_stats.engine.actions import Action, Pass
from brass_stats.engine.information import determinize
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import STRICT
from brass_stats.engine.scoring import win_shares
from brass_stats.engine.state import GameState
from brass_stats.engine.turn import apply_action
from brass_stats.errors import IllegalAction
from brass_stats.log.format import GameLog
from brass_stats.replay import replay
from brass_stats.replay.notation import describe_action

FOUND = ("mistake", "blunder")
KINDS = ("pass", "worst")
WORST_TRIES = 24  # Rail Era positions tried per game for a 'worst' plant
RESAMPLES = 3  # other decks on which a decisive replacement must also be decisive on average
DECISIVE = 0.5  # the drop in the mover's share of the win that makes a replacement decisive


def _seed(*parts: object) -> int:
    return random.Random(":".join(map(str, parts))).getrandbits(64)


def finish(
    state: GameState, first: Action, agents: Sequence[Agent], rng: random.Random
) -> tuple[list[Action], GameState]:
    """Apply ``first``, then let the bots play the game to its end; the resolved actions and the end."""
    state, done = apply_action(state, first)
    actions = [done]
    while not state.game_over:
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(state, legal_actions(state), rng)
        state, done = apply_action(state, action)
        actions.append(done)
    return actions, state


def planted_pass(state: GameState, played: Action, rng: random.Random) -> Action | None:
    """Greedy's pass (its choice of card to discard), unless the action played was a pass."""
    if isinstance(played, Pass):
        return None
    passes = [a for a in legal_actions(state) if isinstance(a, Pass)]
    return GreedyBot().choose(state, passes, rng) if passes else None


def planted_worst(state: GameState, played: Action, rng: random.Random) -> Action | None:
    """The legal action the greedy evaluation ranks last, unless it leads to the board played."""
    ranked = rank(state, legal_actions(state), GreedyBot())
    if len(ranked) < 2 or board_key(ranked[-1].action) == board_key(played):
        return None
    return ranked[-1].action


def plant_one(args: tuple[str, int, int, int, int]) -> dict[str, Any]:
    """One greedy game; at most one planted action of each kind, reviewed."""
    edition, players, seed, index, simulations = args
    start = time.process_time()
    gseed = game_seed(seed, index)
    agents = [GreedyBot() for _ in range(players)]
    names = [f"greedy-{s}" for s in range(players)]
    log = play_game(agents, seed=gseed, names=names, edition=edition)
    r = replay(log)
    last_round = [i for i in range(len(r.steps)) if _last_round(r.state_at(i - 1))]
    rail = [i for i in range(len(r.steps)) if r.state_at(i - 1).era == "rail" and not _last_round(r.state_at(i - 1))]
    pick = random.Random(_seed("plant", gseed))
    out: list[dict[str, Any]] = []
    skipped: list[str] = []
    for kind, positions, make in (
        ("pass", last_round, planted_pass),
        ("worst", rail, planted_worst),
    ):
        order = list(positions)
        pick.shuffle(order)
        if kind == "worst":
            order = order[:WORST_TRIES]
        for i in order:
            before = r.state_at(i - 1)
            played = r.steps[i].action
            seat = played.player
            bad = make(before, played, random.Random(_seed("card", gseed, i)))
            if bad is None:
                continue
            cont = _seed("finish", gseed, i)
            _, end_played = finish(before, played, agents, random.Random(cont))
            tail, end_planted = finish(before, bad, agents, random.Random(cont))
            share_played = win_shares(end_played)[seat]
            share_planted = win_shares(end_planted)[seat]
            if share_played - share_planted < DECISIVE - 1e-9:
                continue
            # not luck of this deck: the same on average over other decks the mover could have faced
            drops = []
            try:
                for k in range(RESAMPLES):
                    world = determinize(before, seat, random.Random(_seed("world", gseed, i, k)))
                    again = _seed("again", gseed, i, k)
                    a = win_shares(finish(world, played, agents, random.Random(again))[1])[seat]
                    b = win_shares(finish(world, bad, agents, random.Random(again))[1])[seat]
                    drops.append(a - b)
            except IllegalAction as e:
                skipped.append(f"{edition} {players}p game {index} action {i}: {e.rule}: {e.message}")
                continue
            if sum(drops) / RESAMPLES < DECISIVE - 1e-9:
                continue
            planted_log = GameLog.new(names, seed=gseed, edition=edition)
            planted_log.actions = [s.action for s in r.steps[:i]] + tail
            review = Reviewer(planted_log, STRICT, simulations, seed, None).review(i)
            out.append(
                {
                    "edition": edition,
                    "players": players,
                    "game": index,
                    "kind": kind,
                    "index": i,
                    "round": f"{before.era} {before.era_round}",
                    "played": describe_action(played, before.rules, names),
                    "planted": review.action,
                    "share_played": share_played,
                    "share_planted": share_planted,
                    "resampled_drop": sum(drops) / RESAMPLES,
                    "label": review.label,
                    "loss": review.loss,
                    "best": review.best,
                    "best_value": review.best_value,
                    "played_value": review.played_value,
                    "found": review.label in FOUND,
                    "log": planted_log.to_json(),
                }
            )
            break
    return {
        "edition": edition,
        "players": players,
        "game": index,
        "plants": out,
        "skipped": skipped,
        "cpu_seconds": time.process_time() - start,
    }


def _last_round(state: GameState) -> bool:
    return state.era == "rail" and state.is_last_round_of_era and not state.game_over


def review_all(args: tuple[str, str, int, int, int, int, int]) -> dict[str, Any]:
    """One game (search bots or greedy), every action reviewed."""
    bots, edition, players, seed, index, bot_simulations, simulations = args
    start = time.process_time()
    if bots == "mcts":
        gseed = game_seed(seed + 1, index)
        agents: list[Agent] = [SearchBot(simulations=bot_simulations) for _ in range(players)]
    else:
        gseed = game_seed(seed, index)  # the planted-blunder games' seeds
        agents = [GreedyBot() for _ in range(players)]
    names = [f"{bots}-{s}" for s in range(players)]
    log = play_game(agents, seed=gseed, names=names, edition=edition)
    played = time.process_time()
    review = review_game(log, STRICT, simulations, seed)
    judged = [a for a in review.actions if a.judged]
    return {
        "bots": bots,
        "edition": edition,
        "players": players,
        "game": index,
        "actions": len(review.actions),
        "judged": len(judged),
        "labels": {lab: sum(a.label == lab for a in judged) for lab in ("inaccuracy", "mistake", "blunder")},
        "accuracy": [p.accuracy for p in review.summary],
        "blunders": [
            {
                "index": a.index,
                "action": a.action,
                "best": a.best,
                "played_value": a.played_value,
                "best_value": a.best_value,
                "loss": a.loss,
            }
            for a in judged
            if a.label == "blunder"
        ],
        "log": log.to_json(),
        "play_cpu_seconds": played - start,
        "review_cpu_seconds": time.process_time() - played,
    }


def guarded(task: tuple[str, tuple[Any, ...]]) -> dict[str, Any]:
    """Run one task; an exception becomes a record (with its traceback) rather than a lost run."""
    name, args = task
    try:
        return {"task": name, **TASKS[name](args)}
    except Exception:
        return {"task": name, "args": list(args), "error": traceback.format_exc()}


TASKS: dict[str, Any] = {}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=16, help="greedy games per edition and player count (default 16)")
    ap.add_argument("--editions", default="birmingham,lancashire")
    ap.add_argument("--players", default="2,3,4", help="player counts of the planted blunders")
    ap.add_argument("--fa-games", type=int, default=2, help="search-bot games per edition (default 2)")
    ap.add_argument("--fa-players", type=int, default=2, help="players in the search-bot games (default 2)")
    ap.add_argument("--bot-simulations", type=int, default=200, help="the search bots' budget (default 200)")
    ap.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS, help="the review's budget per action")
    ap.add_argument("--seed", type=int, default=2026, help="game and review seed (default 2026)")
    ap.add_argument("--workers", type=int, default=1, help="processes running games in parallel")
    ap.add_argument("--examples", type=int, default=5, help="misses and false alarms to print (default 5)")
    ap.add_argument("--json", help="write every record to this file, one JSON object a line, as they come")
    args = ap.parse_args(argv)
    editions = args.editions.split(",")
    player_counts = [int(p) for p in args.players.split(",")]
    tasks: list[tuple[str, tuple[Any, ...]]] = [
        ("review", (bots, e, args.fa_players, args.seed, i, args.bot_simulations, args.simulations))
        for bots in ("mcts", "greedy")
        for e in editions
        for i in range(args.fa_games)
    ]  # the long tasks first
    tasks += [
        ("plant", (e, n, args.seed, i, args.simulations))
        for e in editions
        for n in player_counts
        for i in range(args.games)
    ]
    pool = multiprocessing.get_context("fork").Pool(args.workers) if args.workers > 1 else None
    wall = time.perf_counter()
    records: list[dict[str, Any]] = []
    out = open(args.json, "w") if args.json else None  # noqa: SIM115 (written as results come)
    try:
        results = pool.imap_unordered(guarded, tasks) if pool is not None else map(guarded, tasks)
        for record in results:
            records.append(record)
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
            print(f"{len(records)}/{len(tasks)} tasks", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
        if out is not None:
            out.close()
    wall = time.perf_counter() - wall
    errors = [r for r in records if "error" in r]
    plants = [p for r in records if r["task"] == "plant" and "error" not in r for p in r["plants"]]
    fa = [r for r in records if r["task"] == "review" and "error" not in r]
    print_planted(plants, args.games, editions, player_counts)
    skipped = [s for r in records if r["task"] == "plant" and "error" not in r for s in r["skipped"]]
    if skipped:
        print(f"positions skipped (an action illegal in a resampled world): {len(skipped)}; first: {skipped[0]}")
    print()
    print_false_alarms(fa, args)
    print_examples(plants, fa, args.examples)
    for e in errors:
        print(f"\ntask {e['task']} {e['args']} failed:\n{e['error']}")
    cpu = sum(
        r.get("cpu_seconds", 0.0) + r.get("play_cpu_seconds", 0.0) + r.get("review_cpu_seconds", 0.0) for r in records
    )
    print(f"\nwall {wall:.0f} s; CPU in the tasks {cpu:.0f} s; {len(errors)} task(s) failed")
    return 1 if errors else 0


def print_planted(plants: list[dict[str, Any]], games: int, editions: list[str], player_counts: list[int]) -> None:
    print(f"Planted blunders ({games} greedy games per edition and player count; found = mistake or blunder)")
    print(f"{'players':<8} {'kind':<6} {'plants':>6} {'found':>6} {'rate':>7} {'95% CI':>16} {'median loss':>11}")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for p in plants:
        groups[(str(p["players"]), p["kind"])].append(p)
        groups[(str(p["players"]), "all")].append(p)
        groups[("all", p["kind"])].append(p)
        groups[("all", "all")].append(p)
    for n in [*map(str, player_counts), "all"]:
        for kind in (*KINDS, "all"):
            rows = groups.get((n, kind), [])
            k = sum(p["found"] for p in rows)
            lo, hi = wilson(k, len(rows))
            losses = sorted(p["loss"] or 0.0 for p in rows)
            med = losses[len(losses) // 2] if losses else float("nan")
            rate = k / len(rows) if rows else float("nan")
            print(f"{n:<8} {kind:<6} {len(rows):>6} {k:>6} {rate:>7.1%} {f'[{lo:.1%}, {hi:.1%}]':>16} {med:>11.3f}")
    per_edition = {e: [p for p in plants if p["edition"] == e] for e in editions}
    print("per edition: " + ", ".join(f"{e} {sum(p['found'] for p in ps)}/{len(ps)}" for e, ps in per_edition.items()))


def print_false_alarms(fa: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(
        f"Labels in reviewed games ({args.fa_players} players; search bots at {args.bot_simulations} simulations "
        f"per decision; review at {args.simulations})"
    )
    print(
        f"{'bots':<7} {'edition':<11} {'games':>5} {'judged':>6} {'blunders':>8} {'share':>6} {'95% CI':>15} "
        f"{'mistakes':>8} {'inacc.':>6} {'accuracy':>8}"
    )
    for bots in ("mcts", "greedy"):
        for edition in [*dict.fromkeys(f["edition"] for f in fa), "all"]:
            rows = [f for f in fa if f["bots"] == bots and edition in (f["edition"], "all")]
            if not rows:
                continue
            judged = sum(f["judged"] for f in rows)
            blunders = sum(f["labels"]["blunder"] for f in rows)
            lo, hi = wilson(blunders, judged)
            acc = [a for f in rows for a in f["accuracy"] if a is not None]
            print(
                f"{bots:<7} {edition:<11} {len(rows):>5} {judged:>6} {blunders:>8} "
                f"{blunders / max(judged, 1):>6.1%} {f'[{lo:.1%}, {hi:.1%}]':>15} "
                f"{sum(f['labels']['mistake'] for f in rows):>8} {sum(f['labels']['inaccuracy'] for f in rows):>6} "
                f"{sum(acc) / max(len(acc), 1):>8.1f}"
            )


def print_examples(plants: list[dict[str, Any]], fa: list[dict[str, Any]], count: int) -> None:
    if count <= 0:
        return
    missed = [p for p in plants if not p["found"]]
    if missed:
        print(f"\nPlanted actions not flagged (first {min(count, len(missed))} of {len(missed)}):")
        for p in missed[:count]:
            print(
                f"  {p['edition']} {p['players']}p game {p['game']} action {p['index'] + 1} ({p['round']}), "
                f"{p['kind']}: played {p['played']!r}, planted {p['planted']!r}; share {p['share_played']:.2f} -> "
                f"{p['share_planted']:.2f}; review: {p['label']}, loss {p['loss']}, best {p['best']!r} "
                f"({p['best_value']}) vs planted ({p['played_value']})"
            )
    alarms = [(f, b) for f in fa if f["bots"] == "mcts" for b in f["blunders"]]
    if alarms:
        print(f"\nBlunders in search-bot games (first {min(count, len(alarms))} of {len(alarms)}):")
        for f, b in alarms[:count]:
            print(
                f"  {f['edition']} game {f['game']} action {b['index'] + 1}: {b['action']!r}, best {b['best']!r}; "
                f"{b['played_value']:.3f} vs {b['best_value']:.3f} (loss {b['loss']:.3f})"
            )


TASKS.update(plant=plant_one, review=review_all)

if __name__ == "__main__":
    sys.exit(main())
