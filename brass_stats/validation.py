"""Validate game logs: replay each one and report the first broken rule, or agreement with the declared result.

One file never stops a run: every problem becomes a :class:`Validation` record.

>>> from pathlib import Path
>>> v = validate_file(Path(__file__).parents[1] / "tests" / "data" / "does-not-exist.json")
>>> v.ok, v.kind
(False, 'format')
"""

from __future__ import annotations

import csv
import glob
import io
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .engine.policy import AS_PLAYED, STRICT, ChoicePolicy, StrictPolicy
from .errors import IllegalAction, LogFormatError
from .exitcodes import BAD_INPUT, FAILED, INTERNAL, OK
from .log.format import GameLog
from .replay import Replay
from .rulebook import RULES


@dataclass
class Validation:
    file: str
    ok: bool
    kind: str  # "ok", "illegal", "result", "format", "internal" (a bug in brass-stats)
    error: dict[str, Any] | None = None
    final: list[dict[str, Any]] | None = None
    actions: int = 0
    seconds: float = 0.0
    detail: list[str] = field(default_factory=list)
    deviations: list[dict[str, Any]] = field(default_factory=list)  # rules broken as played (--as-played)
    # A strict failure on a rule that a game as played may break: True when the game passes as played
    # (validate --as-played), False when it fails that way too; None when not asked.
    as_played_ok: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def exit_status(self) -> int:
        return {"ok": OK, "format": BAD_INPUT, "internal": INTERNAL}.get(self.kind, FAILED)


def validate_log(log: GameLog, keep_states: bool = False, policy: ChoicePolicy = STRICT) -> Validation:
    """Replay a parsed log; see :func:`validate_file`.

    A strict verdict of an illegal action that :data:`~brass_stats.engine.policy.AS_PLAYED` tolerates also
    says whether the game passes as played (``as_played_ok``: one more replay, for such games only).
    """
    v = replay_and_judge(log, keep_states, policy)[1]
    if isinstance(policy, StrictPolicy) and v.kind == "illegal" and (v.error or {}).get("rule") in AS_PLAYED.tolerates:
        v.as_played_ok = replay_and_judge(log, False, AS_PLAYED)[1].ok
    return v


def replay_and_judge(
    log: GameLog, keep_states: bool = False, policy: ChoicePolicy = STRICT
) -> tuple[Replay | None, Validation]:
    """Replay a log and judge it: (the replay, or None when the log cannot even be set up; the verdict).

    ``policy`` :data:`~brass_stats.engine.policy.AS_PLAYED` accepts the departures a game as played may
    have (``--as-played``); they are listed in the verdict's ``deviations``.
    """
    start = time.perf_counter()
    file = log.file or "<log>"
    try:
        r = Replay(log, policy=policy, keep_states=keep_states).run()
    except LogFormatError as e:
        return None, Validation(file, False, "format", {"index": None, "rule": "log.format", "message": str(e)})
    return r, judge(r, file, time.perf_counter() - start)


def judge(r: Replay, file: str, seconds: float) -> Validation:
    """The verdict on a replay that has run: illegal action, truncated log, different result, or OK."""
    v = _judge(r, file, seconds)
    v.deviations = r.deviations
    return v


def _judge(r: Replay, file: str, seconds: float) -> Validation:
    final = [
        {"name": s.name, "vp": s.vp, "income_level": s.income_level, "money": s.money, "rank": s.rank}
        for s in r.standings()
    ]
    if r.error is not None:
        err = illegal_to_json(r.error)
        return Validation(file, False, "illegal", err, final if r.finished else None, len(r.steps), seconds)
    if not r.finished:
        st = r.state
        msg = (
            f"the log ends after {len(r.steps)} actions, in the {st.era.title()} Era round {st.era_round}, "
            f"with player {st.current_player} to move: the game is not finished"
        )
        err = {"index": len(r.steps), "rule": "log.truncated", "message": msg, "rule_text": RULES["log.truncated"].text}
        return Validation(file, False, "format", err, None, len(r.steps), seconds)
    problems = r.check_result()
    if problems:
        text = RULES["log.result"].text
        err = {"index": None, "rule": "log.result", "message": "; ".join(problems), "rule_text": text}
        return Validation(file, False, "result", err, final, len(r.steps), seconds, problems)
    return Validation(file, True, "ok", None, final, len(r.steps), seconds)


def illegal_to_json(e: IllegalAction) -> dict[str, Any]:
    details = {k: v for k, v in e.details.items() if k != "player"}
    return {
        "index": e.index,
        "rule": e.rule,
        "rule_text": e.rule_text,
        "message": e.message,
        "era": e.era,
        "round": e.round,
        "player": e.details.get("player"),
        "action": e.action,
        "details": details,
    }


