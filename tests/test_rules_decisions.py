"""One test per reading in docs/rules-decisions.md (D1, D2, ...)."""

from __future__ import annotations

import pytest
from conftest import convert_golden

from brass_stats.engine import AS_PLAYED, STRICT, SeededChance, apply_action, new_game, standings
from brass_stats.engine.actions import Build, Network, Sale, Scout, Sell, Shortfall
from brass_stats.engine.connectivity import network
from brass_stats.engine.scoring import link_vp, score_era
from brass_stats.engine.state import GameState, Tile
from brass_stats.errors import AmbiguousChoice, IllegalAction
from brass_stats.replay import replay


def position(players: int = 2, era: str = "canal") -> GameState:
    """A fresh game at its first turn, optionally moved to the Rail Era (two actions per turn)."""
    g = new_game([f"P{i}" for i in range(players)], SeededChance(11))
    if era == "rail":
        g.era, g.era_round = "rail", 2
    return g


def hand(g: GameState, *cards: str) -> int:
    seat = g.current_player
    assert seat is not None
    g.players[seat].hand = list(cards) + ["loc:birmingham"] * (8 - len(cards))
    return seat


def tile(
    g: GameState, ref: str, owner: int, industry: str, level: int, resources: int = 0, flipped: bool = False
) -> None:
    g.tiles[ref] = Tile(owner, industry, level, resources, flipped)
    g.players[owner].set_mat_count(industry, level, g.players[owner].mat[industry][level - 1] - 1)
    g.touch_board()


def link(g: GameState, link_id: str, owner: int) -> None:
    g.links[link_id] = owner
    g.touch_board()


def test_D1_a_15th_link_is_refused_strictly_and_recorded_as_played() -> None:
    g = position(era="rail")
    seat = hand(g, "loc:dudley")
    g.players[seat].link_tiles = 0
    tile(g, "dudley:0", seat, "coal_mine", 2, resources=3)
    link = Network(seat, "loc:dudley", ("dudley--birmingham",), ("dudley:0",))
    with pytest.raises(IllegalAction) as info:
        apply_action(g, link)
    assert info.value.rule == "network.link_tiles"
    after, _ = apply_action(g, link, AS_PLAYED)
    assert after.links["dudley--birmingham"] == seat
    assert after.players[seat].link_tiles == -1


def test_D1_canal_links_return_to_their_owner_when_scored() -> None:
    g = position()
    link(g, "birmingham--coventry", 0)
    g.players[0].link_tiles = 13
    score_era(g)
    assert g.players[0].link_tiles == 14 and not g.links


def test_D1_golden_game_with_16_rail_links_is_a_departure() -> None:
    log = convert_golden("gm7vza-4p")
    assert [(d["action_index"], d["rule"]) for d in log.departures] == [(117, "network.link_tiles")] * 2
    strict = replay(log)
    assert strict.error is not None and (strict.error.index, strict.error.rule) == (117, "network.link_tiles")
    r = replay(log, AS_PLAYED)
    rail_links = sum(
        len(s.action.links)
        for s in r.steps
        if isinstance(s.action, Network) and s.era == "rail" and s.action.player == 2
    )
    assert rail_links == 16 and r.error is None and r.deviations == log.departures


def test_D2_canal_second_tile_in_a_location_is_refused_but_own_overbuild_allowed() -> None:
    g = position()
    seat = hand(g, "loc:birmingham", "loc:birmingham")
    tile(g, "birmingham:1", seat, "manufacturer", 1, flipped=True)
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Build(seat, "loc:birmingham", "manufacturer", "birmingham", 3))
    assert e.value.rule == "build.canal_one_per_location"
    g.players[seat].set_mat_count("manufacturer", 1, 0)  # level I gone: the next tile is level II
    after, done = apply_action(g, Build(seat, "loc:birmingham", "manufacturer", "birmingham"))
    assert isinstance(done, Build) and done.slot == 1
    assert after.tiles["birmingham:1"].level == 2 and not after.tiles["birmingham:1"].flipped


