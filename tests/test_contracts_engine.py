"""Contracts of the rules engine that a player or a caller relies on, each named after its rule or promise.

Written against the engine wing's mutation campaign (issue 38): every test here holds one clause the
rulebooks (``/work/shared/rules/``), the game data or the engine's documented API state, with the
expected values worked out from those sources, not read back from the engine.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import lancashire_helpers as lh
import pytest
from helpers import (
    act,
    clear_mat_below,
    fresh,
    give,
    last_round,
    pass_turns,
    pass_until_round_ends,
    place_link,
    place_tile,
    rule_of,
    set_merchants,
    set_money,
    to_rail_era,
    two_actions,
)

from brass_stats.engine import FIRST_OPTION, STRICT, Build, Network, Sale, Sell, apply_action, new_game
from brass_stats.engine.information import attempt, knowable, unseen_cards
from brass_stats.engine.legal import legal_actions, legal_actions_by_type
from brass_stats.engine.sell_cotton import DISTANT_MARKET
from brass_stats.engine.setup import ExplicitChance, SplitMix64
from brass_stats.engine.state import Effect, GameState
from brass_stats.errors import AmbiguousChoice, IllegalAction, LogFormatError
from brass_stats.rules_data import WILD_LOCATION, load_rules

DATA = Path(__file__).parents[1] / "brass_stats" / "rules_data" / "birmingham.json"


def printed_deck(players: int) -> Counter[str]:
    """The draw deck's cards for ``players``, from the card counts of the game data."""
    cards = json.loads(DATA.read_text(encoding="utf-8"))["cards"]
    deck: Counter[str] = Counter()
    for c in cards["location_cards"]:
        deck["loc:" + c["location"]] += c["count"][str(players)]
    for c in cards["industry_cards"]:
        deck["ind:" + "+".join(c["industries"])] += c["count"][str(players)]
    return +deck


# -- Build Action step 1: a Wild Location card may be played as any Location card ----------------------


def test_build_wild_location_card_overbuilds_as_the_location_card_would() -> None:
    """Build Action step 1 and Overbuilding: a Location card builds any industry at its location, and the
    Wild Location card "may be played as any Location card": so it overbuilds one's own tile there too
    (a level 1 Coal Mine in Dudley replaced by the level 2 one, £7 on the player mat)."""
    for card in ("loc:dudley", WILD_LOCATION):
        g = fresh(2)
        place_tile(g, "dudley:0", 0, "coal_mine", 1)
        give(g, 0, card)
        g.wild[WILD_LOCATION] = 3
        g2 = act(g, Build(0, card, "coal_mine", "dudley", 0))
        t = g2.tiles["dudley:0"]
        assert (t.owner, t.industry, t.level) == (0, "coal_mine", 2), card
        assert g2.players[0].money == 17 - 7, card


def test_lancashire_virtual_link_is_no_overbuild_exception_for_an_opponents_shipyard() -> None:
    """Lancashire, Virtual Link (classic rule): with Liverpool in your network an Industry card may build in
    Birkenhead, as if it were in your network; it is not "Building If You Have No Tiles on the Board". So a
    shipyard on Birkenhead's one space owned by an opponent is refused because only an opponent's Coal
    Mine or Iron Works may be overbuilt (Overbuilding), not for want of an undeveloped space."""
    g = lh.to_rail_era(lh.fresh(2, options={"virtual_link": True}))
    lh.place_link(g, "liverpool--wigan", 0)
    lh.place_tile(g, "wigan:0", 0, "coal_mine", 2, resources=3)
    lh.place_tile(g, "birkenhead:0", 1, "shipyard", 1, flipped=True, from_mat=False)
    lh.clear_mat_below(g, 0, "shipyard", 2)
    give(g, 0, "ind:shipyard")
    with pytest.raises(IllegalAction) as info:
        apply_action(g, Build(0, "ind:shipyard", "shipyard", "birkenhead", 0, coal=("market",), iron=("market",)))
    assert info.value.rule == "build.overbuild"
    assert "opponent's shipyard cannot be overbuilt" in info.value.message


