"""Contracts of the move list (``brass_stats.replay.notation``, docs/viewer.md): what a move's sentence
tells a player about who did what, with which resources, and what followed. Written for the survivors
of the replay wing's mutation campaign (docs/testing.md).

Each position is set up with the rule-test helpers and replayed through :class:`Replay`, so every
sentence describes what the real engine did; the expected words follow from the rules (costs, sale
values, merchant bonuses) and are checked against the state where they can be.

Not tested, as no step the engine makes can tell them from the code (the engine's effect kinds are
beer_used, build, coal_used, develop, deviation, distant_market, flip, income_spaces, iron_used, link,
market_sale, money, tile_removed, vp): ``kind <= "develop"`` among a Develop's effects (none caused by
a develop sorts before it), ``kind <= "income_spaces"`` in ``flips`` (the others carry no tile, or come
before the tile's own income_spaces effect, which overwrites them), ``kind >= "vp"`` in the era scoring
(no kind sorts after "vp"), ``kind <= "vp"`` for a shortfall outside a Shortfall action (only VP are
lost there), and ``_FROZEN_AT_START[-1]`` in ``replay/__init__.py`` (a one-element list). Nor, for the
same reason: ``kind >= "income_spaces"`` in ``flips`` (a flip's own income_spaces effect comes right after
it and after every other effect with its seat and tile: a built tile's market sales, an overbuilt tile's
removal), the default £1 for a tile removed for a shortfall (each such removal is followed by its money
effect, £0 included), and ``key <= "income_space"`` in ``_player_value`` (of the keys a log may declare,
vp, money, income_level and income_space, only income_level sorts before it, and it is read first).
Nor: ``levels != 1`` for ``levels > 1`` in a loan's "income levels" (every loan option of both editions
takes 1 to 3 levels, and none takes 0 or fewer), ``kind >= "money"`` in the end-of-round income (only
money effects have the cause "income": no tile_removed or vp effect does), and ``kind <= "flip"`` in a
sale's port flip (of the kinds before "flip" only a distant_market effect names a tile in a sale, and it
names the mill sold, never a port).
"""

from __future__ import annotations

from dataclasses import replace

import lancashire_helpers as lancashire
import pytest
from helpers import (
    NAMES,
    clear_mat_below,
    fresh,
    give,
    last_round,
    place_link,
    place_tile,
    set_income_space,
    set_merchants,
    set_money,
    to_rail_era,
)

from brass_stats import SAMPLES
from brass_stats.engine import Build, Develop, GameState, Loan, Pass, Sale, Sell, Shortfall
from brass_stats.errors import IllegalAction
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, Step
from brass_stats.replay.notation import describe_step, illegal_move, move_list

# income track spaces (rules.income_levels) for the levels used below
LEVEL_MINUS_10, LEVEL_MINUS_3, LEVEL_0, LEVEL_5 = 0, 7, 10, 20


def table(state: GameState) -> Replay:
    """A replay that starts from ``state`` (a position set up with the helpers), its log naming the same players."""
    levels = state.rules.income_levels
    assert (levels[LEVEL_MINUS_10], levels[LEVEL_MINUS_3], levels[LEVEL_0], levels[LEVEL_5]) == (-10, -3, 0, 5)
    r = Replay(GameLog.new([p.name for p in state.players], seed=0))
    r.initial = r.state = state
    return r


def passes(r: Replay, count: int) -> Step:
    """The players to move pass ``count`` times (each with their first card); the last step."""
    step = None
    for _ in range(count):
        seat = r.state.current_player
        assert seat is not None
        step = r.push(Pass(seat, r.state.players[seat].hand[0]))
    assert step is not None
    return step


def text(r: Replay, step: Step) -> str:
    return describe_step(step, r.initial.rules, r.log.players)


# -- money, income and shortfalls ---------------------------------------------------------------------