def validate_file(path: str | Path, policy: ChoicePolicy = STRICT) -> Validation:
    """Validate one file; never raises: bad input is kind "format", a bug in brass-stats kind "internal"."""
    start = time.perf_counter()
    try:
        log = GameLog.load(path)
        v = validate_log(log, policy=policy)
    except LogFormatError as e:
        v = Validation(str(path), False, "format", {"index": None, "rule": "log.format", "message": str(e)})
    except Exception as e:  # one file's bug must not stop a collection: it becomes this file's verdict
        v = internal_error(str(path), e)
    v.file = str(path)
    v.seconds = v.seconds or time.perf_counter() - start
    return v


def internal_error(file: str, e: BaseException | str) -> Validation:
    """The verdict for a file that made brass-stats fail (a bug to report, not a property of the game)."""
    why = e if isinstance(e, str) else f"{type(e).__name__}: {e}"
    message = f"internal error ({why[:500]}); please report this file to the brass-stats developers"
    return Validation(file, False, "internal", {"index": None, "rule": "internal", "message": message})


WILDCARDS = "*?["


def is_glob_pattern(item: str, exists: Callable[[str], bool] = os.path.exists) -> bool:
    """Whether a path argument is expanded as a glob pattern: it has a wildcard and names nothing that exists.

    A file or folder that exists is taken literally, whatever its name: ``game[1].json`` is a file,
    not the pattern of ``game1.json``. ``exists`` asks another filesystem (a URL's).

    >>> is_glob_pattern("games/*.json", exists=lambda p: False), is_glob_pattern("game[1].json", exists=lambda p: True)
    (True, False)
    """
    return any(ch in item for ch in WILDCARDS) and not exists(item)


def game_files(items: Iterable[str | Path], urls: Callable[[str], Iterator[str]] | None = None) -> Iterator[str]:
    """The game files that path arguments name, lazily: files, directories and glob patterns.

    The one listing of every command that takes paths (``validate``, ``replay``, ``ingest``). An
    argument that names an existing file or directory is taken literally; only otherwise is one with
    a wildcard expanded as a glob pattern (see :func:`is_glob_pattern`). A directory, named or matched,
    gives every ``*.json`` below it, in name order, one folder at a time (a huge corpus is never held
    in memory); a named file or a pattern's match is listed once. ``urls`` lists an item with a
    ``scheme://`` (without it such an item is a local path).
    """
    seen_files: set[str] = set()  # only named files and glob matches can repeat
    for raw in items:
        item = str(raw)
        if urls is not None and "://" in item:
            yield from urls(item)
        elif os.path.isdir(item):
            yield from _walk(item)
        elif is_glob_pattern(item):
            for p in sorted(glob.iglob(item, recursive=True)):
                if os.path.isdir(p):
                    yield from _walk(p)
                elif p not in seen_files:
                    seen_files.add(p)
                    yield p
        elif item not in seen_files:
            seen_files.add(item)
            yield item


def _walk(top: str) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".json"):
                yield os.path.join(dirpath, name)


def expand_paths(items: Iterable[str]) -> list[Path]:
    """Files, directories (every ``*.json`` below them) and glob patterns, in a stable order, each once
    (:func:`game_files`)."""
    return [Path(p) for p in dict.fromkeys(game_files(items))]


def _validate_path(path: str, policy: ChoicePolicy = STRICT) -> Validation:
    return validate_file(path, policy)


