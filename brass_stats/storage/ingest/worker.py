"""The work of a worker: one file through :func:`process_file`, a batch of files through :func:`run_batch`.

Both run wherever the workers are (this process, a local worker process, a Dask worker): a task writes
its batch's tables itself (not yet committed) and returns only a :class:`~.results.BatchResult`.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from ...engine.policy import STRICT, ChoicePolicy
from ...errors import IllegalAction, LogFormatError
from ...log.format import GameLog
from ...replay import gc_paused
from ...validation import replay_and_judge
from ..dataset import write_batch_files
from ..duckdb_store import FAILURES_SCHEMA, StoreWriteError
from ..tables import assemble_tables, game_id, game_parts
from .results import BatchResult, Outcome

# -- one file ------------------------------------------------------------------------------


def _failure(file: str, kind: str, err: dict[str, Any], gid: str | None, actions: int, start: float) -> Outcome:
    return Outcome(
        file,
        "failed",
        gid,
        error_kind=kind,
        rule=err.get("rule"),
        action_index=err.get("index"),
        message=err.get("message"),
        actions=actions,
        seconds=time.perf_counter() - start,
    )


def load_log(path: str) -> GameLog:
    """A log from a local path or from any URL fsspec (Dask's filesystem layer) can read."""
    if "://" not in path:
        return GameLog.load(path)
    import fsspec

    try:
        with fsspec.open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise LogFormatError(f"cannot read: {e}", file=path) from None
    return GameLog.loads(text, path)


def process_file(path: str, known: frozenset[str] | set[str] = frozenset(), policy: ChoicePolicy = STRICT) -> Outcome:
    """Load, check and replay one log and compute its tables. Never raises for a file (a bug: ``internal``)."""
    start = time.perf_counter()
    gid: str | None = None
    try:
        try:
            log = load_log(path)
            gid = game_id(log)
        except LogFormatError as e:
            return _failure(path, "format", {"rule": "log.format", "message": str(e)}, None, 0, start)
        if gid in known:
            return Outcome(path, "skipped", gid, seconds=time.perf_counter() - start)
        r, verdict = replay_and_judge(log, keep_states=True, policy=policy)
        # a legal game whose declared result differs is stored, flagged: the replay is the truth
        if r is None or not (verdict.ok or verdict.kind == "result"):
            return _failure(path, verdict.kind, verdict.error or {}, gid, verdict.actions, start)
        try:
            with gc_paused():
                tables = game_parts(r, path, gid)
        except (IllegalAction, LogFormatError, ValueError, OverflowError, pa.ArrowException) as e:
            return _failure(path, "tables", {"rule": "storage.tables", "message": str(e)}, gid, len(r.steps), start)
        return Outcome(
            path,
            "ok",
            gid,
            tables,
            message="; ".join(verdict.detail) or None,
            actions=len(r.steps),
            seconds=time.perf_counter() - start,
            result_differs=verdict.kind == "result",
            deviations=len(verdict.deviations),
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # one file's bug must not stop the import: it becomes this file's failure
        message = f"internal error ({type(e).__name__}: {str(e)[:500]}); please report this file"
        return _failure(path, "internal", {"rule": "internal", "message": message}, gid, 0, start)


def failures_table(outcomes: Iterable[Outcome]) -> pa.Table:
    now = datetime.now(UTC)
    rows = [
        {
            "file": o.file,
            "game_id": o.game_id,
            "error_kind": o.error_kind,
            "rule": o.rule,
            "action_index": o.action_index,
            "message": o.message,
            "recorded_at": now,
        }
        for o in outcomes
    ]
    return pa.Table.from_pylist(rows, schema=FAILURES_SCHEMA)


# -- one task --------------------------------------------------------------------------------


def run_batch(
    paths: list[str],
    known: frozenset[str] | set[str],
    dest: str,
    batch: str,
    partitioned: bool,
    policy: ChoicePolicy = STRICT,
) -> BatchResult:
    """Process a batch of files and write its tables under ``dest`` (not committed); the task of every worker."""
    start, start_cpu = time.perf_counter(), time.process_time()
    result = BatchResult(batch, [], [], worker=f"{socket.gethostname()}:{os.getpid()}")
    seen: set[str] = set()
    ok: list[Outcome] = []
    failed: list[Outcome] = []
    for path in paths:
        o = process_file(path, known, policy)
        result.files_done += 1
        result.actions += o.actions
        if o.status == "skipped" or (o.status == "ok" and o.game_id in seen):
            result.skipped += 1
        elif o.status == "failed":
            failed.append(o)
        else:
            assert o.tables is not None and o.game_id is not None
            seen.add(o.game_id)
            ok.append(o)
    tables, ok = _batch_tables(ok, failed)
    for o in ok:
        assert o.game_id is not None
        if o.result_differs or o.deviations:
            result.flagged.append(o.without_tables())
        result.game_ids.append(o.game_id)
        result.stored_actions += o.actions
    if failed:
        tables["failures"] = failures_table(failed)
    # staging files for a DuckDB load live for seconds: not worth compressing
    try:
        result.files = write_batch_files(dest, batch, tables, partitioned, "zstd" if partitioned else "none")
    except OSError as e:  # (Arrow's errors name no file: a full disk would say nothing of where)
        raise StoreWriteError(f"{dest}: a batch's tables could not be written: {e}. {KEPT_MESSAGE}") from e
    result.failures = [o.without_tables() for o in failed]
    result.seconds = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - start_cpu
    return result


# what a store that could not be written still holds, and what to do
KEPT_MESSAGE = "What was committed before is kept, each game whole; run the same command again to import the rest"


def _batch_tables(ok: list[Outcome], failed: list[Outcome]) -> tuple[dict[str, pa.Table], list[Outcome]]:
    """The batch's games as one table each, converted to Arrow together; and the games in them. A game
    whose values Arrow cannot take fails alone (found game by game), as it would have in a batch of one."""
    if not ok:
        return {}, ok
    try:
        with gc_paused():
            return assemble_tables([o.tables for o in ok if o.tables is not None]), ok
    except (ValueError, OverflowError, pa.ArrowException):
        pass
    kept: list[Outcome] = []
    for o in ok:
        assert o.tables is not None
        try:
            assemble_tables([o.tables])
        except (ValueError, OverflowError, pa.ArrowException) as e:
            error = {"rule": "storage.tables", "message": str(e)}  # (as process_file words it)
            failure = _failure(o.file, "tables", error, o.game_id, o.actions, time.perf_counter())
            failed.append(replace(failure, seconds=o.seconds))
        else:
            kept.append(o)
    return (assemble_tables([o.tables for o in kept if o.tables is not None]) if kept else {}), kept


def worker_died(path: str, dest: str, batch: str) -> BatchResult:
    """The result for a file whose process died twice: a failure of kind ``internal``."""
    o = Outcome(
        path,
        "failed",
        error_kind="internal",
        rule="internal",
        message="the process importing this file died (killed, out of memory or a crash); please report this file",
    )
    return BatchResult(batch, write_batch_files(dest, batch, {"failures": failures_table([o])}), [], 1, 0, [o])
