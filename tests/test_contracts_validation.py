"""Contracts of ``brass_stats.validation`` that users rely on (found by mutation testing).

Each test names the contract: what a verdict says, what a report carries, what ``bs.validate``
accepts as its source. The games are the samples shipped with the package: ``wq9gs6-2p`` is legal
(215 and 180 VP, ``tests/test_cli_validate.py``), ``gm7vza-4p`` strictly breaks
``network.link_tiles`` at index 117 (action 118) and passes as played (docs/rules-decisions.md, D1).

Not tested: the report's ``wall_seconds`` rounded to 3 places rather than 4 (no document promises its
precision; the table shows 2 places).
"""

from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import brass_stats as bs
from brass_stats import validation
from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED, FIRST_OPTION
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay
from brass_stats.validation import validate_log

LEGAL = bs.SAMPLES / "real" / "wq9gs6-2p.json"
LINK_LIMIT = bs.SAMPLES / "real" / "gm7vza-4p.json"  # strictly illegal at index 117, legal as played


# -- validation replays without keeping states unless asked (docs/performance.md, architecture.md) ------


@pytest.fixture
def replays_made(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The ``keep_states`` of every replay that validation makes, in order."""
    made: list[bool] = []

    class RecordingReplay(Replay):
        def __post_init__(self) -> None:
            made.append(self.keep_states)
            super().__post_init__()

    monkeypatch.setattr(validation, "Replay", RecordingReplay)
    return made


def test_validate_log_does_not_keep_states_unless_asked(replays_made: list[bool]) -> None:
    log = GameLog.load(LEGAL)
    assert validate_log(log).ok
    assert replays_made == [False]  # one replay, changing one state in place
    assert validate_log(log, keep_states=True).ok
    assert replays_made == [False, True]


def test_validating_a_file_keeps_no_states(replays_made: list[bool]) -> None:
    assert bs.validate(LEGAL).ok and bs.validate(str(LEGAL)).ok
    assert replays_made == [False, False]


# -- as_played_ok: answered for strict verdicts of a tolerated rule only; None when not asked ----------


def test_a_strict_failure_on_a_tolerated_rule_says_whether_it_passes_as_played() -> None:
    v = validate_log(GameLog.load(LINK_LIMIT))
    assert (v.kind, v.error and v.error["rule"]) == ("illegal", "network.link_tiles")
    assert v.as_played_ok is True


def test_a_verdict_under_another_policy_does_not_answer_as_played() -> None:
    # FIRST_OPTION tolerates nothing either, so the game fails on the same tolerated rule; but only a
    # strict verdict carries the as-played answer: under another policy nobody asked it.
    v = validate_log(GameLog.load(LINK_LIMIT), policy=FIRST_OPTION)
    assert (v.kind, v.error and v.error["rule"]) == ("illegal", "network.link_tiles")
    assert v.as_played_ok is None
    assert bs.validate(LINK_LIMIT, FIRST_OPTION).as_played_ok is None


def test_verdicts_other_than_an_illegal_action_do_not_answer_as_played() -> None:
    log = GameLog.load(LEGAL)
    assert validate_log(log).as_played_ok is None  # a legal game
    wrong = dict(log.result or {})
    wrong["final"] = [dict(r, vp=r["vp"] + 5) for r in wrong["final"]]
    v = validate_log(replace(log, result=wrong))
    assert v.kind == "result" and v.as_played_ok is None
    v = validate_log(GameLog.load(LINK_LIMIT), policy=AS_PLAYED)
    assert v.ok and v.as_played_ok is None  # asked as played: the verdict is the answer


# -- the CSV rows carry the broken rule's id (docs: JSON and CSV keep the 0-based index) ---------------


def csv_rows(*args: str) -> tuple[int, list[dict[str, str]]]:
    res = CliRunner().invoke(main, ["validate", "--format", "csv", "--workers", "1", *args])
    assert "Traceback" not in res.output
    return res.exit_code, list(csv.DictReader(io.StringIO(res.output)))


def test_a_csv_row_names_the_broken_rule_of_an_illegal_game() -> None:
    code, rows = csv_rows(str(LINK_LIMIT))
    assert code == 1 and len(rows) == 1
    assert rows[0]["verdict"] == "illegal"
    assert rows[0]["rule"] == "network.link_tiles" and rows[0]["index"] == "117"


def test_a_csv_row_names_the_rule_of_every_kind_of_failure(tmp_path: Path) -> None:
    log = GameLog.load(LEGAL)
    wrong = dict(log.result or {})
    wrong["final"] = [dict(r, vp=r["vp"] + 5) for r in wrong["final"]]
    result = tmp_path / "result.json"
    replace(log, result=wrong).save(result)
    truncated = tmp_path / "truncated.json"
    replace(log, actions=log.actions[:30], result=None).save(truncated)
    code, rows = csv_rows(str(LEGAL), str(result), str(truncated))
    assert code != 0
    got = {Path(r["file"]).name: (r["verdict"], r["rule"]) for r in rows}
    assert got == {
        LEGAL.name: ("ok", ""),  # a legal game breaks no rule
        "result.json": ("result", "log.result"),
        "truncated.json": ("format", "log.truncated"),
    }


def test_the_csv_rule_column_agrees_with_the_json_verdict() -> None:
    v = bs.validate(LINK_LIMIT)
    (row,) = csv.DictReader(io.StringIO("\n".join(validation.RowWriter("csv").lines(v))))
    (as_json,) = validation.RowWriter("json").lines(v)
    assert row["rule"] == json.loads(as_json)["error"]["rule"] == "network.link_tiles"


def test_a_csv_row_carries_the_message_of_its_verdict() -> None:
    """The ``message`` column says why the game failed, in the verdict's own words (the engine's message for
    an illegal action); a legal game's row leaves it empty."""
    code, rows = csv_rows(str(LINK_LIMIT), str(LEGAL))
    assert code == 1 and [r["verdict"] for r in rows] == ["illegal", "ok"]
    err = bs.validate(LINK_LIMIT).error or {}
    assert err["message"]  # the engine words every illegal action
    assert rows[0]["message"] == err["message"]
    assert rows[1]["message"] == ""


