"""The mutation campaigns' own tools (docs/testing.md): which mutants are left out of a sample, which
lines a mutant changed, and which tests it runs."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent / "mutation"))  # scripts, not a package
campaign = importlib.import_module("campaign")
select_tests = importlib.import_module("select_tests")


@pytest.mark.parametrize(
    ("operator", "left_out"),
    [
        ("core/ReplaceBinaryOperator_Add_Sub", False),
        ("core/ReplaceBinaryOperator_Mul_FloorDiv", False),
        ("core/ReplaceBinaryOperator_Add_Pow", True),
        ("core/ReplaceBinaryOperator_Sub_BitXor", True),
        ("core/ReplaceComparisonOperator_Lt_LtE", False),
        ("core/ReplaceComparisonOperator_Eq_NotEq", False),
        ("core/ReplaceComparisonOperator_Is_IsNot", False),
        ("core/ReplaceComparisonOperator_In_NotIn", False),
        ("core/ReplaceComparisonOperator_Lt_Is", True),
        ("core/ReplaceComparisonOperator_Eq_In", True),
        ("core/VariableReplacer", True),
        ("core/NumberReplacer", False),
    ],
)
def test_the_operators_left_out_are_the_random_and_the_cross_family_ones(operator: str, left_out: bool) -> None:
    assert campaign.excluded(operator, campaign.wings_config()) is left_out


def test_a_mutant_inside_a_postponed_annotation_is_left_out(tmp_path: Path) -> None:
    source = "def f(a: int | None = None) -> int | None:\n    return a | 1\n"
    (tmp_path / "later.py").write_text("from __future__ import annotations\n\n" + source)
    (tmp_path / "now.py").write_text(source)

    def at(module: str, line: int, column: int) -> SimpleNamespace:
        return SimpleNamespace(module_path=module, start_pos=(line, column))

    spans: dict[str, Any] = {}
    annotation, return_annotation, body = (3, 13), (3, 35), (4, 13)
    assert campaign.in_annotation(tmp_path, at("later.py", *annotation), spans)
    assert campaign.in_annotation(tmp_path, at("later.py", *return_annotation), spans)
    assert not campaign.in_annotation(tmp_path, at("later.py", *body), spans)
    # evaluated when the module is imported: a mutant there can change what the module does
    assert not campaign.in_annotation(tmp_path, at("now.py", annotation[0] - 2, annotation[1]), spans)


def test_the_mutated_lines_are_numbered_as_in_the_committed_file(tmp_path: Path) -> None:
    package = tmp_path / "brass_stats"
    package.mkdir()
    (package / "x.py").write_text("".join(f"v{i} = {i}\n" for i in range(1, 11)))
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=tmp_path, check=True)
    lines = (package / "x.py").read_text().splitlines()
    lines[6] = "v7 = 8"  # line 7 changed
    del lines[2]  # line 3 removed
    (package / "x.py").write_text("\n".join(lines) + "\n")
    assert select_tests.mutated_lines(tmp_path) == {"brass_stats/x.py": {3, 7}}


class FakeMap:
    """A coverage map: line 5 of a.py run by two tests; line 1 run at import only."""

    durations = {"t::line5_slow": 50.0, "t::line5_fast": 1.0, "t::a_other": 2.0, "t::b": 0.5, "t::c": 80.0}

    def tests_of_lines(self, path: str, lines: set[int]) -> set[str]:
        return {"t::line5_slow", "t::line5_fast"} if 5 in lines else set()

    def tests_of_file(self, path: str) -> set[str]:
        return {"t::line5_slow", "t::line5_fast", "t::a_other"}

    def all_tests(self) -> set[str]:
        return set(self.durations)

    def duration(self, test: str) -> float:
        return self.durations[test]


def test_a_mutant_runs_its_covering_tests_fastest_first_within_the_budget() -> None:
    cover: Any = FakeMap()
    assert select_tests.selected_tests(cover, {"a.py": {5}}, 60.0) == ["t::line5_fast", "t::line5_slow"]
    assert select_tests.selected_tests(cover, {"a.py": {5}}, 10.0) == ["t::line5_fast"]
    # a line run at import: its file's tests, then the rest of the wing's, each fastest first, while the
    # budget lasts (a slow one that does not fit is passed over for a fast one that does)
    found = select_tests.selected_tests(cover, {"a.py": {1}}, 60.0)
    assert found == ["t::line5_fast", "t::a_other", "t::line5_slow", "t::b"]
    assert select_tests.selected_tests(cover, {"a.py": {1}}, 200.0) == [
        "t::line5_fast",
        "t::a_other",
        "t::line5_slow",
        "t::b",
        "t::c",
    ]


def _session(folder: Path, name: str, done: int, pending: int) -> Path:
    import sqlite3

    path = folder / name
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE work_items (job_id TEXT PRIMARY KEY)")
        db.execute("CREATE TABLE work_results (job_id TEXT PRIMARY KEY, test_outcome TEXT)")
        for i in range(done + pending):
            db.execute("INSERT INTO work_items VALUES (?)", (f"job{i}",))
        for i in range(done):
            db.execute("INSERT INTO work_results VALUES (?, 'KILLED')", (f"job{i}",))
    return path


@pytest.mark.parametrize(
    ("pending", "changed", "resumed"),
    [(3, "", True), (3, " brass_stats/replay/notation.py | 2 +-", False), (0, "", False)],
)
def test_a_run_resumes_an_unfinished_session_only_while_the_wings_code_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pending: int, changed: str, resumed: bool
) -> None:
    """A commit of docs or tests keeps the sampled mutants: the campaign goes on where it stopped."""
    session = _session(tmp_path, "replay-3cb71097e4-seed38.sqlite", 5, pending)
    asked: list[tuple[str, ...]] = []

    def fake_git(*args: str, **_: Any) -> str:
        asked.append(args)
        return changed

    monkeypatch.setattr(campaign, "STATE", tmp_path)
    monkeypatch.setattr(campaign, "git", fake_git)
    found = campaign.resumable("replay", ["brass_stats/replay"], "02462b3f71aa", 38)
    assert found == (session if resumed else None)
    if pending:  # the wing's own paths, from the session's commit to HEAD
        assert asked == [("diff", "--stat", "3cb71097e4", "02462b3f71aa", "--", "brass_stats/replay")]
    assert campaign.resumable("replay", ["brass_stats/replay"], "02462b3f71aa", 7) is None  # another seed


def test_a_recheck_runs_again_only_survivors_above_the_first_change_of_their_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cosmic-ray finds a mutant by its occurrence from the top of the file: above the first changed line
    it is the same mutant at the later commit; at or below it, it may not be."""
    import sqlite3

    diff = "\n".join(
        [
            "diff --git a/pkg/a.py b/pkg/a.py",
            "--- a/pkg/a.py",
            "+++ b/pkg/a.py",
            "@@ -40,2 +40,3 @@ def f():",
            "@@ -90 +91 @@ def g():",
            "diff --git a/pkg/new.py b/pkg/new.py",
            "--- /dev/null",
            "+++ b/pkg/new.py",
            "@@ -0,0 +1,5 @@",
        ]
    )
    monkeypatch.setattr(campaign, "git", lambda *args, **_: diff)
    changed = campaign.first_changed_lines("old", "new", ["pkg"])
    assert changed == {"pkg/a.py": 40, "pkg/new.py": 1}
    session = _session(tmp_path, "s.sqlite", 0, 0)
    with sqlite3.connect(session) as db:
        db.execute("CREATE TABLE mutation_specs (job_id TEXT, module_path TEXT, start_pos_row INTEGER)")
        for job, path, row, outcome in [
            ("j1", "pkg/a.py", 39, "SURVIVED"),
            ("j2", "pkg/a.py", 40, "SURVIVED"),
            ("j3", "pkg/a.py", 95, "KILLED"),
            ("j4", "pkg/b.py", 500, "SURVIVED"),
        ]:
            db.execute("INSERT INTO mutation_specs VALUES (?, ?, ?)", (job, path, row))
            db.execute("INSERT INTO work_results VALUES (?, ?)", (job, outcome))
    assert campaign.moved_survivors(session, changed) == ["pkg/a.py:40"]