def validate_many(
    paths: list[Path],
    workers: int | None = None,
    on_done: Callable[[Validation], None] | None = None,
    policy: ChoicePolicy = STRICT,
) -> list[Validation]:
    """Validate files in parallel (``workers`` processes; 1 runs in this process). Results keep input order."""
    workers = workers or os.cpu_count() or 1
    results: list[Validation] = []
    if workers == 1 or len(paths) <= 1:
        for p in paths:
            v = validate_file(p, policy)
            results.append(v)
            if on_done:
                on_done(v)
        return results
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunks = max(1, len(paths) // (workers * 8))
            for v in pool.map(partial(_validate_path, policy=policy), [str(p) for p in paths], chunksize=chunks):
                results.append(v)
                if on_done:
                    on_done(v)
    except BrokenProcessPool:
        # A worker died (killed for memory, a crash in a C library): find the file, keep the rest.
        for p in paths[len(results) :]:
            v = _validate_alone(str(p), policy)
            results.append(v)
            if on_done:
                on_done(v)
    return results


def _validate_alone(path: str, policy: ChoicePolicy = STRICT) -> Validation:
    """Validate one file in a process of its own, so that a file that kills its process is the only loss."""
    try:
        with ProcessPoolExecutor(max_workers=1) as pool:
            return pool.submit(_validate_path, path, policy).result()
    except BrokenProcessPool:
        return internal_error(path, "the process validating this file died")


def summary(results: list[Validation], wall_seconds: float) -> dict[str, Any]:
    """The collection report: totals, timing, failures grouped by broken rule, and each failure."""
    failed = [v for v in results if not v.ok]
    replay_total = sum(v.seconds for v in results)
    as_played = sum(1 for v in failed if v.as_played_ok)
    by_rule = Counter((v.error or {}).get("rule", "unknown") for v in failed)
    return {
        "total": len(results),
        "passed": len(results) - len(failed),
        "failed": len(failed),
        "wall_seconds": round(wall_seconds, 3),
        "replay_seconds_total": round(replay_total, 3),
        "replay_seconds_mean": round(replay_total / len(results), 4) if results else 0.0,
        "actions_total": sum(v.actions for v in results),
        "failures_by_rule": dict(by_rule.most_common()),
        "pass_as_played": as_played,  # failed files that pass as played (validate --as-played)
        "failures": [
            {
                "file": v.file,
                "kind": v.kind,
                "index": (v.error or {}).get("index"),
                "rule": (v.error or {}).get("rule"),
                "message": (v.error or {}).get("message"),
            }
            for v in failed
        ],
    }


CSV_COLUMNS = ("file", "verdict", "actions", "rule", "index", "player", "message", "seconds")


class RowWriter:
    """One file's verdict as output lines in a ``--format`` (table: readable lines; csv; json: JSON Lines)."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.header_done = False

    def lines(self, v: Validation) -> Iterator[str]:
        if self.fmt == "table":
            yield from describe(v)
            return
        if self.fmt == "json":
            yield json.dumps(v.to_json(), ensure_ascii=False)
            return
        e = v.error or {}
        row = {
            "file": v.file,
            "verdict": v.kind,
            "actions": v.actions,
            "rule": e.get("rule") or "",
            "index": "" if e.get("index") is None else e["index"],
            "player": "" if e.get("player") is None else e["player"],
            "message": e.get("message") or "",
            "seconds": f"{v.seconds:.4f}",
        }
        buf = io.StringIO()
        w = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
        if not self.header_done:
            w.writeheader()
            self.header_done = True
        w.writerow(row)
        yield buf.getvalue().rstrip("\n")


def describe(v: Validation) -> Iterator[str]:
    """Human-readable lines for one validation result. They count actions from 1 ("ILLEGAL action 118" is
    ``error["index"] == 117``), as every screen does; the data (JSON, CSV) keep the 0-based index."""
    if v.ok:
        scores = ", ".join(f"{f['name']} {f['vp']} VP" for f in v.final or [])
        played = f"; as played, {len(v.deviations)} departure(s) from the rules" if v.deviations else ""
        yield f"{v.file}: OK ({v.actions} actions; {scores}{played})"
        yield from _describe_deviations(v)
        return
    e = v.error or {}
    if v.kind == "illegal":
        where = f"{e.get('era')} era, round {e.get('round')}, player {e.get('player')}"
        yield f"{v.file}: ILLEGAL action {_shown(e.get('index'))} ({where})"
        yield f"  action: {json.dumps(e.get('action'), ensure_ascii=False)}"
        yield f"  broken rule [{e.get('rule')}]: {e.get('rule_text')}"
        yield f"  why: {e.get('message')}"
        for k, val in (e.get("details") or {}).items():
            yield f"  {k}: {val}"
        if v.as_played_ok:
            first = f"{e.get('rule')} at action {_shown(e.get('index'))}"
            yield f"  hint: legal as played: `validate --as-played` accepts this game (first departure: {first})"
    elif v.kind == "result":
        yield f"{v.file}: RESULT DIFFERS from the declared result"
        for line in v.detail:
            yield f"  {line}"
        yield from _describe_deviations(v)
    elif v.kind == "internal":
        yield f"{v.file}: INTERNAL ERROR: {e.get('message')}"
    else:
        yield f"{v.file}: CANNOT READ GAME: {e.get('message')}"


def _describe_deviations(v: Validation) -> Iterator[str]:
    for d in v.deviations:
        yield f"  departure at action {d['action_index'] + 1} [{d['rule']}]: {d['message']}"


def _shown(index: int | None) -> str:
    """An action as people count it: from 1 (the data's ``index`` counts from 0)."""
    return "?" if index is None else str(index + 1)


def validate(source: str | Path | dict[str, Any] | GameLog, policy: ChoicePolicy = STRICT) -> Validation:
    """The verdict on one game (a path, JSON text or object, or a :class:`GameLog`); never raises for bad input.
    ``policy=AS_PLAYED`` accepts the departures of a game as played (see :mod:`brass_stats.engine.policy`).

    The package exports this function as ``brass_stats.validate``:

    >>> import brass_stats as bs
    >>> v = bs.validate(bs.SAMPLES / "real" / "wq9gs6-2p.json")
    >>> v.ok, v.kind, v.final[0]["vp"]
    (True, 'ok', 215)
    >>> bs.validate({"format": "something else"}).kind
    'format'
    """
    if isinstance(source, GameLog):
        return validate_log(source, policy=policy)
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return validate_file(source, policy)
    try:
        log = GameLog.from_json(source) if isinstance(source, dict) else GameLog.loads(source)
    except LogFormatError as e:
        return Validation("<log>", False, "format", {"index": None, "rule": "log.format", "message": str(e)})
    return validate_log(log, policy=policy)
