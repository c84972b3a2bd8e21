"""Issue 11: every input gets a verdict. The reproducers of the issue, the limits, strict JSON, exit statuses."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from brass_stats import exitcodes
from brass_stats.cli import main
from brass_stats.errors import LogFormatError
from brass_stats.log.format import GameLog
from brass_stats.log.limits import Limits
from brass_stats.rules_data import load_rules

REPO = Path(__file__).parents[1]
REAL = REPO / "replays" / "real" / "gm7vza-4p.json"
LANCASHIRE = sorted((REPO / "replays" / "lancashire").glob("*.json"))[0]


def real() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REAL.read_text("utf-8"))
    return data


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env)


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def one_clear_line(res: Result, status: int) -> str:
    """The command answered with ``status`` and one line, never a traceback."""
    assert res.exit_code == status, res.output
    assert "Traceback" not in res.output
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit), res.exception
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1, res.output
    return lines[0]


# -- the reproducers of issue 11 ------------------------------------------------------------------


def test_json_nested_a_thousand_deep_is_bad_input(tmp_path: Path) -> None:
    p = write(tmp_path, '{"source": ' + "[" * 100_000 + "]" * 100_000 + "}")
    line = one_clear_line(run("validate", str(p)), exitcodes.BAD_INPUT)
    assert str(p) in line and "nested too deeply" in line


def test_deep_nesting_inside_source_is_over_the_depth_limit(tmp_path: Path) -> None:
    data = real()
    data["source"] = {"x": json.loads("[" * 40 + "]" * 40)}
    line = one_clear_line(run("validate", str(write(tmp_path, data))), exitcodes.BAD_INPUT)
    assert "source.x" in line and "deeper than the limit of 16" in line


def test_integer_of_5000_digits_is_bad_input(tmp_path: Path) -> None:
    text = REAL.read_text("utf-8").replace('"player":1', '"player":' + "1" * 5000, 1)
    line = one_clear_line(run("validate", str(write(tmp_path, text))), exitcodes.BAD_INPUT)
    assert "4300 digits" in line and len(line) < 400
    text = REAL.read_text("utf-8").replace('"player":1', '"player":' + "1" * 30, 1)
    line = one_clear_line(run("validate", str(write(tmp_path, text))), exitcodes.BAD_INPUT)
    assert "actions[0]" in line and "is not a seat of this game" in line


def test_integer_digits_limit_in_free_form_source() -> None:
    data = real()
    data["source"] = {"id": 10**25}
    with pytest.raises(LogFormatError, match="integer of 26 digits is over the limit of 20") as info:
        GameLog.from_json(data)
    assert info.value.where == "source.id"
    GameLog.from_json(data, limits=Limits(max_int_digits=26))


@pytest.mark.parametrize("command", ["validate", "vp", "income", "report"])
def test_lone_surrogate_in_a_name_is_refused_by_every_command(tmp_path: Path, command: str) -> None:
    text = REAL.read_text("utf-8").replace('"name": "Player1"', '"name": "Pl\\ud800ayer1"')
    assert "\\ud800" in text
    line = one_clear_line(run(command, str(write(tmp_path, text))), exitcodes.BAD_INPUT)
    assert "players[0].name" in line and "lone UTF-16 surrogate" in line


def test_lone_surrogate_anywhere_is_refused_but_a_surrogate_pair_is_a_character(tmp_path: Path) -> None:
    pair = REAL.read_text("utf-8").replace('"name": "Player1"', '"name": "\\ud83d\\ude00 Ann"')
    log = GameLog.loads(pair)
    assert log.players[0] == "\U0001f600 Ann"
    low = REAL.read_text("utf-8").replace('"name": "Player1"', '"name": "\\udc00"')
    with pytest.raises(LogFormatError, match="lone UTF-16 surrogate"):
        GameLog.loads(low)
    data = real()
    data["source"] = {"note": "\ud800"}
    with pytest.raises(LogFormatError, match="lone UTF-16 surrogate") as info:
        GameLog.loads(json.dumps(data))
    assert info.value.where == "source.note"


def test_ingest_of_a_lone_surrogate_name_records_a_failure_and_keeps_the_good_game(tmp_path: Path) -> None:
    d = tmp_path / "in"
    d.mkdir()
    write(d, REAL.read_text("utf-8"), "good.json")
    write(d, REAL.read_text("utf-8").replace('"name": "Player1"', '"name": "\\ud800"'), "bad.json")
    res = run("ingest", str(d), "--db", str(tmp_path / "g.duckdb"), "--workers", "1", "--as-played")
    assert res.exit_code in (exitcodes.FAILED, exitcodes.BAD_INPUT), res.output
    assert "Traceback" not in res.output
    assert "1 stored" in res.output and "bad.json" in res.output


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda c: c.update(hands=[*c["hands"][:3], "ind:brewery"]), "chance.hands[3]"),
        (lambda c: c.update(hands=[[1] * 8] * 4), "chance.hands[0]"),
        (lambda c: c.update(deck={"top": "loc:dudley"}), "chance.deck"),
        (lambda c: c.update(turn_order=[0, 1, "2", 3]), "chance.turn_order"),
        (lambda c: c.update(rail_era={"hands": [["loc:dudley"] * 8] * 3, "deck": [5]}), "chance.rail_era"),
        (lambda c: c.update(rail_era={"hands": "x", "deck": []}), "chance.rail_era"),
        (lambda c: c.update(discards=[[], [], [], [["x"]]]), "chance.discards"),
        (lambda c: c["merchant_tiles"].update(oxford="cotton_mill"), "chance.merchant_tiles"),
        (lambda c: c["merchant_tiles"].update(oxford={"0": "blank"}), "chance.merchant_tiles"),
        (lambda c: c["merchant_tiles"].update(oxford=None), "chance.merchant_tiles"),
        (lambda c: c["merchant_tiles"].update(oxford=[["blank"], "all"]), "chance.merchant_tiles"),
    ],
)
def test_explicit_chance_of_the_wrong_shape_is_refused_at_load(tmp_path: Path, change: Any, where: str) -> None:
    data = real()
    change(data["chance"])
    with pytest.raises(LogFormatError) as info:
        GameLog.from_json(data)
    assert (info.value.where or "").startswith(where), info.value
    one_clear_line(run("validate", str(write(tmp_path, data))), exitcodes.BAD_INPUT)


def test_an_absurd_iron_cost_override_is_refused_at_once(tmp_path: Path) -> None:
    data = real()
    data["options"] = {"tile_overrides": {"iron_works.1.cost_iron": 2**63}}
    start = time.perf_counter()
    line = one_clear_line(run("validate", str(write(tmp_path, data))), exitcodes.BAD_INPUT)
    assert time.perf_counter() - start < 30  # minutes and 4 GB before the fix; a generous bound for a busy machine
    assert "options.tile_overrides" in line and "out of range" in line and "0 to 4" in line


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("iron_works.1.income_spaces", -100),
        ("manufacturer.4.cost_money", 49),
        ("brewery.1.vp", 41),
        ("coal_mine.1.cost_coal", -1),
    ],
)
def test_tile_overrides_outside_the_range_from_the_rules_data(key: str, value: int) -> None:
    data = real()
    data["options"] = {"tile_overrides": {key: value}}
    with pytest.raises(LogFormatError, match="out of range") as info:
        GameLog.from_json(data)
    assert info.value.where == "options.tile_overrides"


def test_tile_override_range_is_twice_the_largest_printed_value() -> None:
    rules = load_rules("birmingham")
    top_cost = max(lv.cost_money for levels in rules.industries.values() for lv in levels)
    ok = real()
    ok["options"] = {"tile_overrides": {"manufacturer.4.cost_money": 2 * top_cost}}
    GameLog.from_json(ok)  # the largest value allowed
    ok["options"] = {"tile_overrides": {"manufacturer.4.cost_money": 2 * top_cost + 1}}
    with pytest.raises(LogFormatError, match="out of range"):
        GameLog.from_json(ok)


def test_a_vp_of_ten_to_the_thirty_is_refused_before_it_reaches_storage(tmp_path: Path) -> None:
    data = real()
    data["result"]["final"][0]["vp"] = 10**30
    p = write(tmp_path, data)
    line = one_clear_line(run("validate", str(p)), exitcodes.BAD_INPUT)
    assert "result.final[0].vp" in line
    res = run("ingest", str(p), "--db", str(tmp_path / "g.duckdb"), "--workers", "1")
    assert res.exit_code != exitcodes.INTERNAL and "Traceback" not in res.output


# -- strict JSON ------------------------------------------------------------------------------------


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    twice = '"edition": "birmingham", "edition": "lancashire"'
    text = REAL.read_text("utf-8").replace('"edition": "birmingham"', twice)
    line = one_clear_line(run("validate", str(write(tmp_path, text))), exitcodes.BAD_INPUT)
    assert "duplicate key 'edition'" in line


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_refused(number: str) -> None:
    data = real()
    data["source"] = {"x": 0}
    text = json.dumps(data).replace('"x": 0', f'"x": {number}')
    with pytest.raises(LogFormatError, match="not strict JSON"):
        GameLog.loads(text)


# -- limits -----------------------------------------------------------------------------------------


def test_file_size_limit_and_its_environment_variable(tmp_path: Path) -> None:
    p = write(tmp_path, REAL.read_text("utf-8"))
    size = p.stat().st_size
    line = one_clear_line(run("validate", str(p), env={"BRASS_STATS_MAX_FILE_BYTES": str(size - 1)}), 2)
    assert f"over the limit of {size - 1} bytes" in line and "BRASS_STATS_MAX_FILE_BYTES" in line
    ok = run("validate", "--as-played", str(p), env={"BRASS_STATS_MAX_FILE_BYTES": str(size)})
    assert ok.exit_code == exitcodes.OK


def test_action_limit(tmp_path: Path) -> None:
    data = real()
    n = len(data["actions"])
    with pytest.raises(LogFormatError, match=f"{n} actions is over the limit of {n - 1}"):
        GameLog.from_json(data, limits=Limits(max_actions=n - 1))
    GameLog.from_json(data, limits=Limits(max_actions=n))
    data["actions"] = data["actions"] * 50  # about 6,000 actions: over the default limit
    line = one_clear_line(run("validate", str(write(tmp_path, data))), exitcodes.BAD_INPUT)
    assert "over the limit of 5000" in line and "BRASS_STATS_MAX_ACTIONS" in line


def test_a_ten_megabyte_name_is_over_the_string_limit(tmp_path: Path) -> None:
    data = real()
    data["players"][0]["name"] = "x" * 10_000_000
    p = write(tmp_path, data)
    line = one_clear_line(run("validate", str(p), env={"BRASS_STATS_MAX_FILE_BYTES": str(10**8)}), 2)
    assert "players[0].name" in line and len(line) < 400
    data["players"][0]["name"] = "x" * 500
    GameLog.from_json(data)  # at the limit
    data["players"][0]["name"] = "x" * 501
    with pytest.raises(LogFormatError, match="players"):
        GameLog.from_json(data)
    GameLog.from_json(data, limits=Limits(max_string_length=501))


def test_string_limit_applies_to_card_codes_and_source() -> None:
    data = real()
    data["actions"][0]["card"] = "loc:" + "a" * 600
    with pytest.raises(LogFormatError) as info:
        GameLog.from_json(data)
    assert info.value.where == "actions[0].card"
    data = real()
    data["source"] = {"note": "n" * 600}
    with pytest.raises(LogFormatError, match="600 characters is over the limit of 500"):
        GameLog.from_json(data)


def test_limits_from_the_environment_must_be_positive_integers() -> None:
    assert Limits.from_env({"BRASS_STATS_MAX_DEPTH": "3"}).max_depth == 3
    with pytest.raises(ValueError, match="BRASS_STATS_MAX_DEPTH must be a positive integer"):
        Limits.from_env({"BRASS_STATS_MAX_DEPTH": "-3"})


# -- the schema is enforced by the reader -----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "where"),
    [
        # each of these was accepted by the reader before issue 11, and refused by schema.json
        (lambda d: next(a for a in d["actions"] if a["type"] == "build").update(slot=-1), "actions["),
        (lambda d: d["actions"][0].update(card="wild:everything"), "actions[0].card"),
        (lambda d: d["chance"]["hands"][0].pop(), "chance"),
        (lambda d: d["chance"].update(turn_order=[0, 0, 1, 2]), "chance"),
        (lambda d: d["result"]["final"][0].update(vp=-5), "result.final[0].vp"),
        (lambda d: d["chance"]["merchant_tiles"].update(oxford=["gold", "blank"]), "chance"),
    ],
)
def test_the_reader_enforces_the_json_schema(change: Any, where: str) -> None:
    from jsonschema import Draft202012Validator

    from brass_stats.log.schema import schema

    data = real()
    change(data)
    assert not Draft202012Validator(schema()).is_valid(data)
    with pytest.raises(LogFormatError) as info:
        GameLog.from_json(data)
    assert (info.value.where or "").startswith(where), info.value


# -- exit statuses, internal errors, collections -----------------------------------------------------


def test_exit_statuses_are_documented_in_help_and_readme() -> None:
    res = run("--help")
    assert res.exit_code == 0
    flat = " ".join(res.output.split())
    for code, text in exitcodes.DESCRIPTIONS.items():
        assert f"{code} {text}" in flat
    readme = (REPO / "README.md").read_text("utf-8")
    for code in exitcodes.DESCRIPTIONS:
        assert f"| {code} |" in readme


def test_an_internal_error_exits_3_with_a_hint_and_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from brass_stats.analysis.statistics import breakdowns

    def broken(*args: Any, **kw: Any) -> Any:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(breakdowns, "vp_by_source", broken)
    line = one_clear_line(run("vp", str(REAL)), exitcodes.INTERNAL)
    assert "internal error: ZeroDivisionError: simulated bug" in line and "please report" in line


def test_a_file_that_cannot_be_opened_is_bad_input(tmp_path: Path) -> None:
    line = one_clear_line(run("report", str(REAL), "--out", str(tmp_path / "no" / "such" / "dir.html")), 2)
    assert "error:" in line


def test_validate_collection_records_every_failure_and_validates_every_other_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from brass_stats import validation as V

    d = tmp_path / "games"
    d.mkdir()
    write(d, REAL.read_text("utf-8"), "a-good.json")
    write(d, "{", "b-badjson.json")
    write(d, REAL.read_text("utf-8"), "c-crash.json")
    write(d, REAL.read_text("utf-8"), "d-good.json")
    real_validate_log = V.validate_log

    def crash_on_c(log: GameLog, keep_states: bool = False, **kw: Any) -> V.Validation:
        if log.file and "c-crash" in log.file:
            raise KeyError("simulated bug")
        return real_validate_log(log, keep_states, **kw)

    monkeypatch.setattr(V, "validate_log", crash_on_c)
    report = tmp_path / "report.json"
    res = run("validate", str(d), "--workers", "1", "--report", str(report), "--as-played")
    assert res.exit_code == exitcodes.INTERNAL, res.output
    assert "Traceback" not in res.output
    summary = json.loads(report.read_text("utf-8"))
    assert (summary["total"], summary["passed"], summary["failed"]) == (4, 2, 2)
    kinds = {Path(f["file"]).name: f["kind"] for f in summary["failures"]}
    assert kinds == {"b-badjson.json": "format", "c-crash.json": "internal"}
    assert "c-crash.json: INTERNAL ERROR" in res.output and "2/4 games valid" in res.output


# -- rules cache, game-id prefixes --------------------------------------------------------------------


def test_rules_cache_is_bounded() -> None:
    from brass_stats.rules_data import BIRMINGHAM, _with_overrides

    for cost in range(40):
        load_rules("birmingham", {"manufacturer.4.cost_money": cost})
    info = _with_overrides.cache_info()
    assert info.maxsize is not None and info.currsize <= info.maxsize < 40
    assert load_rules("birmingham") is BIRMINGHAM  # the edition's own data is never dropped


def test_game_id_prefix_is_literal_not_a_like_pattern(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    assert run("ingest", str(REAL), "--db", str(db), "--workers", "1", "--as-played").exit_code == 0
    for pattern in ("%", "_", "%%"):
        res = run("vp", pattern, "--db", str(db))
        assert res.exit_code == exitcodes.BAD_INPUT, res.output
        assert "no game with id" in res.output
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games").fetchone()[0]  # type: ignore[index]
    con.close()
    assert run("vp", gid[:6], "--db", str(db)).exit_code == exitcodes.OK


def _die_on_die(path: str, policy: Any = None) -> Any:  # REAL is gm7vza-4p: validated as played
    import os

    from brass_stats import validation as V

    if "die" in path:
        os._exit(9)  # what the kernel's out-of-memory killer does to a process
    return V.validate_file(path, policy)


def test_a_file_that_kills_its_worker_process_is_the_only_one_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from brass_stats import validation as V

    files = [write(tmp_path, REAL.read_text("utf-8"), f"{name}.json") for name in ("a", "die", "c")]
    monkeypatch.setattr(V, "_validate_path", _die_on_die)
    from brass_stats.engine.policy import AS_PLAYED

    results = V.validate_many(files, workers=2, policy=AS_PLAYED)
    assert [Path(v.file).name for v in results] == ["a.json", "die.json", "c.json"]
    assert [v.kind for v in results] == ["ok", "internal", "ok"]
    assert "process validating this file died" in (results[1].error or {})["message"]