def test_D3_overbuild_may_be_chosen_while_a_space_is_free_and_must_then_be_stated() -> None:
    g = position(era="rail")
    seat = hand(g, "loc:coalbrookdale", "loc:coalbrookdale")
    tile(g, "coalbrookdale:1", seat, "iron_works", 1, flipped=True)
    tile(g, "coalbrookdale:2", 1 - seat, "coal_mine", 2, resources=3)
    with pytest.raises(AmbiguousChoice) as e:
        apply_action(g, Build(seat, "loc:coalbrookdale", "iron_works", "coalbrookdale"), STRICT)
    assert e.value.details["options"] == [0, 1]  # the free dual-icon space, or overbuild the own tile
    after, _ = apply_action(g, Build(seat, "loc:coalbrookdale", "iron_works", "coalbrookdale", 1, ("coalbrookdale:2",)))
    assert after.tiles["coalbrookdale:1"].level == 2 and "coalbrookdale:0" not in after.tiles


def test_D3_dual_icon_space_only_when_no_single_icon_space_is_free() -> None:
    g = position()
    seat = hand(g, "loc:birmingham")
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Build(seat, "loc:birmingham", "manufacturer", "birmingham", 0, ("market",)))
    assert e.value.rule == "build.single_icon_first"


def test_D4_rail_link_coal_distance_from_the_nearer_end() -> None:
    g = position(era="rail")
    seat = hand(g, "loc:dudley")
    tile(g, "dudley:0", 1 - seat, "coal_mine", 2, resources=3)  # at one end of the new link
    tile(g, "birmingham:2", seat, "iron_works", 2, resources=0, flipped=True)
    tile(g, "coventry:1", seat, "coal_mine", 2, resources=3)  # one link from the other end
    link(g, "birmingham--coventry", seat)
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Network(seat, "loc:dudley", ("dudley--birmingham",), ("coventry:1",)))
    assert e.value.rule == "coal.closest_mine" and e.value.details["closest"] == ["dudley:0"]


def test_D5_opponent_brewery_must_be_connected_to_the_sold_tile() -> None:
    g = position()
    seat = hand(g, "loc:birmingham")
    tile(g, "birmingham:0", seat, "cotton_mill", 1)
    link(g, "birmingham--oxford", seat)
    tile(g, "stafford:0", 1 - seat, "brewery", 1, resources=1)
    g.merchant_spaces = [ms for ms in g.merchant_spaces]
    for ms in g.merchant_spaces:
        if ms.location == "oxford":
            ms.accepts, ms.face, ms.beer = frozenset({"cotton_mill"}), "cotton_mill", False
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Sell(seat, "loc:birmingham", (Sale("birmingham:0", "oxford", beer=("stafford:0",)),)))
    assert e.value.rule == "beer.source"
    link(g, "stafford--cannock", 1 - seat)
    link(g, "cannock--walsall", 1 - seat)
    link(g, "walsall--birmingham", 1 - seat)
    after, _ = apply_action(g, Sell(seat, "loc:birmingham", (Sale("birmingham:0", "oxford", beer=("stafford:0",)),)))
    assert after.tiles["birmingham:0"].flipped and after.tiles["stafford:0"].flipped


def _merchant_setup(g: GameState, location: str, faces: list[str]) -> None:
    for ms in g.merchant_spaces:
        if ms.location == location:
            face = faces[ms.index]
            ms.face = face
            ms.accepts = frozenset({"cotton_mill", "manufacturer", "pottery"}) if face == "all" else frozenset({face})
            ms.beer = True


