"""Sell action: which tiles, which merchants, beer, flipping and income, merchant beer bonuses."""

from __future__ import annotations

import pytest
from helpers import act, clear_mat_below, fresh, give, merchant, place_link, place_tile, rule_of, set_merchants

from brass_stats.engine import Sale, Sell, apply_action
from brass_stats.errors import AmbiguousChoice


def oxford_game(players: int = 2):
    """Player 0's Manufacturer I in Birmingham, linked to Oxford (manufacturer + cotton tiles there)."""
    g = fresh(players)
    give(g, 0, "loc:leek")
    set_merchants(g, {"oxford": ["manufacturer", "cotton_mill"], "gloucester": ["all", "blank"]})
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_link(g, "birmingham--oxford", 1)
    return g


# -- sell.tile --------------------------------------------------------------------------------


def test_sell_tile_flipped_tile_cannot_be_sold_again():
    g = oxford_game()
    g.tiles["birmingham:1"].flipped = True
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),))) == "sell.tile"


def test_sell_tile_opponents_tile_cannot_be_sold():
    g = oxford_game()
    place_tile(g, "birmingham:3", 1, "manufacturer", 1)
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:3", "oxford", beer=("merchant",)),))) == "sell.tile"


@pytest.mark.parametrize("industry", ["coal_mine", "iron_works", "brewery"])
def test_sell_tile_only_cotton_manufacturer_pottery(industry):
    g = oxford_game()
    slot = {"coal_mine": "redditch:0", "iron_works": "redditch:1", "brewery": "nuneaton:0"}[industry]
    place_tile(g, slot, 0, industry, 1)
    assert rule_of(g, Sell(0, "loc:leek", (Sale(slot, "oxford"),))) == "sell.tile"


def test_sell_tile_empty_space():
    g = oxford_game()
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:3", "oxford"),))) == "sell.tile"


def test_sell_flips_the_tile_and_raises_income():
    g = oxford_game()
    place_tile(g, "nuneaton:0", 0, "brewery", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("nuneaton:0",)),)))
    assert g2.tiles["birmingham:1"].flipped
    assert g2.players[0].money == 17
    assert g2.players[0].spent == 0
    assert g2.tiles["nuneaton:0"].flipped  # its last barrel went: Brewery I flips too
    assert g2.players[0].income_space == 10 + 5 + 4
    assert merchant(g2, "oxford", 0).beer


def test_sell_own_brewery_keeps_its_other_barrel_and_stays_unflipped():
    g = oxford_game()
    place_tile(g, "nuneaton:0", 0, "brewery", 2, resources=2)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("nuneaton:0",)),)))
    assert g2.tiles["nuneaton:0"].resources == 1
    assert not g2.tiles["nuneaton:0"].flipped
    assert g2.players[0].income_space == 15


# -- sell.merchant -----------------------------------------------------------------------------


def test_sell_merchant_tile_not_connected():
    g = oxford_game()
    del g.links["birmingham--oxford"]
    g.touch_board()
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),))) == "sell.merchant"


def test_sell_merchant_does_not_buy_that_good():
    g = oxford_game()
    set_merchants(g, {"oxford": ["cotton_mill", "blank"]})
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),))) == "sell.merchant"


def test_sell_merchant_stated_merchant_tile_does_not_buy_that_good():
    g = oxford_game()
    sale = Sale("birmingham:1", "oxford", merchant_space=1, beer=("merchant",))
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "sell.merchant"


def test_sell_merchant_location_without_merchant_tiles():
    g = oxford_game()  # 2 players: no merchant tiles at Warrington
    place_tile(g, "stoke_on_trent:2", 0, "manufacturer", 2)
    place_link(g, "warrington--stoke_on_trent", 1)
    place_tile(g, "nuneaton:0", 0, "brewery", 1)
    sale = Sale("stoke_on_trent:2", "warrington", beer=("nuneaton:0",))
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "sell.merchant"


def test_sell_merchant_connected_through_several_links_of_any_owner():
    g = oxford_game()
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_link(g, "birmingham--worcester", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("worcester:0", "oxford", beer=("merchant",)),)))
    assert g2.tiles["worcester:0"].flipped
    assert not merchant(g2, "oxford", 1).beer


def test_sell_merchant_accepting_all_goods_buys_pottery():
    g = oxford_game()
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)  # unrelated tile
    place_tile(g, "redditch:0", 0, "manufacturer", 2)
    place_link(g, "gloucester--redditch", 1)
    place_tile(g, "coventry:0", 0, "pottery", 1)
    place_link(g, "birmingham--coventry", 1)
    place_link(g, "birmingham--worcester", 1)
    place_link(g, "worcester--gloucester", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("coventry:0", "gloucester", beer=("merchant",), bonus_develop="coal_mine"),)))
    assert g2.tiles["coventry:0"].flipped
    assert g2.players[0].income_space == 15


