"""One game for people: ``report`` (a post-game report), ``view`` (a replay viewer), ``board`` (the board
after any action) and ``log`` (the move list)."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import click
import pandas as pd

from ..engine.policy import AS_PLAYED
from ..errors import BrassError
from ..exitcodes import BAD_INPUT
from ..log.format import GameLog
from ..replay import Replay
from ..replay.notation import move_list
from ..storage.corpus import CorpusRef
from ..storage.lookup import GAME_HELP, stored_log_file
from .common import connect_or_exit, corpus_options, fail, open_game_or_exit
from .output import emit, format_option, printable
from .review_options import AS_PLAYED_ALWAYS, ReviewOptions, review_options

DB = corpus_options(what="the games to look GAME up in")


@click.command("report", epilog=GAME_HELP)
@click.argument("game")
@DB
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("report.html"), show_default=True)
@click.option(
    "--viewer/--no-viewer",
    default=True,
    show_default=True,
    help="Also write the replay viewer beside the report (OUT-viewer.html); action numbers link to it.",
)
@review_options(AS_PLAYED_ALWAYS, flag=True)
def report_command(game: str, corpus: CorpusRef | None, out: Path, viewer: bool, review: ReviewOptions | None) -> None:
    """Write the post-game report of GAME as one self-contained HTML file (and the replay viewer beside it).

    The viewer needs the game's log: a log file, or for a stored game the file it was imported from.
    With --analyse, the game is reviewed first (each action with a choice judged by a search from what
    its player could know): the report gets an Analysis section and the viewer an evaluation strip.
    """
    from ..presentation.report import replay_of, write_report

    src = open_game_or_exit(game, corpus)
    result = None
    if review is not None:
        r = replay_of(src)  # as played, as the report shows the game
        if r is None:
            fail(
                BAD_INPUT,
                f"error: {game}: --analyse needs the game's log (a log file, or the file it was imported from)",
            )
        result = review.run(r)
    report = write_report(src, out, viewer=viewer, review=result)
    page = report.with_name(report.stem + "-viewer.html")
    if viewer and page.exists():
        click.echo(f"wrote {report} and the replay viewer {page}")
    else:
        click.echo(f"wrote {report}")


def load_replay(game: str, db: CorpusRef | None) -> Replay:
    """Replay GAME (legal or not: an illegal action stops the replay and is kept in ``error``)."""
    path = Path(game)
    try:
        if path.exists() or db is None:  # otherwise a stored game, by id, source game id or file name
            if not path.exists():
                fail(
                    BAD_INPUT,
                    f"error: {game}: no such file"
                    + ("" if db else " (give --db or --parquet to look it up as a game id)"),
                )
            log = GameLog.load(path)
        else:
            log = GameLog.load(_log_file_from_db(game, db))
        return Replay(log, policy=AS_PLAYED).run()  # what happened: a server's departures are shown, not refused
    except BrassError as e:
        fail(BAD_INPUT, f"error: {e}")


def _log_file_from_db(game: str, db: CorpusRef) -> Path:
    con = connect_or_exit(db)
    try:
        return stored_log_file(con, game, str(db))
    finally:
        con.close()


@click.command("board", epilog=GAME_HELP)
@click.argument("game")
@DB
@click.option(
    "--at",
    "at",
    type=int,
    default=None,
    metavar="N",
    help="Draw the board after action N (0: the setup; default: the end of the game).",
)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="board.svg or board.png")
def board_command(game: str, corpus: CorpusRef | None, at: int | None, out: Path) -> None:
    """Draw the board of GAME after any action, as SVG (or PNG), for either edition.

    Actions count from 1, as `log` and `validate` show them: --at 1 is the board after the first action,
    --at 0 the setup.
    """
    from ..presentation.png import RenderError, svg_to_png
    from ..presentation.svg_board import board_svg, geometry

    r = load_replay(game, corpus)
    total = len(r.steps)
    if at is None:
        at = total
    if not -1 <= at <= total:  # -1: the setup too, as --at counted from 0 once
        fail(BAD_INPUT, f"error: --at {at}: this game has actions 1..{total} (0: the setup)")
    at = max(at, 0)
    if r.error is not None and at == total:
        click.echo(f"note: the game stops at an illegal action: {r.error}", err=True)
    index = at - 1  # the replay's 0-based action index; -1: the setup
    svg = board_svg(r._state_at(index), highlight=r.steps[index] if index >= 0 else None)
    suffix = out.suffix.lower()
    if suffix == ".svg":
        _atomic_write(out, svg.encode("utf-8"))
    elif suffix == ".png":
        geo = geometry(r.initial.rules.edition)
        try:
            png = svg_to_png(svg, geo.width, geo.height)
        except RenderError as e:
            fail(BAD_INPUT, f"error: {e}")
        _atomic_write(out, png)
    else:
        fail(BAD_INPUT, f"error: --out {out}: give a .svg or .png file")
    click.echo(
        f"wrote {out} (board after action {at} of {total})" if at else f"wrote {out} (the setup, before action 1)"
    )


def _atomic_write(out: Path, data: bytes) -> None:
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(out)


@click.command("log", epilog=GAME_HELP)
@click.argument("game")
@DB
@format_option()
def log_command(game: str, corpus: CorpusRef | None, fmt: str) -> None:
    """Print the whole game as a numbered move list in readable notation.

    Moves are numbered from 1 (# = action N, as `board --at N` and `validate` count); --format csv and json
    also give each move's 0-based action_index, as the stored tables number actions.
    """
    r = load_replay(game, corpus)
    moves = move_list(r)
    df = pd.DataFrame(
        {
            "#": [m.index + 1 for m in moves],
            "era": [m.era for m in moves],
            "round": [m.era_round for m in moves],
            "player": [m.player for m in moves],
            "move": [m.text for m in moves],
        }
    )
    if fmt == "table":
        # the player has a column of their own: the move reads "takes a £30 loan", not "Ann takes ..."
        df["move"] = [without_player(m.text, m.player) for m in moves]
        _move_table(df)
    else:
        df["type"] = [m.type for m in moves]
        df["illegal"] = [m.illegal for m in moves]
        df["action_index"] = [m.index for m in moves]
        emit(df, fmt)
    if r.error is not None:
        click.echo(f"illegal action {len(r.steps) + 1}: [{r.error.rule}] {r.error.message}", err=True)
        sys.exit(1)


def without_player(text: str, player: str) -> str:
    """A move's sentence without the player's name it starts with.

    >>> without_player("Ann takes a £30 loan", "Ann"), without_player("seat 5 acts", "Bob")
    ('takes a £30 loan', 'seat 5 acts')
    """
    return text[len(player) + 1 :] if player and text.startswith(player + " ") else text


def _move_table(df: pd.DataFrame) -> None:
    """The move list as a table whose last column wraps (the shared table helper shortens long cells)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(header_style="bold", show_lines=False)
    for col in df.columns:
        if col == "move":
            table.add_column(col, overflow="fold", ratio=1)
        else:
            table.add_column(col, justify="right" if col in ("#", "round") else "left", no_wrap=True)
    for row in df.itertuples(index=False):
        table.add_row(*(Text(printable(unicodedata.normalize("NFKC", str(v)), 2000)) for v in row))
    Console(soft_wrap=False).print(table)


@click.command("view", epilog=GAME_HELP)
@click.argument("game")
@DB
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="game.html")
@click.option(
    "--at",
    "at",
    type=int,
    default=None,
    help="Action the page opens at, counted from 1 as on screen (0: the setup; default: the end).",
)
@review_options(AS_PLAYED_ALWAYS, flag=True)
def view_command(game: str, corpus: CorpusRef | None, out: Path, at: int | None, review: ReviewOptions | None) -> None:
    """Write a self-contained HTML replay viewer of GAME (board, moves, players, charts; no server).

    With --analyse, the game is reviewed first (each action with a choice judged by a search from what
    its player could know) and the page shows each player's win probability along the game, each
    action's label and the better action.
    """
    from ..presentation.viewer import write_viewer

    r = load_replay(game, corpus)
    result = review.run(r) if review is not None else None
    write_viewer(r, out, start=None if at is None else max(at, 0) - 1, review=result)
    size = out.stat().st_size
    note = f"; stops at illegal action {len(r.steps) + 1} [{r.error.rule}]" if r.error is not None else ""
    if r.deviations:
        where = sorted({d["action_index"] + 1 for d in r.deviations})
        note += f"; as played, departs from the rules at action {', '.join(map(str, where))}"
    click.echo(f"wrote {out} ({len(r.steps)} actions, {size / 1024:.0f} KiB{note})")


COMMANDS = (report_command, board_command, log_command, view_command)