def test_D6_merchant_beer_comes_from_the_tile_sold_to_and_is_stated_when_two_could_serve() -> None:
    g = position()
    seat = hand(g, "loc:redditch")
    tile(g, "redditch:0", seat, "manufacturer", 1)
    link(g, "gloucester--redditch", seat)
    _merchant_setup(g, "gloucester", ["manufacturer", "all"])
    with pytest.raises(AmbiguousChoice):
        apply_action(
            g,
            Sell(
                seat, "loc:redditch", (Sale("redditch:0", "gloucester", beer=("merchant",), bonus_develop="coal_mine"),)
            ),
        )
    after, done = apply_action(
        g, Sell(seat, "loc:redditch", (Sale("redditch:0", "gloucester", 1, ("merchant",), "coal_mine"),))
    )
    spaces = {ms.index: ms.beer for ms in after.merchant_spaces if ms.location == "gloucester"}
    assert spaces == {0: True, 1: False}


def test_D7_gloucester_bonus_is_taken_and_skips_lightbulb_pottery() -> None:
    g = position()
    seat = hand(g, "loc:redditch")
    tile(g, "redditch:0", seat, "manufacturer", 1)
    link(g, "gloucester--redditch", seat)
    _merchant_setup(g, "gloucester", ["manufacturer", "blank"])
    for ms in g.merchant_spaces:
        if ms.location == "gloucester" and ms.index == 1:
            ms.accepts, ms.beer = frozenset(), False
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Sell(seat, "loc:redditch", (Sale("redditch:0", "gloucester", None, ("merchant",), "pottery"),)))
    assert e.value.rule == "develop.lightbulb"
    after, done = apply_action(
        g, Sell(seat, "loc:redditch", (Sale("redditch:0", "gloucester", None, ("merchant",), "brewery"),))
    )
    assert after.players[seat].mat["brewery"][0] == g.players[seat].mat["brewery"][0] - 1
    assert after.players[seat].money == g.players[seat].money  # no iron bought


def _end_round_with_shortfall(owed_level: int, money: int, tiles: list[tuple[str, str, int]], vp: int = 3) -> GameState:
    """Both players pass through the first round; seat 0 ends it owing income."""
    g = position()
    g.players[0].income_space = g.rules.top_space_of_level(owed_level)
    g.players[0].money = money
    g.players[0].vp = vp
    for ref, ind, lvl in tiles:
        tile(g, ref, 0, ind, lvl, resources=1 if ind in ("coal_mine", "iron_works", "brewery") else 0)
    from brass_stats.engine.actions import Pass

    for _ in range(2):
        seat = g.current_player
        assert seat is not None
        g, _ = apply_action(g, Pass(seat, g.players[seat].hand[0]))
    return g


def test_D8_shortfall_stops_once_covered_keeps_excess_and_never_below_zero_vp() -> None:
    g = _end_round_with_shortfall(-5, 2, [("dudley:0", "coal_mine", 1), ("worcester:0", "cotton_mill", 1)])
    assert g.phase == "shortfall" and g.shortfalls == [(0, 3)]
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Shortfall(0, ("worcester:0", "dudley:0")))
    assert e.value.rule == "shortfall.tiles"
    after, done = apply_action(g, Shortfall(0, ("worcester:0",)))  # worth £6, owed £3
    assert after.players[0].money == 3 and "dudley:0" in after.tiles and after.phase == "actions"
    g = _end_round_with_shortfall(-10, 0, [], vp=4)
    assert g.players[0].vp == 0 and g.phase == "actions"


def test_D8_shortfall_tile_is_worth_half_its_money_cost_rounded_down() -> None:
    g = _end_round_with_shortfall(-10, 0, [("dudley:0", "coal_mine", 1)], vp=10)
    after, _ = apply_action(g, Shortfall(0))  # the only tile: the choice may be omitted
    # coal mine I costs £5: worth £2; £10 owed, so £8 short -> 8 VP lost
    assert after.players[0].vp == 2 and after.players[0].money == 0


def test_D9_income_is_paid_after_the_last_canal_round_but_not_the_last_rail_round() -> None:
    r = replay(convert_golden("wq9gs6-2p"))
    canal_income = [s for s in r.steps if s.era == "canal" and any(e.cause == "income" for e in s.effects)]
    last_canal_round = max(s.round for s in r.steps if s.era == "canal")
    assert any(s.round == last_canal_round for s in canal_income)
    last_rail_round = max(s.round for s in r.steps)
    assert not any(e.cause == "income" for s in r.steps if s.round == last_rail_round for e in s.effects)