def test_lancashire_overbuilt_port_no_longer_connects_its_own_coal_to_the_market() -> None:
    """Lancashire, Consuming Coal: market coal "requires a connection to the market trade icon (shown on
    all flipped or unflipped Port tiles ...)"; Overbuilding removes the old tile first. With a printing
    whose level 2 Port costs 1 coal (``tile_overrides``, a documented log option), overbuilding one's only
    Port in Fleetwood (no link, no mine) has no trade icon left to buy coal through: the legal actions
    do not list it and the engine refuses it. With a link to Preston, where a Port stands, both accept it."""
    overrides = {"port.2.cost_coal": 1}
    g = lh.fresh(2, options={"tile_overrides": overrides}, rules=load_rules("lancashire", overrides))
    lh.two_actions(g)
    lh.place_tile(g, "fleetwood:0", 0, "port", 1)
    lh.clear_mat_below(g, 0, "port", 2)  # the other level 1 Port developed away
    give(g, 0, "loc:fleetwood")
    overbuild = Build(0, "loc:fleetwood", "port", "fleetwood", 0)
    listed = [a for a in legal_actions(g, ["build"]) if isinstance(a, Build) and a.location == "fleetwood"]
    assert listed == []
    with pytest.raises(IllegalAction) as info:
        apply_action(g, overbuild)
    assert info.value.rule == "coal.market"
    lh.place_link(g, "fleetwood--preston", 0)
    lh.place_tile(g, "preston:0", 1, "port", 1)
    listed = [a for a in legal_actions(g, ["build"]) if isinstance(a, Build) and a.location == "fleetwood"]
    assert [(a.industry, a.slot, a.coal) for a in listed] == [("port", 0, ("market",))]
    t = act(g, overbuild).tiles["fleetwood:0"]
    assert (t.owner, t.industry, t.level) == (0, "port", 2)


def test_canal_era_overbuilding_ones_tile_needs_the_same_industry() -> None:
    """Overbuilding: a tile is replaced only "with a higher-level tile of the same industry type"; Canal
    Era Building: one tile per location per player. Player 0's Coal Mine I on Coventry's Manufacturer or
    Coal Mine space cannot be replaced by their Manufacturer II, though the space shows both icons and
    the level is higher; nor may the Manufacturer go on Coventry's other spaces beside the mine."""
    g = two_actions(fresh(2))
    place_tile(g, "coventry:1", 0, "coal_mine", 1)
    clear_mat_below(g, 0, "manufacturer", 2)
    give(g, 0, "loc:coventry", "loc:coventry")
    assert g.rules.locations["coventry"].slots[1].industries == ("manufacturer", "coal_mine")
    assert rule_of(g, Build(0, "loc:coventry", "manufacturer", "coventry", 1)) == "build.overbuild"
    assert rule_of(g, Build(0, "loc:coventry", "manufacturer", "coventry", None)) == "build.canal_one_per_location"
    built = {
        (a.industry, a.slot) for a in legal_actions(g, ["build"]) if isinstance(a, Build) and a.location == "coventry"
    }
    assert built == {("coal_mine", 1)}  # the Coal Mine II may replace it


# -- hidden information: what a seat cannot see ---------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_unseen_cards_are_the_deck_less_the_seats_own_hand_at_the_start(seat: int) -> None:
    """At the start of a 2-player game a player sees only their own hand (Game Setup: the other hands
    are hidden and each player's first discard is face down); every other card of the printed 2-player
    deck is unseen by them, and none of their own cards is."""
    g = fresh(2, seed=5)
    unseen = unseen_cards(g, seat)
    assert unseen == sorted(unseen)
    assert Counter(unseen) == printed_deck(2) - Counter(g.players[seat].hand)


def test_unseen_cards_in_the_rail_era_leave_out_every_discard() -> None:
    """End of Canal Era: the discard piles are shuffled into the Rail Era's deck ("Don't start the Rail
    Era with a card face down in your discard"), so every Rail Era discard lies face up: after the first
    Rail Era action's card is discarded, neither seat counts it among the cards it cannot see."""
    g = fresh(2, seed=2)
    while g.era == "canal":
        g = pass_until_round_ends(g)
    mover = g.current_player
    assert mover is not None
    card = g.players[mover].hand[0]
    g = pass_turns(g, 1)
    assert [p.discard for p in g.players if p.discard] == [[card]]
    for seat in (0, 1):
        assert Counter(unseen_cards(g, seat)) == printed_deck(2) - Counter(g.players[seat].hand) - Counter([card])


