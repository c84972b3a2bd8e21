"""Run many independent tasks: in this process, in local worker processes, or on a Dask cluster.

:func:`run_tasks` is the one place where the package fans work out (self-play games, a review's
actions, ...): the same task function and arguments give the same results wherever they run, so a
result never depends on the number of workers. A task that needs something costly made once per
worker process (a replayed game, a loaded model) keeps it in a per-process cache of its own module
(:func:`functools.cache` on a function of the task's arguments), which works the same in worker
processes and on Dask workers; or the caller passes an ``initializer`` that puts it in a module
global of every worker (see :mod:`.pool`, whose :meth:`~.pool.Pool.imap` this is).

>>> sorted(run_tasks(pow, [(2, 3), (3, 2)]))
[8, 9]
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .cluster import DaskPool
from .pool import InlinePool, Pool, ProcessPool
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
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[R]:
    """``fn(*args)`` for each ``args`` of ``calls``, yielded as they finish (in any order).

    ``cluster`` (``local``, ``local:N`` or a scheduler address, see :mod:`.cluster`): on Dask workers;
    else ``workers`` local processes (``None``: one per core; 1: in this process, in order). At most
    ``per_worker`` tasks per worker are in flight, so ``calls`` may be a long generator. ``progress``
    advances by one per finished task; a bar not yet started is started once the workers are (before
    its refresh thread, so that no worker process is forked beside it) and stopped at the end.
    ``initializer(*initargs)`` runs once in every worker before its tasks. ``fn`` must be a
    module-level function (it is pickled). A task's exception is raised here; the pool is closed when
    the iteration ends or is abandoned.
    """
    bar = progress if progress is not None else contextlib.nullcontext()
    with open_pool(workers, cluster, initializer, initargs) as pool, bar:  # the workers first, then the bar
        for result in pool.imap(fn, calls, per_worker):
            if progress is not None:
                progress.advance()
            yield result


def open_pool(
    workers: int | None = 1,
    cluster: str | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Pool:
    """The workers of the Dask cluster ``cluster`` (``local``, ``local:N`` or a scheduler address), else
    ``workers`` local processes (``None``: one per core; 1: this process)."""
    if cluster is not None:
        return DaskPool(cluster, initializer, initargs)
    n = workers or os.cpu_count() or 1
    if n <= 1:
        return InlinePool(initializer, initargs)
    return ProcessPool(n, initializer, initargs)
