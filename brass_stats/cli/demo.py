"""The ``demo`` command: a database of the shipped sample games, a summary of it, and a post-game report."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
import duckdb

from ..analysis.database import DEMO_DB, build_demo_database, demo_game, real_game_winners, sample_games_dir
from ..analysis.games import open_game
from ..analysis.stats import as_percentages, corpus_summary, stats_by
from ..exitcodes import FAILED
from .common import fail
from .output import emit


@click.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--workers", type=int, default=None, help="Parallel processes for the import (default: all cores).")
def demo_command(out: Path, workers: int | None) -> None:
    """Build a DuckDB file from the shipped sample games, print a summary and write a post-game report."""
    from ..presentation.report import write_report

    out.mkdir(parents=True, exist_ok=True)
    db = out / DEMO_DB
    start = time.perf_counter()
    rep = build_demo_database(db, workers=workers, progress=sys.stderr.isatty())
    click.echo(f"Imported the sample games from {sample_games_dir()} into {db}: {rep.summary()}")
    con = duckdb.connect(str(db), read_only=True)
    emit(corpus_summary(con), "table", "Games in the database")
    winners = real_game_winners(con)
    emit(winners, "table", "Winners of the real (imported) games")
    wins = as_percentages(stats_by(con, "turn_position"))
    emit(wins, "table", "Wins by first-round turn position (ties share the win)")
    real = demo_game(con, winners)
    if real is None:
        fail(FAILED, "no sample game could be imported")
    con.close()
    report = write_report(open_game(str(real), db), out / "report.html")
    click.echo("")
    click.echo(f"Database:        {db.resolve()}")
    click.echo(f"Post-game report: {report.resolve()} (game {real})")
    click.echo("Try:             brass-stats stats --db " + str(db) + " --by strategy --min-games 5")
    click.echo(f"Done in {time.perf_counter() - start:.1f} s.")
