"""The statistics commands: over a corpus ``stats``, ``openings``, ``curves``, ``compare`` and ``games``;
over one game ``income`` and ``vp``.

The corpus commands read the stored games from ``--db FILE`` or ``--parquet DIR`` and take the filters
of :func:`~brass_stats.cli.common.corpus_filter_options`. A filter that leaves nothing prints one line
saying so and exits 0. Definitions: ``docs/statistics.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import duckdb
import pandas as pd

from ..analysis.statistics import breakdowns as A
from ..analysis.statistics.accuracy import player_accuracy
from ..analysis.statistics.curves import (
    CURVE_DIMENSIONS,
    METRIC_LABELS,
    METRICS,
    compare_game,
    comparison_sentences,
    curves,
)
from ..analysis.statistics.filters import CorpusFilter
from ..analysis.statistics.win_rates import ANALYSIS_DIMENSIONS, DIMENSIONS, as_percentages, openings, stats_by
from ..errors import BrassError
from ..exitcodes import BAD_INPUT
from ..storage.corpus import CorpusRef
from ..storage.lookup import GAME_HELP, list_games
from .common import connect_or_exit, corpus_filter_options, corpus_options, fail, open_game_or_exit
from .output import emit, format_option

GAME = click.argument("game")
DB = corpus_options(what="the games to look GAME up in")
FORMAT = format_option()
PLOT = click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw the chart to this file (.png, .svg)."
)


def _corpus_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--db FILE`` / ``--parquet DIR`` (one of them): the command gets an open read-only connection as ``con``."""

    @corpus_options(required=True, what="the games to analyse")
    @functools.wraps(fn)
    def wrapper(*args: Any, corpus: CorpusRef, **kwargs: Any) -> Any:
        return fn(*args, con=connect_or_exit(corpus), corpus_path=str(corpus), **kwargs)

    return wrapper


def _note(message: str, fmt: str) -> None:
    """A remark beside the data: on stdout under a table, on stderr for csv/json (stdout stays machine-readable)."""
    click.echo(message, err=fmt != "table")


def _show(df: pd.DataFrame, fmt: str, title: str) -> None:
    """Print ``df``; in a table, rates read as percentages (csv/json keep fractions of 1)."""
    emit(as_percentages(df) if fmt == "table" else df, fmt, title)


def _nothing(filters: CorpusFilter, fmt: str, what: str = "player-games") -> None:
    _note(f"no {what} match the filters ({filters.describe()}); nothing to show", fmt)
    if fmt == "json":
        click.echo("[]")


def _hidden(df: pd.DataFrame, min_games: int, fmt: str) -> None:
    n = df.attrs.get("hidden_buckets", 0)
    if n and df.empty:
        pgs = df.attrs.get("hidden_player_games", 0)
        _note(
            f"all {n} bucket(s) have fewer than {min_games} player-games ({pgs} player-games in all); "
            "lower --min-games to see them",
            fmt,
        )
        if fmt == "json":
            click.echo("[]")
    elif n:
        pgs = df.attrs.get("hidden_player_games", 0)
        _note(
            f"{n} bucket(s) with fewer than {min_games} player-games hidden ({pgs} player-games); "
            "lower --min-games to see them",
            fmt,
        )


@click.command("stats")
@_corpus_options
@click.option(
    "--by",
    "by",
    type=click.Choice((*DIMENSIONS, *ANALYSIS_DIMENSIONS)),
    multiple=True,
    required=True,
    help="Dimension to split by; give it twice for a cross-table (e.g. --by player_count --by turn_position). "
    "accuracy (bands of the player's accuracy in the game) covers analysed games only (analyse --store).",
)
@click.option(
    "--opening-actions", type=click.IntRange(1, 20), default=3, show_default=True, help="Actions per opening."
)
@corpus_filter_options()
@FORMAT
@PLOT
def stats_command(
    con: duckdb.DuckDBPyConnection,
    corpus_path: str,
    by: tuple[str, ...],
    opening_actions: int,
    filters: CorpusFilter,
    min_games: int,
    fmt: str,
    plot: Path | None,
) -> None:
    """Win rate (95% Wilson interval) against the expected win rate, mean VP and margin per bucket.

    One row per bucket of the --by dimensions; player_games is the sample size, games the
    distinct games in it. Definitions: docs/statistics.md.
    """
    if len(set(by)) != len(by):
        raise click.BadParameter("each dimension may be given once", param_hint="--by")
    df = stats_by(con, by, filters, min_games, opening_actions)
    if df.empty and not df.attrs.get("hidden_buckets"):
        analysed = [d for d in by if d in ANALYSIS_DIMENSIONS]
        if analysed and player_accuracy(con).empty:
            _note(
                f"no analysed games in {corpus_path}: --by {analysed[0]} needs reviewed games: run `brass-stats "
                "analyse` on this store first (without GAME it reviews every stored game; GAME --store: one)",
                fmt,
            )
            if fmt == "json":
                click.echo("[]")
            return
        _nothing(filters, fmt)
        return
    title = f"Wins by {' and '.join(by)} ({filters.describe()}; ties share the win)"
    if not df.empty:
        _show(df, fmt, title)
    _hidden(df, min_games, fmt)
    if plot is not None and not df.empty:
        from ..presentation.corpus_plots import win_rate_chart

        shown = df.copy()
        shown["bucket"] = shown[list(by)].astype(str).agg(", ".join, axis=1)
        win_rate_chart(shown, "bucket", title).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