def test_knowable_keeps_a_distant_market_sale_made_last_and_drops_one_before_another() -> None:
    """Lancashire, Distant Cotton Market: whether the market closes on a sale is decided by face-down
    tiles, so ``knowable`` leaves out a Sell whose Distant Cotton Market sale comes before another sale
    (its legality would reveal the tiles) and keeps every other: one made alone or last. A mill in Colne
    linked to Yorkshire may sell to the Distant Cotton Market: that legal Sell is knowable."""
    g = lh.fresh(2)
    lh.place_tile(g, "colne:0", 0, "cotton_mill", 1)
    lh.place_link(g, "colne--yorkshire", 1)
    give(g, 0, "loc:colne")
    alone = Sell(0, "loc:colne", (Sale("colne:0", DISTANT_MARKET),))
    assert alone in legal_actions(g, ["sell"])
    assert knowable(g, [alone]) == [alone]
    port, mill2 = Sale("bury:0", "preston:0"), Sale("bolton:0", "preston:0")
    dcm = Sale("colne:0", DISTANT_MARKET)
    last = Sell(0, "loc:colne", (port, dcm))
    first = Sell(0, "loc:colne", (dcm, port))
    middle = Sell(0, "loc:colne", (port, dcm, mill2))
    assert knowable(g, [alone, last, first, middle]) == [alone, last]


def test_attempt_of_a_two_sale_sell_stops_where_the_distant_market_closes() -> None:
    """``information.attempt``: a Lancashire Sell whose Distant Cotton Market sale closes the market ("reaching
    X ends the Sell action and the mill does not flip") is played as far as it goes, as it would be at the
    table, even with only two sales: the market moves from row 6 by 4 to X, the first mill stays unflipped,
    the second is never sold, and the card is spent."""
    g = lh.fresh(2)
    lh.place_tile(g, "colne:0", 0, "cotton_mill", 1)
    lh.place_tile(g, "colne:1", 0, "cotton_mill", 1)
    lh.place_link(g, "colne--yorkshire", 1)
    lh.set_dcm(g, [4], position=6)
    give(g, 0, "loc:colne")
    both = Sell(0, "loc:colne", (Sale("colne:0", DISTANT_MARKET), Sale("colne:1", DISTANT_MARKET)))
    with pytest.raises(IllegalAction):
        apply_action(g, both)
    after = attempt(g, both)
    assert after.dcm_position == 8
    assert not after.tiles["colne:0"].flipped and not after.tiles["colne:1"].flipped
    assert after.players[0].discard[-1] == "loc:colne"
    assert "loc:colne" not in after.players[0].hand


# -- Network Action, Rail Era: two links are one move, whichever is placed first -------------------------


def double_rail_position() -> GameState:
    """Rail Era, player 0 with a Coal Mine (3 coal) and a Brewery (2 barrels) in Walsall, £40, 14 links."""
    g = to_rail_era(fresh(2))
    place_tile(g, "walsall:0", 0, "coal_mine", 2)
    place_tile(g, "walsall:1", 0, "brewery", 2)
    set_money(g, 0, 40)
    return g


def test_legal_actions_list_each_pair_of_rail_links_once() -> None:
    """Network Action (Rail Era): building 2 links in one action is one move, the same board whichever
    link goes down first (``legal_actions`` keeps one legal order per pair, as the brute-force reference
    ``tests/reference_legal.py`` does). So the legal actions list every pair of links at most once per
    card, even a pair whose two links both touch the network (either order is legal)."""
    g = double_rail_position()
    net_links = [lid for lid, link in g.rules.links.items() if "walsall" in link.connects and link.allowed_in("rail")]
    assert len(net_links) >= 2
    doubles = [a for a in legal_actions(g, ["network"]) if isinstance(a, Network) and len(a.links) == 2]
    keys = Counter((a.card, frozenset(a.links)) for a in doubles)
    assert keys, "no double link listed"
    assert max(keys.values()) == 1, [k for k, n in keys.items() if n > 1]
    # a pair of two links that both touch Walsall is offered (in one order)
    assert any(all(lid in net_links for lid in pair) for _, pair in keys)


# -- money effects: the recorded consequences explain every change ----------------------------------------


