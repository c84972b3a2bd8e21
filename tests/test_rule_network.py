"""Network action: adjacency, undeveloped lines, eras, link counts and costs, rail coal and double-link beer."""

from __future__ import annotations

import pytest
from helpers import act, fresh, give, place_link, place_tile, rule_of, set_markets, set_money, to_rail_era

from brass_stats.engine import Network, apply_action

# -- network.adjacent ------------------------------------------------------------------------


def test_network_adjacent_link_away_from_the_network():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    assert rule_of(g, Network(0, "loc:leek", ("birmingham--coventry",))) == "network.adjacent"


def test_network_adjacent_link_touching_a_location_with_own_tile():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    g2 = act(g, Network(0, "loc:leek", ("dudley--birmingham",)))
    assert g2.links == {"dudley--birmingham": 0}
    assert g2.players[0].money == 17 - 3
    assert g2.players[0].spent == 3
    assert g2.players[0].link_tiles == 13
    assert g2.players[0].discard[-1] == "loc:leek"


def test_network_adjacent_link_extending_from_own_link():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_link(g, "dudley--birmingham", 0)
    g2 = act(g, Network(0, "loc:leek", ("birmingham--coventry",)))
    assert g2.links["birmingham--coventry"] == 0


def test_network_adjacent_opponents_pieces_do_not_count():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_tile(g, "birmingham:1", 1, "manufacturer", 1)
    place_link(g, "dudley--birmingham", 1)
    assert rule_of(g, Network(0, "loc:leek", ("birmingham--coventry",))) == "network.adjacent"


def test_network_adjacent_no_pieces_on_board_any_line():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_link(g, "dudley--birmingham", 1)
    g2 = act(g, Network(0, "loc:leek", ("redditch--oxford",)))
    assert g2.links["redditch--oxford"] == 0


def test_network_adjacent_farm_brewery_south_is_in_network_via_kidderminster_worcester():
    g = fresh(2)
    give(g, 0, "ind:brewery")
    place_tile(g, "farm_brewery_south:0", 0, "brewery", 1)
    g2 = act(g, Network(0, "ind:brewery", ("kidderminster--worcester",)))
    assert g2.links["kidderminster--worcester"] == 0


# -- network.undeveloped ----------------------------------------------------------------------


@pytest.mark.parametrize("owner", [0, 1])
def test_network_undeveloped_line_already_has_a_link(owner):
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    place_link(g, "dudley--birmingham", owner)
    assert rule_of(g, Network(0, "loc:leek", ("dudley--birmingham",))) == "network.undeveloped"


def test_network_undeveloped_same_line_twice_in_one_action():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 0, "coal_mine", 2)
    place_tile(g, "stafford:0", 0, "brewery", 2)
    a = Network(0, "loc:leek", ("dudley--birmingham", "dudley--birmingham"))
    assert rule_of(g, a) == "network.undeveloped"


# -- network.era ---------------------------------------------------------------------------------


@pytest.mark.parametrize("link", ["leek--belper", "birmingham--nuneaton", "cannock--burton_on_trent"])
def test_network_era_no_rail_links_in_the_canal_era(link):
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Network(0, "loc:leek", (link,))) == "network.era"


def test_network_era_no_canal_links_in_the_rail_era():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    assert rule_of(g, Network(0, "loc:leek", ("walsall--burton_on_trent",))) == "network.era"


def test_network_era_canal_line_in_canal_era_and_rail_line_in_rail_era():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert act(g, Network(0, "loc:leek", ("walsall--burton_on_trent",))).links == {"walsall--burton_on_trent": 0}
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_link(g, "birmingham--oxford", 1)
    g2 = act(g, Network(0, "loc:leek", ("birmingham--nuneaton",), coal=("market",)))
    assert g2.links["birmingham--nuneaton"] == 0


# -- network.count and link costs ------------------------------------------------------------------


def test_network_count_one_canal_link_per_action():
    g = fresh(2)
    give(g, 0, "loc:leek")
    a = Network(0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"))
    assert rule_of(g, a) == "network.count"


def test_network_count_at_most_two_rail_links_and_at_least_one():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    three = ("dudley--birmingham", "birmingham--coventry", "birmingham--oxford")
    assert rule_of(g, Network(0, "loc:leek", three)) == "network.count"
    assert rule_of(g, Network(0, "loc:leek", ())) == "network.count"


def test_network_canal_link_costs_3():
    g = fresh(2)
    give(g, 0, "loc:leek")
    g2 = act(g, Network(0, "loc:leek", ("dudley--birmingham",)))
    assert (g2.players[0].money, g2.players[0].spent) == (14, 3)
    assert (g2.coal_market, g2.tiles) == (13, {})


def test_network_rail_link_costs_5_and_one_coal_from_the_closest_mine():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 1, "coal_mine", 2)
    g2 = act(g, Network(0, "loc:leek", ("dudley--birmingham",), coal=("dudley:0",)))
    assert g2.players[0].money == 12
    assert g2.tiles["dudley:0"].resources == 2


def test_network_rail_link_coal_from_market_when_connected_to_merchant():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    g2 = act(g, Network(0, "loc:leek", ("birmingham--oxford",), coal=("market",)))
    assert g2.players[0].money == 17 - 5 - 1
    assert g2.players[0].spent == 6
    assert g2.coal_market == 12


def test_network_rail_link_without_any_coal_source_is_refused():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    assert rule_of(g, Network(0, "loc:leek", ("dudley--birmingham",))) == "coal.market"


