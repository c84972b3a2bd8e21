"""End of an era: link and tile scoring, the Canal Era's clean-up and new deal, the end of the game, ranking."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import (
    NAMES,
    act,
    fresh,
    last_round,
    merchant,
    pass_turns,
    pass_until_round_ends,
    place_link,
    place_tile,
    rule_of,
    set_income_space,
    set_merchants,
    set_money,
    to_rail_era,
)

from brass_stats.engine import Pass, SeededChance, Shortfall, apply_action, new_game, standings
from brass_stats.log.format import GameLog
from brass_stats.validation import validate_log


def scored_canal_game():
    """The last Canal Era round, with links and tiles of both players on the board."""
    g = fresh(2)
    last_round(g)
    place_link(g, "birmingham--oxford", 0)
    place_link(g, "dudley--birmingham", 0)
    place_link(g, "kidderminster--worcester", 1)
    place_tile(g, "birmingham:1", 1, "manufacturer", 1, flipped=True)  # 2 link icons, 3 VP
    place_tile(g, "birmingham:0", 0, "cotton_mill", 1)  # unflipped: no icons, no VP
    place_tile(g, "dudley:0", 1, "coal_mine", 1, flipped=True)  # 2 link icons, 1 VP
    place_tile(g, "worcester:0", 0, "cotton_mill", 1, flipped=True)  # 1 link icon, 5 VP
    place_tile(g, "farm_brewery_south:0", 1, "brewery", 1, flipped=True)  # 2 link icons, 4 VP
    place_tile(g, "cannock:1", 0, "coal_mine", 2, flipped=True)  # level 2: stays; 2 VP
    place_tile(g, "redditch:1", 1, "iron_works", 2, resources=2)  # unflipped level 2: stays, no VP
    return g


def end_era(g):
    return pass_until_round_ends(g)


# -- link and tile scoring --------------------------------------------------------------------


def test_era_end_links_score_merchant_icons_and_flipped_tile_icons_of_any_owner():
    g = end_era(scored_canal_game())
    # player 0: birmingham--oxford 2 + 2 = 4; dudley--birmingham 2 + 2 = 4; tiles 5 + 2
    # player 1: kidderminster--worcester 0 + 1 + 2 (the southern farm brewery) = 3; tiles 3 + 1 + 4
    assert [p.vp for p in g.players] == [4 + 4 + 5 + 2, 3 + 3 + 1 + 4]


def test_era_end_kidderminster_worcester_link_counts_the_farm_brewery():
    g = fresh(2)
    last_round(g)
    place_link(g, "kidderminster--worcester", 1)
    place_tile(g, "farm_brewery_south:0", 0, "brewery", 1, flipped=True)
    g = end_era(g)
    assert g.players[1].vp == 2
    assert g.players[0].vp == 4


def test_era_end_link_to_a_merchant_without_tiles_scores_2():
    g = fresh(2)  # no merchant tiles at Warrington with 2 players
    last_round(g)
    place_link(g, "warrington--stoke_on_trent", 0)
    assert end_era(g).players[0].vp == 2


def test_era_end_unflipped_tiles_score_nothing_and_add_no_link_icons():
    g = fresh(2)
    last_round(g)
    place_link(g, "dudley--birmingham", 0)
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_tile(g, "birmingham:1", 1, "manufacturer", 1)
    g = end_era(g)
    assert [p.vp for p in g.players] == [0, 0]


def test_era_end_rail_links_and_tiles_score_the_same_way():
    g = to_rail_era(fresh(2))
    last_round(g)
    place_link(g, "birmingham--oxford", 0)
    place_tile(g, "birmingham:1", 1, "manufacturer", 2, flipped=True)  # 1 link icon, 5 VP
    g = end_era(g)
    assert [p.vp for p in g.players] == [3, 5]


def test_era_end_vp_added_to_vp_already_held():
    g = scored_canal_game()
    g.players[0].vp = 90
    g = end_era(g)
    assert g.players[0].vp == 90 + 15


# -- end of the Canal Era --------------------------------------------------------------------------


def test_canal_end_removes_level_1_tiles_and_links_keeps_higher_levels():
    g = end_era(scored_canal_game())
    assert g.era == "rail"
    assert set(g.tiles) == {"cannock:1", "redditch:1"}
    assert g.tiles["redditch:1"].resources == 2
    assert g.tiles["cannock:1"].flipped
    assert g.links == {}


def test_canal_end_income_paid_for_the_last_canal_round():
    g = scored_canal_game()
    set_income_space(g, 0, 20)
    set_income_space(g, 1, 5)
    g = end_era(g)
    assert [p.money for p in g.players] == [22, 12]


def test_canal_end_refills_merchant_beer_beside_non_blank_tiles_only():
    g = scored_canal_game()
    set_merchants(
        g, {"oxford": ["all", "blank"], "gloucester": ["cotton_mill", "manufacturer"], "shrewsbury": ["blank"]}
    )
    merchant(g, "oxford", 0).beer = False
    merchant(g, "gloucester", 1).beer = False
    g = end_era(g)
    assert [(m.location, m.index, m.beer) for m in g.merchant_spaces] == [
        ("shrewsbury", 0, False),
        ("oxford", 0, True),
        ("oxford", 1, False),
        ("gloucester", 0, True),
        ("gloucester", 1, True),
    ]


def test_canal_end_reshuffles_the_discards_and_deals_8_cards_each():
    g = scored_canal_game()
    g.players[0].discard = ["loc:dudley"] * 10
    g.players[1].discard = ["ind:brewery"] * 11
    pile = g.players[0].discard + g.players[1].discard + [p.hand[0] for p in g.players]
    g = end_era(g)
    assert [len(p.hand) for p in g.players] == [8, 8]
    assert [p.discard for p in g.players] == [[], []]
    assert len(g.deck) == len(pile) - 16
    assert Counter(g.deck + g.players[0].hand + g.players[1].hand) == Counter(pile)


def test_canal_end_rail_era_starts_with_two_actions_and_the_canal_turn_order():
    g = scored_canal_game()
    g.players[0].spent = 4
    before = g.round
    g = end_era(g)
    assert (g.era, g.era_round, g.round) == ("rail", 1, before + 1)
    assert g.actions_per_turn() == 2
    assert g.turn_order == [1, 0]
    assert g.current_player == 1


def test_canal_end_shortfall_settled_before_the_era_scoring():
    g = fresh(2)
    last_round(g)
    set_income_space(g, 0, 2)  # owes £8
    set_money(g, 0, 0)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1, flipped=True)  # £6 for a shortfall, 5 VP if kept
    place_tile(g, "dudley:0", 0, "coal_mine", 1, flipped=True)  # £2, 1 VP
    g = end_era(g)
    assert g.phase == "shortfall" and g.era == "canal"
    g = act(g, Shortfall(0, ("worcester:0", "dudley:0")))
    assert g.era == "rail"
    assert g.players[0].vp == 0
    assert g.players[0].money == 0


# -- whole eras ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 10), (3, 9), (4, 8)])
def test_era_lasts_until_deck_and_hands_are_empty_8_9_10_rounds(players, rounds):
    g = new_game(list(NAMES[:players]), SeededChance(11))
    while g.era == "canal":
        g = pass_until_round_ends(g)
    assert g.round == rounds + 1
    assert [len(p.hand) for p in g.players] == [8] * players
    assert len(g.deck) == {2: 40, 3: 54, 4: 64}[players] - 8 * players
    while not g.game_over:
        g = pass_until_round_ends(g)
    assert g.round == 2 * rounds
    assert g.era_round == rounds


def test_rail_end_no_income_after_the_final_round_and_the_game_is_over():
    g = to_rail_era(fresh(2))
    last_round(g)
    set_income_space(g, 0, 40)
    set_income_space(g, 1, 0)
    g = pass_turns(g, 1)
    assert not g.game_over
    g = pass_turns(g, 1)
    assert g.game_over
    assert g.phase == "over"
    assert [p.money for p in g.players] == [17, 17]
    assert rule_of(g, Pass(0, "loc:leek")) == "turn.game_over"


def test_rail_end_scores_then_ends_without_a_new_deal():
    g = to_rail_era(fresh(2))
    last_round(g)
    place_link(g, "redditch--oxford", 1)
    place_tile(g, "redditch:1", 1, "iron_works", 2, flipped=True)  # 1 icon, 5 VP
    g = pass_turns(g, 2)
    assert g.players[1].vp == 3 + 5
    assert g.links == {}
    assert g.deck == [] and all(not p.hand for p in g.players)


# -- final ranking ----------------------------------------------------------------------------------


def ranked(vp, income_spaces, money):
    g = fresh(len(vp))
    for p, v, s, m in zip(g.players, vp, income_spaces, money, strict=True):
        p.vp, p.income_space, p.money = v, s, m
    return [(s.seat, s.rank) for s in standings(g)]


def test_final_ranking_by_vp():
    assert ranked([50, 60, 40], [10, 10, 10], [0, 0, 0]) == [(0, 2), (1, 1), (2, 3)]


def test_final_ranking_vp_tie_broken_by_income_space_not_level():
    # D17 (designer ruling): spaces 13 and 14 are both income level 2, but 14 is further along the track
    assert ranked([50, 50, 50], [13, 15, 14], [9, 0, 0]) == [(0, 3), (1, 1), (2, 2)]


def test_final_ranking_then_by_money_only_on_the_same_space():
    # seats 0 and 2 share space 20: money decides between them; seat 1 (space 19) is behind both despite £7
    assert ranked([50, 50, 50, 49], [20, 19, 20, 99], [5, 7, 6, 100]) == [(0, 2), (1, 3), (2, 1), (3, 4)]


def test_final_ranking_full_tie_shares_the_rank():
    assert ranked([50, 50, 20], [20, 20, 20], [5, 5, 100]) == [(0, 1), (1, 1), (2, 3)]


def test_final_ranking_standings_report_vp_income_level_and_money():
    g = fresh(2)
    g.players[0].vp, g.players[0].income_space, g.players[0].money = 77, 5, 3
    s = standings(g)[0]
    assert (s.seat, s.name, s.vp, s.income_level, s.money, s.rank) == (0, "Ann", 77, -5, 3, 1)


# -- log.truncated and log.result --------------------------------------------------------------------


def all_pass_log(seed: int = 5) -> tuple[GameLog, object]:
    """A complete two-player game in which everyone always passes."""
    log = GameLog.new(["Ann", "Bob"], seed=seed)
    g = new_game(list(log.players), SeededChance(seed))
    while not g.game_over:
        seat = g.current_player
        a = Pass(seat, g.players[seat].hand[0])
        g, _ = apply_action(g, a)
        log.actions.append(a)
    return log, g


def test_log_truncated_game_must_run_to_the_end_of_the_rail_era():
    log, _ = all_pass_log()
    assert validate_log(log).ok
    log.actions = log.actions[:-1]
    v = validate_log(log)
    assert not v.ok
    assert v.error is not None and v.error["rule"] == "log.truncated"
    log.actions = log.actions[:37]
    assert validate_log(log).error["rule"] == "log.truncated"


def test_log_result_declared_result_must_match_the_replay():
    log, final = all_pass_log()
    # all passes: two incomes of £0... everyone keeps £17, 0 VP, income level 0, both ranked 1st
    assert [(p.vp, p.money) for p in final.players] == [(0, 17), (0, 17)]
    log.result = {"final": [{"seat": 0, "vp": 0, "money": 17, "rank": 1}, {"seat": 1, "vp": 0, "rank": 1}]}
    assert validate_log(log).ok
    log.result = {"final": [{"seat": 0, "vp": 3, "money": 17}, {"seat": 1, "vp": 0}]}
    v = validate_log(log)
    assert not v.ok and v.kind == "result"
    assert v.error is not None and v.error["rule"] == "log.result"
    assert v.detail == ["seat 0 vp: declared 3, replayed 0"]
