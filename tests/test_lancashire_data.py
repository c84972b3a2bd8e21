"""Brass: Lancashire rules data: the rulebook's numbers and the component values in ``lancashire.json``.

Sources: the Brass: Lancashire rulebook (the authority) and ``docs/lancashire-sources.md`` (where the
component values come from).
"""

from __future__ import annotations

from collections import Counter

import pytest
from lancashire_helpers import LANCASHIRE, fresh, place_tile

from brass_stats.engine.scoring import score_era
from brass_stats.rules_data import load_rules, raw_data

R = LANCASHIRE
RAW = raw_data("lancashire")

TOWNS = {
    "barrow_in_furness",
    "birkenhead",
    "blackburn",
    "bolton",
    "burnley",
    "bury",
    "colne",
    "ellesmere_port",
    "fleetwood",
    "lancaster",
    "liverpool",
    "macclesfield",
    "manchester",
    "oldham",
    "preston",
    "rochdale",
    "stockport",
    "warrington_runcorn",
    "wigan",
}
LINK_ONLY_TOWNS = {"blackpool", "southport", "northwich"}
EXTERNAL_MARKETS = {"scotland", "yorkshire", "the_midlands"}


# -- the map -----------------------------------------------------------------------------------


def test_lancashire_data_25_locations_19_towns_3_link_only_towns_3_external_markets():
    assert len(R.locations) == 25
    with_spaces = {loc.id for loc in R.locations.values() if loc.slots}
    assert with_spaces == TOWNS
    kinds = Counter(loc.kind for loc in R.locations.values())
    assert kinds == {"town": 19, "link_only_town": 3, "merchant": 3}
    assert {loc.id for loc in R.locations.values() if loc.kind == "link_only_town"} == LINK_ONLY_TOWNS
    assert {loc.id for loc in R.locations.values() if loc.kind == "merchant"} == EXTERNAL_MARKETS
    assert all(not R.locations[x].slots for x in LINK_ONLY_TOWNS | EXTERNAL_MARKETS)


def test_lancashire_data_43_industry_spaces_showing_only_lancashire_industries():
    slots = [s for loc in R.locations.values() for s in loc.slots]
    assert len(slots) == 43 == len(R.slots)
    assert {ind for s in slots for ind in s.industries} == set(R.industry_ids)
    assert all(1 <= len(s.industries) <= 2 for s in slots)


@pytest.mark.parametrize(
    ("location", "spaces"),
    [
        ("liverpool", [("port",), ("port",), ("shipyard",), ("port",)]),
        ("birkenhead", [("shipyard",)]),
        ("barrow_in_furness", [("shipyard",), ("iron_works",)]),
        ("wigan", [("coal_mine",), ("coal_mine",)]),
        ("warrington_runcorn", [("cotton_mill", "coal_mine"), ("port",)]),
    ],
)
def test_lancashire_data_spaces_of_some_towns(location, spaces):
    assert [s.industries for s in R.locations[location].slots] == spaces


def test_lancashire_data_36_links_22_canal_and_rail_13_rail_only_1_canal_only():
    assert len(R.links) == 36
    kinds = Counter((ln.canal, ln.rail) for ln in R.links.values())
    assert kinds == {(True, True): 22, (False, True): 13, (True, False): 1}
    canal_only = [lid for lid, ln in R.links.items() if ln.canal and not ln.rail]
    assert canal_only == ["ellesmere_port--liverpool"]
    assert RAW["link_summary"]["total"] == 36
    for ln in R.links.values():
        assert set(ln.endpoints) <= set(R.locations) and ln.connects == ln.endpoints


def test_lancashire_data_birkenhead_and_barrow_have_one_rail_link_and_no_printed_liverpool_link():
    def links_of(loc):
        return sorted(lid for lid, ln in R.links.items() if loc in ln.endpoints)

    assert links_of("birkenhead") == ["birkenhead--ellesmere_port"]
    assert links_of("barrow_in_furness") == ["barrow_in_furness--lancaster"]
    assert not R.links["birkenhead--ellesmere_port"].canal
    assert not R.links["barrow_in_furness--lancaster"].canal
    assert "birkenhead--liverpool" not in R.link_aliases


def test_lancashire_data_every_location_has_a_link():
    linked = {x for ln in R.links.values() for x in ln.endpoints}
    assert linked == set(R.locations)


