"""docs/log-format.md is a contract (issue 11): a reader written from its words alone agrees with the engine.

The chance outcomes of seeded games are re-derived here from section 9 ("The seeded PRNG,
exactly"), with nothing from brass_stats but the shipped rules data JSON, and compared with what
the engine dealt. The shortfall boundary of section 5 (when every tile must go, in any order) is
tested against the spec's words too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import act, fresh, pass_turns, place_tile, set_income_space, set_money

from brass_stats.engine import Shortfall, apply_action
from brass_stats.engine.legal import legal_actions
from brass_stats.errors import AmbiguousChoice
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay

REPO = Path(__file__).parents[1]
DOC = (REPO / "docs" / "log-format.md").read_text("utf-8")
MASK = 2**64 - 1


class SpecPrng:
    """Section 9, "SplitMix64", "below(n)" and "shuffle(list)", transcribed."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def raw(edition: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPO / "brass_stats" / "rules_data" / f"{edition}.json").read_text("utf-8"))
    return data


def spec_deck(data: dict[str, Any], n: int) -> list[str]:
    """Step 2: location cards, industry cards (industries joined by '+'), counts for n players, sorted."""
    cards = [f"loc:{c['location']}" for c in data["cards"]["location_cards"] for _ in range(c["count"][str(n)])]
    for c in data["cards"]["industry_cards"]:
        code = "ind:" + "+".join(c.get("industries") or [c["industry"]])
        cards += [code] * c["count"][str(n)]
    return sorted(cards)


def spec_chance(edition: str, n: int, seed: int) -> dict[str, Any]:
    """Every chance outcome of a seeded game, in the order of draws of section 9."""
    data = raw(edition)
    rng = SpecPrng(seed)
    out: dict[str, Any] = {}
    if edition == "birmingham":
        # 1. merchant tiles onto the merchant spaces in data order
        ids = list(data["merchant_tiles_by_player_count"][str(n)])
        rng.shuffle(ids)
        spaces = [
            (m["id"], i)
            for m in data["merchants"]
            if n in m["spaces_used_for_player_counts"]
            for i in range(m["merchant_tile_spaces"])
        ]
        accepts = {t["id"]: t["accepts"] for t in data["merchant_tiles"]}

        def face(a: list[str]) -> str:
            return "blank" if not a else "all" if len(a) > 1 else a[0]

        out["merchant_tiles"] = {space: face(accepts[t]) for space, t in zip(spaces, ids, strict=True)}
    # 2. the deck: hands of 8 in seat order, then (Birmingham) one face-down discard each,
    #    or (Lancashire) the last n cards beneath the deck tile
    deck = spec_deck(data, n)
    full = list(deck)
    rng.shuffle(deck)
    out["hands"] = [deck[8 * s : 8 * s + 8] for s in range(n)]
    if edition == "birmingham":
        out["discards"] = [[deck[8 * n + s]] for s in range(n)]
        out["deck"] = deck[9 * n :]
    else:
        rest = deck[8 * n :]
        out["deck"], out["reserve"] = rest[: len(rest) - n], rest[len(rest) - n :]
        # 2b. the Distant Cotton Market tiles, sorted marker moves, shuffled (top first)
        dcm = sorted(data["distant_cotton_market"]["tiles_by_player_count"][str(n)])
        rng.shuffle(dcm)
        out["dcm_canal"] = dcm
    # 3. turn order
    order = list(range(n))
    rng.shuffle(order)
    out["turn_order"] = order
    # 4. the Rail Era: (Lancashire) the market's tiles first, then every card, sorted and shuffled
    if edition == "lancashire":
        dcm = sorted(data["distant_cotton_market"]["tiles_by_player_count"][str(n)])
        rng.shuffle(dcm)
        out["dcm_rail"] = dcm
    rail = sorted(full)
    rng.shuffle(rail)
    out["rail_hands"] = [rail[8 * s : 8 * s + 8] for s in range(n)]
    out["rail_deck"] = rail[8 * n :]
    return out


def test_the_spec_orders_the_market_reset_before_the_rail_era_shuffle() -> None:
    # the rulebook's Rail Era setup resets the Distant Cotton Market before shuffling the deck
    text = " ".join(DOC.split())
    assert "at the Rail Era the Distant Cotton Market tiles are shuffled again, sorted first, before" in text


