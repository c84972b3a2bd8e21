"""The compiled core's legal actions (``core/src/legal/``) against the reference
(``brass_stats.engine.legal.legal_actions``): the same actions, in the same order.

* Played games: both editions, 2 to 4 players, the options (introductory, virtual link, classic
  deck), random and greedy players: every position.
* Positions perturbed where the enumeration takes shortcuts (money at the boundaries, markets empty
  or full, mines, works and breweries run dry, few link tiles, merchant barrels), from sample games.
* Shortfall payments: positions put into the shortfall phase with debts small and large.
* Perft: along fixed game lines, the number of legal actions at every position, and at some
  positions the number at each successor (depth 2), each side walking its own tree (the core
  applies the actions it lists itself); both counts are computed, never written down.

The speed of both sides on the same positions: ``benchmarks/bench_core.py --only legal``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from core_parity import play_positions, random_chooser
from helpers import sampled_states
from test_legal_reference import perturbed

from brass_stats.bots.greedy import GreedyBot
from brass_stats.engine import apply_action, compiled
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built")

REPLAYS = Path(__file__).parents[1] / "replays"


def core_legal(state: GameState) -> list[Action]:
    return compiled.actions_from_json(compiled.to_core(state).legal_actions())


def difference(state: GameState, where: str) -> str | None:
    """Where the core's list differs from the reference's (None: the same, in the same order)."""
    reference, core = legal_actions(state), core_legal(state)
    if core == reference:
        return None
    missing = [a for a in reference if a not in core]
    extra = [a for a in core if a not in reference]
    what = f"{where} (action {state.action_count}): {len(reference)} reference, {len(core)} core"
    if missing or extra:
        return f"{what}; missing in the core {missing[:2]}; only in the core {extra[:2]}"
    first = next(i for i, (a, b) in enumerate(zip(reference, core, strict=True)) if a != b)
    return f"{what}; another order from #{first}: {reference[first]} / {core[first]}"


def greedy_chooser(state: GameState, legal: Any, rng: random.Random) -> Action:
    return GreedyBot().choose(state, legal, rng)


GAMES = [
    ("birmingham", 2, 1, {}),
    ("birmingham", 3, 2, {}),
    ("birmingham", 4, 3, {}),
    ("birmingham", 3, 4, {"introductory": True}),
    ("lancashire", 2, 1, {}),
    ("lancashire", 3, 2, {"virtual_link": True}),
    ("lancashire", 4, 3, {"classic_deck": True}),
    ("lancashire", 4, 4, {}),
]


@pytest.mark.parametrize(("edition", "players", "seed", "options"), GAMES, ids=str)
def test_same_legal_actions_in_random_games(edition: str, players: int, seed: int, options: dict[str, Any]) -> None:
    where = f"{edition} {players}p seed {seed} {options}"
    bad = [d for s in play_positions(edition, players, seed, random_chooser, options) if (d := difference(s, where))]
    assert bad == []


@pytest.mark.parametrize(("edition", "players", "seed"), [("birmingham", 3, 7), ("lancashire", 2, 7)], ids=str)
def test_same_legal_actions_in_greedy_games(edition: str, players: int, seed: int) -> None:
    where = f"greedy {edition} {players}p seed {seed}"
    bad = [d for s in play_positions(edition, players, seed, greedy_chooser) if (d := difference(s, where))]
    assert bad == []


@pytest.mark.parametrize("game", ["generated/game-3003-00001.json", "lancashire/game-5004-00001.json"])
def test_same_legal_actions_on_perturbed_positions(game: str) -> None:
    rng = random.Random(game)
    bad: list[str] = []
    checked = 0
    for state in sampled_states(REPLAYS / game, every=3):
        if state.phase != "actions":
            continue
        for _ in range(3):
            checked += 1
            if d := difference(perturbed(state, rng), f"{game} perturbed"):
                bad.append(d)
    assert checked > 100 and bad == []


def shortfall_positions(game: str) -> Iterator[GameState]:
    """Positions of a sample game put into the shortfall phase of the seat with the most tiles."""
    for state in sampled_states(REPLAYS / game, every=6):
        if state.phase != "actions":
            continue
        owned = [sum(t.owner == i for t in state.tiles.values()) for i in range(len(state.players))]
        seat = owned.index(max(owned))
        for owed in (1, 4, 9, 17, 30, 60, 500):
            g = state.copy()
            g.phase, g.shortfalls = "shortfall", [(seat, owed)]
            yield g


@pytest.mark.parametrize("game", ["real/gm7vza-4p.json", "lancashire/game-5004-00001.json"])
def test_same_shortfall_payments(game: str) -> None:
    bad: list[str] = []
    payments = 0
    for state in shortfall_positions(game):
        payments += len(legal_actions(state))
        if d := difference(state, f"{game} shortfall {state.shortfalls}"):
            bad.append(d)
    assert payments > 400 and bad == []


# -- perft ---------------------------------------------------------------------------------------


def reference_counts(state: GameState) -> list[int]:
    """For each legal action of the reference, the number of legal actions after it."""
    return [len(legal_actions(apply_action(state, a)[0])) for a in legal_actions(state)]


def core_counts(state: GameState) -> list[int]:
    """The same on the core alone: its own actions, applied by its own engine."""
    core = compiled.to_core(state)
    return [core.apply_unchecked(json.dumps(a)).legal_count() for a in json.loads(core.legal_actions())]


# greedy lines (random players go broke and pass); the deep positions have sales, double rail links
# and double-action builds to follow
LINES = [
    ("birmingham", 2, 21, (26, 49, 73)),
    ("birmingham", 4, 22, (60, 116)),
    ("lancashire", 3, 23, (13, 33, 85)),
    ("lancashire", 4, 24, (89,)),
]


@pytest.mark.parametrize(("edition", "players", "seed", "deep"), LINES, ids=str)
def test_perft_along_game_lines(edition: str, players: int, seed: int, deep: tuple[int, ...]) -> None:
    """Depth 1 at every position of a greedy game line, depth 2 at the positions ``deep`` (action counts)."""
    ref_line: list[int] = []
    core_line: list[int] = []
    successors = 0
    for state in play_positions(edition, players, seed, greedy_chooser):
        ref_line.append(len(legal_actions(state)))
        core_line.append(compiled.to_core(state).legal_count())
        if state.action_count in deep:
            ref, core = reference_counts(state), core_counts(state)
            assert core == ref, f"depth 2 at action {state.action_count}: {sum(core)} core, {sum(ref)} reference"
            successors += sum(ref)
    assert core_line == ref_line
    assert len(ref_line) > 50 and successors > 10_000