def test_lancashire_data_printed_link_vp_2_on_link_only_towns_and_external_markets():
    printed = {loc.id: loc.printed_link_vp for loc in R.locations.values() if loc.printed_link_vp}
    assert printed == dict.fromkeys(LINK_ONLY_TOWNS | EXTERNAL_MARKETS, 2)


def test_lancashire_data_trade_locations_are_the_three_external_markets_and_port_tiles():
    assert R.trade_locations == frozenset({"scotland", "yorkshire", "the_midlands"})
    assert R.trade_industries == frozenset({"port"})


# -- industry tiles ------------------------------------------------------------------------------


def test_lancashire_data_tiles_per_player_12_cotton_7_coal_4_iron_8_port_6_shipyard():
    per_industry = {ind: sum(lv.tiles for lv in levels) for ind, levels in R.industries.items()}
    assert per_industry == {"cotton_mill": 12, "coal_mine": 7, "iron_works": 4, "port": 8, "shipyard": 6}
    assert sum(per_industry.values()) == 37
    assert R.constants["per_player_components"]["industry_tiles"] == 37
    assert R.constants["per_player_components"]["link_tiles"] == 14
    assert R.industry_ids == ("cotton_mill", "coal_mine", "iron_works", "port", "shipyard")


@pytest.mark.parametrize(
    ("industry", "levels", "tiles"),
    [
        ("cotton_mill", [1, 2, 3, 4], [3, 3, 3, 3]),
        ("coal_mine", [1, 2, 3, 4], [1, 2, 2, 2]),
        ("iron_works", [1, 2, 3, 4], [1, 1, 1, 1]),
        ("port", [1, 2, 3, 4], [2, 2, 2, 2]),
        ("shipyard", [0, 1, 2], [2, 2, 2]),
    ],
)
def test_lancashire_data_tiles_per_level(industry, levels, tiles):
    assert [lv.level for lv in R.industries[industry]] == levels
    assert [lv.tiles for lv in R.industries[industry]] == tiles
    assert R.first_level(industry) == levels[0]


def test_lancashire_data_a_new_player_mat_holds_every_tile():
    g = fresh(2)
    for p in g.players:
        assert p.mat == {ind: tuple(lv.tiles for lv in R.industries[ind]) for ind in R.industry_ids}
        assert p.lowest_level("shipyard") == 0
        assert p.lowest_level("cotton_mill") == 1


def test_lancashire_data_shipyard_level_0_is_locked_not_buildable_but_developable():
    lv0 = R.level("shipyard", 0)
    assert not lv0.canal_ok and not lv0.rail_ok
    assert not lv0.buildable_in("canal") and not lv0.buildable_in("rail")
    assert lv0.can_develop
    assert lv0.vp == 0 and lv0.income_spaces == 0


def test_lancashire_data_level_1_tiles_canal_only_shipyard_2_rail_only():
    for ind in R.industry_ids:
        one = R.level(ind, 1)
        assert one.canal_ok and not one.rail_ok, ind
        for lv in R.industries[ind]:
            if lv.level >= 2 and ind != "shipyard":
                assert lv.canal_ok and lv.rail_ok, (ind, lv.level)
    two = R.level("shipyard", 2)
    assert two.rail_ok and not two.canal_ok


def test_lancashire_data_shipyards_flip_on_build():
    assert R.flips_on_build == frozenset({"shipyard"})
    assert R.level("shipyard", 1).income_spaces == 2 and R.level("shipyard", 1).vp == 10
    assert R.level("shipyard", 2).income_spaces == 1 and R.level("shipyard", 2).vp == 18


def test_lancashire_data_only_cotton_mills_are_sold():
    assert R.sellable == frozenset({"cotton_mill"})


