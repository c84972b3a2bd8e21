"""Player turns: whose turn, how many actions, discarding, refilling, spending, and the log's naming rules."""

from __future__ import annotations

import pytest
from helpers import (
    act,
    fresh,
    give,
    place_link,
    place_tile,
    rule_of,
    set_merchants,
    set_money,
    to_rail_era,
    two_actions,
)

from brass_stats.engine import Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, apply_action
from brass_stats.errors import AmbiguousChoice, IllegalAction
from brass_stats.rules_data import WILD_INDUSTRY, WILD_LOCATION

# -- turn.order ------------------------------------------------------------------


def test_turn_order_other_player_may_not_act():
    g = fresh(2)
    assert g.current_player == 0
    assert rule_of(g, Pass(1, g.players[1].hand[0])) == "turn.order"


def test_turn_order_players_act_in_turn_order_track_order():
    g = fresh(3, order=[2, 0, 1])
    assert g.current_player == 2
    assert rule_of(g, Pass(0, g.players[0].hand[0])) == "turn.order"
    g = act(g, Pass(2, g.players[2].hand[0]))
    assert g.current_player == 0
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 1
    assert rule_of(g, Pass(2, g.players[2].hand[0])) == "turn.order"


# -- turn.actions --------------------------------------------------------------------


def test_turn_actions_one_action_each_in_the_first_canal_round():
    g = fresh(2)
    assert g.actions_per_turn() == 1
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 1
    assert g.actions_this_turn == 0
    g = act(g, Pass(1, g.players[1].hand[0]))
    assert (g.era_round, g.current_player) == (2, 0)


def test_turn_actions_two_actions_per_turn_after_the_first_canal_round():
    g = fresh(2)
    g = act(g, Pass(0, g.players[0].hand[0]))
    g = act(g, Pass(1, g.players[1].hand[0]))
    assert g.era_round == 2
    assert g.actions_per_turn() == 2
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 0 and g.actions_this_turn == 1
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 1 and g.actions_this_turn == 0


def test_turn_actions_first_rail_round_has_two_actions():
    g = fresh(2)
    g.era, g.era_round = "rail", 1
    assert g.actions_per_turn() == 2
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert g.current_player == 0


def test_turn_actions_same_action_twice_in_one_turn():
    g = two_actions(fresh(2))
    give(g, 0, "loc:dudley", "loc:birmingham", "loc:coventry")
    g = act(g, Loan(0, "loc:dudley"))
    g = act(g, Loan(0, "loc:birmingham"))
    assert g.players[0].money == 17 + 60
    assert g.income_level(0) == -6
    assert g.current_player == 1


# -- turn.card_in_hand -------------------------------------------------------------


def test_turn_card_in_hand_card_not_held():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    assert rule_of(g, Loan(0, "loc:birmingham")) == "turn.card_in_hand"


def test_turn_card_in_hand_every_action_discards_a_card():
    g = fresh(2)
    assert rule_of(g, Pass(0, "")) == "turn.card_in_hand"
    assert rule_of(g, Scout(0, ())) == "turn.card_in_hand"


def test_turn_card_in_hand_scout_needs_each_copy():
    g = fresh(2)
    give(g, 0, "loc:dudley", "loc:dudley", "loc:birmingham")
    assert rule_of(g, Scout(0, ("loc:dudley", "loc:dudley", "loc:dudley"))) == "turn.card_in_hand"
    g2 = act(g, Scout(0, ("loc:dudley", "loc:dudley", "loc:birmingham")))
    assert g2.players[0].discard[-3:] == ["loc:dudley", "loc:dudley", "loc:birmingham"]


def test_turn_card_in_hand_discarded_card_goes_face_up_on_top_of_discard_pile():
    g = fresh(2)
    face_down = g.players[0].discard[0]
    card = g.players[0].hand[3]
    g2 = act(g, Pass(0, card))
    assert g2.players[0].discard == [face_down, card]


