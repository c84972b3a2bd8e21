"""``brass-stats board``, ``log`` and ``view``: one game drawn, listed, or stepped through in a browser."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import click
import pandas as pd

from ..engine.policy import AS_PLAYED
from ..errors import BrassError
from ..log.format import GameLog
from ..output import format_option
from ..replay import Replay
from ..storage.corpus import CorpusRef, connect_or_exit, corpus_options
from ..storage.lookup import GAME_HELP, GameNotFound, resolve_game

DB = corpus_options(what="the games to look GAME up in")


def fail(message: str, status: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


def load_replay(game: str, db: CorpusRef | None) -> Replay:
    """Replay GAME (legal or not: an illegal action stops the replay and is kept in ``error``)."""
    path = Path(game)
    try:
        if path.exists() or db is None:  # otherwise a stored game, by id, source game id or file name
            if not path.exists():
                fail(f"{game}: no such file" + ("" if db else " (give --db or --parquet to look it up as a game id)"))
            log = GameLog.load(path)
        else:
            log = GameLog.load(_log_file_from_db(game, db))
        return Replay(log, policy=AS_PLAYED).run()  # what happened: a server's departures are shown, not refused
    except BrassError as e:
        fail(str(e))
        raise  # unreachable: fail() exits


def _log_file_from_db(game: str, db: CorpusRef) -> Path:
    con = connect_or_exit(db)
    try:
        gid = resolve_game(con, game, str(db))
        row = con.execute("SELECT source_file FROM games WHERE game_id = ?", [gid]).fetchone()
    except GameNotFound as e:
        fail(str(e))
    finally:
        con.close()
    source = row[0] if row else None
    # the path as stored (relative to where ingest ran), else relative to the store's folder
    for candidate in (Path(source), Path(str(db)).parent / source) if source else ():
        if candidate.exists():
            return candidate
    fail(f"game {gid} in {db}: its log file {source!r} is not available to replay")
    raise AssertionError  # unreachable


@click.command("board", epilog=GAME_HELP)
@click.argument("game")
@DB
@click.option(
    "--at",
    "at",
    type=int,
    default=None,
    help="Draw the board after this action index (-1: the setup; default: the end of the game).",
)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="board.svg or board.png")
def board_command(game: str, corpus: CorpusRef | None, at: int | None, out: Path) -> None:
    """Draw the board of GAME after any action, as SVG (or PNG), for either edition."""
    from .svg_board import board_svg, geometry

    r = load_replay(game, corpus)
    last = len(r.steps) - 1
    if at is None:
        at = last
    if not -1 <= at <= last:
        fail(f"--at {at}: this game has actions 0..{last} (-1 is the setup)")
    if r.error is not None and at == last:
        click.echo(f"note: the game stops at an illegal action: {r.error}", err=True)
    svg = board_svg(r._state_at(at), highlight=r.steps[at] if at >= 0 else None)
    suffix = out.suffix.lower()
    if suffix == ".svg":
        _atomic_write(out, svg.encode("utf-8"))
    elif suffix == ".png":
        geo = geometry(r.initial.rules.edition)
        _atomic_write(out, svg_to_png(svg, geo.width, geo.height))
    else:
        fail(f"--out {out}: give a .svg or .png file")
    click.echo(f"wrote {out} (board after action {at} of {last})" if at >= 0 else f"wrote {out} (setup)")


def svg_to_png(svg: str, width: int, height: int) -> bytes:
    """Render an SVG document to PNG with headless Chromium (Debian's ``chromium``)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        fail("PNG output needs Chromium (apt-get install chromium); write .svg instead")
        raise AssertionError  # unreachable
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "board.svg")
        png = Path(tmp, "board.png")
        src.write_text(svg, encoding="utf-8")
        cmd = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={tmp}/profile",
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            src.as_uri(),
        ]
        done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        if not png.exists():
            fail(f"Chromium could not render the PNG: {done.stderr.decode(errors='replace').strip()[-300:]}")
        return png.read_bytes()


def _atomic_write(out: Path, data: bytes) -> None:
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(out)


@click.command("log", epilog=GAME_HELP)
@click.argument("game")
@DB
@format_option()
def log_command(game: str, corpus: CorpusRef | None, fmt: str) -> None:
    """Print the whole game as a numbered move list in readable notation."""
    from ..output import emit
    from ..replay.notation import move_list

    r = load_replay(game, corpus)
    moves = move_list(r)
    df = pd.DataFrame(
        {
            "#": [m.index for m in moves],
            "era": [m.era for m in moves],
            "round": [m.era_round for m in moves],
            "player": [m.player for m in moves],
            "move": [m.text for m in moves],
        }
    )
    if fmt == "table":
        _move_table(df)
    else:
        df["type"] = [m.type for m in moves]
        df["illegal"] = [m.illegal for m in moves]
        emit(df, fmt)
    if r.error is not None:
        click.echo(f"illegal action {r.error.index}: [{r.error.rule}] {r.error.message}", err=True)
        sys.exit(1)


def _move_table(df: pd.DataFrame) -> None:
    """The move list as a table whose last column wraps (the shared table helper shortens long cells)."""
    import unicodedata

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..output import printable

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
@click.option("--at", "at", type=int, default=None, help="Action the page opens at (default: the end).")
def view_command(game: str, corpus: CorpusRef | None, out: Path, at: int | None) -> None:
    """Write a self-contained HTML replay viewer of GAME (board, moves, players, charts; no server)."""
    from .viewer import write_viewer

    r = load_replay(game, corpus)
    write_viewer(r, out, start=at)
    size = out.stat().st_size
    note = f"; stops at illegal action {r.error.index} [{r.error.rule}]" if r.error is not None else ""
    click.echo(f"wrote {out} ({len(r.steps)} actions, {size / 1024:.0f} KiB{note})")


COMMANDS = (board_command, log_command, view_command)