SEEDED = [
    "generated/game-2002-00000.json",
    "generated/game-3003-00000.json",
    "generated/game-4004-00000.json",
    "lancashire/game-5002-00000.json",
    "lancashire/game-5003-00000.json",
    "lancashire/game-5004-00000.json",
]


@pytest.mark.parametrize("name", SEEDED)
def test_a_seeded_games_chance_follows_the_spec_word_for_word(name: str) -> None:
    log = GameLog.load(REPO / "replays" / name)
    assert log.seed is not None and not log.options
    n = len(log.players)
    want = spec_chance(log.edition, n, log.seed)
    replay = Replay(log, keep_states=True).run()
    assert replay.error is None and replay.finished
    start = replay.initial
    assert [p.hand for p in start.players] == want["hands"]
    assert start.deck == want["deck"]
    assert start.turn_order == want["turn_order"]
    if log.edition == "birmingham":
        assert [p.discard for p in start.players] == want["discards"]
        assert {(m.location, m.index): m.face for m in start.merchant_spaces} == want["merchant_tiles"]
    else:
        assert start.reserve == want["reserve"]
        assert start.dcm_pile == want["dcm_canal"]
    # the first state of the Rail Era: the new deal, before anyone draws
    rail = next(s.state for s in replay.steps if s.state is not None and s.state.era == "rail")
    assert [p.hand for p in rail.players] == want["rail_hands"]
    assert rail.deck == want["rail_deck"]
    if log.edition == "lancashire":
        assert rail.dcm_pile == want["dcm_rail"]


# -- shortfall: "one tile, or every tile goes in any order" ----------------------------------------


def short_by(debt_minus_tiles: int) -> Any:
    """Player 0 owes £8 (income level -8) and holds a coal mine I (worth £2) and a manufacturer I
    (worth £4): £6 of tiles against a debt of £6 + ``debt_minus_tiles``."""
    g = fresh(2)
    set_income_space(g, 0, 2)
    set_money(g, 0, 2 - debt_minus_tiles)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    place_tile(g, "birmingham:1", 0, "manufacturer", 1)
    g = pass_turns(g, 2)
    assert g.phase == "shortfall" and g.shortfalls[0] == (0, 6 + debt_minus_tiles)
    return g


def test_shortfall_tiles_worth_exactly_the_debt_may_be_left_unstated() -> None:
    # docs/log-format.md: a choice may be omitted when the rules leave one option; tiles worth
    # exactly the debt must all go, so there is one option
    g = short_by(0)
    (only,) = legal_actions(g)
    assert isinstance(only, Shortfall) and sorted(only.tiles or ()) == ["birmingham:1", "dudley:0"]
    g2, done = apply_action(g, Shortfall(0))
    assert sorted(done.tiles or ()) == ["birmingham:1", "dudley:0"]
    assert g2.tiles == {} and g2.players[0].money == 0 and g2.phase == "actions"
    # the same stated in full is equally legal
    act(g, Shortfall(0, ("dudley:0", "birmingham:1")))


def test_shortfall_tiles_worth_less_than_the_debt_may_be_left_unstated() -> None:
    g = short_by(1)
    g2, done = apply_action(g, Shortfall(0))
    assert sorted(done.tiles or ()) == ["birmingham:1", "dudley:0"]
    assert g2.tiles == {}


def test_shortfall_tiles_worth_more_than_the_debt_may_be_left_unstated_when_every_tile_must_go() -> None:
    # £5 owed, tiles worth £2 and £4: neither covers it alone, so both go whichever is first
    g = short_by(-1)
    g2, done = apply_action(g, Shortfall(0))
    assert sorted(done.tiles or ()) == ["birmingham:1", "dudley:0"]
    assert g2.tiles == {} and g2.players[0].money == 1


def test_shortfall_tiles_worth_more_than_the_debt_must_be_stated_when_the_ways_differ() -> None:
    g = short_by(-2)  # £4 owed: the £4 tile alone, or the £2 tile then the £4 one
    with pytest.raises(AmbiguousChoice):
        apply_action(g, Shortfall(0))


def test_the_spec_says_the_list_may_be_omitted_when_every_tile_must_go() -> None:
    text = " ".join(DOC.split())
    assert "When every tile must go whatever the order, `tiles` may be omitted" in text
    assert "all the tiles but the cheapest are worth less than the debt" in text
