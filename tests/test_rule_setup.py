"""Board setup and player area setup (rulebook: Board Setup, Location Banners, Player Area Setup)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import NAMES

from brass_stats.engine import ExplicitChance, SeededChance, new_game
from brass_stats.errors import LogFormatError
from brass_stats.rules_data import BIRMINGHAM, WILD_INDUSTRY, WILD_LOCATION

DECK_SIZE = {2: 40, 3: 54, 4: 64}
MERCHANT_TILES = {2: 5, 3: 7, 4: 9}
SEEDS = (0, 1, 17)


def game(players: int, seed: int = 0):
    return new_game(list(NAMES[:players]), SeededChance(seed))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_each_player_starts_with_17_pounds_income_space_10_and_0_vp(players):
    g = game(players)
    for p in g.players:
        assert p.money == 17
        assert p.income_space == 10
        assert g.income_level(p.seat) == 0
        assert p.vp == 0
        assert p.spent == 0
        assert p.loans == 0


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_setup_deals_8_card_hands_and_1_face_down_discard(players, seed):
    g = game(players, seed)
    for p in g.players:
        assert len(p.hand) == 8
        assert len(p.discard) == 1
        assert not any(c in (WILD_LOCATION, WILD_INDUSTRY) for c in p.hand + p.discard)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deck_size_is_40_54_64_minus_the_dealt_cards(players):
    g = game(players)
    dealt = players * 8 + players
    assert len(g.deck) == DECK_SIZE[players] - dealt
    assert {2: 22, 3: 27, 4: 28}[players] == len(g.deck)
    everything = [c for p in g.players for c in p.hand + p.discard] + g.deck
    assert len(everything) == DECK_SIZE[players]
    assert Counter(everything) == Counter(BIRMINGHAM.deck(players))


def test_setup_two_player_deck_has_no_blue_or_teal_location_cards():
    g = game(2)
    everything = [c for p in g.players for c in p.hand + p.discard] + g.deck
    blue_teal = {"leek", "stoke_on_trent", "stone", "uttoxeter", "belper", "derby"}
    assert not [c for c in everything if c.startswith("loc:") and c[4:] in blue_teal]


def test_setup_three_player_deck_has_no_teal_location_cards_but_has_blue_ones():
    g = game(3)
    everything = [c for p in g.players for c in p.hand + p.discard] + g.deck
    assert not [c for c in everything if c in ("loc:belper", "loc:derby")]
    assert "loc:leek" in everything


def test_setup_wild_cards_sit_on_their_own_draw_areas_4_each():
    g = game(4)
    assert g.wild == {WILD_LOCATION: 4, WILD_INDUSTRY: 4}
    assert WILD_LOCATION not in g.deck and WILD_INDUSTRY not in g.deck


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_setup_merchant_tiles_5_7_9_and_beer_only_beside_non_blank_tiles(players, seed):
    g = game(players, seed)
    assert len(g.merchant_spaces) == MERCHANT_TILES[players]
    for ms in g.merchant_spaces:
        assert ms.beer == (ms.face != "blank")
        assert ms.beer == bool(ms.accepts)
    faces = Counter(ms.face for ms in g.merchant_spaces)
    expected = {
        2: {"all": 1, "manufacturer": 1, "cotton_mill": 1, "blank": 2},
        3: {"all": 1, "manufacturer": 1, "cotton_mill": 1, "pottery": 1, "blank": 3},
        4: {"all": 1, "manufacturer": 2, "cotton_mill": 2, "pottery": 1, "blank": 3},
    }[players]
    assert faces == Counter(expected)


@pytest.mark.parametrize(
    ("players", "locations"),
    [
        (2, {"shrewsbury": 1, "oxford": 2, "gloucester": 2}),
        (3, {"warrington": 2, "shrewsbury": 1, "oxford": 2, "gloucester": 2}),
        (4, {"warrington": 2, "nottingham": 2, "shrewsbury": 1, "oxford": 2, "gloucester": 2}),
    ],
)
def test_setup_merchant_spaces_used_by_player_count(players, locations):
    g = game(players)
    assert Counter(ms.location for ms in g.merchant_spaces) == Counter(locations)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_coal_market_13_cubes_and_iron_market_8(players):
    g = game(players)
    assert g.coal_market == 13
    assert g.iron_market == 8
    # one £1 coal space and both £1 iron spaces are left open: the next cube sold fetches £1
    assert g.rules.markets["coal"].sell_price(g.coal_market) == 1
    assert g.rules.markets["coal"].buy_price(g.coal_market) == 1
    assert g.rules.markets["iron"].sell_price(g.iron_market) == 1
    assert g.rules.markets["iron"].buy_price(g.iron_market) == 2


def test_setup_board_is_empty_and_mats_are_full():
    g = game(3)
    assert g.tiles == {} and g.links == {}
    for p in g.players:
        assert p.mat == {
            "cotton_mill": (3, 2, 3, 3),
            "coal_mine": (1, 2, 2, 2),
            "iron_works": (1, 1, 1, 1),
            "manufacturer": (1, 2, 1, 1, 2, 1, 1, 2),
            "pottery": (1, 1, 1, 1, 1),
            "brewery": (2, 2, 2, 1),
        }
        assert p.link_tiles == 14


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_starts_in_the_canal_era_first_round_with_a_random_turn_order(players):
    g = game(players)
    assert (g.era, g.era_round, g.round, g.phase) == ("canal", 1, 1, "actions")
    assert sorted(g.turn_order) == list(range(players))
    assert g.current_player == g.turn_order[0]
    orders = {tuple(game(players, seed).turn_order) for seed in range(20)}
    assert len(orders) > 1


def test_setup_same_seed_same_deal():
    a, b = game(4, 99), game(4, 99)
    assert a.deck == b.deck
    assert [p.hand for p in a.players] == [p.hand for p in b.players]
    assert [m.face for m in a.merchant_spaces] == [m.face for m in b.merchant_spaces]


def test_setup_explicit_chance_rejects_a_deal_that_is_not_the_deck():
    g = game(2, 3)
    record = {
        "merchant_tiles": {
            "shrewsbury": ["all"],
            "oxford": ["manufacturer", "cotton_mill"],
            "gloucester": ["blank", "blank"],
        },
        "turn_order": [1, 0],
        "hands": [p.hand for p in g.players],
        "discards": [p.discard for p in g.players],
        "deck": g.deck,
    }
    e = new_game(["A", "B"], ExplicitChance(record))
    assert e.turn_order == [1, 0]
    assert e.merchant_spaces[0].face == "all" and e.merchant_spaces[0].beer
    assert [m.beer for m in e.merchant_spaces] == [True, True, True, False, False]
    bad = dict(record, deck=g.deck[:-1] + ["loc:leek"])
    with pytest.raises(LogFormatError):
        new_game(["A", "B"], ExplicitChance(bad))


def test_setup_rejects_one_or_five_players():
    with pytest.raises(LogFormatError):
        new_game(["Solo"], SeededChance(1))
    with pytest.raises(LogFormatError):
        new_game(list("ABCDE"), SeededChance(1))
