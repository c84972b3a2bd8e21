"""The shipped rules data against the numbers the rulebook (and docs/birmingham-sources.md) states.

Each test names the printed fact it checks. Numbers are typed in here on purpose, from the
rulebook's component list, setup and rules text, rather than derived from the data under test.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from importlib import resources

import pytest

from brass_stats.rules_data import (
    BIRMINGHAM,
    INDUSTRIES,
    SELLABLE,
    WILD_INDUSTRY,
    WILD_LOCATION,
    UnknownOverride,
    card_industries,
    card_location,
    load_rules,
    raw_data,
)

R = BIRMINGHAM
RAW = raw_data("birmingham")

# The data version pin: SHA-256 of brass_stats/rules_data/birmingham.json. If the data file is
# changed on purpose, update this value in the same commit (and say why in the commit message).
BIRMINGHAM_JSON_SHA256 = "e29deb3f7f3e5eef2a4f23971f1c9aeddf92014f4677484cbf63e93a0a32a5a2"

TOWNS = {
    "leek",
    "stoke_on_trent",
    "stone",
    "uttoxeter",
    "belper",
    "derby",
    "stafford",
    "burton_on_trent",
    "cannock",
    "tamworth",
    "walsall",
    "coalbrookdale",
    "dudley",
    "kidderminster",
    "wolverhampton",
    "worcester",
    "birmingham",
    "coventry",
    "nuneaton",
    "redditch",
}
FARMS = {"farm_brewery_north", "farm_brewery_south"}
MERCHANTS = {"warrington", "nottingham", "shrewsbury", "oxford", "gloucester"}

RAIL_ONLY = {
    frozenset({"leek", "belper"}),
    frozenset({"derby", "uttoxeter"}),
    frozenset({"uttoxeter", "stone"}),
    frozenset({"cannock", "burton_on_trent"}),
    frozenset({"walsall", "tamworth"}),
    frozenset({"birmingham", "nuneaton"}),
    frozenset({"nuneaton", "coventry"}),
    frozenset({"birmingham", "redditch"}),
}
CANAL_ONLY = {frozenset({"walsall", "burton_on_trent"})}

# Rulebook component list: 45 industry tiles per colour.
TILES_PER_INDUSTRY = {
    "manufacturer": 11,
    "cotton_mill": 11,
    "brewery": 7,
    "pottery": 5,
    "iron_works": 4,
    "coal_mine": 7,
}
ROUNDS_PER_ERA = {2: 10, 3: 9, 4: 8}  # "exactly 8/9/10 rounds per era in a 4/3/2-player game"
DECK_SIZE = {2: 40, 3: 54, 4: 64}


def locations_of_kind(kind: str) -> set[str]:
    return {loc.id for loc in R.locations.values() if loc.kind == kind}


def link_pairs(*, canal: bool, rail: bool) -> set[frozenset[str]]:
    return {frozenset(ln.endpoints) for ln in R.links.values() if ln.canal == canal and ln.rail == rail}


def tiles_with(predicate) -> set[tuple[str, int]]:
    return {(lv.industry, lv.level) for levels in R.industries.values() for lv in levels if predicate(lv)}


def deck_colours(players: int) -> Counter[str]:
    """Number of location cards of each banner colour in the draw deck."""
    out: Counter[str] = Counter()
    for code in R.deck(players):
        loc = card_location(code)
        if loc is not None:
            banner = R.locations[loc].banner
            assert banner is not None, f"location card for {loc}, which has no banner"
            out[banner] += 1
    return out


# -- data version -------------------------------------------------------------


def test_birmingham_json_matches_the_pinned_sha256():
    data = resources.files("brass_stats.rules_data").joinpath("birmingham.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == BIRMINGHAM_JSON_SHA256


def test_raw_data_is_the_birmingham_game():
    assert RAW["game"] == "Brass: Birmingham"
    assert RAW["data_version"] == "1.0"


# -- locations and slots ------------------------------------------------------


def test_twenty_towns_two_farm_breweries_and_five_merchants():
    assert locations_of_kind("town") == TOWNS
    assert locations_of_kind("farm_brewery") == FARMS
    assert locations_of_kind("merchant") == MERCHANTS
    assert len(R.locations) == 20 + 2 + 5


def test_merchant_locations_match_the_merchant_table():
    assert set(R.merchants) == MERCHANTS
    assert set(R.merchant_locations) == MERCHANTS


def test_forty_nine_industry_slots_47_in_towns_and_2_on_farms():
    town_slots = sum(len(R.locations[t].slots) for t in TOWNS)
    farm_slots = sum(len(R.locations[f].slots) for f in FARMS)
    assert town_slots == 47
    assert farm_slots == 2
    assert len(R.slots) == 49


def test_every_town_has_two_to_four_slots_and_birmingham_has_four():
    counts = {t: len(R.locations[t].slots) for t in TOWNS}
    assert all(2 <= n <= 4 for n in counts.values()), counts
    assert counts["birmingham"] == 4


def test_farm_breweries_have_one_brewery_only_slot():
    for farm in FARMS:
        assert [s.industries for s in R.locations[farm].slots] == [("brewery",)]


def test_merchants_have_no_industry_slots():
    assert all(R.locations[m].slots == () for m in MERCHANTS)


def test_slots_show_one_or_two_known_industries_and_are_indexed_in_order():
    for loc in R.locations.values():
        assert [s.index for s in loc.slots] == list(range(len(loc.slots)))
        for s in loc.slots:
            assert 1 <= len(s.industries) <= 2
            assert set(s.industries) <= set(INDUSTRIES)
            assert R.slots[s.ref] is s


def test_dudley_slots_are_a_coal_mine_and_an_iron_works():
    assert [s.industries for s in R.locations["dudley"].slots] == [("coal_mine",), ("iron_works",)]


# -- links --------------------------------------------------------------------


def test_thirty_nine_links_30_canal_and_rail_8_rail_only_1_canal_only():
    assert len(R.links) == 39
    assert len(link_pairs(canal=True, rail=True)) == 30
    assert len(link_pairs(canal=False, rail=True)) == 8
    assert len(link_pairs(canal=True, rail=False)) == 1
    assert link_pairs(canal=False, rail=False) == set()


def test_links_are_loaded_as_printed_in_the_json():
    assert len(RAW["links"]) == len(R.links)
    for raw in RAW["links"]:
        ln = R.links[raw["id"]]
        assert list(ln.endpoints) == raw["endpoints"]
        assert list(ln.connects) == raw["connects"]
        assert (ln.canal, ln.rail) == (raw["canal"], raw["rail"])


def test_no_two_links_join_the_same_pair_of_locations():
    pairs = [frozenset(ln.endpoints) for ln in R.links.values()]
    assert len(set(pairs)) == len(pairs)
    assert all(len(p) == 2 for p in pairs)


def test_rail_only_links_are_exactly_the_eight_printed_bare_tracks():
    assert link_pairs(canal=False, rail=True) == RAIL_ONLY


def test_canal_only_link_is_walsall_burton():
    assert link_pairs(canal=True, rail=False) == CANAL_ONLY


def test_link_summary_in_the_json_matches_the_links():
    assert RAW["link_summary"] == {"total": 39, "canal_and_rail": 30, "rail_only": 8, "canal_only": 1}


@pytest.mark.parametrize("era", ["canal", "rail"])
def test_link_allowed_in_era_follows_its_flags(era):
    allowed = {frozenset(ln.endpoints) for ln in R.links.values() if ln.allowed_in(era)}
    if era == "canal":
        assert allowed == {frozenset(ln.endpoints) for ln in R.links.values()} - RAIL_ONLY
    else:
        assert allowed == {frozenset(ln.endpoints) for ln in R.links.values()} - CANAL_ONLY


def test_every_link_endpoint_is_a_known_location():
    for ln in R.links.values():
        assert set(ln.endpoints) <= set(R.locations), ln.id
        assert set(ln.connects) <= set(R.locations), ln.id


def test_every_location_has_at_least_one_link():
    touched = {loc for ln in R.links.values() for loc in ln.connects}
    assert touched == set(R.locations)


def test_each_link_connects_its_endpoints_and_only_kidderminster_worcester_adds_a_third():
    for ln in R.links.values():
        assert ln.connects[:2] == ln.endpoints, ln.id
        extra = set(ln.connects) - set(ln.endpoints)
        if frozenset(ln.endpoints) == frozenset({"kidderminster", "worcester"}):
            assert extra == {"farm_brewery_south"}
        else:
            assert extra == set(), ln.id


def test_kidderminster_worcester_link_also_connects_farm_brewery_south():
    (ln,) = [ln for ln in R.links.values() if frozenset(ln.endpoints) == frozenset({"kidderminster", "worcester"})]
    assert set(ln.connects) == {"kidderminster", "worcester", "farm_brewery_south"}
    assert ln.canal and ln.rail


def test_farm_brewery_south_has_no_link_of_its_own():
    assert not any("farm_brewery_south" in ln.endpoints for ln in R.links.values())
    joined = [ln.id for ln in R.links.values() if "farm_brewery_south" in ln.connects]
    assert len(joined) == 1


def test_farm_brewery_north_has_its_own_link_to_cannock():
    links = [ln for ln in R.links.values() if "farm_brewery_north" in ln.connects]
    assert len(links) == 1
    assert set(links[0].endpoints) == {"cannock", "farm_brewery_north"}
    assert links[0].canal and links[0].rail


# -- industry tiles -----------------------------------------------------------


def test_forty_five_industry_tiles_per_player():
    assert sum(lv.tiles for levels in R.industries.values() for lv in levels) == 45
    assert RAW["constants"]["per_player_components"]["industry_tiles"] == 45


@pytest.mark.parametrize(("industry", "count"), sorted(TILES_PER_INDUSTRY.items()))
def test_tiles_per_player_by_industry_match_the_component_list(industry, count):
    assert sum(lv.tiles for lv in R.industries[industry]) == count
    assert RAW["constants"]["per_player_components"]["industry_tiles_by_type"][industry] == count


@pytest.mark.parametrize(
    ("industry", "levels"),
    [("cotton_mill", 4), ("coal_mine", 4), ("iron_works", 4), ("manufacturer", 8), ("pottery", 5), ("brewery", 4)],
)
def test_industry_levels_are_numbered_one_to_n(industry, levels):
    assert [lv.level for lv in R.industries[industry]] == list(range(1, levels + 1))
    assert all(lv.industry == industry for lv in R.industries[industry])


def test_lightbulb_tiles_are_exactly_pottery_one_and_three():
    assert tiles_with(lambda lv: lv.lightbulb) == {("pottery", 1), ("pottery", 3)}


def test_canal_only_tiles_are_exactly_the_level_one_tiles_except_pottery():
    canal_only = tiles_with(lambda lv: lv.buildable_in("canal") and not lv.buildable_in("rail"))
    assert canal_only == {("cotton_mill", 1), ("coal_mine", 1), ("iron_works", 1), ("manufacturer", 1), ("brewery", 1)}


def test_rail_only_tiles_are_exactly_pottery_five_and_brewery_four():
    rail_only = tiles_with(lambda lv: lv.buildable_in("rail") and not lv.buildable_in("canal"))
    assert rail_only == {("pottery", 5), ("brewery", 4)}


def test_pottery_one_can_be_built_in_both_eras():
    # "Unlike the other level 1 Industry tiles, the level 1 Pottery tile may be built during the Rail Era."
    assert R.level("pottery", 1).buildable_in("canal")
    assert R.level("pottery", 1).buildable_in("rail")


def test_flipped_level_three_cotton_mill_scores_9_vp_so_18_over_both_eras():
    # "A flipped level 3 Cotton Mill would score a whopping 18 VPs over both eras."
    assert R.level("cotton_mill", 3).vp == 9
    assert 2 * R.level("cotton_mill", 3).vp == 18


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_brewery_makes_one_barrel_in_canal_era_and_two_in_rail_era(level):
    lv = R.level("brewery", level)
    expected = {"canal": 1, "rail": 2}
    for era in ("canal", "rail"):
        if lv.buildable_in(era):
            assert lv.resources_on_build(era) == expected[era]
    assert RAW["constants"]["brewery_beer_on_build"] == {"canal_era": 1, "rail_era": 2}


@pytest.mark.parametrize(("level", "cubes"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_coal_mine_outputs_2_3_4_5_cubes(level, cubes):
    lv = R.level("coal_mine", level)
    assert lv.coal_produced == cubes
    assert lv.iron_produced == 0
    assert lv.resources_on_build("rail") == cubes


@pytest.mark.parametrize(("level", "cubes"), [(1, 4), (2, 4), (3, 5), (4, 6)])
def test_iron_works_outputs_4_4_5_6_cubes(level, cubes):
    lv = R.level("iron_works", level)
    assert lv.iron_produced == cubes
    assert lv.coal_produced == 0
    assert lv.resources_on_build("canal") == cubes


@pytest.mark.parametrize("industry", sorted(SELLABLE))
def test_sellable_industries_produce_nothing_on_build(industry):
    for lv in R.industries[industry]:
        assert lv.resources_on_build("canal") == lv.resources_on_build("rail") == 0


def test_sellable_industries_are_cotton_manufacturer_and_pottery():
    assert frozenset({"cotton_mill", "manufacturer", "pottery"}) == SELLABLE


def test_levels_outside_the_player_mat_are_not_tiles():
    with pytest.raises(IndexError):
        R.level("manufacturer", 0)
    with pytest.raises(IndexError):
        R.level("manufacturer", 9)


# -- Manufacturer IV cost and tile overrides ---------------------------------


def test_manufacturer_four_costs_8_and_one_iron_by_default():
    lv = R.level("manufacturer", 4)
    assert (lv.cost_money, lv.cost_coal, lv.cost_iron) == (8, 0, 1)


def test_tile_override_changes_only_manufacturer_four_cost():
    overridden = load_rules(tile_overrides={"manufacturer.4.cost_money": 14})
    assert overridden.level("manufacturer", 4).cost_money == 14
    assert overridden.overrides == (("manufacturer.4.cost_money", 14),)
    # Everything else is untouched.
    for industry, levels in R.industries.items():
        for lv in levels:
            other = overridden.level(industry, lv.level)
            if (industry, lv.level) == ("manufacturer", 4):
                assert other.income_spaces == lv.income_spaces
                assert other.cost_iron == lv.cost_iron
            else:
                assert other == lv
    assert len(overridden.slots) == 49
    # The default stays at £8.
    assert R.level("manufacturer", 4).cost_money == 8
    assert load_rules().level("manufacturer", 4).cost_money == 8


def test_same_overrides_give_the_same_cached_rules():
    a = load_rules(tile_overrides={"manufacturer.4.cost_money": 14})
    b = load_rules("birmingham", {"manufacturer.4.cost_money": 14})
    assert a is b
    assert load_rules() is BIRMINGHAM
    assert a is not BIRMINGHAM


@pytest.mark.parametrize(
    "overrides",
    [
        {"manufacturer.9.cost_money": 14},  # no such level
        {"manufacturer.0.cost_money": 14},  # level 0 must not wrap round to level 8
        {"manufacturer.-1.cost_money": 14},
        {"factory.4.cost_money": 14},  # no such industry
        {"manufacturer.4.colour": 14},  # not an overridable field
        {"manufacturer.4.tiles": 2},  # printed count, not overridable
        {"manufacturer.4": 14},  # malformed key
        {"manufacturer.four.cost_money": 14},
        {"manufacturer.4.cost_money": "14"},  # not an integer
        {"manufacturer.4.cost_money": True},
        {"manufacturer.4.cost_money": [14]},  # unhashable
    ],
)
def test_unknown_or_malformed_tile_override_raises_unknown_override(overrides):
    with pytest.raises(UnknownOverride):
        load_rules(tile_overrides=overrides)


def test_unknown_edition_is_refused():
    with pytest.raises(ValueError, match="unknown edition"):
        load_rules("atlantis")


# -- cards --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), sorted(DECK_SIZE.items()))
def test_draw_deck_has_40_54_64_cards(players, size):
    assert len(R.deck(players)) == size
    assert RAW["cards"]["deck_size"][str(players)]["draw_deck_total"] == size


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_is_two_cards_per_player_per_round(players):
    assert R.rounds_per_era[players] == ROUNDS_PER_ERA[players]
    assert len(R.deck(players)) == 2 * R.rounds_per_era[players] * players


@pytest.mark.parametrize(
    ("players", "location_cards", "industry_cards"),
    [(2, 27, 13), (3, 35, 19), (4, 41, 23)],
)
def test_deck_splits_into_location_and_industry_cards(players, location_cards, industry_cards):
    kinds = Counter(code.split(":", 1)[0] for code in R.deck(players))
    assert kinds == {"loc": location_cards, "ind": industry_cards}


def test_four_wild_location_and_four_wild_industry_cards_outside_the_deck():
    assert R.wild_cards == {WILD_LOCATION: 4, WILD_INDUSTRY: 4}
    for players in (2, 3, 4):
        assert WILD_LOCATION not in R.deck(players)
        assert WILD_INDUSTRY not in R.deck(players)


def test_four_player_deck_has_64_location_and_industry_cards_as_the_component_list_says():
    assert len(R.deck(4)) == 64
    assert sum(R.wild_cards.values()) == 8


def test_banner_colours_are_the_five_printed_colours():
    banners = {t: R.locations[t].banner for t in TOWNS}
    assert Counter(banners.values()) == {"teal": 2, "blue": 4, "red": 5, "yellow": 5, "purple": 4}
    assert {t for t, c in banners.items() if c == "teal"} == {"belper", "derby"}
    assert {t for t, c in banners.items() if c == "blue"} == {"leek", "stoke_on_trent", "stone", "uttoxeter"}


def test_location_card_colour_is_its_town_banner_colour():
    for lc in RAW["cards"]["location_cards"]:
        assert lc["colour"] == R.locations[lc["location"]].banner, lc["location"]


@pytest.mark.parametrize(
    ("players", "absent"),
    [(2, {"blue", "teal"}), (3, {"teal"}), (4, set())],
)
def test_location_cards_removed_by_banner_colour(players, absent):
    # "2 players: blue and teal ... not in the Draw Deck. 3 players: teal ... 4 players: all"
    present = set(deck_colours(players))
    assert present == {"teal", "blue", "red", "yellow", "purple"} - absent


def test_every_town_has_location_cards_in_the_four_player_deck_and_farms_have_none():
    located = {card_location(c) for c in R.deck(4)} - {None}
    assert located == TOWNS


def test_industry_cards_name_known_industries_and_there_is_a_dual_cotton_manufacturer_card():
    for players in (2, 3, 4):
        for code in R.deck(players):
            if code.startswith("ind:"):
                assert set(card_industries(code)) <= set(INDUSTRIES), code
    dual = [c for c in R.deck(4) if set(card_industries(c)) == {"cotton_mill", "manufacturer"}]
    assert len(dual) == 8


def test_smaller_decks_are_subsets_of_larger_ones():
    d2, d3, d4 = (Counter(R.deck(p)) for p in (2, 3, 4))
    assert d2 <= d3 <= d4


# -- merchants ----------------------------------------------------------------


def merchant_spaces(players: int) -> int:
    return sum(m.spaces for m in R.merchants.values() if players in m.player_counts)


@pytest.mark.parametrize(("players", "tiles"), [(2, 5), (3, 7), (4, 9)])
def test_merchant_tiles_5_7_9_equal_the_merchant_spaces_used(players, tiles):
    assert len(R.merchant_tiles_by_players[players]) == tiles
    assert merchant_spaces(players) == tiles


def test_nine_merchant_tiles_in_all():
    assert len(R.merchant_tiles) == 9
    assert set(R.merchant_tiles_by_players[4]) == set(R.merchant_tiles)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_merchant_tiles_in_play_are_those_marked_for_the_player_count(players):
    expected = {t.id for t in R.merchant_tiles.values() if t.min_players <= players}
    assert set(R.merchant_tiles_by_players[players]) == expected


def test_merchant_tiles_accept_only_sellable_goods():
    for t in R.merchant_tiles.values():
        assert t.accepts <= SELLABLE


@pytest.mark.parametrize(
    ("players", "empty"),
    [(2, {"warrington", "nottingham"}), (3, {"nottingham"}), (4, set())],
)
def test_merchants_without_tiles_at_each_player_count(players, empty):
    # "In a 2 player game, no Merchant tiles are placed in Warrington & Nottingham.
    #  In a 3-player game, no Merchant tiles are placed in Nottingham."
    assert {m.id for m in R.merchants.values() if players not in m.player_counts} == empty


@pytest.mark.parametrize(
    ("merchant", "spaces"),
    [("warrington", 2), ("nottingham", 2), ("shrewsbury", 1), ("oxford", 2), ("gloucester", 2)],
)
def test_merchant_tile_spaces(merchant, spaces):
    assert R.merchants[merchant].spaces == spaces


@pytest.mark.parametrize(
    ("merchant", "bonus_type", "amount"),
    [
        ("warrington", "money", 5),
        ("nottingham", "vp", 3),
        ("shrewsbury", "vp", 4),
        ("oxford", "income", 2),
        ("gloucester", "develop", 1),
    ],
)
def test_merchant_beer_bonus(merchant, bonus_type, amount):
    m = R.merchants[merchant]
    assert (m.bonus_type, m.bonus_amount) == (bonus_type, amount)


def test_each_merchant_prints_two_link_icons_and_towns_print_none():
    for loc in R.locations.values():
        assert loc.printed_link_vp == (2 if loc.is_merchant else 0), loc.id


# -- coal and iron markets ----------------------------------------------------


def test_coal_market_has_14_spaces_two_each_at_1_to_7_pounds():
    coal = R.markets["coal"]
    assert coal.capacity == 14
    assert coal.prices == tuple(p for p in range(1, 8) for _ in range(2))


def test_coal_market_starts_with_13_cubes_and_costs_8_when_empty():
    coal = R.markets["coal"]
    assert coal.initial_cubes == 13
    assert coal.price_when_empty == 8


def test_iron_market_has_10_spaces_two_each_at_1_to_5_pounds():
    iron = R.markets["iron"]
    assert iron.capacity == 10
    assert iron.prices == tuple(p for p in range(1, 6) for _ in range(2))


def test_iron_market_starts_with_8_cubes_and_costs_6_when_empty():
    iron = R.markets["iron"]
    assert iron.initial_cubes == 8
    assert iron.price_when_empty == 6


@pytest.mark.parametrize("resource", ["coal", "iron"])
def test_buying_takes_the_cheapest_filled_space_first(resource):
    market = R.markets[resource]
    bought = []
    cubes = market.capacity
    while cubes > 0:
        bought.append(market.buy_price(cubes))
        cubes -= 1
    assert bought == list(market.prices)  # full market: £1, £1, £2, ... in order
    assert market.buy_price(0) == market.price_when_empty


@pytest.mark.parametrize("resource", ["coal", "iron"])
def test_selling_fills_the_most_expensive_empty_space_first(resource):
    market = R.markets[resource]
    paid = []
    cubes = 0
    while (price := market.sell_price(cubes)) is not None:
        paid.append(price)
        cubes += 1
    assert paid == sorted(market.prices, reverse=True)
    assert cubes == market.capacity
    assert market.sell_price(market.capacity) is None


def test_market_prices_at_setup():
    coal, iron = R.markets["coal"], R.markets["iron"]
    # Coal: one £1 space left open, so the next cube bought costs £1 and one sold earns £1.
    assert coal.buy_price(coal.initial_cubes) == 1
    assert coal.sell_price(coal.initial_cubes) == 1
    # Iron: both £1 spaces open, so the next cube bought costs £2 and one sold earns £1.
    assert iron.buy_price(iron.initial_cubes) == 2
    assert iron.sell_price(iron.initial_cubes) == 1


@pytest.mark.parametrize("cubes", [-1, 15])
def test_market_prices_refuse_impossible_cube_counts(cubes):
    with pytest.raises(ValueError):
        R.markets["coal"].buy_price(cubes)
    with pytest.raises(ValueError):
        R.markets["coal"].sell_price(cubes)


# -- income / progress track --------------------------------------------------


def test_progress_track_has_100_spaces():
    assert len(R.income_levels) == 100
    assert R.max_income_space == 99


@pytest.mark.parametrize(("space", "level"), [(0, -10), (9, -1), (10, 0), (11, 1), (30, 10), (60, 20), (99, 30)])
def test_income_level_of_space(space, level):
    assert R.income_level(space) == level


@pytest.mark.parametrize(
    ("first", "last", "levels", "per_level"),
    [(0, 10, range(-10, 1), 1), (11, 30, range(1, 11), 2), (31, 60, range(11, 21), 3), (61, 96, range(21, 30), 4)],
)
def test_income_bands_of_1_2_3_4_spaces_per_level(first, last, levels, per_level):
    band = R.income_levels[first : last + 1]
    assert Counter(band) == {lv: per_level for lv in levels}
    assert list(band) == sorted(band)


def test_income_level_30_has_the_last_three_spaces():
    assert [s for s, lv in enumerate(R.income_levels) if lv == 30] == [97, 98, 99]


def test_income_levels_run_from_minus_10_to_30_without_gaps():
    assert sorted(set(R.income_levels)) == list(range(-10, 31))
    assert list(R.income_levels) == sorted(R.income_levels)
    assert RAW["constants"]["income_level_range"] == [-10, 30]


@pytest.mark.parametrize(
    ("level", "space"),
    [(-10, 0), (-7, 3), (-3, 7), (0, 10), (1, 12), (10, 30), (11, 33), (20, 60), (21, 64), (29, 96), (30, 99)],
)
def test_top_space_of_level(level, space):
    assert R.top_space_of_level(level) == space


def test_negative_progress_track_space_is_refused():
    with pytest.raises(IndexError):
        R.income_level(-1)
    with pytest.raises(IndexError):
        R.income_level(100)


# -- constants ----------------------------------------------------------------


def test_starting_money_17_hand_8_income_marker_on_space_10():
    c = R.constants
    assert c["starting_money"] == 17
    assert c["hand_size"] == 8
    assert c["income_marker_start_space"] == 10
    assert c["vp_marker_start_space"] == 0
    assert R.income_level(c["income_marker_start_space"]) == 0


def test_loan_is_30_pounds_for_three_income_levels_not_below_minus_10():
    assert R.constants["loan"] == {"money": 30, "income_levels_lost": 3, "min_income_level": -10}
    # A first loan from the start: level 0 -> level -3, marker on the top space of level -3.
    assert R.top_space_of_level(R.income_level(10) - 3) == 7


def test_rounds_per_era_are_10_9_8_for_2_3_4_players():
    assert dict(R.rounds_per_era) == ROUNDS_PER_ERA


def test_fourteen_link_tiles_per_player():
    assert RAW["constants"]["per_player_components"]["link_tiles"] == 14
