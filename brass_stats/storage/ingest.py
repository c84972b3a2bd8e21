"""Import game logs into a DuckDB store: validate, replay, compute the tables, write each game atomically.

Worker processes load, check and replay the logs and compute the tables; they send them back as Arrow
IPC bytes to the parent, the only process that writes to the database (a batch of games per
transaction, so a game is always whole or absent). A game already stored (same
game id) is recognised before it is replayed and skipped. A log that cannot be read, breaks a rule
or is unfinished goes to the ``failures`` table and nowhere else. A legal, finished game whose
declared result disagrees with the replay is stored (the replay is the truth) with
``games.declared_result_matches`` false and the differences in ``games.result_differences``.
With ``policy=AS_PLAYED`` (``--as-played``) a game that breaks only rules of
:data:`~brass_stats.engine.policy.AS_PLAYED_RULES` is stored with each break in ``deviations``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..engine.policy import STRICT, ChoicePolicy
from ..errors import IllegalAction, LogFormatError
from ..log.format import GameLog
from ..replay import gc_paused
from ..validate import expand_paths, replay_and_judge
from .duckdb_store import Store
from .tables import game_id, game_tables


@dataclass
class Outcome:
    """What happened to one file in a worker (before the parent writes it)."""

    file: str
    status: str  # "ok" (tables ready), "skipped" (already stored) or "failed"
    game_id: str | None = None
    tables: dict[str, bytes] | None = None  # table name -> Arrow IPC stream
    error_kind: str | None = None  # "format", "illegal", "result"
    rule: str | None = None
    action_index: int | None = None
    message: str | None = None
    actions: int = 0
    seconds: float = 0.0
    result_differs: bool = False  # stored, but its declared result disagrees with the replay
    deviations: int = 0  # rules broken as played (stored under --as-played)


@dataclass
class IngestReport:
    files: int = 0
    stored: int = 0
    skipped: int = 0
    failed: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[Outcome] = field(default_factory=list)
    result_differs: list[Outcome] = field(default_factory=list)  # stored with a disagreeing declared result
    as_played: list[Outcome] = field(default_factory=list)  # stored with deviations

    @property
    def exit_status(self) -> int:
        return 1 if self.failed else 0

    def summary(self) -> str:
        rate = self.files / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.stored} stored, {self.skipped} skipped (already stored), {self.failed} failed "
            f"of {self.files} file(s) in {self.seconds:.2f} s ({rate:.1f} files/s)"
        )


# -- serialising tables between processes ------------------------------------------------


def tables_to_ipc(tables: dict[str, pa.Table]) -> dict[str, bytes]:
    out = {}
    for name, t in tables.items():
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, t.schema) as w:
            w.write_table(t)
        out[name] = sink.getvalue().to_pybytes()
    return out


def tables_from_ipc(data: dict[str, bytes]) -> dict[str, pa.Table]:
    return {name: pa.ipc.open_stream(pa.py_buffer(b)).read_all() for name, b in data.items()}


# -- one file ------------------------------------------------------------------------------


def _failure(file: str, kind: str, err: dict[str, Any], gid: str | None, actions: int, start: float) -> Outcome:
    return Outcome(
        file,
        "failed",
        gid,
        error_kind=kind,
        rule=err.get("rule"),
        action_index=err.get("index"),
        message=err.get("message"),
        actions=actions,
        seconds=time.perf_counter() - start,
    )


def process_file(path: str, known: frozenset[str] | set[str] = frozenset(), policy: ChoicePolicy = STRICT) -> Outcome:
    """Load, check and replay one log and compute its tables (never raises for bad input)."""
    start = time.perf_counter()
    try:
        log = GameLog.load(path)
        gid = game_id(log)
    except LogFormatError as e:
        return _failure(path, "format", {"rule": "log.format", "message": str(e)}, None, 0, start)
    if gid in known:
        return Outcome(path, "skipped", gid, seconds=time.perf_counter() - start)
    r, verdict = replay_and_judge(log, keep_states=True, policy=policy)
    if r is None or not (verdict.ok or verdict.kind == "result"):
        return _failure(path, verdict.kind, verdict.error or {}, gid, verdict.actions, start)
    try:
        with gc_paused():
            tables = game_tables(r, path)
    except (IllegalAction, LogFormatError, ValueError) as e:  # pragma: no cover - a bug, but keep the run going
        return _failure(path, "tables", {"rule": "storage.tables", "message": str(e)}, gid, len(r.steps), start)
    return Outcome(
        path,
        "ok",
        gid,
        tables_to_ipc(tables),
        message="; ".join(verdict.detail) or None,
        actions=len(r.steps),
        seconds=time.perf_counter() - start,
        result_differs=verdict.kind == "result",
        deviations=len(verdict.deviations),
    )


_KNOWN: frozenset[str] = frozenset()
_POLICY: ChoicePolicy = STRICT


def _init_worker(known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
    global _KNOWN, _POLICY
    _KNOWN, _POLICY = known, policy


def _process_in_worker(path: str) -> Outcome:
    return process_file(path, _KNOWN, _POLICY)


# -- the run -----------------------------------------------------------------------------


class _Writer:
    """The parent's side: writes finished games to the store in batches (one transaction per batch)."""

    def __init__(self, store: Store, report: IngestReport, batch_size: int) -> None:
        self.store, self.report, self.batch_size = store, report, max(1, batch_size)
        self.pending: list[dict[str, pa.Table]] = []

    def __call__(self, o: Outcome) -> None:
        report = self.report
        report.actions += o.actions
        if o.status == "skipped":
            report.skipped += 1
        elif o.status == "failed":
            report.failed += 1
            report.failures.append(o)
            assert o.error_kind is not None
            self.store.record_failure(o.file, o.error_kind, o.rule, o.action_index, o.message, o.game_id)
        else:
            assert o.tables is not None
            if o.result_differs:
                report.result_differs.append(o)
            if o.deviations:
                report.as_played.append(o)
            self.pending.append(tables_from_ipc(o.tables))
            if len(self.pending) >= self.batch_size:
                self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        n = len(self.pending)
        stored = self.store.write_games(self.pending)
        self.pending = []
        self.report.stored += stored
        self.report.skipped += n - stored  # the same game twice in one run


