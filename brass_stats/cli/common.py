"""What the commands share: the one way a command fails, and the options several commands take.

* :func:`fail`: one line on stderr and an exit status (:mod:`brass_stats.exitcodes`).
* ``--as-played`` (:data:`AS_PLAYED_OPTION`), the store options ``--db FILE`` / ``--parquet DIR``
  (:func:`corpus_options`) and the corpus filters ``--edition`` ... ``--min-games``
  (:func:`corpus_filter_options`).
* :func:`connect_or_exit` and :func:`open_game_or_exit`: the library's calls, with an error line and an exit
  status instead of an exception.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
import duckdb

from ..analysis.statistics.breakdowns import GameSource, open_game
from ..analysis.statistics.filters import SOURCES, CorpusFilter, parse_date
from ..errors import BrassError
from ..exitcodes import BAD_INPUT, BUSY
from ..log.format import PLAYABLE_EDITIONS
from ..storage.corpus import CorpusBusy, CorpusRef

F = TypeVar("F", bound=Callable[..., Any])


def fail(status: int, message: str) -> NoReturn:
    """Print ``message`` on stderr and exit with ``status``: how every command stops on an error."""
    click.echo(message, err=True)
    sys.exit(status)


AS_PLAYED_HELP = (
    "Accept the game as it was played: a stated coal or iron source that breaks only a source-priority rule, "
    "and links beyond a player's link tiles, are applied as stated and listed (table deviations; "
    "docs/rules-decisions.md, 'Games as played'). Anything else illegal still fails. Default: strict."
)
AS_PLAYED_OPTION = click.option("--as-played", "as_played", is_flag=True, help=AS_PLAYED_HELP)


# -- the store: --db FILE or --parquet DIR ----------------------------------------------


def corpus_options(required: bool = False, what: str = "the stored games", together: bool = False) -> Callable[[F], F]:
    """Add ``--db FILE`` / ``--parquet DIR`` (mutually exclusive unless ``together``) to a click command; it
    gets ``corpus``.

    ``corpus`` is a :class:`~brass_stats.storage.corpus.CorpusRef`, or None when neither option was given
    (only if not ``required``). With ``together`` both may be given (a command that writes into both).
    """

    def decorate(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, db: Path | None = None, parquet: Path | None = None, **kwargs: Any) -> Any:
            if db is not None and parquet is not None and not together:
                raise click.UsageError("--db and --parquet cannot be used together: give one store")
            if required and db is None and parquet is None:
                raise click.UsageError("give the games with --db FILE or --parquet DIR")
            ref = CorpusRef(db, parquet) if db is not None or parquet is not None else None
            return f(*args, corpus=ref, **kwargs)

        wrapper = click.option(
            "--parquet",
            type=click.Path(file_okay=False, path_type=Path),
            help=f"Parquet dataset folder holding {what}"
            + ("; may be given with --db." if together else " (instead of --db)."),
        )(wrapper)
        wrapper = click.option(
            "--db", type=click.Path(dir_okay=False, path_type=Path), help=f"DuckDB file holding {what}."
        )(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate


def connect_or_exit(ref: CorpusRef) -> duckdb.DuckDBPyConnection:
    """:meth:`CorpusRef.connect` for commands: one error line and an exit status instead of an exception."""
    try:
        return ref.connect()
    except CorpusBusy as e:
        fail(BUSY, f"error: {e}")
    except BrassError as e:  # a CorpusError, or any other clear error about the store
        fail(BAD_INPUT, f"error: {e}")


def open_game_or_exit(game: str, corpus: CorpusRef | None) -> GameSource:
    """:func:`~brass_stats.analysis.statistics.breakdowns.open_game` for commands: errors as one line and a status."""
    try:
        if corpus is None:
            return open_game(game)
        return open_game(game, corpus.db, corpus.parquet)
    except CorpusBusy as e:
        fail(BUSY, f"error: {e}")
    except BrassError as e:
        fail(BAD_INPUT, f"error: {e}")


# -- the corpus filters --------------------------------------------------------------------


def _parse_players(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...]:
    if not value:
        return ()
    try:
        counts = tuple(sorted({int(v) for v in value.split(",") if v.strip()}))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of player counts, e.g. 2,3") from None
    bad = [c for c in counts if not 2 <= c <= 4]
    if bad:
        raise click.BadParameter(f"player counts are 2, 3 or 4, not {', '.join(map(str, bad))}")
    return counts


def _parse_date(ctx: click.Context, param: click.Parameter, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_date(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD) or date-time (ISO 8601)") from None


FILTER_OPTION_NAMES = ("editions", "players", "source", "since", "until")


def corpus_filter_options(
    min_games_default: int = 10,
    min_games_help: str = "Hide buckets with fewer player-games than this.",
    edition_and_players: bool = True,
    min_games: bool = True,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Click decorator: ``--edition``, ``--players``, ``--source``, ``--since``, ``--until``, ``--min-games``.

    The wrapped command receives ``filters:`` :class:`~brass_stats.analysis.statistics.filters.CorpusFilter` and
    ``min_games: int`` instead of the separate options. Without ``edition_and_players`` (a command that
    takes them from a game) the first two options are left out; without ``min_games`` (a command that
    picks games, not buckets: ``analyse``) the last one.
    """

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {k: kwargs.pop(k, None) for k in FILTER_OPTION_NAMES}
            kwargs["filters"] = CorpusFilter(
                editions=tuple(values["editions"] or ()),
                players=values["players"] or (),
                source=values["source"],
                since=values["since"],
                until=values["until"],
            )
            return fn(*args, **kwargs)

        options = [
            click.option(
                "--edition",
                "editions",
                multiple=True,
                type=click.Choice(PLAYABLE_EDITIONS),
                help="Only games of this edition (repeatable).",
            ),
            click.option(
                "--players", callback=_parse_players, metavar="N[,N]", help="Only games with these player counts."
            ),
            click.option(
                "--source",
                type=click.Choice(SOURCES),
                help="human/bot: only seats a person/a program played; real/generated: only games recorded "
                "from play/written by self-play.",
            ),
            click.option(
                "--since", callback=_parse_date, metavar="DATE", help="Only games played on or after DATE (UTC)."
            ),
            click.option("--until", callback=_parse_date, metavar="DATE", help="Only games played before DATE (UTC)."),
            click.option(
                "--min-games",
                type=click.IntRange(min=1),
                default=min_games_default,
                show_default=True,
                help=min_games_help,
            ),
        ]
        if not min_games:
            options = options[:-1]
        if not edition_and_players:
            options = options[2:]
        out: Callable[..., Any] = wrapper
        for opt in reversed(options):
            out = opt(out)
        return out

    return decorate
