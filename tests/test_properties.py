"""Property tests over seeded random games (hypothesis): enumeration, acceptance, conservation, bounds."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brass_stats.engine import STRICT, SeededChance, apply_action, new_game
from brass_stats.engine.actions import Action, Build, Network
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import FIRST_OPTION
from brass_stats.engine.state import Effect, GameState
from brass_stats.errors import IllegalAction
from brass_stats.rules_data import INDUSTRIES, WILD_CARDS

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def card_total(state: GameState) -> int:
    held = sum(len(p.hand) + len(p.discard) for p in state.players)
    return held + len(state.deck) + sum(state.wild.values())


def check_invariants(state: GameState, deck_size: int) -> None:
    rules = state.rules
    assert card_total(state) == deck_size + sum(rules.wild_cards.values())
    for card in WILD_CARDS:
        held = sum(p.hand.count(card) for p in state.players)
        assert held + state.wild[card] == rules.wild_cards[card]
    assert 0 <= state.coal_market <= rules.markets["coal"].capacity
    assert 0 <= state.iron_market <= rules.markets["iron"].capacity
    for p in state.players:
        assert p.money >= 0
        assert 0 <= p.income_space <= rules.max_income_space
        assert -10 <= state.income_level(p.seat) <= 30
        assert p.vp >= 0
        assert len(p.hand) <= rules.constants["hand_size"]
        for ind in INDUSTRIES:
            on_board = sum(1 for t in state.tiles.values() if t.owner == p.seat and t.industry == ind)
            printed = sum(lv.tiles for lv in rules.industries[ind])
            assert sum(p.mat[ind]) + on_board <= printed
            assert all(n >= 0 for n in p.mat[ind])
    for t in state.tiles.values():
        assert t.resources >= 0
        if t.industry in ("coal_mine", "iron_works", "brewery"):
            assert t.flipped == (t.resources == 0)
    for ms in state.merchant_spaces:
        assert not (ms.beer and not ms.accepts)


def check_ledger(before: GameState, after: GameState, effects: list[Effect]) -> None:
    """Every change of money, income and VP is explained by the recorded effects."""
    for p0, p1 in zip(before.players, after.players, strict=True):
        money = sum(e.amount for e in effects if e.kind == "money" and e.seat == p0.seat)
        income = sum(e.amount for e in effects if e.kind == "income_spaces" and e.seat == p0.seat)
        vp = sum(e.amount for e in effects if e.kind == "vp" and e.seat == p0.seat)
        assert p1.money - p0.money == money
        assert p1.income_space - p0.income_space == income
        assert p1.vp - p0.vp == vp


def random_probe(state: GameState, rng: random.Random) -> Action | None:
    """A random build or link that may or may not be legal."""
    seat = state.current_player
    assert seat is not None
    p = state.players[seat]
    if not p.hand:
        return None
    card = rng.choice(p.hand)
    if rng.random() < 0.7:
        loc = rng.choice(sorted(state.rules.locations))
        slots = state.rules.locations[loc].slots
        if not slots:
            return None
        slot = rng.choice(slots)
        return Build(seat, card, rng.choice(slot.industries), loc, slot.index)
    return Network(seat, card, (rng.choice(sorted(state.rules.links)),))


def play_and_check(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(players)], SeededChance(seed))
    deck_size = len(state.rules.deck(players))
    steps = 0
    while not state.game_over:
        legal = legal_actions(state)
        assert legal, "a player always has a legal action (at least Pass)"
        skeletons = {a.skeleton() for a in legal}
        # every enumerated action is accepted as written, under the strict policy
        for a in rng.sample(legal, min(8, len(legal))):
            apply_action(state, a, STRICT)
        # every accepted action is enumerated (on samples)
        for _ in range(6):
            probe = random_probe(state, rng)
            if probe is None:
                continue
            try:
                _, done = apply_action(state, probe, FIRST_OPTION)
            except IllegalAction:
                continue
            assert done.skeleton() in skeletons, f"accepted but not enumerated: {done}"
        kinds = sorted({a.TYPE for a in legal})
        kind = rng.choice(kinds)
        action = rng.choice([a for a in legal if kind == a.TYPE])
        effects: list[Effect] = []
        state.effects = effects
        after, _ = apply_action(state, action, STRICT)
        state.effects = None
        check_ledger(state, after, effects)
        check_invariants(after, deck_size)
        state = after
        steps += 1
    assert state.era == "rail" and state.phase == "over"
    n_actions = Counter(p.seat for p in state.players)
    assert len(n_actions) == players


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_games_keep_invariants_and_enumeration_is_exact(seed: int, players: int) -> None:
    play_and_check(seed, players)


def test_random_games_of_every_player_count_finish() -> None:
    from brass_stats.bots import RandomBot, play_game
    from brass_stats.replay import replay

    for players in (2, 3, 4):
        log = play_game([RandomBot()] * players, seed=100 + players)
        r = replay(log)
        assert r.error is None and r.finished
        assert len({s.seat for s in r.standings()}) == players
