"""docs/log-format.md section 5, "Shape and rules": the reader refuses a file's shape, the replay its counts.

A count or a choice that only the rules forbid (three links, two discards for a scout, a network's
beer from a merchant) reads, and ``brass-stats validate`` reports it as an illegal action (exit
status 1) with the action's index and the rule it breaks; only the file's shape, and the bounds that
protect the reader, are format errors (exit status 2).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from brass_stats import exitcodes
from brass_stats.cli import main
from brass_stats.log.schema import schema
from brass_stats.rulebook import RULEBOOKS

REPO = Path(__file__).parents[1]
DOC = (REPO / "docs" / "log-format.md").read_text("utf-8")
BIRMINGHAM = REPO / "replays" / "generated" / "game-2002-00000.json"  # rail networks with beer, develops, sells
WITH_SCOUT = REPO / "replays" / "generated" / "game-2002-00001.json"
LANCASHIRE = REPO / "replays" / "lancashire" / "game-5002-00000.json"
LIST_MAX = 100

Change = Callable[[dict[str, Any]], object]


def first(game: Path, test: Change) -> int:
    actions = json.loads(game.read_text("utf-8"))["actions"]
    return next(i for i, a in enumerate(actions) if test(a))


def validate(tmp_path: Path, game: Path, index: int, change: Change) -> tuple[int, dict[str, Any]]:
    """``brass-stats validate --format json`` of ``game`` with ``change`` made to its action ``index``."""
    data = json.loads(game.read_text("utf-8"))
    action = copy.deepcopy(data["actions"][index])
    change(action)
    data["actions"][index] = action
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert "Traceback" not in res.output
    return res.exit_code, json.loads(res.output)


def assert_breaks(tmp_path: Path, game: Path, index: int, change: Change, rule: str) -> dict[str, Any]:
    """The changed log reads; the replay stops at ``index`` with ``rule``: exit 1, not 2."""
    code, row = validate(tmp_path, game, index, change)
    assert code == exitcodes.FAILED, row
    assert row["kind"] == "illegal" and row["error"]["index"] == index and row["error"]["rule"] == rule, row
    assert row["error"]["rule_text"]  # the rulebook's words
    return row


def rail_network(a: dict[str, Any]) -> bool:
    return a["type"] == "network" and "beer" in a


def kind(name: str) -> Change:
    return lambda a: a["type"] == name


# -- each case of the spec's table: exit 1, the action's index and the rule ----------------------------


@pytest.mark.parametrize("discards", [2, 4, 1])
def test_scout_cards_a_scout_with_other_than_three_discards_reads_and_breaks_the_rule(
    tmp_path: Path, discards: int
) -> None:
    i = first(WITH_SCOUT, kind("scout"))

    def change(a: dict[str, Any]) -> None:
        a["discards"] = (a["discards"] + ["loc:dudley"])[:discards]

    row = assert_breaks(tmp_path, WITH_SCOUT, i, change, "scout.cards")
    assert row["error"]["message"] == f"Scout discards 3 cards, not {discards}"


def test_turn_card_in_hand_a_scout_that_discards_no_card_reads_and_breaks_the_rule(tmp_path: Path) -> None:
    i = first(WITH_SCOUT, kind("scout"))
    assert_breaks(tmp_path, WITH_SCOUT, i, lambda a: a.update(discards=[]), "turn.card_in_hand")


def test_scout_cards_the_text_output_names_the_action_and_the_rule(tmp_path: Path) -> None:
    i = first(WITH_SCOUT, kind("scout"))
    data = json.loads(WITH_SCOUT.read_text("utf-8"))
    data["actions"][i]["discards"] = data["actions"][i]["discards"][:2]
    path = tmp_path / "scout.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == exitcodes.FAILED
    assert f"ILLEGAL action {i + 1} (" in res.output and "scout.cards" in res.output


@pytest.mark.parametrize(
    ("where", "change"),
    [
        ("rail, 3 links", lambda a: a["links"].append("birmingham--oxford")),
        ("rail, no link", lambda a: a.update(links=[])),
        ("rail, 100 links", lambda a: a.update(links=["birmingham--oxford"] * LIST_MAX)),
    ],
)
def test_network_count_a_rail_network_of_other_than_one_or_two_links_reads_and_breaks_the_rule(
    tmp_path: Path, where: str, change: Change
) -> None:
    assert_breaks(tmp_path, BIRMINGHAM, first(BIRMINGHAM, rail_network), change, "network.count")


def test_network_count_a_canal_network_of_two_links_reads_and_breaks_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, kind("network"))
    assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a["links"].append("birmingham--oxford"), "network.count")


def test_network_double_beer_a_network_with_merchant_beer_reads_and_breaks_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, rail_network)
    row = assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a.update(beer="merchant"), "network.double_beer")
    assert "not a Merchant beer" in row["error"]["rule_text"]


def test_coal_count_three_coal_sources_for_two_rail_links_read_and_break_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, rail_network)
    assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a["coal"].append("market"), "coal.count")


@pytest.mark.parametrize("industries", [0, 3])
def test_develop_count_a_develop_of_other_than_one_or_two_tiles_reads_and_breaks_the_rule(
    tmp_path: Path, industries: int
) -> None:
    i = first(BIRMINGHAM, kind("develop"))

    def change(a: dict[str, Any]) -> None:
        a["industries"] = (a["industries"] + ["pottery"])[:industries]

    assert_breaks(tmp_path, BIRMINGHAM, i, change, "develop.count")


def test_iron_count_three_iron_sources_for_two_tiles_developed_read_and_break_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, lambda a: a["type"] == "develop" and len(a["industries"]) == 2)
    assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a["iron"].append("market"), "iron.count")


def test_sell_at_least_one_an_empty_list_of_sales_reads_and_breaks_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, kind("sell"))
    assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a.update(sales=[]), "sell.at_least_one")


def test_log_unknown_name_a_third_merchant_tile_reads_and_breaks_the_rule(tmp_path: Path) -> None:
    i = first(BIRMINGHAM, kind("sell"))
    row = assert_breaks(tmp_path, BIRMINGHAM, i, lambda a: a["sales"][0].update(merchant_space=2), "log.unknown_name")
    assert "has no merchant tile 2" in row["error"]["message"]


@pytest.mark.parametrize(
    ("what", "test", "change"),
    [
        ("network beer from the market", rail_network, lambda a: a.update(beer="market")),
        ("sale beer from the market", kind("sell"), lambda a: a["sales"][0].update(beer=["market"])),
        (
            "build coal from a merchant",
            lambda a: a["type"] == "build" and a.get("coal"),
            lambda a: a.update(coal=["merchant"] * len(a["coal"])),
        ),
        (
            "build iron from a merchant",
            lambda a: a["type"] == "build" and a.get("iron"),
            lambda a: a.update(iron=["merchant"] * len(a["iron"])),
        ),
    ],
)
def test_source_unknown_a_resource_from_a_source_that_does_not_hold_it_reads_and_breaks_the_rule(
    tmp_path: Path, what: str, test: Change, change: Change
) -> None:
    assert_breaks(tmp_path, BIRMINGHAM, first(BIRMINGHAM, test), change, "source.unknown")


@pytest.mark.parametrize("amount", [40, 0])
def test_loan_amount_a_lancashire_loan_of_another_amount_reads_and_breaks_the_rule(tmp_path: Path, amount: int) -> None:
    i = first(LANCASHIRE, kind("loan"))
    row = assert_breaks(tmp_path, LANCASHIRE, i, lambda a: a.update(amount=amount), "loan.amount")
    assert row["error"]["message"] == f"a loan is £10, £20, £30, not £{amount}"


# -- the bounds that protect the reader stay format errors -------------------------------------------


@pytest.mark.parametrize(
    ("where", "test", "change"),
    [
        ("links", rail_network, lambda a: a.update(links=["birmingham--oxford"] * (LIST_MAX + 1))),
        ("discards", kind("scout"), lambda a: a.update(discards=["loc:dudley"] * (LIST_MAX + 1))),
        ("sales[0].merchant_space", kind("sell"), lambda a: a["sales"][0].update(merchant_space=100)),
        ("beer", rail_network, lambda a: a.update(beer="brewery")),  # not a source: the shape
        ("", rail_network, lambda a: a.update(links="birmingham--oxford")),  # not a list: the shape
    ],
)
def test_a_list_over_its_bound_or_a_value_of_the_wrong_shape_is_unreadable(
    tmp_path: Path, where: str, test: Change, change: Change
) -> None:
    game = WITH_SCOUT if where == "discards" else BIRMINGHAM
    i = first(game, test)
    code, row = validate(tmp_path, game, i, change)
    assert code == exitcodes.BAD_INPUT and row["kind"] == "format" and row["error"]["index"] is None
    assert f"actions[{i}]{'.' + where if where else ''}:" in row["error"]["message"]


def test_the_loan_amount_is_bounded_like_money(tmp_path: Path) -> None:
    i = first(LANCASHIRE, kind("loan"))
    code, row = validate(tmp_path, LANCASHIRE, i, lambda a: a.update(amount=10_000))
    assert code == exitcodes.BAD_INPUT and f"actions[{i}].amount:" in row["error"]["message"]


# -- the schema says no count that only the rules set ------------------------------------------------


def _action_properties() -> dict[str, dict[str, Any]]:
    defs = schema()["$defs"]
    names = [ref["$ref"].rsplit("/", 1)[-1] for ref in defs["action"]["oneOf"]]
    return {f"{name}.{field}": spec for name in [*names, "sale"] for field, spec in defs[name]["properties"].items()}


def test_every_list_in_an_action_is_bounded_at_100_items_and_may_be_empty() -> None:
    lists = {name: spec for name, spec in _action_properties().items() if spec.get("type") == "array"}
    assert set(lists) >= {"network.links", "develop.industries", "scout.discards", "sell.sales", "sale.beer"}
    for name, spec in lists.items():
        assert spec.get("maxItems") == LIST_MAX and "minItems" not in spec, name


def test_every_source_field_reads_a_tile_the_market_and_the_merchant() -> None:
    defs = schema()["$defs"]
    pattern = re.compile(defs["source"]["pattern"])
    assert all(pattern.search(s) for s in ("dudley:0", "market", "merchant"))
    for name, spec in _action_properties().items():
        if name.rsplit(".", 1)[-1] in ("coal", "iron", "beer"):
            ref = spec["items"]["$ref"] if spec.get("type") == "array" else spec["$ref"]
            assert ref == "#/$defs/source", name


# -- the spec's table agrees with the schema and the rulebook --------------------------------------


def _spec_table() -> list[tuple[str, str, str]]:
    """(field, what the reader accepts, the rules column) of each row of "Shape and rules"."""
    section = DOC.split("### Shape and rules", 1)[1].split("\n### ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            for field in re.findall(r"`([a-z_]+\.[a-z_]+)`", cells[0]):
                rows.append((field, cells[1], cells[3]))
    return rows


def test_the_spec_table_gives_the_schemas_bounds_and_the_rulebooks_rules() -> None:
    rows = _spec_table()
    props = _action_properties()
    assert {f for f, _, _ in rows} == {
        *("network.links", "network.coal", "network.beer", "build.coal", "build.iron", "develop.industries"),
        *("develop.iron", "sell.sales", "sale.merchant_space", "sale.beer", "scout.discards", "shortfall.tiles"),
        "loan.amount",
    }
    rule_ids = set(RULEBOOKS["birmingham"]) | set(RULEBOOKS["lancashire"])
    for field, accepts, rules in rows:
        spec = props[field]
        if spec.get("type") == "array":
            assert accepts.startswith(f"0 to {spec['maxItems']} "), field
        elif spec.get("type") == "integer":
            assert f"{spec['minimum']} to {spec['maximum']}" in accepts, field
        else:
            assert accepts == "a source" and spec["$ref"] == "#/$defs/source", field
        cited = re.findall(r"`([a-z_]+\.[a-z_]+)`", rules)
        assert cited and set(cited) <= rule_ids, (field, cited)


def test_the_spec_says_counts_only_the_rules_forbid_are_illegal_actions_not_format_errors() -> None:
    text = " ".join(DOC.split())
    assert "are reported as illegal actions during replay, with the action's index and the rule they break" in text
    assert "a network action with 3 links is an illegal action (`network.count`), one with 101 a `LogFormatError`" in (
        text
    )