def test_end_of_round_income_lists_every_player_and_a_debit_reads_minus_the_pounds_paid() -> None:
    """Income at the end of a round: each player with the money the income level gave or took; a negative
    level -3 takes £3 from Ann ("−£3", not £2), level 5 gives Bob £5."""
    g = fresh(2)
    set_income_space(g, 0, LEVEL_MINUS_3)
    set_income_space(g, 1, LEVEL_5)
    r = table(g)
    line = text(r, passes(r, 2)).split("End of round 1: income ", 1)[1]
    assert sorted(line.split(", ")) == ["Ann \u2212£3", "Bob +£5"]
    assert [p.money for p in r.state.players] == [17 - 3, 17 + 5]


def test_vp_lost_to_an_unpaid_income_is_told_with_the_end_of_round_income() -> None:
    """A player who cannot pay a negative income and has no tile to sell loses 1 VP per £1 short; the
    move list tells it at the end of the round, after the income."""
    g = fresh(2)
    set_income_space(g, 0, LEVEL_MINUS_3)
    set_money(g, 0, 0)
    g.players[0].vp = 5
    r = table(g)
    said = text(r, passes(r, 2))
    assert said.endswith("; shortfall Ann \u22123 VP")
    assert r.state.players[0].vp == 5 - 3


def shortfall(income_space: int, vp: int, tile: tuple[str, str, int]) -> tuple[Replay, str]:
    """Ann, with £0 and one tile on the board, owes her income at the end of round 1; she removes the tile."""
    g = fresh(2)
    set_income_space(g, 0, income_space)
    set_money(g, 0, 0)
    g.players[0].vp = vp
    ref, industry, level = tile
    place_tile(g, ref, 0, industry, level)
    r = table(g)
    passes(r, 2)
    assert r.state.phase == "shortfall"
    return r, text(r, r.push(Shortfall(0, (ref,))))


def test_a_tile_removed_for_a_shortfall_states_the_money_its_sale_left_over() -> None:
    """A tile removed for a shortfall sells for half its cost: Cotton Mill I (£12) raises £6, £3 pays the
    level -3 income and Ann keeps £3. The debt is covered, so no VP are lost and none are mentioned."""
    r, said = shortfall(LEVEL_MINUS_3, 5, ("worcester:0", "cotton_mill", 1))
    assert said == "Ann removes Cotton Mill I in Worcester (+£3) to pay a shortfall"
    assert (r.state.players[0].money, r.state.players[0].vp) == (3, 5)


def test_a_shortfall_the_tiles_do_not_cover_costs_1_vp_per_pound_still_short() -> None:
    """Coal Mine I (£5) raises £2 against £10 owed: nothing is left over (+£0) and the £8 still short
    cost 8 VP, told after the tile."""
    r, said = shortfall(LEVEL_MINUS_10, 20, ("dudley:0", "coal_mine", 1))
    assert said == "Ann removes Coal Mine I in Dudley (+£0) to pay a shortfall (\u22128 VP)"
    assert (r.state.players[0].money, r.state.players[0].vp) == (0, 20 - 8)


# -- resources: where they came from, whose they were, how many ---------------------------------------


@pytest.mark.parametrize("owner", [0, 1], ids=["own_mine", "bobs_mine"])
def test_coal_from_a_tile_names_its_owner_only_when_it_is_someone_elses(owner: int) -> None:
    """Ann builds Iron Works II with coal from the mine in Dudley: "coal from Dudley" when the mine is hers,
    "coal from Dudley (Bob's)" when it is Bob's (the player who profits from the cube)."""
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:dudley")
    clear_mat_below(g, 0, "iron_works", 2)
    place_tile(g, "dudley:0", owner, "coal_mine", 2)
    r = table(g)
    said = text(r, r.push(Build(0, "loc:dudley", "iron_works", "dudley", 1, coal=("dudley:0",))))
    assert said.startswith("Ann builds Iron Works II in Dudley (card Dudley; ")
    if owner == 0:
        assert "; coal from Dudley; " in said and "Ann's" not in said
    else:
        assert "; coal from Dudley (Bob's); " in said


