"""Build action: cards, network, farm breweries, slot choice, levels, eras, overbuilding, markets."""

from __future__ import annotations

import pytest
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
    two_actions,
)

from brass_stats.engine import Build, apply_action
from brass_stats.rules_data import WILD_INDUSTRY, WILD_LOCATION

# -- build.card ------------------------------------------------------------------------


def test_build_card_location_card_builds_only_at_its_location():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    assert rule_of(g, Build(0, "loc:dudley", "manufacturer", "birmingham", 1)) == "build.card"


def test_build_card_location_card_builds_any_industry_outside_the_network():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)  # the network is Worcester only
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    t = g2.tiles["dudley:0"]
    assert (t.owner, t.industry, t.level, t.resources, t.flipped) == (0, "coal_mine", 1, 2, False)
    assert g2.players[0].money == 12
    assert g2.players[0].mat["coal_mine"] == (0, 2, 2, 2)
    assert g2.players[0].discard[-1] == "loc:dudley"


def test_build_card_industry_card_must_show_the_industry():
    g = fresh(2)
    give(g, 0, "ind:iron_works")
    assert rule_of(g, Build(0, "ind:iron_works", "coal_mine", "dudley", 0)) == "build.card"


def test_build_card_two_icon_industry_card_builds_either_industry():
    g = fresh(4)
    give(g, 0, "ind:cotton_mill+manufacturer")
    g2 = act(g, Build(0, "ind:cotton_mill+manufacturer", "cotton_mill", "worcester", 0))
    assert g2.tiles["worcester:0"].industry == "cotton_mill"
    assert g2.players[0].money == 17 - 12
    give(g, 0, "ind:cotton_mill+manufacturer")
    assert rule_of(g, Build(0, "ind:cotton_mill+manufacturer", "pottery", "stafford", 1)) == "build.card"


def test_build_card_wild_location_builds_any_industry_anywhere():
    g = fresh(2)
    give(g, 0, WILD_LOCATION)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    g.wild[WILD_LOCATION] = 3
    g2 = act(g, Build(0, WILD_LOCATION, "coal_mine", "cannock", 1))
    assert g2.tiles["cannock:1"].industry == "coal_mine"
    assert g2.wild[WILD_LOCATION] == 4


# -- build.network ------------------------------------------------------------------------


def test_build_network_industry_card_outside_the_network():
    g = fresh(2)
    give(g, 0, "ind:coal_mine", WILD_INDUSTRY)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0)) == "build.network"
    assert rule_of(g, Build(0, WILD_INDUSTRY, "coal_mine", "dudley", 0)) == "build.network"


def test_build_network_opponents_link_does_not_extend_your_network():
    g = fresh(2)
    give(g, 0, "ind:coal_mine")
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_link(g, "dudley--birmingham", 1)
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0)) == "build.network"


def test_build_network_location_adjacent_to_own_link_is_in_the_network():
    g = fresh(2)
    give(g, 0, "ind:coal_mine")
    place_link(g, "dudley--birmingham", 0)
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0))
    assert g2.tiles["dudley:0"].owner == 0


def test_build_network_location_with_own_tile_is_in_the_network():
    g = to_rail_era(fresh(2))
    give(g, 0, "ind:iron_works")
    place_tile(g, "dudley:0", 0, "coal_mine", 2)
    clear_mat_below(g, 0, "iron_works", 2)
    g2 = act(g, Build(0, "ind:iron_works", "iron_works", "dudley", 1, coal=("dudley:0",)))
    assert g2.tiles["dudley:1"].industry == "iron_works"
    assert g2.tiles["dudley:0"].resources == 2


# -- build.wild_location_farm and build.farm_brewery -----------------------------------------


def test_build_wild_location_farm_wild_location_card_cannot_build_a_farm_brewery():
    """Rulebook: a Wild Location card 'may be played as any Location card. This does not include the 2 Farm
    Breweries.' The engine refuses the build, but under build.farm_brewery: the check in check_card that raises
    build.wild_location_farm is never reached (apply_build tests the farm brewery card first)."""
    g = fresh(2)
    give(g, 0, WILD_LOCATION)
    assert rule_of(g, Build(0, WILD_LOCATION, "brewery", "farm_brewery_north", 0)) == "build.wild_location_farm"


