"""The ``selfplay`` command: generate a corpus of bot games."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..bots.selfplay import SelfPlayError, game_seed, generate, seat_bots
from ..bots.specs import BOTS, check_spec
from ..exitcodes import FAILED
from .common import fail
from .output import emit, format_option


def _bot_list(ctx: click.Context, param: click.Parameter, value: str) -> list[str]:
    names = [b.strip() for b in value.split(",") if b.strip()]
    if not names:
        raise click.BadParameter(f"no bot given; known: {', '.join(sorted(BOTS))}")
    for name in names:
        try:
            check_spec(name)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
    return names


@click.command("selfplay")
@click.option("--games", "-n", "games", type=click.IntRange(min=1), required=True, help="Number of games to play.")
@click.option("--players", "-p", type=click.IntRange(2, 4), required=True, help="Players per game (2, 3 or 4).")
@click.option("--seed", "-s", type=click.IntRange(min=0), default=0, show_default=True, help="Corpus seed.")
@click.option(
    "--bots",
    "-b",
    default="greedy",
    show_default=True,
    callback=_bot_list,
    help=(
        f"Comma-separated bots given to seats in order, repeated as needed ({', '.join(sorted(BOTS))}), "
        "each with optional :KEY=VALUE knobs, e.g. mcts:sims=25 or greedy:explore=0.1 (docs/bots.md)."
    ),
)
@click.option(
    "--out", "-o", "out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Output directory."
)
@click.option(
    "--workers", "-w", type=click.IntRange(min=1), default=None, help="Parallel processes (default: all cores)."
)
@click.option("--skip-errors", is_flag=True, help="Leave out (with a warning) games the engine cannot finish.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--edition", type=click.Choice(["birmingham", "lancashire"]), default="birmingham", show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace game files that already exist (otherwise: refuse).")
@click.option(
    "--cluster",
    metavar="local[:N]|tcp://HOST:PORT",
    help="Play on Dask workers (a LocalCluster of N processes, or a running scheduler); same files as locally.",
)
@format_option()
def selfplay_command(
    games: int,
    players: int,
    seed: int,
    bots: list[str],
    out: Path,
    workers: int | None,
    skip_errors: bool,
    quiet: bool,
    edition: str,
    overwrite: bool,
    cluster: str | None,
    fmt: str,
) -> None:
    """Play seeded bot games and write one game log per game into OUT.

    Game i uses a seed derived from (SEED, i), so the same arguments always
    produce the same files, byte for byte, whatever the number of workers.
    Files are named <EDITION>-<PLAYERS>p-<SEED>-<i, 5 digits>.json, e.g.
    birmingham-4p-1-00000.json. Existing files are never replaced without --overwrite.
    """
    seats = seat_bots(bots, players)
    start = time.perf_counter()
    show = not quiet and sys.stderr.isatty()
    try:
        paths = generate(
            games,
            players,
            seed,
            bots,
            out,
            workers,
            progress=show and fmt == "table",
            skip_errors=skip_errors,
            edition=edition,
            overwrite=overwrite,
            cluster=cluster,
        )
    except SelfPlayError as e:
        fail(FAILED, f"error: {e}")
    wall = time.perf_counter() - start
    if not paths:
        fail(FAILED, f"no game could be finished ({wall:.1f} s)")
    if fmt != "table":
        emit([{"file": str(p), "edition": edition, "players": players, "corpus_seed": seed} for p in paths], fmt)
        return
    skipped = f"; {games - len(paths)} skipped" if len(paths) < games else ""
    click.echo(f"wrote {len(paths)} games to {out}/ ({paths[0].name} .. {paths[-1].name}){skipped}")
    click.echo(f"seats: {', '.join(f'{b}-{i}' for i, b in enumerate(seats))}; game seeds from corpus seed {seed}")
    click.echo(f"first game seed: {game_seed(seed, 0)}")
    click.echo(f"time: {wall:.1f} s ({wall / games:.2f} s per game)")