def test_cubes_from_one_source_are_counted() -> None:
    """Developing two tiles takes two iron; both from Ann's iron works in Dudley read "Dudley ×2" (and cost
    nothing: no "pays")."""
    g = fresh(2)
    give(g, 0, "loc:leek")
    place_tile(g, "dudley:1", 0, "iron_works", 1)
    r = table(g)
    step = r.push(Develop(0, "loc:leek", ("cotton_mill", "manufacturer"), iron=("dudley:1", "dudley:1")))
    assert text(r, step) == "Ann develops Cotton Mill I and Manufacturer I (card Leek; iron from Dudley \u00d72)"
    assert r.state.tiles["dudley:1"].resources == 4 - 2


# -- sales and merchant bonuses -------------------------------------------------------------------------


def oxford_sales(brewer: int) -> GameState:
    """Ann's Manufacturer I in Birmingham and Cotton Mill I in Worcester, both linked to Oxford (which
    buys both), and a Brewery II with two barrels in Nuneaton owned by ``brewer``."""
    g = fresh(2)
    give(g, 0, "loc:leek")
    set_merchants(g, {"oxford": ["manufacturer", "cotton_mill"], "gloucester": ["all", "blank"]})
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_link(g, "birmingham--oxford", 1)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_link(g, "birmingham--worcester", 1)
    place_tile(g, "nuneaton:0", brewer, "brewery", 2, resources=2)
    return g


def two_sales() -> tuple[Replay, Step]:
    """Ann sells her Manufacturer I in Birmingham and her Cotton Mill I in Worcester to Oxford in one action."""
    r = table(oxford_sales(brewer=0))
    sales = (Sale("birmingham:1", "oxford", beer=("merchant",)), Sale("worcester:0", "oxford", beer=("nuneaton:0",)))
    return r, r.push(Sell(0, "loc:leek", sales))


def test_each_tile_sold_in_one_action_is_named_with_its_own_industry_and_level() -> None:
    """One Sell action, two tiles: each sale names the tile sold (its industry and level), not another
    tile flipped in the same action."""
    r, step = two_sales()
    first, second = text(r, step).split("; and ")
    assert first.startswith("Ann sells Manufacturer I in Birmingham to Oxford (")
    assert second.startswith("Cotton Mill I in Worcester to Oxford (beer from Nuneaton; flips it, +5 income)")


def sale_with_bonus(merchant: str) -> tuple[Replay, str]:
    """Ann sells one tile to ``merchant`` with its barrel of beer, which earns that merchant's bonus."""
    if merchant == "warrington":  # merchant tiles at Warrington only in 4-player games
        g = fresh(4)
        set_merchants(g, {"warrington": ["manufacturer", "blank"]})
        place_tile(g, "stoke_on_trent:2", 0, "manufacturer", 1)
        place_link(g, "warrington--stoke_on_trent", 1)
        sale = Sale("stoke_on_trent:2", "warrington", beer=("merchant",))
    elif merchant == "shrewsbury":
        g = fresh(2)
        set_merchants(g, {"shrewsbury": ["all"]})
        place_tile(g, "kidderminster:1", 0, "cotton_mill", 1)
        place_link(g, "coalbrookdale--kidderminster", 1)
        place_link(g, "coalbrookdale--shrewsbury", 1)
        sale = Sale("kidderminster:1", "shrewsbury", beer=("merchant",))
    elif merchant == "oxford":
        g = fresh(2)
        set_merchants(g, {"oxford": ["manufacturer", "cotton_mill"], "gloucester": ["all", "blank"]})
        place_tile(g, "birmingham:1", 0, "manufacturer", 1)
        place_link(g, "birmingham--oxford", 1)
        sale = Sale("birmingham:1", "oxford", beer=("merchant",))
    else:
        g = fresh(2)
        set_merchants(g, {"gloucester": ["all", "blank"]})
        place_tile(g, "worcester:0", 0, "cotton_mill", 1)
        place_link(g, "worcester--gloucester", 1)
        sale = Sale("worcester:0", "gloucester", beer=("merchant",), bonus_develop="iron_works")
    give(g, 0, "loc:leek")
    r = table(g)
    return r, text(r, r.push(Sell(0, "loc:leek", (sale,))))


