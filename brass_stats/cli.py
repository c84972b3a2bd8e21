"""The ``brass-stats`` command line."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from . import validate as V

FILE = click.Path(dir_okay=False, path_type=Path)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="brass-stats")
def main() -> None:
    """Replay, validate and analyse recorded games of Brass: Birmingham."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per file.")
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON summary of the whole run here."
)
@click.option("--workers", type=int, default=None, help="Parallel processes (default: all cores).")
@click.option("--quiet", "-q", is_flag=True, help="Print only failures.")
def validate(paths: tuple[str, ...], as_json: bool, report: Path | None, workers: int | None, quiet: bool) -> None:
    """Replay game logs and check every action against the rules.

    PATHS are files, directories (every *.json below) or glob patterns.
    Exit status: 0 all legal and matching any declared result; 1 an illegal
    action or a different result; 2 a file that cannot be read as a game
    (bad JSON, wrong format version, unknown names, missing fields, truncated).
    """
    files = V.expand_paths(paths)
    if not files:
        click.echo("no game files found in: " + " ".join(paths), err=True)
        sys.exit(V.MALFORMED)
    start = time.perf_counter()
    show_progress = len(files) > 1 and not as_json and sys.stderr.isatty()

    def emit(v: V.Validation) -> None:
        if as_json:
            click.echo(json.dumps(v.to_json() | {"error": v.error}, ensure_ascii=False))
        elif not (quiet and v.ok):
            for line in V.describe(v):
                click.echo(line)

    if show_progress:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("validating", total=len(files))

            def on_done(v: V.Validation) -> None:
                progress.advance(task)
                emit(v)

            results = V.validate_many(files, workers, on_done)
    else:
        results = V.validate_many(files, workers, emit)
    wall = time.perf_counter() - start
    summ = V.summary(results, wall)
    if report is not None:
        tmp = report.with_name(report.name + ".tmp")
        tmp.write_text(json.dumps(summ, indent=1, ensure_ascii=False), encoding="utf-8")
        tmp.replace(report)
    if len(files) > 1 and not as_json:
        click.echo(
            f"{summ['passed']}/{summ['total']} games valid; {summ['failed']} failed "
            f"({summ['wall_seconds']:.2f} s, mean replay {summ['replay_seconds_mean'] * 1000:.1f} ms)"
        )
    sys.exit(max((v.exit_status for v in results), default=0))


def _register() -> None:
    from .analysis.cli import COMMANDS
    from .analysis.corpus_cli import COMMANDS as CORPUS_COMMANDS
    from .bots.cli import selfplay_command
    from .log.cli import convert
    from .storage.cli import ingest_command, replay_command

    for cmd in (convert, replay_command, ingest_command, selfplay_command, *COMMANDS, *CORPUS_COMMANDS):
        main.add_command(cmd)


_register()

if __name__ == "__main__":  # pragma: no cover
    main()
