"""The run: :func:`ingest` picks the store's committer and the runner, feeds batches, commits what finishes."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import duckdb

from ...engine.policy import STRICT, ChoicePolicy
from ...tasks import ProgressBar
from ...tasks.cluster import require_dask
from ..dataset import DatasetWriter, new_batch_id
from ..duckdb_store import Store, StoreWriteError
from .dataset_committer import DatasetCommitter, dataset_game_ids
from .duckdb_committer import LOADERS_MAX, WORKERS_PER_LOADER, DuckDBCommitter
from .listing import file_batches, iter_game_files
from .merge import merge_commits
from .results import BatchResult, IngestReport
from .runners import DaskRunner, InlineRunner, ProcessRunner, Runner, WorkerLost
from .worker import KEPT_MESSAGE


class _Committer(Protocol):
    dest: Path
    partitioned: bool
    draining: bool  # the file listing has ended: what is left is handed out or read ahead

    def commit(self, results: list[BatchResult]) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


def run_import(
    files: Iterable[str],
    runner: Runner,
    committer: _Committer,
    report: IngestReport,
    batch_size: int,
    in_flight: int,
    advance: Callable[[int], None],
) -> None:
    """Feed batches to ``runner`` (at most ``in_flight`` at a time), commit what finishes, until all are done."""
    listing_ended = False

    def ended() -> None:
        nonlocal listing_ended
        listing_ended = True

    chunks = file_batches(iter(files), max(1, batch_size), in_flight, ended)
    listed = False  # every batch handed out
    pending: dict[Any, list[str]] = {}
    dest, partitioned = str(committer.dest), committer.partitioned

    def account(results: list[BatchResult]) -> None:
        n = sum(len(r.game_ids) for r in results)
        # this thread's CPU (a one-process import loads here; loader threads count their own)
        t0, c0 = time.perf_counter(), time.thread_time()
        stored = committer.commit(results)
        report.commit_seconds += time.perf_counter() - t0
        report.commit_cpu_seconds += time.thread_time() - c0
        report.stored += stored
        report.skipped += n - stored
        for r in results:
            report.files += r.files_done
            report.skipped += r.skipped
            report.failed += len(r.failures)
            report.failures.extend(r.failures)
            report.result_differs.extend(o for o in r.flagged if o.result_differs)
            report.as_played.extend(o for o in r.flagged if o.deviations)
            report.actions += r.actions
            report.stored_actions += r.stored_actions
            report.task_seconds += r.seconds
            report.task_cpu_seconds += r.cpu_seconds
            advance(r.files_done)

    try:
        while True:
            while len(pending) < in_flight and not listed:
                chunk = next(chunks, None)
                if chunk is None:
                    listed = True
                    break
                pending[runner.submit(chunk, dest, new_batch_id(), partitioned)] = chunk
            # the last batches are out or read ahead: load what finishes as it comes (see DuckDBCommitter)
            committer.draining = listing_ended
            if not pending:
                break
            done, _ = runner.wait_first(set(pending))
            results: list[BatchResult] = []
            for fut in done:
                paths = pending.pop(fut)
                try:
                    results.append(runner.result(fut))
                except WorkerLost:
                    # find the file that killed its worker: every file of the batch in a process of its own
                    results.extend(runner.alone(p, dest, partitioned) for p in paths)
            account(results)
        t0, c0 = time.perf_counter(), time.thread_time()
        committer.flush()  # what a committer gathered, and the loads still running (see DuckDBCommitter)
        report.flush_seconds = time.perf_counter() - t0
        report.commit_seconds += report.flush_seconds
        report.commit_cpu_seconds += time.thread_time() - c0 + getattr(committer, "load_cpu_seconds", 0.0)
    except BaseException:
        # interrupted (Ctrl-C, an error): the batches that finished are whole, keep them
        with contextlib.suppress(Exception):
            committer.flush()
        raise
    finally:
        for fut in pending:
            with contextlib.suppress(Exception):
                fut.cancel()


def ingest(
    paths: Iterable[str | Path],
    db: str | Path | Store | None = None,
    parquet_dir: str | Path | None = None,
    workers: int | None = None,
    progress: bool = True,
    batch_size: int = 32,
    cluster: str | None = None,
    compact: bool = True,
    policy: ChoicePolicy = STRICT,
) -> IngestReport:
    """Import every game under ``paths`` (files, directories, globs) into a DuckDB file or a Parquet dataset.

    With ``db`` the games go to the DuckDB file (and, with ``parquet_dir`` too, the whole store is then
    exported to that folder as a new dataset version, see :meth:`Store.to_parquet`). With only
    ``parquet_dir`` they are appended to the Parquet dataset there (created if needed).

    ``workers`` local processes replay the games (default: all cores; 1 runs everything in this process),
    or the workers of the Dask cluster ``cluster`` (``"local"``, ``"local:N"`` or a scheduler address,
    see :mod:`brass_stats.tasks.cluster`). Each task handles ``batch_size`` files and writes its own
    files; each finished batch is committed whole (an interrupted run loses at most the batches not yet
    committed, never part of a game). With ``compact`` the batches a run adds to a dataset are merged
    into one file per table and partition at the end.
    """
    start = time.perf_counter()
    report = IngestReport()
    if db is None and parquet_dir is None:
        raise ValueError("ingest needs a DuckDB file (db) or a Parquet dataset folder (parquet_dir)")
    if cluster is not None:
        require_dask()  # before the store is opened: without Dask, nothing is written
    store: Store | None = None
    writer: DatasetWriter | None = None
    committer: _Committer
    try:
        if db is not None:
            store = db if isinstance(db, Store) else Store(db)
            stored = store.game_ids()
            committer = DuckDBCommitter(store, stored)  # its loaders are set below, with the workers
        else:
            assert parquet_dir is not None
            writer = DatasetWriter(Path(parquet_dir).absolute())  # workers write there, from any folder
            stored = dataset_game_ids(Path(parquet_dir))
            committer = DatasetCommitter(writer, stored)
        known = frozenset(stored)
        runner: Runner
        if cluster is not None:
            runner = DaskRunner(cluster, known, policy)
        else:
            n = workers or os.cpu_count() or 1
            runner = InlineRunner(known, policy) if n == 1 else ProcessRunner(n, known, policy)
        n, in_flight = runner.workers(), runner.in_flight()
        if isinstance(committer, DuckDBCommitter):
            committer.loaders = min(LOADERS_MAX, -(-n // WORKERS_PER_LOADER))
            committer.background = n > 1 or cluster is not None
        try:
            with ProgressBar("importing", show=progress, transient=True) as bar:
                files = iter_game_files(paths)
                if cluster is not None:  # workers elsewhere, in other folders: paths they can open
                    files = (f if "://" in f else os.path.abspath(f) for f in files)
                try:
                    run_import(files, runner, committer, report, batch_size, in_flight, bar.advance)
                except duckdb.Error as e:  # the store could not take a group (a full disk): not a bug
                    if store is None:
                        raise
                    raise StoreWriteError(f"{store.path}: the games could not be stored: {e}. {KEPT_MESSAGE}") from e
            merge = isinstance(committer, DatasetCommitter) and len(committer.commits) > 1
            if writer is not None and compact and merge:
                assert isinstance(committer, DatasetCommitter)
                # merged by the workers, a table each, committed here
                t0, c0 = time.perf_counter(), time.process_time()
                merge_commits(writer, committer.commits, runner)
                report.compact_seconds = time.perf_counter() - t0
                report.compact_cpu_seconds = time.process_time() - c0
        finally:
            runner.close()
            committer.close()
        if store is not None and parquet_dir is not None:
            store.to_parquet(parquet_dir)
    finally:
        if writer is not None:
            writer.close()
        if store is not None and not isinstance(db, Store):
            t0, c0 = time.perf_counter(), time.process_time()
            failing = sys.exc_info()[0] is not None  # an error on its way out: the close must not replace it
            try:
                store.close()  # DuckDB's last checkpoint: the parent's too
            except duckdb.Error:
                if not failing:
                    raise
            report.commit_seconds += time.perf_counter() - t0
            report.commit_cpu_seconds += time.process_time() - c0
    report.seconds = time.perf_counter() - start
    return report


def replay_files(
    files: Iterable[str | Path],
    db: str | Path | Store,
    parquet_dir: str | Path | None = None,
    policy: ChoicePolicy = STRICT,
) -> IngestReport:
    """The ``replay`` command: replay the given files in this process and store them (see :func:`ingest`)."""
    return ingest(files, db, parquet_dir, workers=1, progress=False, policy=policy)