@pytest.mark.parametrize(
    ("merchant", "bonus"),
    [
        ("warrington", "Warrington bonus +£5"),
        ("shrewsbury", "Shrewsbury bonus +4 VP"),
        ("oxford", "Oxford bonus +2 income"),
        ("gloucester", "Gloucester bonus: develops Iron Works I"),
    ],
)
def test_a_merchant_bonus_is_told_in_its_own_kind(merchant: str, bonus: str) -> None:
    """The merchants' beer bonuses (Birmingham): Warrington £5, Shrewsbury 4 VP, Oxford 2 income spaces,
    Gloucester a free develop (here Ann's lowest Iron Works, level I). Each is told as what it gave:
    pounds, VP, income or the tile developed, never one read as another."""
    r, said = sale_with_bonus(merchant)
    assert said.endswith(f"(card Leek; {bonus})")
    ann = r.state.players[0]
    if merchant == "warrington":
        assert ann.money == 17 + 5
    elif merchant == "shrewsbury":
        assert ann.vp == 4
    elif merchant == "oxford":
        assert ann.income_space == LEVEL_0 + 5 + 2  # Manufacturer I's 5 spaces, then the bonus
    else:
        assert ann.mat["iron_works"][0] == 0


# -- end of the era -------------------------------------------------------------------------------------


def test_the_canal_era_end_counts_the_level_one_tiles_it_removes() -> None:
    """At the end of the Canal Era every level-I tile (flipped or not, whoever owns it) and every link leaves
    the board: here Ann's flipped Cotton Mill I (which scores its 5 VP first) and Bob's Coal Mine I; Ann's
    Manufacturer II stays."""
    g = fresh(2)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1, flipped=True)
    place_tile(g, "dudley:0", 1, "coal_mine", 1)
    place_tile(g, "birmingham:1", 0, "manufacturer", 2)
    last_round(g)
    r = table(g)
    step = passes(r, 1)
    while r.state.era == "canal":
        step = passes(r, 1)
    said = text(r, step)
    assert said.endswith(". End of the Canal Era: Ann +5 VP; 2 level-I tiles and every link removed")
    assert g.rules.level("cotton_mill", 1).vp == 5
    assert sorted(r.state.tiles) == ["birmingham:1"]


# -- names ----------------------------------------------------------------------------------------------


def test_a_seat_beyond_the_names_given_reads_seat_and_its_number() -> None:
    """``move_list(replay, names)`` with names for fewer seats than play: the seats without a name read
    "seat N" (in the player column, the sentence and the income line), never another seat's name."""
    r = table(fresh(3))
    passes(r, 3)
    moves = move_list(r, names=["Ann"])
    assert [m.player for m in moves] == ["Ann", "seat 1", "seat 2"]
    assert [m.text.split(" passes ")[0] for m in moves] == ["Ann", "seat 1", "seat 2"]
    income = moves[-1].text.split("End of round 1: income ", 1)[1]
    assert sorted(income.split(", ")) == ["Ann +£0", "seat 1 +£0", "seat 2 +£0"]
    assert move_list(r, names=[])[0].text.startswith("seat 0 passes ")


def test_a_long_player_name_is_cut_to_40_characters_ending_with_an_ellipsis() -> None:
    """A replay's repr shows each name whole up to 40 characters; a longer one is cut to exactly 40,
    its first 39 and "…"."""
    long = "Wolverhampton Wanderers Supporters Club Brass Team"
    r = Replay(GameLog.new([long, "Bob"], seed=0))
    shown = long[:39] + "\u2026"
    assert len(shown) == 40
    assert f"({shown!r}, 'Bob')" in repr(r)


