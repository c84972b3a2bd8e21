"""How good is the win-probability model on held-out games? Log loss, Brier score and calibration.

Scores the shipped model (or, with ``--rebuild``, a model trained from scratch by
:func:`brass_stats.bots.value.training.rebuild`) on the held-out games of the training
corpus made by :func:`~brass_stats.bots.value.training.corpus_paths` with ``--games``
and ``--seed`` (150 and 11 for the shipped model: greedy, exploring greedy and search-bot games) in
``--corpus DIR``, made there first when missing. Games
are split by a hash of the file name (:func:`~brass_stats.bots.value.training.held_out`),
so these games were never trained on. Every position after every action but the last is scored.

It prints, per group (all; per era; per stage of the game, quarters of the round clock; per player
count; per edition; per kind of game): positions, log loss and Brier score of the model and of the 1/N baseline (every
seat 1/N), and the expected calibration error (10 equal-width bins over (position, seat) pairs). It
writes the reliability plot (all, Canal Era, Rail Era) to ``--plot`` (default
``docs/images/winprob-reliability.png``)::

    python benchmarks/bench_winprob.py --corpus /tmp/winprob-corpus

``--rebuild`` also says whether the rebuilt model is the shipped one, byte for byte (its text).
``--json FILE`` keeps the rows.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from brass_stats.bots.value import default_model
from brass_stats.bots.value.model import SHIPPED
from brass_stats.bots.value.training import (
    Positions,
    calibration_bins,
    corpus_paths,
    held_out,
    load_positions,
    rebuild,
    score,
)
from brass_stats.presentation.calibration import reliability_chart

PACKAGE = "brass_stats.bots.value"


def groups(positions: Positions, probs: list[list[float]]) -> dict[str, list[int]]:
    """Position indices per group, in the order the table prints them."""
    out: dict[str, list[int]] = {"all": list(range(len(probs)))}
    keys: list[tuple[int, str, int]] = []
    for i, (rows, era, stage) in enumerate(zip(positions.rows, positions.era, positions.stage, strict=True)):
        quarter = min(int(stage * 4), 3)
        edition = "lancashire" if rows[0][1] else "birmingham"
        for order, name in (
            (1, f"era: {era}"),
            (2, f"stage: {quarter * 25}-{quarter * 25 + 25}%"),
            (3, f"players: {len(rows)}"),
            (4, f"edition: {edition}"),
            (5, f"bots: {positions.bots[i]}"),
        ):
            if name not in out:
                out[name] = []
                keys.append((order, name, len(keys)))
            out[name].append(i)
    ordered = {"all": out["all"]}
    for _, name, _ in sorted(keys, key=lambda k: (k[0], k[1].replace("canal", "a"))):
        ordered[name] = out[name]
    return ordered


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True, help="the corpus folder (made there when missing)")
    ap.add_argument("--games", type=int, default=150, help="games per edition and player count (default 150)")
    ap.add_argument("--seed", type=int, default=11, help="the corpus seed (default 11, the shipped model's)")
    ap.add_argument("--rebuild", action="store_true", help="train a model from scratch instead of the shipped one")
    ap.add_argument("--workers", type=int, default=1, help="processes making missing games")
    ap.add_argument("--plot", default="docs/images/winprob-reliability.png", help="where the reliability plot goes")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    folder = Path(args.corpus)
    if args.rebuild:
        built = rebuild(folder, games=args.games, seed=args.seed, workers=args.workers)
        model = built.model
        shipped = gzip.decompress(resources.files(PACKAGE).joinpath(SHIPPED).read_bytes())
        same = model.booster.model_to_string().encode("utf-8") == shipped
        print(f"rebuilt on {built.training_games} games; the shipped model byte for byte: {'yes' if same else 'no'}")
    else:
        model = default_model()
    paths = [p for p in corpus_paths(folder, args.games, args.seed, args.workers) if held_out(p)]
    positions = load_positions(paths)
    probs = model.predict_rows(np.vstack(positions.rows), positions.sizes)
    print(f"held-out: {len(paths)} games, {len(probs)} positions")
    table = groups(positions, probs)
    width = max(len(name) for name in table)
    print(f"{'group':<{width}} {'positions':>9} {'log loss':>8} {'1/N':>6} {'Brier':>6} {'1/N':>6} {'ECE':>6}")
    rows = []
    for name, idx in table.items():
        s = score([probs[i] for i in idx], [positions.labels[i] for i in idx])
        rows.append({"group": name, **{k: v for k, v in s.__dict__.items() if k != "bins"}, "bins": s.bins})
        print(
            f"{name:<{width}} {s.positions:>9} {s.log_loss:>8.3f} {s.baseline_log_loss:>6.3f} "
            f"{s.brier:>6.3f} {s.baseline_brier:>6.3f} {s.ece:>6.4f}"
        )
    series = {}
    for label, era in (("all positions", None), ("Canal Era", "canal"), ("Rail Era", "rail")):
        pred: list[float] = []
        seen: list[float] = []
        for p, y, e in zip(probs, positions.labels, positions.era, strict=True):
            if era is None or e == era:
                pred += p
                seen += y
        series[label] = calibration_bins(pred, seen)[0]
    fig = reliability_chart(series, title=f"Win probability: {len(paths)} held-out self-play games")
    Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot, dpi=80)
    print(f"plot: {args.plot} ({Path(args.plot).stat().st_size // 1024} KiB); {time.perf_counter() - start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
