"""Import game logs: validate, replay, compute the tables, store each game atomically; on cores or a cluster.

One design serves every way of running an import:

* :func:`process_file` is the per-game work: load, check, replay and build the tables of one log, or a
  failure record (it never raises for a file, even on a bug: that is a failure of kind ``internal``).
* :func:`run_batch` is one task: a batch of files through :func:`process_file`, the finished games'
  tables concatenated and written by the worker itself as Parquet files (temporary name, renamed when
  complete), plus a ``failures`` file. It returns only a small summary.
* The parent only commits: into a DuckDB file it bulk-loads a batch's staging files in one
  transaction (several finished batches at once when they are waiting); into a Parquet dataset it
  writes the batch's commit record (see :mod:`.dataset`).

Workers are local processes, this process (``workers=1``) or the workers of a Dask cluster
(:mod:`.cluster`). Every guarantee holds for all of them: a game is whole or absent (a batch is
committed in one step); a game already stored (same content-hash id) is skipped before it is
replayed, and a game met twice is stored once; a killed run leaves only uncommitted files, which the
next run deletes before it imports the rest; a file that fails in any way (even one that kills its
worker process) is recorded in ``failures`` and every other game is still stored.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

import duckdb
import pyarrow as pa

from ..engine.policy import STRICT, ChoicePolicy
from ..errors import IllegalAction, LogFormatError
from ..log.format import GameLog
from ..replay import gc_paused
from ..validate import replay_and_judge
from .dataset import DatasetWriter, filter_games, new_batch_id, write_batch_files
from .duckdb_store import FAILURES_SCHEMA, Store, StoreWriteError
from .tables import SCHEMAS, GameParts, assemble_tables, game_id, game_parts

R = TypeVar("R")


@dataclass
class Outcome:
    """What happened to one file in a worker (before the parent commits it)."""

    file: str
    status: str  # "ok" (tables ready), "skipped" (already stored) or "failed"
    game_id: str | None = None
    tables: GameParts | None = None  # the game's tables before Arrow (a batch converts them together)
    error_kind: str | None = None  # "format", "illegal", "result", "tables", "internal"
    rule: str | None = None
    action_index: int | None = None
    message: str | None = None
    actions: int = 0
    seconds: float = 0.0
    result_differs: bool = False  # stored, but its declared result disagrees with the replay
    deviations: int = 0  # rules broken as played (stored under --as-played)

    def without_tables(self) -> Outcome:
        return Outcome(
            self.file,
            self.status,
            self.game_id,
            None,
            self.error_kind,
            self.rule,
            self.action_index,
            self.message,
            self.actions,
            self.seconds,
            self.result_differs,
            self.deviations,
        )


@dataclass
class BatchResult:
    """What a task reports back: the files it wrote (not yet committed) and a summary of its games."""

    batch: str
    files: list[str]  # relative to the destination folder
    game_ids: list[str]  # games in the files, in order
    files_done: int = 0
    skipped: int = 0
    failures: list[Outcome] = field(default_factory=list)
    actions: int = 0  # actions replayed (stored games and failures)
    stored_actions: int = 0  # actions of the games in the files
    seconds: float = 0.0  # time inside the task
    cpu_seconds: float = 0.0  # CPU time of the task's process inside the task
    worker: str = ""
    flagged: list[Outcome] = field(default_factory=list)  # stored with a disagreeing result or deviations


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
    task_seconds: float = 0.0  # summed over tasks: the work the workers did
    task_cpu_seconds: float = 0.0  # the same in CPU time (what a loaded machine inflates least)
    commit_seconds: float = 0.0  # the parent's own work: committing batches (the serial part of a run)
    commit_cpu_seconds: float = 0.0  # the same in CPU time (of the thread committing, and of the loader threads)
    compact_seconds: float = 0.0  # merging a dataset's new batches at the end (serial, after the workers)
    compact_cpu_seconds: float = 0.0
    stored_actions: int = 0
    # the final flush: what was left to load when the last worker's result came (with many workers, the
    # run's tail: the loads in one process lag behind the workers)
    flush_seconds: float = 0.0

    @property
    def exit_status(self) -> int:
        return 1 if self.failed else 0

    def by_rule(self) -> list[tuple[str, int]]:
        """Failures grouped by the rule they broke (or the kind of failure), most frequent first."""
        counts = Counter(o.rule or o.error_kind or "unknown" for o in self.failures)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def summary(self) -> str:
        rate = self.files / self.seconds if self.seconds > 0 else 0.0
        text = (
            f"{self.stored} stored, {self.skipped} skipped (already stored), {self.failed} failed "
            f"of {self.files} file(s) in {self.seconds:.2f} s ({rate:.1f} files/s)"
        )
        if self.failures:
            text += "\nfailures by rule: " + ", ".join(f"{rule} {n}" for rule, n in self.by_rule())
        return text


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


def load_log(path: str) -> GameLog:
    """A log from a local path or from any URL fsspec (Dask's filesystem layer) can read."""
    if "://" not in path:
        return GameLog.load(path)
    import fsspec

    try:
        with fsspec.open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise LogFormatError(f"cannot read: {e}", file=path) from None
    return GameLog.loads(text, path)


def process_file(path: str, known: frozenset[str] | set[str] = frozenset(), policy: ChoicePolicy = STRICT) -> Outcome:
    """Load, check and replay one log and compute its tables. Never raises for a file (a bug: ``internal``)."""
    start = time.perf_counter()
    gid: str | None = None
    try:
        try:
            log = load_log(path)
            gid = game_id(log)
        except LogFormatError as e:
            return _failure(path, "format", {"rule": "log.format", "message": str(e)}, None, 0, start)
        if gid in known:
            return Outcome(path, "skipped", gid, seconds=time.perf_counter() - start)
        r, verdict = replay_and_judge(log, keep_states=True, policy=policy)
        # a legal game whose declared result differs is stored, flagged: the replay is the truth
        if r is None or not (verdict.ok or verdict.kind == "result"):
            return _failure(path, verdict.kind, verdict.error or {}, gid, verdict.actions, start)
        try:
            with gc_paused():
                tables = game_parts(r, path, gid)
        except (IllegalAction, LogFormatError, ValueError, OverflowError, pa.ArrowException) as e:
            return _failure(path, "tables", {"rule": "storage.tables", "message": str(e)}, gid, len(r.steps), start)
        return Outcome(
            path,
            "ok",
            gid,
            tables,
            message="; ".join(verdict.detail) or None,
            actions=len(r.steps),
            seconds=time.perf_counter() - start,
            result_differs=verdict.kind == "result",
            deviations=len(verdict.deviations),
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # one file's bug must not stop the import: it becomes this file's failure
        message = f"internal error ({type(e).__name__}: {str(e)[:500]}); please report this file"
        return _failure(path, "internal", {"rule": "internal", "message": message}, gid, 0, start)


def failures_table(outcomes: Iterable[Outcome]) -> pa.Table:
    now = datetime.now(UTC)
    rows = [
        {
            "file": o.file,
            "game_id": o.game_id,
            "error_kind": o.error_kind,
            "rule": o.rule,
            "action_index": o.action_index,
            "message": o.message,
            "recorded_at": now,
        }
        for o in outcomes
    ]
    return pa.Table.from_pylist(rows, schema=FAILURES_SCHEMA)


# -- one task --------------------------------------------------------------------------------


def run_batch(
    paths: list[str],
    known: frozenset[str] | set[str],
    dest: str,
    batch: str,
    partitioned: bool,
    policy: ChoicePolicy = STRICT,
) -> BatchResult:
    """Process a batch of files and write its tables under ``dest`` (not committed); the task of every worker."""
    start, start_cpu = time.perf_counter(), time.process_time()
    result = BatchResult(batch, [], [], worker=f"{socket.gethostname()}:{os.getpid()}")
    seen: set[str] = set()
    ok: list[Outcome] = []
    failed: list[Outcome] = []
    for path in paths:
        o = process_file(path, known, policy)
        result.files_done += 1
        result.actions += o.actions
        if o.status == "skipped" or (o.status == "ok" and o.game_id in seen):
            result.skipped += 1
        elif o.status == "failed":
            failed.append(o)
        else:
            assert o.tables is not None and o.game_id is not None
            seen.add(o.game_id)
            ok.append(o)
    tables, ok = _batch_tables(ok, failed)
    for o in ok:
        assert o.game_id is not None
        if o.result_differs or o.deviations:
            result.flagged.append(o.without_tables())
        result.game_ids.append(o.game_id)
        result.stored_actions += o.actions
    if failed:
        tables["failures"] = failures_table(failed)
    # staging files for a DuckDB load live for seconds: not worth compressing
    try:
        result.files = write_batch_files(dest, batch, tables, partitioned, "zstd" if partitioned else "none")
    except OSError as e:  # (Arrow's errors name no file: a full disk would say nothing of where)
        raise StoreWriteError(f"{dest}: a batch's tables could not be written: {e}. {_KEPT}") from e
    result.failures = [o.without_tables() for o in failed]
    result.seconds = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - start_cpu
    return result


# what a store that could not be written still holds, and what to do
_KEPT = "What was committed before is kept, each game whole; run the same command again to import the rest"


def _batch_tables(ok: list[Outcome], failed: list[Outcome]) -> tuple[dict[str, pa.Table], list[Outcome]]:
    """The batch's games as one table each, converted to Arrow together; and the games in them. A game
    whose values Arrow cannot take fails alone (found game by game), as it would have in a batch of one."""
    if not ok:
        return {}, ok
    try:
        with gc_paused():
            return assemble_tables([o.tables for o in ok if o.tables is not None]), ok
    except (ValueError, OverflowError, pa.ArrowException):
        pass
    kept: list[Outcome] = []
    for o in ok:
        assert o.tables is not None
        try:
            assemble_tables([o.tables])
        except (ValueError, OverflowError, pa.ArrowException) as e:
            error = {"rule": "storage.tables", "message": str(e)}  # (as process_file words it)
            failure = _failure(o.file, "tables", error, o.game_id, o.actions, time.perf_counter())
            failed.append(replace(failure, seconds=o.seconds))
        else:
            kept.append(o)
    return (assemble_tables([o.tables for o in kept if o.tables is not None]) if kept else {}), kept


# -- where tasks run ---------------------------------------------------------------------------


class Runner(Protocol):
    """Runs :func:`run_batch` tasks somewhere (this process, local processes, a Dask cluster)."""

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> Any: ...

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]: ...

    def result(self, fut: Any) -> BatchResult:
        """The task's result; raises :class:`WorkerLost` when the process running it died."""
        ...

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        """One file in a process of its own, after its batch's process died: a failure if it dies again."""
        ...

    def map_calls(self, fn: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
        """``fn(*args)`` for each ``args`` on the workers, in parallel, waited for (the end-of-run merge)."""
        ...

    def close(self) -> None: ...


class WorkerLost(Exception):
    """The process running a task died (killed, out of memory, a crash in a C library)."""


class _Done:
    def __init__(self, value: BatchResult | BaseException) -> None:
        self.value = value


class InlineRunner:
    """Every task in this process, one after the other."""

    def __init__(self, known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
        self.known, self.policy = known, policy

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> _Done:
        return _Done(run_batch(paths, self.known, dest, batch, partitioned, self.policy))

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        return set(pending), set()

    def result(self, fut: _Done) -> BatchResult:
        assert isinstance(fut.value, BatchResult)
        return fut.value

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        return _alone(path, self.known, dest, partitioned, self.policy)

    def map_calls(self, fn: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
        return [fn(*args) for args in calls]

    def close(self) -> None:
        pass


_KNOWN: frozenset[str] = frozenset()
_POLICY: ChoicePolicy = STRICT


def _init_worker(known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
    global _KNOWN, _POLICY
    _KNOWN, _POLICY = known, policy


def _run_in_worker(paths: list[str], dest: str, batch: str, partitioned: bool) -> BatchResult:
    return run_batch(paths, _KNOWN, dest, batch, partitioned, _POLICY)


class ProcessRunner:
    """Tasks in local worker processes (``concurrent.futures``); the known ids are sent once per process."""

    def __init__(self, workers: int, known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
        self.workers, self.known, self.policy = workers, known, policy
        # pyarrow imports pandas on its first conversion (about a second): do it once here, so that forked
        # workers inherit it instead of each paying for it
        pa.array([0], pa.int32())
        warm_up()
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, initializer=_init_worker, initargs=(self.known, self.policy)
        )

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> Future[BatchResult]:
        try:
            return self.pool.submit(_run_in_worker, paths, dest, batch, partitioned)
        except BrokenProcessPool:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
            return self.pool.submit(_run_in_worker, paths, dest, batch, partitioned)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def result(self, fut: Future[BatchResult]) -> BatchResult:
        try:
            return fut.result()
        except BrokenProcessPool as e:
            raise WorkerLost(str(e)) from None

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        return _alone(path, self.known, dest, partitioned, self.policy)

    def map_calls(self, fn: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
        try:
            futures = [self.pool.submit(fn, *args) for args in calls]
        except BrokenProcessPool:  # the pool broke earlier in the run: fresh processes
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
            futures = [self.pool.submit(fn, *args) for args in calls]
        return [f.result() for f in futures]

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def warm_up() -> None:
    """Replay a shipped sample game here: the first game in a process builds what every game uses (the log
    schema's validators alone take about 70 ms), and forked workers then inherit it instead of each paying."""
    from .. import SAMPLES

    for path in sorted((SAMPLES / "real").glob("*-2p.json"))[:1]:
        process_file(str(path))


def _alone(
    path: str, known: frozenset[str], dest: str, partitioned: bool, policy: ChoicePolicy = STRICT
) -> BatchResult:
    """One file in a process of its own: a file that kills its process is the only loss, and is recorded."""
    batch = new_batch_id()
    try:
        with ProcessPoolExecutor(max_workers=1, initializer=_init_worker, initargs=(known, policy)) as pool:
            return pool.submit(_run_in_worker, [path], dest, batch, partitioned).result()
    except BrokenProcessPool:
        return worker_died(path, dest, batch)


def worker_died(path: str, dest: str, batch: str) -> BatchResult:
    """The result for a file whose process died twice: a failure of kind ``internal``."""
    o = Outcome(
        path,
        "failed",
        error_kind="internal",
        rule="internal",
        message="the process importing this file died (killed, out of memory or a crash); please report this file",
    )
    return BatchResult(batch, write_batch_files(dest, batch, {"failures": failures_table([o])}), [], 1, 0, [o])


# -- committing --------------------------------------------------------------------------------


class _Committer(Protocol):
    dest: Path
    partitioned: bool
    draining: bool  # the file listing has ended: what is left is handed out or read ahead

    def commit(self, results: list[BatchResult]) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class DuckDBCommitter:
    """Bulk-loads finished batches' staging files into the DuckDB store, a group of batches per transaction,
    in background threads.

    A DuckDB transaction's commit costs as much as loading a few dozen games (it writes the log and
    checkpoints), so batches are accepted as they finish (new games counted, repeats dropped) and loaded
    together once :attr:`group_games` games or :attr:`group_seconds` seconds have gathered, one statement
    per table. A group is loaded by a thread of its own, with its own cursor and transaction (DuckDB
    appends from several transactions at once), so the importing process goes on handing out tasks while
    it loads, and up to :attr:`loaders` groups load at once: one DuckDB file then takes games from many
    workers (a single loader is the bottleneck beyond about 6 workers). Each group is whole or absent; a
    killed run loses the gathered groups (never part of a game), and the next run imports them again.
    While it loads, the committer holds a read transaction open beside the loads and bounds DuckDB's
    memory (a load that does not fit is tried again under a doubled bound); :meth:`flush` ends with a
    checkpoint while that transaction is still open, and :meth:`close` ends the one and puts the other back.
    """

    partitioned = False
    group_games = 512
    group_seconds = 10.0
    # set by the run once the file listing has ended (what is left is read ahead, about 1 to 4 batches per
    # worker): from then on a free loader takes what waits as soon as drain_games have gathered, so that
    # little is left to load once the workers are done (2 workers, 2,500-3,000 games: the time after the
    # last result 0.50 -> 0.15 s). Earlier loads of small groups cost more per game (a commit each)
    draining = False
    drain_games = 64

    def __init__(self, store: Store, stored: set[str], loaders: int = 1, background: bool = True) -> None:
        self.store, self.stored = store, stored
        self.loaders = max(1, loaders)
        self.background = background  # False: each group loads at once, in this thread (a one-process import)
        self.load_cpu_seconds = 0.0  # CPU time of the loads made in loader threads
        self.dest = staging_dir(Path(store.path).absolute())  # workers write there, from any folder
        # we hold the database's write lock: anything staged there is a killed run's leftover
        shutil.rmtree(self.dest, ignore_errors=True)
        self.dest.mkdir(parents=True)
        self.waiting: list[tuple[BatchResult, list[str] | None]] = []  # a batch, and the ids to keep if not all
        self.waiting_games = 0
        self.since = time.monotonic()
        self._pool: ThreadPoolExecutor | None = None
        self._loading: list[tuple[Future[None], list[str]]] = []  # a group's load, and its new game ids
        self._lock = threading.Lock()
        # each load runs one DuckDB thread: loads run side by side rather than one at a time on many
        # threads (which costs more CPU per game, taken from the workers)
        con = store.con
        self._threads = con.execute("SELECT current_setting('threads')").fetchone()[0]  # type: ignore[index]
        con.execute("SET threads = 1")
        # a read transaction held open while the groups load (each from a cursor of its own): DuckDB then
        # commits each group with less work, and the file comes out smaller (one process, 3,000 games:
        # 1.31 -> 0.88 ms of load CPU per game, 66 -> 55 MB); it is rolled back before the store is closed
        self._reader = con.cursor()
        self._reader.execute("BEGIN TRANSACTION")
        self._reader.execute("SELECT count(*) FROM games").fetchall()
        self._memory_checked = False
        self._memory_limit: str | None = None  # the setting before the import, when bounded (see _bound_memory)
        self._bound = 0  # the bound now, in bytes
        self._ceiling: float | None = None  # the setting before the import, in bytes (None: unreadable)
        self._loosened = 0  # times the bound was doubled

    def _bound_memory(self) -> None:
        """Bound DuckDB's memory for the import: its default (80% of the machine) lets the blocks it has
        written stay cached, so the importing process grew with the corpus (585 MiB after 20,000 games on
        2 workers, 1,229 MiB after 10,000 on 16); within the bound DuckDB evicts them."""
        if self._memory_checked:
            return
        self._memory_checked = True
        con = self.store.con
        before = str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        bound = (MEMORY_BASE_MB + MEMORY_PER_LOADER_MB * self.loaders) * 2**20
        now = _setting_bytes(before)
        if now is None or now > bound:  # never raise a limit the store was given
            con.execute(f"SET memory_limit = '{bound // 2**20}MiB'")
            self._memory_limit = before
            self._bound, self._ceiling = bound, now

    def _loosen_memory_bound(self) -> bool:
        """After a load ran out of memory under the bound: double the bound (never above the setting before
        the import) so that the load can be tried again; False if there is no bound of ours to loosen."""
        with self._lock:
            if self._memory_limit is None or self._loosened >= 8:  # (8: 256 times the bound, then give up)
                return False
            if self._ceiling is not None and self._bound >= self._ceiling:
                return False
            self._loosened += 1
            self._bound = int(min(2 * self._bound, self._ceiling or float("inf")))
            con = self.store.con.cursor()
            try:
                con.execute(f"SET memory_limit = '{self._bound // 2**20}MiB'")
            finally:
                con.close()
            return True

    def commit(self, results: list[BatchResult]) -> int:
        """Accept finished batches: returns the games new to the store; loads them when a group is full."""
        self._reap(wait_all=False)  # a load that failed stops the import here
        new = 0
        for r in results:
            ids = [g for g in r.game_ids if g not in self.stored]
            self.waiting.append((r, None if len(ids) == len(r.game_ids) else ids))
            self.stored.update(ids)
            self.waiting_games += len(ids)
            new += len(ids)
        while self.waiting and (
            self.waiting_games >= self.group_games
            or time.monotonic() - self.since >= self.group_seconds
            or (
                self.draining
                and self.background
                and self.waiting_games >= self.drain_games
                and len(self._loading) < self.loaders
            )
        ):
            self._start_load()
        return new

    def flush(self) -> None:
        """Load every accepted batch and wait for every load (raises the first load's error).

        The workers are done: what waits is shared among the free loaders, loading side by side.
        """
        self._reap(wait_all=False)
        free = self.loaders - len(self._loading) if self.background else 1
        if free > 1 and len(self.waiting) > 1:
            waiting = self.waiting
            share = -(-self.waiting_games // free)
            self.waiting, self.waiting_games = [], 0
            for item in waiting:
                self.waiting.append(item)
                self.waiting_games += _games(item)
                if self.waiting_games >= share:
                    self._start_load()
        while self.waiting:
            self._start_load()
        self._reap(wait_all=True)
        self._checkpoint()

    def _checkpoint(self) -> None:
        """Write what the loads left in DuckDB's log into the file, while the read transaction is still open.

        Done at close instead (after the read transaction has ended) the same checkpoint rewrites the
        tables: one process, 3,000 games, 4 loaders, a 14 MB log left by the last group: 0.77 s at close
        and an 81 MB file, against 0.04 s here and 55 MB. The workers are idle by now: it is the run's tail.
        """
        con = self.store.con.cursor()
        try:
            # every group is committed (in the log) by now: if DuckDB refuses to checkpoint here (older
            # versions do while another transaction is open, say one the caller holds on its own Store),
            # the close checkpoints, and reports its failure
            with contextlib.suppress(duckdb.Error):
                con.execute("CHECKPOINT")
        finally:
            con.close()

    def _start_load(self) -> None:
        if self.background:  # as many groups in memory and on disk as loaders, no more
            while self.waiting and len(self._loading) >= self.loaders:
                self._reap_one(self._loading.pop(0))  # (a failure leaves the waiting group waiting)
        waiting = self._take(self.group_games)
        self.since = time.monotonic()
        if not waiting:
            return
        self._bound_memory()  # (once, before the first load)
        new = [g for r, keep in waiting for g in (r.game_ids if keep is None else keep)]
        if not self.background:
            self._reap_one((_done(self._load_within_memory, waiting, new), new))
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.loaders, thread_name_prefix="duckdb-load")
        self._loading.append((self._pool.submit(self._timed_load, waiting, new), new))

    def _take(self, limit: int) -> list[tuple[BatchResult, list[str] | None]]:
        """The oldest waiting batches, up to ``limit`` games (at least one batch): never a bigger group.

        Results come several at a time while every loader is busy (16 workers: 512 waiting became a group
        of 762, loaded alone on one thread for 0.5 s after the others had finished); the rest waits for
        the next free loader."""
        taken: list[tuple[BatchResult, list[str] | None]] = []
        games = 0
        while self.waiting and (not taken or games + _games(self.waiting[0]) <= limit):
            item = self.waiting.pop(0)
            taken.append(item)
            games += _games(item)
        self.waiting_games -= games
        return taken

    def _reap(self, wait_all: bool) -> None:
        """Collect finished loads (every load with ``wait_all``); the first failure is raised after the others."""
        error: BaseException | None = None
        still: list[tuple[Future[None], list[str]]] = []
        for item in self._loading:
            if not wait_all and not item[0].done():
                still.append(item)
                continue
            try:
                self._reap_one(item)
            except BaseException as e:  # noqa: BLE001 (raised below, once every load is accounted for)
                error = error or e
        self._loading = still
        if error is not None:
            raise error

    def _reap_one(self, item: tuple[Future[None], list[str]]) -> None:
        load, new = item
        try:
            load.result()
        except BaseException:
            self.stored.difference_update(new)  # rolled back: not stored
            raise

    def _timed_load(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        start = time.thread_time()  # (DuckDB runs a query on the calling thread with threads = 1)
        try:
            self._load_within_memory(waiting, new)
        finally:
            with self._lock:
                self.load_cpu_seconds += time.thread_time() - start

    def _load_within_memory(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        """:meth:`_load`, tried again with a looser bound if it ran out of memory under the bound: the bound
        is ours, an import must not fail for it (the group was rolled back: whole or absent)."""
        while True:
            try:
                return self._load(waiting, new)
            except duckdb.Error as e:
                if not (_out_of_memory(e) and self._loosen_memory_bound()):
                    raise

    def _load(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        """Load a group of batches in one transaction (in a loader thread, with a cursor of its own)."""
        con = self.store.con.cursor()
        whole: dict[str, list[str]] = {}  # table -> staging files loaded whole
        failures: list[str] = []
        try:
            con.execute("BEGIN TRANSACTION")
            try:
                for r, keep in waiting:
                    for rel in r.files:
                        name, path = rel.split("/", 1)[0], str(self.dest / rel)
                        if name == "failures":
                            failures.append(path)
                        elif keep is None:
                            whole.setdefault(name, []).append(path)
                        elif keep:  # a batch with games stored already: only the others
                            con.execute(
                                f'INSERT INTO "{name}" BY NAME SELECT * FROM read_parquet({_listing([path])}) '
                                "WHERE list_contains(?, game_id)",
                                [keep],
                            )
                for name, files in whole.items():
                    con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM read_parquet({_listing(files)})')
                if failures:
                    listing = _listing(failures)
                    con.execute(f"DELETE FROM failures WHERE file IN (SELECT file FROM read_parquet({listing}))")
                    con.execute(f"INSERT INTO failures BY NAME SELECT * FROM read_parquet({listing})")
                if new:
                    con.execute("DELETE FROM failures WHERE list_contains(?, game_id)", [new])
                con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):  # a COMMIT that failed has rolled back already
                    con.execute("ROLLBACK")
                raise
        finally:
            con.close()
        for r, _ in waiting:
            for rel in r.files:
                (self.dest / rel).unlink(missing_ok=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        with contextlib.suppress(Exception):  # the connection may be closed already
            self._reader.execute("ROLLBACK")
            self._reader.close()
        with contextlib.suppress(Exception):
            self.store.con.execute(f"SET threads = {int(self._threads)}")
            if self._memory_limit is not None:
                self.store.con.execute(_restore_memory_limit(self._memory_limit))
        shutil.rmtree(self.dest, ignore_errors=True)


def _games(item: tuple[BatchResult, list[str] | None]) -> int:
    """The new games of a waiting batch."""
    r, keep = item
    return len(r.game_ids if keep is None else keep)


def _out_of_memory(e: BaseException) -> bool:
    """DuckDB ran out of memory (while loading, or while committing: then a TransactionException)."""
    return isinstance(e, duckdb.OutOfMemoryException) or "could not allocate block" in str(e)


def _done(fn: Callable[..., None], *args: Any) -> Future[None]:
    """``fn(*args)`` run now, as a finished future (its error kept in it)."""
    fut: Future[None] = Future()
    try:
        fn(*args)
    except BaseException as e:  # noqa: BLE001 (kept in the future, raised by its reader)
        fut.set_exception(e)
    else:
        fut.set_result(None)
    return fut


_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _setting_bytes(text: str) -> float | None:
    """DuckDB's ``memory_limit`` as shown (``18.8 GiB``, ``488.2 MiB``) in bytes; None if unreadable."""
    number, _, unit = text.strip().partition(" ")
    try:
        return float(number) * _UNITS[unit or "bytes"]
    except (KeyError, ValueError):
        return None


def _restore_memory_limit(before: str) -> str:
    """The statement that puts ``memory_limit`` back as it was: DuckDB's default exactly (a new connection
    shows the same text), or else the text it showed (rounded as DuckDB shows it)."""
    fresh = duckdb.connect(":memory:")
    try:
        default = fresh.execute("SELECT current_setting('memory_limit')").fetchone()[0]  # type: ignore[index]
    finally:
        fresh.close()
    return "RESET memory_limit" if before == default else f"SET memory_limit = '{before}'"


def _listing(paths: list[str]) -> str:
    return "[" + ", ".join(_sql_str(f) for f in paths) + "]"


class DatasetCommitter:
    """Commits finished batches into a Parquet dataset (one commit record per batch)."""

    partitioned = True
    draining = False

    def __init__(self, writer: DatasetWriter, stored: set[str]) -> None:
        self.writer, self.stored = writer, stored
        self.dest = writer.root
        self.commits: list[str] = []

    def commit(self, results: list[BatchResult]) -> int:
        new = 0
        for r in results:
            files = r.files
            repeats = {g for g in r.game_ids if g in self.stored}
            if repeats:  # a game met twice in one run, in two batches: keep the first
                files = filter_games(self.dest, files, repeats)
            ids = [g for g in r.game_ids if g not in repeats]
            if files:
                self.writer.commit(r.batch, files, games=len(ids))
                self.commits.append(r.batch)
            self.stored.update(ids)
            new += len(ids)
        return new

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


# a group's load costs about a sixth of its games' replay and tables (1 ms against 6-8 ms per game): a
# loader per 4 workers keeps up with room to spare; LOADERS_MAX groups load into one DuckDB file at once
WORKERS_PER_LOADER = 4
LOADERS_MAX = 8
# DuckDB's memory during an import into its file: a base, and room for each group loading at once. A group
# of 512 four-player games needs 16 to 24 MiB with one loader, 4 loaders loaded within 40 MiB in all: this
# gives about 3 times that. The process's peak follows the bound (2 workers, 1,000 / 10,000 games: 314 /
# 443 MiB at 128 + 128 per loader, 260 / 318 at 64 + 64, 240 / 256 at 32 + 32; 16 workers, 4 loaders: 325 /
# 398 at 64 + 32, 312 / 333 at 64 + 16), the speed does not. A load that runs out of memory all the same
# is tried again with the bound doubled (_load_within_memory)
MEMORY_BASE_MB = 64
MEMORY_PER_LOADER_MB = 16


def staging_dir(db: Path) -> Path:
    """Where workers put the batches waiting to be loaded into the DuckDB file ``db``."""
    return db.parent / f".{db.name}.ingest"


def _sql_str(p: str) -> str:
    return "'" + p.replace("'", "''") + "'"


# -- the input files -----------------------------------------------------------------------------


def iter_game_files(items: Iterable[str | Path]) -> Iterator[str]:
    """Files, directories (every ``*.json`` below, in name order) and glob patterns, lazily and without repeats.

    Directories are walked one folder at a time, so the list of a huge corpus is never held in memory.
    Items with a ``scheme://`` are listed with fsspec (Dask's filesystem layer).
    """
    seen_files: set[str] = set()  # only explicitly named files and glob matches can repeat

    for raw in items:
        item = str(raw)
        if "://" in item:
            yield from _iter_url(item)
        elif any(ch in item for ch in "*?["):
            for p in sorted(glob.iglob(item, recursive=True)):
                if os.path.isdir(p):
                    yield from _walk(p)
                elif p not in seen_files:
                    seen_files.add(p)
                    yield p
        elif os.path.isdir(item):
            yield from _walk(item)
        elif item not in seen_files:
            seen_files.add(item)
            yield item


def _walk(top: str) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".json"):
                yield os.path.join(dirpath, name)


def _iter_url(url: str) -> Iterator[str]:
    import fsspec

    fs, path = fsspec.core.url_to_fs(url)
    protocol = url.split("://", 1)[0]
    if fs.isdir(path):
        for p in sorted(fs.find(path)):
            if p.endswith(".json"):
                yield f"{protocol}://{p}" if "://" not in p else p
    else:
        for p in sorted(fs.glob(path)) if any(ch in path for ch in "*?[") else [path]:
            yield f"{protocol}://{p}" if "://" not in p else p


# the smallest batch handed out at the end of a run (a batch costs a few ms besides its games: its files)
MIN_BATCH = 4


def _chunks(
    files: Iterator[str], size: int, spread: int = 1, on_end: Callable[[], None] | None = None
) -> Iterator[list[str]]:
    """Batches of ``size`` files, the last ones smaller so that the workers finish together.

    The next ``size * spread`` paths are read ahead (names only). Once the listing has ended (``on_end``
    is called then), what is left is cut into batches of about ``1/spread`` of it (``spread``: the tasks
    in flight), never under :data:`MIN_BATCH`: instead of a worker starting a full batch while the
    others sit idle at the end, the last tasks take a few games each (guided self-scheduling).
    """
    ahead: deque[str] = deque()
    ended = False
    while True:
        while not ended and len(ahead) < size * spread:
            f = next(files, None)
            if f is None:
                ended = True
                if on_end is not None:
                    on_end()
            else:
                ahead.append(f)
        if not ahead:
            return
        n = size if not ended else max(MIN_BATCH, min(size, -(-len(ahead) // spread)))
        yield [ahead.popleft() for _ in range(min(n, len(ahead)))]


# -- the run ------------------------------------------------------------------------------------


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

    chunks = _chunks(iter(files), max(1, batch_size), in_flight, ended)
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
    see :mod:`.cluster`). Each task handles ``batch_size`` files and writes its own files; each finished
    batch is committed whole (an interrupted run loses at most the batches not yet committed, never part
    of a game). With ``compact`` the batches a run adds to a dataset are merged into one file per table
    and partition at the end.
    """
    start = time.perf_counter()
    report = IngestReport()
    if db is None and parquet_dir is None:
        raise ValueError("ingest needs a DuckDB file (db) or a Parquet dataset folder (parquet_dir)")
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
            stored = _dataset_game_ids(Path(parquet_dir))
            committer = DatasetCommitter(writer, stored)
        known = frozenset(stored)
        runner: Runner
        if cluster is not None:
            from .cluster import DaskRunner

            runner = DaskRunner(cluster, known, policy)
            in_flight = runner.in_flight()
            n = max(1, in_flight // 2)
        else:
            n = workers or os.cpu_count() or 1
            runner = InlineRunner(known, policy) if n == 1 else ProcessRunner(n, known, policy)
            in_flight = 1 if n == 1 else n * 2
        if isinstance(committer, DuckDBCommitter):
            committer.loaders = min(LOADERS_MAX, -(-n // WORKERS_PER_LOADER))
            committer.background = n > 1 or cluster is not None
        try:
            with _progress(progress) as advance:
                files = iter_game_files(paths)
                if cluster is not None:  # workers elsewhere, in other folders: paths they can open
                    files = (f if "://" in f else os.path.abspath(f) for f in files)
                try:
                    run_import(files, runner, committer, report, batch_size, in_flight, advance)
                except duckdb.Error as e:  # the store could not take a group (a full disk): not a bug
                    if store is None:
                        raise
                    raise StoreWriteError(f"{store.path}: the games could not be stored: {e}. {_KEPT}") from e
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


def _dataset_game_ids(root: Path) -> set[str]:
    from .corpus import open_corpus

    con = open_corpus(parquet=root)
    try:
        return {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    finally:
        con.close()


# The merge sorts by game and writes one file per partition: these bound the memory it takes at any
# corpus size (the sort spills to disk past the limit; partition buffers are flushed in small row groups).
# The sort and the partitioned write take memory per thread: 16 threads overflowed 512 MB on a 16-core
# machine (a table of 4,000 games); a merge is parallel by its tasks, a few threads each are enough.
MERGE_THREADS = min(4, os.cpu_count() or 1)
MERGE_SETTINGS = (
    "SET memory_limit = '512MB'",
    f"SET threads = {MERGE_THREADS}",
    "SET partitioned_write_flush_threshold = 32768",
    "SET write_buffer_row_group_count = 1",
)


MERGED_TABLES = (*SCHEMAS, "failures")


def merge_commits(writer: DatasetWriter, batches: list[str], runner: Runner | None = None) -> None:
    """Merge the files of the given commits into one file per table and partition (one commit superseding them).

    Each table's partition (``actions/edition=birmingham/player_count=3``) is merged by a task of its
    own, on ``runner``'s workers in parallel when given (else here, one after the other), so that the
    merge after a run takes a fraction of its time on a cluster.
    """
    from .dataset import read_commits

    wanted = set(batches)
    commits = [c for c in read_commits(writer.root) if c.batch in wanted]
    parts = merge_parts(commits, _parallel(runner))
    calls = [(str(writer.root), batches, part) for part in parts]
    done = runner.map_calls(merge_files, calls) if runner is not None else [merge_files(*c) for c in calls]
    files = [f for fs in done for f in fs]
    shutil.rmtree(writer.root / "_tmp", ignore_errors=True)
    writer.commit(new_batch_id(), files, games=sum(c.games for c in commits), base=False, supersedes=batches)


# a merge task costs about 0.1 s besides its rows: small runs are merged in few tasks (thresholds for one
# worker; with W workers sharing the tasks, W times smaller)
MERGE_SPLIT_GAMES = (2_000, 20_000)


def merge_parts(commits: list[Any], workers: int = 1) -> list[str]:
    """The merge tasks for these commits: ``*`` (every table) for a small run, a table each for a larger
    one, a table's partition each (``actions/edition=birmingham/player_count=3``) beyond; a run is larger
    when more workers share its merge (games x workers against :data:`MERGE_SPLIT_GAMES`)."""
    size = sum(c.games for c in commits) * max(1, workers)
    if size < MERGE_SPLIT_GAMES[0]:
        return ["*"]
    if size < MERGE_SPLIT_GAMES[1]:
        return sorted({rel.split("/", 1)[0] for c in commits for rel in c.files})
    return sorted({rel.rsplit("/", 1)[0] for c in commits for rel in c.files})  # the file's folder


def _parallel(runner: Runner | None) -> int:
    """How many merge tasks ``runner`` runs at once."""
    if isinstance(runner, ProcessRunner):
        return runner.workers
    in_flight = getattr(runner, "in_flight", None)  # a Dask cluster: two tasks per worker in flight
    return max(1, in_flight() // 2) if callable(in_flight) else 1


@dataclass
class _Staged:
    """Takes the place of a :class:`DatasetWriter` where files are written but not committed (a worker)."""

    root: Path
    files: list[str] = field(default_factory=list)

    def commit(self, batch: str, files: list[str], games: int, base: bool = False, supersedes: Any = ()) -> None:
        self.files = list(files)


def merge_files(root: str, batches: list[str], part: str = "*") -> list[str]:
    """Merge ``part`` of the given commits (``*``: every table; a table; or a table's partition, e.g.
    ``actions/edition=birmingham/player_count=3``) into one file per table and partition, sorted by game,
    uncommitted; returns its files.

    A merge task: it runs where the games were replayed (a worker process or a Dask worker), so that
    the importing process never holds the corpus's tables; the caller commits the files. It reads only
    that partition's files (and the same partition of ``games``, for tables that take their partition
    columns from it), so its memory is bounded by a partition of one run, and bounded again by
    :data:`MERGE_SETTINGS`.
    """
    from .corpus import _no_progress_bar, attach_parquet
    from .dataset import Commit, read_commits, write_version

    staged = _Staged(Path(root))
    table, _, partition = part.partition("/")
    wanted = set(batches)
    # a table's rows take their partition columns from games: its games too, of the same partition
    prefixes = ("",) if part == "*" else (f"{part}/", f"games/{partition}/" if partition else "games/")
    only = [
        Commit(c.seq, c.batch, [rel for rel in c.files if rel.startswith(prefixes)])
        for c in read_commits(staged.root)
        if c.batch in wanted
    ]
    tmp = staged.root / "_tmp" / new_batch_id()  # where the sort spills: DuckDB makes only the last folder
    tmp.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(":memory:")
    for setting in MERGE_SETTINGS:
        with contextlib.suppress(duckdb.Error):  # a DuckDB without that setting merges as it can
            con.execute(setting)
    con.execute(f"SET temp_directory = '{_sql_str(str(tmp))[1:-1]}'")
    _no_progress_bar(con)
    try:
        attach_parquet(con, staged.root, only=only)
        tables = list(MERGED_TABLES) if part == "*" else [table]
        write_version(staged, con, tables, base=False)  # type: ignore[arg-type]
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return staged.files


class _progress:
    """A rich progress bar (or nothing): ``with _progress(on) as advance: advance(n)``."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.on:
            return lambda n: None
        from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        # the number of files is not known in advance (the file list is streamed)
        self.bar = Progress(
            SpinnerColumn(), TextColumn("importing"), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
        )
        self.bar.__enter__()
        task = self.bar.add_task("importing", total=None)
        return lambda n: self.bar.advance(task, n)

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
