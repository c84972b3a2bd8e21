"""Where the import's tasks run: a :class:`Runner` over a pool of :mod:`brass_stats.tasks` (this process,
local worker processes, a Dask cluster): :class:`InlineRunner`, :class:`ProcessRunner`, :class:`DaskRunner`.

A runner adds to its pool only what the import needs: the ids of the games already stored and the
choice policy, sent once to every worker (the pool's initializer), and :meth:`Runner.alone`, a file
of a batch whose worker died tried again in a worker of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pyarrow as pa

from ...engine.policy import STRICT, ChoicePolicy
from ...samples import SAMPLES
from ...tasks.cluster import DaskPool
from ...tasks.pool import InlinePool, Pool, ProcessPool, WorkerLost
from ..dataset import new_batch_id
from .results import BatchResult
from .worker import process_file, run_batch, worker_died

R = TypeVar("R")

__all__ = ["DaskRunner", "InlineRunner", "ProcessRunner", "Runner", "WorkerLost", "warm_up"]

_KNOWN: frozenset[str] = frozenset()
_POLICY: ChoicePolicy = STRICT


def _init_worker(known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
    global _KNOWN, _POLICY
    _KNOWN, _POLICY = known, policy


def _run_in_worker(paths: list[str], dest: str, batch: str, partitioned: bool) -> BatchResult:
    return run_batch(paths, _KNOWN, dest, batch, partitioned, _POLICY)


class Runner:
    """Runs :func:`run_batch` tasks on ``pool`` (opened with :func:`_init_worker`); closes it."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> Any:
        return self.pool.submit(_run_in_worker, paths, dest, batch, partitioned)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        return self.pool.wait_first(pending)

    def result(self, fut: Any) -> BatchResult:
        """The task's result; raises :class:`WorkerLost` when the process running it died."""
        result: BatchResult = self.pool.result(fut)
        return result

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        """One file in a process of its own, after its batch's process died: a failure if it dies again."""
        try:
            return self.pool.isolated(_run_in_worker, [path], dest, new_batch_id(), partitioned)
        except WorkerLost:
            return worker_died(path, dest, new_batch_id())

    def workers(self) -> int:
        """How many tasks run at once."""
        return self.pool.workers()

    def in_flight(self) -> int:
        """How many tasks to keep submitted (two per worker; one in this process)."""
        return self.pool.in_flight(2)

    def map_calls(self, fn: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
        """``fn(*args)`` for each ``args`` on the workers, in parallel, waited for (the end-of-run merge)."""
        return self.pool.map(fn, calls)

    def close(self) -> None:
        self.pool.close()


class InlineRunner(Runner):
    """Every task in this process, one after the other."""

    def __init__(self, known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
        super().__init__(InlinePool(_init_worker, (known, policy)))


class ProcessRunner(Runner):
    """Tasks in ``workers`` local worker processes; the known ids are sent once per process."""

    def __init__(self, workers: int, known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
        # pyarrow imports pandas on its first conversion (about a second): do it once here, so that forked
        # workers inherit it instead of each paying for it
        pa.array([0], pa.int32())
        warm_up()
        super().__init__(ProcessPool(workers, _init_worker, (known, policy)))


class DaskRunner(Runner):
    """Tasks on the workers of the Dask cluster ``spec``; the known ids are sent to every worker once."""

    def __init__(self, spec: str, known: frozenset[str], policy: ChoicePolicy = STRICT) -> None:
        super().__init__(DaskPool(spec, _init_worker, (known, policy)))


def warm_up() -> None:
    """Replay a shipped sample game here: the first game in a process builds what every game uses (the log
    schema's validators alone take about 70 ms), and forked workers then inherit it instead of each paying."""
    for path in sorted((SAMPLES / "real").glob("*-2p.json"))[:1]:
        process_file(str(path))
