"""Games as they were played: the as-played policy, the link-tile limit (D1), the server's rail coal,
and the commands' --as-played option (docs/rules-decisions.md, "Games as played")."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import convert_golden
from helpers import (
    act,
    clear_mat_below,
    fresh,
    give,
    place_link,
    place_tile,
    rule_of,
    set_markets,
    set_money,
    to_rail_era,
)
from lancashire_helpers import fresh as lancashire_fresh
from lancashire_helpers import to_rail_era as lancashire_rail_era

from brass_stats.analysis.statistics.database import sample_games_dir
from brass_stats.cli import main
from brass_stats.engine import Build, Develop, Network, apply_action
from brass_stats.engine.policy import AS_PLAYED, AS_PLAYED_RULES, STRICT, AsPlayedPolicy, FirstOptionPolicy
from brass_stats.engine.state import GameState
from brass_stats.errors import LogFormatError
from brass_stats.log.brassbirmingham.departures import server_coal_end
from brass_stats.log.brassbirmingham.records import QuasrainPolicy
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay


def deviations_of(g: GameState, action: Network | Build | Develop, policy: AsPlayedPolicy | QuasrainPolicy = AS_PLAYED):
    """Apply under a tolerant policy; (the new state, the resolved action, [(rule, message)] recorded)."""
    g.effects = []
    new, resolved = apply_action(g, action, policy)
    found = [(e.detail["rule"], e.detail["message"]) for e in g.effects if e.kind == "deviation"]
    g.effects = None
    return new, resolved, found


def test_as_played_rules_are_the_source_priority_rules_and_the_link_limit() -> None:
    assert {"coal.closest_mine", "iron.works_first", "network.link_tiles", "build.cost"} == AS_PLAYED_RULES
    assert STRICT.tolerates == frozenset() and FirstOptionPolicy().tolerates == frozenset()
    doc = (Path(__file__).parents[1] / "docs" / "rules-decisions.md").read_text(encoding="utf-8")
    section = doc.split("## Games as played", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{rule}`" in section for rule in AS_PLAYED_RULES)


# -- D1: link tiles ------------------------------------------------------------------------------


def _out_of_links(g: GameState, seat: int = 0) -> GameState:
    give(g, seat, "loc:dudley", "loc:dudley")
    place_tile(g, "dudley:0", seat, "coal_mine", 2, resources=3)
    g.players[seat].link_tiles = 0
    return g


def test_network_link_tiles_a_fifteenth_link_is_refused() -> None:
    g = _out_of_links(to_rail_era(fresh(2)))
    assert rule_of(g, Network(0, "loc:dudley", ("dudley--birmingham",), ("dudley:0",))) == "network.link_tiles"
    g.players[0].link_tiles = 1  # the 14th is fine
    assert act(g, Network(0, "loc:dudley", ("dudley--birmingham",), ("dudley:0",))).players[0].link_tiles == 0


def test_network_link_tiles_a_double_rail_needs_two_tiles_left() -> None:
    g = _out_of_links(to_rail_era(fresh(2)))
    place_tile(g, "stafford:0", 0, "brewery", 2)
    g.players[0].link_tiles = 1
    links = ("dudley--birmingham", "walsall--birmingham")
    assert rule_of(g, Network(0, "loc:dudley", links, ("dudley:0", "dudley:0"), "stafford:0")) == "network.link_tiles"


def test_network_link_tiles_limit_holds_in_lancashire_too() -> None:
    g = lancashire_rail_era(lancashire_fresh(2))
    seat = g.current_player
    assert seat is not None
    rail = [lid for lid, link in g.rules.links.items() if link.allowed_in("rail")]
    first = rail[0]
    second = next(lid for lid in rail[1:] if set(g.rules.links[lid].connects) & set(g.rules.links[first].connects))
    place_link(g, first, seat)  # so the second link is adjacent to the player's network
    assert g.players[seat].link_tiles == 13
    g.players[seat].link_tiles = 0
    assert rule_of(g, Network(seat, g.players[seat].hand[0], (second,))) == "network.link_tiles"


def test_network_link_tiles_as_played_the_link_is_placed_and_the_departure_recorded() -> None:
    g = _out_of_links(to_rail_era(fresh(2)))
    new, _, found = deviations_of(g, Network(0, "loc:dudley", ("dudley--birmingham",), ("dudley:0",)))
    assert new.links["dudley--birmingham"] == 0 and new.players[0].link_tiles == -1
    assert [rule for rule, _ in found] == ["network.link_tiles"]
    assert "beyond its 14" in found[0][1]


def test_network_link_tiles_is_a_rules_option() -> None:
    """options.link_tiles: the number of link tiles per player (14 by default, in both editions)."""
    for edition in ("birmingham", "lancashire"):
        for options, allowed in (({"link_tiles": 20}, 20), ({}, 14)):
            r = Replay(GameLog.new(["Ann", "Bob"], seed=3, edition=edition, options=options))
            assert [p.link_tiles for p in r.state.players] == [allowed, allowed]
    g = Replay(GameLog.new(["Ann", "Bob"], seed=3, options={"link_tiles": 16})).state
    seat = g.current_player
    assert seat is not None
    _out_of_links(to_rail_era(g), seat=seat)
    g.players[seat].link_tiles = 2  # 14 on the board, 2 left of 16
    assert act(g, Network(seat, "loc:dudley", ("dudley--birmingham",), ("dudley:0",))).links
    for bad in (0, -1, "14", True, None):
        with pytest.raises(LogFormatError, match="link_tiles"):
            Replay(GameLog.new(["Ann", "Bob"], seed=3, options={"link_tiles": bad}))


# -- a tile price other than the printed one (options.played_costs) -------------------------------


def _manufacturer_iv(played: dict[str, int] | None) -> tuple[GameState, Build]:
    """Seat 0 about to build its Manufacturer IV in Birmingham (printed: £8 and 1 iron from the market)."""
    g = fresh(2)
    if played is not None:
        g.options = {"played_costs": played}
    clear_mat_below(g, 0, "manufacturer", 4)
    give(g, 0, "loc:birmingham")
    set_money(g, 0, 30)
    return g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, iron=("market",))


def test_build_cost_a_played_price_is_refused_strictly_and_charged_as_played() -> None:
    g, build = _manufacturer_iv(None)
    iron = g.rules.markets["iron"].buy_price(g.iron_market)
    assert act(g, build).players[0].money == 30 - 8 - iron  # the printed £8
    g, build = _manufacturer_iv({"manufacturer.4": 14})
    assert rule_of(g, build) == "build.cost"
    new, _, found = deviations_of(g, build)
    assert new.players[0].money == 30 - 14 - iron
    assert found == [
        (
            "build.cost",
            "manufacturer level 4 costs £8 as printed; the game as played charged £14 (options.played_costs)",
        )
    ]
    g, build = _manufacturer_iv({"manufacturer.5": 14})  # another tile's price changes nothing here
    assert deviations_of(g, build)[0].players[0].money == 30 - 8 - iron and deviations_of(g, build)[2] == []
    g, build = _manufacturer_iv({"manufacturer.4": 14})
    set_money(g, 0, 8 + iron)  # enough at the printed price, not at the played one
    assert rule_of(g, build, AS_PLAYED) == "money.afford"


def test_build_cost_played_costs_option_is_checked() -> None:
    ok = GameLog.new(["Ann", "Bob"], seed=3, options={"played_costs": {"manufacturer.4": 14}})
    assert Replay(GameLog.loads(ok.dumps())).state.options == {"played_costs": {"manufacturer.4": 14}}
    for bad in ({"manufacturer.9": 14}, {"manufacturer.4": 99}, {"manufacturer.4": -1}, {"manufacturer": 14}, {}, 14):
        with pytest.raises(LogFormatError, match="played_costs"):
            Replay(GameLog.new(["Ann", "Bob"], seed=3, options={"played_costs": bad}))
    for bad in ({"manufacturer.4": "14"}, {"mill.4": 14}, {}):
        with pytest.raises(LogFormatError, match="played_costs"):
            GameLog.loads(replace(ok, options={"played_costs": bad}).dumps())


# -- source priority ---------------------------------------------------------------------------


def _two_mines() -> GameState:
    """Birmingham connected to a mine in Dudley (1 link) and one in Wolverhampton (2 links)."""
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1, resources=2)
    place_tile(g, "wolverhampton:1", 1, "coal_mine", 2, resources=2)
    place_link(g, "dudley--birmingham", 1)
    place_link(g, "wolverhampton--dudley", 1)
    return g


def _manufacturer(coal: tuple[str, ...] | None) -> Build:
    return Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal)


def test_as_played_a_farther_coal_mine_is_accepted_and_recorded() -> None:
    g = _two_mines()
    assert rule_of(g, _manufacturer(("wolverhampton:1",))) == "coal.closest_mine"
    new, resolved, found = deviations_of(g, _manufacturer(("wolverhampton:1",)))
    assert new.tiles["wolverhampton:1"].resources == 1 and new.tiles["dudley:0"].resources == 2
    assert resolved.coal == ("wolverhampton:1",)
    assert found == [
        ("coal.closest_mine", "coal must come from the closest connected coal mine (dudley:0, 1 link(s) away), "
         "not wolverhampton:1")
    ]  # fmt: skip


def test_as_played_market_coal_while_a_mine_is_connected_is_accepted_if_a_merchant_is_connected() -> None:
    g = _two_mines()
    place_link(g, "birmingham--oxford", 1)
    set_markets(g, coal=10)
    new, _, found = deviations_of(g, _manufacturer(("market",)))
    assert new.coal_market == 9 and new.tiles["dudley:0"].resources == 2
    assert [rule for rule, _ in found] == ["coal.closest_mine"]
    del g.links["birmingham--oxford"]
    g.touch_board()
    assert rule_of(g, _manufacturer(("market",)), AS_PLAYED) == "coal.market"  # no merchant: still illegal


def test_as_played_an_unconnected_coal_mine_still_fails() -> None:
    g = _two_mines()
    place_tile(g, "coventry:1", 1, "coal_mine", 3, resources=2)
    assert rule_of(g, _manufacturer(("coventry:1",)), AS_PLAYED) == "coal.connected"


def test_as_played_market_iron_while_a_works_has_iron_is_accepted() -> None:
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:1", 1, "iron_works", 1, resources=4)
    develop = Develop(0, "loc:birmingham", ("cotton_mill",), ("market",))
    assert rule_of(g, develop) == "iron.works_first"
    new, _, found = deviations_of(g, develop)
    assert new.tiles["dudley:1"].resources == 4 and new.iron_market == g.iron_market - 1
    assert [rule for rule, _ in found] == ["iron.works_first"]


def test_as_played_other_broken_rules_still_fail() -> None:
    g = _two_mines()
    give(g, 0, "loc:coventry")
    assert rule_of(g, _manufacturer(("dudley:0",)), AS_PLAYED) == "turn.card_in_hand"
    g = _two_mines()
    assert rule_of(g, _manufacturer(("dudley:0", "dudley:0")), AS_PLAYED) == "coal.count"
    # a brewery that is not connected is no source at all (beer.source), not a priority
    g = to_rail_era(_out_of_links(to_rail_era(fresh(2))))
    g.players[0].link_tiles = 14
    place_tile(g, "stone:0", 1, "brewery", 1, resources=1)
    links = ("dudley--birmingham", "walsall--birmingham")
    assert rule_of(g, Network(0, "loc:dudley", links, ("dudley:0", "dudley:0"), "stone:0"), AS_PLAYED) == (
        "network.double_beer"
    )


# -- the server's own coal for a rail link --------------------------------------------------------


def test_server_rail_coal_is_measured_from_one_end_and_listed_as_a_departure() -> None:
    """Tamworth–Birmingham: the server measured from Birmingham, so the Tamworth mine (0 links by the
    rulebook) and the Dudley mine tie at 1 link, and Dudley comes first alphabetically."""
    assert server_coal_end("tamworth--birmingham") == "birmingham"
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_link(g, "dudley--birmingham", 0)
    place_tile(g, "dudley:0", 1, "coal_mine", 2, resources=2)
    place_tile(g, "tamworth:1", 1, "coal_mine", 2, resources=2)
    link = Network(0, "loc:leek", ("tamworth--birmingham",))
    assert act(g, link).tiles["tamworth:1"].resources == 1  # the rulebook's closest mine
    new, resolved, found = deviations_of(g, link, QuasrainPolicy())
    assert resolved.coal == ("dudley:0",)  # written out in the converted log
    assert new.tiles["dudley:0"].resources == 1 and new.tiles["tamworth:1"].resources == 2
    assert [rule for rule, _ in found] == ["coal.closest_mine"]


def test_server_rail_coal_agrees_with_the_rulebook_when_the_measured_end_is_closest() -> None:
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_link(g, "dudley--birmingham", 0)
    place_tile(g, "birmingham:0", 1, "coal_mine", 2, resources=2)  # hypothetical slot use: a mine in Birmingham
    place_tile(g, "tamworth:1", 1, "coal_mine", 2, resources=2)
    _, resolved, found = deviations_of(g, Network(0, "loc:leek", ("tamworth--birmingham",)), QuasrainPolicy())
    assert resolved.coal == ("birmingham:0",) and found == []


# -- commands --------------------------------------------------------------------------------------


def _game_with_a_departure(tmp_path: Path) -> tuple[Path, int]:
    """A sample game in which one action buys iron from the market while an iron works has some
    (iron.works_first), still finishing when replayed as played; (its file, that action's index)."""
    log = GameLog.load(sample_games_dir() / "generated" / "game-2002-00000.json")
    base = Replay(log).run()
    for i, step in enumerate(base.steps):
        a = step.action
        if isinstance(a, Build | Develop) and a.iron and a.iron[0] != "market":
            altered = replace(a, iron=("market", *a.iron[1:]))
            changed = replace(log, actions=[*log.actions[:i], altered, *log.actions[i + 1 :]], result=None)
            r = Replay(changed, AS_PLAYED).run()
            if r.error is None and r.finished:
                path = tmp_path / "departure.json"
                changed.save(path)
                return path, i
    raise AssertionError("no sample action can be altered this way")


def test_validate_names_the_departure_and_as_played_accepts_it(tmp_path: Path) -> None:
    path, i = _game_with_a_departure(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["validate", str(path)])
    assert res.exit_code == 1
    assert f"ILLEGAL action {i + 1} (" in res.output and "[iron.works_first]" in res.output  # from 1 on screen
    assert "only if there are no unflipped Iron Works" in res.output  # the rulebook's words
    res = runner.invoke(main, ["validate", "--as-played", str(path)])
    assert res.exit_code == 0, res.output
    assert f"departure at action {i + 1} [iron.works_first]" in res.output
    res = runner.invoke(main, ["validate", "--as-played", "--json", str(path)])
    assert json.loads(res.output)["deviations"][0]["action_index"] == i


def test_ingest_as_played_stores_the_deviations(tmp_path: Path) -> None:
    path, i = _game_with_a_departure(tmp_path)
    runner = CliRunner()
    strict = tmp_path / "strict.duckdb"
    res = runner.invoke(main, ["ingest", str(path), "--db", str(strict), "--workers", "1"])
    assert res.exit_code == 1 and "iron.works_first" in res.output
    assert f"iron.works_first) at action {i + 1}:" in res.output  # counted from 1 on screen
    db = tmp_path / "played.duckdb"
    res = runner.invoke(main, ["ingest", str(path), "--db", str(db), "--workers", "1", "--as-played"])
    assert res.exit_code == 0, res.output
    assert "stored as played" in res.output
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT action_index, rule FROM deviations ORDER BY action_index").fetchall()
    n = con.execute("SELECT n_deviations FROM games").fetchone()
    effects = con.execute("SELECT count(*) FROM effects WHERE kind = 'deviation'").fetchone()
    con.close()
    assert rows[0] == (i, "iron.works_first") and {r for _, r in rows} <= AS_PLAYED_RULES
    assert n == (len(rows),) and effects == (len(rows),)
    res = runner.invoke(main, ["replay", str(path), "--db", str(tmp_path / "r.duckdb"), "--as-played"])
    assert res.exit_code == 0 and "1 stored" in res.output


# -- the log format: source.departures ----------------------------------------------------------


def test_source_departures_are_read_checked_and_match_the_schema() -> None:
    from jsonschema import Draft202012Validator

    from brass_stats.log.schema import schema

    log = convert_golden("gm7vza-4p")
    data = json.loads(log.dumps())
    assert Draft202012Validator(schema()).is_valid(data)
    again = GameLog.from_json(data)
    assert [(d["action_index"], d["rule"]) for d in again.departures] == [(117, "network.link_tiles")] * 2
    for bad, where in (
        ("not a list", "source.departures"),
        ([{"action_index": 117, "rule": "network.link_tiles"}], "source.departures[0]"),
        ([{"action_index": 999, "rule": "network.link_tiles", "message": "x"}], "source.departures[0]"),
    ):
        broken = dict(data, source=dict(data["source"], departures=bad))
        assert not Draft202012Validator(schema()).is_valid(broken) or where.endswith("[0]")
        with pytest.raises(LogFormatError) as info:
            GameLog.from_json(broken)
        assert info.value.where == where
    with_option = dict(data, options=dict(data["options"], link_tiles=16))
    assert Draft202012Validator(schema()).is_valid(with_option)
    assert not Draft202012Validator(schema()).is_valid(dict(data, options={"link_tiles": 0}))
