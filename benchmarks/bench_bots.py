"""Measure the self-play bots: strength and corpus-generation speed.

1. K seeded 4-player games, all greedy: mean VP per player and mean winning VP.
2. M seeded 2-player games, greedy against random, seats alternating: greedy's win
   rate (a draw is not a win).
3. Time to generate G 4-player greedy games with each worker count, extrapolated
   to 1,000 games.

Every game is written with :func:`brass_stats.bots.selfplay.generate` (so this is
also what ``brass-stats selfplay`` costs) and scored from the logs' declared
results. Example::

    python benchmarks/bench_bots.py --games4 200 --games2 200 --timing-games 20 --timing-workers 1,2

Run with ``--json FILE`` to keep the numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from brass_stats.analysis.statistics.win_rates import wilson
from brass_stats.bots.selfplay import generate
from brass_stats.log.format import GameLog


def finals(paths: list[Path]) -> list[list[dict[str, Any]]]:
    """The declared final standings of each game (rows in seat order)."""
    out = []
    for p in paths:
        result = GameLog.load(p).result
        assert result is not None, f"{p} has no result"
        out.append(sorted(result["final"], key=lambda r: r["seat"]))
    return out


def timed_generate(
    n: int, players: int, seed: int, bots: list[str], out: Path, workers: int
) -> tuple[list[Path], float]:
    start = time.perf_counter()
    # a game the engine cannot finish is left out (with a warning) and counted, not fatal
    paths = generate(n, players, seed, bots, out, workers=workers, progress=sys.stderr.isatty(), skip_errors=True)
    return paths, time.perf_counter() - start


def four_player(k: int, seed: int, workers: int, out: Path) -> dict[str, Any]:
    paths, seconds = timed_generate(k, 4, seed, ["greedy"], out / "4p", workers)
    games = finals(paths)
    vps = [r["vp"] for g in games for r in g]
    winners = [max(r["vp"] for r in g) for g in games]
    return {
        "games": len(games),
        "skipped": k - len(games),
        "seed": seed,
        "workers": workers,
        "mean_vp_per_player": statistics.fmean(vps),
        "sd_vp_per_player": statistics.pstdev(vps),
        "mean_winning_vp": statistics.fmean(winners),
        "min_vp": min(vps),
        "max_vp": max(vps),
        "share_below_50_vp": sum(v < 50 for v in vps) / len(vps),
        "seconds": seconds,
        "seconds_per_game": seconds / k,
    }


def two_player(m: int, seed: int, workers: int, out: Path) -> dict[str, Any]:
    first = (m + 1) // 2  # greedy in seat 0
    a, sa = timed_generate(first, 2, seed, ["greedy", "random"], out / "2p-greedy-first", workers)
    b, sb = timed_generate(m - first, 2, seed + 1, ["random", "greedy"], out / "2p-greedy-second", workers)
    wins = draws = 0
    greedy_vp: list[int] = []
    random_vp: list[int] = []
    for seat, games in ((0, finals(a)), (1, finals(b))):
        for g in games:
            me, other = g[seat], g[1 - seat]
            wins += me["rank"] == 1 and other["rank"] == 2
            draws += me["rank"] == other["rank"]
            greedy_vp.append(me["vp"])
            random_vp.append(other["vp"])
    n = len(greedy_vp)
    lo, hi = wilson(wins, n)
    return {
        "games": n,
        "skipped": m - n,
        "seeds": [seed, seed + 1],
        "greedy_wins": wins,
        "draws": draws,
        "greedy_win_rate": wins / n,
        "win_rate_95ci": [lo, hi],
        "greedy_mean_vp": statistics.fmean(greedy_vp),
        "random_mean_vp": statistics.fmean(random_vp),
        "greedy_zero_vp_games": sum(v == 0 for v in greedy_vp),
        "seconds": sa + sb,
    }


def timing(g: int, seed: int, workers: list[int], out: Path) -> list[dict[str, Any]]:
    rows = []
    for w in workers:
        paths, seconds = timed_generate(g, 4, seed, ["greedy"], out / f"timing-w{w}", w)
        rows.append(
            {
                "workers": w,
                "games": g,
                "finished": len(paths),
                "seconds": seconds,
                "seconds_per_game": seconds / g,
                "extrapolated_seconds_per_1000_games": seconds / g * 1000,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games4", type=int, default=40, help="K: 4-player greedy games for VP statistics")
    ap.add_argument("--games2", type=int, default=40, help="M: 2-player greedy-vs-random games for the win rate")
    ap.add_argument("--timing-games", type=int, default=10, help="G: 4-player games per timing run")
    ap.add_argument("--timing-workers", default="1,2", help="worker counts to time, comma-separated")
    ap.add_argument("--workers", type=int, default=2, help="workers for the K and M games")
    ap.add_argument("--seed", type=int, default=2024, help="corpus seed (the 2-player runs use seed and seed+1)")
    ap.add_argument("--out", type=Path, default=None, help="keep the generated games here (default: a temp dir)")
    ap.add_argument("--json", type=Path, default=None, help="write the report here")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-bots-") as tmp:
        out = args.out or Path(tmp)
        report: dict[str, Any] = {}
        if args.games4 > 0:
            report["four_player_greedy"] = r4 = four_player(args.games4, args.seed, args.workers, out)
            print(
                f"4p greedy x{r4['games']}: mean VP/player {r4['mean_vp_per_player']:.1f} "
                f"(sd {r4['sd_vp_per_player']:.1f}, min {r4['min_vp']}, max {r4['max_vp']}), "
                f"mean winning VP {r4['mean_winning_vp']:.1f}; {r4['seconds_per_game']:.2f} s/game "
                f"with {r4['workers']} workers; {r4['skipped']} skipped"
            )
        if args.games2 > 0:
            report["two_player_greedy_vs_random"] = r2 = two_player(args.games2, args.seed, args.workers, out)
            lo, hi = r2["win_rate_95ci"]
            print(
                f"2p greedy vs random x{r2['games']}: greedy wins {r2['greedy_wins']} "
                f"({r2['greedy_win_rate']:.1%}, 95% CI {lo:.1%}-{hi:.1%}), draws {r2['draws']}; "
                f"mean VP greedy {r2['greedy_mean_vp']:.1f}, random {r2['random_mean_vp']:.1f}; "
                f"greedy scored 0 in {r2['greedy_zero_vp_games']} games; {r2['skipped']} skipped"
            )
        if args.timing_games > 0:
            workers = [int(w) for w in args.timing_workers.split(",") if w.strip()]
            report["timing_4p_greedy"] = rows = timing(args.timing_games, args.seed + 7, workers, out)
            for row in rows:
                print(
                    f"timing: {row['games']} 4p greedy games with {row['workers']} worker(s): "
                    f"{row['seconds']:.1f} s -> "
                    f"{row['extrapolated_seconds_per_1000_games'] / 60:.1f} min per 1,000 games"
                )
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
