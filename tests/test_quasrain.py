"""The Quasrain importer: identifier tables, the server's choice order, and clear errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from conftest import GOLDEN

from brass_stats.log.brassbirmingham.records import ConversionError, convert, convert_files, tables
from brass_stats.rules_data import BIRMINGHAM

REFERENCE = json.loads((GOLDEN / "reference-tables.json").read_text())


def test_every_link_index_maps_to_exactly_one_project_link() -> None:
    t = tables()
    assert sorted(int(i) for i in t["links"]) == [link["index"] for link in REFERENCE["LINKS"]]
    assert len(set(t["links"].values())) == len(REFERENCE["LINKS"]) == len(BIRMINGHAM.links)
    for link in REFERENCE["LINKS"]:
        ours = BIRMINGHAM.links[t["links"][str(link["index"])]]
        ends = {t["locations"][link["a"]], t["locations"][link["b"]]}
        assert set(ours.endpoints) == ends
        assert (ours.canal, ours.rail) == (link["canal"], link["rail"])


def test_every_slot_of_every_location_maps_to_exactly_one_project_slot() -> None:
    t = tables()
    seen: set[str] = set()
    for loc, spec in REFERENCE["LOCATIONS"].items():
        refs = t["slots"][loc]
        assert len(refs) == len(spec["slots"])
        for ref, slot in zip(refs, spec["slots"], strict=True):
            ours = BIRMINGHAM.slots[ref]
            assert set(ours.industries) == {t["industries"][i] for i in slot["industries"]}
            seen.add(ref)
    assert seen == set(BIRMINGHAM.slots)


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_every_card_id_of_each_deck_maps_to_one_project_card(players: str) -> None:
    t = tables()
    deck = REFERENCE["decks"][players]
    codes = sorted(t["cards"][c["id"]] for c in deck)
    assert codes == BIRMINGHAM.deck(int(players))


def test_merchant_faces_and_industries_cover_the_servers_names() -> None:
    t = tables()
    assert set(t["industries"].values()) == set(BIRMINGHAM.industries)
    assert set(t["merchant_faces"]) == {"cotton", "manufacturer", "pottery", "any", "blank"}
    assert {t["locations"][m] for m in REFERENCE["MERCHANTS"]} == set(BIRMINGHAM.merchants)


def _raw(name: str) -> tuple[dict, dict]:
    return (
        json.loads((GOLDEN / f"{name}.record.json").read_text()),
        json.loads((GOLDEN / f"{name}.setup.json").read_text()),
    )


def test_omitted_choices_are_written_out_by_the_servers_order() -> None:
    record, setup = _raw("gm7vza-4p")
    omitted = sum(
        1
        for e in record["actions"]
        if e["action"]["type"] == "sell"
        for s in e["action"]["sales"]
        if "beerSources" not in s
    )
    assert omitted > 0  # the bots' records leave beer sources out
    log = convert(record, setup, "gm7vza")
    sales = [s for a in log.actions if a.TYPE == "sell" for s in a.sales]  # type: ignore[attr-defined]
    assert all(s.merchant_space is not None for s in sales)
    assert sum(1 for s in sales if s.beer) > sum(
        1 for e in record["actions"] for s in e["action"].get("sales", []) if "beerSources" in s
    )
    builds = [a for a in log.actions if a.TYPE == "build"]
    assert all(b.slot is not None for b in builds)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "mutate,field",
    [
        (lambda r: r["actions"][3]["action"].__setitem__("cardId", "loc-atlantis-0"), "cardId"),
        (lambda r: r["actions"][1]["action"].__setitem__("links", [99]), "links"),
        (lambda r: r["actions"][3]["action"].__setitem__("location", "atlantis"), "location"),
        (lambda r: r["actions"][0]["action"].__setitem__("removals", ["steel"]), "removals"),
        (lambda r: r["actions"][2]["action"].__setitem__("type", "teleport"), "type"),
        (lambda r: r["actions"][5]["action"].pop("cardId"), "cardId"),
    ],
)
def test_unmappable_fields_give_one_error_naming_record_seq_and_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    record, setup = _raw("wq9gs6-2p")
    record = copy.deepcopy(record)
    mutate(record)
    with pytest.raises(ConversionError) as e:
        convert(record, setup, "wq9gs6.record.json")
    assert e.value.field == field and e.value.seq is not None
    assert "wq9gs6.record.json" in str(e.value) and f"seq {e.value.seq}" in str(e.value)


def test_out_of_turn_first_round_is_reported_against_the_seeds_turn_order() -> None:
    record, setup = _raw("wq9gs6-2p")
    record = copy.deepcopy(record)
    record["actions"][1]["player"] = 1  # out of turn
    with pytest.raises(ConversionError) as e:
        convert(record, setup, "x.json")
    assert e.value.seq == 1 and e.value.field == "player" and "turn order [1, 0]" in str(e.value)


def test_illegal_record_action_is_reported_with_its_seq_and_rule() -> None:
    record, setup = _raw("wq9gs6-2p")
    record = copy.deepcopy(record)
    i, entry = next(
        (i, e)
        for i, e in enumerate(record["actions"])
        if e["action"]["type"] == "build" and e["action"]["cardId"].startswith("loc-")
    )
    entry["action"]["location"] = "birmingham" if entry["action"]["location"] != "birmingham" else "coventry"
    with pytest.raises(ConversionError) as e:
        convert(record, setup, "x.json")
    assert e.value.seq == entry["seq"] == i and e.value.field == "action"
    assert "illegal action" in str(e.value) and "[build." in str(e.value)


def test_convert_cli_writes_nothing_on_error(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from brass_stats.cli import main

    bad = tmp_path / "bad.record.json"
    bad.write_text("{not json")
    out = tmp_path / "out.json"
    res = CliRunner().invoke(
        main, ["convert", "quasrain", str(bad), "--setup", str(GOLDEN / "wq9gs6-2p.setup.json"), "--out", str(out)]
    )
    assert res.exit_code == 2 and "not valid JSON" in res.output and "Traceback" not in res.output
    assert not out.exists()
    res = CliRunner().invoke(
        main,
        [
            "convert",
            "quasrain",
            str(GOLDEN / "wq9gs6-2p.record.json"),
            "--setup",
            str(GOLDEN / "wq9gs6-2p.setup.json"),
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0 and out.exists()


def test_python_api_converts_files() -> None:
    log = convert_files(GOLDEN / "gm7vza-4p.record.json", GOLDEN / "gm7vza-4p.setup.json")
    assert log.source and log.source["format"] == "quasrain" and len(log.players) == 4
