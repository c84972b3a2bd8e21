"""Seeded random Brass: Lancashire games played to the end through the engine, with conservation invariants
checked after every action, then written as logs, validated, and round-tripped through JSON."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from lancashire_helpers import LANCASHIRE, NAMES, all_cards

from brass_stats.engine import (
    Action,
    Build,
    Develop,
    GameState,
    Loan,
    SeededChance,
    Sell,
    apply_action,
    new_game,
    standings,
)
from brass_stats.engine.legal import legal_actions
from brass_stats.log.format import GameLog
from brass_stats.rules_data import load_rules
from brass_stats.validation import validate_log

R = LANCASHIRE

# (players, seed, options): every player count, and every option
GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (3, 21, {}),  # these first two favour shipyards (see SHIPWRIGHTS)
    (4, 12, {}),
    (2, 1, {}),
    (2, 2, {}),
    (3, 1, {}),
    (3, 2, {}),
    (4, 1, {}),
    (4, 2, {}),
    (2, 3, {"virtual_link": True}),
    (3, 3, {"classic_deck": True}),
    (4, 3, {"classic_deck": True, "virtual_link": True}),
    (2, 4, {"introductory": True}),
    (4, 4, {"introductory": True}),
    (3, 5, {"tile_overrides": {"cotton_mill.1.vp": 3}}),
]


SHIPWRIGHTS = 2  # the first games develop and build shipyards whenever they can (random play rarely does)


def game_id(game: tuple[int, int, dict[str, Any]]) -> str:
    players, seed, options = game
    return f"{players}p-seed{seed}" + "".join(f"-{k}" for k in sorted(options))


class Played:
    """One random game: the final state, the resolved actions, and what happened along the way."""

    def __init__(self, players: int, seed: int, options: dict[str, Any], shipwright: bool = False) -> None:
        self.players, self.seed, self.options = players, seed, options
        rules = load_rules("lancashire", options.get("tile_overrides"))
        state = new_game(list(NAMES[:players]), SeededChance(seed), rules, dict(options))
        self.initial = state
        self.problems: list[str] = []
        self.actions: list[Action] = []
        self.kinds: Counter[str] = Counter()
        self.era_rounds: dict[str, int] = {}
        self.rail_start: GameState | None = None
        rng = random.Random(seed * 1000 + players)
        self.check(state, None)
        while not state.game_over:
            legal = legal_actions(state)
            self.check_offer(state, legal)
            by_type: dict[str, list[Action]] = {}
            for a in legal:
                by_type.setdefault(a.TYPE, []).append(a)
            kinds = sorted(k for k in by_type if k != "pass") or ["pass"]
            action = rng.choice(by_type[rng.choice(kinds)])
            if shipwright:
                ships = [a for a in legal if isinstance(a, Build) and a.industry == "shipyard"]
                develop = [a for a in legal if isinstance(a, Develop) and "shipyard" in a.industries]
                if ships or (develop and rng.random() < 0.5):
                    action = rng.choice(ships or develop)
            before = state
            state, done = apply_action(state, action)
            self.actions.append(done)
            self.note(before, state, done)
            self.check(state, before)
        self.final = state

    # -- what happened ----------------------------------------------------------------------------
    def note(self, before: GameState, after: GameState, done: Action) -> None:
        kind = done.TYPE
        if isinstance(done, Build):
            kind = f"build:{done.industry}" + (":double" if done.second_card else "")
        if isinstance(done, Sell):
            for sale in done.sales:
                self.kinds["sale:" + ("distant_market" if sale.merchant == "distant_market" else "port")] += 1
            if after.dcm_position == len(R.dcm_track) - 1 and before.dcm_position != after.dcm_position:
                self.kinds["sale:reached_x"] += 1
        self.kinds[kind] += 1
        if before.era == "canal" and after.era == "rail":
            self.rail_start = after
        self.era_rounds[before.era] = max(self.era_rounds.get(before.era, 0), before.era_round)

    # -- invariants -----------------------------------------------------------------------------------
    def fail(self, state: GameState, msg: str) -> None:
        self.problems.append(f"action {len(self.actions)} ({state.era} round {state.era_round}): {msg}")

    def expected_cards(self, state: GameState) -> int:
        if not self.options.get("classic_deck"):
            return len(R.deck(self.players))
        return 66 - ({3: 6, 4: 2}[self.players] if state.era == "rail" else 0)

    def check(self, state: GameState, before: GameState | None) -> None:
        rules = state.rules
        n = self.players
        for p in state.players:
            if p.money < 0:
                self.fail(state, f"seat {p.seat} has £{p.money}")
            if not 0 <= p.income_space <= rules.max_income_space:
                self.fail(state, f"seat {p.seat} income space {p.income_space}")
            if not -10 <= state.income_level(p.seat) <= 30:
                self.fail(state, f"seat {p.seat} income level {state.income_level(p.seat)}")
            if p.vp < 0:
                self.fail(state, f"seat {p.seat} has {p.vp} VP")
            for ind, levels in rules.industries.items():
                for lv in levels:
                    on_board = sum(
                        1
                        for t in state.tiles.values()
                        if t.owner == p.seat and t.industry == ind and t.level == lv.level
                    )
                    if on_board + p.mat[ind][lv.level - rules.first_level(ind)] > lv.tiles:
                        self.fail(state, f"seat {p.seat} has too many {ind} {lv.level} tiles")
            if len(p.hand) > rules.constants["hand_size"]:
                self.fail(state, f"seat {p.seat} holds {len(p.hand)} cards")
        cards = all_cards(state)
        if sum(cards.values()) != self.expected_cards(state):
            self.fail(state, f"{sum(cards.values())} cards in play, expected {self.expected_cards(state)}")
        if cards - Counter(R.classic_deck_counts if self.options.get("classic_deck") else R.deck(n)):
            self.fail(state, "a card that is not in the deck")
        if state.era == "canal":
            if state.reserve != self.initial.reserve:
                self.fail(state, "the cards beneath the deck tile changed in the Canal Era")
        elif state.reserve:
            self.fail(state, "cards beneath the deck tile in the Rail Era")
        for name in ("coal_market", "iron_market"):
            if not 0 <= getattr(state, name) <= 8:
                self.fail(state, f"{name} holds {getattr(state, name)}")
        for ref, t in state.tiles.items():
            if ref not in rules.slots or t.industry not in rules.slots[ref].industries:
                self.fail(state, f"{t} on {ref}")
            if t.industry in ("coal_mine", "iron_works"):
                if t.flipped != (t.resources == 0):
                    self.fail(state, f"{ref} {t}: flipped iff empty")
            elif t.resources:
                self.fail(state, f"{ref} {t} holds cubes")
            if t.industry == "shipyard" and not t.flipped:
                self.fail(state, f"{ref}: an unflipped shipyard")
            if t.level < 1:
                self.fail(state, f"{ref}: a locked tile on the board")
        if not 0 <= state.dcm_position < len(R.dcm_track):
            self.fail(state, f"Distant Market marker on row {state.dcm_position}")
        if sorted(state.dcm_pile + state.dcm_drawn) != sorted(self.initial.dcm_pile):
            self.fail(state, "Distant Market tiles lost or added")
        if before is not None and before.era == state.era and state.dcm_position < before.dcm_position:
            self.fail(state, "the Distant Market marker moved up within an era")
        limit = 10 if self.options.get("classic_deck") and n == 3 else R.rounds_per_era[n]
        if state.era_round > limit:
            self.fail(state, f"era round {state.era_round} > {limit}")
        if any(lid not in rules.links for lid in state.links):
            self.fail(state, "unknown link on the board")

    def check_offer(self, state: GameState, legal: list[Action]) -> None:
        types = {a.TYPE for a in legal}
        if "scout" in types:
            self.fail(state, "a Scout action is offered")
        if "loan" in types and state.era == "rail" and not state.deck:
            self.fail(state, "a loan is offered with the Rail Era deck exhausted")
        if not self.options.get("classic_deck") and state.era == "rail":
            final_four = state.era_round > R.rounds_per_era[self.players] - 4
            if final_four and any(isinstance(a, Loan) for a in legal):
                self.fail(state, f"a loan is offered in rail round {state.era_round}")
        if state.era == "canal" and state.era_round == 1 and any(isinstance(a, Build) and a.second_card for a in legal):
            self.fail(state, "a double-action build is offered in the first canal round")
        if not legal:
            self.fail(state, "no legal action")

    # -- the log --------------------------------------------------------------------------------------
    def log(self) -> GameLog:
        return GameLog(
            players=tuple(NAMES[: self.players]),
            chance={"seed": self.seed},
            actions=list(self.actions),
            edition="lancashire",
            options=dict(self.options),
        )

    def explicit_chance(self) -> dict[str, Any]:
        """The game's chance written out, as a log of a game played elsewhere would record it."""
        g = self.initial
        chance: dict[str, Any] = {
            "turn_order": list(g.turn_order),
            "hands": [list(p.hand) for p in g.players],
            "deck": list(g.deck),
            "reserve": list(g.reserve),
            "distant_market": {"canal": list(g.dcm_pile)},
        }
        rail = self.rail_start
        if rail is not None:
            chance["distant_market"]["rail"] = list(rail.dcm_pile)
            chance["rail_era"] = {"hands": [list(p.hand) for p in rail.players], "deck": list(rail.deck)}
            if self.options.get("classic_deck"):
                dealt = Counter(rail.deck) + Counter(c for p in rail.players for c in p.hand)
                removed = Counter(R.classic_deck_counts) - dealt
                chance["rail_era"]["removed"] = sorted(removed.elements())
        return chance


