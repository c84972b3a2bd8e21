"""The ``convert`` command: games recorded elsewhere into brass-stats logs.

Exit status: 0 every record converted; 2 a record could not be converted (one
line per record: file, seq, field, why); 3 an internal error on some record. A directory is converted record by
record: one bad record never stops the rest, and a summary groups the failures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..exitcodes import BAD_INPUT, INTERNAL, OK
from ..log.convert import Outcome, convert_one, convert_records, records_in, summary_lines
from .common import fail


@click.group()
def convert() -> None:
    """Convert games recorded elsewhere into brass-stats logs."""


def convert_directory(directory: Path, out_dir: Path, show_progress: bool) -> list[Outcome]:
    """Every record of ``directory`` into ``out_dir``; each failure is one line on stderr as it happens."""
    records = records_in(directory)

    def report(o: Outcome) -> None:
        if o.error:
            click.echo(o.error, err=True)

    if not show_progress:
        return convert_records(records, out_dir, report)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("converting", total=len(records))

        def advance(o: Outcome) -> None:
            report(o)
            progress.advance(task)

        return convert_records(records, out_dir, advance)


@convert.command("quasrain")
@click.argument("record", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--setup",
    "setup",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Optional: a setup file made by the server's engine, checked field by field against the record.",
)
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="The log to write (a directory for a directory of records).",
)
def convert_quasrain(record: Path, setup: Path | None, out: Path) -> None:
    """Convert a BrassBirmingham (Quasrain-Coder) server record, or a directory of them.

    Only the record is needed: every chance outcome (hands, deck, merchant tiles,
    turn order, the Rail Era reshuffle) is rebuilt from its seed. With --setup,
    the setup file is checked against that and its published scores become the
    log's declared result. For a directory, each X.record.json (or other *.json
    but *.setup.json) becomes OUT/X.json, checked against X.setup.json beside it.
    """
    if record.is_dir():
        if setup is not None:
            raise click.UsageError(
                "--setup names one record's setup; in a directory, put X.setup.json beside X.record.json"
            )
        outcomes = convert_directory(record, out, sys.stderr.isatty())
        for line in summary_lines(outcomes):
            click.echo(line)
        internal = any(o.reason == "internal error" for o in outcomes)
        sys.exit(INTERNAL if internal else BAD_INPUT if any(o.error for o in outcomes) else OK)
    o = convert_one(record, setup, out)
    if o.error is not None:
        fail(BAD_INPUT, f"error: {o.error}")
    click.echo(f"wrote {out} ({o.actions} actions)")
