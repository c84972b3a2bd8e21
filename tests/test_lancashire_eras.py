"""Brass: Lancashire eras and options: end of the Canal Era, end of the Rail Era, winning, and the
classic rules (virtual link, classic deck) and the introductory game (also for Brass: Birmingham)."""

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
    pass_turns,
    pass_until_round_ends,
    place_link,
    place_tile,
    rule_of,
    set_dcm,
    set_income_space,
    set_money,
    to_rail_era,
    two_actions,
)

from brass_stats.engine import Build, Network, Pass, SeededChance, new_game, standings
from brass_stats.engine.state import GameState
from brass_stats.errors import LogFormatError
from brass_stats.rules_data import load_rules

R = LANCASHIRE
BIRMINGHAM = load_rules("birmingham")


def end_canal_era(g: GameState) -> GameState:
    """Make this the last round of the Canal Era and let everyone pass their last card."""
    if g.era_round == 1:
        two_actions(g)
    last_round(g)
    return pass_until_round_ends(g)


def play_era_by_passing(g: GameState) -> tuple[GameState, int]:
    """Everyone passes until the era (or the game) ends; returns the new state and the rounds played."""
    era, rounds = g.era, 0
    while g.era == era and not g.game_over:
        start = g.round
        while g.round == start and g.era == era and not g.game_over:
            g = pass_turns(g, 1)
        rounds += 1
    return g, rounds


# -- end of the Canal Era ---------------------------------------------------------------------------


def canal_board() -> GameState:
    g = fresh(2)
    place_tile(g, "colne:0", 0, "cotton_mill", 1, flipped=True)  # 5 VP, removed afterwards
    place_tile(g, "stockport:0", 0, "cotton_mill", 2, flipped=True)  # 5 VP, stays
    place_tile(g, "stockport:1", 1, "cotton_mill", 1)  # unflipped: nothing
    place_tile(g, "ellesmere_port:0", 1, "port", 1)  # unflipped: nothing
    place_tile(g, "manchester:0", 1, "coal_mine", 2, flipped=True)  # 2 VP, stays
    place_link(g, "colne--yorkshire", 0)  # Yorkshire 2 + Colne 1 = 3
    place_link(g, "manchester--stockport", 0)  # Manchester 1 + Stockport 1 = 2
    place_link(g, "ellesmere_port--northwich", 1)  # Ellesmere Port 0 + Northwich 2 = 2
    return g


def test_lancashire_end_of_canal_era_links_then_flipped_tiles_score():
    g = end_canal_era(canal_board())
    assert g.era == "rail"
    assert g.players[0].vp == 3 + 2 + 5 + 5
    assert g.players[1].vp == 2 + 2


def test_lancashire_end_of_canal_era_link_tiles_are_removed_and_returned():
    g = end_canal_era(canal_board())
    assert g.links == {}
    assert [p.link_tiles for p in g.players] == [14, 14]


def test_lancashire_end_of_canal_era_printed_link_value_of_link_only_towns_and_external_markets():
    g = fresh(3)
    place_link(g, "macclesfield--the_midlands", 0)  # 0 + 2
    place_link(g, "northwich--the_midlands", 1)  # 2 + 2
    place_link(g, "fleetwood--preston", 2)  # 0 + 0
    g = end_canal_era(g)
    assert [p.vp for p in g.players] == [2, 4, 0]


def test_lancashire_end_of_canal_era_every_flipped_tile_of_any_owner_is_one_link_icon():
    g = fresh(2)
    place_tile(g, "liverpool:0", 1, "port", 1, flipped=True)
    place_tile(g, "liverpool:1", 1, "port", 1, flipped=True)
    place_tile(g, "liverpool:3", 0, "port", 2)  # unflipped
    place_tile(g, "liverpool:2", 0, "shipyard", 1, flipped=True, from_mat=False)
    place_tile(g, "wigan:0", 1, "coal_mine", 1, resources=1)  # unflipped
    place_link(g, "liverpool--wigan", 0)
    g = end_canal_era(g)
    assert g.players[0].vp == 3 + 10  # link: 3 flipped tiles in Liverpool; tile: Shipyard I
    assert g.players[1].vp == 2 + 2


def test_lancashire_end_of_canal_era_level_1_tiles_are_removed_level_2_and_more_stay():
    g = end_canal_era(canal_board())
    assert sorted(g.tiles) == ["manchester:0", "stockport:0"]


