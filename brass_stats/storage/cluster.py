"""Run imports and self-play on a Dask cluster (``dask.distributed``): ``--cluster local[:N] | tcp://HOST:PORT``.

``local`` starts a :class:`distributed.LocalCluster` of one single-threaded worker process per core
(``local:N``: N workers) for the length of the command; an address connects to a running scheduler
(started with ``dask scheduler`` and ``dask worker tcp://HOST:8786 --nthreads 1`` on each machine, see
the README). The tasks are the same functions as the local import (:func:`.ingest.run_batch`) and
self-play (:func:`brass_stats.bots.selfplay.write_game`), so a cluster produces the same rows and the
same bytes. Workers write their own files: the output folder must be one that every worker and the
client see at the same path (a shared filesystem on a real cluster).

The client never holds more than a few batches per worker: the file list is streamed, tasks are
submitted as earlier ones finish, and a task returns only a summary of what it wrote.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .dataset import new_batch_id
from .ingest import BatchResult, WorkerLost, run_batch, worker_died

R = TypeVar("R")


def parse_cluster(spec: str) -> tuple[str, int | None]:
    """``"local"`` -> ("local", None); ``"local:4"`` -> ("local", 4); an address -> (address, None).

    >>> parse_cluster("local:3"), parse_cluster("tcp://10.0.0.1:8786")
    (('local', 3), ('tcp://10.0.0.1:8786', None))
    """
    if spec == "local":
        return "local", None
    if spec.startswith("local:"):
        n = spec.split(":", 1)[1]
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"--cluster local:N needs a number of workers >= 1, not {n!r}")
        return "local", int(n)
    if "://" not in spec and ":" in spec:
        return f"tcp://{spec}", None
    if "://" not in spec:
        raise ValueError(f"--cluster takes local, local:N or a scheduler address tcp://HOST:PORT, not {spec!r}")
    return spec, None


class Cluster:
    """A Dask client on a LocalCluster it started, or on a running scheduler; closes what it started."""

    def __init__(self, spec: str) -> None:
        from distributed import Client, LocalCluster

        where, n = parse_cluster(spec)
        self.local: Any = None
        if where == "local":
            self.local = LocalCluster(
                n_workers=n or os.cpu_count() or 1,
                threads_per_worker=1,  # the replay is pure Python: processes, not threads
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            self.client = Client(self.local)
        else:
            try:
                self.client = Client(where, timeout="20s")
            except OSError as e:
                from ..errors import BrassError

                raise BrassError(f"cannot reach the Dask scheduler at {where}: {e}") from None

    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def imap(self, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]], per_worker: int = 2) -> Iterator[R]:
        """``fn(*args)`` for each ``args`` on the workers, results as they finish; a bounded number in flight."""
        from distributed import as_completed

        calls = iter(calls)
        limit = per_worker * self.workers()
        first = [self.client.submit(fn, *args, pure=False) for args in itertools.islice(calls, limit)]
        if not first:
            return
        running = as_completed(first)
        for fut in running:
            try:
                yield fut.result()
            finally:
                fut.release()
            nxt = next(calls, None)
            if nxt is not None:
                running.add(self.client.submit(fn, *nxt, pure=False))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.local is not None:
            with contextlib.suppress(Exception):
                self.local.close()


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
