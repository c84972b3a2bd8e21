"""The two real games from another server replay through the engine to their published scores.

Expected numbers are the results the server published (docs/importing.md, and the setup files'
rail-era checkpoint), not outputs of this engine.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import GOLDEN, convert_golden

from brass_stats.engine.actions import Build, Network, Sale, Sell
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, replay
from brass_stats.validation import validate_file

PUBLISHED = {
    # game: (canal-era end VP by seat, final VP by seat)
    "wq9gs6-2p": ([41, 48], [215, 180]),
    "gm7vza-4p": ([37, 45, 39, 47], [152, 141, 129, 130]),
}
# money and income level at the start of the rail era (setup file's railEraStart)
RAIL_START = {
    "wq9gs6-2p": ([69, 56], [7, 4]),
    "gm7vza-4p": ([27, 18, 39, 50], [10, 12, 10, 10]),
}
# final money and income level reported by the server's replay
FINAL = {
    "wq9gs6-2p": ([1, 7], [21, 16]),
    "gm7vza-4p": ([8, 22, 10, 80], [22, 16, 4, 23]),
}


# the rules each game broke as its server played it (D1: gm7vza-4p's seat 2 placed 16 rail links)
DEPARTURES = {
    "wq9gs6-2p": [],
    "gm7vza-4p": [(117, "network.link_tiles"), (117, "network.link_tiles")],
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_golden_game_replays_to_published_scores(name: str) -> None:
    """As played (the departures the import lists are accepted), the exact published results."""
    log = convert_golden(name)
    r = replay(log, AS_PLAYED)
    assert r.error is None
    assert [(d["action_index"], d["rule"]) for d in r.deviations] == DEPARTURES[name]
    assert [(d["action_index"], d["rule"]) for d in (log.source or {}).get("departures", [])] == DEPARTURES[name]
    assert r.finished
    canal, final = PUBLISHED[name]
    assert [s.vp for s in r.standings()] == final
    start = r.checkpoints["rail_era_start"]
    assert [p.vp for p in start.players] == canal
    money, income = RAIL_START[name]
    assert [p.money for p in start.players] == money
    assert [start.income_level(p.seat) for p in start.players] == income
    money, income = FINAL[name]
    assert [s.money for s in r.standings()] == money
    assert [s.income_level for s in r.standings()] == income


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_golden_game_action_count_matches_record(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.record.json").read_text())
    log = convert_golden(name)
    shortfalls = sum(1 for a in log.actions if a.TYPE == "shortfall")
    assert len(log.actions) - shortfalls == len(record["actions"])


def test_converted_game_replays_strictly_from_its_own_json(golden_log: GameLog) -> None:
    """The converted log states every choice: after a JSON round trip it replays under the strict policy
    up to the first rule its server broke (named, with the rulebook's words), and as played to its result."""
    again = GameLog.loads(golden_log.dumps())
    r = replay(again)
    listed = (again.source or {}).get("departures", [])
    if listed:
        assert r.error is not None and r.error.index == listed[0]["action_index"]
        assert r.error.rule == listed[0]["rule"] == "network.link_tiles"
        assert "14 per colour" in r.error.rule_text
        r = replay(again, AS_PLAYED)
        assert r.deviations == listed
    assert r.error is None and r.finished
    assert r.check_result() == []


def test_strict_validation_of_gm7vza_names_the_link_limit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "gm7vza-4p.json"
    convert_golden("gm7vza-4p").save(path)
    v = validate_file(path)
    assert (v.exit_status, v.kind, v.error and v.error["rule"], v.error and v.error["index"]) == (
        1,
        "illegal",
        "network.link_tiles",
        117,
    )
    assert v.error is not None and "14 per colour" in v.error["rule_text"]
    played = validate_file(path, AS_PLAYED)
    assert played.exit_status == 0 and [d["rule"] for d in played.deviations] == ["network.link_tiles"] * 2


def test_declared_result_mismatch_is_reported(golden_log: GameLog) -> None:
    wrong = dict(golden_log.result or {})
    wrong["final"] = [dict(row, vp=row["vp"] + 1) for row in wrong["final"]]
    bad = replace(golden_log, result=wrong)
    problems = Replay(bad, AS_PLAYED).run().check_result()
    assert len(problems) == len(wrong["final"])
    assert "declared" in problems[0] and "replayed" in problems[0]


def _first(log: GameLog, kind: type | tuple[type, ...], pred) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, a in enumerate(log.actions) if isinstance(a, kind) and pred(a))


def test_altering_a_beer_choice_is_illegal_or_changes_state() -> None:
    """The explicit choices are really used: change one beer source in a sale and replay."""
    log = convert_golden("wq9gs6-2p")
    i = _first(log, Sell, lambda a: any(s.beer and s.beer[0] != "merchant" for s in a.sales))
    sell = log.actions[i]
    assert isinstance(sell, Sell)
    k = next(j for j, s in enumerate(sell.sales) if s.beer and s.beer[0] != "merchant")
    base = Replay(log).run()
    before = base.state_at(i - 1)
    mine = sell.sales[k].beer
    assert mine is not None
    others = [
        ref
        for ref, t in before.tiles.items()
        if t.industry == "brewery" and t.resources > 0 and not t.flipped and ref != mine[0]
    ]
    assert others, "the golden game offers another brewery at this sale"
    altered_sale: Sale = replace(sell.sales[k], beer=(others[0], *mine[1:]))
    altered = replace(sell, sales=tuple(altered_sale if j == k else s for j, s in enumerate(sell.sales)))
    new_log = replace(log, actions=[*log.actions[:i], altered, *log.actions[i + 1 :]], result=None)
    r = Replay(new_log).run()
    if r.error is None:
        after_base, after_new = base.state_at(i), r.state_at(i)
        assert after_base.tiles[mine[0]].resources != after_new.tiles[mine[0]].resources
    else:
        assert r.error.index == i or r.error.index > i


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_altering_a_coal_choice_is_rejected(name: str) -> None:
    """Coal must come from the closest mine: pointing a build or link at the market when a mine is connected fails."""
    log = convert_golden(name)
    i = _first(log, (Build, Network), lambda a: bool(a.coal) and a.coal[0] != "market")
    action = log.actions[i]
    assert isinstance(action, Build | Network) and action.coal
    altered = replace(action, coal=("market", *action.coal[1:]))
    r = Replay(replace(log, actions=[*log.actions[:i], altered, *log.actions[i + 1 :]])).run()
    assert r.error is not None and r.error.index == i
    assert r.error.rule == "coal.closest_mine"


def test_dropping_a_double_rail_beer_choice_when_ambiguous_is_reported() -> None:
    log = convert_golden("gm7vza-4p")
    i = _first(log, Network, lambda a: a.beer is not None)
    net = log.actions[i]
    assert isinstance(net, Network)
    altered = replace(log, actions=[*log.actions[:i], replace(net, beer=None), *log.actions[i + 1 :]])
    r = Replay(altered, AS_PLAYED).run()
    # either the beer was the only option (then the replay is unchanged) or the omission is reported
    if r.error is not None:
        assert r.error.rule == "log.choice_stated" and r.error.index == i
    else:
        assert [s.vp for s in r.standings()] == PUBLISHED["gm7vza-4p"][1]