def test_build_wild_location_farm_is_refused_whatever_the_rule_id():
    g = fresh(2)
    give(g, 0, WILD_LOCATION)
    place_link(g, "cannock--farm_brewery_north", 0)
    assert rule_of(g, Build(0, WILD_LOCATION, "brewery", "farm_brewery_north", 0)) in (
        "build.wild_location_farm",
        "build.farm_brewery",
    )


def test_build_farm_brewery_needs_a_brewery_or_wild_industry_card():
    g = fresh(2)
    give(g, 0, "ind:coal_mine", "ind:iron_works")
    place_link(g, "cannock--farm_brewery_north", 0)
    assert rule_of(g, Build(0, "ind:coal_mine", "brewery", "farm_brewery_north", 0)) == "build.farm_brewery"


def test_build_farm_brewery_with_brewery_card_in_network():
    g = fresh(2)
    give(g, 0, "ind:brewery")
    place_link(g, "cannock--farm_brewery_north", 0)
    g2 = act(g, Build(0, "ind:brewery", "brewery", "farm_brewery_north", 0, iron=("market",)))
    t = g2.tiles["farm_brewery_north:0"]
    assert (t.industry, t.level, t.resources) == ("brewery", 1, 1)
    assert g2.players[0].money == 17 - 5 - 2  # £5 and one iron from the market at £2
    assert g2.iron_market == 7


def test_build_farm_brewery_with_wild_industry_card_via_kidderminster_worcester_link():
    g = fresh(2)
    give(g, 0, WILD_INDUSTRY)
    g.wild[WILD_INDUSTRY] = 3
    place_link(g, "kidderminster--worcester", 0)
    g2 = act(g, Build(0, WILD_INDUSTRY, "brewery", "farm_brewery_south", 0, iron=("market",)))
    assert g2.tiles["farm_brewery_south:0"].owner == 0
    assert g2.wild[WILD_INDUSTRY] == 4


def test_build_farm_brewery_brewery_card_outside_network_refused():
    g = fresh(2)
    give(g, 0, "ind:brewery")
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    assert rule_of(g, Build(0, "ind:brewery", "brewery", "farm_brewery_north", 0)) == "build.network"


# -- build.no_tiles_on_board -----------------------------------------------------------------


def test_build_no_tiles_on_board_industry_card_builds_anywhere():
    g = fresh(2)
    give(g, 0, "ind:coal_mine")
    place_tile(g, "birmingham:1", 1, "manufacturer", 1)  # the opponent's pieces do not matter
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0))
    assert g2.tiles["dudley:0"].owner == 0


def test_build_no_tiles_on_board_wild_industry_card_builds_anywhere():
    g = fresh(2)
    give(g, 0, WILD_INDUSTRY)
    g2 = act(g, Build(0, WILD_INDUSTRY, "coal_mine", "cannock", 1))
    assert g2.tiles["cannock:1"].owner == 0


def test_build_no_tiles_on_board_not_once_you_have_a_link():
    g = fresh(2)
    give(g, 0, "ind:coal_mine")
    place_link(g, "worcester--gloucester", 0)
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0)) == "build.network"


def test_build_no_tiles_on_board_again_in_the_rail_era_after_level_1_tiles_went():
    g = to_rail_era(fresh(2))
    give(g, 0, "ind:coal_mine")
    clear_mat_below(g, 0, "coal_mine", 2)
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "dudley", 0))
    assert g2.tiles["dudley:0"].level == 2


# -- build.slot_icon ------------------------------------------------------------------------


def test_build_slot_icon_location_without_the_industry():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    assert rule_of(g, Build(0, "loc:dudley", "cotton_mill", "dudley")) == "build.slot_icon"
    assert rule_of(g, Build(0, "loc:dudley", "cotton_mill", "dudley", 0)) == "build.slot_icon"


