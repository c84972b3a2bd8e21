"""Server records into brass-stats log files: one record, or a directory of them, record by record.

A directory is converted record by record: one bad record never stops the rest, and every record gets
an :class:`Outcome` (where its log went, or why it failed) that a summary groups by reason.

>>> log_name(Path("gm7vza-4p.record.json")), log_name(Path("game.json"))
('gm7vza-4p.json', 'game.json')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import BrassError
from .brassbirmingham.records import ConversionError, convert_files

RECORD_SUFFIX = ".record.json"
SETUP_SUFFIX = ".setup.json"


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


def convert_records(
    records: Iterable[Path], out_dir: Path, on_done: Callable[[Outcome], None] | None = None
) -> list[Outcome]:
    """Convert each record (see :func:`records_in`) into ``out_dir``/:func:`log_name`, checked against its
    :func:`sibling_setup`; ``on_done`` hears of each outcome as it comes. A bug on one record is its outcome
    (reason ``internal error``), never the end of the run."""
    out_dir.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    for record in records:
        try:
            o = convert_one(record, sibling_setup(record), out_dir / log_name(record))
        except Exception as e:  # noqa: BLE001 - a bug on one record must not stop the others; reported as such
            o = Outcome(record, error=f"{record}: internal error ({type(e).__name__}: {e})", reason="internal error")
        outcomes.append(o)
        if on_done is not None:
            on_done(o)
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