def test_a_step_repr_cuts_a_long_move_to_160_characters() -> None:
    """A step's repr gives the move's sentence up to 160 characters; a longer one is cut to exactly 160,
    its first 159 and "…"."""
    r, step = two_sales()
    said = text(r, step)
    assert len(said) > 160 and ". End of " not in said
    assert repr(step) == f"<Step 0: Canal Era round 1: {said[:159]}\u2026>"


# -- illegal actions ------------------------------------------------------------------------------------


def test_an_illegal_action_with_no_seat_is_put_down_to_seat_minus_1() -> None:
    """An error that names no player (and no action) is told as "seat -1 acts": -1 is the package's seat
    for "no seat" (as for a deviation without one), never a player's name."""
    r = table(fresh(2))
    m = illegal_move(IllegalAction("log.format", "the file has no actions list"), r, ["Ann", "Bob"])
    assert (m.seat, m.player, m.illegal) == (-1, "seat -1", True)
    assert m.text == "seat -1 acts: illegal [log.format] the file has no actions list"


def test_an_illegal_action_that_cannot_be_read_names_its_player() -> None:
    """An illegal action whose own text cannot be read (an unknown type) is told as "<player> acts", then
    the rule and the message."""
    r = table(fresh(2))
    err = IllegalAction("log.unknown_name", "unknown action type 'teleport'", player=1)
    err.action = {"type": "teleport", "player": 1}
    m = illegal_move(err, r, list(NAMES[:2]))
    assert (m.seat, m.player, m.type) == (1, "Bob", "teleport")
    assert m.text == "Bob acts: illegal [log.unknown_name] unknown action type 'teleport'"


# -- more survivors: the money after a step, lists, slots, the Distant Cotton Market, the game's end ----


def test_a_step_tells_the_money_its_player_has_after_it() -> None:
    """``Step.money_after(seat)``: a player's money right after that step, whatever came later. Ann's £30
    loan (Birmingham's only loan, 3 income levels) gives her £30, and Bob's later loan changes neither her
    step's reading nor his money as of her step. His loan ends round 1: his step's money is after the
    round's income too, where each now pays £3 (level -3)."""
    g = fresh(2)
    assert g.rules.loan_options == ((30, 3),)
    assert [g.income_level(seat) for seat in (0, 1)] == [0, 0]
    ann, bob = g.players[0].money, g.players[1].money
    r = table(g)
    first = r.push(Loan(0, r.state.players[0].hand[0]))
    second = r.push(Loan(1, r.state.players[1].hand[0]))
    assert (first.money_after(0), first.money_after(1)) == (ann + 30, bob)
    assert [r.state.income_level(seat) for seat in (0, 1)] == [-3, -3]
    assert (second.money_after(0), second.money_after(1)) == (ann + 30 - 3, bob + 30 - 3)
    assert [p.money for p in r.state.players] == [ann + 30 - 3, bob + 30 - 3]