# -- sell.merchant_beer and beer -----------------------------------------------------------------


def test_sell_merchant_beer_no_barrel_left():
    g = oxford_game()
    merchant(g, "oxford", 0).beer = False
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),))) == (
        "sell.merchant_beer"
    )


def test_sell_merchant_beer_one_barrel_per_merchant_tile():
    g = oxford_game()
    place_tile(g, "birmingham:3", 0, "manufacturer", 2)
    two = (
        Sale("birmingham:1", "oxford", beer=("merchant",)),
        Sale("birmingham:3", "oxford", beer=("merchant",)),
    )
    assert rule_of(g, Sell(0, "loc:leek", two)) == "sell.merchant_beer"


def test_sell_merchant_beer_gives_the_oxford_bonus_of_2_income_spaces():
    g = oxford_game()
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),)))
    assert g2.players[0].income_space == 10 + 5 + 2
    assert not merchant(g2, "oxford", 0).beer
    assert merchant(g2, "oxford", 1).beer
    assert g2.players[0].money == 17


def test_sell_merchant_beer_bonus_needs_the_barrel_not_just_the_sale():
    g = oxford_game()
    place_tile(g, "nuneaton:0", 0, "brewery", 2, resources=2)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("nuneaton:0",)),)))
    assert g2.players[0].income_space == 15
    assert merchant(g2, "oxford", 0).beer


def test_sell_merchant_beer_two_tiles_with_barrels_needs_the_space_stated():
    g = oxford_game()
    set_merchants(g, {"oxford": ["all", "all"]})
    a = Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),))
    with pytest.raises(AmbiguousChoice):
        apply_action(g, a)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", merchant_space=1, beer=("merchant",)),)))
    assert merchant(g2, "oxford", 0).beer and not merchant(g2, "oxford", 1).beer


def test_sell_beer_from_unconnected_opponent_brewery_refused():
    g = oxford_game()
    place_tile(g, "nuneaton:0", 1, "brewery", 1)
    sale = Sale("birmingham:1", "oxford", beer=("nuneaton:0",))
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "beer.source"


def test_sell_beer_from_connected_opponent_brewery_flips_it_for_the_opponent():
    g = oxford_game()
    place_tile(g, "nuneaton:0", 1, "brewery", 1)
    place_link(g, "birmingham--nuneaton", 1)  # (a rail line; placed directly for the test)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("nuneaton:0",)),)))
    assert g2.tiles["nuneaton:0"].flipped
    assert g2.players[1].income_space == 14
    assert g2.players[0].income_space == 15


def test_sell_without_any_beer_refused():
    g = oxford_game()
    merchant(g, "oxford", 0).beer = False
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford"),))) == "beer.source"


def test_sell_tile_needing_no_beer_sells_without_beer_and_without_bonus():
    g = oxford_game()
    clear_mat_below(g, 0, "manufacturer", 3)
    place_tile(g, "birmingham:3", 0, "manufacturer", 3)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:3", "oxford"),)))
    assert g2.tiles["birmingham:3"].flipped
    assert g2.players[0].income_space == 14
    assert merchant(g2, "oxford", 0).beer


def test_sell_tile_needing_two_beer_from_merchant_and_brewery():
    g = oxford_game()
    clear_mat_below(g, 0, "manufacturer", 5)
    place_tile(g, "birmingham:3", 0, "manufacturer", 5)
    place_tile(g, "nuneaton:0", 0, "brewery", 2, resources=2)
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:3", "oxford", beer=("merchant", "nuneaton:0")),)))
    assert g2.players[0].income_space == 10 + 2 + 2
    assert g2.tiles["nuneaton:0"].resources == 1
    assert rule_of(g, Sell(0, "loc:leek", (Sale("birmingham:3", "oxford", beer=("merchant",)),))) == "beer.count"


def test_sell_several_tiles_in_one_action():
    g = oxford_game()
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_link(g, "birmingham--worcester", 1)
    place_tile(g, "nuneaton:0", 0, "brewery", 2, resources=2)
    sales = (
        Sale("birmingham:1", "oxford", beer=("merchant",)),
        Sale("worcester:0", "oxford", beer=("nuneaton:0",)),
    )
    g2 = act(g, Sell(0, "loc:leek", sales))
    assert g2.tiles["birmingham:1"].flipped and g2.tiles["worcester:0"].flipped
    assert g2.players[0].income_space == 10 + 5 + 2 + 5
    assert len(g2.players[0].hand) == 8  # first canal round: one action, hand refilled


