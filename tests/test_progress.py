"""How far the game has gone: :meth:`GameState.progress`, the one round clock.

The win-probability model reads it as its ``progress`` feature and the search bot's softmax leaf
cools with it. It is 0 at setup and 1 once the game is over; it counts ``rounds_per_era`` rounds per
era, two eras (an introductory game: one), and a turn as ``1 / players`` of a round. While a
shortfall is paid after a round it reads the start of that round (the value the shipped model was
trained on), and only then may it go back.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from brass_stats.bots import play_game
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.search import SoftmaxLeaf
from brass_stats.engine import AS_PLAYED, apply_action, new_game
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog

REPLAYS = Path(__file__).parents[1] / "replays"
SHORTFALLS = ("generated/game-2012-00000.json", "generated/game-4014-00000.json", "lancashire/game-5003-00003.json")
GAMES = ("real/wq9gs6-2p.json", "lancashire/game-5004-00001.json", *SHORTFALLS)


def positions(log: GameLog) -> Iterator[GameState]:
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    yield state
    for a in log.actions:
        state, _ = apply_action(state, a, AS_PLAYED)
        yield state


def check_clock(log: GameLog, eras: int) -> list[GameState]:
    """0 at setup, 1 at the end, never back but in a shortfall (then: the start of its round)."""
    states = list(positions(log))
    assert states[0].progress() == 0.0
    assert states[-1].game_over and states[-1].progress() == 1.0
    per_era = states[0].rules.rounds_per_era[states[0].num_players]
    previous = 0.0
    for s in states[:-1]:
        p = s.progress()
        offset = per_era if s.era == "rail" else 0
        if s.phase == "shortfall":
            assert p == (offset + s.era_round - 1) / (eras * per_era) <= previous
            continue
        assert previous <= p < 1.0
        assert p == (offset + s.era_round - 1 + s.turn_pos / s.num_players) / (eras * per_era)
        previous = p
    return states


@pytest.mark.parametrize("name", GAMES)
def test_the_clock_runs_from_0_to_1_through_both_eras(name: str) -> None:
    states = check_clock(GameLog.load(REPLAYS / name), eras=2)
    first_rail = next(s for s in states if s.era == "rail")
    assert first_rail.progress() == 0.5  # the Rail Era starts half way
    assert any(s.phase == "shortfall" for s in states) == (name in SHORTFALLS)


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_an_introductory_game_reaches_1_at_the_end_of_its_only_era(edition: str) -> None:
    log = play_game([GreedyBot(), GreedyBot()], seed=7, edition=edition, options={"introductory": True})
    states = check_clock(log, eras=1)
    assert all(s.era == "canal" for s in states)
    live = [s for s in states if not s.game_over]
    per_era = states[0].rules.rounds_per_era[2]
    assert live[-1].era_round == per_era and live[-1].progress() == (per_era - 1 + 1 / 2) / per_era  # 0.95
    # the search's softmax leaf cools over the whole game: from 14 VP to nearly 3
    leaf = SoftmaxLeaf()
    assert leaf.temperature(states[0]) == 14.0
    assert leaf.temperature(live[-1]) == pytest.approx(14.0 - 11.0 * 0.95)
