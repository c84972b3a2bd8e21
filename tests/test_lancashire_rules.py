"""Brass: Lancashire rules: turns, setup, building, resources, network, develop, loans, no scouting, the log.

Every rule id of ``brass_stats/rulebook/lancashire.json`` has a test named
``test_lancashire_<rule id with dots as underscores>_...``; selling is in ``test_lancashire_sell.py`` and
the ends of the eras and the options in ``test_lancashire_eras.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from lancashire_helpers import (
    LANCASHIRE,
    act,
    all_cards,
    clear_mat_below,
    fresh,
    give,
    last_round,
    mat_count,
    pass_turns,
    pass_until_round_ends,
    place_link,
    place_tile,
    rule_of,
    set_income_space,
    set_markets,
    set_money,
    to_rail_era,
    two_actions,
)

from brass_stats.engine import (
    FIRST_OPTION,
    Build,
    Develop,
    Loan,
    Network,
    Pass,
    Scout,
    SeededChance,
    Shortfall,
    apply_action,
    new_game,
)
from brass_stats.engine.legal import legal_actions, try_action
from brass_stats.engine.scout import check_scout
from brass_stats.engine.state import GameState
from brass_stats.errors import IllegalAction
from brass_stats.log.format import GameLog
from brass_stats.rulebook import RULEBOOKS
from brass_stats.validation import validate_log

R = LANCASHIRE


def loan_legal(state: GameState, amount: int = 10) -> bool:
    seat = state.current_player
    assert seat is not None
    return try_action(state, Loan(seat, state.players[seat].hand[0], amount)) is not None


# -- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lancashire_setup_money_income_hands_no_discard_and_cards_beneath_the_deck_tile(players):
    g = new_game(["A", "B", "C", "D"][:players], SeededChance(11), R)
    deck = len(R.deck(players))
    for p in g.players:
        assert p.money == 30
        assert p.income_space == 10 and g.income_level(p.seat) == 0
        assert p.vp == 0
        assert len(p.hand) == 8
        assert p.discard == []  # no face-down discard in Lancashire
    assert len(g.reserve) == players  # 1 card per player beneath the deck tile
    assert len(g.deck) == deck - 8 * players - players
    assert all_cards(g) == Counter(R.deck(players))
    assert sorted(g.turn_order) == list(range(players))
    assert g.era == "canal" and g.era_round == 1 and g.actions_per_turn() == 1
    assert g.options == {}


def test_lancashire_setup_turn_order_is_random():
    orders = {tuple(new_game(["A", "B", "C", "D"], SeededChance(s), R).turn_order) for s in range(12)}
    assert len(orders) > 1


def test_lancashire_setup_is_reproducible_from_the_seed():
    a = new_game(["A", "B", "C"], SeededChance(5), R)
    b = new_game(["A", "B", "C"], SeededChance(5), R)
    assert [p.hand for p in a.players] == [p.hand for p in b.players]
    assert (a.deck, a.reserve, a.dcm_pile, a.turn_order) == (b.deck, b.reserve, b.dcm_pile, b.turn_order)


def test_lancashire_setup_cards_beneath_the_deck_tile_are_not_used_in_the_canal_era():
    g = fresh(2, seed=3)
    reserve = list(g.reserve)
    in_play = Counter(R.deck(2)) - Counter(reserve)
    while g.era == "canal":
        assert g.reserve == reserve
        assert all_cards(g) - Counter(g.reserve) == in_play
        g = pass_turns(g, 1)
    assert g.reserve == []
    assert all_cards(g) == Counter(R.deck(2))  # reshuffled into the Rail Era deck


# -- turns -----------------------------------------------------------------------------------------


def test_lancashire_turn_order_other_player_may_not_act():
    g = fresh(2)
    give(g, 1, "loc:colne")
    assert rule_of(g, Pass(1, "loc:colne")) == "turn.order"


def test_lancashire_turn_order_players_act_in_turn_order_track_order():
    g = fresh(3, order=[2, 0, 1])
    seen = []
    for _ in range(3):
        seen.append(g.current_player)
        g = pass_turns(g, 1)
    assert seen == [2, 0, 1]


def test_lancashire_turn_order_next_round_least_spender_first_ties_keep_their_order():
    g = two_actions(fresh(4, order=[0, 1, 2, 3]))
    place_link(g, "colne--yorkshire", 0)
    give(g, 0, "loc:colne", "loc:bury")
    g = act(g, Network(0, "loc:colne", ("burnley--colne",)))  # £3
    g = act(g, Network(0, "loc:bury", ("blackburn--burnley",)))  # £3
    g = pass_turns(g, 2)  # seat 1: nothing spent
    place_link(g, "rochdale--yorkshire", 2)
    give(g, 2, "loc:oldham", "loc:bury")
    g = act(g, Network(2, "loc:oldham", ("oldham--rochdale",)))  # £3
    g = pass_turns(g, 1)
    assert [p.spent for p in g.players][:3] == [6, 0, 3]
    g = pass_turns(g, 2)  # seat 3: nothing spent
    assert g.turn_order == [1, 3, 2, 0]
    assert all(p.spent == 0 for p in g.players)


def test_lancashire_turn_order_loans_are_not_spending():
    g = two_actions(fresh(2, order=[0, 1]))
    give(g, 0, "loc:colne", "loc:bury")
    g = act(g, Loan(0, "loc:colne", 30))
    g = act(g, Loan(0, "loc:bury", 10))
    assert g.players[0].spent == 0
    g = pass_until_round_ends(g)
    assert g.turn_order == [0, 1]


def test_lancashire_turn_actions_one_action_each_in_the_first_canal_round():
    g = fresh(2)
    assert g.actions_per_turn() == 1
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 1
    assert len(g.players[0].hand) == 8  # refilled after the turn
    g = act(g, Pass(1, g.players[1].hand[0]))
    assert g.era_round == 2 and g.actions_per_turn() == 2


def test_lancashire_turn_actions_two_actions_per_turn_refill_after_the_turn():
    g = two_actions(fresh(2))
    deck = len(g.deck)
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 0
    assert len(g.players[0].hand) == 7  # not refilled between the actions
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 1
    assert len(g.players[0].hand) == 8
    assert len(g.deck) == deck - 2


def test_lancashire_turn_actions_first_rail_round_has_two_actions():
    g = fresh(2)
    g.era, g.era_round = "rail", 1
    assert g.actions_per_turn() == 2


def test_lancashire_turn_actions_same_action_twice_in_a_turn():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury", "loc:wigan")
    g = act(g, Loan(0, "loc:colne", 10))
    g = act(g, Loan(0, "loc:bury", 10))
    assert g.players[0].money == 50 and g.income_level(0) == -2
    assert g.current_player == 1


def test_lancashire_turn_actions_hand_shrinks_once_the_deck_is_exhausted():
    g = two_actions(fresh(2))
    g.deck = g.deck[:1]
    g = pass_turns(g, 2)
    assert len(g.players[0].hand) == 7 and g.deck == []
    g = pass_turns(g, 2)
    assert len(g.players[1].hand) == 6


def test_lancashire_turn_card_in_hand_card_not_held():
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Pass(0, "loc:bury")) == "turn.card_in_hand"
    assert rule_of(g, Loan(0, "loc:bury", 10)) == "turn.card_in_hand"


def test_lancashire_turn_card_in_hand_every_action_discards_a_card():
    g = fresh(2)
    assert rule_of(g, Pass(0, "")) == "turn.card_in_hand"
    assert rule_of(g, Loan(0, "", 10)) == "turn.card_in_hand"


def test_lancashire_turn_card_in_hand_discard_face_up_on_top_of_the_discard_pile():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "ind:port")
    g = act(g, Pass(0, "loc:colne"))
    g = act(g, Pass(0, "ind:port"))
    assert g.players[0].discard == ["loc:colne", "ind:port"]
    assert g.players[0].money == 30 and g.players[0].spent == 0


def test_lancashire_turn_game_over_no_action_after_the_rail_era():
    g = to_rail_era(fresh(2))
    last_round(g)
    g = pass_until_round_ends(g)
    assert g.game_over and g.current_player is None
    assert rule_of(g, Pass(0, "loc:colne")) == "turn.game_over"


def test_lancashire_turn_game_over_not_after_the_canal_era():
    g = two_actions(fresh(2))
    last_round(g)
    g = pass_until_round_ends(g)
    assert not g.game_over and g.era == "rail"
    g = act(g, Pass(g.current_player, g.players[g.current_player].hand[0]))


# -- end of round: income and shortfall ---------------------------------------------------------


def test_lancashire_income_is_taken_at_the_end_of_each_round():
    g = fresh(2)
    set_income_space(g, 0, 20)  # level 5
    set_income_space(g, 1, 9)  # level -1
    g = pass_until_round_ends(g)
    assert g.players[0].money == 35
    assert g.players[1].money == 29


def _shortfall_game(money: int = 2, space: int = 5) -> GameState:
    g = fresh(2)
    set_income_space(g, 0, space)  # level -5
    set_money(g, 0, money)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)  # worth £6
    place_tile(g, "wigan:0", 0, "coal_mine", 1, resources=2)  # worth £2
    return pass_until_round_ends(g)


def test_lancashire_turn_shortfall_pending_no_other_action_while_a_shortfall_is_owed():
    g = _shortfall_game()
    assert g.phase == "shortfall" and g.shortfalls == [(0, 3)]
    assert g.players[0].money == 0
    assert rule_of(g, Pass(0, g.players[0].hand[0])) == "turn.shortfall_pending"
    g = act(g, Shortfall(0, ("colne:0",)))
    assert g.phase == "actions"
    assert g.players[0].money == 3  # £6 for the tile, £3 paid, the excess kept
    assert "colne:0" not in g.tiles and "wigan:0" in g.tiles


def test_lancashire_shortfall_tiles_must_be_own_tiles_and_stop_once_covered():
    g = _shortfall_game()
    assert rule_of(g, Shortfall(0, ("bury:0",))) == "shortfall.tiles"
    assert rule_of(g, Shortfall(0, ("colne:0", "wigan:0"))) == "shortfall.tiles"
    assert rule_of(g, Shortfall(0, ("wigan:0",))) == "shortfall.tiles"  # £2 does not cover £3
    g2 = act(g, Shortfall(0, ("wigan:0", "colne:0")))
    assert g2.players[0].money == 5


def test_lancashire_shortfall_tiles_order_is_no_choice_when_both_tiles_must_go_either_way():
    """Tiles are removed until the shortfall is covered, "but must stop as soon as you have acquired
    enough money" (shortfall.tiles): £7 short with tiles worth £6 and £2, neither covers it alone, so both go
    whichever is first, and the list may be left out (log.choice_stated). £3 short, the £6 tile alone
    or the £2 tile then the £6 one end differently: the list must be stated."""
    g = _shortfall_game(money=0, space=3)  # level -7
    assert g.shortfalls == [(0, 7)]
    g2, done = apply_action(g, Shortfall(0))
    assert done.tiles == ("colne:0", "wigan:0")  # board order
    assert "colne:0" not in g2.tiles and "wigan:0" not in g2.tiles
    assert g2.players[0].money == 1  # £8 raised, £7 owed: the excess kept
    assert rule_of(_shortfall_game(), Shortfall(0)) == "log.choice_stated"


def test_lancashire_shortfall_tiles_vp_lost_when_no_tile_is_left():
    g = fresh(2)
    set_income_space(g, 0, 2)  # level -8
    set_money(g, 0, 3)
    g.players[0].vp = 4
    g = pass_until_round_ends(g)
    assert g.phase == "actions"
    assert g.players[0].money == 0 and g.players[0].vp == 0


def test_lancashire_shortfall_not_needed_outside_a_shortfall():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    assert rule_of(g, Shortfall(0, ("colne:0",))) == "shortfall.not_needed"


# -- money -----------------------------------------------------------------------------------------


def test_lancashire_money_afford_cannot_spend_money_you_do_not_have():
    g = fresh(2)
    give(g, 0, "loc:colne")
    set_money(g, 0, 11)
    assert rule_of(g, Build(0, "loc:colne", "cotton_mill", "colne", 0)) == "money.afford"
    set_money(g, 0, 12)
    g2 = act(g, Build(0, "loc:colne", "cotton_mill", "colne", 0))
    assert g2.players[0].money == 0 and g2.players[0].spent == 12


def test_lancashire_money_afford_for_a_canal_link():
    g = fresh(2)
    place_link(g, "colne--yorkshire", 0)
    give(g, 0, "loc:colne")
    set_money(g, 0, 2)
    assert rule_of(g, Network(0, "loc:colne", ("burnley--colne",))) == "money.afford"
    set_money(g, 0, 3)
    assert act(g, Network(0, "loc:colne", ("burnley--colne",))).players[0].money == 0


# -- build: cards and network ----------------------------------------------------------------------


def test_lancashire_build_card_location_card_only_at_its_location():
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Build(0, "loc:colne", "cotton_mill", "stockport", 0)) == "build.card"


def test_lancashire_build_card_industry_card_must_show_the_industry():
    g = fresh(2)
    give(g, 0, "ind:port")
    assert rule_of(g, Build(0, "ind:port", "cotton_mill", "colne", 0)) == "build.card"


def test_lancashire_build_card_location_card_builds_any_industry_outside_the_network():
    g = fresh(2)
    place_link(g, "colne--yorkshire", 0)
    give(g, 0, "loc:liverpool")
    g2 = act(g, Build(0, "loc:liverpool", "port", "liverpool", 0))
    t = g2.tiles["liverpool:0"]
    assert (t.owner, t.industry, t.level, t.flipped) == (0, "port", 1, False)
    assert g2.players[0].money == 24


def test_lancashire_build_network_industry_card_outside_the_network():
    g = fresh(2)
    place_link(g, "colne--yorkshire", 0)
    give(g, 0, "ind:cotton_mill")
    assert rule_of(g, Build(0, "ind:cotton_mill", "cotton_mill", "stockport", 0)) == "build.network"


def test_lancashire_build_network_opponents_link_does_not_extend_your_network():
    g = fresh(2)
    place_link(g, "colne--yorkshire", 0)
    place_link(g, "manchester--stockport", 1)
    give(g, 0, "ind:cotton_mill")
    assert rule_of(g, Build(0, "ind:cotton_mill", "cotton_mill", "stockport", 0)) == "build.network"


def test_lancashire_build_network_industry_card_in_the_network():
    g = fresh(2)
    place_link(g, "burnley--colne", 0)
    give(g, 0, "ind:cotton_mill")
    g2 = act(g, Build(0, "ind:cotton_mill", "cotton_mill", "colne", 0))
    assert g2.tiles["colne:0"].owner == 0
    place_tile(g, "macclesfield:0", 0, "cotton_mill", 1)
    give(g, 0, "ind:cotton_mill")
    g3 = act(g, Build(0, "ind:cotton_mill", "cotton_mill", "burnley", 0))  # link end
    assert g3.tiles["burnley:0"].owner == 0


def test_lancashire_build_network_industry_card_at_a_location_with_an_own_tile_rail_era():
    g = to_rail_era(fresh(2))
    place_tile(g, "stockport:0", 0, "cotton_mill", 2, flipped=True)
    give(g, 0, "ind:cotton_mill", "loc:bury")
    clear_mat_below(g, 0, "cotton_mill", 2)
    place_tile(g, "manchester:0", 1, "coal_mine", 2)
    place_link(g, "manchester--stockport", 1)
    g2 = act(g, Build(0, "ind:cotton_mill", "cotton_mill", "stockport", 1, coal=("manchester:0",)))
    assert g2.tiles["stockport:1"].level == 2


def test_lancashire_build_network_locations_without_location_cards_can_still_be_built_in_2p():
    g = fresh(2)
    assert "loc:burnley" not in R.deck(2)
    place_link(g, "blackburn--burnley", 0)
    give(g, 0, "ind:coal_mine")
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "burnley", 0))
    assert g2.tiles["burnley:0"].industry == "coal_mine"


def test_lancashire_build_no_tiles_on_board_industry_card_builds_anywhere():
    g = fresh(2)
    give(g, 0, "ind:coal_mine")
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "wigan", 0))
    assert g2.tiles["wigan:0"].owner == 0 and g2.tiles["wigan:0"].resources == 2


def test_lancashire_build_no_tiles_on_board_not_once_you_have_a_link():
    g = fresh(2)
    place_link(g, "colne--yorkshire", 0)
    give(g, 0, "ind:coal_mine")
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "wigan", 0)) == "build.network"


def test_lancashire_build_no_tiles_on_board_not_once_you_have_an_industry_tile():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    give(g, 0, "ind:coal_mine")
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "wigan", 0)) == "build.network"


def test_lancashire_build_no_tiles_on_board_opponent_tiles_do_not_count():
    g = fresh(2)
    place_tile(g, "colne:0", 1, "cotton_mill", 1)
    place_link(g, "colne--yorkshire", 1)
    give(g, 0, "ind:cotton_mill")
    g2 = act(g, Build(0, "ind:cotton_mill", "cotton_mill", "stockport", 0))
    assert g2.tiles["stockport:0"].owner == 0


def test_lancashire_build_no_tiles_on_board_again_in_the_rail_era_after_level_1_tiles_went():
    g = two_actions(fresh(2))
    place_tile(g, "colne:0", 0, "cotton_mill", 1, flipped=True)
    place_link(g, "colne--yorkshire", 0)
    last_round(g)
    g = pass_until_round_ends(g)
    assert g.era == "rail" and g.tiles == {} and g.links == {}
    g.turn_order = [0, 1]
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "ind:coal_mine", "loc:colne")
    g2 = act(g, Build(0, "ind:coal_mine", "coal_mine", "wigan", 0))
    assert g2.tiles["wigan:0"].owner == 0 and g2.tiles["wigan:0"].level == 2


def test_lancashire_build_no_tiles_on_board_only_where_a_space_is_undeveloped():
    """Building If You Have No Tiles on the Board: "discard an Industry card to build the matching Industry
    tile in any location with an undeveloped space displaying that industry's icon". Wigan's two coal spaces
    are both developed, so the rule does not reach Wigan, which is not in the player's (empty) network: the
    Industry card cannot overbuild there (a Location card or a double-action build could)."""
    g = fresh(2)
    set_markets(g, coal=0)
    place_tile(g, "wigan:0", 1, "coal_mine", 1, flipped=True)
    place_tile(g, "wigan:1", 1, "coal_mine", 2, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "ind:coal_mine")
    assert rule_of(g, Build(0, "ind:coal_mine", "coal_mine", "wigan", 0)) in {
        "build.network",
        "build.no_tiles_on_board",
    }
    give(g, 0, "loc:wigan")
    assert act(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0)).tiles["wigan:0"].owner == 0


# -- build: spaces, levels, eras -----------------------------------------------------------------


def test_lancashire_build_slot_icon_location_without_the_industry():
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Build(0, "loc:colne", "port", "colne")) == "build.slot_icon"


def test_lancashire_build_slot_icon_stated_slot_without_the_icon():
    g = fresh(2)
    give(g, 0, "loc:preston")
    assert rule_of(g, Build(0, "loc:preston", "port", "preston", 2)) == "build.slot_icon"


def test_lancashire_build_slot_icon_no_undeveloped_space_left():
    g = fresh(3)
    place_tile(g, "ellesmere_port:0", 1, "port", 1)
    give(g, 0, "loc:ellesmere_port")
    assert rule_of(g, Build(0, "loc:ellesmere_port", "port", "ellesmere_port")) == "build.slot_icon"


def test_lancashire_build_single_icon_first_dual_space_while_single_space_free():
    g = fresh(2)
    give(g, 0, "loc:lancaster")
    assert rule_of(g, Build(0, "loc:lancaster", "port", "lancaster", 1)) == "build.single_icon_first"
    g2 = act(g, Build(0, "loc:lancaster", "port", "lancaster"))  # the single-icon space is the only option
    assert "lancaster:0" in g2.tiles and "lancaster:1" not in g2.tiles


def test_lancashire_build_single_icon_first_dual_space_once_single_space_is_taken():
    g = fresh(2)
    place_tile(g, "lancaster:0", 1, "port", 1)
    give(g, 0, "loc:lancaster")
    g2 = act(g, Build(0, "loc:lancaster", "port", "lancaster"))
    assert g2.tiles["lancaster:1"].industry == "port" and g2.tiles["lancaster:1"].owner == 0


def test_lancashire_build_single_icon_first_cotton_mill_in_a_town_of_dual_spaces():
    g = fresh(2)
    give(g, 0, "loc:bolton")
    g2 = act(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 1))
    assert g2.tiles["bolton:1"].industry == "cotton_mill"


def test_lancashire_build_lowest_level_tile_is_taken_from_the_mat():
    g = fresh(2)
    give(g, 0, "loc:colne")
    g2 = act(g, Build(0, "loc:colne", "cotton_mill", "colne", 0))
    assert g2.tiles["colne:0"].level == 1
    assert mat_count(g2, 0, "cotton_mill", 1) == 2
    assert g2.players[0].money == 30 - 12


def test_lancashire_build_lowest_level_after_developing():
    g = fresh(2)
    clear_mat_below(g, 0, "cotton_mill", 2)
    give(g, 0, "loc:warrington_runcorn")
    place_tile(g, "warrington_runcorn:1", 1, "port", 1)  # a trade icon: coal from the market
    g2 = act(g, Build(0, "loc:warrington_runcorn", "cotton_mill", "warrington_runcorn", 0, coal=("market",)))
    assert g2.tiles["warrington_runcorn:0"].level == 2
    assert g2.players[0].money == 30 - 14 - 1
    assert g2.coal_market == 7


def test_lancashire_build_tiles_left_none_of_that_industry():
    g = fresh(2)
    g.players[0].mat = {**g.players[0].mat, "iron_works": (0, 0, 0, 0)}
    give(g, 0, "loc:bolton")
    assert rule_of(g, Build(0, "loc:bolton", "iron_works", "bolton", 2)) == "build.tiles_left"


def test_lancashire_build_canal_one_per_location_second_own_tile():
    g = fresh(2)
    place_tile(g, "bolton:0", 0, "cotton_mill", 1)
    place_tile(g, "wigan:0", 1, "coal_mine", 1)
    give(g, 0, "loc:bolton")
    assert rule_of(g, Build(0, "loc:bolton", "iron_works", "bolton", 2)) == "build.canal_one_per_location"
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 1)) == "build.canal_one_per_location"
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton")) == "build.canal_one_per_location"


def test_lancashire_build_canal_one_per_location_beside_an_opponent_tile_is_fine():
    g = fresh(2)
    place_tile(g, "colne:0", 1, "cotton_mill", 1)
    give(g, 0, "loc:colne")
    g2 = act(g, Build(0, "loc:colne", "cotton_mill", "colne", 1))
    assert g2.tiles["colne:1"].owner == 0


def test_lancashire_build_canal_one_per_location_rail_era_allows_several():
    g = to_rail_era(fresh(2))
    place_tile(g, "colne:0", 0, "cotton_mill", 2)
    clear_mat_below(g, 0, "cotton_mill", 2)
    place_link(g, "colne--yorkshire", 1)
    give(g, 0, "loc:colne", "loc:bury")
    g2 = act(g, Build(0, "loc:colne", "cotton_mill", "colne", 1, coal=("market",)))
    assert g2.tiles["colne:1"].owner == 0 and g2.tiles["colne:0"].owner == 0


def test_lancashire_build_era_rail_era_cannot_build_level_1():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:colne")
    assert rule_of(g, Build(0, "loc:colne", "cotton_mill", "colne", 0)) == "build.era"
    give(g, 0, "loc:liverpool")
    assert rule_of(g, Build(0, "loc:liverpool", "port", "liverpool", 0)) == "build.era"


def test_lancashire_build_era_canal_era_cannot_build_shipyard_2():
    g = fresh(2)
    clear_mat_below(g, 0, "shipyard", 2)
    place_tile(g, "liverpool:0", 1, "port", 1)
    give(g, 0, "loc:liverpool")
    assert rule_of(g, Build(0, "loc:liverpool", "shipyard", "liverpool", 2)) == "build.era"


def test_lancashire_build_era_rail_era_builds_level_2():
    g = to_rail_era(fresh(2))
    clear_mat_below(g, 0, "port", 2)
    give(g, 0, "loc:liverpool")
    g2 = act(g, Build(0, "loc:liverpool", "port", "liverpool", 0))
    assert g2.tiles["liverpool:0"].level == 2 and g2.players[0].money == 23


# -- shipyards -------------------------------------------------------------------------------------


def test_lancashire_build_locked_shipyard_level_0_cannot_be_built():
    g = fresh(2)
    place_tile(g, "liverpool:0", 1, "port", 1)
    give(g, 0, "loc:liverpool")
    assert rule_of(g, Build(0, "loc:liverpool", "shipyard", "liverpool", 2)) == "build.locked"
    to_rail_era(g)
    assert rule_of(g, Build(0, "loc:liverpool", "shipyard", "liverpool", 2)) == "build.locked"


def test_lancashire_build_locked_shipyard_level_0_is_removed_by_developing():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    g = act(g, Develop(0, "loc:colne", ("shipyard", "shipyard"), iron=("market", "market")))
    assert mat_count(g, 0, "shipyard", 0) == 0
    assert g.players[0].lowest_level("shipyard") == 1
    assert g.players[0].money == 28 and g.iron_market == 6


def test_lancashire_build_locked_then_shipyard_1_flips_on_build_with_its_income():
    g = fresh(2)
    clear_mat_below(g, 0, "shipyard", 1)
    place_tile(g, "liverpool:0", 1, "port", 1)  # Liverpool shows a trade icon: coal from the market
    give(g, 0, "loc:liverpool")
    g2 = act(g, Build(0, "loc:liverpool", "shipyard", "liverpool", 2, coal=("market",), iron=("market",)))
    t = g2.tiles["liverpool:2"]
    assert (t.industry, t.level, t.flipped) == ("shipyard", 1, True)
    assert g2.players[0].income_space == 12  # +2 spaces
    assert g2.players[0].money == 30 - 16 - 1 - 1
    assert g2.coal_market == 7 and g2.iron_market == 7


def test_lancashire_build_shipyard_2_flips_on_build_in_the_rail_era():
    g = to_rail_era(fresh(2))
    clear_mat_below(g, 0, "shipyard", 2)
    place_tile(g, "liverpool:0", 1, "port", 2)
    set_money(g, 0, 40)
    give(g, 0, "loc:liverpool")
    g2 = act(g, Build(0, "loc:liverpool", "shipyard", "liverpool", 2, coal=("market",), iron=("market",)))
    t = g2.tiles["liverpool:2"]
    assert (t.level, t.flipped) == (2, True)
    assert g2.players[0].income_space == 11 and g2.players[0].money == 40 - 27


# -- build: coal and iron to the markets ---------------------------------------------------------


def test_lancashire_build_coal_mine_not_connected_to_a_trade_icon_keeps_its_cubes():
    g = fresh(2)
    set_markets(g, coal=5)
    give(g, 0, "loc:wigan")
    g2 = act(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0))
    assert g2.tiles["wigan:0"].resources == 2 and not g2.tiles["wigan:0"].flipped
    assert g2.coal_market == 5 and g2.players[0].money == 25


def test_lancashire_build_coal_mine_connected_to_an_external_market_sells_most_expensive_first():
    g = fresh(2)
    set_markets(g, coal=5)  # the £1, £1 and £2 spaces are empty
    place_link(g, "rochdale--yorkshire", 1)
    give(g, 0, "loc:rochdale")
    g2 = act(g, Build(0, "loc:rochdale", "coal_mine", "rochdale", 0))
    t = g2.tiles["rochdale:0"]
    assert t.resources == 0 and t.flipped
    assert g2.coal_market == 7
    assert g2.players[0].money == 30 - 5 + 2 + 1
    assert g2.players[0].income_space == 14  # coal mine I: +4 spaces


@pytest.mark.parametrize("flipped", [False, True])
def test_lancashire_build_coal_mine_connected_to_a_port_tile_sells(flipped):
    g = fresh(2)
    set_markets(g, coal=6)
    place_tile(g, "liverpool:0", 1, "port", 1, flipped=flipped)
    place_link(g, "liverpool--wigan", 1)
    give(g, 0, "loc:wigan")
    g2 = act(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0))
    assert g2.coal_market == 8 and g2.tiles["wigan:0"].flipped
    assert g2.players[0].money == 30 - 5 + 1 + 1


def test_lancashire_build_coal_mine_beside_a_port_in_its_own_location_sells():
    g = fresh(2)
    set_markets(g, coal=7)
    place_tile(g, "warrington_runcorn:1", 1, "port", 1)
    give(g, 0, "loc:warrington_runcorn")
    g2 = act(g, Build(0, "loc:warrington_runcorn", "coal_mine", "warrington_runcorn", 0))
    assert g2.coal_market == 8
    assert g2.tiles["warrington_runcorn:0"].resources == 1 and not g2.tiles["warrington_runcorn:0"].flipped


def test_lancashire_build_coal_mine_full_market_sells_nothing():
    g = fresh(2)
    place_link(g, "rochdale--yorkshire", 1)
    give(g, 0, "loc:rochdale")
    g2 = act(g, Build(0, "loc:rochdale", "coal_mine", "rochdale", 0))
    assert g2.tiles["rochdale:0"].resources == 2 and g2.players[0].money == 25


def test_lancashire_build_coal_mine_cubes_go_to_the_market_only_during_its_build():
    g = two_actions(fresh(2))
    set_markets(g, coal=5)
    give(g, 0, "loc:rochdale", "loc:bury")
    g = act(g, Build(0, "loc:rochdale", "coal_mine", "rochdale", 0))
    g = act(g, Pass(0, "loc:bury"))
    place_link(g, "rochdale--yorkshire", 1)
    g = pass_turns(g, 2)
    assert g.coal_market == 5 and g.tiles["rochdale:0"].resources == 2


def test_lancashire_build_iron_works_always_sells_to_the_iron_market_even_unconnected():
    g = fresh(2)
    set_markets(g, iron=6)  # two £1 spaces empty
    place_tile(g, "bolton:0", 1, "coal_mine", 1, resources=2)
    give(g, 0, "loc:bolton")
    g2 = act(g, Build(0, "loc:bolton", "iron_works", "bolton", 2, coal=("bolton:0",)))
    t = g2.tiles["bolton:2"]
    assert t.resources == 2 and not t.flipped
    assert g2.iron_market == 8
    assert g2.players[0].money == 30 - 5 + 1 + 1
    assert g2.tiles["bolton:0"].resources == 1


def test_lancashire_build_iron_works_emptied_into_the_market_flips():
    g = fresh(2)
    set_markets(g, iron=2)
    place_tile(g, "bolton:0", 1, "coal_mine", 1, resources=2)
    give(g, 0, "loc:bolton")
    g2 = act(g, Build(0, "loc:bolton", "iron_works", "bolton", 2, coal=("bolton:0",)))
    assert g2.iron_market == 6 and g2.tiles["bolton:2"].flipped
    assert g2.players[0].money == 30 - 5 + 3 + 3 + 2 + 2
    assert g2.players[0].income_space == 13


# -- overbuilding ----------------------------------------------------------------------------------


def test_lancashire_build_overbuild_opponent_industry_other_than_coal_or_iron():
    g = fresh(2)
    set_markets(g, coal=0, iron=0)
    place_tile(g, "colne:0", 1, "cotton_mill", 1, flipped=True)
    place_tile(g, "colne:1", 1, "cotton_mill", 1)
    clear_mat_below(g, 0, "cotton_mill", 4)
    give(g, 0, "loc:colne")
    assert rule_of(g, Build(0, "loc:colne", "cotton_mill", "colne", 0)) == "build.overbuild"


def test_lancashire_build_overbuild_opponent_port_never():
    g = fresh(2)
    place_tile(g, "fleetwood:0", 1, "port", 1)
    clear_mat_below(g, 0, "port", 2)
    give(g, 0, "loc:fleetwood")
    assert rule_of(g, Build(0, "loc:fleetwood", "port", "fleetwood", 0)) == "build.overbuild"


def test_lancashire_build_overbuild_needs_a_higher_level_of_the_same_industry():
    g = fresh(2)
    place_tile(g, "bolton:0", 0, "coal_mine", 1, resources=1)
    give(g, 0, "loc:bolton")
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0)) == "build.overbuild"
    g.players[0].mat = {**g.players[0].mat, "coal_mine": (1, 0, 0, 0)}
    assert rule_of(g, Build(0, "loc:bolton", "coal_mine", "bolton", 0)) == "build.overbuild"


def test_lancashire_build_overbuild_own_tile_of_any_industry_cubes_back_to_the_supply():
    g = fresh(2)
    place_tile(g, "wigan:0", 0, "coal_mine", 1, resources=2)
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "loc:wigan")
    g2 = act(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0))
    t = g2.tiles["wigan:0"]
    assert (t.owner, t.level, t.resources) == (0, 2, 3)
    assert g2.players[0].money == 23


def test_lancashire_build_overbuild_own_flipped_port():
    g = fresh(2)
    place_tile(g, "fleetwood:0", 0, "port", 1, flipped=True)
    clear_mat_below(g, 0, "port", 2)
    give(g, 0, "loc:fleetwood")
    g2 = act(g, Build(0, "loc:fleetwood", "port", "fleetwood", 0))
    assert g2.tiles["fleetwood:0"].level == 2 and not g2.tiles["fleetwood:0"].flipped
    assert g2.players[0].income_space == 10  # no income is lost


def test_lancashire_build_overbuild_resource_gone_coal_left_in_the_market():
    g = fresh(2)
    set_markets(g, coal=1)
    place_tile(g, "wigan:0", 1, "coal_mine", 1, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "loc:wigan")
    assert rule_of(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0)) == "build.overbuild_resource_gone"


def test_lancashire_build_overbuild_resource_gone_coal_left_on_another_mine():
    g = fresh(2)
    set_markets(g, coal=0)
    place_tile(g, "wigan:0", 1, "coal_mine", 1, flipped=True)
    place_tile(g, "bury:0", 1, "coal_mine", 2, resources=1)
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "loc:wigan")
    assert rule_of(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0)) == "build.overbuild_resource_gone"


def test_lancashire_build_overbuild_resource_gone_opponent_coal_mine_when_no_coal_anywhere():
    g = fresh(2)
    set_markets(g, coal=0)
    place_tile(g, "wigan:0", 1, "coal_mine", 1, flipped=True)
    clear_mat_below(g, 0, "coal_mine", 2)
    give(g, 0, "loc:wigan")
    g2 = act(g, Build(0, "loc:wigan", "coal_mine", "wigan", 0))
    assert g2.tiles["wigan:0"].owner == 0 and g2.tiles["wigan:0"].level == 2
    assert g2.players[1].income_space == 10  # the opponent keeps what it gained


def test_lancashire_build_overbuild_resource_gone_opponent_iron_works_when_no_iron_anywhere():
    g = fresh(2)
    set_markets(g, iron=1)
    place_tile(g, "bolton:2", 1, "iron_works", 1, flipped=True)
    place_tile(g, "bolton:0", 1, "coal_mine", 1, resources=2)
    clear_mat_below(g, 0, "iron_works", 2)
    give(g, 0, "loc:bolton")
    build = Build(0, "loc:bolton", "iron_works", "bolton", 2, coal=("bolton:0",))
    assert rule_of(g, build) == "build.overbuild_resource_gone"
    set_markets(g, iron=0)
    g2 = act(g, build)
    assert g2.tiles["bolton:2"].owner == 0 and g2.tiles["bolton:2"].level == 2
    assert g2.iron_market == 4  # its 4 cubes fill the empty market


# -- double-action build ---------------------------------------------------------------------------


def test_lancashire_build_double_action_any_two_cards_as_any_location_card():
    g = two_actions(fresh(2))
    place_link(g, "colne--yorkshire", 0)  # the network is far from Liverpool
    hand = ["ind:cotton_mill", "loc:colne", "loc:bury", "loc:bolton", "loc:wigan", "ind:port", "loc:oldham", "loc:bury"]
    give(g, 0, *hand)
    deck = len(g.deck)
    g2 = act(g, Build(0, "ind:cotton_mill", "port", "liverpool", 0, second_card="loc:colne"))
    assert g2.tiles["liverpool:0"].owner == 0 and g2.tiles["liverpool:0"].industry == "port"
    assert g2.current_player == 1  # both actions used
    assert g2.players[0].discard == ["ind:cotton_mill", "loc:colne"]
    assert len(g2.players[0].hand) == 8 and len(g2.deck) == deck - 2  # refilled with 2 cards
    assert g2.players[0].hand[:6] == hand[2:]
    assert g2.players[0].money == 24 and g2.players[0].spent == 6


def test_lancashire_build_double_action_not_in_the_first_canal_round():
    g = fresh(2)
    give(g, 0, "ind:cotton_mill", "loc:colne")
    build = Build(0, "ind:cotton_mill", "port", "liverpool", 0, second_card="loc:colne")
    assert rule_of(g, build) == "build.double_action"


def test_lancashire_build_double_action_not_as_the_second_action():
    g = two_actions(fresh(2))
    give(g, 0, "loc:bury", "ind:cotton_mill", "loc:colne")
    g = act(g, Pass(0, "loc:bury"))
    build = Build(0, "ind:cotton_mill", "port", "liverpool", 0, second_card="loc:colne")
    assert rule_of(g, build) == "build.double_action"


def test_lancashire_build_double_action_allowed_in_the_first_rail_round():
    g = to_rail_era(fresh(2))
    g.era_round = 1
    clear_mat_below(g, 0, "port", 2)
    give(g, 0, "ind:cotton_mill", "loc:colne")
    g2 = act(g, Build(0, "ind:cotton_mill", "port", "liverpool", 0, second_card="loc:colne"))
    assert g2.tiles["liverpool:0"].level == 2


def test_lancashire_build_double_action_needs_both_cards_in_hand():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    build = Build(0, "loc:colne", "port", "liverpool", 0, second_card="loc:colne")
    assert rule_of(g, build) == "turn.card_in_hand"


def test_lancashire_build_double_action_still_obeys_the_building_rules():
    g = two_actions(fresh(2))
    give(g, 0, "loc:bury", "loc:colne")
    assert rule_of(g, Build(0, "loc:bury", "port", "colne", second_card="loc:colne")) == "build.slot_icon"
    place_tile(g, "stockport:0", 0, "cotton_mill", 1)
    build = Build(0, "loc:bury", "cotton_mill", "stockport", 1, second_card="loc:colne")
    assert rule_of(g, build) == "build.canal_one_per_location"


def test_lancashire_build_double_action_is_offered_by_legal_actions():
    g = two_actions(fresh(2))
    give(g, 0, "loc:bury", "loc:colne")
    builds = [a for a in legal_actions(g) if isinstance(a, Build) and a.second_card is not None]
    assert Build(0, "loc:bury", "port", "liverpool", 0, second_card="loc:colne") in builds
    assert {a.location for a in builds} >= {"liverpool", "fleetwood", "wigan", "colne"}


# -- coal and iron ---------------------------------------------------------------------------------


def _mill_2_at_bolton(g: GameState) -> GameState:
    clear_mat_below(g, 0, "cotton_mill", 2)
    give(g, 0, "loc:bolton")
    return g


def test_lancashire_coal_closest_mine_farther_mine_refused():
    g = _mill_2_at_bolton(fresh(2))
    place_link(g, "bolton--bury", 1)
    place_link(g, "bury--manchester", 1)
    place_link(g, "manchester--oldham", 1)
    place_tile(g, "bury:0", 1, "coal_mine", 1, resources=1)
    place_tile(g, "oldham:0", 1, "coal_mine", 2, resources=2)
    far = Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("oldham:0",))
    assert rule_of(g, far) == "coal.closest_mine"
    market = Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("market",))
    assert rule_of(g, market) == "coal.closest_mine"
    g2 = act(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("bury:0",)))
    assert g2.tiles["bury:0"].flipped and g2.players[1].income_space == 14
    assert g2.players[0].money == 30 - 14  # coal from a mine is free


def test_lancashire_coal_closest_mine_left_out_with_one_closest_mine_is_filled_in():
    g = _mill_2_at_bolton(fresh(2))
    place_link(g, "bolton--bury", 1)
    place_tile(g, "bury:0", 1, "coal_mine", 1, resources=2)
    _, done = apply_action(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0))
    assert isinstance(done, Build) and done.coal == ("bury:0",)


def test_lancashire_coal_count_wrong_number_of_sources_stated():
    g = _mill_2_at_bolton(fresh(2))
    place_tile(g, "bolton:1", 1, "coal_mine", 1, resources=2)
    build = Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("bolton:1", "bolton:1"))
    assert rule_of(g, build) == "coal.count"


def test_lancashire_coal_market_needs_a_connection_to_a_trade_icon():
    g = _mill_2_at_bolton(fresh(2))
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("market",))) == "coal.market"
    place_link(g, "bolton--manchester", 1)
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("market",))) == "coal.market"


@pytest.mark.parametrize("flipped", [False, True])
def test_lancashire_coal_market_port_tile_shows_a_trade_icon(flipped):
    g = _mill_2_at_bolton(fresh(2))
    place_link(g, "bolton--manchester", 1)
    place_link(g, "manchester--warrington_runcorn", 1)
    place_tile(g, "warrington_runcorn:1", 1, "port", 1, flipped=flipped)
    g2 = act(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("market",)))
    assert g2.coal_market == 7 and g2.players[0].money == 30 - 14 - 1


def test_lancashire_coal_market_external_market_shows_a_trade_icon_and_empty_market_costs_5():
    g = fresh(2)
    clear_mat_below(g, 0, "cotton_mill", 2)
    place_link(g, "rochdale--yorkshire", 1)
    set_markets(g, coal=0)
    give(g, 0, "loc:rochdale")
    g2 = act(g, Build(0, "loc:rochdale", "cotton_mill", "rochdale", 0, coal=("market",)))
    assert g2.coal_market == 0 and g2.players[0].money == 30 - 14 - 5


def test_lancashire_coal_market_an_unconnected_mine_does_not_supply_coal():
    g = _mill_2_at_bolton(fresh(2))
    place_tile(g, "wigan:0", 1, "coal_mine", 1, resources=2)
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("wigan:0",))) == "coal.connected"
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0)) == "coal.market"


def test_lancashire_source_unknown_named_coal_source_is_not_a_coal_mine():
    g = _mill_2_at_bolton(fresh(2))
    place_tile(g, "bolton:1", 1, "coal_mine", 1, resources=2)
    place_tile(g, "colne:0", 1, "cotton_mill", 1)
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("colne:0",))) == "source.unknown"
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0, coal=("stockport:0",))) == "source.unknown"


def test_lancashire_iron_count_wrong_number_of_sources_stated():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    assert rule_of(g, Develop(0, "loc:colne", ("cotton_mill",), iron=("market", "market"))) == "iron.count"


def test_lancashire_iron_works_first_market_refused_while_an_iron_works_has_iron():
    g = two_actions(fresh(2))
    place_tile(g, "barrow_in_furness:1", 1, "iron_works", 1, resources=1)  # not connected: iron needs no link
    give(g, 0, "loc:colne", "loc:bury")
    assert rule_of(g, Develop(0, "loc:colne", ("cotton_mill",), iron=("market",))) == "iron.works_first"
    g2 = act(g, Develop(0, "loc:colne", ("cotton_mill",), iron=("barrow_in_furness:1",)))
    assert g2.tiles["barrow_in_furness:1"].flipped and g2.players[1].income_space == 13
    assert g2.players[0].money == 30


def test_lancashire_iron_works_first_empty_market_costs_5():
    g = two_actions(fresh(2))
    set_markets(g, iron=0)
    give(g, 0, "loc:colne", "loc:bury")
    g2 = act(g, Develop(0, "loc:colne", ("cotton_mill", "port"), iron=("market", "market")))
    assert g2.players[0].money == 20 and g2.iron_market == 0
    set_markets(g, iron=1)
    g3 = act(g, Develop(0, "loc:colne", ("cotton_mill", "port")))
    assert g3.players[0].money == 30 - 4 - 5 and g3.iron_market == 0


# -- network ---------------------------------------------------------------------------------------


def test_lancashire_network_adjacent_link_must_touch_your_network():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("manchester--stockport",))) == "network.adjacent"
    g2 = act(g, Network(0, "loc:colne", ("colne--yorkshire",)))
    assert g2.links == {"colne--yorkshire": 0} and g2.players[0].money == 27


def test_lancashire_network_adjacent_opponent_links_do_not_extend_your_network():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    place_link(g, "burnley--colne", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("blackburn--burnley",))) == "network.adjacent"


def test_lancashire_network_adjacent_no_free_link_for_a_player_with_nothing_on_the_board():
    """Lancashire rulebook, Network Action: "Place a Link tile on an undeveloped line on the board. The placed
    Link tile must be adjacent to a location that is a part of your network." Unlike Brass: Birmingham, the
    Lancashire rulebook has no exception for a player without tiles ("Building If You Have No Tiles on the
    Board" only lets an Industry card build anywhere), so with nothing on the board no line is adjacent."""
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("colne--yorkshire",))) == "network.adjacent"