# -- merchant bonuses ----------------------------------------------------------------------------


def test_sell_bonus_warrington_gives_5_pounds():
    g = fresh(4)
    give(g, 0, "loc:leek")
    set_merchants(g, {"warrington": ["manufacturer", "blank"]})
    place_tile(g, "stoke_on_trent:2", 0, "manufacturer", 1)
    place_link(g, "warrington--stoke_on_trent", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("stoke_on_trent:2", "warrington", beer=("merchant",)),)))
    assert g2.players[0].money == 22
    assert g2.players[0].spent == 0
    assert g2.players[0].income_space == 15


def test_sell_bonus_nottingham_gives_3_vp():
    g = fresh(4)
    give(g, 0, "loc:leek")
    set_merchants(g, {"nottingham": ["cotton_mill", "manufacturer"]})
    place_tile(g, "derby:1", 0, "manufacturer", 1)
    place_link(g, "derby--nottingham", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("derby:1", "nottingham", beer=("merchant",)),)))
    assert g2.players[0].vp == 3
    assert g2.players[0].income_space == 15


def test_sell_bonus_shrewsbury_gives_4_vp():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_merchants(g, {"shrewsbury": ["all"]})
    place_tile(g, "kidderminster:1", 0, "cotton_mill", 1)
    place_link(g, "coalbrookdale--kidderminster", 1)
    place_link(g, "coalbrookdale--shrewsbury", 1)
    g2 = act(g, Sell(0, "loc:leek", (Sale("kidderminster:1", "shrewsbury", beer=("merchant",)),)))
    assert g2.players[0].vp == 4
    assert g2.players[0].income_space == 15


def test_sell_bonus_oxford_income_capped_at_the_top_of_the_track():
    g = oxford_game()
    g.players[0].income_space = 94
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),)))
    assert g2.players[0].income_space == 99
    assert g2.income_level(0) == 30


def gloucester_game():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_merchants(g, {"gloucester": ["all", "blank"]})
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_link(g, "worcester--gloucester", 1)
    return g


def test_sell_bonus_develop_gloucester_removes_the_lowest_tile_without_iron():
    g = gloucester_game()
    sale = Sale("worcester:0", "gloucester", beer=("merchant",), bonus_develop="iron_works")
    g2, done = apply_action(g, Sell(0, "loc:leek", (sale,)))
    assert g2.players[0].mat["iron_works"] == (0, 1, 1, 1)
    assert g2.iron_market == 8
    assert g2.players[0].money == 17
    assert g2.players[0].income_space == 15
    assert done.sales[0].bonus_develop == "iron_works"


def test_sell_bonus_develop_not_a_lightbulb_pottery():
    """The engine reports this under develop.lightbulb (the rule text of sell.bonus_develop says the same)."""
    g = gloucester_game()
    sale = Sale("worcester:0", "gloucester", beer=("merchant",), bonus_develop="pottery")
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "develop.lightbulb"
    clear_mat_below(g, 0, "pottery", 2)
    g2 = act(g, Sell(0, "loc:leek", (sale,)))
    assert g2.players[0].mat["pottery"] == (0, 0, 1, 1, 1)


def test_sell_bonus_develop_only_with_gloucester_merchant_beer():
    g = gloucester_game()
    place_tile(g, "nuneaton:0", 0, "brewery", 1)
    sale = Sale("worcester:0", "gloucester", beer=("nuneaton:0",), bonus_develop="iron_works")
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "sell.bonus_develop"


def test_sell_bonus_develop_not_at_another_merchant():
    g = oxford_game()
    sale = Sale("birmingham:1", "oxford", beer=("merchant",), bonus_develop="iron_works")
    assert rule_of(g, Sell(0, "loc:leek", (sale,))) == "sell.bonus_develop"


def test_sell_bonus_develop_choice_must_be_stated():
    g = gloucester_game()
    a = Sell(0, "loc:leek", (Sale("worcester:0", "gloucester", beer=("merchant",)),))
    assert rule_of(g, a) == "log.choice_stated"


# -- sell.at_least_one ---------------------------------------------------------------------------


def test_sell_at_least_one_tile():
    g = oxford_game()
    assert rule_of(g, Sell(0, "loc:leek", ())) == "sell.at_least_one"


def test_sell_at_least_one_a_single_sale_is_enough():
    g = oxford_game()
    g2 = act(g, Sell(0, "loc:leek", (Sale("birmingham:1", "oxford", beer=("merchant",)),)))
    assert sum(t.flipped for t in g2.tiles.values()) == 1