def test_lancashire_end_of_canal_era_income_of_the_last_canal_round_is_taken():
    g = canal_board()
    set_income_space(g, 0, 20)  # level 5
    g = end_canal_era(g)
    assert g.players[0].money == 35


def test_lancashire_end_of_canal_era_distant_market_reset():
    g = canal_board()
    set_dcm(g, [], position=8)
    g.dcm_drawn = [4, 3, 1, 2, 2, 1, 3, 2]
    g = end_canal_era(g)
    assert g.dcm_position == 0 and g.dcm_drawn == []
    assert sorted(g.dcm_pile) == sorted(R.dcm_tiles[2])


def test_lancashire_end_of_canal_era_markets_are_not_reset():
    g = canal_board()
    g.coal_market, g.iron_market = 3, 0
    g = end_canal_era(g)
    assert (g.coal_market, g.iron_market) == (3, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lancashire_end_of_canal_era_reshuffle_with_the_cards_beneath_the_deck_tile_and_deal_8(players):
    g = fresh(players, seed=20 + players)
    reserve = Counter(g.reserve)
    g, rounds = play_era_by_passing(g)
    assert rounds == R.rounds_per_era[players]
    assert g.era == "rail" and g.era_round == 1
    assert g.reserve == []
    assert all(len(p.hand) == 8 and p.discard == [] for p in g.players)
    assert all_cards(g) == Counter(R.deck(players))
    assert not reserve - all_cards(g)
    assert len(g.deck) == len(R.deck(players)) - 8 * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lancashire_rail_era_cards_beneath_the_deck_tile_are_drawn_normally(players):
    g = fresh(players, seed=30 + players)
    g, _ = play_era_by_passing(g)
    g, rounds = play_era_by_passing(g)
    assert g.game_over
    assert rounds == R.rounds_per_era[players]
    assert all(p.hand == [] for p in g.players) and g.deck == []
    played = Counter(c for p in g.players for c in p.discard)
    assert played == Counter(R.deck(players))  # every card, those beneath the deck tile too


def test_lancashire_rail_era_setup_is_reproducible_from_the_seed():
    a, _ = play_era_by_passing(fresh(3, seed=4))
    b, _ = play_era_by_passing(fresh(3, seed=4))
    assert [p.hand for p in a.players] == [p.hand for p in b.players] and a.deck == b.deck
    assert a.dcm_pile == b.dcm_pile


# -- end of the Rail Era ------------------------------------------------------------------------------


def end_rail_era(g: GameState) -> GameState:
    last_round(g)
    return pass_until_round_ends(g)


@pytest.mark.parametrize(("money", "vp"), [(0, 0), (9, 0), (10, 1), (39, 3), (40, 4), (123, 12)])
def test_lancashire_end_of_rail_era_1_vp_per_10_pounds(money, vp):
    g = to_rail_era(fresh(2))
    set_money(g, 0, money)
    g = end_rail_era(g)
    assert g.game_over
    assert g.players[0].vp == vp and g.players[0].money == money


def test_lancashire_end_of_rail_era_links_tiles_then_cash():
    g = to_rail_era(fresh(2))
    place_tile(g, "liverpool:2", 0, "shipyard", 2, flipped=True, from_mat=False)  # 18 VP
    place_tile(g, "liverpool:0", 1, "port", 2)  # unflipped
    place_link(g, "liverpool--southport", 0)  # 1 + 2
    place_link(g, "liverpool--wigan", 1)  # 1 + 0
    set_money(g, 0, 25)
    g = end_rail_era(g)
    assert g.players[0].vp == 3 + 18 + 2
    assert g.players[1].vp == 1 + 3
    assert g.links == {}


def test_lancashire_end_of_rail_era_no_income_after_the_final_round():
    g = to_rail_era(fresh(2))
    set_income_space(g, 0, 20)
    set_income_space(g, 1, 5)
    g = end_rail_era(g)
    assert [p.money for p in g.players] == [30, 30]
    assert g.phase == "over" and g.shortfalls == []


def test_lancashire_end_of_rail_era_level_1_tiles_are_not_removed_again_and_the_game_ends():
    g = to_rail_era(fresh(2))
    place_tile(g, "stockport:0", 0, "cotton_mill", 3, flipped=True)
    g = end_rail_era(g)
    assert g.game_over and "stockport:0" in g.tiles
    assert g.players[0].vp == 9 + 3


def test_lancashire_winning_most_vp_then_highest_income_then_most_money():
    g = fresh(4)
    for p, (vp, space, money) in zip(g.players, [(50, 20, 3), (50, 22, 1), (50, 20, 9), (49, 99, 99)], strict=True):
        p.vp, p.income_space, p.money = vp, space, money
    ranks = {s.seat: s.rank for s in standings(g)}
    assert ranks == {1: 1, 2: 2, 0: 3, 3: 4}


def test_lancashire_winning_players_still_tied_draw():
    g = fresh(3)
    for p in g.players:
        p.vp, p.income_space, p.money = 40, 20, 5
    g.players[2].money = 4
    assert [s.rank for s in standings(g)] == [1, 1, 3]


# -- classic rules: the virtual link ------------------------------------------------------------------


def virtual_link_game(option: bool = True) -> GameState:
    """Rail Era. Player 0 has Liverpool-Wigan (and a coal mine in Wigan); player 1 has Birkenhead-Ellesmere
    Port and a Port in Ellesmere Port, so Birkenhead is connected to a trade icon by a real link."""
    g = to_rail_era(fresh(2, options={"virtual_link": option}))
    place_link(g, "liverpool--wigan", 0)
    place_tile(g, "wigan:0", 0, "coal_mine", 2, resources=3)
    place_link(g, "birkenhead--ellesmere_port", 1)
    place_tile(g, "ellesmere_port:0", 1, "port", 2)
    clear_mat_below(g, 0, "shipyard", 2)
    give(g, 0, "ind:shipyard", "loc:colne")
    return g


def shipyard_in_birkenhead(coal: str = "market") -> Build:
    return Build(0, "ind:shipyard", "shipyard", "birkenhead", 0, coal=(coal,), iron=("market",))


def test_lancashire_virtual_link_liverpool_in_your_network_lets_an_industry_card_build_in_birkenhead():
    g = virtual_link_game()
    assert g.options == {"virtual_link": True}
    g2 = act(g, shipyard_in_birkenhead())
    t = g2.tiles["birkenhead:0"]
    assert (t.owner, t.level, t.flipped) == (0, 2, True)
    assert g2.players[0].money == 30 - 25 - 1 - 1


def test_lancashire_virtual_link_is_a_classic_rule_off_by_default():
    g = virtual_link_game(option=False)
    assert rule_of(g, shipyard_in_birkenhead()) == "build.network"


def test_lancashire_virtual_link_needs_liverpool_in_your_network():
    g = virtual_link_game()
    del g.links["liverpool--wigan"]
    g.touch_board()
    assert rule_of(g, shipyard_in_birkenhead()) == "build.network"


def test_lancashire_virtual_link_coal_does_not_travel_across_it():
    g = virtual_link_game()
    assert rule_of(g, shipyard_in_birkenhead("wigan:0")) == "coal.connected"  # Wigan's coal cannot reach
    del g.links["birkenhead--ellesmere_port"]
    g.touch_board()
    assert rule_of(g, shipyard_in_birkenhead()) == "coal.market"  # and Liverpool's trade icons do not either


def test_lancashire_virtual_link_does_not_put_birkenhead_in_your_network_for_links():
    g = virtual_link_game()
    del g.links["birkenhead--ellesmere_port"]
    g.touch_board()
    action = Network(0, "loc:colne", ("birkenhead--ellesmere_port",), coal=("market",))
    assert rule_of(g, action) == "network.adjacent"


def test_lancashire_virtual_link_only_for_birkenhead():
    g = virtual_link_game()
    give(g, 0, "ind:port")
    assert rule_of(g, Build(0, "ind:port", "port", "fleetwood", 0)) == "build.network"


# -- classic rules: the classic deck ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "beneath"), [(3, 9), (4, 6)])
def test_lancashire_classic_deck_all_66_cards_with_9_or_6_beneath_the_deck_tile(players, beneath):
    g = fresh(players, seed=5, options={"classic_deck": True})
    assert len(g.reserve) == beneath
    assert len(g.deck) == 66 - 8 * players - beneath
    assert all_cards(g) == Counter(R.classic_deck_counts)


def test_lancashire_classic_deck_is_refused_for_2_players():
    with pytest.raises(LogFormatError):
        new_game(["A", "B"], SeededChance(1), R, {"classic_deck": True})


@pytest.mark.parametrize(("players", "removed", "rounds"), [(3, 6, 10), (4, 2, 8)])
def test_lancashire_classic_deck_rail_era_removes_6_or_2_cards(players, removed, rounds):
    g = fresh(players, seed=6, options={"classic_deck": True})
    g, canal_rounds = play_era_by_passing(g)
    assert canal_rounds == rounds
    assert g.era == "rail" and g.reserve == []
    assert sum(all_cards(g).values()) == 66 - removed
    assert not all_cards(g) - Counter(R.classic_deck_counts)
    assert all(len(p.hand) == 8 for p in g.players)
    g, rail_rounds = play_era_by_passing(g)
    assert g.game_over and rail_rounds == rounds


def test_lancashire_classic_deck_uses_all_12_distant_market_tiles_ignoring_setup_step_2():
    """Classic 3-4 Player Deck Setup: "Ignore step 2 in 'Board Setup'". Step 2 is "Remove all cards and
    Distant Cotton Market tiles that do not show your player count and return them to the box", so with the
    classic deck nothing is removed by player count: a 3-player game uses all 12 Distant Market tiles (as the
    2007 original did), not the 10 marked for 3 players."""
    g = fresh(3, seed=5, options={"classic_deck": True})
    assert sorted(g.dcm_pile) == sorted(R.dcm_tiles[4])


def test_lancashire_classic_deck_and_virtual_link_are_lancashire_options():
    for option in ("classic_deck", "virtual_link"):
        with pytest.raises(LogFormatError):
            new_game(["A", "B", "C"], SeededChance(1), BIRMINGHAM, {option: True})
    with pytest.raises(LogFormatError):
        new_game(["A", "B", "C"], SeededChance(1), R, {"virtual_link": 1})
    with pytest.raises(LogFormatError):
        new_game(["A", "B", "C"], SeededChance(1), R, {"scouting": True})


# -- the introductory game ------------------------------------------------------------------------------


def test_lancashire_introductory_game_ends_after_the_canal_era_with_extra_scoring():
    g = fresh(2, options={"introductory": True})
    place_tile(g, "stockport:0", 0, "cotton_mill", 2, flipped=True)  # 5 VP, level 2: again
    place_tile(g, "colne:0", 0, "cotton_mill", 1, flipped=True)  # 5 VP, level 1: once
    place_tile(g, "liverpool:0", 1, "port", 2, flipped=True)  # 4 VP, again
    place_tile(g, "wigan:0", 1, "coal_mine", 2, resources=1)  # unflipped: nothing
    set_money(g, 0, 70)  # 17 x £4, at most 15 VP
    set_money(g, 1, 15)  # 3 VP
    set_income_space(g, 0, 20)  # level 5
    set_income_space(g, 1, 7)  # level -3
    g = end_canal_era(g)
    assert g.game_over and g.era == "canal"
    assert g.players[0].vp == (5 + 5) + 15 + 5 + 5
    assert g.players[1].vp == 4 + 3 - 3 + 4
    assert rule_of(g, Pass(0, "loc:colne")) == "turn.game_over"


def test_lancashire_introductory_game_money_vp_capped_at_15():
    for money, vp in ((3, 0), (4, 1), (59, 14), (60, 15), (200, 15)):
        g = fresh(2, options={"introductory": True})
        set_money(g, 0, money)
        g = end_canal_era(g)
        assert g.players[0].vp == vp, money


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lancashire_introductory_game_played_by_passing_lasts_one_era(players):
    g = fresh(players, seed=players, options={"introductory": True})
    g, rounds = play_era_by_passing(g)
    assert g.game_over and rounds == R.rounds_per_era[players]
    assert [p.vp for p in g.players] == [7] * players  # £30: 7 VP, income level 0


def test_lancashire_introductory_game_also_for_birmingham():
    g = fresh(2, options={"introductory": True}, rules=BIRMINGHAM)
    place_tile(g, "leek:0", 0, "cotton_mill", 2, flipped=True)
    place_tile(g, "stone:1", 1, "coal_mine", 2, resources=0, flipped=True)
    set_money(g, 0, 21)
    set_money(g, 1, 8)
    set_income_space(g, 0, 13)  # level 2
    set_income_space(g, 1, 10)  # level 0
    g = end_canal_era(g)
    assert g.game_over and g.era == "canal"
    cotton, coal = BIRMINGHAM.level("cotton_mill", 2).vp, BIRMINGHAM.level("coal_mine", 2).vp
    assert g.players[0].vp == cotton * 2 + 5 + 2
    assert g.players[1].vp == coal * 2 + 2 + 0


def test_lancashire_introductory_game_birmingham_full_game_is_unchanged():
    g = fresh(2, rules=BIRMINGHAM)
    g = end_canal_era(g)
    assert not g.game_over and g.era == "rail"
