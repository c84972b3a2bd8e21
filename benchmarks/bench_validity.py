"""Does the review's accuracy track skill? Bots of known strength, seats rotated, 95% intervals.

Four-player Birmingham games between bots of known order of strength, each game reviewed in full
(``review_game`` at ``--sims`` simulations a judged action), every seat's accuracy computed under
several measures of move quality from the same reviews:

* ``review``: the review's own accuracy (the sure loss in VP of expected margin, ``docs/analysis.md``);
* ``margin``: the same from the judge's raw loss: the mover's expected final VP minus its opponents'
  mean, from the expected-final-VP model, after each compared action;
* ``win``: the mover's win probability (lichess's measure, the review's measure before);
* ``blend``: the margin plus the win probability valued at 50 VP per player (a contender's slip also
  counts what it costs in chances to win);
* ``own_vp``: the mover's expected final VP alone;
* ``agree``: the share of judged actions that are the best compared action by ``margin``.

Sets of seats (``--set``):

* ``degraded``: ``greedy``, ``greedy:explore=0.1``, ``0.3``, ``0.5`` (a random action with that
  probability): accuracy must fall in that order;
* ``budgets``: ``mcts:sims=400``, ``mcts:sims=50``, ``greedy``, ``greedy``: accuracy must fall in
  that order.

Game ``i`` of a set uses the self-play seed ``game_seed(--seed, i)`` and the seats rotated by ``i``
(every bot plays every seat equally often over 4 games). Reported per measure: each bot's mean
accuracy; each step's mean paired difference (the two bots' accuracies in the same game) with a 95%
t-interval over games; the Spearman rank correlation between a seat's accuracy and its final VP over
all seat-games. Each finished game is appended to ``--records`` (JSON lines) as it finishes; a run
skips the games already there, so a killed run resumes, and ``--time-limit`` stops starting new games.

**Real games** (``--real FILE ...``, e.g. the shipped ``replays/real/*.json``), each reviewed as
played: every player's accuracy (people and the server's bots told apart by the log's
``source.bots``); the eventual winner's mean log loss over the game (``-log`` of the chart's
probability of the winner after each action) beside the uniform ``log N``; the lowest probability the
chart gives the winner from the last round on; the share of the people's judged actions that are the
search's first choice and among its three most visited (agreement with people).

Example (figures in ``docs/analysis.md``)::

    python benchmarks/bench_validity.py --set degraded --games 100 --workers 16 --records deg.jsonl
    python benchmarks/bench_validity.py --set degraded --records deg.jsonl --games 0   # report only
    python benchmarks/bench_validity.py --real replays/real/*.json --records real.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from brass_stats.analysis.review import review_game
from brass_stats.analysis.review.judgement import game_accuracy, margin_accuracy
from brass_stats.bots.selfplay import play_selfplay_game
from brass_stats.bots.value.final_vp import margins
from brass_stats.tasks import ProgressBar, run_tasks

SETS: dict[str, tuple[str, ...]] = {
    "degraded": ("greedy", "greedy:explore=0.1", "greedy:explore=0.3", "greedy:explore=0.5"),
    "budgets": ("mcts:sims=400", "mcts:sims=50", "greedy", "greedy"),
}
MEASURES = ("review", "margin", "win", "blend", "own_vp", "agree")
BLEND_VP_PER_PLAYER = 50.0
"""``blend``: the margin plus the win probability valued at 50 VP per player (a sure win = 100 VP at two
players, 200 at four: a win probability loss at lichess's blunder threshold, 15 points x 2/N, is worth a
15 VP blunder of margin)."""


def seats_of(bots: Sequence[str], index: int) -> list[str]:
    """Game ``index``'s seats: the bots rotated by ``index``."""
    k = index % len(bots)
    return list(bots[k:]) + list(bots[:k])


def play_and_review(set_name: str, index: int, seed: int, sims: int) -> dict[str, Any]:
    """One game of a set, played and reviewed; the record the report needs (JSON-able)."""
    bots = seats_of(SETS[set_name], index)
    t0 = time.process_time()
    log = play_selfplay_game(seed, index, bots)
    played = time.process_time() - t0
    review = review_game(log, simulations=sims, seed=seed)
    final = {row["seat"]: row["vp"] for row in (log.result or {})["final"]}
    actions = [
        {"seat": a.seat, "loss": a.loss, "label": a.label, "compared": [list(map(list, c)) for c in a.compared]}
        for a in review.actions
        if a.judged
    ]
    summary = {p.seat: p.accuracy for p in review.summary}
    return {
        "set": set_name,
        "index": index,
        "bots": bots,
        "final_vp": [final[s] for s in range(len(bots))],
        "accuracy": [summary[s] for s in range(len(bots))],
        "actions": actions,
        "cpu_play": played,
        "cpu_review": time.process_time() - t0 - played,
    }


