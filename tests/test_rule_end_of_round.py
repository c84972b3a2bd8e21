"""End of round: turn order by money spent, income, negative income and shortfalls."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from helpers import act, fresh, give, pass_turns, place_link, place_tile, rule_of, set_income_space, set_money

from brass_stats.engine import Build, GameState, Loan, Network, Pass, SeededChance, Shortfall, apply_action, new_game
from brass_stats.engine.state import Player
from brass_stats.errors import AmbiguousChoice, IllegalAction
from brass_stats.rules_data import load_rules

# -- turn order ---------------------------------------------------------------------------------


def test_turn_order_next_round_least_spent_first_ties_keep_their_order():
    g = fresh(3)
    give(g, 0, "loc:dudley")
    give(g, 2, "loc:leek")
    g = act(g, Build(0, "loc:dudley", "coal_mine", "dudley", 0))  # spends £5
    g = pass_turns(g, 1)  # player 1 spends nothing
    g = act(g, Loan(2, "loc:leek"))  # a loan is not spending
    assert g.turn_order == [1, 2, 0]
    assert g.current_player == 1
    assert [p.spent for p in g.players] == [0, 0, 0]


def test_turn_order_next_round_by_amount_spent():
    g = fresh(3, order=[2, 1, 0])
    give(g, 2, "loc:leek")
    give(g, 1, "loc:dudley")
    give(g, 0, "loc:leek")
    g = act(g, Network(2, "loc:leek", ("dudley--birmingham",)))  # £3
    g = act(g, Build(1, "loc:dudley", "coal_mine", "dudley", 0))  # £5
    g = act(g, Network(0, "loc:leek", ("worcester--gloucester",)))  # £3, tied with player 2
    assert g.turn_order == [2, 0, 1]


def test_turn_order_spending_counts_over_the_whole_round_and_resets():
    g = fresh(2)
    g.era_round = 2
    give(g, 0, "loc:dudley", "loc:leek", "loc:stone")
    give(g, 1, "loc:cannock", "loc:leek", "loc:stone")
    g = act(g, Network(0, "loc:leek", ("worcester--gloucester",)))  # £3
    g = act(g, Network(0, "loc:stone", ("birmingham--worcester",)))  # £3 more: £6
    g = act(g, Build(1, "loc:cannock", "coal_mine", "cannock", 1))  # £5
    assert g.players[1].spent == 5
    g = pass_turns(g, 1)
    assert g.turn_order == [1, 0]
    assert [p.spent for p in g.players] == [0, 0]


# -- income --------------------------------------------------------------------------------


def test_income_paid_at_end_of_round_by_income_level():
    g = fresh(2)
    set_income_space(g, 0, 20)  # level 5
    set_income_space(g, 1, 31)  # level 11
    g = pass_turns(g, 1)
    assert g.players[0].money == 17
    g = pass_turns(g, 1)
    assert [p.money for p in g.players] == [22, 28]
    assert g.era_round == 2


def test_income_negative_level_is_paid_to_the_bank():
    g = fresh(2)
    set_income_space(g, 0, 5)  # level -5
    g = pass_turns(g, 2)
    assert g.players[0].money == 12
    assert g.phase == "actions"


def test_income_not_paid_after_each_turn_only_after_the_round():
    g = fresh(2)
    g.era_round = 2
    set_income_space(g, 0, 20)
    g = pass_turns(g, 2)
    assert g.players[0].money == 17
    g = pass_turns(g, 2)
    assert g.players[0].money == 22


# -- shortfall -----------------------------------------------------------------------------------


def shortfall_game(money: int = 3, vp: int = 0):
    """Player 0 owes £8 (level -8) with £3: £5 short. Tiles: cotton I (£6), manufacturer I (£4), coal I (£2)."""
    g = fresh(2)
    set_income_space(g, 0, 2)
    set_money(g, 0, money)
    g.players[0].vp = vp
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_tile(g, "birmingham:1", 0, "manufacturer", 1, flipped=True)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    place_tile(g, "birmingham:3", 1, "manufacturer", 1)
    g = pass_turns(g, 2)
    assert g.phase == "shortfall"
    assert g.current_player == 0
    assert g.players[0].money == 0
    return g


def test_shortfall_tile_sold_for_half_its_cost_excess_kept():
    g = shortfall_game()
    g2 = act(g, Shortfall(0, ("worcester:0",)))
    assert "worcester:0" not in g2.tiles
    assert g2.players[0].money == 1  # £6 for the cotton mill, £5 owed
    assert g2.phase == "actions"
    assert (g2.era_round, g2.current_player) == (2, 0)
    assert g2.players[0].vp == 0
    assert g2.players[0].mat["cotton_mill"] == (2, 2, 3, 3)  # removed from the game, not back to the mat


def test_shortfall_several_tiles_until_covered():
    g = shortfall_game()
    g2 = act(g, Shortfall(0, ("dudley:0", "birmingham:1")))
    assert g2.players[0].money == 1
    assert set(g2.tiles) == {"worcester:0", "birmingham:3"}


def test_shortfall_tiles_must_go_on_while_short_and_tiles_remain():
    g = shortfall_game()
    assert rule_of(g, Shortfall(0, ("dudley:0",))) == "shortfall.tiles"


def test_shortfall_tiles_must_stop_once_covered():
    g = shortfall_game()
    assert rule_of(g, Shortfall(0, ("worcester:0", "dudley:0"))) == "shortfall.tiles"


def test_shortfall_tiles_only_own_tiles():
    g = shortfall_game()
    assert rule_of(g, Shortfall(0, ("birmingham:3",))) == "shortfall.tiles"
    assert rule_of(g, Shortfall(0, ("coventry:0",))) == "shortfall.tiles"


def test_shortfall_tiles_choice_must_be_stated():
    g = shortfall_game()
    with pytest.raises(AmbiguousChoice) as info:
        apply_action(g, Shortfall(0))
    assert info.value.rule == "log.choice_stated"


def test_turn_shortfall_pending_other_actions_wait():
    g = shortfall_game()
    give(g, 0, "loc:leek")
    assert rule_of(g, Pass(0, "loc:leek")) == "turn.shortfall_pending"
    assert rule_of(g, Loan(0, "loc:leek")) == "turn.shortfall_pending"
    assert rule_of(g, Pass(1, g.players[1].hand[0])) == "turn.order"


def test_shortfall_not_needed_outside_a_shortfall():
    g = fresh(2)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    assert rule_of(g, Shortfall(0, ("dudley:0",))) == "shortfall.not_needed"
    assert rule_of(g, Shortfall(0)) == "shortfall.not_needed"


def test_shortfall_not_needed_when_money_covers_negative_income():
    g = fresh(2)
    set_income_space(g, 0, 2)
    set_money(g, 0, 8)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    g = pass_turns(g, 2)
    assert g.phase == "actions"
    assert g.players[0].money == 0
    assert "dudley:0" in g.tiles
    assert rule_of(g, Shortfall(0, ("dudley:0",))) == "shortfall.not_needed"


def test_shortfall_all_tiles_then_1_vp_per_pound_still_short():
    g = fresh(2)
    set_income_space(g, 0, 0)  # level -10
    set_money(g, 0, 1)
    g.players[0].vp = 20
    place_tile(g, "dudley:0", 0, "coal_mine", 1)  # £2
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)  # £4
    g = pass_turns(g, 2)
    g2 = act(g, Shortfall(0, ("birmingham:1", "dudley:0")))
    assert g2.tiles == {}
    assert g2.players[0].money == 0
    assert g2.players[0].vp == 20 - (9 - 6)


def test_shortfall_forced_removal_of_every_tile_may_be_left_unstated():
    g = fresh(2)
    set_income_space(g, 0, 0)
    set_money(g, 0, 0)
    g.players[0].vp = 5
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    g = pass_turns(g, 2)
    g2, done = apply_action(g, Shortfall(0))
    assert sorted(done.tiles) == ["birmingham:1", "dudley:0"]
    assert g2.players[0].vp == 1


def test_shortfall_tiles_order_is_no_choice_when_both_tiles_must_go_either_way():
    """Tiles are removed until the shortfall is covered, "but must stop as soon as you have acquired
    enough money" (shortfall.tiles): £6 short with tiles worth £3 and £4, neither covers it alone, so both go
    whichever is first. Both orders end in the same state, so the list may be left out
    (log.choice_stated)."""
    g = fresh(2)
    set_income_space(g, 0, 4)  # level -6
    set_money(g, 0, 0)
    place_tile(g, "dudley:1", 0, "coal_mine", 2)  # costs £7: worth £3
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)  # costs £8: worth £4
    g = pass_turns(g, 2)
    assert g.shortfalls == [(0, 6)]
    g2, done = apply_action(g, Shortfall(0))
    assert done.tiles == ("birmingham:1", "dudley:1")  # board order
    assert "birmingham:1" not in g2.tiles and "dudley:1" not in g2.tiles
    assert g2.players[0].money == 1  # £7 raised, £6 owed: the excess kept
    assert _alike(g2, act(g, Shortfall(0, ("dudley:1", "birmingham:1"))))


# tiles by what they raise when removed (half their cost), on their own slots
_TILES = {
    "birmingham": [
        ("dudley:0", "coal_mine", 1),  # £2
        ("dudley:1", "coal_mine", 2),  # £3
        ("birmingham:1", "manufacturer", 1),  # £4
        ("worcester:0", "cotton_mill", 1),  # £6
    ],
    "lancashire": [
        ("wigan:0", "coal_mine", 1),  # £2
        ("wigan:1", "coal_mine", 2),  # £3
        ("lancaster:0", "port", 1),  # £3
        ("colne:0", "cotton_mill", 1),  # £6
    ],
}


def _alike(a: GameState, b: GameState) -> bool:
    """The same state: every compared field but the caches and the effects recorded (players by value)."""
    skip = {"cache", "place_cache", "link_cache", "effects"}

    def value(state: GameState, name: str) -> object:
        if name == "players":
            return [[getattr(p, slot) for slot in Player.__slots__] for p in state.players]
        return getattr(state, name)

    return all(value(a, f.name) == value(b, f.name) for f in dataclasses.fields(a) if f.compare and f.name not in skip)


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_log_choice_stated_shortfall_tiles_left_out_exactly_when_every_allowed_way_ends_alike(edition):
    """A choice may be left out exactly when every way the rules allow ends in the same state
    (log.choice_stated). For debts of £1 to £10 and two or three own tiles, every order of every
    set of the tiles is tried through the engine, stated (shortfall.tiles); the list left out is
    accepted exactly when the accepted ones all end alike, and then ends that way."""
    rules = load_rules(edition)
    checked = {True: 0, False: 0}
    for k in (2, 3):
        for tiles in itertools.combinations(_TILES[edition], k):
            for debt in range(1, 11):
                g = new_game(["Ann", "Bob"], SeededChance(0), rules)
                g.turn_order = [0, 1]
                set_income_space(g, 0, 10 - debt)  # level -debt
                set_money(g, 0, 0)
                g.players[0].vp = 20
                for ref, industry, level in tiles:
                    place_tile(g, ref, 0, industry, level)
                g = pass_turns(g, 2)
                assert g.shortfalls == [(0, debt)]
                ends: list[GameState] = []
                refs = [ref for ref, _, _ in tiles]
                for n in range(1, k + 1):
                    for order in itertools.permutations(refs, n):
                        try:
                            after = act(g, Shortfall(0, order))
                        except IllegalAction:
                            continue
                        if not any(_alike(after, e) for e in ends):
                            ends.append(after)
                assert ends, "some way is always allowed"
                if len(ends) == 1:
                    assert _alike(act(g, Shortfall(0)), ends[0]), (tiles, debt)
                else:
                    assert rule_of(g, Shortfall(0)) == "log.choice_stated", (tiles, debt)
                checked[len(ends) == 1] += 1
    assert checked[True] and checked[False]


def test_shortfall_vp_never_below_zero():
    g = fresh(2)
    set_income_space(g, 0, 0)
    set_money(g, 0, 0)
    g.players[0].vp = 3
    g = pass_turns(g, 2)
    assert g.phase == "actions"  # no tiles: the VP are lost at once
    assert g.players[0].vp == 0
    assert g.players[0].money == 0


def test_shortfall_link_tiles_are_not_sold():
    g = fresh(2)
    set_income_space(g, 0, 5)  # level -5
    set_money(g, 0, 0)
    g.players[0].vp = 7
    place_link(g, "dudley--birmingham", 0)
    g = pass_turns(g, 2)
    assert g.phase == "actions"
    assert g.links == {"dudley--birmingham": 0}
    assert g.players[0].vp == 2


def test_shortfall_several_players_settle_in_the_new_turn_order():
    g = fresh(2, order=[1, 0])
    for seat in (0, 1):
        set_income_space(g, seat, 5)
        set_money(g, seat, 0)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    place_tile(g, "cannock:1", 1, "coal_mine", 1)
    place_tile(g, "worcester:0", 1, "cotton_mill", 1)
    g = pass_turns(g, 2)
    assert g.shortfalls == [(1, 5), (0, 5)]
    assert g.current_player == 1
    assert rule_of(g, Shortfall(0, ("dudley:0",))) == "turn.order"
    g = act(g, Shortfall(1, ("worcester:0",)))
    assert g.phase == "shortfall" and g.current_player == 0
    assert g.players[1].money == 1
    g = act(g, Shortfall(0))
    assert g.phase == "actions"
    assert g.players[0].vp == 0 and g.tiles.keys() == {"cannock:1"}
    assert (g.era_round, g.current_player) == (2, 1)
