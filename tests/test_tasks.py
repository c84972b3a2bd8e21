"""brass_stats.tasks: the same tasks give the same results in this process, in local processes and on a
Dask LocalCluster; a task's exception reaches the caller; a dead worker is WorkerLost, not a hang."""

from __future__ import annotations

import importlib.util
import io
import os
from typing import Any

import pytest

from brass_stats.tasks import ProgressBar, WorkerLost, open_pool, run_tasks
from brass_stats.tasks.pool import InlinePool, ProcessPool

DASK = importlib.util.find_spec("distributed") is not None
WHERE = [
    pytest.param({"workers": 1}, id="inline"),
    pytest.param({"workers": 2}, id="processes"),
    pytest.param({"cluster": "local:2"}, id="dask", marks=pytest.mark.skipif(not DASK, reason="no Dask")),
]

_OFFSET = [0]


def _set_offset(n: int) -> None:
    _OFFSET[0] = n


def _square_plus_offset(x: int) -> tuple[int, int]:
    return x, x * x + _OFFSET[0]


def _fails_on(x: int, bad: int) -> int:
    if x == bad:
        raise ValueError(f"task {x} failed")
    return x


def _dies() -> None:
    os._exit(3)


@pytest.mark.parametrize("where", WHERE)
def test_run_tasks_gives_the_same_results_wherever_it_runs(where: dict[str, Any]) -> None:
    calls = ((i,) for i in range(25))  # a generator longer than what is in flight
    bar = ProgressBar("tasks", total=25, show=False)
    # the initializer runs in every worker before its tasks
    got = list(
        run_tasks(
            _square_plus_offset, calls, progress=bar, per_worker=1, initializer=_set_offset, initargs=(7,), **where
        )
    )
    _set_offset(0)
    assert sorted(got) == [(i, i * i + 7) for i in range(25)]
    assert bar.done == 25
    if where.get("workers") == 1:
        assert got == sorted(got)  # in this process: in order
    # a task's exception reaches the caller, as itself
    with pytest.raises(ValueError, match="task 3 failed"):
        list(run_tasks(_fails_on, ((i, 3) for i in range(10)), **where))


def test_run_tasks_starts_a_bar_after_its_workers_and_leaves_a_started_one_running() -> None:
    bar = ProgressBar("tasks", total=4, show=True, stream=io.StringIO())
    assert sorted(run_tasks(pow, [(2, i) for i in range(4)], workers=2, progress=bar)) == [1, 2, 4, 8]
    assert bar._bar is None and bar.done == 4  # started by run_tasks, stopped at the end
    with bar:
        list(run_tasks(pow, [(2, 1)], progress=bar))
        assert bar._bar is not None  # the caller's bar: still running
    assert bar._bar is None and bar.done == 5


def test_a_dead_worker_is_worker_lost_and_the_pool_goes_on() -> None:
    with ProcessPool(2) as pool:
        with pytest.raises(WorkerLost):
            pool.result(pool.submit(_dies))
        assert pool.result(pool.submit(pow, 2, 5)) == 32  # fresh processes
        with pytest.raises(WorkerLost):
            pool.isolated(_dies)
        assert pool.map(pow, [(2, 1), (2, 2), (2, 3)]) == [2, 4, 8]
    with InlinePool() as inline:
        with pytest.raises(WorkerLost):  # even here: isolated means a process of its own
            inline.isolated(_dies)
        assert inline.isolated(pow, 3, 2) == 9


def test_open_pool_picks_where_tasks_run() -> None:
    assert isinstance(open_pool(workers=1), InlinePool)
    with open_pool(workers=2) as pool:
        assert isinstance(pool, ProcessPool) and pool.workers() == 2 and pool.in_flight(3) == 6
    assert open_pool(workers=1).in_flight(3) == 1