def test_lancashire_network_undeveloped_line_already_has_a_link():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    place_link(g, "colne--yorkshire", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("colne--yorkshire",))) == "network.undeveloped"
    assert rule_of(g, Network(0, "loc:colne", ("yorkshire--colne",))) == "network.undeveloped"


def test_lancashire_network_era_no_rail_link_in_the_canal_era():
    g = fresh(2)
    place_tile(g, "preston:0", 0, "port", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("blackpool--preston",))) == "network.era"


def test_lancashire_network_era_no_canal_link_in_the_rail_era():
    g = to_rail_era(fresh(2))
    place_tile(g, "liverpool:0", 0, "port", 2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("ellesmere_port--liverpool",), coal=("market",))) == "network.era"


def test_lancashire_network_count_one_canal_link_per_action():
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, Network(0, "loc:colne", ("colne--yorkshire", "burnley--colne"))) == "network.count"
    assert rule_of(g, Network(0, "loc:colne", ())) == "network.count"


def _rail_network_game() -> GameState:
    g = to_rail_era(fresh(2))
    place_tile(g, "colne:0", 0, "cotton_mill", 2, flipped=True)
    give(g, 0, "loc:colne", "loc:bury")
    return g


def test_lancashire_network_count_at_most_two_rail_links_per_action():
    g = _rail_network_game()
    links = ("colne--yorkshire", "burnley--colne", "blackburn--burnley")
    assert rule_of(g, Network(0, "loc:colne", links, coal=("market",) * 3)) == "network.count"