@pytest.mark.parametrize(
    ("industry", "level", "money", "coal", "iron", "vp", "income", "produces"),
    [
        ("cotton_mill", 2, 14, 1, 0, 5, 4, 0),
        ("cotton_mill", 4, 18, 1, 1, 12, 2, 0),
        ("coal_mine", 1, 5, 0, 0, 1, 4, 2),
        ("coal_mine", 4, 10, 0, 1, 4, 5, 5),
        ("iron_works", 1, 5, 1, 0, 3, 3, 4),
        ("iron_works", 4, 12, 1, 0, 9, 1, 6),
        ("port", 1, 6, 0, 0, 2, 3, 0),
        ("port", 4, 9, 0, 0, 9, 4, 0),
        ("shipyard", 1, 16, 1, 1, 10, 2, 0),
        ("shipyard", 2, 25, 1, 1, 18, 1, 0),
    ],
)
def test_lancashire_data_some_tile_values(industry, level, money, coal, iron, vp, income, produces):
    lv = R.level(industry, level)
    assert (lv.cost_money, lv.cost_coal, lv.cost_iron, lv.vp, lv.income_spaces) == (money, coal, iron, vp, income)
    assert lv.resources_on_build("canal") == lv.resources_on_build("rail") == produces
    assert lv.link_vp == 1
    assert lv.beer_to_sell == 0


def test_lancashire_data_cotton_mill_1_vp_is_5_and_overridable_to_the_2007_value_3():
    assert R.level("cotton_mill", 1).vp == 5
    raw_level_1 = RAW["industry_tiles"]["cotton_mill"]["levels"][0]
    assert raw_level_1["vp_when_flipped_2007_original"] == 3
    old = load_rules("lancashire", {"cotton_mill.1.vp": 3})
    assert old.level("cotton_mill", 1).vp == 3
    assert old.level("cotton_mill", 2).vp == 5  # nothing else changes
    assert R.level("cotton_mill", 1).vp == 5  # the default is untouched


def test_lancashire_data_cotton_mill_1_vp_override_is_what_the_era_scores():
    for rules, vp in ((R, 5), (load_rules("lancashire", {"cotton_mill.1.vp": 3}), 3)):
        g = fresh(2, rules=rules)
        place_tile(g, "colne:0", 0, "cotton_mill", 1, flipped=True)
        score_era(g)
        assert g.players[0].vp == vp


# -- cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 40), (3, 54), (4, 64)])
def test_lancashire_data_deck_sizes(players, size):
    assert len(R.deck(players)) == size
    assert RAW["cards"]["deck_size"][str(players)] == size
    assert all(code.startswith(("loc:", "ind:")) for code in R.deck(players))
    assert R.wild_cards == {}


def test_lancashire_data_smaller_decks_only_remove_cards():
    for small, big in ((2, 3), (3, 4)):
        a, b = Counter(R.deck(small)), Counter(R.deck(big))
        assert not a - b, (small, big)


def test_lancashire_data_classic_deck_is_66_cards_the_standard_4p_deck_plus_2_special_icon_cards():
    classic = Counter(R.classic_deck_counts)
    assert sum(classic.values()) == 66 == RAW["cards"]["total_cards_in_box"]
    extra = classic - Counter(R.deck(4))
    assert sum(extra.values()) == 2
    assert not Counter(R.deck(4)) - classic
    assert RAW["cards"]["special_icon_cards"]["count"] == 2
    assert extra == {"ind:coal_mine": 1, "ind:port": 1}


def test_lancashire_data_every_location_card_names_a_town_with_spaces():
    codes = set(R.classic_deck_counts)
    towns = {c[4:] for c in codes if c.startswith("loc:")}
    assert towns == TOWNS
    assert {c[4:] for c in codes if c.startswith("ind:")} == set(R.industry_ids)


def test_lancashire_data_location_banners_whole_towns_leave_the_deck_for_fewer_players():
    """Location Banners: 2 players: blue and teal Location cards are not in the Draw Deck; 3 players: teal."""

    def absent(players):
        return {t for t in TOWNS if f"loc:{t}" not in R.deck_counts[players]}

    assert absent(4) == set()
    assert absent(3) == {"burnley", "colne"}
    assert absent(2) == {"barrow_in_furness", "blackburn", "burnley", "colne", "fleetwood", "lancaster"}


@pytest.mark.parametrize(("players", "rounds"), [(2, 10), (3, 9), (4, 8)])
def test_lancashire_data_rounds_per_era_fit_the_deck_and_the_deck_tile(players, rounds):
    assert R.rounds_per_era[players] == rounds
    deck = len(R.deck(players))
    # Canal Era: 1 card per player beneath the deck tile is unused; round 1 has 1 action each
    canal_cards = deck - R.deck_tile["canal"] * players
    assert canal_cards == players * (1 + 2 * (rounds - 1))
    # Rail Era: every card is played
    assert deck == players * 2 * rounds