def test_money_effect_of_a_build_is_minus_its_cost() -> None:
    """Effects are the documented record of an action's consequences (storage schema, ``effects``:
    ``amount`` is the change): a level 1 Cotton Mill built in Worcester costs £12 (player mat), so the
    build's money effect for its builder is -12, and the money effects add up to the change of money."""
    g = fresh(2)
    give(g, 0, "loc:worcester")
    effects: list[Effect] = []
    g.effects = effects
    g2, _ = apply_action(g, Build(0, "loc:worcester", "cotton_mill", "worcester", 0))
    money = [e for e in effects if e.kind == "money" and e.seat == 0]
    assert [(e.amount, e.cause) for e in money] == [(-12, "build")]
    assert g2.players[0].money - g.players[0].money == sum(e.amount for e in money) == -12


def test_canal_era_end_records_one_tile_removed_per_level_1_tile() -> None:
    """End of Canal Era: "Remove all level 1 Industry tiles from the board ... All level 2 or greater
    Industry tiles remain"; the effects record each removal as ``tile_removed`` with amount 1 (storage
    schema: kinds and their amount), cause ``canal_era_end``, owned by the tile's owner."""
    g = two_actions(fresh(2))
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_tile(g, "dudley:0", 1, "coal_mine", 1, resources=0, flipped=True)
    place_tile(g, "cannock:1", 1, "coal_mine", 2)
    last_round(g)
    effects: list[Effect] = []
    g.effects = effects
    g = pass_until_round_ends(g)
    assert g.era == "rail"
    removed = [e for e in effects if e.kind == "tile_removed"]
    assert sorted((e.seat, e.amount, e.cause, e.detail["tile"]) for e in removed) == [
        (0, 1, "canal_era_end", "worcester:0"),
        (1, 1, "canal_era_end", "dudley:0"),
    ]
    assert set(g.tiles) == {"cannock:1"}


# -- Consuming coal: the choice among equally close mines ----------------------------------------------


def test_first_option_takes_the_closest_coal_mine_in_location_and_slot_order() -> None:
    """Consuming Coal: the coal comes from the closest connected Coal Mine; when several are equally close
    the player chooses. FIRST_OPTION takes "the first option in the engine's canonical order (closest
    first, then location and slot order)" and STRICT lists the options in that order: so of Tamworth's
    two mines (equally close to a Tamworth-Birmingham rail link), tamworth:0 before tamworth:1, whatever
    order they were built in."""
    g = to_rail_era(fresh(2))
    place_tile(g, "tamworth:1", 0, "coal_mine", 2)  # built first
    place_tile(g, "tamworth:0", 0, "coal_mine", 2)
    give(g, 0, "loc:dudley")
    link = "tamworth--birmingham"
    g2, done = apply_action(g, Network(0, "loc:dudley", (link,)), FIRST_OPTION)
    assert isinstance(done, Network)
    assert done.coal == ("tamworth:0",)
    assert (g2.tiles["tamworth:0"].resources, g2.tiles["tamworth:1"].resources) == (2, 3)
    with pytest.raises(AmbiguousChoice) as info:
        apply_action(g, Network(0, "loc:dudley", (link,)), STRICT)
    assert info.value.details["options"] == ["tamworth:0", "tamworth:1"]


# -- Consuming Beer: own breweries first in the canonical order ----------------------------------------


def test_beer_for_a_sale_is_filled_from_an_own_brewery_before_an_opponents() -> None:
    """Consuming Beer: a player may drink from their own breweries anywhere or from connected opponents'
    ones; the engine's canonical order (``FIRST_OPTION``, the legal actions, STRICT's list of options)
    puts the player's own breweries first (``legal.probe``, ``beer_options``). Player 0 sells a
    Manufacturer in Birmingham to Oxford (no merchant barrel) with Player 1's Brewery linked in Nuneaton
    and their own in Walsall (after Nuneaton by name): Walsall's barrel is the one taken."""
    g = fresh(2)
    give(g, 0, "loc:dudley")
    set_merchants(g, {"oxford": ["manufacturer", "cotton_mill"]}, beer=False)
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    place_link(g, "birmingham--oxford", 1)
    place_link(g, "birmingham--nuneaton", 1)
    place_tile(g, "nuneaton:0", 1, "brewery", 1)
    place_tile(g, "walsall:1", 0, "brewery", 1)
    sale = Sell(0, "loc:dudley", (Sale("birmingham:1", "oxford"),))
    _, done = apply_action(g, sale, FIRST_OPTION)
    assert isinstance(done, Sell)
    assert done.sales[0].beer == ("walsall:1",)
    with pytest.raises(AmbiguousChoice) as info:
        apply_action(g, sale, STRICT)
    assert info.value.details["options"] == ["walsall:1", "nuneaton:0"]
    sells = [a for a in legal_actions(g, ["sell"]) if isinstance(a, Sell) and a.card == "loc:dudley"]
    assert [a.sales[0].beer for a in sells] == [("walsall:1",)]