def test_lancashire_network_count_one_rail_link_5_pounds_and_1_coal():
    g = _rail_network_game()
    g2 = act(g, Network(0, "loc:colne", ("colne--yorkshire",), coal=("market",)))
    assert g2.players[0].money == 30 - 5 - 1 and g2.coal_market == 7


def test_lancashire_network_count_two_rail_links_15_pounds_2_coal_and_no_beer():
    g = _rail_network_game()
    g2 = act(g, Network(0, "loc:colne", ("colne--yorkshire", "burnley--colne"), coal=("market", "market")))
    assert set(g2.links) == {"colne--yorkshire", "burnley--colne"}
    assert g2.players[0].money == 30 - 15 - 1 - 1 and g2.coal_market == 6
    _, done = apply_action(g, Network(0, "loc:colne", ("colne--yorkshire", "burnley--colne")))
    assert isinstance(done, Network) and done.beer is None


def test_lancashire_network_count_beer_stated_is_refused_citing_a_lancashire_rule():
    """Lancashire has no beer: two rail links cost £15 and 1 coal each. An action that states a barrel is
    refused, but the rule it cites must be one of the Lancashire rulebook (the engine cites Birmingham's
    "beer.count", whose words are about breweries)."""
    g = _rail_network_game()
    with pytest.raises(IllegalAction) as info:
        apply_action(g, Network(0, "loc:colne", ("colne--yorkshire", "burnley--colne"), beer="colne:0"))
    assert info.value.rule in RULEBOOKS["lancashire"]


