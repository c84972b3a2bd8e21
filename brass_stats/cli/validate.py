"""The ``validate`` command: replay game logs and check every action against the rules."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from ..engine.policy import AS_PLAYED, STRICT
from ..exitcodes import BAD_INPUT, OK
from ..validation import RowWriter, Validation, expand_paths, summary, validate_many
from .common import AS_PLAYED_OPTION, fail
from .output import format_option, printable


@click.command("validate")
@click.argument("paths", nargs=-1, required=True)
@format_option()
@click.option("--json", "as_json", is_flag=True, hidden=True, help="Same as --format json.")
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON summary of the whole run here."
)
@click.option("--workers", type=int, default=None, help="Parallel processes (default: all cores).")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Leave out the files that pass, in every --format: json and csv print nothing when all pass (the exit "
    "status says it); the table of several files still ends with its summary line.",
)
@AS_PLAYED_OPTION
def validate_command(
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
    Without it, a game that fails only that way gets a hint line (JSON: "as_played_ok": true).

    Actions are counted from 1 in the readable lines; JSON and CSV keep the 0-based index.

    Exit status (the worst file's): 0 all legal and matching any declared result; 1 an illegal
    action or a different result; 2 a file that cannot be read as a whole game (bad JSON, wrong
    format version, unknown names, missing fields, over a limit, a log that ends before the game
    does); 3 an internal error (please report the file).
    """
    fmt = "json" if as_json else fmt
    policy = AS_PLAYED if as_played else STRICT
    files = expand_paths(paths)
    if not files:
        fail(BAD_INPUT, "no game files found in: " + " ".join(paths))
    start = time.perf_counter()
    show_progress = len(files) > 1 and fmt == "table" and sys.stderr.isatty()
    rows = RowWriter(fmt)

    def emit(v: Validation) -> None:
        if quiet and v.ok:
            return
        for line in rows.lines(v):
            # readable lines quote names: control characters (a terminal escape) are shown, not obeyed
            click.echo(printable(line, 20_000) if fmt == "table" else line)

    if show_progress:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("validating", total=len(files))

            def on_done(v: Validation) -> None:
                progress.advance(task)
                emit(v)

            results = validate_many(files, workers, on_done, policy)
    else:
        results = validate_many(files, workers, emit, policy)
    wall = time.perf_counter() - start
    summ = summary(results, wall)
    if report is not None:
        tmp = report.with_name(report.name + ".tmp")
        tmp.write_bytes(json.dumps(summ, indent=1, ensure_ascii=False).encode("utf-8", "backslashreplace"))
        tmp.replace(report)
    if len(files) > 1 and fmt == "table":
        click.echo(
            f"{summ['passed']}/{summ['total']} games valid; {summ['failed']} failed "
            f"({summ['wall_seconds']:.2f} s, mean replay {summ['replay_seconds_mean'] * 1000:.1f} ms)"
        )
        n, failed = summ["pass_as_played"], summ["failed"]
        if n:
            if n == failed:
                which = "the failed file passes" if n == 1 else f"all {n} failed files pass"
            else:
                which = f"{n} of the {failed} failed files pass"
            click.echo(f"hint: {which} with --as-played, which accepts the departures of games as played")
    sys.exit(max((v.exit_status for v in results), default=OK))
