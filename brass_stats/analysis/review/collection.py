"""Every stored game reviewed: a store's games fanned out as tasks, their rows stored game by game.

:func:`review_collection` picks the games of a store (a DuckDB file or a Parquet dataset) that pass a
corpus filter (:class:`~brass_stats.analysis.statistics.filters.CorpusFilter`, the SQL of every corpus
statistic) and are not yet in its ``analysis`` table with the same budget and seed, and reviews each in
one task of :func:`brass_stats.tasks.run_tasks` (:func:`review_stored_game`: the whole game in one
process, its actions one after another), in this process, local worker processes or on a Dask cluster.

* **One writer.** The tasks read no store: this process reads each game's log (where the import read it
  from) and sends it with the task; the rows come back here and this process writes them, one game at a
  time in DuckDB (one transaction each), in batches of games in a Parquet dataset (one commit record
  each): a run killed midway keeps every game stored before, and the next run goes on from there.
* **The policy the game was stored with.** A game stored with departures from the rules
  (``games.n_deviations``, an import with ``--as-played``) is reviewed as played
  (:data:`~brass_stats.engine.policy.AS_PLAYED`), every other game strictly.
* **One game's failure is that game's.** A log no longer there, a log now holding another game, a game
  stopping at an illegal action, an error in its review: the game is counted as failed, with its
  message, and the others go on.

The review of a game is the same as ``analyse GAME --store`` gives (the same seeds, action by action),
whatever the number of workers and the order the games finish in.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import duckdb

from ...engine.policy import AS_PLAYED, STRICT
from ...errors import BrassError
from ...log.format import GameLog
from ...replay import replay
from ...storage.analysis_table import analysis_table, replace_in_dataset
from ...storage.corpus import CorpusRef
from ...storage.duckdb_store import Store
from ...storage.ingest.worker import load_log
from ...storage.lookup import log_location
from ...storage.tables import game_id as log_game_id
from ...tasks import ProgressBar, WorkerLost, run_tasks
from ..statistics.accuracy import has_analysis
from ..statistics.filters import CorpusFilter, player_games_sql
from . import run
from .judge import DEFAULT_SIMULATIONS
from .records import review_rows

PARQUET_BATCH = 16
"""Games per commit record in a Parquet dataset (or fewer, every :data:`PARQUET_SECONDS`)."""
PARQUET_SECONDS = 60.0


@dataclass(frozen=True)
class StoredGame:
    """A stored game to review: its id, where its log was imported from, its partition, its policy."""

    game_id: str
    source_file: str | None
    edition: str
    player_count: int
    as_played: bool  # stored with departures from the rules: reviewed as played


@dataclass(frozen=True)
class GameTask:
    """One task: a game's log (JSON text) and how to review it; ``error`` instead when the log is unreadable."""

    game_id: str
    log: str | None
    as_played: bool
    simulations: int
    seed: int
    error: str | None = None


@dataclass(frozen=True)
class GameOutcome:
    """A task's result: the game's ``analysis`` rows, or why it could not be reviewed."""

    game_id: str
    rows: list[dict[str, Any]] | None
    error: str | None = None


@dataclass
class CollectionReport:
    """What a collection review did: games reviewed, skipped (already reviewed), failed (game id, message)."""

    simulations: int
    seed: int
    reviewed: int = 0
    skipped: int = 0
    actions: int = 0  # rows stored
    failed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        """One line: reviewed, skipped and failed games, the first failure's message."""
        line = (
            f"reviewed {self.reviewed} game(s) ({self.actions} actions), skipped {self.skipped} already reviewed "
            f"({self.simulations} simulations, seed {self.seed}), failed {len(self.failed)}"
        )
        if self.failed:
            gid, message = self.failed[0]
            line += f" (first: game {gid}: {message})"
        return line + f" in {self.seconds:.1f} s"


def select_games(
    con: duckdb.DuckDBPyConnection, filters: CorpusFilter, simulations: int, seed: int, redo: bool = False
) -> tuple[list[StoredGame], int]:
    """The games of ``con`` to review (ordered by game id) and how many passing ``filters`` are skipped.

    A game passes when one of its player-games does (:func:`player_games_sql`: ``--source human`` keeps
    the games with a seat a person played). A game whose rows in ``analysis`` were made with
    ``simulations`` and ``seed`` is skipped, unless ``redo``.
    """
    pg_sql, params = player_games_sql(filters, con)
    columns = {r[0] for r in con.execute("SELECT * FROM games LIMIT 0").description}
    as_played = "coalesce(g.n_deviations, 0) > 0" if "n_deviations" in columns else "false"
    done = "false"
    if has_analysis(con):
        done = "EXISTS (SELECT 1 FROM analysis a WHERE a.game_id = g.game_id AND a.simulations = ? AND a.seed = ?)"
        params = [*params, simulations, seed]
    rows = con.execute(
        f"""WITH picked AS (SELECT DISTINCT game_id FROM ({pg_sql}) AS pgs)
            SELECT g.game_id, g.source_file, g.edition, g.player_count, {as_played} AS as_played, {done} AS done
            FROM games g JOIN picked USING (game_id)
            ORDER BY g.game_id""",
        params,
    ).fetchall()
    todo = [StoredGame(str(r[0]), r[1], str(r[2]), int(r[3]), bool(r[4])) for r in rows if redo or not r[5]]
    return todo, len(rows) - len(todo)


