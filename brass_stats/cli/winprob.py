"""``winprob train``: rebuild the win-probability model from scratch, and score it on held-out games."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from ..bots.value import training
from ..bots.value.final_vp import SHIPPED_FINAL_VP
from .output import emit, format_option


@click.group("winprob")
def winprob_group() -> None:
    """The win-probability model that `analyse` uses (docs/analysis.md)."""


@winprob_group.command("train")
@click.option(
    "--corpus",
    "corpus_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the self-play training games: made there unless its games are already there.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=150,
    show_default=True,
    help="Greedy games per edition and player count (the other kinds scale with it: docs/analysis.md).",
)
@click.option("--seed", type=click.IntRange(min=0), default=11, show_default=True, help="Seed of the self-play corpus.")
@click.option(
    "--workers", type=click.IntRange(min=1), default=None, help="Processes playing the games (default: all cores)."
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the model (.txt.gz: compressed; default: CORPUS/model.txt.gz).",
)
@format_option()
def train_command(corpus_dir: Path, games: int, seed: int, workers: int | None, out: Path | None, fmt: str) -> None:
    """Rebuild the win-probability model from scratch: self-play games (both editions, 2-4 players,
    fixed seeds; greedy bots, greedy bots that play a random action one time in ten, and search bots),
    LightGBM trained on about 4 games in 5, and its scores on the others.

    Prints the held-out scores per group (overall, per era, per stage of the game, per player count):
    log loss and Brier score beside the 1/N baseline's, and the expected calibration error. The shipped
    model is brass_stats/bots/value/model.txt.gz: the defaults rebuild it (give that path
    as --out to replace it). The expected-final-VP model that the review judges moves by is trained on the
    same positions and written beside it (final_vp.txt.gz), with its held-out error (in JSON and CSV, its
    columns beside the win model's, in the overall and per-stage groups).
    """
    rebuilt = training.rebuild(corpus_dir, games=games, seed=seed, workers=workers)
    path = out or corpus_dir / "model.txt.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{path.suffix}")  # the suffix says whether to compress
    rebuilt.model.save(tmp)
    vp_path = path.with_name(SHIPPED_FINAL_VP)  # the expected-final-VP model, beside it
    vp_tmp = vp_path.with_name(f".{vp_path.name}.tmp{vp_path.suffix}")
    rebuilt.final_vp_model.save(vp_tmp)
    tmp.replace(path)
    vp_tmp.replace(vp_path)
    rows = [
        {
            "group": name,
            "positions": s.positions,
            "log_loss": round(s.log_loss, 4),
            "baseline_log_loss": round(s.baseline_log_loss, 4),
            "brier": round(s.brier, 4),
            "baseline_brier": round(s.baseline_brier, 4),
            "ece": round(s.ece, 4),
        }
        for name, s in rebuilt.scores.items()
    ]
    title = (
        f"Held-out scores ({rebuilt.held_out_games} games held out, {rebuilt.training_games} trained on; "
        "baseline: every player 1/N)"
    )
    vp_rows = [
        {
            "group": name,
            "positions": s.positions,
            "mae_vp": round(s.mae, 2),
            "greedy_mae_vp": round(s.greedy_mae, 2),
            "margin_mae_vp": round(s.margin_mae, 2),
            "greedy_margin_mae_vp": round(s.greedy_margin_mae, 2),
        }
        for name, s in rebuilt.final_vp_scores.items()
    ]
    scores, vp_scores = pd.DataFrame(rows), pd.DataFrame(vp_rows)
    if fmt == "table":
        emit(scores, fmt, title)
        emit(vp_scores, fmt, "Expected final VP, held out: mean absolute error (greedy estimate beside it)")
    else:  # one document: the VP model's errors beside the win model's scores, on the same held-out positions
        emit(scores.merge(vp_scores.drop(columns="positions"), on="group", how="left"), fmt)
    click.echo(f"wrote {path} and {vp_path}", err=fmt != "table")


__all__ = ["train_command", "winprob_group"]
