"""Consuming coal, iron and beer; flipping tiles when their last cube or barrel goes; the income cap."""

from __future__ import annotations

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

from brass_stats.engine import Build, Develop, Sale, Sell, apply_action


def birmingham_build(coal: tuple[str, ...] | None = None) -> Build:
    """Player 0 builds its next Manufacturer in Birmingham's single-icon space 1."""
    return Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal=coal)


def coal_game():
    """Player 1's mines at Dudley (1 link from Birmingham, 1 coal) and Wolverhampton (2 links away, 2 coal)."""
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1, resources=1)
    place_tile(g, "wolverhampton:1", 1, "coal_mine", 2, resources=2)
    place_link(g, "dudley--birmingham", 1)
    place_link(g, "wolverhampton--dudley", 1)
    return g


# -- coal.closest_mine ---------------------------------------------------------------------------


def test_coal_closest_mine_farther_mine_refused():
    g = coal_game()
    assert rule_of(g, birmingham_build(("wolverhampton:1",))) == "coal.closest_mine"


def test_coal_closest_mine_closest_mine_used_and_flipped_for_its_owner():
    g = coal_game()
    g2, done = apply_action(g, birmingham_build())
    assert done.coal == ("dudley:0",)
    t = g2.tiles["dudley:0"]
    assert (t.resources, t.flipped) == (0, True)
    assert g2.players[1].income_space == 14  # the owner's income rises, though it is player 0's turn
    assert g2.players[0].income_space == 10
    assert g2.players[0].money == 17 - 8


def test_coal_closest_mine_next_closest_when_the_closest_runs_out():
    g = coal_game()
    clear_mat_below(g, 0, "manufacturer", 3)  # Manufacturer III needs 2 coal
    g2 = act(g, birmingham_build(("dudley:0", "wolverhampton:1")))
    assert g2.tiles["dudley:0"].resources == 0
    assert g2.tiles["wolverhampton:1"].resources == 1
    assert g2.players[0].money == 17 - 12
    assert rule_of(g, birmingham_build(("wolverhampton:1", "dudley:0"))) == "coal.closest_mine"


def test_coal_closest_mine_market_refused_while_a_connected_mine_has_coal():
    g = coal_game()
    place_link(g, "birmingham--oxford", 1)
    assert rule_of(g, birmingham_build(("market",))) == "coal.closest_mine"


def test_coal_closest_mine_mine_in_the_same_location_is_closest():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:dudley")
    place_tile(g, "dudley:0", 1, "coal_mine", 2)
    place_tile(g, "wolverhampton:1", 1, "coal_mine", 2)
    place_link(g, "wolverhampton--dudley", 1)
    clear_mat_below(g, 0, "iron_works", 2)
    a = Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("wolverhampton:1",))
    assert rule_of(g, a) == "coal.closest_mine"
    g2 = act(g, Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",)))
    assert g2.tiles["dudley:0"].resources == 2


def test_coal_closest_mine_equally_close_mines_either_may_be_chosen():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_tile(g, "tamworth:0", 0, "coal_mine", 1)
    place_link(g, "dudley--birmingham", 1)
    place_link(g, "tamworth--birmingham", 1)
    assert act(g, birmingham_build(("dudley:0",))).tiles["dudley:0"].resources == 1
    assert act(g, birmingham_build(("tamworth:0",))).tiles["tamworth:0"].resources == 1


def test_coal_closest_mine_flipped_mine_is_not_a_source():
    g = coal_game()
    g.tiles["dudley:0"].resources = 0
    g.tiles["dudley:0"].flipped = True
    assert rule_of(g, birmingham_build(("dudley:0",))) == "source.unknown"  # flipped: no coal left on it
    g2 = act(g, birmingham_build(("wolverhampton:1",)))
    assert g2.tiles["wolverhampton:1"].resources == 1


def test_coal_connected_unconnected_mine_is_not_a_source():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_link(g, "birmingham--oxford", 1)
    assert rule_of(g, birmingham_build(("dudley:0",))) == "coal.connected"
    g2 = act(g, birmingham_build(("market",)))
    assert g2.tiles["dudley:0"].resources == 2
    assert g2.coal_market == 12


# -- coal.market ----------------------------------------------------------------------------------


def test_coal_market_bought_cheapest_first_when_connected_to_a_merchant():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    clear_mat_below(g, 0, "manufacturer", 3)
    place_link(g, "birmingham--oxford", 1)
    g2 = act(g, birmingham_build(("market", "market")))
    assert g2.coal_market == 11
    assert g2.players[0].money == 17 - 12 - 1 - 2
    assert g2.players[0].spent == 15


def test_coal_market_empty_market_still_sells_at_8():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    set_markets(g, coal=0)
    place_link(g, "birmingham--oxford", 1)
    g2 = act(g, birmingham_build(("market",)))
    assert g2.coal_market == 0
    assert g2.players[0].money == 17 - 8 - 8


def test_coal_market_needs_a_connection_to_a_merchant():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    assert rule_of(g, birmingham_build(("market",))) == "coal.market"
    assert rule_of(g, birmingham_build()) == "coal.market"


def test_coal_market_merchant_location_without_tiles_counts():
    g = fresh(2)  # Warrington has no merchant tile in a 2-player game but shows the coal icon
    give(g, 0, "loc:stoke_on_trent")
    place_link(g, "warrington--stoke_on_trent", 1)
    a = Build(0, "loc:stoke_on_trent", "manufacturer", "stoke_on_trent", 2, coal=("market",))
    g2 = act(g, a)
    assert g2.coal_market == 12


# -- coal.count ---------------------------------------------------------------------------------


def test_coal_count_stated_sources_must_match_the_coal_needed():
    g = coal_game()
    assert rule_of(g, birmingham_build(("dudley:0", "wolverhampton:1"))) == "coal.count"
    assert rule_of(g, birmingham_build(())) == "coal.count"
    give(g, 0, "loc:cannock")
    assert rule_of(g, Build(0, "loc:cannock", "coal_mine", "cannock", 1, coal=("dudley:0",))) == "coal.count"


# -- iron.works_first ---------------------------------------------------------------------------


def iron_game():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "coalbrookdale:1", 1, "iron_works", 1, resources=1)
    return g