def seat_accuracies(record: dict[str, Any]) -> dict[str, list[float | None]]:
    """Each seat's accuracy in one game under every measure (recomputed from the compared values)."""
    n = len(record["bots"])
    losses: dict[str, list[list[float]]] = {m: [[] for _ in range(n)] for m in MEASURES}
    for a in record["actions"]:
        s = a["seat"]
        win = [c[0][s] for c in a["compared"]]
        vp = [c[1][s] for c in a["compared"]]
        margin = [margins(c[1])[s] for c in a["compared"]]
        blend = [m + BLEND_VP_PER_PLAYER * n * w for m, w in zip(margin, win, strict=True)]
        losses["blend"][s].append(max(blend) - blend[0])
        losses["win"][s].append(max(win) - win[0])
        losses["own_vp"][s].append(max(vp) - vp[0])
        losses["margin"][s].append(max(margin) - margin[0])
        losses["agree"][s].append(0.0 if margin[0] >= max(margin) - 1e-9 else 1.0)
    out: dict[str, list[float | None]] = {"review": list(record["accuracy"])}
    for m in MEASURES[1:]:
        if m == "win":
            out[m] = [game_accuracy(x, n) for x in losses[m]]
        elif m == "agree":
            out[m] = [100 * (1 - statistics.fmean(x)) if x else None for x in losses[m]]
        else:
            out[m] = [statistics.fmean(map(margin_accuracy, x)) if x else None for x in losses[m]]
    return out


def t_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% t-interval (normal quantile past 30 values)."""
    n = len(xs)
    mean = statistics.fmean(xs)
    if n < 2:
        return mean, float("nan"), float("nan")
    from scipy.stats import t

    half = float(t.ppf(0.975, n - 1)) * statistics.stdev(xs) / math.sqrt(n)
    return mean, mean - half, mean + half


def report(records: list[dict[str, Any]], set_name: str) -> dict[str, Any]:
    from scipy.stats import spearmanr

    bots = list(dict.fromkeys(SETS[set_name]))
    out: dict[str, Any] = {"set": set_name, "games": len(records), "measures": {}}
    per_game = [(r, seat_accuracies(r)) for r in records]
    for m in MEASURES:
        by_bot: dict[str, list[float]] = defaultdict(list)
        pairs: list[tuple[float, float]] = []
        game_means: list[dict[str, float]] = []
        for r, acc in per_game:
            mine: dict[str, list[float]] = defaultdict(list)
            for seat, bot in enumerate(r["bots"]):
                a = acc[m][seat]
                if a is not None:
                    by_bot[bot].append(a)
                    mine[bot].append(a)
                    pairs.append((a, r["final_vp"][seat]))
            game_means.append({b: statistics.fmean(v) for b, v in mine.items()})
        steps = []
        for hi, lo in zip(bots, bots[1:], strict=False):
            diffs = [g[hi] - g[lo] for g in game_means if hi in g and lo in g]
            mean, low, high = t_interval(diffs) if diffs else (float("nan"),) * 3
            steps.append({"better": hi, "worse": lo, "diff": mean, "low": low, "high": high, "games": len(diffs)})
        rho = spearmanr([p[0] for p in pairs], [p[1] for p in pairs]).statistic if len(pairs) > 2 else float("nan")
        out["measures"][m] = {
            "mean": {b: statistics.fmean(by_bot[b]) for b in bots if by_bot[b]},
            "steps": steps,
            "spearman_accuracy_vp": float(rho),
        }
    out["final_vp"] = {
        b: statistics.fmean(r["final_vp"][s] for r in records for s, x in enumerate(r["bots"]) if x == b)
        for b in bots
        if records
    }
    out["cpu_per_game"] = {
        "play": statistics.fmean(r["cpu_play"] for r in records) if records else 0.0,
        "review": statistics.fmean(r["cpu_review"] for r in records) if records else 0.0,
    }
    return out


def review_real(path: str, seed: int, sims: int) -> dict[str, Any]:
    """One real game reviewed as played; the figures of the module docstring."""
    from brass_stats import AS_PLAYED, load, replay

    log = load(path)
    r = replay(log, AS_PLAYED)
    review = review_game(r, AS_PLAYED, simulations=sims, seed=seed)
    n = len(log.players)
    vps = [p.vp for p in r.state.players]
    winner = max(range(n), key=lambda s: vps[s])
    bots = list((log.source or {}).get("bots") or [None] * n)
    last_round_from = len(r.steps) - _last_round_actions(r)
    win_p = [a.win_after[winner] for a in review.actions]
    judged = [a for a in review.actions if a.judged]
    people = [a for a in judged if bots[a.seat] is None]
    return {
        "file": Path(path).name,
        "players": list(log.players),
        "bot": [b is not None for b in bots],
        "final_vp": vps,
        "winner": winner,
        "margin_of_victory": vps[winner] - max(v for s, v in enumerate(vps) if s != winner),
        "accuracy": [p.accuracy for p in review.summary],
        "win_accuracy": [game_accuracy([a.win_loss or 0.0 for a in judged if a.seat == s], n) for s in range(n)],
        "winner_log_loss": statistics.fmean(-math.log(max(p, 1e-6)) for p in win_p),
        "uniform_log_loss": math.log(n),
        "winner_lowest_from_last_round": min(win_p[last_round_from:]),
        "people_first_choice": sum(a.search_rank == 0 for a in people) / len(people) if people else None,
        "people_top3": sum(a.search_rank is not None and a.search_rank < 3 for a in people) / len(people)
        if people
        else None,
        "people_judged": len(people),
    }


def _last_round_actions(r: Any) -> int:
    """How many actions the game's last round holds (counted back from the end of the replay)."""
    last = r.state_at(len(r.steps) - 1)
    k = 0
    for i in range(len(r.steps) - 1, -1, -1):
        s = r.state_at(i - 1)
        if (s.era, s.era_round) != (last.era, last.era_round) and not s.game_over:
            break
        k += 1
    return k