def test_two_workers_share_the_pending_mutants_and_their_results_come_back_together(tmp_path: Path) -> None:
    """``run --workers 2``: each worker's copy of the session leaves the other's share skipped; once both
    are done, every result is in the session (and nothing else), and the copies are gone."""
    import sqlite3

    session = _session(tmp_path, "replay-abc-seed38.sqlite", 2, 5)  # job0-1 done, job2-6 pending
    with sqlite3.connect(session) as db:
        db.execute("ALTER TABLE work_results ADD COLUMN worker_outcome TEXT")
        db.execute("ALTER TABLE work_results ADD COLUMN output TEXT")
        db.execute("ALTER TABLE work_results ADD COLUMN diff TEXT")
    shards = campaign.split(session, 2)
    assert [s.name for s in shards] == ["replay-abc-seed38.worker0of2.sqlite", "replay-abc-seed38.worker1of2.sqlite"]
    assert [campaign.pending_jobs(s) for s in shards] == [["job2", "job4", "job6"], ["job3", "job5"]]
    assert campaign.split(session, 2) == shards  # an interrupted run's copies are resumed, not remade
    for k, shard in enumerate(shards):  # each worker runs its share
        with sqlite3.connect(shard) as db:
            for job in campaign.pending_jobs(shard):
                outcome = "SURVIVED" if job == "job4" else "KILLED"
                db.execute(
                    "INSERT INTO work_results (job_id, test_outcome, worker_outcome, output, diff) "
                    "VALUES (?, ?, 'NORMAL', ?, '')",
                    (job, outcome, f"worker {k}"),
                )
    assert campaign.gather(session, shards) == 5
    assert campaign.pending_jobs(session) == [] and not any(s.exists() for s in shards)
    with sqlite3.connect(session) as db:
        rows = db.execute("SELECT job_id, test_outcome, output FROM work_results ORDER BY job_id").fetchall()
    assert rows[2:] == [
        ("job2", "KILLED", "worker 0"),
        ("job3", "KILLED", "worker 1"),
        ("job4", "SURVIVED", "worker 0"),
        ("job5", "KILLED", "worker 1"),
        ("job6", "KILLED", "worker 0"),
    ]
