"""`brass-stats validate`: exit statuses, messages, --json, and whole collections."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import convert_golden

from brass_stats.cli import main
from brass_stats.engine.actions import Build
from brass_stats.log.format import GameLog


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("games")
    out: dict[str, Path] = {}
    good = convert_golden("wq9gs6-2p")
    out["good"] = d / "good.json"
    good.save(out["good"])
    # an illegal action: a build on a space that does not show the industry
    rules = good.rules()

    def wrong_slot(a: object) -> int | None:
        if not isinstance(a, Build):
            return None
        slots = rules.locations[a.location].slots
        return next((s.index for s in slots if a.industry not in s.industries), None)

    i = next(k for k, a in enumerate(good.actions) if wrong_slot(a) is not None)
    b = good.actions[i]
    assert isinstance(b, Build)
    bad = replace(good, actions=[*good.actions[:i], replace(b, slot=wrong_slot(b)), *good.actions[i + 1 :]])
    out["illegal"] = d / "illegal.json"
    bad.save(out["illegal"])
    out["truncated"] = d / "truncated.json"
    replace(good, actions=good.actions[:30], result=None).save(out["truncated"])
    wrong = dict(good.result or {})
    wrong["final"] = [dict(r, vp=r["vp"] + 5) for r in wrong["final"]]
    out["result"] = d / "result.json"
    replace(good, result=wrong).save(out["result"])
    text = good.dumps()
    out["badjson"] = d / "badjson.json"
    out["badjson"].write_text(text[:200])
    out["version"] = d / "version.json"
    out["version"].write_text(text.replace('"format_version": 1', '"format_version": 9'))
    out["unknown"] = d / "unknown.json"
    out["unknown"].write_text(text.replace('"loc:dudley"', '"loc:atlantis"', 1))
    out["missing"] = d / "missing.json"
    data = json.loads(text)
    del data["actions"][0]["card"]
    out["missing"].write_text(json.dumps(data))
    return out


def i_illegal(games: dict[str, Path]) -> int:
    good, bad = GameLog.load(games["good"]), GameLog.load(games["illegal"])
    return next(k for k, (a, b) in enumerate(zip(good.actions, bad.actions, strict=True)) if a != b)


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["validate", *args])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_valid_game_exits_0_and_prints_scores(games: dict[str, Path]) -> None:
    code, out = run(str(games["good"]))
    assert code == 0 and "OK" in out and "215 VP" in out


def test_illegal_action_exits_1_with_index_round_player_action_and_rule(games: dict[str, Path]) -> None:
    code, out = run(str(games["illegal"]))
    assert code == 1
    assert "ILLEGAL action" in out and "round" in out and "player" in out
    assert "build.slot_icon" in out and "display your industry's icon" in out
    assert f"ILLEGAL action {i_illegal(games) + 1} (" in out  # counted from 1 on screen


def test_json_keeps_the_0_based_index_that_the_text_shows_plus_1(games: dict[str, Path]) -> None:
    code, out = run("--format", "json", str(games["illegal"]))
    assert code == 1 and json.loads(out)["error"]["index"] == i_illegal(games)


def test_json_output_has_ok_error_and_final(games: dict[str, Path]) -> None:
    code, out = run("--json", str(games["good"]), str(games["illegal"]))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert rows[0]["ok"] is True and rows[0]["error"] is None
    assert [f["vp"] for f in rows[0]["final"]] == [215, 180]
    assert set(rows[0]["final"][0]) >= {"name", "vp", "income_level", "money", "rank"}
    assert rows[1]["ok"] is False and set(rows[1]["error"]) >= {"index", "rule", "message"}


def test_declared_result_mismatch_exits_1(games: dict[str, Path]) -> None:
    code, out = run(str(games["result"]))
    assert code == 1 and "declared 220, replayed 215" in out


@pytest.mark.parametrize(
    "name,needle",
    [
        ("badjson", "not valid JSON"),
        ("version", "unsupported format_version 9"),
        ("unknown", "loc:atlantis"),
        ("missing", "needs 'card'"),
        ("truncated", "not finished"),
    ],
)
def test_malformed_inputs_exit_2_with_one_clear_message(games: dict[str, Path], name: str, needle: str) -> None:
    code, out = run(str(games[name]))
    assert code == 2, out
    assert needle in out
    assert str(games[name]) in out


def test_missing_file_exits_2(tmp_path: Path) -> None:
    code, out = run(str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in out


def test_collection_report_groups_failures_by_rule(games: dict[str, Path], tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    code, out = run(str(games["good"].parent), "--report", str(report), "--workers", "2")
    assert code == 2  # a malformed file is present; nothing stopped the run
    summary = json.loads(report.read_text())
    assert summary["total"] == len(games) and summary["passed"] == 1
    assert summary["failed"] == len(games) - 1
    assert summary["failures_by_rule"]["build.slot_icon"] == 1
    assert summary["failures_by_rule"]["log.format"] == 4
    assert summary["replay_seconds_total"] > 0 and summary["replay_seconds_mean"] > 0
    assert {f["file"] for f in summary["failures"]} == {str(p) for k, p in games.items() if k != "good"}


def test_glob_patterns_are_expanded(games: dict[str, Path]) -> None:
    code, out = run(str(games["good"].parent / "go*.json"))
    assert code == 0 and "1/1" not in out  # a single file prints no summary line


def test_resolved_log_round_trip_keeps_validating(games: dict[str, Path]) -> None:
    log = GameLog.load(games["good"])
    assert len(log.actions) == 78


# -- a game that fails only as its server allowed: a hint at --as-played ------------------------------

REAL = Path(__file__).parents[1] / "brass_stats" / "replays_data" / "real" / "gm7vza-4p.json"


def test_a_game_legal_as_played_gets_a_hint_at_as_played() -> None:
    code, out = run(str(REAL))  # a 15th and 16th link tile at index 117: strictly illegal
    assert code == 1 and "ILLEGAL action 118 (" in out
    hints = [line for line in out.splitlines() if "hint:" in line]
    assert len(hints) == 1 and "--as-played" in hints[0] and "network.link_tiles at action 118" in hints[0]
    code, out = run("--format", "json", str(REAL))
    row = json.loads(out)
    assert code == 1 and row["error"]["index"] == 117 and row["as_played_ok"] is True
    code, out = run("--as-played", str(REAL))
    assert code == 0 and "hint:" not in out


def test_no_hint_for_a_break_that_as_played_does_not_accept(games: dict[str, Path]) -> None:
    code, out = run(str(games["illegal"]))  # a build on a space without the industry's icon
    assert code == 1 and "hint:" not in out
    code, out = run("--format", "json", str(games["illegal"]))
    assert json.loads(out)["as_played_ok"] is not True


def test_a_collection_counts_the_files_that_pass_as_played(games: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("good", "illegal"):
        (folder / f"{name}.json").write_bytes(games[name].read_bytes())
    (folder / REAL.name).write_bytes(REAL.read_bytes())
    report = tmp_path / "report.json"
    code, out = run(str(folder), "--workers", "2", "--report", str(report))  # the policy crosses processes
    assert code == 1 and "1/3 games valid; 2 failed" in out
    assert "hint: 1 of the 2 failed files pass with --as-played" in out
    assert json.loads(report.read_text())["pass_as_played"] == 1


def test_quiet_keeps_the_failures_in_every_format_as_its_help_says(games: dict[str, Path]) -> None:
    help_text = " ".join(CliRunner().invoke(main, ["validate", "--help"]).output.split())
    assert "-q, --quiet Leave out the files that pass, in every --format" in help_text
    both = [str(games["good"]), str(games["illegal"])]
    code, out = run("-q", "--format", "json", *both)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["file"] for r in rows] == [both[1]]
    code, out = run("-q", "--format", "json", both[0])
    assert code == 0 and out == ""  # nothing failed: nothing to print, the exit status says it
    code, out = run("-q", *both, "--workers", "1")
    assert "ILLEGAL" in out and "OK" not in out and "1/2 games valid" in out  # the table's summary line stays


# -- a path that exists is taken literally, whatever its name -----------------------------------------


def named_like_a_pattern(games: dict[str, Path], tmp_path: Path) -> Path:
    """``game[1].json`` (a legal game) beside ``game1.json`` (an illegal one), which the pattern would match."""
    (tmp_path / "game[1].json").write_bytes(games["good"].read_bytes())
    (tmp_path / "game1.json").write_bytes(games["illegal"].read_bytes())
    return tmp_path / "game[1].json"


def test_a_file_named_like_a_glob_pattern_is_taken_literally(games: dict[str, Path], tmp_path: Path) -> None:
    path = named_like_a_pattern(games, tmp_path)
    code, out = run("--format", "json", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["file"] for r in rows] == [str(path)] and rows[0]["ok"] is True


def test_an_argument_that_names_nothing_is_still_a_glob_pattern(games: dict[str, Path], tmp_path: Path) -> None:
    named_like_a_pattern(games, tmp_path)
    code, out = run("--format", "json", str(tmp_path / "game[1]*.json"))  # no such file: [1] matches "1"
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["file"] for r in rows] == [str(tmp_path / "game1.json")]
    code, out = run(str(tmp_path / "game[2].json"))  # neither a file nor a pattern that matches one
    assert code == 2 and "no game files found" in out


def test_a_directory_named_like_a_glob_pattern_is_taken_literally(games: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "club[1]"
    folder.mkdir()
    (folder / "good.json").write_bytes(games["good"].read_bytes())
    (tmp_path / "club1").mkdir()
    (tmp_path / "club1" / "illegal.json").write_bytes(games["illegal"].read_bytes())
    code, out = run("--format", "json", str(folder))
    assert code == 0 and [json.loads(line)["file"] for line in out.splitlines()] == [str(folder / "good.json")]


@pytest.mark.parametrize("command", ["ingest", "replay"])
def test_ingest_and_replay_take_a_file_named_like_a_glob_pattern_literally(
    games: dict[str, Path], tmp_path: Path, command: str
) -> None:
    path = named_like_a_pattern(games, tmp_path)
    args = [command, str(path), "--db", str(tmp_path / "games.duckdb"), "--format", "json"]
    res = CliRunner().invoke(main, args + (["--workers", "1"] if command == "ingest" else []))
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output)
    assert row["files"] == row["stored"] == 1 and row["failed"] == 0  # game1.json, illegal, was not read


def test_every_command_lists_paths_alike(games: dict[str, Path], tmp_path: Path) -> None:
    from brass_stats.storage.ingest import iter_game_files
    from brass_stats.validation import expand_paths

    named_like_a_pattern(games, tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.json").write_bytes(games["good"].read_bytes())
    (tmp_path / "z.json").write_bytes(games["good"].read_bytes())
    items = [str(tmp_path / "game[1].json"), str(tmp_path / "s*"), str(tmp_path), str(tmp_path / "game[1].json")]
    listed = list(dict.fromkeys(iter_game_files(items)))
    assert [str(p) for p in expand_paths(items)] == listed
    assert listed[:2] == [str(tmp_path / "game[1].json"), str(tmp_path / "sub" / "a.json")]