def ingest(
    paths: Iterable[str | Path],
    db: str | Path | Store,
    parquet_dir: str | Path | None = None,
    workers: int | None = None,
    progress: bool = True,
    batch_size: int = 32,
    policy: ChoicePolicy = STRICT,
) -> IngestReport:
    """Import every game under ``paths`` (files, directories, globs) into the DuckDB file ``db``.

    ``workers`` processes replay the games (default: all cores; 1 runs everything in this process).
    Finished games are written ``batch_size`` at a time, each batch in one transaction: an interrupted
    run loses at most the games of the batch being written, never part of a game.
    With ``parquet_dir`` the whole store is exported to Parquet at the end (see :meth:`Store.to_parquet`).
    ``policy``: :data:`~brass_stats.engine.policy.STRICT` (default) or ``AS_PLAYED`` (see the module doc).
    """
    start = time.perf_counter()
    files = [str(p) for p in expand_paths([str(p) for p in paths])]
    report = IngestReport(files=len(files))
    store = db if isinstance(db, Store) else Store(db)
    try:
        known = frozenset(store.game_ids())
        writer = _Writer(store, report, batch_size)
        with _progress(progress and len(files) > 1, len(files)) as advance:
            workers = workers or os.cpu_count() or 1
            if workers == 1 or len(files) <= 1:
                for f in files:
                    writer(process_file(f, known, policy))
                    advance()
            else:

                def done(o: Outcome) -> None:
                    writer(o)
                    advance()

                _run_pool(files, workers, known, done, policy)
            writer.flush()
        if parquet_dir is not None:
            store.to_parquet(parquet_dir)
    finally:
        if not isinstance(db, Store):
            store.close()
    report.seconds = time.perf_counter() - start
    return report


def _run_pool(
    files: list[str],
    workers: int,
    known: frozenset[str],
    done: Callable[[Outcome], object],
    policy: ChoicePolicy = STRICT,
) -> None:
    """Replay in worker processes, handing each result to ``done`` in the parent as soon as it is ready.

    At most a few files per worker are in flight, so memory stays bounded however many files there are.
    """
    # pyarrow imports pandas on its first conversion (about a second): do it once here, so that forked
    # workers inherit it instead of each paying for it
    pa.array([0], pa.int32())
    pending: set[Future[Outcome]] = set()
    queue = iter(files)
    limit = workers * 4
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(known, policy)) as pool:
        try:
            while True:
                while len(pending) < limit:
                    f = next(queue, None)
                    if f is None:
                        break
                    pending.add(pool.submit(_process_in_worker, f))
                if not pending:
                    break
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    done(fut.result())
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


class _progress:
    """A rich progress bar (or nothing): ``with _progress(on, total) as advance: advance()``."""

    def __init__(self, on: bool, total: int) -> None:
        self.on, self.total = on, total
        self.bar: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.on:
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
        )
        self.bar.__enter__()
        task = self.bar.add_task("importing", total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def replay_files(
    files: Iterable[str | Path],
    db: str | Path | Store,
    parquet_dir: str | Path | None = None,
    policy: ChoicePolicy = STRICT,
) -> IngestReport:
    """The ``replay`` command: replay the given files in this process and store them (see :func:`ingest`)."""
    return ingest(files, db, parquet_dir, workers=1, progress=False, policy=policy)
