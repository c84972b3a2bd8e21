"""Running many independent tasks here, in local worker processes, or on a Dask cluster.

* :mod:`.run`: :func:`run_tasks`, the one way the package fans work out.
* :mod:`.pool`: the pools :func:`run_tasks` runs on (this process, local processes, Dask in :mod:`.cluster`),
  opened by :func:`open_pool`, for a caller that drives its own tasks (the import); :class:`WorkerLost`.
* :mod:`.cluster`: the Dask client (``--cluster local[:N] | tcp://HOST:PORT``), Dask being an extra.
* :mod:`.progress`: :class:`ProgressBar`, the one progress bar of long commands.
"""

from __future__ import annotations

from .pool import Pool, WorkerLost
from .progress import ProgressBar
from .run import open_pool, run_tasks

__all__ = ["Pool", "ProgressBar", "WorkerLost", "open_pool", "run_tasks"]