def test_build_slot_icon_stated_slot_without_the_icon():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    assert rule_of(g, Build(0, "loc:dudley", "coal_mine", "dudley", 1)) == "build.slot_icon"


def test_build_slot_icon_no_undeveloped_space_left():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 2)
    assert rule_of(g, Build(0, "loc:dudley", "coal_mine", "dudley")) == "build.slot_icon"


def test_build_slot_icon_space_showing_the_icon():
    g = fresh(2)
    give(g, 0, "loc:stone")
    g2 = act(g, Build(0, "loc:stone", "coal_mine", "stone", 1))
    assert g2.tiles["stone:1"].industry == "coal_mine"


# -- build.single_icon_first ----------------------------------------------------------------


def test_build_single_icon_first_dual_space_while_single_space_free():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_link(g, "birmingham--oxford", 1)
    a = Build(0, "loc:birmingham", "manufacturer", "birmingham", 0, coal=("market",))
    assert rule_of(g, a) == "build.single_icon_first"


def test_build_single_icon_first_dual_space_once_single_spaces_are_taken():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_link(g, "birmingham--oxford", 1)
    place_tile(g, "birmingham:1", 1, "manufacturer", 1)
    place_tile(g, "birmingham:3", 1, "manufacturer", 2)
    g2, done = apply_action(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", coal=("market",)))
    assert done.slot == 0
    assert g2.tiles["birmingham:0"].owner == 0


def test_build_single_icon_first_only_dual_spaces_in_location():
    g = fresh(2)
    give(g, 0, "loc:uttoxeter")
    g2, done = apply_action(g, Build(0, "loc:uttoxeter", "cotton_mill", "uttoxeter"))
    assert done.slot == 1


def test_build_single_icon_first_single_space_chosen_when_slot_left_out():
    g = fresh(2)
    give(g, 0, "loc:coalbrookdale")
    place_tile(g, "coalbrookdale:2", 1, "coal_mine", 1)
    g2, done = apply_action(g, Build(0, "loc:coalbrookdale", "iron_works", "coalbrookdale", coal=("coalbrookdale:2",)))
    assert done.slot == 1


# -- build.lowest_level and build.tiles_left ---------------------------------------------------


def test_build_lowest_level_tile_is_taken_from_the_mat():
    g = two_actions(fresh(2))
    give(g, 0, "loc:dudley", "loc:cannock", "loc:walsall")
    g = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    assert g.tiles["dudley:0"].level == 1
    assert g.players[0].mat["coal_mine"] == (0, 2, 2, 2)
    g = act(g, Build(0, "loc:cannock", "coal_mine", "cannock", 1))
    t = g.tiles["cannock:1"]
    assert (t.level, t.resources) == (2, 3)
    assert g.players[0].mat["coal_mine"] == (0, 1, 2, 2)
    assert g.players[0].money == 17 - 5 - 7


def test_build_lowest_level_after_developing():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    clear_mat_below(g, 0, "coal_mine", 3)
    set_money(g, 0, 20)
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0, iron=("market",)))
    t = g2.tiles["dudley:0"]
    assert (t.level, t.resources) == (3, 4)
    assert g2.players[0].money == 20 - 8 - 2


def test_build_tiles_left_none_of_that_industry():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    g.players[0].mat = {**g.players[0].mat, "iron_works": (0, 0, 0, 0)}
    assert rule_of(g, Build(0, "loc:dudley", "iron_works", "dudley", 1)) == "build.tiles_left"


# -- build.canal_one_per_location ------------------------------------------------------------


def test_build_canal_one_per_location_second_own_tile_at_stated_slot():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    assert rule_of(g, Build(0, "loc:dudley", "iron_works", "dudley", 1)) == "build.canal_one_per_location"


def test_build_canal_one_per_location_second_own_tile_slot_left_out():
    """Dudley:1 is an undeveloped iron works space; what forbids the build is the one-tile-per-location rule.
    The engine reports build.slot_icon ('no undeveloped iron_works space left in dudley')."""
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    assert rule_of(g, Build(0, "loc:dudley", "iron_works", "dudley")) == "build.canal_one_per_location"


