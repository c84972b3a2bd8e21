"""The ``replay`` and ``ingest`` commands (standalone click commands, registered on the main group).

Exit status: 0 every game stored or already stored; 1 a game failed validation (it is in the
``failures`` table); 2 no input files found (or a named file does not exist), or the store cannot be
opened; 4 (:data:`~brass_stats.exitcodes.BUSY`) the store is being written by another process.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from ..engine.policy import AS_PLAYED, STRICT
from ..exitcodes import BAD_INPUT, BUSY
from ..storage import IngestReport, ingest, replay_files
from ..storage.corpus import CorpusBusy, CorpusError
from ..storage.ingest import iter_game_files
from ..validation import expand_paths, is_glob_pattern
from .common import AS_PLAYED_OPTION, fail
from .output import emit, format_option


def _echo_report(report: IngestReport, parquet: Path | None, fmt: str = "table") -> None:
    """Failures, one line each on stderr; then the summary on stdout in the chosen ``--format``."""
    for o in report.failures:
        where = f" at action {o.action_index + 1}" if o.action_index is not None else ""  # counted from 1
        click.echo(f"{o.file}: FAILED ({o.error_kind}{', ' + o.rule if o.rule else ''}){where}: {o.message}", err=True)
    for o in report.result_differs:
        click.echo(f"{o.file}: stored, but its declared result differs from the replay: {o.message}", err=True)
    for o in report.as_played:
        click.echo(f"{o.file}: stored as played, with {o.deviations} departure(s) from the rules", err=True)
    if fmt == "table":
        click.echo(report.summary())
        if parquet is not None:
            click.echo(f"parquet written to {parquet}")
        return
    row = {
        "files": report.files,
        "stored": report.stored,
        "skipped": report.skipped,
        "failed": report.failed,
        "result_differs": len(report.result_differs),
        "stored_as_played": len(report.as_played),
        "actions": report.actions,
        "seconds": round(report.seconds, 3),
        "parquet": None if parquet is None else str(parquet),
    }
    emit([row], fmt)


def _store_error(e: Exception) -> NoReturn:
    fail(BUSY if isinstance(e, CorpusBusy) else BAD_INPUT, f"error: {e}")


def _check_inputs(items: tuple[str, ...]) -> list[Path]:
    files = expand_paths(items)
    missing = [str(p) for p in files if not p.exists()]
    if not files or missing:
        fail(BAD_INPUT, "no game files found in: " + " ".join(missing or list(items)))
    return files


@click.command("replay", short_help="Import a few game logs in this process (ingest: whole collections, in parallel).")
@click.argument("files", nargs=-1, required=True)
@click.option("--db", required=True, type=click.Path(dir_okay=False, path_type=Path), help="DuckDB file to write to.")
@click.option(
    "--parquet", type=click.Path(file_okay=False, path_type=Path), help="Also export every table as Parquet here."
)
@format_option()
@AS_PLAYED_OPTION
def replay_command(files: tuple[str, ...], db: Path, parquet: Path | None, fmt: str, as_played: bool) -> None:
    """Replay game logs one by one in this process and store their tables in a DuckDB file.

    The same result as `ingest`, without worker processes: for a few files, for debugging, or
    where starting processes is not allowed. For collections use `ingest` (parallel).
    """
    paths = _check_inputs(files)
    try:
        report = replay_files(paths, db, parquet, policy=AS_PLAYED if as_played else STRICT)
    except (CorpusBusy, CorpusError) as e:
        _store_error(e)
    _echo_report(report, parquet, fmt)
    sys.exit(report.exit_status)


@click.command(
    "ingest",
    short_help="Import game logs into a DuckDB file or a Parquet dataset, in parallel (processes or a Dask cluster).",
)
@click.argument("paths", nargs=-1, required=True)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help="DuckDB file to import into.")
@click.option(
    "--parquet",
    type=click.Path(file_okay=False, path_type=Path),
    help="Parquet dataset folder: with --db, export the whole database there afterwards (a new version of "
    "the dataset); alone, import into the dataset (appending to it).",
)
@click.option(
    "--workers", type=click.IntRange(min=1), default=None, help="Local worker processes (default: all cores)."
)
@click.option(
    "--cluster",
    metavar="local[:N]|tcp://HOST:PORT",
    help="Run on Dask workers: a LocalCluster of N processes (default: one per core), or a running scheduler.",
)
@click.option(
    "--batch-size", type=click.IntRange(min=1), default=32, show_default=True, help="Files per task (and per commit)."
)
@format_option()
@AS_PLAYED_OPTION
def ingest_command(
    paths: tuple[str, ...],
    db: Path | None,
    parquet: Path | None,
    workers: int | None,
    cluster: str | None,
    batch_size: int,
    fmt: str,
    as_played: bool,
) -> None:
    """Import every game log under PATHS (files, directories, glob patterns) into a DuckDB file or a Parquet dataset.

    Games already stored are skipped; games that fail are recorded in the failures table (and listed,
    grouped by rule, at the end). Each task replays a batch of files and writes its tables itself; the
    command commits whole batches, so an interrupted import can simply be run again.
    A legal game whose declared result differs from the replay is stored, flagged in the games table.
    This is the import command for collections; `replay` does the same in one process.
    """
    if db is None and parquet is None:
        raise click.UsageError("give --db FILE (a DuckDB file) or --parquet DIR (a Parquet dataset), or both")
    if cluster is not None and workers is not None:
        raise click.UsageError("--workers is for local processes; with --cluster use local:N")
    if cluster is not None:
        from ..tasks.cluster import parse_cluster

        try:
            parse_cluster(cluster)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--cluster") from None
    _check_streamed_inputs(paths)
    try:
        report = ingest(
            paths,
            db,
            parquet,
            workers=workers,
            progress=sys.stderr.isatty() and fmt == "table",
            batch_size=batch_size,
            cluster=cluster,
            policy=AS_PLAYED if as_played else STRICT,
        )
    except (CorpusBusy, CorpusError) as e:
        _store_error(e)
    _echo_report(report, parquet if db is not None else None, fmt)
    sys.exit(report.exit_status)


def _check_streamed_inputs(items: tuple[str, ...]) -> None:
    """Named files must exist and there must be at least one file (without listing everything up front)."""
    missing = [i for i in items if "://" not in i and not is_glob_pattern(i) and not Path(i).exists()]
    if missing or next(iter_game_files(items), None) is None:
        fail(BAD_INPUT, "no game files found in: " + " ".join(missing or list(items)))