def test_network_rail_link_coal_count_must_match_the_links():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    assert rule_of(g, Network(0, "loc:leek", ("birmingham--oxford",), coal=())) == "coal.count"
    two = ("market", "market")
    assert rule_of(g, Network(0, "loc:leek", ("birmingham--oxford",), coal=two)) == "coal.count"
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Network(0, "loc:leek", ("birmingham--oxford",), coal=("market",))) == "coal.count"


def _double_rail():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:0", 0, "coal_mine", 2)
    return g


def test_network_double_rail_costs_15_two_coal_and_a_barrel_from_own_unconnected_brewery():
    g = _double_rail()
    place_tile(g, "stafford:0", 0, "brewery", 2, resources=1)
    g.players[0].income_space = 12
    a = Network(0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"), coal=("dudley:0", "dudley:0"))
    g2, done = apply_action(g, a)
    assert done.beer == "stafford:0"
    assert g2.links == {"dudley--birmingham": 0, "birmingham--coventry": 0}
    assert g2.players[0].money == 2
    assert g2.players[0].spent == 15
    assert g2.tiles["dudley:0"].resources == 1
    assert g2.tiles["stafford:0"].resources == 0
    assert g2.tiles["stafford:0"].flipped
    assert g2.players[0].income_space == 12 + 5


def test_network_double_rail_second_link_coal_through_the_first_link():
    g = _double_rail()
    place_tile(g, "stafford:0", 0, "brewery", 2)
    a = Network(0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"), coal=("dudley:0", "market"))
    assert rule_of(g, a) == "coal.closest_mine"


def test_network_double_beer_merchant_beer_does_not_count():
    g = _double_rail()
    place_link(g, "birmingham--oxford", 1)
    a = Network(0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"), coal=("dudley:0", "dudley:0"))
    assert rule_of(g, a) == "network.double_beer"
    a = Network(
        0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"), coal=("dudley:0", "dudley:0"), beer="merchant"
    )
    assert rule_of(g, a) == "network.double_beer"


def _two_separate_links():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "wolverhampton:1", 0, "coal_mine", 2)
    place_tile(g, "nuneaton:1", 0, "coal_mine", 2)
    place_tile(g, "walsall:1", 1, "brewery", 2)
    return g


def test_network_double_beer_opponent_brewery_must_connect_to_the_second_link():
    g = _two_separate_links()
    a = Network(
        0,
        "loc:leek",
        ("walsall--wolverhampton", "tamworth--nuneaton"),
        coal=("wolverhampton:1", "nuneaton:1"),
        beer="walsall:1",
    )
    assert rule_of(g, a) == "network.double_beer"


def test_network_double_beer_opponent_brewery_connected_to_the_second_link():
    g = _two_separate_links()
    a = Network(
        0,
        "loc:leek",
        ("tamworth--nuneaton", "walsall--wolverhampton"),
        coal=("nuneaton:1", "wolverhampton:1"),
        beer="walsall:1",
    )
    g2 = act(g, a)
    assert g2.tiles["walsall:1"].resources == 1
    assert g2.players[0].money == 2


def test_network_double_beer_opponent_brewery_flips_for_its_owner():
    g = _two_separate_links()
    g.tiles["walsall:1"].resources = 1
    a = Network(0, "loc:leek", ("tamworth--nuneaton", "walsall--wolverhampton"), coal=("nuneaton:1", "wolverhampton:1"))
    g2 = act(g, a)
    assert g2.tiles["walsall:1"].flipped
    assert g2.players[1].income_space == 15
    assert g2.players[0].income_space == 10


def test_network_beer_count_beer_only_for_two_rail_links():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "stafford:0", 0, "brewery", 2)
    a = Network(0, "loc:leek", ("birmingham--oxford",), coal=("market",), beer="stafford:0")
    assert rule_of(g, a) == "beer.count"


def test_network_double_rail_needs_15_pounds():
    g = _double_rail()
    place_tile(g, "stafford:0", 0, "brewery", 2)
    set_money(g, 0, 14)
    a = Network(0, "loc:leek", ("dudley--birmingham", "birmingham--coventry"), coal=("dudley:0", "dudley:0"))
    assert rule_of(g, a) == "money.afford"


def test_network_rail_coal_market_price_rises_per_cube():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "stafford:0", 0, "brewery", 2)
    place_link(g, "redditch--oxford", 0)
    set_markets(g, coal=2)  # £7 then £7
    a = Network(0, "loc:leek", ("birmingham--oxford", "birmingham--coventry"), coal=("market", "market"))
    set_money(g, 0, 29)
    g2 = act(g, a)
    assert g2.players[0].money == 0
    assert g2.coal_market == 0
    set_markets(g, coal=1)  # £7 then the empty market's £8
    set_money(g, 0, 30)
    g3 = act(g, a)
    assert g3.players[0].money == 0
    assert g3.coal_market == 0


def test_network_double_rail_each_link_needs_coal_when_it_is_placed():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:leek")
    place_tile(g, "worcester:0", 0, "cotton_mill", 2)
    place_tile(g, "stafford:0", 0, "brewery", 2)
    place_tile(g, "coventry:1", 1, "coal_mine", 2)
    links = ("birmingham--worcester", "birmingham--coventry")
    # the first link is not yet connected to the Coventry mine, and nothing connects it to a merchant
    assert rule_of(g, Network(0, "loc:leek", links)) == "coal.market"
    assert rule_of(g, Network(0, "loc:leek", links, coal=("coventry:1", "coventry:1"))) == "coal.connected"
    place_link(g, "worcester--gloucester", 1)
    g2 = act(g, Network(0, "loc:leek", links, coal=("market", "coventry:1"), beer="stafford:0"))
    assert g2.coal_market == 12
    assert g2.tiles["coventry:1"].resources == 2
    assert g2.players[0].money == 17 - 15 - 1
