"""CLI commands over one stored game: income, vp, report; and demo (the corpus commands are in corpus_cli)."""

from __future__ import annotations

import sys
import time
import unicodedata
from importlib import resources
from pathlib import Path

import click
import pandas as pd

from ..errors import BrassError
from . import games as A
from .stats import corpus_summary, stats_by

FORMATS = click.Choice(["table", "csv", "json"])


def emit(df: pd.DataFrame, fmt: str, title: str | None = None) -> None:
    """Print a DataFrame as a rich table, CSV or JSON records."""
    if fmt == "csv":
        click.echo(df.to_csv(index=False), nl=False)
        return
    if fmt == "json":
        click.echo(df.to_json(orient="records", force_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_lines=False, header_style="bold")
    for col in df.columns:
        table.add_column(str(col), justify="right" if pd.api.types.is_numeric_dtype(df[col]) else "left")
    for row in df.itertuples(index=False):
        table.add_row(*(_cell(v) for v in row))
    Console(width=max(100, min(200, 14 * len(df.columns)))).print(table)


def _cell(v: object) -> str:
    if v is None or (isinstance(v, float) and pd.isna(v)):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return unicodedata.normalize("NFKC", str(v))


def _open(game: str, db: Path | None) -> A.GameSource:
    try:
        return A.open_game(game, db)
    except BrassError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


GAME = click.argument("game")
DB = click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help="DuckDB file to look GAME up in.")
FORMAT = click.option("--format", "fmt", type=FORMATS, default="table", show_default=True)


@click.command("income")
@GAME
@DB
@FORMAT
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw the curves (.png or .svg).")
def income_command(game: str, db: Path | None, fmt: str, plot: Path | None) -> None:
    """Income level per player per round of GAME (a log file, or a game id in --db)."""
    src = _open(game, db)
    emit(A.income_by_round(src), fmt, "Income level at the end of each round")
    if plot is not None:
        from ..presentation.plots import income_chart

        income_chart(A.round_summary(src)).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


@click.command("vp")
@GAME
@DB
@FORMAT
@click.option("--by-era", is_flag=True, help="One row per player and era.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw a stacked bar chart.")
def vp_command(game: str, db: Path | None, fmt: str, by_era: bool, plot: Path | None) -> None:
    """VP by source per player: canal and rail links, flipped tiles by industry, merchant bonuses, shortfalls."""
    src = _open(game, db)
    by_source = A.vp_by_source(src)
    emit(A.vp_breakdown(src) if by_era else by_source, fmt, "VP by source")
    if plot is not None:
        from ..presentation.plots import vp_breakdown_chart

        vp_breakdown_chart(by_source).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


@click.command("report")
@GAME
@DB
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("report.html"), show_default=True)
def report_command(game: str, db: Path | None, out: Path) -> None:
    """Write the post-game report of GAME as one self-contained HTML file."""
    from ..presentation.report import write_report

    src = _open(game, db)
    click.echo(f"wrote {write_report(src, out)}")


def sample_games_dir() -> Path:
    """The sample games shipped inside the package."""
    return Path(str(resources.files("brass_stats").joinpath("replays_data")))


@click.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--workers", type=int, default=None, help="Parallel processes for the import (default: all cores).")
def demo_command(out: Path, workers: int | None) -> None:
    """Build a DuckDB file from the shipped sample games, print a summary and write a post-game report."""
    from ..presentation.report import write_report
    from ..storage import ingest

    out.mkdir(parents=True, exist_ok=True)
    db = out / "brass-demo.duckdb"
    start = time.perf_counter()
    samples = sample_games_dir()
    rep = ingest([str(samples)], db, workers=workers, progress=sys.stderr.isatty())
    click.echo(f"Imported the sample games from {samples} into {db}: {rep.summary()}")
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    emit(corpus_summary(con), "table", "Games in the database")
    winners = con.execute(
        """
        SELECT g.player_count AS players, p.name, p.final_vp AS vp, g.game_id
        FROM games g JOIN players p USING (game_id) WHERE p.rank = 1 AND g.seed = 'explicit'
        ORDER BY g.player_count
        """
    ).df()
    emit(winners, "table", "Winners of the real (imported) games")
    wins = stats_by(con, "turn_position")
    for c in ("win_rate", "ci_low", "ci_high", "expected_win_rate"):
        wins[c] = wins[c].map(lambda v: f"{100 * v:.1f}%")
    emit(wins, "table", "Wins by first-round turn position (ties share the win)")
    first = con.execute("SELECT game_id FROM games ORDER BY game_id LIMIT 1").fetchone()
    real = winners["game_id"].iloc[-1] if not winners.empty else (first[0] if first else None)
    if real is None:
        click.echo("no sample game could be imported", err=True)
        sys.exit(1)
    con.close()
    report = write_report(A.open_game(str(real), db), out / "report.html")
    click.echo("")
    click.echo(f"Database:        {db.resolve()}")
    click.echo(f"Post-game report: {report.resolve()} (game {real})")
    click.echo("Try:             brass-stats stats --db " + str(db) + " --by strategy")
    click.echo(f"Done in {time.perf_counter() - start:.1f} s.")


COMMANDS = [income_command, vp_command, report_command, demo_command]


__all__ = ["COMMANDS", "emit"]
