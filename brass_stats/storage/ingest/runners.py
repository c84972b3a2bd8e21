"""Where tasks run: this process (:class:`InlineRunner`) or local worker processes (:class:`ProcessRunner`).

A Dask cluster's runner is :class:`~.dask_runner.DaskRunner`; all of them follow :class:`Runner`.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

import pyarrow as pa

from ...engine.policy import STRICT, ChoicePolicy
from ...samples import SAMPLES
from ..dataset import new_batch_id
from .results import BatchResult
from .worker import process_file, run_batch, worker_died

R = TypeVar("R")


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
