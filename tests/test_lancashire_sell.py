"""Brass: Lancashire Sell action: cotton to a connected unflipped Port, or to the Distant Cotton Market.

Rulebook, Sell Action: choose one of your unflipped Cotton Mills; sell to an unflipped Port tile it is
connected to (the port flips and its owner's income rises), or to the Distant Cotton Market when the mill is
connected to a trade icon (flip the top tile, move the marker, take the income beside it; reaching X ends the
Sell action and the mill does not flip); then flip the mill and take its income; repeat for other mills.
"""

from __future__ import annotations

import pytest
from lancashire_helpers import act, fresh, give, place_link, place_tile, rule_of, set_dcm, set_income_space, to_rail_era

from brass_stats.engine import FIRST_OPTION, Sale, Sell, apply_action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState

DCM = "distant_market"
MILL = "warrington_runcorn:0"
PORT = "warrington_runcorn:1"


def port_game() -> GameState:
    """Player 0's Cotton Mill I beside player 1's unflipped Port I, in the same town."""
    g = fresh(2)
    place_tile(g, MILL, 0, "cotton_mill", 1)
    place_tile(g, PORT, 1, "port", 1)
    give(g, 0, "loc:colne")
    return g


def dcm_game(pile=(2, 3, 1, 4), position: int = 0) -> GameState:
    """Player 0's Cotton Mill I in Colne, linked to Yorkshire (a trade icon), and a stacked Distant Market."""
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    place_link(g, "colne--yorkshire", 1)
    set_dcm(g, pile, position)
    give(g, 0, "loc:colne")
    return g


def sell(*sales: tuple[str, str]) -> Sell:
    return Sell(0, "loc:colne", tuple(Sale(tile, buyer) for tile, buyer in sales))


# -- selling to a port ----------------------------------------------------------------------------


def test_lancashire_sell_port_flips_the_port_for_its_owner_then_the_mill():
    g = port_game()
    g2 = act(g, sell((MILL, PORT)))
    assert g2.tiles[PORT].flipped and g2.tiles[MILL].flipped
    assert g2.players[1].income_space == 13  # Port I: +3 spaces for its owner
    assert g2.players[0].income_space == 15  # Cotton Mill I: +5 spaces
    assert g2.players[0].discard == ["loc:colne"]
    assert g2.players[0].money == 30 and g2.players[0].spent == 0
    assert g2.dcm_position == 0 and g2.dcm_drawn == []


def test_lancashire_sell_port_not_connected():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    place_tile(g, "liverpool:0", 1, "port", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, sell(("colne:0", "liverpool:0"))) == "sell.port"


def test_lancashire_sell_port_connected_through_anyones_links():
    g = fresh(2)
    place_tile(g, "manchester:0", 0, "cotton_mill", 1)
    place_tile(g, PORT, 1, "port", 1)
    place_link(g, "manchester--warrington_runcorn", 1)
    give(g, 0, "loc:colne")
    g2 = act(g, sell(("manchester:0", PORT)))
    assert g2.tiles[PORT].flipped and g2.tiles["manchester:0"].flipped


def test_lancashire_sell_port_flipped_port_cannot_buy():
    g = port_game()
    g.tiles[PORT].flipped = True
    assert rule_of(g, sell((MILL, PORT))) == "sell.port"


@pytest.mark.parametrize("buyer", ["liverpool:0", "warrington_runcorn:0", "scotland", "colne:1", "nowhere"])
def test_lancashire_sell_port_buyer_must_be_a_port_tile(buyer):
    g = port_game()
    place_tile(g, "colne:1", 1, "cotton_mill", 1)
    assert rule_of(g, sell((MILL, buyer))) == "sell.port"


def test_lancashire_sell_port_a_port_buys_once():
    g = fresh(2)
    place_tile(g, MILL, 0, "cotton_mill", 1)
    place_tile(g, "manchester:0", 0, "cotton_mill", 1)
    place_link(g, "manchester--warrington_runcorn", 0)
    place_tile(g, PORT, 1, "port", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, sell((MILL, PORT), ("manchester:0", PORT))) == "sell.port"


def test_lancashire_sell_port_own_port_gives_both_incomes():
    g = to_rail_era(fresh(2))
    place_tile(g, MILL, 0, "cotton_mill", 2)
    place_tile(g, PORT, 0, "port", 2)
    give(g, 0, "loc:colne")
    g2 = act(g, sell((MILL, PORT)))
    assert g2.players[0].income_space == 10 + 3 + 4  # Port II +3, Cotton Mill II +4


