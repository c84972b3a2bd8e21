"""The fast ``legal_actions`` equals, action for action and in the same order, the slow enumeration
that tries every candidate through the engine (``tests/reference_legal.py``, the previous code).

Positions: sample games of both editions, RandomBot games (shortfalls, scouts, odd hands), and
positions of those games perturbed at random where the fast code takes shortcuts: money at the
boundaries, empty or full coal and iron markets, mines, works and breweries run dry, few link tiles.
Self-play corpora are pinned byte for byte elsewhere (``test_selfplay_corpora.py``); this test says
which position and which actions differ when they would not be.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import reference_legal

from brass_stats.bots import RandomBot, play_game
from brass_stats.engine import apply_action, new_game
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog

REPLAYS = Path(__file__).parents[1] / "replays"
SAMPLES = sorted(REPLAYS.rglob("*.json"))


def positions(log: GameLog, every: int, offset: int = 0) -> Iterator[GameState]:
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    for i, action in enumerate(log.actions):
        if i % every == offset % every:
            yield state
        state, _ = apply_action(state, action, AS_PLAYED)  # gm7vza broke the link-tile limit (D1)


def differences(state: GameState) -> str | None:
    fast, slow = legal_actions(state), reference_legal.legal_actions(state)
    if fast == slow:
        return None
    f, s = set(fast), set(slow)

    def show(xs: set[Action]) -> list[str]:
        return sorted(repr(a) for a in xs)[:5]

    where = f"{state!r}"
    if f == s:
        return f"{where}: same actions in another order"
    return f"{where}: only fast {show(f - s)}; only slow {show(s - f)}"


def perturbed(state: GameState, rng: random.Random) -> GameState:
    """A copy with resources, markets, money and link tiles changed at random (tiles are copied first:
    they are shared between states)."""
    g = state.copy()
    for ref, t in list(g.tiles.items()):
        if t.industry in ("coal_mine", "iron_works", "brewery") and not t.flipped and rng.random() < 0.5:
            t = g.tiles[ref] = t.copy()
            t.resources = rng.choice([0, 1, 1, 2])
    g.coal_market = rng.choice([0, 0, 1, g.coal_market, g.rules.markets["coal"].capacity])
    g.iron_market = rng.choice([0, 0, 1, g.iron_market, g.rules.markets["iron"].capacity])
    for p in g.players:
        p.money = rng.choice([0, 3, 5, 8, 12, 15, 16, 17, 20, 25, p.money])
        p.link_tiles = rng.choice([0, 1, 2, p.link_tiles, p.link_tiles])
    g.merchant_spaces = [ms.with_beer(rng.random() < 0.5) if ms.accepts else ms for ms in g.merchant_spaces]
    g.touch_board()
    return g


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_equals_the_engine_trials_on_sample_games(path: Path) -> None:
    log = GameLog.load(path)
    bad = [d for s in positions(log, every=4, offset=len(path.stem)) if (d := differences(s))]
    assert bad == []


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_equals_the_engine_trials_on_random_games(edition: str) -> None:
    bad: list[str] = []
    for players, seed in ((2, 41), (3, 42), (4, 43)):
        log = play_game([RandomBot()] * players, seed, edition=edition)
        bad.extend(d for s in positions(log, every=3) if (d := differences(s)))
    assert bad == []


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_equals_the_engine_trials_on_perturbed_positions(edition: str) -> None:
    rng = random.Random(edition)
    paths = [p for p in SAMPLES if (p.parent.name == "lancashire") == (edition == "lancashire")]
    bad: list[str] = []
    checked = 0
    for path in paths:
        for state in positions(GameLog.load(path), every=9, offset=rng.randrange(9)):
            if state.phase != "actions":
                continue
            for _ in range(2):
                checked += 1
                if d := differences(perturbed(state, rng)):
                    bad.append(d)
    assert checked > 200 and bad == []
