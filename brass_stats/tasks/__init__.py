"""Running many independent tasks here, in local worker processes, or on a Dask cluster.

* :mod:`.run`: :func:`run_tasks`, the one way the package fans work out.
* :mod:`.cluster`: the Dask client (``--cluster local[:N] | tcp://HOST:PORT``), Dask being an extra.
* :mod:`.progress`: :class:`ProgressBar`, the one progress bar of long commands.
"""

from __future__ import annotations

from .progress import ProgressBar
from .run import run_tasks

__all__ = ["ProgressBar", "run_tasks"]