def test_lancashire_network_count_each_rail_link_needs_coal_connected_after_it_is_placed():
    g = _rail_network_game()
    # Burnley-Colne alone reaches no coal; placed second, after Colne-Yorkshire, it reaches Yorkshire's trade icon
    assert rule_of(g, Network(0, "loc:colne", ("burnley--colne",), coal=("market",))) == "coal.market"
    both = ("burnley--colne", "colne--yorkshire")
    assert rule_of(g, Network(0, "loc:colne", both, coal=("market", "market"))) == "coal.market"
    g2 = act(g, Network(0, "loc:colne", both[::-1], coal=("market", "market")))
    assert g2.coal_market == 6


def test_lancashire_network_count_rail_coal_from_the_closest_mine():
    g = _rail_network_game()
    place_tile(g, "burnley:0", 1, "coal_mine", 2, resources=3)
    g2 = act(g, Network(0, "loc:colne", ("burnley--colne",), coal=("burnley:0",)))
    assert g2.tiles["burnley:0"].resources == 2 and g2.players[0].money == 25
    bad = Network(0, "loc:colne", ("burnley--colne",), coal=("burnley:0", "burnley:0"))
    assert rule_of(g, bad) == "coal.count"


# -- develop ---------------------------------------------------------------------------------------


def test_lancashire_develop_count_one_or_two_tiles():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    assert rule_of(g, Develop(0, "loc:colne", ())) == "develop.count"
    three = Develop(0, "loc:colne", ("cotton_mill", "port", "coal_mine"), iron=("market",) * 3)
    assert rule_of(g, three) == "develop.count"