def test_three_tiles_removed_for_a_shortfall_are_listed_a_b_and_c() -> None:
    """A list of three reads "a, b and c", each item once: Ann owes £10 (level -10) with £0 and removes all
    three of her tiles (each sells for half its cost, £5 // 2 = £2, so nothing is left over: +£0); the
    £4 still short cost 4 VP."""
    g = fresh(2)
    set_income_space(g, 0, LEVEL_MINUS_10)
    set_money(g, 0, 0)
    g.players[0].vp = 10
    tiles = [("dudley:0", "coal_mine"), ("dudley:1", "iron_works"), ("nuneaton:0", "brewery")]
    for ref, industry in tiles:
        place_tile(g, ref, 0, industry, 1)
    raised = sum(g.rules.level(industry, 1).cost_money // 2 for _, industry in tiles)
    assert raised == 6
    r = table(g)
    passes(r, 2)
    said = text(r, r.push(Shortfall(0, tuple(ref for ref, _ in tiles))))
    assert said == (
        "Ann removes Coal Mine I in Dudley (+£0), Iron Works I in Dudley (+£0) and Brewery I in Nuneaton (+£0)"
        " to pay a shortfall (\u22124 VP)"
    )
    assert (r.state.players[0].vp, r.state.tiles) == (10 - (10 - raised), {})


@pytest.mark.parametrize(
    ("location", "industry", "slot", "said"),
    [
        ("birmingham", "manufacturer", 3, "Ann builds Manufacturer in Birmingham (slot 3)"),
        ("farm_brewery_north", "brewery", 0, "Ann builds Brewery in Farm Brewery (north, left of Cannock)"),
    ],
    ids=["four_slots", "one_slot"],
)
def test_an_attempted_build_names_its_slot_only_where_the_location_has_more_than_one(
    location: str, industry: str, slot: int, said: str
) -> None:
    """An illegal build is told as attempted: its slot is named where the location has several (Birmingham
    has four), and not where there is only one to build in (a farm brewery)."""
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert len(g.rules.locations[location].slots) == (1 if location.startswith("farm") else 4)
    r = table(g)
    with pytest.raises(IllegalAction) as info:
        r.push(Build(0, "loc:stone", industry, location, slot))  # a card Ann does not hold
    err = info.value
    assert illegal_move(err, r, r.log.players).text == f"{said} (card Stone): illegal [{err.rule}] {err.message}"


def distant_market_sale(position: int, move: int) -> tuple[Replay, str]:
    """Lancashire: Ann sells her Cotton Mill I in Colne (linked to Yorkshire, a trade icon) to the Distant
    Cotton Market; the marker stands on row ``position`` and the top market tile moves it ``move`` rows."""
    g = lancashire.fresh(2)
    lancashire.place_tile(g, "colne:0", 0, "cotton_mill", 1)
    lancashire.place_link(g, "colne--yorkshire", 1)
    lancashire.set_dcm(g, (move,), position)
    lancashire.give(g, 0, "loc:colne")
    r = Replay(GameLog.new([p.name for p in g.players], seed=0, edition="lancashire"))
    r.initial = r.state = g
    return r, text(r, r.push(Sell(0, "loc:colne", (Sale("colne:0", "distant_market"),))))


def test_a_distant_market_sale_tells_the_market_tiles_move_then_the_income_beside_the_marker() -> None:
    """The market tile moves the marker 1 row (from row 0 to row 1, where the track gives +3 income), then
    the mill flips for its own +5: each number is told in its place, the move never read as the income."""
    r, said = distant_market_sale(0, 1)
    rules = r.initial.rules
    assert rules.dcm_track[1] == 3 and rules.level("cotton_mill", 1).income_spaces == 5
    assert said == (
        "Ann sells Cotton Mill I in Colne to the Distant Cotton Market"
        " (market tile moves 1, +3 income; flips it, +5 income) (card Colne)"
    )
    assert (r.state.dcm_position, r.state.players[0].income_space) == (1, LEVEL_0 + 3 + 5)


def test_a_distant_market_sale_that_reaches_the_x_gives_no_income_and_no_flip() -> None:
    """A market tile that moves the marker onto the X (the track's last row) closes the market: the sale
    gives no income (+0) and the mill does not flip (rulebook, Sell Action)."""
    r, said = distant_market_sale(7, 1)
    assert r.initial.rules.dcm_track[8] is None
    assert said.startswith("Ann sells a Cotton Mill in Colne")  # named, though nothing flips to name it
    assert said.endswith(" in Colne to the Distant Cotton Market (market tile moves 1, +0 income) (card Colne)")
    assert r.state.players[0].income_space == LEVEL_0 and not r.state.tiles["colne:0"].flipped


def test_the_last_move_of_the_game_tells_the_rail_era_scoring() -> None:
    """The game ends after the Rail Era's last round: its last move tells each player's VP from the Rail
    Era scoring (flipped tiles: Ann's Cotton Mill II, Bob's Coal Mine II), as the Canal Era's end is told."""
    g = to_rail_era(fresh(2))
    place_tile(g, "worcester:0", 0, "cotton_mill", 2, flipped=True)
    place_tile(g, "dudley:0", 1, "coal_mine", 2, flipped=True)
    last_round(g)
    mill, mine = g.rules.level("cotton_mill", 2).vp, g.rules.level("coal_mine", 2).vp
    r = table(g)
    step = passes(r, 1)
    while not r.state.game_over:
        step = passes(r, 1)
    said = text(r, step)
    assert said.endswith(f". End of the Rail Era: Ann +{mill} VP, Bob +{mine} VP")
    assert "Canal Era" not in said
    assert [p.vp for p in r.state.players] == [mill, mine]


# -- the slot of a two-slot location, a shortfall attempted, an overbuild, two owners' beer, a port -----


def test_an_attempted_build_names_its_slot_where_the_location_has_exactly_two() -> None:
    """Leek has two slots (Cotton Mill/Manufacturer, Cotton Mill/Coal Mine): an illegal build there is told
    with the slot it names, as for any location with more than one slot to choose from."""
    g = fresh(2)
    give(g, 0, "loc:leek")
    assert len(g.rules.locations["leek"].slots) == 2
    r = table(g)
    with pytest.raises(IllegalAction) as info:
        r.push(Build(0, "loc:stone", "cotton_mill", "leek", 1))  # a card Ann does not hold
    err = info.value
    said = illegal_move(err, r, r.log.players).text
    assert said == f"Ann builds Cotton Mill in Leek (slot 1) (card Stone): illegal [{err.rule}] {err.message}"


def test_a_shortfall_attempted_when_none_is_owed_reads_cannot_pay_the_shortfall_in_money() -> None:
    """Removing a tile to pay a shortfall is only legal while one is owed; attempted in the middle of a
    round it is illegal, and told as what the player set out to do: pay a shortfall they cannot pay in money."""
    g = fresh(2)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    r = table(g)
    assert r.state.phase != "shortfall"
    with pytest.raises(IllegalAction) as info:
        r.push(Shortfall(0, ("worcester:0",)))
    err = info.value
    said = illegal_move(err, r, r.log.players).text
    assert said == f"Ann cannot pay the shortfall in money: illegal [{err.rule}] {err.message}"
    assert "worcester:0" in r.state.tiles


def test_an_overbuild_tells_the_tile_it_replaces() -> None:
    """In the Rail Era Ann builds Brewery II over her own Brewery I in Nuneaton (a higher level of the same
    industry, rulebook "Overbuilding"): the sentence tells the tile replaced, after its cost (£7 and one
    iron from the market at £2)."""
    g = to_rail_era(fresh(2))
    give(g, 0, "loc:nuneaton")
    place_tile(g, "nuneaton:0", 0, "brewery", 1)
    clear_mat_below(g, 0, "brewery", 2)
    brewery = g.rules.level("brewery", 2)
    assert (brewery.cost_money, brewery.cost_iron, g.rules.markets["iron"].buy_price(g.iron_market)) == (7, 1, 2)
    r = table(g)
    said = text(r, r.push(Build(0, "loc:nuneaton", "brewery", "nuneaton", 0, iron=("market",))))
    assert said == (
        "Ann builds Brewery II in Nuneaton (card Nuneaton; iron from the market £2; pays £9;"
        " replaces Brewery I in Nuneaton)"
    )
    assert r.state.tiles["nuneaton:0"].level == 2


def test_two_sales_each_name_their_own_tile_and_the_owner_of_their_own_beer() -> None:
    """Ann sells her Cotton Mill I in Worcester with the Oxford merchant's barrel, then her Manufacturer I in
    Birmingham with beer from Bob's brewery in Nuneaton (linked to Birmingham). Each sale names its own tile
    (the second's id, birmingham:1, sorting before the first's) and its own beer's owner: "Nuneaton (Bob's)"."""
    g = oxford_sales(brewer=1)
    place_link(g, "birmingham--nuneaton", 1)
    r = table(g)
    sales = (Sale("worcester:0", "oxford", beer=("merchant",)), Sale("birmingham:1", "oxford", beer=("nuneaton:0",)))
    first, second = text(r, r.push(Sell(0, "loc:leek", sales))).split("; and ")
    assert (
        first == "Ann sells Cotton Mill I in Worcester to Oxford (beer from the merchant's barrel; flips it, +5 income)"
    )
    assert second.startswith("Manufacturer I in Birmingham to Oxford (beer from Nuneaton (Bob's); flips it, +5 income)")
    assert r.state.tiles["nuneaton:0"].resources == 2 - 1
    assert r.state.tiles["worcester:0"].flipped and r.state.tiles["birmingham:1"].flipped


def test_a_sale_through_a_port_tells_the_port_it_flips() -> None:
    """Lancashire: Ann sells her Cotton Mill I in Colne to the Distant Cotton Market, then her Cotton Mill I
    in Warrington & Runcorn through Bob's unflipped Port I there. The port flips for Bob (rulebook, Sell
    Action): the second sale tells "flips Bob's Port I", not the mill flipped before it."""
    g = lancashire.fresh(2)
    lancashire.place_tile(g, "colne:0", 0, "cotton_mill", 1)
    lancashire.place_link(g, "colne--yorkshire", 1)
    lancashire.set_dcm(g, (1,), 0)
    lancashire.place_tile(g, "warrington_runcorn:0", 0, "cotton_mill", 1)
    lancashire.place_tile(g, "warrington_runcorn:1", 1, "port", 1)
    lancashire.give(g, 0, "loc:colne")
    r = Replay(GameLog.new([p.name for p in g.players], seed=0, edition="lancashire"))
    r.initial = r.state = g
    sales = (Sale("colne:0", "distant_market"), Sale("warrington_runcorn:0", "warrington_runcorn:1"))
    first, second = text(r, r.push(Sell(0, "loc:colne", sales))).split("; and ")
    assert first.startswith("Ann sells Cotton Mill I in Colne to the Distant Cotton Market (")
    assert second == (
        "Cotton Mill I in Warrington & Runcorn through the port in Warrington & Runcorn"
        " (flips Bob's Port I in Warrington & Runcorn; flips it, +5 income) (card Colne)"
    )
    assert r.state.tiles["warrington_runcorn:1"].flipped and r.state.tiles["warrington_runcorn:0"].flipped


@pytest.mark.parametrize("key", ["vp", "money", "income_level", "income_space"])
def test_a_declared_rail_era_start_below_the_replays_is_reported(key: str) -> None:
    """A log's declared Rail Era start (docs/log-format.md, section 10) that is lower than the replay's for
    one seat is a difference too, reported with both numbers, like one that is higher."""
    log = GameLog.load(SAMPLES / "real" / "wq9gs6-2p.json")
    st = Replay(log).run().checkpoints["rail_era_start"]
    have = {
        "vp": [p.vp for p in st.players],
        "money": [p.money for p in st.players],
        "income_level": [st.income_level(s) for s in range(len(st.players))],
        "income_space": [p.income_space for p in st.players],
    }[key]
    assert Replay(replace(log, result={"rail_era_start": {key: have}})).run().check_result() == []
    low = [have[0] - 1, have[1]]
    problems = Replay(replace(log, result={"rail_era_start": {key: low}})).run().check_result()
    assert problems == [f"rail era start, seat 0 {key}: declared {low[0]}, replayed {have[0]}"]