# -- explicit chance records: a deal that is not the deck ------------------------------------------------


def explicit_chance(state: GameState) -> dict[str, object]:
    """The chance record of a seeded game's setup, written out as a log from another server would."""
    faces: dict[str, list[str]] = {}
    for ms in sorted(state.merchant_spaces, key=lambda m: (m.location, m.index)):
        faces.setdefault(ms.location, []).append(ms.face)
    return {
        "merchant_tiles": faces,
        "turn_order": list(state.turn_order),
        "hands": [list(p.hand) for p in state.players],
        "discards": [list(p.discard) for p in state.players],
        "deck": list(state.deck),
    }


def test_explicit_deal_that_differs_from_the_deck_names_exactly_the_differences() -> None:
    """Log format, explicit chance: the hands, discards and deck must be the player count's deck; a record
    with one card written in place of another is refused, and the message names the two cards (one
    too many, one missing), each once, so the writer of the log can find them."""
    g = fresh(2, seed=3)
    chance = explicit_chance(g)
    new_game(["Ann", "Bob"], ExplicitChance(chance))  # as recorded: accepted
    deck = chance["deck"]
    assert isinstance(deck, list)
    missing, extra = deck[0], next(c for c in deck if c != deck[0])
    deck[0] = extra
    with pytest.raises(LogFormatError) as info:
        new_game(["Ann", "Bob"], ExplicitChance(chance))
    message = info.value.message
    assert "are not the 2-player deck" in message
    listed = ast.literal_eval(message.split("(differences: ", 1)[1].rstrip(")"))
    assert listed == {missing: 1, extra: 1}


@pytest.mark.parametrize(("players", "seats"), [(2, "0..1"), (3, "0..2"), (4, "0..3")])
def test_explicit_turn_order_refused_names_the_seats_it_must_list(players: int, seats: str) -> None:
    """Log format: a player is always named by seat, 0 to players - 1, and an explicit chance record's
    turn order lists every seat once. A turn order naming one seat twice is refused, and the message names
    the seats it must hold (for 3 players, 0..2) and the order it got."""
    g = fresh(players, seed=4)
    chance = explicit_chance(g)
    chance["turn_order"] = [0] * players
    with pytest.raises(LogFormatError) as info:
        new_game(["Ann", "Bob", "Cid", "Dee"][:players], ExplicitChance(chance))
    assert info.value.message == f"chance.turn_order must list seats {seats} once each, got {[0] * players}"


def test_explicit_rail_era_deal_must_be_the_canal_eras_discards() -> None:
    """Log format, explicit chance: ``rail_era`` is the Rail Era reshuffle, 8 cards per seat then the deck;
    "its hands + deck, counted with ... must be the cards discarded in the Canal Era". A record that deals
    a second copy of one card in place of another is refused when the replay reaches the Rail Era; the
    record as discarded is accepted and dealt as written."""
    g = fresh(2, seed=6)
    everything = sorted(printed_deck(2).elements())  # every card ends the Canal Era in a discard pile
    good = {"hands": [everything[:8], everything[8:16]], "deck": everything[16:]}
    bad_hand = [*everything[1:8], everything[-1]]  # everything[0] missing, the last card twice
    bad = {"hands": [bad_hand, everything[8:16]], "deck": everything[16:]}
    assert everything[0] != everything[-1]
    for record, ok in ((good, True), (bad, False)):
        state = new_game(["Ann", "Bob"], ExplicitChance({**explicit_chance(g), "rail_era": record}))
        if not ok:
            with pytest.raises(LogFormatError, match="chance.rail_era: hands and deck are not the cards"):
                while state.era == "canal":
                    state = pass_until_round_ends(state)
            continue
        while state.era == "canal":
            state = pass_until_round_ends(state)
        assert [p.hand for p in state.players] == good["hands"]
        assert state.deck == good["deck"]