def test_lancashire_develop_count_lowest_tile_of_each_industry_one_iron_each():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    g2 = act(g, Develop(0, "loc:colne", ("cotton_mill", "cotton_mill"), iron=("market", "market")))
    assert mat_count(g2, 0, "cotton_mill", 1) == 1
    assert g2.players[0].money == 28 and g2.iron_market == 6 and g2.players[0].spent == 2
    g3 = act(g, Develop(0, "loc:colne", ("coal_mine", "coal_mine"), iron=("market", "market")))
    assert mat_count(g3, 0, "coal_mine", 1) == 0 and mat_count(g3, 0, "coal_mine", 2) == 1


def test_lancashire_develop_tiles_left_none_of_that_industry():
    g = two_actions(fresh(2))
    g.players[0].mat = {**g.players[0].mat, "iron_works": (0, 0, 0, 0)}
    give(g, 0, "loc:colne", "loc:bury")
    assert rule_of(g, Develop(0, "loc:colne", ("iron_works",), iron=("market",))) == "develop.tiles_left"
    g.players[0].mat = {**g.players[0].mat, "iron_works": (0, 0, 0, 1)}
    assert rule_of(g, Develop(0, "loc:colne", ("iron_works", "iron_works"))) == "develop.tiles_left"


def test_lancashire_develop_with_unknown_industry_is_an_unknown_name():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury")
    assert rule_of(g, Develop(0, "loc:colne", ("brewery",))) == "log.unknown_name"