# -- Distant Cotton Market ----------------------------------------------------------------------


def test_lancashire_data_distant_cotton_market_track():
    assert R.dcm_track == (3, 3, 2, 2, 1, 1, 0, 0, None)


@pytest.mark.parametrize(
    ("players", "tiles"),
    [
        (2, (1, 2, 2, 2, 3, 3, 3, 4)),
        (3, (0, 1, 2, 2, 2, 2, 3, 3, 3, 4)),
        (4, (0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4)),
    ],
)
def test_lancashire_data_distant_cotton_market_tiles_per_player_count(players, tiles):
    assert tuple(sorted(R.dcm_tiles[players])) == tiles
    g = fresh(players)
    assert sorted(g.dcm_pile) == list(tiles)
    assert g.dcm_position == 0 and g.dcm_drawn == []
    # the pile always reaches X before it runs out
    assert sum(tiles) >= len(R.dcm_track) - 1


def test_lancashire_data_twelve_distant_cotton_market_tiles_in_the_box():
    assert len(RAW["distant_cotton_market"]["tiles"]) == 12
    assert sorted(t["move"] for t in RAW["distant_cotton_market"]["tiles"]) == list(R.dcm_tiles[4])


# -- markets, money, loans, track --------------------------------------------------------------


@pytest.mark.parametrize("resource", ["coal", "iron"])
def test_lancashire_data_markets_have_8_spaces_full_at_start_5_pounds_when_empty(resource):
    m = R.markets[resource]
    assert m.capacity == 8
    assert m.prices == (1, 1, 2, 2, 3, 3, 4, 4)
    assert m.initial_cubes == 8
    assert m.price_when_empty == 5
    assert m.buy_price(0) == 5 and m.buy_price(8) == 1 and m.buy_price(1) == 4
    assert m.sell_price(8) is None and m.sell_price(0) == 4
    g = fresh(3)
    assert getattr(g, f"{resource}_market") == 8


def test_lancashire_data_coal_market_needs_a_trade_connection_iron_does_not():
    assert RAW["markets"]["coal"]["buying_requires_connection_to_trade_location"] is True
    assert RAW["markets"]["iron"]["buying_requires_connection_to_trade_location"] is False


def test_lancashire_data_start_30_pounds_income_space_10_hand_8_no_face_down_discard():
    c = R.constants
    assert c["starting_money"] == 30
    assert c["income_marker_start_space"] == 10
    assert R.income_level(10) == 0
    assert c["hand_size"] == 8
    assert R.face_down_discards == 0
    assert c["actions_per_turn"] == 2 and c["actions_first_round_canal_era"] == 1
    assert c["players"] == [2, 3, 4]


def test_lancashire_data_deck_tile_1_card_per_player_canal_2_rail():
    assert dict(R.deck_tile) == {"canal": 1, "rail": 2}


def test_lancashire_data_loans_10_20_30_for_1_2_3_levels_floor_minus_10():
    assert R.loan_options == ((10, 1), (20, 2), (30, 3))
    assert R.constants["loan"]["min_income_level"] == -10


def test_lancashire_data_cash_1_vp_per_10_pounds_no_beer_double_action_build():
    assert R.cash_vp_per == 10
    assert R.double_rail_beer == 0
    assert R.double_action_build is True


def test_lancashire_data_network_costs():
    n = R.constants["network_costs"]
    assert n["canal_link"]["money"] == 3 and n["canal_link"]["max_per_action"] == 1
    assert n["rail_link_single"] == {"money": 5, "coal": 1, "era": "rail"}
    assert n["rail_link_double"]["money"] == 15 and n["rail_link_double"]["coal"] == 2


def test_lancashire_data_progress_track_is_birminghams_levels_minus_10_to_30():
    assert R.income_levels == load_rules("birmingham").income_levels
    assert R.max_income_space == 99
    assert R.income_level(0) == -10 and R.income_level(99) == 30
    assert tuple(R.constants["income_level_range"]) == (-10, 30)
    assert R.top_space_of_level(-3) == 7 and R.top_space_of_level(2) == 14


def test_lancashire_data_no_merchants_no_wild_cards():
    assert R.merchants == {} and R.merchant_tiles == {} and R.wild_cards == {}
    assert fresh(4).merchant_spaces == []