def test_turn_card_in_hand_pass_discards_a_card_and_changes_nothing_else():
    g = fresh(2)
    before = g.players[0]
    card = before.hand[0]
    g2 = act(g, Pass(0, card))
    after = g2.players[0]
    assert (after.money, after.income_space, after.vp, after.spent) == (17, 10, 0, 0)
    assert after.discard[-1] == card
    assert g2.tiles == {} and g2.links == {}


# -- hand refill, wild cards ------------------------------------------------------------


def test_hand_refilled_to_8_after_the_turn_not_after_each_action():
    g = two_actions(fresh(2))
    deck = list(g.deck)
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert len(g.players[0].hand) == 7
    assert g.deck == deck
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert len(g.players[0].hand) == 8
    assert g.players[0].hand[-2:] == deck[:2]
    assert g.deck == deck[2:]


def test_hand_refill_stops_when_the_deck_is_empty():
    g = two_actions(fresh(2))
    g.deck = ["loc:walsall"]
    g = act(g, Pass(0, g.players[0].hand[0]))
    g = act(g, Pass(0, g.players[0].hand[0]))
    assert len(g.players[0].hand) == 7
    assert g.deck == []
    assert "loc:walsall" in g.players[0].hand


def test_wild_cards_return_to_their_draw_areas_not_the_discard_pile():
    g = fresh(2)
    g.wild[WILD_LOCATION] = 3
    give(g, 0, WILD_LOCATION, "loc:dudley")
    discard = list(g.players[0].discard)
    g2 = act(g, Build(0, WILD_LOCATION, "coal_mine", "dudley", 0))
    assert g2.wild[WILD_LOCATION] == 4
    assert g2.players[0].discard == discard
    assert WILD_LOCATION not in g2.players[0].hand


def test_wild_industry_card_returns_after_a_non_build_action():
    g = fresh(2)
    g.wild[WILD_INDUSTRY] = 0
    give(g, 0, WILD_INDUSTRY, "loc:dudley")
    g2 = act(g, Loan(0, WILD_INDUSTRY))
    assert g2.wild[WILD_INDUSTRY] == 1
    assert WILD_INDUSTRY not in g2.players[0].discard


# -- money.afford and spending -------------------------------------------------------------


def test_money_afford_cannot_spend_money_you_do_not_have():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    set_money(g, 0, 7)
    # manufacturer I: £8 and 1 coal (bought from the market for £1: Birmingham-Oxford link)
    place_link(g, "birmingham--oxford", 1)
    assert rule_of(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1)) == "money.afford"
    set_money(g, 0, 8)
    assert rule_of(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1)) == "money.afford"


def test_money_afford_exactly_enough_money_is_fine():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    set_money(g, 0, 9)
    place_link(g, "birmingham--oxford", 1)
    g2 = act(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal=("market",)))
    assert g2.players[0].money == 0
    assert g2.players[0].spent == 9
    assert g2.coal_market == 12


def test_money_afford_for_network_and_develop():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    set_money(g, 0, 2)
    assert rule_of(g, Network(0, "loc:dudley", ("dudley--birmingham",))) == "money.afford"
    set_money(g, 0, 1)  # the iron market's cheapest cube costs £2 at the start
    assert rule_of(g, Develop(0, "loc:dudley", ("cotton_mill",))) == "money.afford"
    set_money(g, 0, 3)
    g2 = act(g, Network(0, "loc:dudley", ("dudley--birmingham",)))
    assert g2.players[0].money == 0


def test_spending_is_tracked_on_the_character_tile_loans_are_not_spending():
    g = two_actions(fresh(2))
    give(g, 0, "loc:dudley", "loc:birmingham", "loc:coventry")
    g = act(g, Loan(0, "loc:birmingham"))
    assert g.players[0].spent == 0
    g = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))
    assert g.players[0].spent == 5
    assert g.players[0].money == 17 + 30 - 5


# -- turn.game_over -------------------------------------------------------------