def test_build_canal_one_per_location_overbuilding_an_opponent_tile_beside_your_own():
    g = fresh(2)
    give(g, 0, "loc:cannock")
    place_tile(g, "cannock:0", 0, "manufacturer", 1)
    place_tile(g, "cannock:1", 1, "coal_mine", 1, flipped=True)
    set_markets(g, coal=0)
    a = Build(0, "loc:cannock", "coal_mine", "cannock", 1)
    assert rule_of(g, a) == "build.canal_one_per_location"


def test_build_canal_one_per_location_beside_an_opponent_tile_is_fine():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    g2 = act(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",)))
    assert g2.tiles["dudley:1"].owner == 0
    assert g2.tiles["dudley:0"].resources == 1


def test_build_canal_one_per_location_rail_era_allows_several():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 0, "coal_mine", 2)
    clear_mat_below(g, 0, "iron_works", 2)
    g2 = act(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",)))
    assert [t.owner for t in g2.tiles.values()] == [0, 0]


def test_build_canal_one_per_location_overbuilding_own_tile_keeps_one():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 0, "coal_mine", 1, resources=1)
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    t = g2.tiles["dudley:0"]
    assert (t.owner, t.level, t.resources) == (0, 2, 3)


# -- build.era ----------------------------------------------------------------------------


def test_build_era_canal_era_cannot_build_pottery_v():
    g = fresh(2)
    give(g, 0, "loc:stafford")
    clear_mat_below(g, 0, "pottery", 5)
    assert rule_of(g, Build(0, "loc:stafford", "pottery", "stafford", 1)) == "build.era"


def test_build_era_canal_era_cannot_build_brewery_iv():
    g = fresh(2)
    give(g, 0, "loc:burton_on_trent")
    clear_mat_below(g, 0, "brewery", 4)
    assert rule_of(g, Build(0, "loc:burton_on_trent", "brewery", "burton_on_trent", 1)) == "build.era"


@pytest.mark.parametrize(
    ("industry", "location", "slot"),
    [("coal_mine", "dudley", 0), ("cotton_mill", "worcester", 0), ("brewery", "burton_on_trent", 1)],
)
def test_build_era_rail_era_cannot_build_level_1(industry, location, slot):
    g = to_rail_era(fresh(2))
    give(g, 0, f"loc:{location}")
    assert rule_of(g, Build(0, f"loc:{location}", industry, location, slot)) == "build.era"


def test_build_era_rail_era_can_build_pottery_i():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:stafford")
    set_money(g, 0, 20)
    g2 = act(g, Build(0, "loc:stafford", "pottery", "stafford", 1, iron=("market",)))
    t = g2.tiles["stafford:1"]
    assert (t.industry, t.level) == ("pottery", 1)
    assert g2.players[0].money == 20 - 17 - 2


# -- brewery beer, coal and iron on the tile ----------------------------------------------------


def test_build_brewery_gets_1_barrel_in_canal_era_and_2_in_rail_era():
    g = fresh(2)
    give(g, 0, "loc:burton_on_trent")
    a = Build(0, "loc:burton_on_trent", "brewery", "burton_on_trent", 1, iron=("market",))
    assert act(g, a).tiles["burton_on_trent:1"].resources == 1
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:burton_on_trent")
    clear_mat_below(g, 0, "brewery", 2)
    assert act(g, a).tiles["burton_on_trent:1"].resources == 2


# -- moving coal and iron to the markets --------------------------------------------------------


def test_build_coal_mine_connected_to_merchant_sells_to_most_expensive_spaces_and_flips():
    g = fresh(2)
    give(g, 0, "loc:coalbrookdale")
    place_link(g, "coalbrookdale--shrewsbury", 1)
    set_markets(g, coal=10)  # empty spaces: £1, £1, £2, £2
    g2 = act(g, Build(0, "loc:coalbrookdale", "coal_mine", "coalbrookdale", 2))
    t = g2.tiles["coalbrookdale:2"]
    assert (t.resources, t.flipped) == (0, True)
    assert g2.coal_market == 12
    assert g2.players[0].money == 17 - 5 + 2 + 2
    assert g2.players[0].income_space == 10 + 4


