"""Tasks on the workers of a Dask cluster (:mod:`brass_stats.tasks.cluster`): :class:`DaskRunner`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ...tasks.cluster import Cluster
from ..dataset import new_batch_id
from .results import BatchResult
from .runners import WorkerLost
from .worker import run_batch, worker_died

R = TypeVar("R")


class DaskRunner:
    """Runs :func:`run_batch` tasks on a Dask cluster; the known game ids are sent to every worker once."""

    def __init__(self, spec: str, known: frozenset[str], policy: Any = None) -> None:
        self.policy = policy
        self.cluster = Cluster(spec)
        self.client = self.cluster.client
        # scatter a list of one: a set given alone would be scattered element by element
        self.known = self.client.scatter([known], broadcast=True)[0] if known else frozenset()

    def in_flight(self) -> int:
        return 2 * self.cluster.workers()

    def submit(self, paths: list[str], dest: str, batch: str, partitioned: bool) -> Any:
        # pure=False: a task is an action (it writes files), never a cached value
        args = (paths, self.known, dest, batch, partitioned) + (() if self.policy is None else (self.policy,))
        return self.client.submit(run_batch, *args, pure=False)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        from distributed import wait

        done, rest = wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def result(self, fut: Any) -> BatchResult:
        from distributed import KilledWorker

        try:
            result: BatchResult = fut.result()
        except KilledWorker as e:
            raise WorkerLost(str(e)) from None
        finally:
            fut.release()
        return result

    def alone(self, path: str, dest: str, partitioned: bool) -> BatchResult:
        try:
            return self.result(self.submit([path], dest, new_batch_id(), partitioned))
        except WorkerLost:
            return worker_died(path, dest, new_batch_id())

    def map_calls(self, fn: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
        futures = [self.client.submit(fn, *args, pure=False) for args in calls]
        try:
            results: list[R] = self.client.gather(futures)
        finally:
            for fut in futures:
                fut.release()
        return results

    def close(self) -> None:
        self.cluster.close()
