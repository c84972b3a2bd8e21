"""Every field the server writes (docs/importing.md section 3, "Newer records state more"), unknown
fields refused, and the server's iron order for a two-tile Develop."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import GOLDEN
from helpers import clear_mat_below, fresh, give, place_tile, set_money

from brass_stats.engine import apply_action
from brass_stats.engine.actions import Build, Develop, Network, Sell
from brass_stats.log.brassbirmingham.records import ConversionError, QuasrainPolicy, convert

HAND4X = GOLDEN / "handmade" / "hand4x.record.json"


def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(HAND4X.read_text())
    return data


def _first(record: dict[str, Any], pred: Any) -> int:
    return next(i for i, e in enumerate(record["actions"]) if pred(e["action"]))


def _is_count_develop(a: dict[str, Any]) -> bool:
    return a["type"] == "develop" and any(s.get("count", 1) > 1 for s in a.get("ironSources", []))


def test_iron_sources_count_gives_that_many_cubes_from_one_works() -> None:
    record = _record()
    i = _first(record, _is_count_develop)
    src = record["actions"][i]["action"]["ironSources"][0]
    log = convert(record, None, "hand4x")
    action = [a for a in log.actions if a.TYPE != "shortfall"][i]
    assert isinstance(action, Develop)
    ref = f"{src['location']}:{src['slotIndex']}"
    assert action.iron == (ref,) * src["count"]


@pytest.mark.parametrize("count", [0, -1, "2", 2.0, True, 99])
def test_iron_sources_count_must_be_a_whole_number_of_cubes(count: Any) -> None:
    record = _record()
    i = _first(record, _is_count_develop)
    record["actions"][i]["action"]["ironSources"][0]["count"] = count
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == i and e.value.field == "ironSources.count"


def test_iron_sources_count_that_disagrees_with_the_need_is_an_illegal_action() -> None:
    record = _record()
    i = _first(record, _is_count_develop)
    record["actions"][i]["action"]["ironSources"][0]["count"] = 1  # two tiles need two cubes
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == i and e.value.field == "action" and e.value.rule is not None


def test_merchant_beer_tile_index_names_the_merchant_space() -> None:
    record = _record()
    i = _first(record, lambda a: any("tileIndex" in b for s in a.get("sales", []) for b in s.get("beerSources", [])))
    sale = record["actions"][i]["action"]["sales"][0]
    log = convert(record, None, "hand4x")
    sell = [a for a in log.actions if a.TYPE != "shortfall"][i]
    assert isinstance(sell, Sell)
    assert sell.sales[0].merchant_space == sale["beerSources"][0]["tileIndex"]
    assert sell.sales[0].beer is not None and "merchant" in sell.sales[0].beer


def test_merchant_beer_tile_index_of_a_space_that_does_not_buy_is_illegal() -> None:
    record = _record()
    i = _first(record, lambda a: any("tileIndex" in b for s in a.get("sales", []) for b in s.get("beerSources", [])))
    beer = record["actions"][i]["action"]["sales"][0]["beerSources"][0]
    beer["tileIndex"] = 1 - beer["tileIndex"]
    merchant = record["actions"][i]["action"]["sales"][0]["merchant"]
    try:
        convert(record, None, "r.json")
    except ConversionError as e:  # the other space at that merchant does not buy this good, or has no barrel
        assert e.seq == i and e.rule is not None and e.rule.startswith("sell.")
    else:  # both spaces buy it and hold a barrel: the other barrel was drunk, which changes nothing illegal
        assert merchant in ("gloucester", "oxford", "warrington", "nottingham")
    beer["tileIndex"] = 5
    with pytest.raises(ConversionError) as e2:
        convert(record, None, "r.json")
    assert e2.value.field == "sales.beerSources.tileIndex"


def test_double_rail_beer_source_is_read() -> None:
    record = _record()
    i = _first(record, lambda a: a["type"] == "network" and "beerSource" in a)
    src = record["actions"][i]["action"]["beerSource"]
    log = convert(record, None, "hand4x")
    net = [a for a in log.actions if a.TYPE != "shortfall"][i]
    assert isinstance(net, Network) and net.beer == f"{src['location']}:{src['slotIndex']}"
    record["actions"][i]["action"]["beerSource"] = {"location": "cannock", "slotIndex": 1}
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == i


@pytest.mark.parametrize(
    "where,field",
    [
        (lambda e: e, "note"),
        (lambda e: e["action"], "note"),
        (lambda e: e["action"]["sales"][0], "sales.note"),
        (lambda e: e["action"]["sales"][0]["beerSources"][0], "sales.beerSources.note"),
    ],
)
def test_unknown_fields_fail_with_record_seq_and_field(where: Any, field: str) -> None:
    record = _record()
    i = _first(record, lambda a: a["type"] == "sell" and a["sales"][0].get("beerSources"))
    where(record["actions"][i])["note"] = "newer server"
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.record.json")
    assert e.value.seq == i and e.value.field == field
    assert str(e.value).startswith(f"r.record.json: seq {i}, field '{field}': unknown field")


def test_unknown_field_in_iron_sources_fails() -> None:
    record = _record()
    i = _first(record, _is_count_develop)
    record["actions"][i]["action"]["ironSources"][0]["grade"] = "pig"
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == i and e.value.field == "ironSources.grade"


def test_two_tile_develop_takes_one_cube_per_tile_from_the_first_works_holding_iron_then() -> None:
    """README "Choices a record leaves out": works A (first by name) holds 1 cube, B holds 3:
    the server takes 1 from A (A flips, its owner gains income), then 1 from B."""
    state = fresh(2)
    give(state, 0, "loc:dudley")
    place_tile(state, "coalbrookdale:0", 1, "iron_works", 1, resources=1)  # A: "coalbrookdale" < "dudley"
    place_tile(state, "dudley:1", 1, "iron_works", 2, resources=3)  # B
    income_before = state.players[1].income_space
    after, done = apply_action(state, Develop(0, "loc:dudley", ("coal_mine", "coal_mine")), QuasrainPolicy())
    assert isinstance(done, Develop) and done.iron == ("coalbrookdale:0", "dudley:1")
    assert after.tiles["coalbrookdale:0"].flipped and after.tiles["dudley:1"].resources == 2
    assert after.players[1].income_space > income_before


def test_build_iron_still_comes_from_the_first_works_holding_the_whole_need() -> None:
    """The contrast: for a Build the server takes every cube from the first works holding them all."""
    state = fresh(2)
    give(state, 0, "loc:birmingham")
    set_money(state, 0, 40)
    clear_mat_below(state, 0, "manufacturer", 8)  # Manufacturer VIII needs 2 iron
    place_tile(state, "coalbrookdale:0", 1, "iron_works", 1, resources=1)
    place_tile(state, "dudley:1", 1, "iron_works", 2, resources=3)
    build = Build(0, "loc:birmingham", "manufacturer", "birmingham")
    _, done = apply_action(state, build, QuasrainPolicy())
    assert isinstance(done, Build) and done.iron == ("dudley:1", "dudley:1")


def test_bonus_develop_without_a_gloucester_barrel_is_refused_not_dropped() -> None:
    record = _record()
    i = _first(record, lambda a: a["type"] == "sell" and all(s["merchant"] != "gloucester" for s in a["sales"]))
    record["actions"][i]["action"]["bonusDevelop"] = "coal"
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == i and e.value.field == "bonusDevelop"
