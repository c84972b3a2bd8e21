"""What an import reports: a file's :class:`Outcome`, a task's :class:`BatchResult`, a run's :class:`IngestReport`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...exitcodes import FAILED, OK
from ..tables import GameParts


@dataclass
class Outcome:
    """What happened to one file in a worker (before the parent commits it)."""

    file: str
    status: str  # "ok" (tables ready), "skipped" (already stored) or "failed"
    game_id: str | None = None
    tables: GameParts | None = None  # the game's tables before Arrow (a batch converts them together)
    error_kind: str | None = None  # "format", "illegal", "result", "tables", "internal"
    rule: str | None = None
    action_index: int | None = None
    message: str | None = None
    actions: int = 0
    seconds: float = 0.0
    result_differs: bool = False  # stored, but its declared result disagrees with the replay
    deviations: int = 0  # rules broken as played (stored under --as-played)

    def without_tables(self) -> Outcome:
        return Outcome(
            self.file,
            self.status,
            self.game_id,
            None,
            self.error_kind,
            self.rule,
            self.action_index,
            self.message,
            self.actions,
            self.seconds,
            self.result_differs,
            self.deviations,
        )


@dataclass
class BatchResult:
    """What a task reports back: the files it wrote (not yet committed) and a summary of its games."""

    batch: str
    files: list[str]  # relative to the destination folder
    game_ids: list[str]  # games in the files, in order
    files_done: int = 0
    skipped: int = 0
    failures: list[Outcome] = field(default_factory=list)
    actions: int = 0  # actions replayed (stored games and failures)
    stored_actions: int = 0  # actions of the games in the files
    seconds: float = 0.0  # time inside the task
    cpu_seconds: float = 0.0  # CPU time of the task's process inside the task
    worker: str = ""
    flagged: list[Outcome] = field(default_factory=list)  # stored with a disagreeing result or deviations


@dataclass
class IngestReport:
    files: int = 0
    stored: int = 0
    skipped: int = 0
    failed: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[Outcome] = field(default_factory=list)
    result_differs: list[Outcome] = field(default_factory=list)  # stored with a disagreeing declared result
    as_played: list[Outcome] = field(default_factory=list)  # stored with deviations
    task_seconds: float = 0.0  # summed over tasks: the work the workers did
    task_cpu_seconds: float = 0.0  # the same in CPU time (what a loaded machine inflates least)
    commit_seconds: float = 0.0  # the parent's own work: committing batches (the serial part of a run)
    commit_cpu_seconds: float = 0.0  # the same in CPU time (of the thread committing, and of the loader threads)
    compact_seconds: float = 0.0  # merging a dataset's new batches at the end (serial, after the workers)
    compact_cpu_seconds: float = 0.0
    stored_actions: int = 0
    # the final flush: what was left to load when the last worker's result came (with many workers, the
    # run's tail: the loads in one process lag behind the workers)
    flush_seconds: float = 0.0

    @property
    def exit_status(self) -> int:
        return FAILED if self.failed else OK

    def by_rule(self) -> list[tuple[str, int]]:
        """Failures grouped by the rule they broke (or the kind of failure), most frequent first."""
        counts = Counter(o.rule or o.error_kind or "unknown" for o in self.failures)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def summary(self) -> str:
        rate = self.files / self.seconds if self.seconds > 0 else 0.0
        text = (
            f"{self.stored} stored, {self.skipped} skipped (already stored), {self.failed} failed "
            f"of {self.files} file(s) in {self.seconds:.2f} s ({rate:.1f} files/s)"
        )
        if self.failures:
            text += "\nfailures by rule: " + ", ".join(f"{rule} {n}" for rule, n in self.by_rule())
        return text
