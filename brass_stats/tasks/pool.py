"""Pools of workers behind one interface: this process, local worker processes, or a Dask cluster's workers.

:func:`~.run.open_pool` picks the pool (:class:`InlinePool`, :class:`ProcessPool`, or
:class:`~.cluster.DaskPool`); every pool has the same methods, so a caller that drives its own
tasks (the import: batches submitted as earlier ones finish, committed as they come) runs the same
code on one process, on local processes and on a cluster, and :func:`~.run.run_tasks` is
:meth:`Pool.imap` on a pool opened for the call.

* :meth:`~Pool.submit` a task, :meth:`~Pool.wait_first` for one of several to finish, take its
  :meth:`~Pool.result` (a task's exception is raised there; :class:`WorkerLost` when the process
  running it died: killed, out of memory, a crash in a C library);
* :meth:`~Pool.imap`: many tasks, results as they finish, a bounded number in flight;
  :meth:`~Pool.map`: a list of tasks waited for, results in order;
* :meth:`~Pool.isolated`: one task in a worker process of its own (a task whose batch killed its
  worker, tried again alone).

``initializer(*initargs)`` runs once in every worker process before its first task (in this process
for :class:`InlinePool`): what every task needs and is costly to send with each (the ids of the
games already stored) is sent once per worker, and kept in a module global of the task's module.
On Dask the arguments are scattered to every worker once.

>>> with InlinePool() as pool:
...     sorted(pool.imap(pow, [(2, 3), (3, 2)]))
[8, 9]
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

R = TypeVar("R")


class WorkerLost(Exception):
    """The process running a task died (killed, out of memory, a crash in a C library)."""


class Pool(ABC):
    """Where tasks run; see the module docstring. A context manager that closes the pool.

    A pool implements :meth:`submit`, :meth:`wait_first`, :meth:`result` and :meth:`isolated`; the rest is
    built on them."""

    @abstractmethod
    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Start ``fn(*args)``; returns a handle for :meth:`wait_first` and :meth:`result`."""

    @abstractmethod
    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        """(done, not done): waits until at least one of ``pending`` is done."""

    @abstractmethod
    def result(self, handle: Any) -> Any:
        """The task's value; raises its exception, or :class:`WorkerLost` when its process died."""

    @abstractmethod
    def isolated(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in a worker process of its own, waited for; :class:`WorkerLost` if it dies too."""

    def workers(self) -> int:
        """How many tasks run at once."""
        return 1

    def in_flight(self, per_worker: int = 2) -> int:
        """How many tasks to keep submitted: ``per_worker`` per worker (one at a time in this process)."""
        return per_worker * self.workers()

    def close(self) -> None:  # noqa: B027 (a pool with nothing to release keeps this one)
        """Release the workers (nothing to release in this process)."""

    def map(self, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]]) -> list[R]:
        """``fn(*args)`` for each ``args``, all submitted at once, waited for; results in the order of ``calls``."""
        handles = [self.submit(fn, *args) for args in calls]
        return [self.result(h) for h in handles]

    def imap(self, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]], per_worker: int = 2) -> Iterator[R]:
        """``fn(*args)`` for each ``args``, yielded as they finish; at most :meth:`in_flight` submitted, so
        ``calls`` may be a long generator. An exception of a task is raised here, the rest cancelled."""
        it = iter(calls)
        pending = {self.submit(fn, *args) for args in itertools.islice(it, self.in_flight(per_worker))}
        try:
            while pending:
                done, pending = self.wait_first(pending)
                for handle in done:
                    yield self.result(handle)
                    nxt = next(it, None)
                    if nxt is not None:
                        pending.add(self.submit(fn, *nxt))
        finally:
            for handle in pending:
                handle.cancel()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Done:
    """A task run in this process: its value or its exception."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.error: Exception | None = None
        try:
            self.value = fn(*args)
        except Exception as e:  # raised again by result(), as a future would
            self.error = e

    def cancel(self) -> bool:
        return False


class InlinePool(Pool):
    """Every task in this process, when submitted: one at a time, results in order."""

    def __init__(self, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()) -> None:
        self.initializer, self.initargs = initializer, initargs
        if initializer is not None:
            initializer(*initargs)

    def submit(self, fn: Callable[..., Any], *args: Any) -> _Done:
        return _Done(fn, args)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        return set(pending), set()

    def result(self, handle: _Done) -> Any:
        if handle.error is not None:
            raise handle.error
        return handle.value

    def in_flight(self, per_worker: int = 2) -> int:
        return 1

    def isolated(self, fn: Callable[..., R], *args: Any) -> R:
        return _alone(fn, args, self.initializer, self.initargs)


def _nothing() -> None:
    pass


class ProcessPool(Pool):
    """Tasks in ``workers`` local processes (:class:`~concurrent.futures.ProcessPoolExecutor`).

    The processes start when the pool opens (forked, where processes are forked, before the caller
    starts a thread such as a progress bar's). When one dies, the tasks it ran raise
    :class:`WorkerLost` and the next :meth:`submit` starts fresh processes.
    """

    def __init__(
        self, workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
    ) -> None:
        self.n, self.initializer, self.initargs = workers, initializer, initargs
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(max_workers=self.n, initializer=self.initializer, initargs=self.initargs)
        executor.submit(_nothing).result()  # every worker started now
        return executor

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        try:
            return self.executor.submit(fn, *args)
        except BrokenProcessPool:  # a worker died earlier: fresh processes
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new()
            return self.executor.submit(fn, *args)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def result(self, handle: Future[Any]) -> Any:
        try:
            return handle.result()
        except BrokenProcessPool as e:
            raise WorkerLost(str(e)) from None

    def workers(self) -> int:
        return self.n

    def isolated(self, fn: Callable[..., R], *args: Any) -> R:
        return _alone(fn, args, self.initializer, self.initargs)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def _alone(fn: Callable[..., R], args: tuple[Any, ...], initializer: Any, initargs: tuple[Any, ...]) -> R:
    """``fn(*args)`` in a fresh process of its own: a task that kills its process takes nothing else with it."""
    try:
        with ProcessPoolExecutor(max_workers=1, initializer=initializer, initargs=initargs) as one:
            return one.submit(fn, *args).result()
    except BrokenProcessPool as e:
        raise WorkerLost(str(e)) from None
