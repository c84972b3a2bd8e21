"""The end-of-run merge of a dataset: a run's batches become one file per table and partition, merged by the workers."""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from ..corpus import attach_parquet, disable_progress_bar
from ..dataset import Commit, DatasetWriter, new_batch_id, read_commits, write_version
from ..duckdb_store import sql_string
from ..tables import SCHEMAS
from .runners import Runner

# The merge sorts by game and writes one file per partition: these bound the memory it takes at any
# corpus size (the sort spills to disk past the limit; partition buffers are flushed in small row groups).
# The sort and the partitioned write take memory per thread: 16 threads overflowed 512 MB on a 16-core
# machine (a table of 4,000 games); a merge is parallel by its tasks, a few threads each are enough.
MERGE_THREADS = min(4, os.cpu_count() or 1)
MERGE_SETTINGS = (
    "SET memory_limit = '512MB'",
    f"SET threads = {MERGE_THREADS}",
    "SET partitioned_write_flush_threshold = 32768",
    "SET write_buffer_row_group_count = 1",
)


MERGED_TABLES = (*SCHEMAS, "failures")


def merge_commits(writer: DatasetWriter, batches: list[str], runner: Runner | None = None) -> None:
    """Merge the files of the given commits into one file per table and partition (one commit superseding them).

    Each table's partition (``actions/edition=birmingham/player_count=3``) is merged by a task of its
    own, on ``runner``'s workers in parallel when given (else here, one after the other), so that the
    merge after a run takes a fraction of its time on a cluster.
    """
    wanted = set(batches)
    commits = [c for c in read_commits(writer.root) if c.batch in wanted]
    parts = merge_parts(commits, runner.workers() if runner is not None else 1)
    calls = [(str(writer.root), batches, part) for part in parts]
    done = runner.map_calls(merge_files, calls) if runner is not None else [merge_files(*c) for c in calls]
    files = [f for fs in done for f in fs]
    shutil.rmtree(writer.root / "_tmp", ignore_errors=True)
    writer.commit(new_batch_id(), files, games=sum(c.games for c in commits), base=False, supersedes=batches)


# a merge task costs about 0.1 s besides its rows: small runs are merged in few tasks (thresholds for one
# worker; with W workers sharing the tasks, W times smaller)
MERGE_SPLIT_GAMES = (2_000, 20_000)


def merge_parts(commits: list[Any], workers: int = 1) -> list[str]:
    """The merge tasks for these commits: ``*`` (every table) for a small run, a table each for a larger
    one, a table's partition each (``actions/edition=birmingham/player_count=3``) beyond; a run is larger
    when more workers share its merge (games x workers against :data:`MERGE_SPLIT_GAMES`)."""
    size = sum(c.games for c in commits) * max(1, workers)
    if size < MERGE_SPLIT_GAMES[0]:
        return ["*"]
    if size < MERGE_SPLIT_GAMES[1]:
        return sorted({rel.split("/", 1)[0] for c in commits for rel in c.files})
    return sorted({rel.rsplit("/", 1)[0] for c in commits for rel in c.files})  # the file's folder


@dataclass
class _Staged:
    """Takes the place of a :class:`DatasetWriter` where files are written but not committed (a worker)."""

    root: Path
    files: list[str] = field(default_factory=list)

    def commit(self, batch: str, files: list[str], games: int, base: bool = False, supersedes: Any = ()) -> None:
        self.files = list(files)


def merge_files(root: str, batches: list[str], part: str = "*") -> list[str]:
    """Merge ``part`` of the given commits (``*``: every table; a table; or a table's partition, e.g.
    ``actions/edition=birmingham/player_count=3``) into one file per table and partition, sorted by game,
    uncommitted; returns its files.

    A merge task: it runs where the games were replayed (a worker process or a Dask worker), so that
    the importing process never holds the corpus's tables; the caller commits the files. It reads only
    that partition's files (and the same partition of ``games``, for tables that take their partition
    columns from it), so its memory is bounded by a partition of one run, and bounded again by
    :data:`MERGE_SETTINGS`.
    """
    staged = _Staged(Path(root))
    table, _, partition = part.partition("/")
    wanted = set(batches)
    # a table's rows take their partition columns from games: its games too, of the same partition
    prefixes = ("",) if part == "*" else (f"{part}/", f"games/{partition}/" if partition else "games/")
    only = [
        Commit(c.seq, c.batch, [rel for rel in c.files if rel.startswith(prefixes)])
        for c in read_commits(staged.root)
        if c.batch in wanted
    ]
    tmp = staged.root / "_tmp" / new_batch_id()  # where the sort spills: DuckDB makes only the last folder
    tmp.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(":memory:")
    for setting in MERGE_SETTINGS:
        with contextlib.suppress(duckdb.Error):  # a DuckDB without that setting merges as it can
            con.execute(setting)
    con.execute(f"SET temp_directory = {sql_string(tmp)}")
    disable_progress_bar(con)
    try:
        attach_parquet(con, staged.root, only=only)
        tables = list(MERGED_TABLES) if part == "*" else [table]
        write_version(staged, con, tables, base=False)  # type: ignore[arg-type]
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return staged.files
