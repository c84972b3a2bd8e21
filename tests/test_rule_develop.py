"""Develop action: 1 or 2 tiles, lowest level first, lightbulb potteries, one iron per tile."""

from __future__ import annotations

import pytest
from helpers import act, clear_mat_below, fresh, give, place_tile, rule_of, set_markets, set_money

from brass_stats.engine import Develop, apply_action

# -- develop.count ---------------------------------------------------------------------------


def test_develop_count_zero_tiles_refused():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Develop(0, "loc:leek", ())) == "develop.count"


def test_develop_count_three_tiles_refused():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine", "brewery", "cotton_mill"))) == "develop.count"


def test_develop_count_one_tile_costs_one_iron_from_the_market():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g2, done = apply_action(g, Develop(0, "loc:leek", ("coal_mine",)))
    assert done.iron == ("market",)
    assert g2.players[0].mat["coal_mine"] == (0, 2, 2, 2)
    assert g2.iron_market == 7
    assert g2.players[0].money == 17 - 2
    assert g2.players[0].spent == 2
    assert g2.players[0].discard[-1] == "loc:leek"


def test_develop_count_two_tiles_of_different_industries():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine", "manufacturer"), iron=("market", "market")))
    assert g2.players[0].mat["coal_mine"] == (0, 2, 2, 2)
    assert g2.players[0].mat["manufacturer"] == (0, 2, 1, 1, 2, 1, 1, 2)
    assert g2.iron_market == 6
    assert g2.players[0].money == 17 - 2 - 2


def test_develop_count_two_tiles_of_one_industry_each_the_lowest_as_removed():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g2 = act(g, Develop(0, "loc:leek", ("iron_works", "iron_works"), iron=("market", "market")))
    assert g2.players[0].mat["iron_works"] == (0, 0, 1, 1)
    g3 = act(g, Develop(0, "loc:leek", ("brewery", "brewery"), iron=("market", "market")))
    assert g3.players[0].mat["brewery"] == (0, 2, 2, 1)


def test_develop_iron_at_rising_market_prices_and_6_when_empty():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_markets(g, iron=1)  # the last cube costs £5, then the empty market £6
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("market", "market")))
    assert g2.players[0].money == 17 - 5 - 6
    assert g2.iron_market == 0


def test_develop_iron_from_any_unconnected_iron_works_is_free():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "coalbrookdale:1", 1, "iron_works", 1, resources=2)
    g.players[1].income_space = 20
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("coalbrookdale:1", "coalbrookdale:1")))
    assert g2.players[0].money == 17
    assert g2.players[0].spent == 0
    assert g2.iron_market == 8
    t = g2.tiles["coalbrookdale:1"]
    assert (t.resources, t.flipped) == (0, True)
    assert g2.players[1].income_space == 23


def test_develop_needs_money_for_market_iron():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_money(g, 0, 3)
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("market", "market"))) == "money.afford"


# -- develop.lightbulb -------------------------------------------------------------------------


def test_develop_lightbulb_pottery_i_cannot_be_developed():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Develop(0, "loc:leek", ("pottery",))) == "develop.lightbulb"


def test_develop_lightbulb_pottery_iii_cannot_be_developed():
    g = fresh(2)
    give(g, 0, "loc:leek")
    clear_mat_below(g, 0, "pottery", 3)
    assert rule_of(g, Develop(0, "loc:leek", ("pottery",))) == "develop.lightbulb"


def test_develop_lightbulb_second_tile_reaching_a_lightbulb_is_refused():
    g = fresh(2)
    give(g, 0, "loc:leek")
    clear_mat_below(g, 0, "pottery", 2)
    assert rule_of(g, Develop(0, "loc:leek", ("pottery", "pottery"), iron=("market", "market"))) == (
        "develop.lightbulb"
    )


@pytest.mark.parametrize("level", [2, 4, 5])
def test_develop_lightbulb_other_pottery_levels_can_be_developed(level):
    g = fresh(2)
    give(g, 0, "loc:leek")
    clear_mat_below(g, 0, "pottery", level)
    g2 = act(g, Develop(0, "loc:leek", ("pottery",)))
    assert g2.players[0].mat["pottery"][level - 1] == 0
    assert sum(g2.players[0].mat["pottery"]) == 5 - level


# -- develop.tiles_left ----------------------------------------------------------------------------


def test_develop_tiles_left_none_of_that_industry():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g.players[0].mat = {**g.players[0].mat, "coal_mine": (0, 0, 0, 0)}
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine",))) == "develop.tiles_left"


def test_develop_tiles_left_second_tile_of_the_last_one():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g.players[0].mat = {**g.players[0].mat, "coal_mine": (0, 0, 0, 1)}
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine", "coal_mine"), iron=("market", "market"))) == (
        "develop.tiles_left"
    )
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine",)))
    assert g2.players[0].mat["coal_mine"] == (0, 0, 0, 0)


def test_develop_iron_count_must_match_tiles():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine",), iron=("market", "market"))) == "iron.count"
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("market",))) == "iron.count"