@click.command("openings")
@_corpus_options
@click.option("--actions", type=click.IntRange(1, 20), default=3, show_default=True, help="Actions per opening.")
@click.option("--builds", is_flag=True, help="Build order: the first industries built, instead of the first actions.")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True, help="Show the N most played.")
@corpus_filter_options(min_games_default=5)
@FORMAT
def openings_command(
    con: duckdb.DuckDBPyConnection,
    corpus_path: str,
    actions: int,
    builds: bool,
    top: int,
    filters: CorpusFilter,
    min_games: int,
    fmt: str,
) -> None:
    """Openings (each player's first N actions: types and industries, no cards) with their win rates."""
    df = openings(con, actions, filters, min_games, top, builds_only=builds)
    if df.empty and not df.attrs.get("hidden_buckets"):
        _nothing(filters, fmt)
        return
    what = f"first {actions} builds" if builds else f"first {actions} actions"
    if not df.empty:
        _show(df, fmt, f"Openings: {what} ({filters.describe()})")
    _hidden(df, min_games, fmt)


@click.command("curves")
@_corpus_options
@click.option("--metric", type=click.Choice(list(METRICS)), default="income", show_default=True)
@click.option(
    "--by",
    "by",
    type=click.Choice(CURVE_DIMENSIONS),
    multiple=True,
    help="Dimension to split by (repeatable; default: result, i.e. winners vs the rest).",
)
@corpus_filter_options()
@FORMAT
@PLOT
def curves_command(
    con: duckdb.DuckDBPyConnection,
    corpus_path: str,
    metric: str,
    by: tuple[str, ...],
    filters: CorpusFilter,
    min_games: int,
    fmt: str,
    plot: Path | None,
) -> None:
    """Mean and interquartile band of a per-round metric across games, one curve per bucket.

    Example: income by round for winners vs the rest in 3-player games:
    brass-stats curves --db games.duckdb --metric income --by result --players 3
    """
    dims = list(by) or ["result"]
    if "industry" in dims:
        raise click.BadParameter("curves cannot be split by industry", param_hint="--by")
    if len(set(dims)) != len(dims):
        raise click.BadParameter("each dimension may be given once", param_hint="--by")
    df = curves(con, metric, dims, filters, min_games)
    if df.empty:
        _nothing(filters, fmt, what=f"rounds with at least {min_games} player-games")
        return
    title = f"{METRIC_LABELS[metric]} at the end of each round by {' and '.join(dims)} ({filters.describe()})"
    _show(df, fmt, title)
    if plot is not None:
        from ..presentation.corpus_plots import curves_chart

        curves_chart(df, dims, METRIC_LABELS[metric], title).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


@click.command("compare")
@click.argument("game")
@_corpus_options
@click.option("--metric", type=click.Choice(list(METRICS)), default="income", show_default=True)
@click.option("--round", "round_no", type=int, help="Round to describe in words (default: the Canal Era's last).")
@corpus_filter_options(
    min_games_default=5, min_games_help="The fewest corpus games the comparison needs.", edition_and_players=False
)
@FORMAT
@PLOT
def compare_command(
    game: str,
    con: duckdb.DuckDBPyConnection,
    corpus_path: str,
    metric: str,
    round_no: int | None,
    filters: CorpusFilter,
    min_games: int,
    fmt: str,
    plot: Path | None,
) -> None:
    """One game's per-round metric against the corpus's winners of the same edition and player count.

    GAME is a log file, or a game id (or unique prefix) in the corpus; the game itself is left out
    of the comparison; the edition and player count are GAME's.
    """
    try:
        src = A.open_game(game, con)
    except BrassError as e:
        fail(BAD_INPUT, f"error: {e}")
    cmp = compare_game(src.con, src.game_id, con, metric, filters)
    n = cmp.attrs["corpus_games"]
    what = f"{cmp.attrs['player_count']}-player {cmp.attrs['edition'].title()} games ({filters.describe()})"
    if n < min_games:
        _note(f"only {n} other {what} in {corpus_path} (fewer than --min-games {min_games}); nothing to compare", fmt)
        if fmt == "json":
            click.echo("[]")
        return
    title = f"{METRIC_LABELS[metric]} against the winners of {n} {what}"
    _show(cmp, fmt, title)
    if round_no is None:
        canal = src.con.execute(
            "SELECT max(round) FROM turn_snapshots WHERE game_id = ? AND era = 'canal'", [src.game_id]
        ).fetchone()
        round_no = int(canal[0]) if canal and canal[0] is not None else int(cmp["round"].min())
    sentences = comparison_sentences(cmp, metric, round_no)
    if not sentences:
        _note(f"the game has no round {round_no}", fmt)
    for s in sentences:
        _note(s, fmt)
    if plot is not None:
        from ..presentation.corpus_plots import compare_chart

        compare_chart(cmp, METRIC_LABELS[metric], title).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


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


@click.command("income", epilog=GAME_HELP)
@GAME
@DB
@FORMAT
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also draw the curves (.png or .svg).")
def income_command(game: str, corpus: CorpusRef | None, fmt: str, plot: Path | None) -> None:
    """Income level per player per round of GAME (a log file, or a game stored in --db / --parquet)."""
    src = open_game_or_exit(game, corpus)
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
    src = open_game_or_exit(game, corpus)
    by_source = A.vp_by_source(src)
    if by_era:
        emit(A.vp_breakdown(src), fmt, "VP by source and era")
    else:
        # a table for people: sources down, players across; CSV/JSON keep one record per player
        sources = A.vp_sources(by_source, A.game_edition(src))
        if fmt == "table":
            emit(A.vp_sources_by_player(by_source, sources), fmt, "VP by source")
        else:
            emit(by_source[["seat", "name", *sources]], fmt)
    if plot is not None:
        from ..presentation.plots import vp_breakdown_chart

        vp_breakdown_chart(by_source).savefig(plot)
        click.echo(f"wrote {plot}", err=True)


COMMANDS = [stats_command, openings_command, curves_command, compare_command, games_command, income_command, vp_command]