def test_turn_game_over_no_action_after_the_end_of_the_rail_era():
    g = to_rail_era(fresh(2))
    g.deck = []
    for p in g.players:
        p.hand = p.hand[:1]
    g = act(g, Pass(0, g.players[0].hand[0]))
    g = act(g, Pass(1, g.players[1].hand[0]))
    assert g.game_over and g.current_player is None
    assert rule_of(g, Pass(0, "loc:dudley")) == "turn.game_over"
    assert rule_of(g, Pass(1, "loc:dudley")) == "turn.game_over"


def test_turn_game_over_not_before_the_rail_era_ends():
    g = fresh(2)
    g.deck = []
    g.era_round = 10
    for p in g.players:
        p.hand = p.hand[:1]
    g = act(g, Pass(0, g.players[0].hand[0]))
    g = act(g, Pass(1, g.players[1].hand[0]))
    assert not g.game_over
    assert g.era == "rail"
    g2 = act(g, Pass(g.current_player, g.players[g.current_player].hand[0]))
    assert g2.action_count == g.action_count + 1


# -- log.choice_stated ----------------------------------------------------------------


def test_log_choice_stated_slot_left_out_with_two_allowed_slots():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_link(g, "birmingham--oxford", 1)
    a = Build(0, "loc:birmingham", "manufacturer", "birmingham", None, coal=("market",))
    with pytest.raises(AmbiguousChoice) as info:
        apply_action(g, a)
    assert info.value.rule == "log.choice_stated"
    assert info.value.details["options"] == [1, 3]


def test_log_choice_stated_omitted_choice_with_one_option_is_filled_in():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    g2, done = apply_action(g, Build(0, "loc:dudley", "coal_mine", "dudley"))
    assert done.slot == 0
    assert "dudley:0" in g2.tiles


def test_log_choice_stated_coal_source_left_out_with_two_equally_close_mines():
    g = fresh(2)
    give(g, 0, "loc:birmingham")
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_tile(g, "tamworth:0", 1, "coal_mine", 2, resources=3)
    place_link(g, "dudley--birmingham", 1)
    place_link(g, "tamworth--birmingham", 1)
    a = Build(0, "loc:birmingham", "manufacturer", "birmingham", 1)
    assert rule_of(g, a) == "log.choice_stated"
    g2 = act(g, Build(0, "loc:birmingham", "manufacturer", "birmingham", 1, coal=("tamworth:0",)))
    assert g2.tiles["tamworth:0"].resources == 2
    assert g2.tiles["dudley:0"].resources == 2


def test_log_choice_stated_beer_source_left_out_with_merchant_and_own_brewery():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    set_merchants(g, {"oxford": ["all", "blank"]})
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_tile(g, "dudley:1", 0, "brewery", 1, resources=1)
    place_link(g, "birmingham--oxford", 1)
    a = Sell(0, "loc:dudley", (Sale("birmingham:1", "oxford"),))
    with pytest.raises(AmbiguousChoice) as info:
        apply_action(g, a)
    assert info.value.details["options"] == ["merchant", "dudley:1"]


# -- log.unknown_name ------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Pass(0, "loc:narnia"),
        Build(0, "loc:dudley", "coal_mine", "narnia", 0),
        Build(0, "loc:dudley", "steel_mill", "dudley", 0),
        Build(0, "loc:dudley", "coal_mine", "dudley", 7),
        Network(0, "loc:dudley", ("dudley--narnia",)),
        Develop(0, "loc:dudley", ("steel_mill",)),
    ],
    ids=["card", "location", "industry", "slot", "link", "develop_industry"],
)
def test_log_unknown_name_every_named_thing_must_exist(action):
    g = fresh(2)
    give(g, 0, "loc:dudley")
    assert rule_of(g, action) == "log.unknown_name"


def test_log_unknown_name_merchant():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    assert rule_of(g, Sell(0, "loc:dudley", (Sale("birmingham:1", "london"),))) == "log.unknown_name"


def test_log_unknown_name_real_card_missing_from_hand_is_a_card_in_hand_error():
    g = fresh(2)
    give(g, 0, "loc:dudley")
    with pytest.raises(IllegalAction) as info:
        apply_action(g, Pass(0, "loc:leek"))
    assert info.value.rule == "turn.card_in_hand"