# -- loans -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "space", "space_after", "level_after"),
    [
        (10, 10, 9, -1),
        (20, 10, 8, -2),
        (30, 10, 7, -3),
        (10, 20, 18, 4),  # level 5 (upper space) -> top space of level 4
        (10, 19, 18, 4),  # level 5 (lower space)
        (20, 35, 30, 10),  # level 12 -> top space of level 10
        (30, 99, 88, 27),
    ],
)
def test_lancashire_loan_amount_moves_1_2_3_levels_to_the_top_space(amount, space, space_after, level_after):
    g = fresh(2)
    give(g, 0, "loc:colne")
    set_income_space(g, 0, space)
    g2 = act(g, Loan(0, "loc:colne", amount))
    p = g2.players[0]
    assert p.money == 30 + amount
    assert p.income_space == space_after and g2.income_level(0) == level_after
    assert p.spent == 0 and p.discard == ["loc:colne"]


@pytest.mark.parametrize("amount", [0, 5, 15, 40, -10])
def test_lancashire_loan_amount_other_amounts_refused(amount):
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Loan(0, "loc:colne", amount)) == "loan.amount"


def test_lancashire_loan_amount_left_out_is_a_choice_to_state():
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Loan(0, "loc:colne")) == "log.choice_stated"
    _, done = apply_action(g, Loan(0, "loc:colne"), FIRST_OPTION)
    assert done == Loan(0, "loc:colne", 10)


