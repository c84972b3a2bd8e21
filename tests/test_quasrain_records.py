"""Hand-made server records (tests/golden/quasrain/handmade, written by tests/quasrain_writer.py).

Each record holds only what the server exports (seed, playerCount, seats,
actions); the tests convert it from the record alone and replay it under the
strict rules. Together they cover every action type, every newer record field,
a Manufacturer IV build, shortfalls, and records that stop mid-game.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import GOLDEN
from quasrain_writer import AS_PLAYED_PLANS, PLANS, features, write

from brass_stats.engine.actions import Build
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.brassbirmingham.deal import canal_era_actions
from brass_stats.log.brassbirmingham.records import convert, convert_files
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, replay
from brass_stats.rules_data import BIRMINGHAM

HANDMADE = GOLDEN / "handmade"
RECORDS = sorted(HANDMADE.glob("*.record.json"))
AS_PLAYED_DIR = HANDMADE / "as-played"  # records of a server that departed from the rulebook
FULL_GAME = {2: 78, 3: 105, 4: 124}  # actions in a complete game (docs/importing.md 2.6)


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_the_handmade_records_are_the_writers_plans() -> None:
    assert sorted(p.name for p in RECORDS) == sorted(f"{p.name}.record.json" for p in PLANS)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_handmade_record_converts_from_the_record_alone_and_replays_strictly(path: Path) -> None:
    record = _load(path)
    log = convert_files(path)
    again = GameLog.loads(log.dumps())  # every choice is stated: it replays with no policy
    r = replay(again)
    assert r.error is None
    shortfalls = sum(1 for a in log.actions if a.TYPE == "shortfall")
    assert len(log.actions) - shortfalls == len(record["actions"])
    complete = len(record["actions"]) == FULL_GAME[record["playerCount"]]
    assert r.finished == complete
    n, played = record["playerCount"], len(record["actions"])
    # the rail deal is unknown before the Canal Era ends, the rail turn order until every seat acted in it
    assert log.source is not None and ("unknown" in log.source) == (played < canal_era_actions(n) + 2 * n)


def test_handmade_records_cover_every_action_type_and_newer_field() -> None:
    seen: set[str] = set()
    for path in RECORDS:
        seen |= features(_load(path), convert_files(path))
    assert {"build", "network", "develop", "sell", "loan", "scout", "pass"} <= seen
    assert {
        "double rail with beerSource",
        "two-tile develop",
        "two-tile develop with ironSources",
        "ironSources count > 1",
        "merchant beer tileIndex",
        "bonusDevelop",
        "slotIndex",
        "shortfall",
        "Manufacturer IV",
    } <= seen


def test_a_record_written_again_is_the_committed_one_and_converts_to_the_writers_game() -> None:
    plan = next(p for p in PLANS if p.name == "hand3s")
    record, played = write(plan)
    assert record == _load(HANDMADE / "hand3s.record.json")
    assert convert(record, None, "hand3s").actions == played.actions


@pytest.mark.parametrize("name", ["hand2m", "hand3m"])
def test_manufacturer_iv_costs_its_printed_8_pounds(name: str) -> None:
    """The server's audited scores use the printed £8 (docs/importing.md, "Manufacturer IV"); £14 changes the game."""
    assert BIRMINGHAM.level("manufacturer", 4).cost_money == 8
    log = convert_files(HANDMADE / f"{name}.record.json")
    assert "tile_overrides" not in log.options
    r = Replay(log).run()
    assert r.error is None
    i = next(
        i
        for i, s in enumerate(r.steps)
        if isinstance(s.action, Build)
        and s.action.industry == "manufacturer"
        and r.state_at(i).tiles[f"{s.action.location}:{s.action.slot}"].level == 4
    )
    seat = r.steps[i].action.player
    before, after = r.state_at(i - 1), r.state_at(i)
    market_costs = sum(e.detail.get("price", 0) for e in r.steps[i].effects if e.kind in ("coal_used", "iron_used"))
    assert before.players[seat].money - after.players[seat].money == 8 + market_costs
    at_14 = Replay(replace(log, options={"tile_overrides": {"manufacturer.4.cost_money": 14}})).run()
    assert at_14.error is not None or at_14.state_at(i).players[seat].money == after.players[seat].money - 6


def test_record_stopping_in_the_canal_era_lists_the_unknown_rail_deal() -> None:
    log = convert_files(HANDMADE / "hand3s.record.json")
    assert "rail_era" not in log.chance
    assert log.source is not None and "Rail Era deal" in log.source["unknown"][0]


def test_record_stopping_at_the_canal_era_end_has_the_rail_deal_but_not_the_rail_turn_order() -> None:
    log = convert_files(HANDMADE / "hand2c.record.json")
    assert "rail_era" in log.chance
    assert log.source is not None and log.source["unknown"] == [
        "the Rail Era turn order: the record stops before every seat acted in the Rail Era"
    ]
    assert replay(log).state.era == "rail"


# -- a server version that charged £14 for Manufacturer IV ---------------------------------------


def test_a_record_of_the_server_that_charged_14_for_manufacturer_iv_converts_as_played() -> None:
    """The record's later turn order follows the £14 (at £8 it fails at seq 26, "it is player 1's
    turn"): the converter finds the price, states it in options.played_costs and lists the build as a
    build.cost departure; as played, the log replays to the scores of the game the record holds."""
    plan = next(p for p in AS_PLAYED_PLANS if p.name == "hand2m14")
    record, played = write(plan)
    assert record == _load(AS_PLAYED_DIR / "hand2m14.record.json")
    log = convert_files(AS_PLAYED_DIR / "hand2m14.record.json")
    assert log.options == {"played_costs": {"manufacturer.4": 14}}
    assert log.actions == played.actions
    again = GameLog.loads(log.dumps())
    as_played = replay(again, AS_PLAYED)
    assert as_played.error is None and as_played.finished
    manufacturer_iv = {"industry": "manufacturer", "level": 4}
    (i,) = [
        s.index
        for s in as_played.steps
        for e in s.effects
        if e.kind == "build" and manufacturer_iv.items() <= e.detail.items()
    ]
    message = "manufacturer level 4 costs £8 as printed; the game as played charged £14 (options.played_costs)"
    assert log.departures == as_played.deviations == [{"action_index": i, "rule": "build.cost", "message": message}]
    assert [s.vp for s in as_played.standings()] == [s.vp for s in replay(played, AS_PLAYED).standings()]
    strict = replay(again)
    assert strict.error is not None and (strict.error.index, strict.error.rule) == (i, "build.cost")
    at_8 = replay(replace(again, options={}))
    assert at_8.error is not None and at_8.error.rule == "turn.order"  # the record needs the £14


@pytest.mark.parametrize("name", ["hand2m", "hand3m"])
def test_a_record_of_the_printed_price_converts_at_8_pounds_with_no_departure(name: str) -> None:
    log = convert_files(HANDMADE / f"{name}.record.json")
    assert log.options == {} and log.departures == []