@pytest.mark.parametrize("players,rounds", [(2, 10), (3, 9), (4, 8)])
def test_D10_eras_end_when_deck_and_hands_are_empty_after_8_9_10_rounds(players: int, rounds: int) -> None:
    from brass_stats.bots import RandomBot, play_game

    r = replay(play_game([RandomBot()] * players, seed=players))
    canal_rounds = {s.era_round for s in r.steps if s.era == "canal"}
    rail_rounds = {s.era_round for s in r.steps if s.era == "rail"}
    assert max(canal_rounds) == rounds and max(rail_rounds) == rounds


def test_D11_market_coal_needs_a_merchant_connection_even_without_merchant_tiles() -> None:
    g = position()  # 2 players: Warrington has no merchant tiles
    seat = hand(g, "loc:stoke_on_trent", "loc:stoke_on_trent")
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Build(seat, "loc:stoke_on_trent", "manufacturer", "stoke_on_trent", 2, ("market",)))
    assert e.value.rule == "coal.market"
    link(g, "warrington--stoke_on_trent", 1 - seat)
    after, _ = apply_action(g, Build(seat, "loc:stoke_on_trent", "manufacturer", "stoke_on_trent", 2, ("market",)))
    assert after.coal_market == g.coal_market - 1


def test_D12_double_rail_beer_never_from_a_merchant() -> None:
    g = position(era="rail")
    seat = hand(g, "loc:birmingham")
    tile(g, "birmingham:2", seat, "iron_works", 2, flipped=True)
    tile(g, "coventry:1", 1 - seat, "coal_mine", 2, resources=3)
    g.players[seat].money = 40
    with pytest.raises(IllegalAction) as e:
        apply_action(
            g, Network(seat, "loc:birmingham", ("birmingham--coventry", "birmingham--oxford"), None, "merchant")
        )
    assert e.value.rule == "network.double_beer"


def test_D13_scout_refused_with_a_wild_card_in_hand_even_if_discarded() -> None:
    g = position()
    seat = hand(g, "wild:location", "loc:dudley", "loc:coventry")
    g.wild["wild:location"] -= 1
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Scout(seat, ("wild:location", "loc:dudley", "loc:coventry")))
    assert e.value.rule == "scout.wild_in_hand"


def test_D14_overbuilt_own_cubes_go_to_the_supply() -> None:
    g = position(era="rail")
    seat = hand(g, "loc:dudley")
    tile(g, "dudley:0", seat, "coal_mine", 1, resources=2)
    g.players[seat].set_mat_count("coal_mine", 1, 0)
    after, _ = apply_action(g, Build(seat, "loc:dudley", "coal_mine", "dudley", 0))
    assert after.tiles["dudley:0"].level == 2 and after.tiles["dudley:0"].resources == 3


def test_D15_no_pieces_on_board_allows_building_anywhere_with_an_industry_card() -> None:
    g = position(era="rail")
    seat = hand(g, "ind:coal_mine")
    assert network(g, seat) == frozenset()
    g.players[seat].set_mat_count("coal_mine", 1, 0)
    after, _ = apply_action(g, Build(seat, "ind:coal_mine", "coal_mine", "dudley", 0))
    assert after.tiles["dudley:0"].owner == seat
    tile(after, "coventry:2", seat, "iron_works", 2, flipped=True)
    seat2 = after.current_player
    assert seat2 == seat  # second action of the rail turn
    after.players[seat].hand = ["ind:coal_mine"] + after.players[seat].hand[1:]
    with pytest.raises(IllegalAction) as e:
        apply_action(after, Build(seat, "ind:coal_mine", "coal_mine", "tamworth", 0))
    assert e.value.rule == "build.network"


