"""The DuckDB committer: finished batches bulk-loaded into a DuckDB file, in loader threads, within a memory bound."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb

from ..duckdb_store import Store, sql_string
from .results import BatchResult

# a group's load costs about a sixth of its games' replay and tables (1 ms against 6-8 ms per game): a
# loader per 4 workers keeps up with room to spare; LOADERS_MAX groups load into one DuckDB file at once
WORKERS_PER_LOADER = 4
LOADERS_MAX = 8
# DuckDB's memory during an import into its file: a base, and room for each group loading at once. A group
# of 512 four-player games needs 16 to 24 MiB with one loader, 4 loaders loaded within 40 MiB in all: this
# gives about 3 times that. The process's peak follows the bound (2 workers, 1,000 / 10,000 games: 314 /
# 443 MiB at 128 + 128 per loader, 260 / 318 at 64 + 64, 240 / 256 at 32 + 32; 16 workers, 4 loaders: 325 /
# 398 at 64 + 32, 312 / 333 at 64 + 16), the speed does not. A load that runs out of memory all the same
# is tried again with the bound doubled (_load_within_memory)
MEMORY_BASE_MB = 64
MEMORY_PER_LOADER_MB = 16


class DuckDBCommitter:
    """Bulk-loads finished batches' staging files into the DuckDB store, a group of batches per transaction,
    in background threads.

    A DuckDB transaction's commit costs as much as loading a few dozen games (it writes the log and
    checkpoints), so batches are accepted as they finish (new games counted, repeats dropped) and loaded
    together once :attr:`group_games` games or :attr:`group_seconds` seconds have gathered, one statement
    per table. A group is loaded by a thread of its own, with its own cursor and transaction (DuckDB
    appends from several transactions at once), so the importing process goes on handing out tasks while
    it loads, and up to :attr:`loaders` groups load at once: one DuckDB file then takes games from many
    workers (a single loader is the bottleneck beyond about 6 workers). Each group is whole or absent; a
    killed run loses the gathered groups (never part of a game), and the next run imports them again.
    While it loads, the committer holds a read transaction open beside the loads and bounds DuckDB's
    memory (a load that does not fit is tried again under a doubled bound); :meth:`flush` ends with a
    checkpoint while that transaction is still open, and :meth:`close` ends the one and puts the other back.
    """

    partitioned = False
    group_games = 512
    group_seconds = 10.0
    # set by the run once the file listing has ended (what is left is read ahead, about 1 to 4 batches per
    # worker): from then on a free loader takes what waits as soon as drain_games have gathered, so that
    # little is left to load once the workers are done (2 workers, 2,500-3,000 games: the time after the
    # last result 0.50 -> 0.15 s). Earlier loads of small groups cost more per game (a commit each)
    draining = False
    drain_games = 64

    def __init__(self, store: Store, stored: set[str], loaders: int = 1, background: bool = True) -> None:
        self.store, self.stored = store, stored
        self.loaders = max(1, loaders)
        self.background = background  # False: each group loads at once, in this thread (a one-process import)
        self.load_cpu_seconds = 0.0  # CPU time of the loads made in loader threads
        self.dest = staging_dir(Path(store.path).absolute())  # workers write there, from any folder
        # we hold the database's write lock: anything staged there is a killed run's leftover
        shutil.rmtree(self.dest, ignore_errors=True)
        self.dest.mkdir(parents=True)
        self.waiting: list[tuple[BatchResult, list[str] | None]] = []  # a batch, and the ids to keep if not all
        self.waiting_games = 0
        self.since = time.monotonic()
        self._pool: ThreadPoolExecutor | None = None
        self._loading: list[tuple[Future[None], list[str]]] = []  # a group's load, and its new game ids
        self._lock = threading.Lock()
        # each load runs one DuckDB thread: loads run side by side rather than one at a time on many
        # threads (which costs more CPU per game, taken from the workers)
        con = store.con
        self._threads = con.execute("SELECT current_setting('threads')").fetchone()[0]  # type: ignore[index]
        con.execute("SET threads = 1")
        # a read transaction held open while the groups load (each from a cursor of its own): DuckDB then
        # commits each group with less work, and the file comes out smaller (one process, 3,000 games:
        # 1.31 -> 0.88 ms of load CPU per game, 66 -> 55 MB); it is rolled back before the store is closed
        self._reader = con.cursor()
        self._reader.execute("BEGIN TRANSACTION")
        self._reader.execute("SELECT count(*) FROM games").fetchall()
        self._memory_checked = False
        self._memory_limit: str | None = None  # the setting before the import, when bounded (see _bound_memory)
        self._bound = 0  # the bound now, in bytes
        self._ceiling: float | None = None  # the setting before the import, in bytes (None: unreadable)
        self._loosened = 0  # times the bound was doubled

    def _bound_memory(self) -> None:
        """Bound DuckDB's memory for the import: its default (80% of the machine) lets the blocks it has
        written stay cached, so the importing process grew with the corpus (585 MiB after 20,000 games on
        2 workers, 1,229 MiB after 10,000 on 16); within the bound DuckDB evicts them."""
        if self._memory_checked:
            return
        self._memory_checked = True
        con = self.store.con
        before = str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        bound = (MEMORY_BASE_MB + MEMORY_PER_LOADER_MB * self.loaders) * 2**20
        now = _setting_bytes(before)
        if now is None or now > bound:  # never raise a limit the store was given
            con.execute(f"SET memory_limit = '{bound // 2**20}MiB'")
            self._memory_limit = before
            self._bound, self._ceiling = bound, now

    def _loosen_memory_bound(self) -> bool:
        """After a load ran out of memory under the bound: double the bound (never above the setting before
        the import) so that the load can be tried again; False if there is no bound of ours to loosen."""
        with self._lock:
            if self._memory_limit is None or self._loosened >= 8:  # (8: 256 times the bound, then give up)
                return False
            if self._ceiling is not None and self._bound >= self._ceiling:
                return False
            self._loosened += 1
            self._bound = int(min(2 * self._bound, self._ceiling or float("inf")))
            con = self.store.con.cursor()
            try:
                con.execute(f"SET memory_limit = '{self._bound // 2**20}MiB'")
            finally:
                con.close()
            return True

    def commit(self, results: list[BatchResult]) -> int:
        """Accept finished batches: returns the games new to the store; loads them when a group is full."""
        self._reap(wait_all=False)  # a load that failed stops the import here
        new = 0
        for r in results:
            ids = [g for g in r.game_ids if g not in self.stored]
            self.waiting.append((r, None if len(ids) == len(r.game_ids) else ids))
            self.stored.update(ids)
            self.waiting_games += len(ids)
            new += len(ids)
        while self.waiting and (
            self.waiting_games >= self.group_games
            or time.monotonic() - self.since >= self.group_seconds
            or (
                self.draining
                and self.background
                and self.waiting_games >= self.drain_games
                and len(self._loading) < self.loaders
            )
        ):
            self._start_load()
        return new

    def flush(self) -> None:
        """Load every accepted batch and wait for every load (raises the first load's error).

        The workers are done: what waits is shared among the free loaders, loading side by side.
        """
        self._reap(wait_all=False)
        free = self.loaders - len(self._loading) if self.background else 1
        if free > 1 and len(self.waiting) > 1:
            waiting = self.waiting
            share = -(-self.waiting_games // free)
            self.waiting, self.waiting_games = [], 0
            for item in waiting:
                self.waiting.append(item)
                self.waiting_games += _games(item)
                if self.waiting_games >= share:
                    self._start_load()
        while self.waiting:
            self._start_load()
        self._reap(wait_all=True)
        self._checkpoint()

    def _checkpoint(self) -> None:
        """Write what the loads left in DuckDB's log into the file, while the read transaction is still open.

        Done at close instead (after the read transaction has ended) the same checkpoint rewrites the
        tables: one process, 3,000 games, 4 loaders, a 14 MB log left by the last group: 0.77 s at close
        and an 81 MB file, against 0.04 s here and 55 MB. The workers are idle by now: it is the run's tail.
        """
        con = self.store.con.cursor()
        try:
            # every group is committed (in the log) by now: if DuckDB refuses to checkpoint here (older
            # versions do while another transaction is open, say one the caller holds on its own Store),
            # the close checkpoints, and reports its failure
            with contextlib.suppress(duckdb.Error):
                con.execute("CHECKPOINT")
        finally:
            con.close()

    def _start_load(self) -> None:
        if self.background:  # as many groups in memory and on disk as loaders, no more
            while self.waiting and len(self._loading) >= self.loaders:
                self._reap_one(self._loading.pop(0))  # (a failure leaves the waiting group waiting)
        waiting = self._take(self.group_games)
        self.since = time.monotonic()
        if not waiting:
            return
        self._bound_memory()  # (once, before the first load)
        new = [g for r, keep in waiting for g in (r.game_ids if keep is None else keep)]
        if not self.background:
            self._reap_one((_done(self._load_within_memory, waiting, new), new))
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.loaders, thread_name_prefix="duckdb-load")
        self._loading.append((self._pool.submit(self._timed_load, waiting, new), new))

    def _take(self, limit: int) -> list[tuple[BatchResult, list[str] | None]]:
        """The oldest waiting batches, up to ``limit`` games (at least one batch): never a bigger group.

        Results come several at a time while every loader is busy (16 workers: 512 waiting became a group
        of 762, loaded alone on one thread for 0.5 s after the others had finished); the rest waits for
        the next free loader."""
        taken: list[tuple[BatchResult, list[str] | None]] = []
        games = 0
        while self.waiting and (not taken or games + _games(self.waiting[0]) <= limit):
            item = self.waiting.pop(0)
            taken.append(item)
            games += _games(item)
        self.waiting_games -= games
        return taken

    def _reap(self, wait_all: bool) -> None:
        """Collect finished loads (every load with ``wait_all``); the first failure is raised after the others."""
        error: BaseException | None = None
        still: list[tuple[Future[None], list[str]]] = []
        for item in self._loading:
            if not wait_all and not item[0].done():
                still.append(item)
                continue
            try:
                self._reap_one(item)
            except BaseException as e:  # noqa: BLE001 (raised below, once every load is accounted for)
                error = error or e
        self._loading = still
        if error is not None:
            raise error

    def _reap_one(self, item: tuple[Future[None], list[str]]) -> None:
        load, new = item
        try:
            load.result()
        except BaseException:
            self.stored.difference_update(new)  # rolled back: not stored
            raise

    def _timed_load(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        start = time.thread_time()  # (DuckDB runs a query on the calling thread with threads = 1)
        try:
            self._load_within_memory(waiting, new)
        finally:
            with self._lock:
                self.load_cpu_seconds += time.thread_time() - start

    def _load_within_memory(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        """:meth:`_load`, tried again with a looser bound if it ran out of memory under the bound: the bound
        is ours, an import must not fail for it (the group was rolled back: whole or absent)."""
        while True:
            try:
                return self._load(waiting, new)
            except duckdb.Error as e:
                if not (_out_of_memory(e) and self._loosen_memory_bound()):
                    raise

    def _load(self, waiting: list[tuple[BatchResult, list[str] | None]], new: list[str]) -> None:
        """Load a group of batches in one transaction (in a loader thread, with a cursor of its own)."""
        con = self.store.con.cursor()
        whole: dict[str, list[str]] = {}  # table -> staging files loaded whole
        failures: list[str] = []
        try:
            con.execute("BEGIN TRANSACTION")
            try:
                for r, keep in waiting:
                    for rel in r.files:
                        name, path = rel.split("/", 1)[0], str(self.dest / rel)
                        if name == "failures":
                            failures.append(path)
                        elif keep is None:
                            whole.setdefault(name, []).append(path)
                        elif keep:  # a batch with games stored already: only the others
                            con.execute(
                                f'INSERT INTO "{name}" BY NAME SELECT * FROM read_parquet({_listing([path])}) '
                                "WHERE list_contains(?, game_id)",
                                [keep],
                            )
                for name, files in whole.items():
                    con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM read_parquet({_listing(files)})')
                if failures:
                    listing = _listing(failures)
                    con.execute(f"DELETE FROM failures WHERE file IN (SELECT file FROM read_parquet({listing}))")
                    con.execute(f"INSERT INTO failures BY NAME SELECT * FROM read_parquet({listing})")
                if new:
                    con.execute("DELETE FROM failures WHERE list_contains(?, game_id)", [new])
                con.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):  # a COMMIT that failed has rolled back already
                    con.execute("ROLLBACK")
                raise
        finally:
            con.close()
        for r, _ in waiting:
            for rel in r.files:
                (self.dest / rel).unlink(missing_ok=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        with contextlib.suppress(Exception):  # the connection may be closed already
            self._reader.execute("ROLLBACK")
            self._reader.close()
        with contextlib.suppress(Exception):
            self.store.con.execute(f"SET threads = {int(self._threads)}")
            if self._memory_limit is not None:
                self.store.con.execute(_restore_memory_limit(self._memory_limit))
        shutil.rmtree(self.dest, ignore_errors=True)


def _games(item: tuple[BatchResult, list[str] | None]) -> int:
    """The new games of a waiting batch."""
    r, keep = item
    return len(r.game_ids if keep is None else keep)


def _out_of_memory(e: BaseException) -> bool:
    """DuckDB ran out of memory (while loading, or while committing: then a TransactionException)."""
    return isinstance(e, duckdb.OutOfMemoryException) or "could not allocate block" in str(e)


def _done(fn: Callable[..., None], *args: Any) -> Future[None]:
    """``fn(*args)`` run now, as a finished future (its error kept in it)."""
    fut: Future[None] = Future()
    try:
        fn(*args)
    except BaseException as e:  # noqa: BLE001 (kept in the future, raised by its reader)
        fut.set_exception(e)
    else:
        fut.set_result(None)
    return fut


_UNITS = {
    **{"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50},
    **{"KB": 10**3, "MB": 10**6, "GB": 10**9},
}


def _setting_bytes(text: str) -> float | None:
    """DuckDB's ``memory_limit`` as shown (``18.8 GiB``, ``488.2 MiB``) in bytes; None if unreadable."""
    number, _, unit = text.strip().partition(" ")
    try:
        return float(number) * _UNITS[unit or "bytes"]
    except (KeyError, ValueError):
        return None


def _restore_memory_limit(before: str) -> str:
    """The statement that puts ``memory_limit`` back as it was: DuckDB's default exactly (a new connection
    shows the same text), or else the text it showed (rounded as DuckDB shows it)."""
    fresh = duckdb.connect(":memory:")
    try:
        default = fresh.execute("SELECT current_setting('memory_limit')").fetchone()[0]  # type: ignore[index]
    finally:
        fresh.close()
    if before == default:
        return "RESET memory_limit"
    if before.endswith(" PiB"):  # no limit ('-1' shows as 16383.9 PiB, a unit SET does not take)
        return "SET memory_limit = '-1'"
    return f"SET memory_limit = '{before}'"


def _listing(paths: list[str]) -> str:
    return "[" + ", ".join(sql_string(f) for f in paths) + "]"


def staging_dir(db: Path) -> Path:
    """Where workers put the batches waiting to be loaded into the DuckDB file ``db``."""
    return db.parent / f".{db.name}.ingest"