def test_iron_works_first_market_refused_while_an_iron_works_has_iron():
    g = iron_game()
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine",), iron=("market",))) == "iron.works_first"


def test_iron_works_first_any_iron_works_not_the_closest():
    g = iron_game()
    place_tile(g, "dudley:1", 0, "iron_works", 1, resources=3)
    place_link(g, "kidderminster--dudley", 0)
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine",), iron=("coalbrookdale:1",)))
    t = g2.tiles["coalbrookdale:1"]
    assert (t.resources, t.flipped) == (0, True)
    assert g2.players[1].income_space == 13
    g3 = act(g, Develop(0, "loc:leek", ("coal_mine",), iron=("dudley:1",)))
    assert g3.tiles["dudley:1"].resources == 2


def test_iron_works_first_then_market_when_the_works_run_out():
    g = iron_game()
    g2 = act(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("coalbrookdale:1", "market")))
    assert g2.iron_market == 7
    assert g2.players[0].money == 15
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine", "brewery"), iron=("market", "coalbrookdale:1"))) == (
        "iron.works_first"
    )


def test_iron_works_first_flipped_iron_works_is_not_a_source():
    g = iron_game()
    g.tiles["coalbrookdale:1"].resources = 0
    g.tiles["coalbrookdale:1"].flipped = True
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine",), iron=("coalbrookdale:1",))) == "source.unknown"


def test_iron_works_first_build_uses_iron_works_iron_for_free():
    g = iron_game()
    give(g, 0, "loc:burton_on_trent")
    g2 = act(g, Build(0, "loc:burton_on_trent", "brewery", "burton_on_trent", 1, iron=("coalbrookdale:1",)))
    assert g2.players[0].money == 12
    assert g2.iron_market == 8


# -- iron.count ----------------------------------------------------------------------------------


def test_iron_count_stated_sources_must_match_the_iron_needed():
    g = iron_game()
    give(g, 0, "loc:burton_on_trent")
    a = Build(0, "loc:burton_on_trent", "brewery", "burton_on_trent", 1, iron=())
    assert rule_of(g, a) == "iron.count"
    a = Build(0, "loc:burton_on_trent", "coal_mine", "burton_on_trent", 0, iron=("coalbrookdale:1",))
    assert rule_of(g, a) == "iron.count"


# -- beer.source and beer.count -----------------------------------------------------------------


def beer_game():
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_link(g, "birmingham--oxford", 1)
    for ms in g.merchant_spaces:
        if ms.location == "oxford":
            ms.beer = False
            ms.accepts = frozenset({"manufacturer"})
    return g


def test_beer_source_own_brewery_needs_no_connection():
    g = beer_game()
    place_tile(g, "stafford:0", 0, "brewery", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("stafford:0",)),)))
    assert g2.tiles["stafford:0"].flipped
    assert g2.players[0].income_space == 10 + 5 + 4


def test_beer_source_opponent_brewery_must_be_connected():
    g = beer_game()
    place_tile(g, "stafford:0", 1, "brewery", 1)
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("stafford:0",)),))) == "beer.source"
    place_link(g, "walsall--birmingham", 1)
    place_link(g, "cannock--walsall", 1)
    place_link(g, "stafford--cannock", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("stafford:0",)),)))
    assert g2.players[1].income_space == 14


def test_beer_source_flipped_brewery_has_no_beer():
    g = beer_game()
    place_tile(g, "stafford:0", 0, "brewery", 1, flipped=True)
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("stafford:0",)),))) == "source.unknown"


def test_beer_count_stated_barrels_must_match_the_beer_needed():
    g = beer_game()
    place_tile(g, "stafford:0", 0, "brewery", 2, resources=2)
    two = ("stafford:0", "stafford:0")
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=two),))) == "beer.count"
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=()),))) == "beer.count"


# -- source.unknown -------------------------------------------------------------------------------


def test_source_unknown_named_coal_source_that_is_not_a_coal_mine():
    g = coal_game()
    assert rule_of(g, birmingham_build(("narnia:0",))) == "source.unknown"
    assert rule_of(g, birmingham_build(("birmingham:2",))) == "source.unknown"


def test_source_unknown_named_iron_source_that_is_not_an_iron_works():
    g = iron_game()
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    assert rule_of(g, Develop(0, "loc:leek", ("coal_mine",), iron=("dudley:0",))) == "source.unknown"


def test_source_unknown_named_beer_source_that_is_not_a_brewery():
    g = beer_game()
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("dudley:0",)),))) == "source.unknown"


# -- flipping and the income cap ----------------------------------------------------------------------


def test_flip_when_last_cube_leaves_raises_income_capped_at_level_30():
    g = coal_game()
    g.players[1].income_space = 97
    g2 = act(g, birmingham_build())
    assert g2.players[1].income_space == 99
    assert g2.income_level(1) == 30


def test_flip_happens_once_and_cubes_never_go_negative():
    g = coal_game()
    clear_mat_below(g, 0, "manufacturer", 3)
    set_money(g, 0, 30)
    g2 = act(g, birmingham_build(("dudley:0", "wolverhampton:1")))
    assert g2.players[1].income_space == 14  # Dudley flipped (+4); Wolverhampton still has a cube
    assert [t.resources for t in g2.tiles.values() if t.industry == "coal_mine"] == [0, 1]
