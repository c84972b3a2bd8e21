"""CLI commands over one stored game: income, vp, report; and demo (the corpus commands are in corpus_cli)."""

from __future__ import annotations

import sys
import time
from importlib import resources
from pathlib import Path

import click
import pandas as pd

from ..engine.policy import AS_PLAYED
from ..errors import BrassError
from ..exitcodes import BAD_INPUT
from ..output import emit, format_option
from ..storage.corpus import EXIT_BUSY, CorpusBusy, CorpusRef, connect_or_exit, corpus_options
from ..storage.lookup import GAME_HELP, list_games
from . import games as A
from .stats import as_percentages, corpus_summary, stats_by


def _open(game: str, corpus: CorpusRef | None) -> A.GameSource:
    try:
        if corpus is None:
            return A.open_game(game)
        return A.open_game(game, corpus.db, corpus.parquet)
    except CorpusBusy as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(EXIT_BUSY)
    except BrassError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(BAD_INPUT)


GAME = click.argument("game")
DB = corpus_options(what="the games to look GAME up in")
FORMAT = format_option()


@click.command("income", epilog=GAME_HELP)
@GAME
@DB
@FORMAT
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw the curves (.png or .svg).")
def income_command(game: str, corpus: CorpusRef | None, fmt: str, plot: Path | None) -> None:
    """Income level per player per round of GAME (a log file, or a game stored in --db / --parquet)."""
    src = _open(game, corpus)
    emit(A.income_by_round(src), fmt, "Income level at the end of each round")
    if plot is not None:
        from ..presentation.plots import income_chart

        income_chart(A.round_summary(src)).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


@click.command("vp", epilog=GAME_HELP)
@GAME
@DB
@FORMAT
@click.option("--by-era", is_flag=True, help="One row per player and era.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw a stacked bar chart.")
def vp_command(game: str, corpus: CorpusRef | None, fmt: str, by_era: bool, plot: Path | None) -> None:
    """VP by source per player: canal and rail links, flipped tiles by industry, merchant bonuses, shortfalls."""
    src = _open(game, corpus)
    by_source = A.vp_by_source(src)
    if by_era:
        emit(A.vp_breakdown(src), fmt, "VP by source and era")
    else:
        # a table for people: sources down, players across; CSV/JSON keep one record per player
        sources = vp_sources(by_source, _edition(src))
        if fmt == "table":
            emit(vp_sources_by_player(by_source, sources), fmt, "VP by source")
        else:
            emit(by_source[["seat", "name", *sources]], fmt)
    if plot is not None:
        from ..presentation.plots import vp_breakdown_chart

        vp_breakdown_chart(by_source).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


def _edition(src: A.GameSource) -> str:
    row = src.con.execute("SELECT edition FROM games WHERE game_id = ?", [src.game_id]).fetchone()
    return str(row[0]) if row else "birmingham"


def vp_sources(by_source: pd.DataFrame, edition: str) -> list[str]:
    """The VP sources of ``vp_by_source`` that apply to the edition (no Birmingham ports, no cash VP...)."""
    from ..rules_data import ALL_INDUSTRIES, load_rules

    rules = load_rules(edition)
    lacking = [i for i in ALL_INDUSTRIES if i not in rules.industries]
    if not rules.cash_vp_per:
        lacking.append("cash")
    if "introductory" in by_source and not by_source["introductory"].any():
        lacking.append("introductory")
    return [c for c in by_source.columns if c not in ("seat", "name", *lacking)]


def vp_sources_by_player(by_source: pd.DataFrame, sources: list[str]) -> pd.DataFrame:
    """Sources as rows, players as columns."""
    names = [str(n) for n in by_source["name"]]
    if len(set(names)) < len(names):  # two players of the same name: the seat tells them apart
        names = [f"{n} (seat {s})" for n, s in zip(names, by_source["seat"], strict=True)]
    table = pd.DataFrame({"source": sources})
    for col, (_, row) in zip(names, by_source.iterrows(), strict=True):
        table[col] = [int(row[s]) for s in sources]
    return table


@click.command("report", epilog=GAME_HELP)
@GAME
@DB
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("report.html"), show_default=True)
@click.option(
    "--viewer/--no-viewer",
    default=True,
    show_default=True,
    help="Also write the replay viewer beside the report (OUT-viewer.html); key moments link to it.",
)
def report_command(game: str, corpus: CorpusRef | None, out: Path, viewer: bool) -> None:
    """Write the post-game report of GAME as one self-contained HTML file (and the replay viewer beside it).

    The viewer needs the game's log: a log file, or for a stored game the file it was imported from.
    """
    from ..presentation.report import write_report

    src = _open(game, corpus)
    report = write_report(src, out, viewer=viewer)
    page = report.with_name(report.stem + "-viewer.html")
    if viewer and page.exists():
        click.echo(f"wrote {report} and the replay viewer {page}")
    else:
        click.echo(f"wrote {report}")


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
    # the real games are imported as they were played (one server let a player place 16 rail links)
    rep = ingest([str(samples)], db, workers=workers, progress=sys.stderr.isatty(), policy=AS_PLAYED)
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
    wins = as_percentages(stats_by(con, "turn_position"))
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
    click.echo("Try:             brass-stats stats --db " + str(db) + " --by strategy --min-games 5")
    click.echo(f"Done in {time.perf_counter() - start:.1f} s.")


@click.command("games")
@corpus_options(required=True, what="the stored games to list")
@FORMAT
def games_command(corpus: CorpusRef, fmt: str) -> None:
    """List the stored games: id, source file, the source's own game id, edition, players, winner and flags.

    Any of the first three names the game for every command that takes GAME (a unique prefix of the
    game id is enough; it is matched literally). ``declared_result_disagrees`` marks a legal game whose
    declared result differs from the replay; ``deviations`` counts rulebook departures stored as played.
    """
    con = connect_or_exit(corpus)
    table = list_games(con)
    if table.empty:
        click.echo(f"no games stored in {corpus}", err=True)
        return
    emit(table, fmt)


COMMANDS = [income_command, vp_command, report_command, demo_command, games_command]


__all__ = ["COMMANDS", "emit"]