# -- the seeded chance source: SplitMix64 as the log format defines it ------------------------------------


def reference_next(state: int) -> tuple[int, int]:
    """``next()`` of the log format's section 9 (SplitMix64), written out from its text: (new state, value)."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return state, z ^ (z >> 31)


def test_splitmix64_draws_the_numbers_the_log_format_defines() -> None:
    """Log format, "The seeded PRNG, exactly": any program following it recreates a seeded deal bit for
    bit. SplitMix64's published first output for seed 0 is 0xE220A8397B1DCDAF; ``next`` and ``below`` follow
    the section's pseudo-code for every seed tried, and ``shuffle`` is its Fisher-Yates over ``below``."""
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    for seed in (0, 1, 38, 2**63 + 5, 2**64 - 1):
        rng, state = SplitMix64(seed), seed
        for _ in range(50):
            state, value = reference_next(state)
            assert rng.next() == value
        for n in (1, 3, 10, 2**63 + 1):
            limit = 2**64 - 2**64 % n
            while True:
                state, x = reference_next(state)
                if x < limit:
                    break
            assert rng.below(n) == x % n
        items = list(range(12))
        expected = list(items)
        for i in range(len(expected) - 1, 0, -1):
            while True:
                state, x = reference_next(state)
                if x < 2**64 - 2**64 % (i + 1):
                    break
            j = x % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        rng.shuffle(items)
        assert items == expected


# -- Building If You Have No Tiles on the Board ----------------------------------------------------------


def test_has_pieces_on_board_counts_a_link_or_an_industry_tile_alone() -> None:
    """Building If You Have No Tiles on the Board applies only "if you have no Industry or Link tiles on
    the board": ``GameState.has_pieces_on_board`` (read by the legal-action reference too) is true with a
    link alone or an industry tile alone, false with neither, before and after the board's caches fill."""
    g = fresh(2)
    assert not g.has_pieces_on_board(0)
    place_link(g, "birmingham--oxford", 0)  # a link, no tile
    place_tile(g, "dudley:0", 1, "coal_mine", 1)  # a tile, no link
    for _ in range(2):  # the second time with the networks cached by a legal-action listing
        assert (g.has_pieces_on_board(0), g.has_pieces_on_board(1)) == (True, True)
        legal_actions(g)
    h = fresh(2)
    place_tile(h, "dudley:0", 1, "coal_mine", 1)
    assert (h.has_pieces_on_board(0), h.has_pieces_on_board(1)) == (False, True)


# -- the legal actions, grouped by type --------------------------------------------------------------------


def test_legal_actions_by_type_groups_every_legal_action_under_its_type_in_order() -> None:
    """``legal_actions_by_type`` (public API of ``brass_stats.engine.legal``): the legal actions of the
    player to move, each under its action type, in the order ``legal_actions`` lists them. At the first
    action of a game a player may always pass, build, take a loan, or build a link (Game Setup: no tiles
    yet, so anywhere)."""
    g = fresh(2)
    flat = legal_actions(g)
    by = legal_actions_by_type(g)
    assert {"pass", "build", "network", "loan"} <= set(by)
    assert all(kind == a.TYPE for kind, actions in by.items() for a in actions)
    assert [a for kind in by for a in by[kind]] == [a for kind in by for a in flat if kind == a.TYPE]
    assert sum(len(v) for v in by.values()) == len(flat)


# -- the round clock: GameState.progress ----------------------------------------------------------------


def test_progress_counts_whole_rounds_and_each_turn_as_a_share_of_its_round() -> None:
    """``GameState.progress``: "each turn taken in a round counts 1 / players of it", of the 2 eras of
    9 rounds of a 3-player game ("exactly 8/9/10 rounds per era in a 4/3/2-players game"): after the
    first round's 3 one-action turns the clock reads 1/18, after one turn of the second round 4/3 of 18."""
    g = fresh(3)
    for turns in range(1, 7):
        g = pass_turns(g, 1 if turns <= 3 else 2)  # one action a turn in the first round, then two
        assert g.era_round == 1 + turns // 3
        assert g.progress() == pytest.approx(turns / 3 / (2 * 9)), turns