@cache
def played(index: int) -> Played:
    players, seed, options = GAMES[index]
    return Played(players, seed, options, shipwright=index < SHIPWRIGHTS)


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[game_id(g) for g in GAMES])
def test_lancashire_random_game_keeps_the_invariants(index):
    game = played(index)
    assert game.final.game_over
    assert game.problems == []
    n = game.players
    if game.options.get("introductory"):
        assert set(game.era_rounds) == {"canal"} and game.final.era == "canal"
    else:
        assert set(game.era_rounds) == {"canal", "rail"}
    rounds = 10 if game.options.get("classic_deck") and n == 3 else R.rounds_per_era[n]
    assert all(r == rounds for r in game.era_rounds.values())


@pytest.mark.parametrize("index", range(len(GAMES)), ids=[game_id(g) for g in GAMES])
def test_lancashire_random_game_log_validates_and_round_trips(index):
    game = played(index)
    log = game.log()
    v = validate_log(log)
    assert v.ok, v.error
    final = [(s.name, s.vp, s.income_level, s.money, s.rank) for s in standings(game.final)]
    assert [(f["name"], f["vp"], f["income_level"], f["money"], f["rank"]) for f in v.final or []] == final
    text = log.dumps()
    again = GameLog.loads(text)
    assert again.to_json() == log.to_json()
    assert again.actions == log.actions
    assert again.dumps() == text
    again.result = {"final": [{"seat": s.seat, "vp": s.vp, "rank": s.rank} for s in standings(game.final)]}
    assert validate_log(GameLog.loads(again.dumps())).ok


EXPLICIT = (2, 5, 9, 10, 11)


@pytest.mark.parametrize("index", EXPLICIT, ids=[game_id(GAMES[i]) for i in EXPLICIT])
def test_lancashire_random_game_replays_from_explicit_chance(index):
    game = played(index)
    log = game.log()
    log.chance = game.explicit_chance()
    again = GameLog.loads(log.dumps())
    v = validate_log(again)
    assert v.ok, v.error
    final = [(s.name, s.vp, s.income_level, s.money, s.rank) for s in standings(game.final)]
    assert [(f["name"], f["vp"], f["income_level"], f["money"], f["rank"]) for f in v.final or []] == final


def test_lancashire_random_games_cover_the_lancashire_rules():
    seen: Counter[str] = Counter()
    for i in range(len(GAMES)):
        seen.update(played(i).kinds)
    wanted = [
        "build:cotton_mill",
        "build:coal_mine",
        "build:iron_works",
        "build:port",
        "build:shipyard",
        "network",
        "develop",
        "loan",
        "sale:port",
        "sale:distant_market",
    ]
    missing = [k for k in wanted if not seen[k]]
    assert missing == [], dict(seen)
    assert any(k.endswith(":double") for k in seen), dict(seen)
