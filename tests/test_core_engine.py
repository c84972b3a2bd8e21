"""The compiled core's apply step (``core/src/engine``) held equal to the reference's ``apply_action``.

Games are played on the reference engine (random and greedy choosers, both editions, 2-4 players, the
game options); at every position the core applies the reference's legal actions and must reach the
same successor state, field by field (``core_parity.check_game``; the legal-list comparison of the
same report belongs to the core's legal-action port and is not judged here). Then the rule clauses
most at risk, each on a position of a played game where it is at stake: a shortfall's tiles, VP lost
to a shortfall, the Rail Era's deal from the seed (Birmingham; Lancashire after a shortfall, with the
Distant Cotton Market reshuffled; the classic deck), the Distant Cotton Market closing mid-Sell, the
Gloucester develop bonus, overbuilding an opponent's coal mine once no coal is left, the beer of a
double rail link. Illegal variants of legal actions are refused by both sides.

The core's ``apply_sale_resolving`` and ``apply_cotton_sale`` (the legal Sell enumeration's helpers,
which Python cannot call) are held equal to the reference by a Rust test reading
``core/src/engine/testdata/sales.json.gz``; :func:`test_the_sale_fixture_is_what_the_reference_says_now`
keeps that file current (``python3 tests/test_core_engine.py`` writes it again).
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from core_parity import Chooser, check_game, check_position, first_difference, play_positions, random_chooser

from brass_stats.bots.greedy import GreedyBot
from brass_stats.engine import apply_action
from brass_stats.engine.actions import Action, Build, Develop, Network, Pass, Sale, Scout, Sell, Shortfall
from brass_stats.engine.compiled import action_to_json, core_module, encode_state, rules_table, to_core
from brass_stats.engine.legal import WITH_MERCHANT_BEER, WITHOUT_MERCHANT_BEER, legal_actions
from brass_stats.engine.scoring import potential_vp, standings, win_shares
from brass_stats.engine.sell import apply_sale
from brass_stats.engine.sell_cotton import DISTANT_MARKET, apply_cotton_sale
from brass_stats.engine.setup import ExplicitChance
from brass_stats.engine.state import GameState
from brass_stats.errors import IllegalAction
from brass_stats.rules_data import load_rules

ROOT = Path(__file__).parents[1]
SALE_FIXTURE = ROOT / "core" / "src" / "engine" / "testdata" / "sales.json.gz"


def greedy_chooser(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    return GreedyBot().choose(state, legal, rng)


CHOOSERS: dict[str, Chooser] = {"random": random_chooser, "greedy": greedy_chooser}


def successor_disagreements(found: list[Any]) -> list[str]:
    """The disagreements about successor states (a refused action, a differing successor)."""
    return [str(d) for d in found if "after" in d.what or "refused" in d.what]


# -- whole games -------------------------------------------------------------------------------

# (edition, players, seed, chooser, options, successors compared per position: None for all)
GAMES = [
    ("birmingham", 2, 1, "random", {}, 4),
    ("birmingham", 3, 2, "random", {}, 4),
    ("birmingham", 4, 3, "random", {}, 3),
    ("birmingham", 3, 4, "random", {"introductory": True}, 4),
    ("birmingham", 2, 7, "random", {}, None),
    ("birmingham", 2, 5, "greedy", {}, 4),
    ("lancashire", 2, 1, "random", {}, 4),
    ("lancashire", 3, 2, "random", {"virtual_link": True}, 4),
    ("lancashire", 4, 3, "random", {"classic_deck": True}, 3),
    ("lancashire", 3, 5, "greedy", {}, 3),
]


def _game_id(game: tuple[Any, ...]) -> str:
    edition, players, seed, chooser, options, successors = game
    return "-".join([edition, f"{players}p", f"seed{seed}", chooser, *options, f"succ{successors or 'all'}"])


@pytest.mark.parametrize(
    ("edition", "players", "seed", "chooser", "options", "successors"), GAMES, ids=[_game_id(g) for g in GAMES]
)
def test_every_successor_of_a_played_game_is_the_references(
    edition: str, players: int, seed: int, chooser: str, options: dict[str, Any], successors: int | None
) -> None:
    """apply_action: the successor of each legal action compared (or a sample), at every position."""
    count, found = check_game(edition, players, seed, CHOOSERS[chooser], options, successors)
    assert count > 40  # the game was played to its end (both eras, or the introductory one)
    assert successor_disagreements(found) == []


# -- rule clauses at stake on positions of played games --------------------------------------------


def position(edition: str, players: int, seed: int, chooser: str, index: int, **options: Any) -> GameState:
    """The position before action ``index`` of a game played on the reference engine."""
    for state in play_positions(edition, players, seed, CHOOSERS[chooser], options):
        if state.action_count == index:
            return state
    raise AssertionError(f"the game ended before action {index}")


def both_successors(state: GameState, action: Action) -> tuple[GameState, dict[str, Any]]:
    """(the reference's successor, the core's as wire JSON), after checking they are equal."""
    after = apply_action(state, action)[0]
    core_after = json.loads(to_core(state).apply_unchecked(action_to_json(action)).to_json())
    assert first_difference(encode_state(after), core_after) is None, action
    return after, core_after


def stated(state: GameState, wanted: Callable[[Action], bool]) -> list[Action]:
    """The legal actions the clause is about (at least one: the position was chosen for it)."""
    found = [a for a in legal_actions(state) if wanted(a)]
    assert found, "the position no longer puts the clause at stake"
    return found


def both_refuse(state: GameState, action: Action) -> None:
    with pytest.raises(IllegalAction):
        apply_action(state, action)
    with pytest.raises(ValueError):
        to_core(state).apply_unchecked(action_to_json(action))


def same_verdict(state: GameState, action: Action) -> None:
    """Both sides refuse the action, or both apply it to the same successor."""
    try:
        apply_action(state, action)
    except IllegalAction:
        both_refuse(state, action)
    else:
        both_successors(state, action)


def test_shortfall_removes_the_stated_tiles_and_pays_with_half_their_cost() -> None:
    state = position("birmingham", 2, 1, "random", 30)
    assert state.phase == "shortfall"
    seat, owed = state.shortfalls[0]
    for a in stated(state, lambda a: isinstance(a, Shortfall) and len(a.tiles or ()) == 2):
        after, _ = both_successors(state, a)
        assert all(ref not in after.tiles for ref in a.tiles or ())
    # every way to pay; a tile stated twice, or none while money is owed, refused by both
    assert successor_disagreements(check_position(state, "shortfall", successors=None)) == []
    a = legal_actions(state)[0]
    assert isinstance(a, Shortfall) and a.tiles and owed > 0
    both_refuse(state, dataclasses.replace(a, tiles=(*a.tiles, *a.tiles[:1])))
    both_refuse(state, Shortfall(seat, ()))


def test_shortfall_not_covered_by_the_tiles_costs_vp() -> None:
    state = position("birmingham", 2, 13, "random", 48)
    (a,) = stated(state, lambda a: isinstance(a, Shortfall))
    after, _ = both_successors(state, a)
    assert after.players[a.player].vp < state.players[a.player].vp
    assert after.phase == "actions" and after.era_round == state.era_round + 1


def test_rail_era_deal_comes_from_the_seed() -> None:
    state = position("birmingham", 2, 1, "random", 39)
    for a in stated(state, lambda a: True):
        after, core_after = both_successors(state, a)
        assert state.era == "canal" and after.era == "rail" and after.era_round == 1
        assert "canal" in after.era_boards and not after.links  # the era was scored, links removed
        assert core_after["chance"]["state"] != encode_state(state)["chance"]["state"]  # the deck was shuffled
        assert all(t.level > 1 for t in after.tiles.values())
    # a deal written out in a log (ExplicitChance) is one the core cannot make: it says so
    written = state.copy()
    written.chance = ExplicitChance({})
    with pytest.raises(core_module().CoreUnsupported):
        to_core(written).apply_unchecked(action_to_json(legal_actions(state)[0]))


def test_rail_era_after_a_shortfall_reshuffles_the_distant_cotton_market() -> None:
    state = position("lancashire", 2, 1, "random", 33)
    assert state.phase == "shortfall" and state.era_ends_after_shortfall
    for a in stated(state, lambda a: isinstance(a, Shortfall)):
        after, _ = both_successors(state, a)
        assert after.era == "rail" and after.dcm_position == 0 and not after.dcm_drawn and after.dcm_pile


def test_rail_era_with_the_classic_deck_returns_cards_to_the_box() -> None:
    before = None
    for state in play_positions("lancashire", 3, 1, random_chooser, {"classic_deck": True}):
        if state.era == "rail":
            break
        before = state
    assert before is not None and before.era == "canal"
    cards = sum(len(p.discard) for p in before.players) + len(before.reserve)
    for a in stated(before, lambda a: True)[:6]:
        after, _ = both_successors(before, a)
        assert after.era == "rail"
        dealt = sum(len(p.hand) for p in after.players) + len(after.deck)
        assert dealt == cards + len(a.cards) - before.rules.classic_deck_removed_in_rail[3]


def test_distant_cotton_market_closing_ends_the_sell() -> None:
    state = position("lancashire", 2, 1, "greedy", 23)

    def closes(a: Action) -> bool:
        return isinstance(a, Sell) and len(a.sales) == 2 and a.sales[-1].merchant == DISTANT_MARKET

    closing = 0
    for a in stated(state, closes):
        assert isinstance(a, Sell)
        after, _ = both_successors(state, a)
        if after.rules.dcm_track[after.dcm_position] is None:  # the marker reached X: the mill stays unflipped
            closing += 1
            assert after.tiles[a.sales[0].tile].flipped and not after.tiles[a.sales[-1].tile].flipped
            more = Sale(a.sales[0].tile, a.sales[0].merchant)
            both_refuse(state, dataclasses.replace(a, sales=(*a.sales, more)))
    assert closing


def test_gloucester_develop_bonus_removes_the_stated_tile() -> None:
    state = position("birmingham", 2, 1, "greedy", 24)

    def bonus(a: Action) -> bool:
        return isinstance(a, Sell) and any(s.bonus_develop for s in a.sales)

    for a in stated(state, bonus):
        assert isinstance(a, Sell)
        after, _ = both_successors(state, a)
        (sale,) = [s for s in a.sales if s.bonus_develop]
        assert sale.bonus_develop is not None
        ind = sale.bonus_develop
        assert sum(after.players[a.player].mat[ind]) == sum(state.players[a.player].mat[ind]) - 1
        other = next(i for i in state.rules.industries if i != ind and i in ("cotton_mill", "manufacturer", "pottery"))
        for bonus in (other, "coal_mine", None):
            changed = tuple(dataclasses.replace(s, bonus_develop=bonus) if s is sale else s for s in a.sales)
            same_verdict(state, dataclasses.replace(a, sales=changed))


def test_overbuilding_an_opponents_coal_mine_once_no_coal_is_left() -> None:
    state = position("birmingham", 3, 20, "greedy", 95)

    def over(a: Action) -> bool:
        if not isinstance(a, Build) or a.industry != "coal_mine":
            return False
        t = state.tiles.get(f"{a.location}:{a.slot}")
        return t is not None and t.owner != a.player

    for a in stated(state, over):
        assert isinstance(a, Build)
        after, _ = both_successors(state, a)
        ref = f"{a.location}:{a.slot}"
        assert after.tiles[ref].owner == a.player and list(after.tiles)[-1] == ref  # placed last
        # with one cube back in the market the opponent's mine may not be overbuilt
        stocked = state.copy()
        stocked.coal_market = 1
        both_refuse(stocked, a)


def test_double_rail_link_drinks_the_stated_beer() -> None:
    state = position("birmingham", 2, 1, "greedy", 38)
    for a in stated(state, lambda a: isinstance(a, Network) and len(a.links) == 2 and a.beer is not None):
        assert isinstance(a, Network) and a.beer is not None
        after, _ = both_successors(state, a)
        assert after.tiles[a.beer].resources == state.tiles[a.beer].resources - 1
        # any other barrel on the board, or none stated: the same verdict on both sides
        for ref, t in state.tiles.items():
            if t.industry == "brewery" and ref != a.beer:
                same_verdict(state, dataclasses.replace(a, beer=ref))
        same_verdict(state, dataclasses.replace(a, beer=None))


def test_illegal_variants_of_legal_actions_are_refused_by_both() -> None:
    """A card not in hand, another seat, a link with no coal stated, a sale twice, an empty Sell."""
    state = position("birmingham", 2, 1, "greedy", 24)
    hand = state.players[state.current_player or 0].hand
    other = next(c for c in sorted(set(load_rules("birmingham").all_card_codes)) if c not in hand)
    tried = 0
    for a in legal_actions(state)[::7]:
        variants: list[Action] = [dataclasses.replace(a, player=1 - a.player)]
        if hasattr(a, "card"):
            variants.append(dataclasses.replace(a, card=other))
        if isinstance(a, Sell):
            variants += [dataclasses.replace(a, sales=a.sales * 2), dataclasses.replace(a, sales=())]
        for v in variants:
            both_refuse(state, v)
            tried += 1
    assert tried > 20


def variants(state: GameState, a: Action, rng: random.Random) -> list[Action]:
    """Changed copies of a legal action: other slots, sources, links, sales, amounts, tile orders."""
    R = dataclasses.replace
    out: list[Action] = [Shortfall(a.player, ())]
    if isinstance(a, Build):
        out += [R(a, slot=i) for i in range(len(state.rules.locations[a.location].slots)) if i != a.slot]
        out += [R(a, coal=None), R(a, iron=None), R(a, industry=rng.choice(list(state.rules.industries)))]
        out += [R(a, coal=("market",) * len(a.coal or ())), R(a, iron=("market",) * len(a.iron or ()))]
        out.append(R(a, second_card=rng.choice(state.players[a.player].hand)))
    elif isinstance(a, Network):
        out += [R(a, coal=None), R(a, beer=None), R(a, links=a.links[::-1]), R(a, links=a.links * 2)]
        out += [R(a, coal=("market",) * len(a.coal or ())), R(a, links=(rng.choice(list(state.rules.links)),))]
    elif isinstance(a, Develop):
        out += [R(a, iron=None), R(a, industries=a.industries * 2), R(a, iron=("market",) * len(a.iron or ()))]
        out.append(R(a, industries=(rng.choice(list(state.rules.industries)),)))
    elif isinstance(a, Sell):
        sales = a.sales
        out += [R(a, sales=sales[::-1]), R(a, sales=(*sales, *sales[:1]))]
        for change in ({"merchant_space": None}, {"beer": None}, {"bonus_develop": None}, {"merchant": DISTANT_MARKET}):
            out.append(R(a, sales=tuple(R(x, **change) for x in sales)))
        out.append(R(a, sales=tuple(R(x, merchant_space=(x.merchant_space or 0) + 1) for x in sales)))
        out.append(R(a, sales=tuple(R(x, beer=("merchant",) * len(x.beer or "m")) for x in sales)))
    elif isinstance(a, Shortfall):
        tiles = a.tiles or ()
        out = [R(a, tiles=tiles[::-1]), R(a, tiles=tiles[:-1]), R(a, tiles=(*tiles, *tiles[:1]))]
    elif hasattr(a, "amount"):
        out += [R(a, amount=None), R(a, amount=20)]
    return [v for v in out if v != a]


@pytest.mark.parametrize(
    ("edition", "seed", "chooser"),
    [("birmingham", 13, "random"), ("birmingham", 1, "greedy"), ("lancashire", 1, "random")],
)
def test_changed_legal_actions_get_the_same_verdict_on_both_sides(edition: str, seed: int, chooser: str) -> None:
    """Refused by both (ValueError from the core, never a panic), or applied by both alike."""
    rng = random.Random(seed)
    applied = refused = 0
    for state in play_positions(edition, 2, seed, CHOOSERS[chooser]):
        if state.game_over:
            continue
        core = to_core(state)
        legal = [a for a in legal_actions(state) if not isinstance(a, (Pass, Scout))]
        for a in rng.sample(legal, min(5, len(legal))):
            for v in variants(state, a, rng):
                try:
                    after = apply_action(state, v)[0]
                except IllegalAction:
                    with pytest.raises(ValueError):
                        core.apply_unchecked(action_to_json(v))
                    refused += 1
                    continue
                got = json.loads(core.apply_unchecked(action_to_json(v)).to_json())
                assert first_difference(encode_state(after), got) is None, v
                applied += 1
    assert applied > 150 and refused > 500


# -- the sale fixture of the Rust test ---------------------------------------------------------------

# games whose positions give the fixture's sales: (edition, players, seed, chooser)
SALE_GAMES = [("birmingham", 2, 1, "greedy"), ("birmingham", 3, 2, "greedy"), ("lancashire", 2, 1, "greedy")]


def sale_fixture() -> dict[str, Any]:
    """Sales resolved by the reference's ``apply_sale`` (with the legal enumeration's two beer
    policies) and ``apply_cotton_sale``, on positions of played games: every own sellable tile to
    every buyer, the resolved sale (or the refusal) and the state after it. Each position also
    carries its ``potential_vp``, ``standings`` ranks and ``win_shares``, as do the games' final
    positions and one with two seats tied first."""
    tables: dict[str, Any] = {}
    states: list[dict[str, Any]] = []
    cases: list[dict[str, Any]] = []
    for edition, players, seed, chooser in SALE_GAMES:
        rules = load_rules(edition)
        tables[edition] = rules_table(rules)
        for state in play_positions(edition, players, seed, CHOOSERS[chooser]):
            if state.game_over:
                states.append(_scored(state))
                tied = state.copy()
                for p in tied.players[:2]:
                    p.vp, p.income_space, p.money = 70, 40, 9
                states.append(_scored(tied))
                break
            seat = state.current_player
            if seat is None or state.phase != "actions":
                continue
            tiles = [
                r
                for r, t in sorted(state.tiles.items())
                if t.owner == seat and t.industry in rules.sellable and not t.flipped
            ]
            if edition == "birmingham":
                buyers = [(m, beer) for m in rules.merchants for beer in (False, True)]
            else:
                ports = [r for r, t in sorted(state.tiles.items()) if t.industry == "port"]
                buyers = [(b, False) for b in (*ports, DISTANT_MARKET)]
            if not tiles:
                continue
            states.append(_scored(state))
            for tile in tiles:
                for buyer, beer in buyers:
                    cases.append(_sale_case(state, len(states) - 1, seat, tile, buyer, beer))
    return {"rules": tables, "states": states, "cases": cases}


def _scored(state: GameState) -> dict[str, Any]:
    return {
        "edition": state.rules.edition,
        "state": encode_state(state),
        "potential_vp": [list(potential_vp(state, seat)) for seat in range(state.num_players)],
        "ranks": [s.rank for s in standings(state)],
        "win_shares": [repr(x) for x in win_shares(state)],
    }


def _sale_case(state: GameState, index: int, seat: int, tile: str, buyer: str, beer: bool) -> dict[str, Any]:
    after = state.copy()
    case: dict[str, Any] = {"state": index, "seat": seat, "tile": tile, "buyer": buyer, "merchant_beer": beer}
    try:
        if state.rules.dcm_track:
            case["more"] = apply_cotton_sale(after, seat, Sale(tile, buyer))
        else:
            policy = WITH_MERCHANT_BEER if beer else WITHOUT_MERCHANT_BEER
            case["sale"] = apply_sale(after, seat, Sale(tile, buyer), policy).to_json()
    except IllegalAction as e:
        case["refused"] = e.rule
        return case
    case["after"] = encode_state(after)
    return case


def test_the_sale_fixture_is_what_the_reference_says_now() -> None:
    """The Rust test of apply_sale_resolving / apply_cotton_sale reads this fixture."""
    with gzip.open(SALE_FIXTURE, "rt", encoding="utf-8") as f:
        committed = json.load(f)
    fresh = json.loads(json.dumps(sale_fixture()))
    assert committed == fresh
    cases = fresh["cases"]
    assert sum("sale" in c and "merchant" in (c["sale"].get("beer") or ()) for c in cases) > 5
    assert sum("sale" in c and "bonus_develop" in c["sale"] for c in cases) > 0
    assert sum(c.get("more") is False for c in cases) > 0  # the market closed on a sale
    assert sum("refused" in c for c in cases) > 20
    assert any(s["win_shares"].count("0.5") == 2 for s in fresh["states"])  # a tie for first


if __name__ == "__main__":
    SALE_FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(SALE_FIXTURE, "wt", encoding="utf-8") as f:
        json.dump(sale_fixture(), f, separators=(",", ":"))
    print(f"wrote {SALE_FIXTURE}")
