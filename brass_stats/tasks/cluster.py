"""Run imports and self-play on a Dask cluster (``dask.distributed``): ``--cluster local[:N] | tcp://HOST:PORT``.

``local`` starts a :class:`distributed.LocalCluster` of one single-threaded worker process per core
(``local:N``: N workers) for the length of the command; an address connects to a running scheduler
(started with ``dask scheduler`` and ``dask worker tcp://HOST:8786 --nthreads 1`` on each machine, see
the README). The tasks are the same functions as on local processes (the import's
:func:`~brass_stats.storage.ingest.run_batch`, self-play's games), run through the same
:class:`.pool.Pool` interface (:class:`.pool.DaskPool`), so a cluster produces the same rows and the
same bytes. Workers write their own files: the output folder must be one that every worker and the
client see at the same path (a shared filesystem on a real cluster).

The client never holds more than a few batches per worker: the file list is streamed, tasks are
submitted as earlier ones finish, and a task returns only a summary of what it wrote.

Dask is an optional extra (``pip install 'brass-stats[cluster]'``): nothing here imports it until a
cluster is used, and :func:`require_dask` says what to install when it is missing.
"""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..errors import BrassError
from .pool import Pool, WorkerLost

R = TypeVar("R")

DASK_MISSING = "--cluster needs Dask: pip install 'brass-stats[cluster]'"


class DaskMissing(BrassError):
    """``--cluster`` was asked for, but Dask (``dask.distributed``) is not installed."""


def require_dask() -> None:
    """Raise :class:`DaskMissing` (one line saying what to install) unless ``dask.distributed`` imports."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DaskMissing(DASK_MISSING) from None


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
        require_dask()
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
                raise BrassError(f"cannot reach the Dask scheduler at {where}: {e}") from None

    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def imap(self, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]], per_worker: int = 2) -> Iterator[R]:
        """``fn(*args)`` for each ``args`` on the workers, results as they finish; a bounded number in flight
        (:meth:`.pool.Pool.imap` on this cluster, which stays open)."""
        return DaskPool(self).imap(fn, calls, per_worker)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.local is not None:
            with contextlib.suppress(Exception):
                self.local.close()


# the pool whose initializer last ran in this Dask worker process (see _initialized)
_INITIALIZED: list[str] = [""]
_INIT_LOCK = threading.Lock()


def _initialized(
    token: str, initializer: Callable[..., None], initargs: tuple[Any, ...], fn: Callable[..., R], *args: Any
) -> R:
    """A task on a Dask worker: ``initializer(*initargs)`` first, when another pool's (or none) ran last here."""
    with _INIT_LOCK:
        if _INITIALIZED[0] != token:
            initializer(*initargs)
            _INITIALIZED[0] = token
    return fn(*args)


class DaskPool(Pool):
    """Tasks on the workers of a Dask cluster (a :class:`Cluster`, or its spec: ``local[:N]`` or an address).

    Closing the pool closes the cluster it started from ``spec``; a :class:`Cluster` given
    is left open. A task's worker that dies is replaced by Dask, which tries the task again on
    another and raises :class:`WorkerLost` once the task has killed too many.
    """

    def __init__(
        self,
        spec: str | Cluster,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        self.own = isinstance(spec, str)
        self.cluster = Cluster(spec) if isinstance(spec, str) else spec
        self.client = self.cluster.client
        self.init: tuple[Any, ...] = ()
        if initializer is not None:
            # scattered once to every worker (a list of one: a tuple alone is scattered item by item)
            (args,) = self.client.scatter([initargs], broadcast=True)
            self.init = (uuid.uuid4().hex, initializer, args)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        # pure=False: a task is an action (it may write files), never a cached value
        if self.init:
            return self.client.submit(_initialized, *self.init, fn, *args, pure=False)
        return self.client.submit(fn, *args, pure=False)

    def wait_first(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        from distributed import wait as dask_wait

        done, rest = dask_wait(list(pending), return_when="FIRST_COMPLETED")
        return set(done), set(rest)

    def result(self, handle: Any) -> Any:
        from distributed import KilledWorker

        try:
            return handle.result()
        except KilledWorker as e:
            raise WorkerLost(str(e)) from None
        finally:
            handle.release()

    def map(self, fn: Callable[..., R], calls: Iterable[tuple[Any, ...]]) -> list[R]:
        handles = [self.submit(fn, *args) for args in calls]
        try:
            results: list[R] = self.client.gather(handles)
        finally:
            for h in handles:
                h.release()
        return results

    def isolated(self, fn: Callable[..., R], *args: Any) -> R:
        result: R = self.result(self.submit(fn, *args))
        return result

    def workers(self) -> int:
        return self.cluster.workers()

    def close(self) -> None:
        if self.own:
            self.cluster.close()
