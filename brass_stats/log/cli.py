"""The ``convert`` command: games recorded elsewhere into brass-stats logs.

Exit status: 0 every record converted; 2 a record could not be converted (one
line per record: file, seq, field, why); 3 an internal error on some record. A directory is converted record by
record: one bad record never stops the rest, and a summary groups the failures.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import click

from ..errors import BrassError
from ..exitcodes import BAD_INPUT, INTERNAL, OK
from .quasrain import ConversionError, convert_files

RECORD_SUFFIX = ".record.json"
SETUP_SUFFIX = ".setup.json"


@click.group()
def convert() -> None:
    """Convert games recorded elsewhere into brass-stats logs."""


@dataclass
class Outcome:
    """One record's conversion: where the log went, or why it failed (``reason`` groups the summary)."""

    record: Path
    out: Path | None = None
    actions: int = 0
    error: str | None = None
    reason: str | None = None


def log_name(record: Path) -> str:
    """``gm7vza-4p.record.json`` -> ``gm7vza-4p.json``."""
    name = record.name
    stem = name[: -len(RECORD_SUFFIX)] if name.endswith(RECORD_SUFFIX) else record.stem
    return stem + ".json"


def records_in(directory: Path) -> list[Path]:
    """Every ``*.json`` in a directory except setup files, in name order."""
    return sorted(p for p in directory.glob("*.json") if p.is_file() and not p.name.endswith(SETUP_SUFFIX))


def sibling_setup(record: Path) -> Path | None:
    """``X.record.json`` is checked against ``X.setup.json`` when that file lies beside it."""
    if not record.name.endswith(RECORD_SUFFIX):
        return None
    setup = record.with_name(record.name[: -len(RECORD_SUFFIX)] + SETUP_SUFFIX)
    return setup if setup.is_file() else None


def convert_one(record: Path, setup: Path | None, out: Path) -> Outcome:
    """Convert one record; the log is written (atomically) only when the whole record converts."""
    try:
        log = convert_files(record, setup)
    except ConversionError as e:
        reason = f"field {e.field}" if e.field else "record"
        return Outcome(record, error=str(e), reason=reason + (f" [{e.rule}]" if e.rule else ""))
    except BrassError as e:
        return Outcome(record, error=f"{record}: {e}", reason=type(e).__name__)
    try:
        log.save(out)
    except OSError as e:
        return Outcome(record, error=f"{out}: cannot write the log: {e.strerror or e}", reason="cannot write")
    return Outcome(record, out, len(log.actions))


def convert_directory(directory: Path, out_dir: Path, show_progress: bool) -> list[Outcome]:
    records = records_in(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []

    def one(record: Path) -> Outcome:
        try:
            o = convert_one(record, sibling_setup(record), out_dir / log_name(record))
        except Exception as e:  # noqa: BLE001 - a bug on one record must not stop the others; reported as such
            o = Outcome(record, error=f"{record}: internal error ({type(e).__name__}: {e})", reason="internal error")
        if o.error:
            click.echo(o.error, err=True)
        outcomes.append(o)
        return o

    if show_progress:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("converting", total=len(records))
            for record in records:
                one(record)
                progress.advance(task)
    else:
        for record in records:
            one(record)
    return outcomes


def summary_lines(outcomes: list[Outcome]) -> list[str]:
    """``converted 3/4 records`` and one line per kind of failure (most frequent first)."""
    ok = sum(1 for o in outcomes if o.error is None)
    lines = [f"converted {ok}/{len(outcomes)} records; {len(outcomes) - ok} failed"]
    reasons = Counter(o.reason for o in outcomes if o.error is not None)
    for reason, count in reasons.most_common():
        example = next(o.record.name for o in outcomes if o.reason == reason)
        lines.append(f"  {count:4d}  {reason}  (e.g. {example})")
    return lines


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
        click.echo(f"error: {o.error}", err=True)
        sys.exit(BAD_INPUT)
    click.echo(f"wrote {out} ({o.actions} actions)")
