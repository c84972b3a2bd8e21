"""Readable action notation and ``brass-stats log`` (issue 12)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from brass_stats.cli import main
from brass_stats.engine.actions import Build
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.replay import replay
from brass_stats.replay.notation import card_name, move_list

REPLAYS = Path(__file__).parents[1] / "replays"
REAL_4P = REPLAYS / "real" / "gm7vza-4p.json"
LANCASHIRE = REPLAYS / "lancashire" / "game-5002-00002.json"


@pytest.fixture(scope="module")
def real() -> list:  # type: ignore[type-arg]
    return move_list(replay(GameLog.load(REAL_4P), AS_PLAYED))  # its server let a seat place 16 links


def test_a_build_reads_like_a_move_list(real: list) -> None:  # type: ignore[type-arg]
    # action 5 of the real game, checked by hand against the rulebook: Iron Works I costs £5 and one coal
    # (the market's cheapest at £1); its 4 iron go to the market at £2, £2, £1, £1; it flips and gives 3 income
    assert real[5].text == (
        "Player2 builds Iron Works I in Derby (card Derby; coal from the market £1; pays £6; "
        "sells 4 iron to the market for £6; flips it, +3 income)"
    )
    assert (real[5].era, real[5].era_round, real[5].player) == ("canal", 2, "Player2")


def test_every_action_type_names_the_player_and_what_happened(real: list) -> None:  # type: ignore[type-arg]
    log = GameLog.load(REAL_4P)
    assert len(real) == len(log.actions)
    for m, a in zip(real, log.actions, strict=True):
        assert m.text.startswith(log.players[a.player] + " ")
        assert m.type == a.TYPE
    kinds = {m.type: m.text for m in real}
    assert " takes a £30 loan (card " in kinds["loan"] and "\u22123 income levels" in kinds["loan"]
    assert " scouts (discards " in kinds["scout"]
    assert " develops " in kinds["develop"]
    assert " sells " in kinds["sell"] and " to " in kinds["sell"]


def test_resources_from_another_players_tile_name_the_owner_and_the_flip(real: list) -> None:  # type: ignore[type-arg]
    # action 68: a double rail link using Player1's coal in Stone, which empties and flips
    assert real[68].text.startswith("Player2 builds 2 rail links Derby–Burton-on-Trent and Derby–Nottingham")
    assert "coal from Stone (Player1's) and the market £4" in real[68].text
    assert "flips Player1's Coal Mine II in Stone, +7 income" in real[68].text


def test_end_of_round_and_era_follow_the_action(real: list) -> None:  # type: ignore[type-arg]
    ends = [m for m in real if "End of the Canal Era" in m.text]
    assert len(ends) == 1 and "End of round 8: income" in ends[0].text
    assert "tiles and every link removed" in ends[0].text
    assert "End of the Rail Era" in real[-1].text


def test_lancashire_sales_name_ports_and_the_distant_market() -> None:
    moves = move_list(replay(GameLog.load(LANCASHIRE)))
    assert any("to the Distant Cotton Market (market tile moves" in m.text for m in moves)
    assert any(" through the port in " in m.text for m in moves)
    assert any("\u22121 income level)" in m.text for m in moves)  # a £10 loan


def test_card_names() -> None:
    rules = GameLog.load(REAL_4P).rules()
    assert card_name(rules, "loc:stoke_on_trent") == "Stoke-on-Trent"
    assert card_name(rules, "ind:cotton_mill+manufacturer") == "Cotton Mill/Manufacturer"
    assert card_name(rules, "wild:industry") == "wild industry"


@pytest.fixture(scope="module")
def illegal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    good = GameLog.load(REAL_4P)
    rules = good.rules()
    i, b = next(
        (k, a)
        for k, a in enumerate(good.actions)
        if isinstance(a, Build) and any(a.industry not in s.industries for s in rules.locations[a.location].slots)
    )
    wrong = next(s.index for s in rules.locations[b.location].slots if b.industry not in s.industries)
    bad = replace(good, actions=[*good.actions[:i], replace(b, slot=wrong), *good.actions[i + 1 :]])
    path = tmp_path_factory.mktemp("bad") / "illegal.json"
    bad.save(path)
    return path


def test_an_illegal_action_ends_the_list_with_the_rule(illegal: Path) -> None:
    r = replay(GameLog.load(illegal))
    assert r.error is not None
    moves = move_list(r)
    assert len(moves) == len(r.steps) + 1
    last = moves[-1]
    assert last.illegal and last.index == r.error.index
    assert f"illegal [{r.error.rule}]" in last.text and " builds " in last.text


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_log_command_json_and_csv() -> None:
    code, out, _ = run("log", str(REAL_4P), "--format", "json")
    assert code == 0
    rows = json.loads(out)
    log = GameLog.load(REAL_4P)
    assert [r["#"] for r in rows] == list(range(1, len(log.actions) + 1))  # numbered from 1, as on screen
    assert [r["action_index"] for r in rows] == list(range(len(log.actions)))  # the data's 0-based index
    assert all(r["player"] == log.players[a.player] for r, a in zip(rows, log.actions, strict=True))
    assert rows[5]["move"].startswith("Player2 builds Iron Works I in Derby") and rows[5]["round"] == 2
    code, out, _ = run("log", str(REAL_4P), "--format", "csv")
    assert code == 0
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == len(rows) and table[5]["move"] == rows[5]["move"]


def test_log_command_table_numbers_the_lines() -> None:
    code, out, _ = run("log", str(LANCASHIRE))
    assert code == 0 and "greedy-0" in out and "Distant" in out


def test_log_command_table_counts_from_1_and_names_the_player_once() -> None:
    res = CliRunner().invoke(main, ["log", str(REAL_4P)], env={"COLUMNS": "200"})
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in res.stdout.splitlines() if line.startswith("│")]
    rows = [row for row in cells if row[0]]  # a long move goes on in lines of its own
    assert rows[0][0] == "1" and rows[-1][0] == str(len(GameLog.load(REAL_4P).actions))
    first = rows[0]  # Player2 takes a £30 loan: the name in its column, not again in the move
    assert first[3] == "Player2" and first[4].startswith("takes a £30 loan (card Leek")
    assert not any(row[4].startswith(row[3] + " ") for row in rows if row[3])


def test_log_command_on_an_illegal_game_exits_1(illegal: Path) -> None:
    code, out, err = run("log", str(illegal), "--format", "json")
    assert code == 1
    rows = json.loads(out)
    assert rows[-1]["illegal"] is True and "illegal action" in err


def test_log_command_on_a_missing_file_says_so_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("log", str(tmp_path / "nope.json"))
    assert code == 2 and err.startswith("error: ") and err.strip().count("\n") == 0


def test_log_command_finds_a_game_in_a_database_by_id_prefix(tmp_path: Path) -> None:
    import duckdb

    from brass_stats.storage import ingest

    db = tmp_path / "g.duckdb"
    ingest([str(REAL_4P)], db, workers=1, progress=False, policy=AS_PLAYED)  # 16 links for one seat (D1)
    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games").fetchone()[0]  # type: ignore[index]
    con.close()
    for name in (gid[:6], "GM7VZA", "gm7vza-4p.json"):  # id prefix, the server's room code, the file name
        code, out, _ = run("log", name, "--db", str(db), "--format", "json")
        assert code == 0 and len(json.loads(out)) == len(GameLog.load(REAL_4P).actions)
    code, _, err = run("log", "ffffffffff", "--db", str(db))
    assert code == 2 and "no game with id" in err