def print_real(records: list[dict[str, Any]]) -> None:
    for g in records:
        who = ", ".join(
            f"{name} ({'bot' if bot else 'person'}) {vp} VP, accuracy {acc:.1f}"
            for name, bot, vp, acc in zip(g["players"], g["bot"], g["final_vp"], g["accuracy"], strict=True)
        )
        print(f"{g['file']}: {who}")
        print(
            f"  winner {g['players'][g['winner']]} by {g['margin_of_victory']} VP: log loss {g['winner_log_loss']:.3f}"
            f" (uniform {g['uniform_log_loss']:.3f}); lowest from the last round on "
            f"{g['winner_lowest_from_last_round']:.2f}"
        )
        if g["people_first_choice"] is not None:
            print(
                f"  people's judged actions: {g['people_judged']}, the search's first choice "
                f"{100 * g['people_first_choice']:.0f}%, among its three most visited {100 * g['people_top3']:.0f}%"
            )


def print_report(rep: dict[str, Any]) -> None:
    print(
        f"set {rep['set']}: {rep['games']} games; mean final VP "
        + ", ".join(f"{b} {v:.1f}" for b, v in rep.get("final_vp", {}).items())
    )
    for m, r in rep["measures"].items():
        means = ", ".join(f"{b} {v:.1f}" for b, v in r["mean"].items())
        print(f"  {m:7s} accuracy: {means}; Spearman(accuracy, final VP) {r['spearman_accuracy_vp']:.2f}")
        for s in r["steps"]:
            ok = "above 0" if s["low"] > 0 else "NOT above 0"
            print(
                f"           {s['better']} - {s['worse']}: {s['diff']:+.2f} (95% {s['low']:+.2f} .. {s['high']:+.2f}, "
                f"{s['games']} games) {ok}"
            )
    c = rep["cpu_per_game"]
    print(f"  CPU s per game: play {c['play']:.1f}, review {c['review']:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=sorted(SETS), default="degraded")
    ap.add_argument("--games", type=int, default=100, help="games of the set (0: report the records only)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--sims", type=int, default=None, help="review budget (default: the review's default)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--records", type=Path, required=True, help="JSON lines: one finished game each (resumable)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds after which no new game starts")
    ap.add_argument("--json", type=Path, default=None, help="write the report here")
    ap.add_argument("--real", nargs="+", default=None, help="review these real games instead of a set")
    args = ap.parse_args(argv)
    from brass_stats.analysis.review import DEFAULT_SIMULATIONS

    sims = args.sims or DEFAULT_SIMULATIONS
    if args.real:
        calls = [(path, args.seed, sims) for path in args.real]
        with args.records.open("w", encoding="utf-8") as f:
            for record in run_tasks(review_real, calls, workers=args.workers):
                f.write(json.dumps(record) + "\n")
        print_real([json.loads(x) for x in args.records.read_text("utf-8").splitlines()])
        return 0
    done = set()
    if args.records.exists():
        for line in args.records.read_text("utf-8").splitlines():
            r = json.loads(line)
            if r["set"] == args.set:
                done.add(r["index"])
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    start = time.monotonic()

    def calls() -> Any:
        for i in todo:
            if args.time_limit is not None and time.monotonic() - start > args.time_limit:
                return
            yield (args.set, i, args.seed, sims)

    with ProgressBar(f"{args.set} games", total=len(todo)) as bar, args.records.open("a", encoding="utf-8") as f:
        for record in run_tasks(play_and_review, calls(), workers=args.workers, progress=bar, per_worker=1):
            f.write(json.dumps(record) + "\n")
            f.flush()
    records = [json.loads(x) for x in args.records.read_text("utf-8").splitlines()]
    records = [r for r in records if r["set"] == args.set]
    rep = report(records, args.set)
    print_report(rep)
    if args.json:
        args.json.write_text(json.dumps(rep, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
