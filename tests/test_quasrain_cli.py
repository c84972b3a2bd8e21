"""``brass-stats convert quasrain``: one record, or a directory of them, from the record alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import GOLDEN

from brass_stats.cli import main
from brass_stats.log.format import GameLog
from brass_stats.replay import replay


def test_convert_needs_only_the_record(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    res = CliRunner().invoke(main, ["convert", "quasrain", str(GOLDEN / "wq9gs6-2p.record.json"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    r = replay(GameLog.load(out))
    assert r.error is None and [s.vp for s in r.standings()] == [215, 180]


def test_convert_with_a_disagreeing_setup_names_the_field_and_writes_nothing(tmp_path: Path) -> None:
    setup = json.loads((GOLDEN / "wq9gs6-2p.setup.json").read_text())
    setup["initialSetup"]["deckTopFirst"][5] = "loc-birmingham-2"
    bad = tmp_path / "bad.setup.json"
    bad.write_text(json.dumps(setup))
    out = tmp_path / "game.json"
    args = ["convert", "quasrain", str(GOLDEN / "wq9gs6-2p.record.json"), "--setup", str(bad), "--out", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "setup.initialSetup.deckTopFirst[5]" in res.output and "bad.setup.json" in res.output
    assert not out.exists()


def test_convert_a_directory_one_log_per_record_and_a_summary_by_error(tmp_path: Path) -> None:
    src = tmp_path / "records"
    src.mkdir()
    for name in ("wq9gs6-2p", "gm7vza-4p"):
        shutil.copy(GOLDEN / f"{name}.record.json", src / f"{name}.record.json")
    shutil.copy(GOLDEN / "wq9gs6-2p.setup.json", src / "wq9gs6-2p.setup.json")  # checked when beside its record
    record = json.loads((GOLDEN / "wq9gs6-2p.record.json").read_text())
    record["seed"] = "abc"
    (src / "a-bad-seed.record.json").write_text(json.dumps(record))
    record["seed"] = 7
    (src / "b-wrong-seed.record.json").write_text(json.dumps(record))
    (src / "c-not-json.record.json").write_text("{")
    out = tmp_path / "logs"
    res = CliRunner().invoke(main, ["convert", "quasrain", str(src), "--out", str(out)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert sorted(p.name for p in out.iterdir()) == ["gm7vza-4p.json", "wq9gs6-2p.json"]
    assert "converted 2/5 records; 3 failed" in res.output
    assert "field seed" in res.output and "field player" in res.output
    checked = GameLog.load(out / "wq9gs6-2p.json")
    assert checked.result is not None and checked.source and checked.source["setup_checked"] == "wq9gs6-2p.setup.json"
    assert GameLog.load(out / "gm7vza-4p.json").result is None


def test_setup_option_is_refused_for_a_directory(tmp_path: Path) -> None:
    args = ["convert", "quasrain", str(GOLDEN), "--setup", str(GOLDEN / "wq9gs6-2p.setup.json"), "--out", str(tmp_path)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and "beside" in res.output


@pytest.mark.parametrize(
    "text,why",
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"seed": ' + "9" * 5000 + "}", "not accepted"),
        ('{"seed": NaN, "actions": []}', "NaN"),
        ('{"seed": 1, "seed": 2, "actions": []}', "duplicate key"),
        ('{"seats": [{"nickname": "\\ud800"}], "actions": []}', "surrogate"),
        ("\xff\xfe{}", "not UTF-8"),
    ],
)
def test_unreadable_records_give_one_clear_line(tmp_path: Path, text: str, why: str) -> None:
    bad = tmp_path / "bad.record.json"
    bad.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode("utf-8"))
    res = CliRunner().invoke(main, ["convert", "quasrain", str(bad), "--out", str(tmp_path / "o.json")])
    assert res.exit_code == 2 and "Traceback" not in res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(bad) in lines[0] and why in lines[0], res.output