def test_lancashire_loan_limit_not_below_minus_10():
    g = fresh(2)
    give(g, 0, "loc:colne")
    set_income_space(g, 0, 2)  # level -8
    assert rule_of(g, Loan(0, "loc:colne", 30)) == "loan.limit"
    g2 = act(g, Loan(0, "loc:colne", 20))
    assert g2.players[0].income_space == 0 and g2.income_level(0) == -10
    set_income_space(g, 0, 0)
    assert rule_of(g, Loan(0, "loc:colne", 10)) == "loan.limit"


def test_lancashire_loan_limit_legal_actions_offer_only_the_allowed_amounts():
    g = fresh(2)
    give(g, 0, "loc:colne")
    set_income_space(g, 0, 1)  # level -9
    loans = [a for a in legal_actions(g) if isinstance(a, Loan)]
    assert loans == [Loan(0, "loc:colne", 10)]


def test_lancashire_loan_deck_exhausted_no_loans_in_the_rail_era_with_an_empty_draw_deck():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:colne")
    g.deck = []
    assert rule_of(g, Loan(0, "loc:colne", 10)) == "loan.deck_exhausted"
    assert not [a for a in legal_actions(g) if isinstance(a, Loan)]


def test_lancashire_loan_deck_exhausted_canal_era_with_an_empty_draw_deck_allows_loans():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne")
    g.deck = []
    assert act(g, Loan(0, "loc:colne", 10)).players[0].money == 40