def test_build_coal_mine_sells_only_as_many_cubes_as_there_are_spaces():
    g = fresh(2)
    give(g, 0, "loc:coalbrookdale")
    place_link(g, "coalbrookdale--shrewsbury", 1)  # 13 cubes: one £1 space free
    g2 = act(g, Build(0, "loc:coalbrookdale", "coal_mine", "coalbrookdale", 2))
    t = g2.tiles["coalbrookdale:2"]
    assert (t.resources, t.flipped) == (1, False)
    assert g2.coal_market == 14
    assert g2.players[0].money == 17 - 5 + 1
    assert g2.players[0].income_space == 10


def test_build_coal_mine_connected_to_merchant_without_tiles_still_sells():
    g = fresh(2)  # no merchant tiles at Warrington in a 2-player game
    give(g, 0, "loc:leek")
    place_link(g, "warrington--stoke_on_trent", 1)
    place_link(g, "stoke_on_trent--leek", 1)
    set_markets(g, coal=12)
    g2 = act(g, Build(0, "loc:leek", "coal_mine", "leek", 1))
    assert g2.coal_market == 14
    assert g2.tiles["leek:1"].flipped
    assert g2.players[0].money == 17 - 5 + 1 + 1


def test_build_coal_mine_not_connected_to_merchant_keeps_its_cubes():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    set_markets(g, coal=0)
    place_link(g, "dudley--birmingham", 1)
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    assert g2.tiles["dudley:0"].resources == 2
    assert g2.coal_market == 0
    assert g2.players[0].money == 12


def test_build_iron_works_always_sells_to_the_iron_market_even_unconnected():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)  # coal for the iron works; no merchant connection
    set_markets(g, iron=0)
    g2 = act(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",)))
    t = g2.tiles["dudley:1"]
    assert (t.resources, t.flipped) == (0, True)
    assert g2.iron_market == 4
    assert g2.players[0].money == 17 - 5 + 5 + 5 + 4 + 4
    assert g2.players[0].income_space == 13


def test_build_iron_works_partial_sale_at_setup_market():
    g = fresh(2)
    give(g, 0, "loc:coalbrookdale")
    place_link(g, "coalbrookdale--shrewsbury", 1)
    g2 = act(g, Build(0, "loc:coalbrookdale", "iron_works", "coalbrookdale", 1, coal=("market",)))
    t = g2.tiles["coalbrookdale:1"]
    assert (t.resources, t.flipped) == (2, False)
    assert (g2.iron_market, g2.coal_market) == (10, 12)
    assert g2.players[0].money == 17 - 5 - 1 + 1 + 1
    assert g2.players[0].spent == 6


def test_build_market_sale_money_cannot_pay_for_the_build():
    g = fresh(2)
    give(g, 0, "loc:coalbrookdale")
    place_link(g, "coalbrookdale--shrewsbury", 1)
    set_markets(g, iron=0)
    set_money(g, 0, 5)  # £5 + £1 of market coal: the £18 from the iron comes too late
    a = Build(0, "loc:coalbrookdale", "iron_works", "coalbrookdale", 1, coal=("market",))
    assert rule_of(g, a) == "money.afford"


# -- build.overbuild and build.overbuild_resource_gone --------------------------------------------


def test_build_overbuild_opponent_industry_other_than_coal_or_iron():
    g = fresh(2)
    give(g, 0, "loc:worcester")
    clear_mat_below(g, 0, "cotton_mill", 2)
    place_tile(g, "worcester:0", 1, "cotton_mill", 1)
    place_tile(g, "worcester:1", 1, "cotton_mill", 1)
    place_link(g, "worcester--gloucester", 1)
    a = Build(0, "loc:worcester", "cotton_mill", "worcester", 0, coal=("market",))
    assert rule_of(g, a) == "build.overbuild"


def test_build_overbuild_needs_a_higher_level():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    clear_mat_below(g, 0, "coal_mine", 2)
    place_tile(g, "dudley:0", 0, "coal_mine", 2)
    assert rule_of(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0)) == "build.overbuild"


