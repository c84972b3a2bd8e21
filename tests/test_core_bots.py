"""Whole games and single decisions on the compiled core are the reference's (core/src/play.rs).

``play_game`` with every seat a bot the core runs is played in the core in one request: the same
game, action for action, as the reference plays with the same seed (random, greedy, exploring,
planner and search players; both editions; 2-4 players), and every such game is valid by the
reference engine. A single decision asked of the core draws from the caller's generator exactly as
the Python bot would, so the generator continues the same afterwards."""

from __future__ import annotations

import random

import pytest

import brass_stats as bs
from brass_stats.bots import RandomBot, play_game
from brass_stats.bots.exploring import ExploringBot
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.search import SearchBot
from brass_stats.bots.turn_planner import TurnPlanner
from brass_stats.engine import SeededChance, apply_action, new_game
from brass_stats.engine.compiled import SWITCH
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.scoring import standings
from brass_stats.engine.state import GameState
from brass_stats.rules_data import load_rules

PLAYERS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "explore": lambda: ExploringBot(0.2),
    "planner": TurnPlanner,
    "search": lambda: SearchBot(simulations=6),
}

GAMES = [
    ("birmingham", ["random", "greedy"], 3),
    ("birmingham", ["explore", "greedy", "planner"], 4),
    ("birmingham", ["greedy", "random", "explore", "planner"], 5),
    ("lancashire", ["planner", "random"], 6),
    ("lancashire", ["greedy", "explore", "random"], 7),
    ("lancashire", ["random", "planner", "greedy", "explore"], 8),
    ("birmingham", ["search", "greedy"], 9),
    ("lancashire", ["search", "random", "greedy"], 10),
]


def validated(log: bs.GameLog) -> GameState:
    """The game replayed by the reference engine: every action legal, the game over."""
    r = bs.replay(log)
    assert r.error is None, r.error
    assert r.state.game_over
    return r.state


@pytest.mark.parametrize(("edition", "seats", "seed"), GAMES, ids=[f"{e}-{'-'.join(s)}" for e, s, _ in GAMES])
def test_a_game_in_the_core_is_the_reference_game(
    edition: str, seats: list[str], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = play_game([PLAYERS[name]() for name in seats], seed=seed, edition=edition)
    monkeypatch.setenv(SWITCH, "python")
    reference = play_game([PLAYERS[name]() for name in seats], seed=seed, edition=edition)
    assert core.actions == reference.actions
    final = validated(core)
    assert [s.vp for s in standings(final)] == [p.vp for p in final.players]


def test_an_introductory_game_in_the_core_is_the_reference_game(monkeypatch: pytest.MonkeyPatch) -> None:
    options = {"introductory": True}
    core = play_game([GreedyBot(), ExploringBot(0.3)], seed=12, options=options)
    monkeypatch.setenv(SWITCH, "python")
    assert core.actions == play_game([GreedyBot(), ExploringBot(0.3)], seed=12, options=options).actions
    validated(core)


@pytest.mark.parametrize("options", [{"virtual_link": True}, {"classic_deck": True}])
def test_lancashire_variants_in_the_core_are_the_reference_games(
    options: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = [GreedyBot, RandomBot, TurnPlanner]
    core = play_game([b() for b in bots], seed=13, edition="lancashire", options=options)
    monkeypatch.setenv(SWITCH, "python")
    assert core.actions == play_game([b() for b in bots], seed=13, edition="lancashire", options=options).actions
    validated(core)


def positions(edition: str, players: int, seed: int) -> list[GameState]:
    state = new_game([f"p{i}" for i in range(players)], SeededChance(seed), load_rules(edition))
    out, rng = [], random.Random(seed)
    while not state.game_over:
        out.append(state)
        state = apply_action(state, rng.choice(legal_actions(state)))[0]
    return out


@pytest.mark.parametrize("bot", ["greedy", "planner", "explore"])
def test_a_decision_draws_from_the_callers_generator_as_the_reference_does(
    bot: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for edition, players in (("birmingham", 4), ("lancashire", 2)):
        for state in positions(edition, players, 21)[::9]:
            legal = legal_actions(state)
            core_rng, ref_rng = random.Random(state.action_count), random.Random(state.action_count)
            core = PLAYERS[bot]().choose(state, legal, core_rng)
            monkeypatch.setenv(SWITCH, "python")
            reference = PLAYERS[bot]().choose(state, legal, ref_rng)
            monkeypatch.delenv(SWITCH)
            assert core == reference
            assert core_rng.getstate() == ref_rng.getstate()  # the same draws, no more, no fewer
            assert any(core is a for a in legal)  # an element of the list given


def test_a_game_the_core_does_not_model_is_played_in_python() -> None:
    """A game at another server's prices: the bots run on the reference, and the game is still played."""
    state = new_game(["a", "b"], SeededChance(1), options={"played_costs": {"manufacturer.4": 14}})
    rng = random.Random(1)
    legal = legal_actions(state)
    assert GreedyBot().choose(state, legal, rng) in legal


def test_a_decision_the_core_cannot_finish_is_made_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last Canal Era action of a game with a written-out deal: greedy applies candidates that deal
    the Rail Era, which the core does not know (CoreUnsupported): the reference decides, the same way."""
    r = bs.replay(bs.load(bs.SAMPLES / "real" / "gm7vza-4p.json"), bs.AS_PLAYED)
    last_canal = max(i for i, s in enumerate(r.steps) if s.era == "canal")
    state = r.state_at(last_canal - 1)
    legal = legal_actions(state)
    core_rng, ref_rng = random.Random(5), random.Random(5)
    chosen = GreedyBot().choose(state, legal, core_rng)
    monkeypatch.setenv(SWITCH, "python")
    assert chosen == GreedyBot().choose(state, legal, ref_rng)
    assert core_rng.getstate() == ref_rng.getstate()


def test_a_subclass_that_plays_otherwise_is_played_in_python() -> None:
    """A bot whose class replaces ``choose`` is not the bot the core knows: its games stay in Python."""

    class AlwaysFirst(GreedyBot):
        name = "first"

        def choose(self, state: GameState, legal_actions: list, rng: random.Random) -> object:  # type: ignore[override]
            return legal_actions[0]

    class Patient(SearchBot):
        def analyse(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise AssertionError("never asked")

    assert AlwaysFirst().core_spec() is None and Patient().core_spec() is None
    assert TurnPlanner(AlwaysFirst()).core_spec() is None
    log = play_game([AlwaysFirst(), AlwaysFirst()], seed=3)
    state = new_game(list(log.players), SeededChance(3))
    for a in log.actions:  # every action is the first legal one: the subclass played, not greedy
        assert a == legal_actions(state)[0]
        state = apply_action(state, a)[0]