def test_lancashire_loan_deck_exhausted_rail_era_last_card_in_the_deck_allows_loans():
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:colne")
    g.deck = ["loc:bury"]
    assert act(g, Loan(0, "loc:colne", 10)).players[0].money == 40


@pytest.mark.parametrize(("players", "last_loan_round"), [(4, 4), (3, 5), (2, 6)])
def test_lancashire_loan_deck_exhausted_in_the_final_4_rounds_of_a_played_out_game(players, last_loan_round):
    g = fresh(players, seed=players)
    g = pass_turns(g, 1)
    while g.era == "canal":
        g = pass_turns(g, 1)
    rounds_seen = 0
    while not g.game_over:
        assert g.era_round == rounds_seen + 1
        rounds_seen += 1
        allowed = g.era_round <= last_loan_round
        for _ in range(players):
            assert loan_legal(g) == allowed, (g.era_round, g.current_player, len(g.deck))
            g = pass_turns(g, 2)
            if g.game_over:
                break
    assert rounds_seen == R.rounds_per_era[players] == last_loan_round + 4


# -- no scout --------------------------------------------------------------------------------------


def test_lancashire_scout_edition_there_is_no_scout_action():
    g = two_actions(fresh(2))
    give(g, 0, "loc:colne", "loc:bury", "loc:wigan")
    assert rule_of(g, Scout(0, ("loc:colne", "loc:bury", "loc:wigan"))) == "scout.edition"
    with pytest.raises(IllegalAction) as info:
        check_scout(g, Scout(0, ("loc:colne", "loc:bury", "loc:wigan")))
    assert info.value.rule == "scout.edition"
    assert not [a for a in legal_actions(g) if a.TYPE == "scout"]


def test_lancashire_scout_edition_actions_offered_are_build_network_develop_sell_loan_pass():
    g = two_actions(fresh(2))
    place_tile(g, "warrington_runcorn:0", 0, "cotton_mill", 1)
    place_tile(g, "warrington_runcorn:1", 1, "port", 1)
    types = {a.TYPE for a in legal_actions(g)}
    assert types == {"build", "network", "develop", "sell", "loan", "pass"}


# -- the log ---------------------------------------------------------------------------------------


def test_lancashire_log_choice_stated_slot_left_out_with_two_allowed_slots():
    g = fresh(2)
    give(g, 0, "loc:colne")
    assert rule_of(g, Build(0, "loc:colne", "cotton_mill", "colne")) == "log.choice_stated"
    _, done = apply_action(g, Build(0, "loc:colne", "cotton_mill", "colne"), FIRST_OPTION)
    assert isinstance(done, Build) and done.slot == 0


def test_lancashire_log_choice_stated_coal_left_out_with_two_equally_close_mines():
    g = _mill_2_at_bolton(fresh(2))
    place_link(g, "bolton--bury", 1)
    place_link(g, "bolton--manchester", 1)
    place_tile(g, "bury:0", 1, "coal_mine", 1, resources=2)
    place_tile(g, "manchester:0", 1, "coal_mine", 2, resources=2)
    assert rule_of(g, Build(0, "loc:bolton", "cotton_mill", "bolton", 0)) == "log.choice_stated"


@pytest.mark.parametrize(
    "action",
    [
        Build(0, "loc:colne", "cotton_mill", "dudley", 0),
        Build(0, "loc:colne", "brewery", "colne", 0),
        Build(0, "loc:colne", "cotton_mill", "colne", 5),
        Network(0, "loc:colne", ("colne--leek",)),
        Pass(0, "loc:dudley"),
        Pass(0, "wild:location"),
    ],
)
def test_lancashire_log_unknown_name_every_named_thing_must_exist(action):
    g = fresh(2)
    place_tile(g, "stockport:0", 0, "cotton_mill", 1)
    give(g, 0, "loc:colne")
    assert rule_of(g, action) == "log.unknown_name"


def _short_game_log(seed: int = 1) -> GameLog:
    """A whole 2-player game of passes."""
    g = new_game(["Ann", "Bob"], SeededChance(seed), R)
    actions = []
    while not g.game_over:
        seat = g.current_player
        g, done = apply_action(g, Pass(seat, g.players[seat].hand[0]))
        actions.append(done)
    return GameLog(players=("Ann", "Bob"), chance={"seed": seed}, actions=actions, edition="lancashire")


def test_lancashire_log_truncated_a_finished_log_runs_to_the_end_of_the_rail_era():
    log = _short_game_log()
    assert validate_log(log).ok
    log.actions = log.actions[:-1]
    v = validate_log(log)
    assert not v.ok and v.error is not None and v.error["rule"] == "log.truncated"


def test_lancashire_log_result_declared_result_must_match():
    log = _short_game_log()
    v = validate_log(log)
    assert v.ok and v.final is not None
    log.result = {"final": [{"seat": 0, "vp": 0, "money": 9999}]}
    v2 = validate_log(log)
    assert not v2.ok and v2.error is not None and v2.error["rule"] == "log.result"


def test_lancashire_log_every_rule_id_has_the_rulebook_words():
    book = RULEBOOKS["lancashire"]
    assert len(book) >= 40
    assert all(rule.text and rule.section for rule in book.values())
