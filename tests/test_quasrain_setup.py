"""Rebuilding a BrassBirmingham server game's chance outcomes from its record alone.

Expected values are test vectors checked against the server's own code (docs/importing.md,
section 2) and the setup files that server's engine produced for the golden games, never outputs
of this code.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import GOLDEN
from test_golden_games import PUBLISHED

from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.brassbirmingham.deal import (
    Mulberry32,
    canal_era_actions,
    first_difference,
    new_game,
    shuffle,
    to_uint32,
    unshuffled_deck,
)
from brass_stats.log.brassbirmingham.records import ConversionError, convert, convert_files, rebuild_setup
from brass_stats.log.format import GameLog
from brass_stats.replay import replay

REFERENCE = json.loads((GOLDEN / "reference-tables.json").read_text())
ECONOMY = ("coalMarketCubes", "ironMarketCubes", "money", "incomeSpace", "incomeLevel", "vp")


def _raw(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        json.loads((GOLDEN / f"{name}.record.json").read_text()),
        json.loads((GOLDEN / f"{name}.setup.json").read_text()),
    )


# -- the generator (docs/importing.md 2.1) ---------------------------------------------


@pytest.mark.parametrize(
    "seed,outputs,floats",
    [
        (0, [0x4434B462, 0x00159C37, 0x39285B08], [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]),
        (
            1786252670,
            [0xF70BFA22, 0x32518EE0, 0x89AB3E87],
            [0.9650265057571232, 0.19655697792768478, 0.5377692298498005],
        ),
    ],
)
def test_mulberry32_matches_the_specs_test_vectors(seed: int, outputs: list[int], floats: list[float]) -> None:
    rng = Mulberry32(seed)
    assert [rng.next_u32() for _ in range(3)] == outputs
    rng = Mulberry32(seed)
    assert [rng.random() for _ in range(3)] == floats


def test_first_swap_partners_and_state_after_setup_of_wq9gs6() -> None:
    rng = Mulberry32(1786252670)
    assert [rng.below(i + 1) for i in range(39, 33, -1)] == [38, 7, 20, 10, 6, 23]
    assert new_game(2, 1786252670).rng_state == 770769818


def test_seed_reduced_like_javascripts_unsigned_shift() -> None:
    assert to_uint32(-1) == 2**32 - 1
    assert to_uint32(2**32 + 7) == 7
    assert to_uint32(-2.9) == 2**32 - 2  # truncated toward zero first
    assert to_uint32(float("inf")) == to_uint32(float("nan")) == 0
    assert Mulberry32(2**32).next_u32() == Mulberry32(0).next_u32() == 0x4434B462


def test_integer_below_n_equals_the_double_floor_form() -> None:
    for seed in (0, 1, 2**31 - 1, 2**31, 2**32 - 1):
        a, b = Mulberry32(seed), Mulberry32(seed)
        for n in (1, 2, 5, 40, 64):
            assert a.below(n) == int(b.random() * n)


def test_shuffle_runs_fisher_yates_from_the_back_with_m_minus_1_draws() -> None:
    rng = Mulberry32(5)
    assert shuffle([], rng) == [] and shuffle(["x"], rng) == ["x"] and rng.draws == 0
    items = list(range(10))
    out = shuffle(items, rng)
    assert rng.draws == 9 and sorted(out) == items and items == list(range(10))
    rng2, expect = Mulberry32(5), list(range(10))
    for i in range(9, 0, -1):
        j = int(rng2.random() * (i + 1))
        expect[i], expect[j] = expect[j], expect[i]
    assert out == expect


# -- the deck and a new game (sections 4 and 5) ------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_unshuffled_deck_equals_the_servers_deck_table(players: int) -> None:
    assert unshuffled_deck(players) == [c["id"] for c in REFERENCE["decks"][str(players)]]
    assert canal_era_actions(players) == {2: 38, 3: 51, 4: 60}[players]


NEW_GAME_VECTORS = [
    # players, turnOrder, merchant tiles (shrewsbury/gloucester/oxford/warrington/nottingham),
    # seat 0's first 3 cards, face-down discards, deck top 2, state after setup (seed 1)
    (
        2,
        [0, 1],
        [["blank"], ["manufacturer", "any"], ["blank", "cotton"], [], []],
        ["loc-worcester-0", "loc-redditch-0", "loc-burton-on-trent-1"],
        ["loc-coalbrookdale-1", "ind-brewery-3"],
        ["loc-walsall-0", "loc-coventry-2"],
        3279484445,
    ),
    (
        3,
        [0, 1, 2],
        [["any"], ["pottery", "blank"], ["blank", "blank"], ["cotton", "manufacturer"], []],
        ["ind-brewery-0", "ind-cotton-manufacturer-3", "loc-stoke-on-trent-1"],
        ["loc-worcester-1", "ind-brewery-4", "ind-pottery-0"],
        ["loc-coalbrookdale-2", "loc-dudley-0"],
        56364898,
    ),
    (
        4,
        [1, 0, 3, 2],
        [["cotton"], ["manufacturer", "blank"], ["blank", "cotton"], ["pottery", "manufacturer"], ["blank", "any"]],
        ["ind-cotton-manufacturer-0", "ind-cotton-manufacturer-4", "ind-coal-0"],
        ["loc-coalbrookdale-0", "ind-brewery-1", "loc-stone-0", "loc-nuneaton-0"],
        ["ind-pottery-0", "loc-derby-2"],
        2391883987,
    ),
]


@pytest.mark.parametrize("players,order,tiles,first3,facedown,top2,state", NEW_GAME_VECTORS)
def test_new_game_matches_the_specs_vectors(
    players: int,
    order: list[int],
    tiles: list[list[str]],
    first3: list[str],
    facedown: list[str],
    top2: list[str],
    state: int,
) -> None:
    g = new_game(players, 1)
    assert g.turn_order == order
    locations = ["shrewsbury", "gloucester", "oxford", "warrington", "nottingham"]
    assert [g.merchants[loc]["tiles"] for loc in locations] == tiles
    assert all(g.merchants[loc]["barrels"] == [t != "blank" for t in g.merchants[loc]["tiles"]] for loc in locations)
    assert g.hands[0][:3] == first3 and g.discard_pile == facedown and g.deck_top_first[:2] == top2
    assert g.rng_state == state
    assert sorted([*sum(g.hands, []), *g.discard_pile, *g.deck_top_first]) == sorted(unshuffled_deck(players))


# -- golden games: the record alone gives the setup file -----------------------------------


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_golden_record_alone_rebuilds_every_setup_field(name: str) -> None:
    record, setup = _raw(name)
    rebuilt = rebuild_setup(record, name)
    assert first_difference(rebuilt.initial.to_json(), setup["initialSetup"]) is None
    assert set(rebuilt.initial.to_json()) == set(setup["initialSetup"])  # every field, economy included
    assert rebuilt.rail is not None and rebuilt.unknown == []
    mine = rebuilt.rail.to_json()
    assert first_difference(mine, setup["railEraStart"]) is None
    assert set(mine) | set(ECONOMY) == set(setup["railEraStart"])  # all but the economy checkpoint


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_golden_record_alone_replays_to_the_published_scores(name: str) -> None:
    record, setup = _raw(name)
    alone = convert_files(GOLDEN / f"{name}.record.json")
    r = replay(alone, AS_PLAYED)  # gm7vza-4p's server let a seat place 16 links (D1)
    assert r.error is None and r.finished
    canal, final = PUBLISHED[name]
    assert [s.vp for s in r.standings()] == final
    assert [p.vp for p in r.checkpoints["rail_era_start"].players] == canal
    with_setup = convert(record, setup, name)
    assert alone.chance == with_setup.chance and alone.actions == with_setup.actions
    assert alone.result is None and with_setup.result is not None  # scores come only from a setup file
    assert alone.options == {}  # Manufacturer IV at its printed cost, no override


def test_scout_cards_enter_the_pile_in_hand_order_whatever_the_records_order() -> None:
    record, setup = _raw("gm7vza-4p")
    scouts = [e for e in record["actions"] if e["action"]["type"] == "scout" and e["seq"] < 60]
    assert scouts
    for e in scouts:
        e["action"]["cardIds"] = sorted(e["action"]["cardIds"], reverse=True)
    rebuilt = rebuild_setup(record)
    assert rebuilt.rail is not None
    assert first_difference(rebuilt.rail.to_json(), setup["railEraStart"]) is None


# -- records that stop early -----------------------------------------------------------------


@pytest.mark.parametrize("name,stop", [("wq9gs6-2p", 1), ("wq9gs6-2p", 20), ("gm7vza-4p", 59)])
def test_record_ending_in_the_canal_era_converts_and_says_the_rail_deal_is_unknown(name: str, stop: int) -> None:
    record, setup = _raw(name)
    record["actions"] = record["actions"][:stop]
    log = convert(record, None, name)
    assert "rail_era" not in log.chance
    assert log.source is not None and any("Rail Era deal" in u for u in log.source["unknown"])
    r = replay(log)
    assert r.error is None and not r.finished and len(r.steps) >= stop
    # with the setup file too: its rail-era deal cannot be checked, its initial deal is
    convert(record, {"initialSetup": setup["initialSetup"], "railEraStart": setup["railEraStart"]}, name)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_record_ending_exactly_at_the_canal_era_end_knows_the_rail_deal(name: str) -> None:
    record, setup = _raw(name)
    n = record["playerCount"]
    record["actions"] = record["actions"][: canal_era_actions(n)]
    rebuilt = rebuild_setup(record)
    assert rebuilt.rail is not None
    assert rebuilt.rail.hands == setup["railEraStart"]["hands"]
    assert rebuilt.rail.deck_top_first == setup["railEraStart"]["deckTopFirst"]
    assert any("Rail Era turn order" in u for u in rebuilt.unknown)
    log = convert(record, None, name)
    r = replay(log)
    assert r.error is None and r.state.era == "rail"


def test_record_ending_mid_rail_era_converts() -> None:
    record, _ = _raw("gm7vza-4p")
    record["actions"] = record["actions"][:77]
    log = convert(record, None, "gm7vza")
    assert log.source is not None and "unknown" not in log.source
    r = replay(log)
    assert r.error is None and not r.finished


# -- the setup file as a cross-check ---------------------------------------------------------


@pytest.mark.parametrize(
    "path,value,field",
    [
        (("initialSetup", "hands", 0, 3), "loc-birmingham-0", "setup.initialSetup.hands[0][3]"),
        (("initialSetup", "turnOrder"), [0, 1], "setup.initialSetup.turnOrder[0]"),
        (
            ("initialSetup", "merchants", "oxford", "tiles", 1),
            "pottery",
            "setup.initialSetup.merchants.oxford.tiles[1]",
        ),
        (("railEraStart", "deckTopFirst", 0), "loc-birmingham-0", "setup.railEraStart.deckTopFirst[0]"),
        (("initialSetup", "money"), [17, 18], "setup.initialSetup.money[1]"),
    ],
)
def test_setup_file_disagreeing_with_the_seed_names_the_first_field(
    path: tuple[Any, ...], value: Any, field: str
) -> None:
    record, setup = _raw("wq9gs6-2p")
    setup = copy.deepcopy(setup)
    target = setup
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    with pytest.raises(ConversionError) as e:
        convert(record, setup, "wq9gs6.record.json", "wq9gs6.setup.json")
    assert e.value.field == field
    assert "wq9gs6.setup.json disagrees with the record's seed" in str(e.value)


def test_wrong_seed_is_caught_before_any_action_is_replayed() -> None:
    record, _ = _raw("wq9gs6-2p")
    record["seed"] += 1
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq is not None and "seed" in str(e.value)


def test_card_not_in_the_derived_hand_is_reported() -> None:
    record, _ = _raw("wq9gs6-2p")
    first = record["actions"][0]
    hand = new_game(2, record["seed"]).hands[first["player"]]
    other = next(c for c in unshuffled_deck(2) if c not in hand and c.startswith("loc-"))
    first["action"] = {"type": "loan", "cardId": other}
    with pytest.raises(ConversionError) as e:
        convert(record, None, "r.json")
    assert e.value.seq == 0 and e.value.field == "cardId" and other in str(e.value)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_golden_record_alone_replays_to_the_setup_files_rail_era_economy(name: str) -> None:
    """The rest of railEraStart (not chance outcomes): the replay of the record alone reaches it.
    Its VP predates the server's merchant-link fix (docs/rules-decisions.md), so VP is checked
    against the published canal scores in the test above instead."""
    _, setup = _raw(name)
    rail = setup["railEraStart"]
    start = replay(convert_files(GOLDEN / f"{name}.record.json")).checkpoints["rail_era_start"]
    assert (start.coal_market, start.iron_market) == (rail["coalMarketCubes"], rail["ironMarketCubes"])
    assert [p.money for p in start.players] == rail["money"]
    assert [p.income_space for p in start.players] == rail["incomeSpace"]
    assert [start.income_level(p.seat) for p in start.players] == rail["incomeLevel"]
    assert (start.era, start.round) == (rail["era"], rail["round"])


# -- published scores a log cannot declare -----------------------------------------------------


def test_a_negative_published_score_converts_the_game_and_says_it_was_not_kept(tmp_path: Path) -> None:
    """The server let VP go below 0 and published it; a declared VP may not be below 0. The game
    converts, keeps the other published values as its declared result, and lists the one it dropped."""
    record, setup = _raw("wq9gs6-2p")
    scores = setup["scores"]["officialRulesEngine_d3d2697_fromYuiffyAudit"]
    scores["finalScores"] = [214, -3]  # seat 0 one below the replay, seat 1 below zero
    log = convert(record, setup, "r.record.json", "s.setup.json")
    assert log.result is not None and log.result["final"] == [{"seat": 0, "vp": 214}]
    assert log.result["rail_era_start"]["vp"] == [41, 48]  # the canal scores are kept
    assert log.source is not None
    (dropped,) = log.source["published_not_kept"]
    assert dropped["field"] == "setup.scores.officialRulesEngine_d3d2697_fromYuiffyAudit.finalScores[1]"
    assert dropped["published"] == -3 and "below 0" in dropped["why"]
    again = GameLog.loads(log.dumps())  # a valid log
    assert again.source == log.source
    r = replay(again, AS_PLAYED)
    assert r.check_result() == ["seat 0 vp: declared 214, replayed 215"]  # the kept values are checked
    path = tmp_path / "game.json"
    log.save(path)
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == 1 and "declared 214, replayed 215" in res.output


def test_convert_with_a_setup_whose_every_final_score_is_negative(tmp_path: Path) -> None:
    record, setup = _raw("wq9gs6-2p")
    setup["scores"]["officialRulesEngine_d3d2697_fromYuiffyAudit"]["finalScores"] = [-1, -2]
    bad = tmp_path / "neg.setup.json"
    bad.write_text(json.dumps(setup))
    out = tmp_path / "game.json"
    args = ["convert", "quasrain", str(GOLDEN / "wq9gs6-2p.record.json"), "--setup", str(bad), "--out", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    log = GameLog.load(out)
    assert log.result is not None and "final" not in log.result and "rail_era_start" in log.result
    assert log.source is not None and [d["published"] for d in log.source["published_not_kept"]] == [-1, -2]
    assert replay(log).check_result() == []  # the rail-era checkpoint still agrees