# -- bs.validate reads a path (str or Path) from its file and parses JSON text as text -----------------


def test_validate_reads_a_path_given_as_a_string() -> None:
    v = bs.validate(str(LEGAL))
    assert (v.ok, v.kind, v.file) == (True, "ok", str(LEGAL))
    assert [f["vp"] for f in v.final or []] == [215, 180]


def test_validate_reads_a_path_given_as_a_path() -> None:
    v = bs.validate(LEGAL)
    assert (v.ok, v.kind, v.file) == (True, "ok", str(LEGAL))
    assert [f["vp"] for f in v.final or []] == [215, 180]


def test_validate_parses_json_text_and_reads_a_missing_path_as_a_missing_file(tmp_path: Path) -> None:
    text = LEGAL.read_text()
    assert bs.validate("  \n" + text).ok  # JSON text, even after blank space
    missing = tmp_path / "nope.json"
    for source in (missing, str(missing)):
        v = bs.validate(source)
        assert (v.ok, v.kind, v.file) == (False, "format", str(missing))
        assert v.error is not None and v.error["rule"] == "log.format"


# -- a declared Rail Era start is checked seat by seat (docs/log-format.md, section 10) -------------------


def rail_era_start(log: GameLog) -> dict[str, list[int]]:
    """Each player's VP, money, income level and income space right after the action that ends the Canal
    Era, read from the replay's own state there."""
    st = Replay(log).run().checkpoints["rail_era_start"]
    seats = range(len(st.players))
    return {
        "vp": [st.players[s].vp for s in seats],
        "money": [st.players[s].money for s in seats],
        "income_level": [st.income_level(s) for s in seats],
        "income_space": [st.players[s].income_space for s in seats],
    }


@pytest.mark.parametrize("key", ["vp", "money", "income_level", "income_space"])
def test_a_declared_rail_era_start_that_differs_for_one_seat_is_reported_for_that_seat(key: str) -> None:
    """A log may declare each seat's values at the start of the Rail Era; one that differs from the replay
    for one seat fails with rule ``log.result``, naming that seat, the value and both numbers (the other
    seat, which agrees, is not mentioned)."""
    log = GameLog.load(LEGAL)
    have = rail_era_start(log)
    declared = (log.result or {})["rail_era_start"]
    assert declared == {k: have[k] for k in declared}  # what the sample declares is what the replay has
    assert validate_log(replace(log, result={"rail_era_start": {key: have[key]}})).ok
    wrong = [have[key][0], have[key][1] + 1]
    v = validate_log(replace(log, result={"rail_era_start": {key: wrong}}))
    assert (v.ok, v.kind, v.error and v.error["rule"]) == (False, "result", "log.result")
    (problem,) = v.detail
    assert f"seat 1 {key}:" in problem and "seat 0" not in problem
    assert f"declared {wrong[1]}" in problem and f"replayed {have[key][1]}" in problem


# -- a verdict's seconds: the time its validation took -----------------------------------------------------


def test_a_verdicts_seconds_are_the_time_its_file_took_even_when_it_cannot_be_read(tmp_path: Path) -> None:
    """``seconds`` is the time spent on the file: more than nothing, and within the time measured around the
    call, for a file that is missing (no replay made) as for a legal game (its replay)."""
    for path in (tmp_path / "nope.json", LEGAL):
        before = time.perf_counter()
        v = validation.validate_file(path)
        around = time.perf_counter() - before
        assert v.kind == ("format" if path.name == "nope.json" else "ok")
        assert 0 < v.seconds <= around


# -- the --report summary lists each failure with its rule ---------------------------------------------


def test_the_report_lists_each_failed_file_with_its_broken_rule(tmp_path: Path) -> None:
    """``validate --report``: the JSON summary counts the files, groups the failures by broken rule, and
    lists each failed file with its kind, the 0-based index, the rule and the message of its verdict."""
    report = tmp_path / "report.json"
    res = CliRunner().invoke(main, ["validate", "--workers", "1", "--report", str(report), str(LEGAL), str(LINK_LIMIT)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    summ = json.loads(report.read_text())
    assert (summ["total"], summ["passed"], summ["failed"]) == (2, 1, 1)
    assert summ["failures_by_rule"] == {"network.link_tiles": 1}
    err = bs.validate(LINK_LIMIT).error or {}
    assert summ["failures"] == [
        {
            "file": str(LINK_LIMIT),
            "kind": "illegal",
            "index": 117,
            "rule": "network.link_tiles",
            "message": err["message"],
        }
    ]
    # the times as docs/log-format.md section 14 gives them: to the millisecond, the mean to 0.1 ms
    assert summ["wall_seconds"] == round(summ["wall_seconds"], 3) > 0
    assert summ["replay_seconds_total"] == round(summ["replay_seconds_total"], 3) > 0
    assert summ["replay_seconds_mean"] == round(summ["replay_seconds_mean"], 4) > 0
    assert summ["actions_total"] == bs.validate(LEGAL).actions + 117  # the illegal game: the 117 before index 117
    assert summ["pass_as_played"] == 1  # that game is legal as played (docs/rules-decisions.md, D1)