def test_D16_manufacturer_iv_cost_is_a_data_value() -> None:
    from brass_stats.rules_data import load_rules

    assert load_rules().level("manufacturer", 4).cost_money == 8
    assert load_rules(tile_overrides={"manufacturer.4.cost_money": 14}).level("manufacturer", 4).cost_money == 14
    assert "tile_overrides" not in convert_golden("wq9gs6-2p").options  # the importer keeps the printed £8


def test_D17_ties_broken_by_income_space_then_money_else_shared() -> None:
    g = position(players=4)
    # spaces 31 and 32 are both income level 11 (spaces 31-33 are); space 20 is a lower level
    rows = [(50, 31, 5), (50, 31, 9), (50, 20, 99), (50, 32, 0)]
    for p, (vp, space, money) in zip(g.players, rows, strict=True):
        p.vp, p.income_space, p.money = vp, space, money
    assert g.income_level(0) == g.income_level(3)  # same level, different spaces
    assert [s.rank for s in standings(g)] == [3, 2, 4, 1]  # seat 3's space wins despite £0
    g.players[0].money = 9
    assert [s.rank for s in standings(g)] == [2, 2, 4, 1]


def test_D18_market_sale_money_cannot_pay_for_the_build() -> None:
    g = position()
    seat = hand(g, "loc:dudley")
    link(g, "dudley--birmingham", 1 - seat)
    link(g, "birmingham--oxford", 1 - seat)
    g.players[seat].money = 4  # coal mine I costs £5; its cubes would sell for more
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Build(seat, "loc:dudley", "coal_mine", "dudley", 0))
    assert e.value.rule == "money.afford"


def test_D19_kidderminster_worcester_link_scores_the_farm_brewery() -> None:
    g = position()
    link(g, "kidderminster--worcester", 0)
    tile(g, "farm_brewery_south:0", 1, "brewery", 1, flipped=True)
    assert link_vp(g, "kidderminster--worcester") == g.rules.level("brewery", 1).link_vp


def test_D20_a_tile_needing_no_beer_takes_no_merchant_barrel() -> None:
    g = position()
    seat = hand(g, "loc:birmingham")
    tile(g, "birmingham:1", seat, "manufacturer", 3)  # Manufacturer III shows no beer
    link(g, "birmingham--oxford", seat)
    _merchant_setup(g, "oxford", ["manufacturer", "all"])
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Sell(seat, "loc:birmingham", (Sale("birmingham:1", "oxford", 0, ("merchant",)),)))
    assert e.value.rule == "beer.count"
    after, done = apply_action(g, Sell(seat, "loc:birmingham", (Sale("birmingham:1", "oxford"),)))
    assert after.tiles["birmingham:1"].flipped and all(
        ms.beer for ms in after.merchant_spaces if ms.location == "oxford"
    )
    assert (
        after.players[seat].income_space
        == g.players[seat].income_space + g.rules.level("manufacturer", 3).income_spaces
    )


def test_D21_a_tile_worth_nothing_is_not_removed_for_a_shortfall() -> None:
    g = _end_round_with_shortfall(-5, 0, [("birmingham:3", "manufacturer", 5), ("coventry:0", "pottery", 2)], vp=3)
    # Manufacturer V costs £16 (worth £8); Pottery II costs £0 (worth nothing)
    assert g.rules.level("pottery", 2).cost_money == 0
    with pytest.raises(IllegalAction) as e:
        apply_action(g, Shortfall(0, ("coventry:0",)))
    assert e.value.rule == "shortfall.tiles" and "£0" in e.value.message
    from brass_stats.engine.legal import legal_actions

    assert legal_actions(g) == [Shortfall(0, ("birmingham:3",))]
    after, _ = apply_action(g, Shortfall(0))
    assert "coventry:0" in after.tiles and after.players[0].money == 3


def test_D21_only_worthless_tiles_means_vp_are_lost_at_once() -> None:
    g = _end_round_with_shortfall(-5, 0, [("coventry:0", "pottery", 2)], vp=9)
    assert g.phase == "actions" and g.players[0].vp == 4 and "coventry:0" in g.tiles
