"""Run many independent tasks: in this process, in local worker processes, or on a Dask cluster.

:func:`run_tasks` is the one place where the package fans work out (self-play games, a review's
actions, ...): the same task function and arguments give the same results wherever they run, so a
result never depends on the number of workers. A task that needs something costly made once per
worker process (a replayed game, a loaded model) keeps it in a per-process cache of its own module
(:func:`functools.cache` on a function of the task's arguments), which works the same in worker
processes and on Dask workers.

>>> sorted(run_tasks(pow, [(2, 3), (3, 2)]))
[8, 9]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from .progress import ProgressBar

R = TypeVar("R")


def run_tasks(
    fn: Callable[..., R],
    calls: Iterable[tuple[Any, ...]],
    *,
    workers: int | None = 1,
    cluster: str | None = None,
    progress: ProgressBar | None = None,
    per_worker: int = 2,
) -> Iterator[R]:
    """``fn(*args)`` for each ``args`` of ``calls``, yielded as they finish (in any order).

    ``cluster`` (``local``, ``local:N`` or a scheduler address, see :mod:`.cluster`): on Dask workers;
    else ``workers`` local processes (``None``: one per core; 1: in this process, in order). At most
    ``per_worker`` tasks per worker are in flight, so ``calls`` may be a long generator. ``progress``
    advances by one per finished task. ``fn`` must be a module-level function (it is pickled).
    """
    if cluster is not None:
        from .cluster import Cluster

        dask = Cluster(cluster)
        try:
            for result in dask.imap(fn, calls, per_worker=per_worker):
                if progress is not None:
                    progress.advance()
                yield result
        finally:
            dask.close()
        return
    workers = workers or os.cpu_count() or 1
    if workers <= 1:
        for args in calls:
            result = fn(*args)
            if progress is not None:
                progress.advance()
            yield result
        return
    it = iter(calls)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = set()
        for args in it:
            pending.add(pool.submit(fn, *args))
            if len(pending) >= per_worker * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                result = fut.result()
                if progress is not None:
                    progress.advance()
                yield result
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(fn, *nxt))
