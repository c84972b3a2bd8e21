"""The ``brass-stats`` command line."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import traceback
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NoReturn

import click

from . import exitcodes
from . import validation as V
from .engine.policy import AS_PLAYED, STRICT
from .errors import BrassError
from .exitcodes import BAD_INPUT, INTERNAL, OK
from .output import format_option, printable
from .storage.cli import AS_PLAYED_OPTION

FILE = click.Path(dir_okay=False, path_type=Path)


class BrassGroup(click.Group):
    """The command group with the one place where every command's failures become an exit status.

    Bad input (a :class:`BrassError`, a file that cannot be opened or written) prints one line and
    exits :data:`~brass_stats.exitcodes.BAD_INPUT`; anything else is a bug: one line asking for a
    report, exit :data:`~brass_stats.exitcodes.INTERNAL` (``BRASS_STATS_DEBUG=1`` shows the traceback).
    Never a Python traceback by default.
    """

    def invoke(self, ctx: click.Context) -> Any:
        _tolerant_streams()
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrassError as e:
            # an error may name its own status (a store in use by another process: BUSY)
            _fail(getattr(e, "exit_status", BAD_INPUT), f"error: {e}")
        except OSError as e:
            if isinstance(e, BrokenPipeError):  # `brass-stats ... | head`: the reader has gone, not an error
                _quiet_stdout()
                ctx.exit(OK)
            where = f"{os.fsdecode(e.filename)}: " if e.filename is not None else ""
            _fail(BAD_INPUT, f"error: {where}{e.strerror or e}")
        except Exception as e:  # the single catch-all: a bug, reported as such
            if os.environ.get("BRASS_STATS_DEBUG"):
                traceback.print_exc()
            _fail(
                INTERNAL,
                f"internal error: {type(e).__name__}: {e}. This is a bug in brass-stats {_version()}; please "
                "report it with the command and the input file (BRASS_STATS_DEBUG=1 shows the traceback).",
            )


def _fail(status: int, message: str) -> NoReturn:
    click.echo(printable(message, 2000), err=True)
    sys.exit(status)


def _tolerant_streams() -> None:
    """Text that cannot be encoded (a lone surrogate in a file name) is escaped, never an exception."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change
                reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    # Python would complain again while flushing stdout at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


def _version() -> str:
    try:
        return version("brass-stats")
    except PackageNotFoundError:
        return "(unknown version)"


@click.group(
    cls=BrassGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=exitcodes.help_text()
    + " Limits on input files (size, actions, string length, nesting, integer digits) are set with"
    " BRASS_STATS_MAX_* environment variables; see docs/log-format.md.",
)
@click.version_option(package_name="brass-stats")
def main() -> None:
    """Replay, validate and analyse recorded games of Brass: Birmingham and Brass: Lancashire.

    Game logs are JSON files in the brass-stats log format (docs/log-format.md); `convert`
    turns records from other servers into logs.
    """


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option()
@click.option("--json", "as_json", is_flag=True, hidden=True, help="Same as --format json.")
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON summary of the whole run here."
)
@click.option("--workers", type=int, default=None, help="Parallel processes (default: all cores).")
@click.option("--quiet", "-q", is_flag=True, help="Print only failures.")
@AS_PLAYED_OPTION
def validate(
    paths: tuple[str, ...],
    fmt: str,
    as_json: bool,
    report: Path | None,
    workers: int | None,
    quiet: bool,
    as_played: bool,
) -> None:
    """Replay game logs and check every action against the rules.

    PATHS are files, directories (every *.json below) or glob patterns. Every file gets a
    verdict, whatever is wrong with it; one bad file never stops the others.

    --format table prints readable lines per file and a summary; csv prints one row per file;
    json prints one JSON object per file per line (JSON Lines), as each file is done.

    --as-played accepts the departures of a game as played (a coal or iron source breaking only a
    source-priority rule, links beyond the link tiles) and lists them; anything else still fails.

    Exit status (the worst file's): 0 all legal and matching any declared result; 1 an illegal
    action, an unfinished game or a different result; 2 a file that cannot be read as a game
    (bad JSON, wrong format version, unknown names, missing fields, over a limit); 3 an internal
    error (please report the file).
    """
    fmt = "json" if as_json else fmt
    policy = AS_PLAYED if as_played else STRICT
    files = V.expand_paths(paths)
    if not files:
        click.echo("no game files found in: " + " ".join(paths), err=True)
        sys.exit(BAD_INPUT)
    start = time.perf_counter()
    show_progress = len(files) > 1 and fmt == "table" and sys.stderr.isatty()
    rows = V.RowWriter(fmt)

    def emit(v: V.Validation) -> None:
        if quiet and v.ok:
            return
        for line in rows.lines(v):
            # readable lines quote names: control characters (a terminal escape) are shown, not obeyed
            click.echo(printable(line, 20_000) if fmt == "table" else line)

    if show_progress:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("validating", total=len(files))

            def on_done(v: V.Validation) -> None:
                progress.advance(task)
                emit(v)

            results = V.validate_many(files, workers, on_done, policy)
    else:
        results = V.validate_many(files, workers, emit, policy)
    wall = time.perf_counter() - start
    summ = V.summary(results, wall)
    if report is not None:
        tmp = report.with_name(report.name + ".tmp")
        tmp.write_bytes(json.dumps(summ, indent=1, ensure_ascii=False).encode("utf-8", "backslashreplace"))
        tmp.replace(report)
    if len(files) > 1 and fmt == "table":
        click.echo(
            f"{summ['passed']}/{summ['total']} games valid; {summ['failed']} failed "
            f"({summ['wall_seconds']:.2f} s, mean replay {summ['replay_seconds_mean'] * 1000:.1f} ms)"
        )
    sys.exit(max((v.exit_status for v in results), default=OK))


def _register() -> None:
    from .analysis.cli import COMMANDS
    from .analysis.corpus_cli import COMMANDS as CORPUS_COMMANDS
    from .bots.cli import selfplay_command
    from .log.cli import convert
    from .presentation.cli import COMMANDS as PRESENTATION_COMMANDS
    from .storage.cli import ingest_command, replay_command

    commands = (*COMMANDS, *PRESENTATION_COMMANDS, *CORPUS_COMMANDS)
    for cmd in (convert, replay_command, ingest_command, selfplay_command, *commands):
        main.add_command(cmd)


_register()

if __name__ == "__main__":  # pragma: no cover
    main()
