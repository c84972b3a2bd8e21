"""``legal_actions`` lists every action the engine accepts, of every type (rules: "legal actions").

The engine (:func:`apply_action`) is the judge. Over the positions of sample games of both editions
(greedy self-play, which builds breweries, sells with merchant beer and lays double rail links) and
of RandomBot games (which run into shortfalls), these tests throw probes of every action type at
the engine, built here without ``engine/legal.py``, and check: whatever the engine accepts is
enumerated (up to the resource sources it fills in, :meth:`Action.skeleton`).

Some choices are compared as sets: the sales of one Sell action, the tiles removed for a
shortfall, a Scout's three cards, the two industries of a Develop, two rail links, and the two
cards of a Lancashire double-action build. The enumeration lists each set once, in one order
(board order for sales, cheapest tile first for a shortfall, sorted cards), since the order
changes nothing on the board. The reverse direction (every enumerated action is accepted) is in
``test_properties.py``; here every enumerated Sell and Shortfall is also replayed, and each action
that costs money is checked again with exactly that much money.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import fresh, pass_turns, place_tile, rule_of, set_income_space, set_money

from brass_stats.bots import RandomBot, play_game
from brass_stats.engine import STRICT, apply_action, new_game
from brass_stats.engine.actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
from brass_stats.engine.connectivity import network
from brass_stats.engine.legal import WITH_MERCHANT_BEER, WITHOUT_MERCHANT_BEER, legal_actions
from brass_stats.engine.policy import FIRST_OPTION
from brass_stats.engine.sell_cotton import DISTANT_MARKET
from brass_stats.engine.state import Effect, GameState
from brass_stats.errors import IllegalAction
from brass_stats.log.format import GameLog

REPLAYS = Path(__file__).parents[1] / "replays"
# a few greedy games of each player count and edition (double rail, merchant beer, Lancashire builds)
SAMPLE_GAMES = (
    "generated/game-2002-00000.json",
    "generated/game-3003-00001.json",
    "generated/game-4004-00000.json",
    "generated/game-4014-00002.json",
    "lancashire/game-5002-00000.json",
    "lancashire/game-5004-00001.json",
)
POLICIES = (FIRST_OPTION, WITH_MERCHANT_BEER, WITHOUT_MERCHANT_BEER)


def canonical(a: Action) -> object:
    """What identifies an enumerated action: its skeleton, with sales / removed tiles as a set."""
    s = a.skeleton()
    if isinstance(s, Sell):
        return ("sell", s.player, s.card, frozenset(s.sales))
    if isinstance(s, Shortfall):
        return ("shortfall", s.player, frozenset(s.tiles or ()))
    if isinstance(s, Scout):
        return ("scout", s.player, tuple(sorted(s.discards)))
    if isinstance(s, Network) and len(s.links) == 2:
        return ("network", s.player, s.card, frozenset(s.links))
    if isinstance(s, Develop):
        return ("develop", s.player, s.card, tuple(sorted(s.industries)))
    if isinstance(s, Build) and s.second_card is not None:
        return ("build", s.player, tuple(sorted((s.card, s.second_card))), s.industry, s.location, s.slot)
    return s


def positions(log: GameLog, every: int = 1) -> Iterator[GameState]:
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    for i, action in enumerate(log.actions):
        if i % every == 0:
            yield state
        state, _ = apply_action(state, action)


def _locs(state: GameState, seat: int) -> frozenset[str]:
    return network(state, seat)


def probes(state: GameState, rng: random.Random) -> Iterator[Action]:
    """Actions of every type that may or may not be legal, drawn from the rules data only."""
    seat = state.current_player
    assert seat is not None
    rules, p = state.rules, state.players[seat]
    if state.phase == "shortfall":
        own = [ref for ref, t in state.tiles.items() if t.owner == seat]
        for _ in range(12):
            k = rng.randint(1, min(4, len(own))) if own else 0
            yield Shortfall(seat, tuple(rng.sample(own, k)))
        yield Shortfall(seat, tuple(own))
        return
    hand = p.hand
    if not hand:
        return
    for card in set(hand):
        yield Pass(seat, card)
        for amount in [None, *(m for m, _ in rules.loan_options)]:
            yield Loan(seat, card, amount)
    if len(hand) >= 3:
        for _ in range(4):
            yield Scout(seat, tuple(rng.sample(hand, 3)))
    industries = sorted(rules.industries)
    for _ in range(4):
        yield Develop(seat, rng.choice(hand), tuple(rng.sample(industries, rng.randint(1, 2))))
    links = sorted(rules.links)
    net = _locs(state, seat)
    near = [lid for lid in links if any(x in net for x in rules.links[lid].connects)] or links
    for _ in range(6):
        yield Network(seat, rng.choice(hand), (rng.choice(near),))
    if state.era == "rail":
        for _ in range(10):
            first = rng.choice(near)
            ends = set(rules.links[first].connects) | net
            second = [lid for lid in links if lid != first and any(x in ends for x in rules.links[lid].connects)]
            yield Network(seat, rng.choice(hand), (first, rng.choice(second)))
    locations = sorted(loc for loc, L in rules.locations.items() if L.slots)
    for _ in range(15):
        loc = rng.choice(locations)
        slot = rng.choice(rules.locations[loc].slots)
        second = rng.choice(hand) if rules.double_action_build and len(hand) >= 2 and rng.random() < 0.4 else None
        card = rng.choice(hand)
        if second is not None:
            rest = list(hand)
            rest.remove(card)
            second = rng.choice(rest)
        yield Build(seat, card, rng.choice(slot.industries), loc, slot.index, second_card=second)
    own = sorted(ref for ref, t in state.tiles.items() if t.owner == seat and not t.flipped)
    if rules.dcm_track:
        buyers = [ref for ref, t in state.tiles.items() if t.industry == "port"] + [DISTANT_MARKET]
    else:
        buyers = sorted(rules.merchants)
    for _ in range(10 if own else 0):
        tiles = rng.sample(own, rng.randint(1, min(3, len(own))))
        yield Sell(seat, rng.choice(hand), tuple(Sale(t, rng.choice(buyers)) for t in tiles))


def accepted(state: GameState, probe: Action) -> Iterator[Action]:
    for policy in POLICIES if isinstance(probe, Sell) else (FIRST_OPTION,):
        try:
            done = apply_action(state, probe, policy)[1]
        except IllegalAction:
            continue
        yield done


def _spent(state: GameState, action: Action) -> int:
    effects: list[Effect] = []
    state.effects = effects
    try:
        apply_action(state, action, STRICT)
    finally:
        state.effects = None
    seat = action.player
    return -sum(e.amount for e in effects if e.kind == "money" and e.seat == seat and e.amount < 0)


def check_position(state: GameState, rng: random.Random) -> dict[str, int]:
    """Check one position; returns how many accepted probes of each type were found enumerated."""
    legal = legal_actions(state)
    keys = {canonical(a) for a in legal}
    found: dict[str, int] = {}
    for probe in probes(state, rng):
        for done in accepted(state, probe):
            assert canonical(done) in keys, f"accepted but not enumerated: {done}"
            found[done.TYPE] = found.get(done.TYPE, 0) + 1
    # one entry per set of sales (per card) and per set of removed tiles
    for kind in (Sell, Shortfall):
        listed = [canonical(a) for a in legal if isinstance(a, kind)]
        assert len(listed) == len(set(listed)), f"{kind.TYPE} listed twice in another order"
    # sells and shortfalls: replayed as listed (the other types are sampled in test_properties.py)
    for a in legal:
        if isinstance(a, Sell | Shortfall):
            apply_action(state, a, STRICT)
    # exactly enough money: each priced action stays enumerated (double rail at exactly £15, ...)
    priced = [a for a in legal if isinstance(a, Network) and len(a.links) == 2][:2]
    paying = [a for a in legal if isinstance(a, Build | Develop | Network)]
    priced += rng.sample(paying, 1) if paying else []
    seat = state.current_player
    assert seat is not None
    for a in priced:
        cost = _spent(state, a)
        if cost == state.players[seat].money:
            continue
        poorer = state.copy()
        poorer.players[seat].money = cost
        assert canonical(a) in {canonical(b) for b in legal_actions(poorer)}, f"not listed with exactly £{cost}: {a}"
        found["exact_price"] = found.get("exact_price", 0) + 1
    return found


def _totals(states: Iterator[GameState], seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    totals: dict[str, int] = {}
    for state in states:
        for k, v in check_position(state, rng).items():
            totals[k] = totals.get(k, 0) + v
    return totals


@pytest.mark.parametrize("name", SAMPLE_GAMES)
def test_every_accepted_action_is_enumerated_in_sample_games(name: str) -> None:
    log = GameLog.load(REPLAYS / name)
    totals = _totals(positions(log, every=2), seed=len(name))
    # the probes did reach the engine's acceptance for the common types
    assert totals.get("build", 0) and totals.get("pass", 0) and totals.get("loan", 0) and totals.get("network", 0)


def test_every_accepted_action_is_enumerated_in_random_games() -> None:
    totals: dict[str, int] = {}
    for players, seed in ((2, 31), (3, 32), (4, 33)):
        log = play_game([RandomBot()] * players, seed)
        for k, v in _totals(positions(log, every=3), seed).items():
            totals[k] = totals.get(k, 0) + v
    assert totals.get("shortfall", 0) > 0 and totals.get("sell", 0) > 0 and totals.get("scout", 0) > 0


def test_the_probes_cover_every_action_type_across_the_samples() -> None:
    """The direction 'accepted => enumerated' was exercised for each type, double rail and merchant beer included."""
    totals: dict[str, int] = {}
    double_rail = merchant_beer = lancashire_double = 0
    for name in SAMPLE_GAMES:
        log = GameLog.load(REPLAYS / name)
        rng = random.Random(7)
        for state in itertools.islice(positions(log, every=2), 0, None):
            if state.phase != "actions":
                continue
            for probe in probes(state, rng):
                for done in accepted(state, probe):
                    totals[done.TYPE] = totals.get(done.TYPE, 0) + 1
                    double_rail += isinstance(done, Network) and len(done.links) == 2
                    merchant_beer += isinstance(done, Sell) and any("merchant" in (s.beer or ()) for s in done.sales)
                    lancashire_double += isinstance(done, Build) and done.second_card is not None
    assert {"pass", "loan", "scout", "develop", "network", "build", "sell"} <= set(totals)
    assert double_rail and merchant_beer and lancashire_double


# -- rule: a tile removed for a shortfall leaves its owner's network ------------------------------


def test_tile_removed_for_mid_era_shortfall_leaves_its_owners_network() -> None:
    """Paying a shortfall removes the tile from the board (rules: shortfall), so the town it stood in
    is no longer in its owner's network: no link may start from there any more."""
    g = fresh(2)
    set_income_space(g, 0, 2)  # income level -8
    set_money(g, 0, 3)
    place_tile(g, "worcester:0", 0, "cotton_mill", 1)
    place_tile(g, "dudley:0", 0, "coal_mine", 1)
    g = pass_turns(g, 2)
    assert g.phase == "shortfall" and g.era == "canal"
    assert "worcester" in network(g, 0)
    g2, _ = apply_action(g, Shortfall(0, ("worcester:0",)))
    assert g2.phase == "actions" and g2.current_player == 0
    assert network(g2, 0) == frozenset({"dudley"})
    lone = next(
        lid
        for lid, link in g2.rules.links.items()
        if "worcester" in link.connects and "dudley" not in link.connects and link.allowed_in("canal")
    )
    card = g2.players[0].hand[0]
    assert rule_of(g2, Network(0, card, (lone,))) == "network.adjacent"
    assert all(lone not in a.links for a in legal_actions(g2) if isinstance(a, Network))