def test_lancashire_sell_port_several_mills_in_one_action():
    g = fresh(2)
    place_tile(g, MILL, 0, "cotton_mill", 1)
    place_tile(g, PORT, 1, "port", 1)
    place_tile(g, "liverpool:0", 1, "port", 1)
    place_tile(g, "manchester:0", 0, "cotton_mill", 2)
    place_link(g, "manchester--warrington_runcorn", 1)
    place_link(g, "warrington_runcorn--wigan", 1)
    place_link(g, "liverpool--wigan", 1)
    set_dcm(g, [1, 1])
    give(g, 0, "loc:colne")
    g2 = act(g, sell((MILL, PORT), ("manchester:0", "liverpool:0")))
    assert g2.tiles[PORT].flipped and g2.tiles["liverpool:0"].flipped
    assert g2.players[1].income_space == 16
    assert g2.players[0].income_space == 10 + 5 + 4
    g3 = act(g, sell((MILL, DCM), ("manchester:0", PORT)))
    assert g3.players[0].income_space == 10 + 3 + 5 + 4 and g3.dcm_position == 1
    assert g3.tiles[PORT].flipped  # sold to by the second mill only


def test_lancashire_sell_port_income_never_above_level_30():
    g = port_game()
    set_income_space(g, 0, 97)
    set_income_space(g, 1, 98)
    g2 = act(g, sell((MILL, PORT)))
    assert g2.players[0].income_space == 99 and g2.players[1].income_space == 99


# -- selling to the Distant Cotton Market --------------------------------------------------------


def test_lancashire_sell_distant_market_draws_a_tile_moves_the_marker_and_pays_the_row():
    g = dcm_game(pile=(2, 3, 1, 4))
    g2 = act(g, sell(("colne:0", DCM)))
    assert g2.dcm_position == 2 and g2.dcm_drawn == [2] and g2.dcm_pile == [3, 1, 4]
    assert g2.tiles["colne:0"].flipped
    assert g2.players[0].income_space == 10 + 2 + 5  # the +2 row, then Cotton Mill I
    assert g2.players[1].income_space == 10


@pytest.mark.parametrize(
    ("position", "move", "row_income"),
    [(0, 0, 3), (0, 1, 3), (1, 1, 2), (2, 2, 1), (3, 2, 1), (4, 1, 1), (4, 2, 0), (5, 2, 0), (7, 0, 0)],
)
def test_lancashire_sell_distant_market_income_beside_the_new_marker_row(position, move, row_income):
    g = dcm_game(pile=(move,), position=position)
    g2 = act(g, sell(("colne:0", DCM)))
    assert g2.dcm_position == position + move
    assert g2.players[0].income_space == 10 + row_income + 5


def test_lancashire_sell_distant_market_mill_not_connected_to_a_trade_icon():
    g = dcm_game()
    del g.links["colne--yorkshire"]
    g.touch_board()
    assert rule_of(g, sell(("colne:0", DCM))) == "sell.distant_market"
    place_link(g, "burnley--colne", 1)
    assert rule_of(g, sell(("colne:0", DCM))) == "sell.distant_market"


@pytest.mark.parametrize("flipped", [False, True])
def test_lancashire_sell_distant_market_through_a_port_tile_which_does_not_flip(flipped):
    g = port_game()
    g.tiles[PORT].flipped = flipped
    set_dcm(g, [3])
    g2 = act(g, sell((MILL, DCM)))
    assert g2.tiles[PORT].flipped == flipped  # "do not flip the Port tile"
    assert g2.players[1].income_space == 10
    assert g2.players[0].income_space == 10 + 2 + 5


def test_lancashire_sell_distant_market_through_a_port_in_another_town():
    g = fresh(2)
    place_tile(g, "manchester:0", 0, "cotton_mill", 1)
    place_tile(g, PORT, 1, "port", 1)
    place_link(g, "manchester--warrington_runcorn", 0)
    set_dcm(g, [1])
    give(g, 0, "loc:colne")
    g2 = act(g, sell(("manchester:0", DCM)))
    assert g2.tiles["manchester:0"].flipped and not g2.tiles[PORT].flipped


def test_lancashire_sell_distant_market_two_mills_in_one_action():
    g = dcm_game(pile=(1, 2))
    place_tile(g, "colne:1", 0, "cotton_mill", 1)
    g2 = act(g, sell(("colne:0", DCM), ("colne:1", DCM)))
    assert g2.dcm_position == 3 and g2.dcm_drawn == [1, 2]
    assert g2.players[0].income_space == 10 + 3 + 5 + 2 + 5


def test_lancashire_sell_distant_market_the_draw_comes_from_the_seeded_pile():
    g = dcm_game()
    g.dcm_pile = list(fresh(2, seed=9).dcm_pile)
    top = g.dcm_pile[0]
    g2 = act(g, sell(("colne:0", DCM)))
    assert g2.dcm_drawn == [top] and g2.dcm_position == min(top, 8)


# -- the market closes at X ----------------------------------------------------------------------


@pytest.mark.parametrize(("position", "move"), [(7, 1), (6, 2), (6, 4), (5, 4), (4, 4)])
def test_lancashire_sell_market_closed_reaching_x_ends_the_sale_and_the_mill_does_not_flip(position, move):
    g = dcm_game(pile=(move, 1), position=position)
    g2, done = apply_action(g, sell(("colne:0", DCM)))
    assert g2.dcm_position == 8  # the X space
    assert not g2.tiles["colne:0"].flipped
    assert g2.players[0].income_space == 10
    assert g2.dcm_drawn == [move]
    assert g2.players[0].discard == ["loc:colne"]  # the action (and its card) is spent
    assert done == sell(("colne:0", DCM))