def review_stored_game(task: GameTask) -> GameOutcome:
    """Review one stored game (a task, in a worker process or on a Dask worker): its rows, or its failure."""
    if task.error is not None or task.log is None:
        return GameOutcome(task.game_id, None, task.error or "no log")
    try:
        log = GameLog.from_json(json.loads(task.log))
        policy = AS_PLAYED if task.as_played else STRICT
        r = replay(log, policy)
        review = run.review_game(r, policy, simulations=task.simulations, seed=task.seed, workers=1)
        if review.stopped is not None:
            s = review.stopped
            return GameOutcome(
                task.game_id, None, f"action {s['index'] + 1} breaks a rule [{s['rule']}]: {s['message']}"
            )
        return GameOutcome(task.game_id, list(review_rows(review, task.game_id, as_played=task.as_played)))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BrassError as e:
        return GameOutcome(task.game_id, None, str(e))
    except Exception as e:  # one game's bug must not stop the others: it is that game's failure
        return GameOutcome(task.game_id, None, f"internal error ({type(e).__name__}: {str(e)[:500]})")


def _tasks(games: list[StoredGame], ref: CorpusRef, simulations: int, seed: int) -> Iterator[tuple[GameTask]]:
    """Each game's task, its log read here as the tasks are submitted (a few at a time)."""
    store = ref.db if ref.db is not None else ref.parquet
    assert store is not None
    for g in games:
        where = log_location(g.source_file, store)
        error = None
        text = None
        if where is None:
            error = f"its log file {g.source_file!r} is not available to replay"
        else:
            try:
                log = load_log(where)
            except BrassError as e:
                error = str(e)
            else:
                if log_game_id(log) != g.game_id:
                    error = f"its log file {where} now holds another game"
                else:
                    text = json.dumps(log.to_json(), ensure_ascii=False)
        yield (GameTask(g.game_id, text, g.as_played, simulations, seed, error),)


class _Writer:
    """The one writer: each game's rows into the store as they come (DuckDB), or in batches (Parquet)."""

    def __init__(self, ref: CorpusRef, games: list[StoredGame]) -> None:
        self.ref = ref
        self.partitions = {g.game_id: (g.edition, g.player_count) for g in games}
        self.store = Store(ref.db) if ref.db is not None else None
        self.pending: list[dict[str, Any]] = []
        self.pending_games = 0
        self.last = time.monotonic()

    def add(self, rows: list[dict[str, Any]]) -> None:
        if self.store is not None:
            self.store.replace_analysis(analysis_table(rows))
            return
        self.pending += rows
        self.pending_games += 1
        if self.pending_games >= PARQUET_BATCH or time.monotonic() - self.last >= PARQUET_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.pending_games and self.ref.parquet is not None:
            replace_in_dataset(self.ref.parquet, analysis_table(self.pending), self.partitions)
        self.pending, self.pending_games, self.last = [], 0, time.monotonic()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self.store is not None:
                self.store.close()


def review_collection(
    ref: CorpusRef,
    filters: CorpusFilter | None = None,
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int = 0,
    workers: int = 1,
    cluster: str | None = None,
    redo: bool = False,
    progress: bool | None = None,
) -> CollectionReport:
    """Review every game of the store ``ref`` (one of a DuckDB file or a Parquet dataset) that passes
    ``filters`` and is not yet reviewed with ``simulations`` and ``seed`` (all of them with ``redo``),
    and store each game's rows in its ``analysis`` table as the game is done (see the module docstring).

    ``workers`` local processes (1: this process) or the Dask cluster ``cluster`` review one game each at
    a time. ``progress``: a bar over the games (None: on a terminal). Raises
    :class:`~brass_stats.storage.corpus.CorpusError` (no such store) or
    :class:`~brass_stats.storage.corpus.CorpusBusy` (a DuckDB file in use) before any review.
    """
    if (ref.db is None) == (ref.parquet is None):
        raise ValueError("review_collection reviews the games of one store: a DuckDB file or a Parquet dataset")
    start = time.perf_counter()
    report = CollectionReport(simulations, seed)
    con = ref.connect()
    try:
        games, report.skipped = select_games(con, filters or CorpusFilter(), simulations, seed, redo)
    finally:
        con.close()
    if not games:
        report.seconds = time.perf_counter() - start
        return report
    writer = _Writer(ref, games)  # the store opened for writing now: busy, it stops here
    done: set[str] = set()
    try:
        bar = ProgressBar("reviewing games", total=len(games), show=progress)
        n = max(1, min(workers, len(games)))
        try:
            calls = _tasks(games, ref, simulations, seed)
            for outcome in run_tasks(review_stored_game, calls, workers=n, cluster=cluster, progress=bar):
                done.add(outcome.game_id)
                if outcome.rows is None:
                    report.failed.append((outcome.game_id, outcome.error or "not reviewed"))
                    continue
                writer.add(outcome.rows)
                report.reviewed += 1
                report.actions += len(outcome.rows)
        except WorkerLost as e:
            why = f"not reviewed: a worker process died ({e}); run again to go on"
            report.failed += [(g.game_id, why) for g in games if g.game_id not in done]
    finally:
        writer.close()
    report.seconds = time.perf_counter() - start
    return report


__all__ = [
    "CollectionReport",
    "GameOutcome",
    "GameTask",
    "StoredGame",
    "review_collection",
    "review_stored_game",
    "select_games",
]
