"""Loan, Scout and Pass."""

from __future__ import annotations

import pytest
from helpers import act, fresh, give, pass_turns, rule_of, set_income_space, two_actions

from brass_stats.engine import Loan, Pass, Scout
from brass_stats.rules_data import WILD_INDUSTRY, WILD_LOCATION

# -- loan -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("space", "level_after", "space_after"),
    [
        (10, -3, 7),  # the start: level 0
        (19, 2, 14),  # level 5, lower space
        (20, 2, 14),  # level 5, upper space
        (34, 9, 28),  # level 12
        (77, 22, 68),  # level 25
        (99, 27, 88),  # top of the track
        (13, -1, 9),  # level 2
    ],
)
def test_loan_takes_30_and_moves_income_3_levels_down_to_the_highest_space(space, level_after, space_after):
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_income_space(g, 0, space)
    g2 = act(g, Loan(0, "loc:leek"))
    p = g2.players[0]
    assert p.money == 47
    assert p.income_space == space_after
    assert g2.income_level(0) == level_after
    assert p.loans == 1
    assert p.spent == 0
    assert p.discard[-1] == "loc:leek"


def test_loan_limit_cannot_go_below_level_minus_10():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_income_space(g, 0, 2)  # level -8
    assert rule_of(g, Loan(0, "loc:leek")) == "loan.limit"
    set_income_space(g, 0, 0)  # level -10
    assert rule_of(g, Loan(0, "loc:leek")) == "loan.limit"


def test_loan_limit_down_to_exactly_level_minus_10_is_allowed():
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_income_space(g, 0, 3)  # level -7
    g2 = act(g, Loan(0, "loc:leek"))
    assert g2.players[0].income_space == 0
    assert g2.income_level(0) == -10
    assert g2.players[0].money == 47


def test_loan_limit_after_three_loans_from_the_start():
    g = two_actions(fresh(2))
    give(g, 0, "loc:leek", "loc:stone", "loc:derby")
    g = act(g, Loan(0, "loc:leek"))
    g = act(g, Loan(0, "loc:stone"))
    assert g.income_level(0) == -6
    assert g.players[0].money == 77
    g = pass_turns(g, 2)  # player 1; nobody spent money, so player 0 starts the next round
    assert g.current_player == 0
    give(g, 0, "loc:derby", "loc:uttoxeter")
    g = act(g, Loan(0, "loc:derby"))
    assert g.income_level(0) == -9
    assert rule_of(g, Loan(0, "loc:uttoxeter")) == "loan.limit"


# -- scout ------------------------------------------------------------------------------------


def test_scout_cards_discards_three_and_takes_one_wild_of_each():
    g = two_actions(fresh(2))
    give(g, 0, "loc:leek", "loc:stone", "loc:derby", "loc:belper")
    g2 = act(g, Scout(0, ("loc:leek", "loc:stone", "loc:derby")))
    p = g2.players[0]
    assert sorted(p.hand) == sorted(["loc:belper", WILD_LOCATION, WILD_INDUSTRY])
    assert p.discard[-3:] == ["loc:leek", "loc:stone", "loc:derby"]
    assert g2.wild == {WILD_LOCATION: 3, WILD_INDUSTRY: 3}
    assert (p.money, p.spent) == (17, 0)
    assert g2.current_player == 0 and g2.actions_this_turn == 1


@pytest.mark.parametrize("n", [1, 2, 4])
def test_scout_cards_exactly_three_discards(n):
    g = fresh(2)
    give(g, 0, "loc:leek", "loc:stone", "loc:derby", "loc:belper")
    discards = ("loc:leek", "loc:stone", "loc:derby", "loc:belper")[:n]
    assert rule_of(g, Scout(0, discards)) == "scout.cards"


def test_scout_cards_needs_a_wild_card_left_in_each_pile():
    g = fresh(2)
    give(g, 0, "loc:leek", "loc:stone", "loc:derby")
    g.wild[WILD_INDUSTRY] = 0
    assert rule_of(g, Scout(0, ("loc:leek", "loc:stone", "loc:derby"))) == "scout.cards"


def test_scout_wild_in_hand_refused():
    g = fresh(2)
    give(g, 0, "loc:leek", "loc:stone", "loc:derby", WILD_INDUSTRY)
    assert rule_of(g, Scout(0, ("loc:leek", "loc:stone", "loc:derby"))) == "scout.wild_in_hand"


def test_scout_wild_in_hand_refused_even_when_discarding_it():
    g = fresh(2)
    give(g, 0, "loc:leek", "loc:stone", WILD_LOCATION)
    assert rule_of(g, Scout(0, ("loc:leek", "loc:stone", WILD_LOCATION))) == "scout.wild_in_hand"


def test_scout_wild_in_hand_allowed_again_after_the_wilds_are_played():
    g = two_actions(fresh(2))
    give(g, 0, "loc:leek", "loc:stone", "loc:derby", "loc:belper", "loc:walsall", "loc:dudley")
    g = act(g, Scout(0, ("loc:leek", "loc:stone", "loc:derby")))
    assert rule_of(g, Scout(0, ("loc:belper", "loc:walsall", "loc:dudley"))) == "scout.wild_in_hand"
    g = act(g, Pass(0, WILD_LOCATION))
    g = pass_turns(g, 2)  # player 1's turn
    assert g.current_player == 0  # nobody spent anything: the order stays
    assert rule_of(g, Scout(0, ("loc:belper", "loc:walsall", "loc:dudley"))) == "scout.wild_in_hand"
    g = act(g, Pass(0, WILD_INDUSTRY))
    assert g.wild == {WILD_LOCATION: 4, WILD_INDUSTRY: 4}
    g = act(g, Scout(0, ("loc:belper", "loc:walsall", "loc:dudley")))
    assert g.wild == {WILD_LOCATION: 3, WILD_INDUSTRY: 3}


def test_scout_hand_refilled_to_8_at_the_end_of_the_turn():
    g = fresh(2)
    deck = list(g.deck)
    hand = g.players[0].hand
    g2 = act(g, Scout(0, tuple(hand[:3])))
    p = g2.players[0]
    assert len(p.hand) == 8
    assert p.hand == hand[3:] + [WILD_LOCATION, WILD_INDUSTRY] + deck[:1]
    assert g2.current_player == 1


# -- pass -----------------------------------------------------------------------------------------


def test_pass_discards_one_card_per_action_passed():
    g = two_actions(fresh(2))
    give(g, 0, "loc:leek", "loc:stone", "loc:derby")
    g = act(g, Pass(0, "loc:stone"))
    assert g.players[0].hand == ["loc:leek", "loc:derby"]
    assert g.current_player == 0
    g = act(g, Pass(0, "loc:leek"))
    assert g.players[0].discard[-2:] == ["loc:stone", "loc:leek"]
    assert g.current_player == 1
    assert (g.players[0].money, g.players[0].income_space, g.players[0].spent) == (17, 10, 0)


def test_pass_needs_a_card_in_hand():
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert rule_of(g, Pass(0, "loc:stone")) == "turn.card_in_hand"