def test_lancashire_sell_market_closed_later_sales_of_the_same_action_are_illegal():
    g = dcm_game(pile=(4,), position=6)
    place_tile(g, "colne:1", 0, "cotton_mill", 1)
    assert rule_of(g, sell(("colne:0", DCM), ("colne:1", DCM))) == "sell.market_closed"


def test_lancashire_sell_market_closed_later_port_sale_of_the_same_action_is_illegal_too():
    g = port_game()
    place_tile(g, "manchester:0", 0, "cotton_mill", 1)
    place_link(g, "manchester--warrington_runcorn", 1)
    set_dcm(g, [4], position=5)
    assert rule_of(g, sell(("manchester:0", DCM), (MILL, PORT))) == "sell.market_closed"
    g2 = act(g, sell((MILL, PORT), ("manchester:0", DCM)))  # earlier sales of the action stand
    assert g2.tiles[MILL].flipped and g2.tiles[PORT].flipped
    assert not g2.tiles["manchester:0"].flipped and g2.dcm_position == 8


def test_lancashire_sell_market_closed_stays_closed_for_the_era():
    g = dcm_game(pile=(4, 1, 1), position=6)
    g.era_round = 2
    give(g, 0, "loc:colne", "loc:bury")
    g = act(g, sell(("colne:0", DCM)))
    assert g.current_player == 0
    assert rule_of(g, Sell(0, "loc:bury", (Sale("colne:0", DCM),))) == "sell.market_closed"
    assert not [a for a in legal_actions(g) if isinstance(a, Sell)]


def test_lancashire_sell_market_closed_marker_already_on_x():
    g = dcm_game(pile=(1,), position=8)
    assert rule_of(g, sell(("colne:0", DCM))) == "sell.market_closed"
    assert g.dcm_pile == [1]


def test_lancashire_sell_market_closed_port_sales_still_possible():
    g = port_game()
    set_dcm(g, [1], position=8)
    g2 = act(g, sell((MILL, PORT)))
    assert g2.tiles[MILL].flipped


# -- which tiles sell ---------------------------------------------------------------------------


def test_lancashire_sell_tile_only_your_own_unflipped_cotton_mills():
    g = port_game()
    place_tile(g, "colne:0", 1, "cotton_mill", 1)
    place_link(g, "colne--yorkshire", 1)
    assert rule_of(g, sell(("colne:0", DCM))) == "sell.tile"  # an opponent's mill
    assert rule_of(g, sell((PORT, DCM))) == "sell.tile"  # a port is not sold
    assert rule_of(g, sell(("colne:1", DCM))) == "sell.tile"  # nothing there
    g.tiles[MILL].flipped = True
    assert rule_of(g, sell((MILL, PORT))) == "sell.tile"


def test_lancashire_sell_tile_a_mill_sells_once_per_action():
    g = dcm_game(pile=(1, 1))
    assert rule_of(g, sell(("colne:0", DCM), ("colne:0", DCM))) == "sell.tile"


def test_lancashire_sell_tile_a_sale_names_only_the_tile_and_its_buyer():
    g = port_game()
    extra = Sell(0, "loc:colne", (Sale(MILL, PORT, merchant_space=0),))
    assert rule_of(g, extra) == "sell.tile"
    beer = Sell(0, "loc:colne", (Sale(MILL, PORT, beer=("market",)),))
    assert rule_of(g, beer) == "sell.tile"


def test_lancashire_sell_at_least_one_tile():
    g = port_game()
    assert rule_of(g, Sell(0, "loc:colne", ())) == "sell.at_least_one"


def test_lancashire_sell_needs_no_particular_card():
    g = port_game()
    give(g, 0, "ind:shipyard")
    g2 = act(g, Sell(0, "ind:shipyard", (Sale(MILL, PORT),)))
    assert g2.players[0].discard == ["ind:shipyard"]


# -- legal actions -------------------------------------------------------------------------------


def test_lancashire_sell_legal_actions_offer_connected_ports_and_the_open_distant_market():
    g = port_game()
    place_tile(g, "liverpool:0", 1, "port", 1)  # not connected
    sales = {a.sales for a in legal_actions(g) if isinstance(a, Sell)}
    assert sales == {(Sale(MILL, PORT),), (Sale(MILL, DCM),)}
    g.dcm_position = 8
    sales = {a.sales for a in legal_actions(g) if isinstance(a, Sell)}
    assert sales == {(Sale(MILL, PORT),)}


def test_lancashire_sell_resolved_sale_is_what_was_stated():
    g = port_game()
    _, done = apply_action(g, sell((MILL, PORT)), FIRST_OPTION)
    assert done == sell((MILL, PORT))
