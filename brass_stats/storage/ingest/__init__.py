"""Import game logs: validate, replay, compute the tables, store each game atomically; on cores or a cluster.

One design serves every way of running an import:

* :func:`process_file` is the per-game work: load, check, replay and build the tables of one log, or a
  failure record (it never raises for a file, even on a bug: that is a failure of kind ``internal``).
* :func:`run_batch` is one task: a batch of files through :func:`process_file`, the finished games'
  tables concatenated and written by the worker itself as Parquet files (temporary name, renamed when
  complete), plus a ``failures`` file. It returns only a small summary.
* The parent only commits: into a DuckDB file it bulk-loads a batch's staging files in one
  transaction (several finished batches at once when they are waiting); into a Parquet dataset it
  writes the batch's commit record (see :mod:`brass_stats.storage.dataset`).

Workers are local processes, this process (``workers=1``) or the workers of a Dask cluster
(:mod:`brass_stats.tasks.cluster`). Every guarantee holds for all of them: a game is whole or absent
(a batch is committed in one step); a game already stored (same content-hash id) is skipped before it
is replayed, and a game met twice is stored once; a killed run leaves only uncommitted files, which the
next run deletes before it imports the rest; a file that fails in any way (even one that kills its
worker process) is recorded in ``failures`` and every other game is still stored.

The parts, by concern:

* :mod:`.results`: what is reported (:class:`Outcome` of a file, :class:`BatchResult` of a task,
  :class:`IngestReport` of a run);
* :mod:`.worker`: the work of a worker (:func:`process_file`, :func:`run_batch`);
* :mod:`.runners`: where tasks run (a :class:`Runner` over a pool of :mod:`brass_stats.tasks`:
  :class:`InlineRunner`, :class:`ProcessRunner`, :class:`DaskRunner` on a Dask cluster);
* :mod:`.duckdb_committer` and :mod:`.dataset_committer`: committing finished batches into a DuckDB
  file or a Parquet dataset; :mod:`.merge`: the end-of-run merge of a dataset's batches;
* :mod:`.listing`: the input files and the batches cut from them;
* :mod:`.orchestrate`: the run (:func:`ingest`, :func:`run_import`, :func:`replay_files`).
"""

from __future__ import annotations

from .dataset_committer import DatasetCommitter
from .duckdb_committer import (
    LOADERS_MAX,
    MEMORY_BASE_MB,
    MEMORY_PER_LOADER_MB,
    WORKERS_PER_LOADER,
    DuckDBCommitter,
    staging_dir,
)
from .listing import MIN_BATCH, file_batches, iter_game_files
from .merge import MERGE_SPLIT_GAMES, MERGED_TABLES, merge_commits, merge_files, merge_parts
from .orchestrate import ingest, replay_files, run_import
from .results import BatchResult, IngestReport, Outcome
from .runners import DaskRunner, InlineRunner, ProcessRunner, Runner, WorkerLost, warm_up
from .worker import failures_table, load_log, process_file, run_batch, worker_died

__all__ = [
    "LOADERS_MAX",
    "MEMORY_BASE_MB",
    "MEMORY_PER_LOADER_MB",
    "MERGED_TABLES",
    "MERGE_SPLIT_GAMES",
    "MIN_BATCH",
    "WORKERS_PER_LOADER",
    "BatchResult",
    "DaskRunner",
    "DatasetCommitter",
    "DuckDBCommitter",
    "IngestReport",
    "InlineRunner",
    "Outcome",
    "ProcessRunner",
    "Runner",
    "WorkerLost",
    "file_batches",
    "failures_table",
    "ingest",
    "iter_game_files",
    "load_log",
    "merge_commits",
    "merge_files",
    "merge_parts",
    "process_file",
    "replay_files",
    "run_batch",
    "run_import",
    "staging_dir",
    "warm_up",
    "worker_died",
]