def test_build_overbuild_needs_the_same_industry():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "birmingham:0", 0, "cotton_mill", 1)
    a = Build(0, "loc:birmingham", "manufacturer", "birmingham", 0)
    assert rule_of(g, a) == "build.overbuild"


def test_build_overbuild_own_tile_removes_it_and_its_cubes():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 0, "coal_mine", 1, resources=1)
    income, vp = g.players[0].income_space, g.players[0].vp
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    t = g2.tiles["dudley:0"]
    assert (t.level, t.resources, t.flipped) == (2, 3, False)
    assert sum(x.resources for x in g2.tiles.values()) == 3
    assert g2.players[0].money == 17 - 7
    assert (g2.players[0].income_space, g2.players[0].vp) == (income, vp)


def test_build_overbuild_own_flipped_tile_of_any_industry():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:worcester")
    place_tile(g, "worcester:0", 0, "cotton_mill", 1, flipped=True)
    clear_mat_below(g, 0, "cotton_mill", 2)
    g.players[0].income_space = 15
    place_link(g, "worcester--gloucester", 1)
    g2 = act(g, Build(0, "loc:worcester", "cotton_mill", "worcester", 0, coal=("market",)))
    t = g2.tiles["worcester:0"]
    assert (t.level, t.flipped) == (2, False)
    assert g2.players[0].income_space == 15


def test_build_overbuild_resource_gone_coal_left_in_the_market():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 1, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    set_markets(g, coal=1)
    assert rule_of(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0)) == "build.overbuild_resource_gone"


def test_build_overbuild_resource_gone_coal_left_on_another_mine():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 1, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    place_tile(g, "tamworth:0", 1, "coal_mine", 2, resources=1)
    set_markets(g, coal=0)
    assert rule_of(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0)) == "build.overbuild_resource_gone"


def test_build_overbuild_resource_gone_opponent_coal_mine_when_no_coal_anywhere():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 1, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    g.players[1].income_space = 14
    set_markets(g, coal=0)
    g2 = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    t = g2.tiles["dudley:0"]
    assert (t.owner, t.level, t.resources) == (0, 2, 3)
    assert g2.players[1].income_space == 14
    assert g2.players[1].mat["coal_mine"] == (0, 2, 2, 2)


def test_build_overbuild_resource_gone_opponent_iron_works_when_no_iron_anywhere():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:1", 1, "iron_works", 1, flipped=True)
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    set_markets(g, iron=0)
    assert rule_of(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",))) == (
        "build.overbuild"
    )  # level 1 on level 1
    clear_mat_below(g, 0, "iron_works", 2)
    g2 = act(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",)))
    t = g2.tiles["dudley:1"]
    assert (t.owner, t.level) == (0, 2)
    assert g2.iron_market == 4  # the new tile's 4 iron went to the empty market: 5 + 5 + 4 + 4
    assert g2.players[0].money == 17 - 7 + 18


# -- coal connection (coal.closest_mine / coal.market) ---------------------------------------------


def test_coal_closest_mine_coal_from_a_connected_mine_is_free():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_link(g, "dudley--birmingham", 1)
    g2 = act(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal=("dudley:0",)))
    assert g2.tiles["dudley:0"].resources == 1
    assert g2.players[0].money == 17 - 8
    assert g2.coal_market == 13


def test_coal_market_unconnected_mine_cannot_supply_coal():
    """With no connected mine and no merchant connection the build is refused under coal.market;
    naming the unconnected mine breaks coal.connected."""
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    assert rule_of(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1)) == "coal.market"
    assert rule_of(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal=("dudley:0",))) == (
        "coal.connected"
    )
