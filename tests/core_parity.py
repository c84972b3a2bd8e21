"""The differential test of the compiled core against the reference engine, as functions.

A game is played on the reference engine by a chooser (random, greedy, exploring, search, ...);
at every position the core is handed the same position and must agree on everything:

* the position itself, read back from the core (every field of the reference state);
* the legal actions, in the same order;
* for every legal action (or a sample of them), the successor state, field by field.

``tests/test_core_parity.py`` runs a fixed sample of games; ``benchmarks/bench_core_parity.py`` runs
long campaigns with fresh seeds. Every disagreement is reported with the game, the action index and
the first field that differs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from brass_stats.engine import SeededChance, apply_action, new_game
from brass_stats.engine.actions import Action
from brass_stats.engine.compiled import action_to_json, actions_from_json, encode_state, to_core
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState
from brass_stats.rules_data import load_rules

Chooser = Callable[[GameState, Sequence[Action], random.Random], Action]


def random_chooser(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    return rng.choice(list(legal))


@dataclass
class Disagreement:
    """Where the core and the reference part ways."""

    game: str
    action_index: int
    what: str

    def __str__(self) -> str:
        return f"{self.game}, action {self.action_index}: {self.what}"


def first_difference(a: Any, b: Any, path: str = "state") -> str | None:
    """The path of the first place two JSON values differ (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k} present on one side only"
            found = first_difference(a[k], b[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items against {len(b)}: {a!r:.200} / {b!r:.200}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: reference {a!r:.200}, core {b!r:.200}"


def check_position(
    state: GameState, game: str, successors: int | None = None, rng: random.Random | None = None
) -> list[Disagreement]:
    """Every disagreement at one position (successors: how many legal actions to apply on both
    sides, None for all of them, sampled with ``rng``)."""
    out: list[Disagreement] = []
    index = state.action_count
    core = to_core(state)
    diff = first_difference(encode_state(state), json.loads(core.to_json()))
    if diff:
        return [Disagreement(game, index, f"the position read back differs at {diff}")]
    reference = legal_actions(state)
    # compared as the log format's JSON objects (a faithful codec: equal objects, equal actions), the
    # actions decoded only to say what differs
    if [a.to_json() for a in reference] != json.loads(core.legal_actions()):
        listed = actions_from_json(core.legal_actions())
        missing = [a for a in reference if a not in listed]
        extra = [a for a in listed if a not in reference]
        what = f"legal actions differ: {len(reference)} reference, {len(listed)} core"
        if missing:
            what += f"; missing in the core: {missing[:3]}"
        if extra:
            what += f"; only in the core: {extra[:3]}"
        if not missing and not extra:
            first = next(i for i, (a, b) in enumerate(zip(reference, listed, strict=True)) if a != b)
            what += f"; same actions, another order from #{first}: {reference[first]} / {listed[first]}"
        out.append(Disagreement(game, index, what))
    chosen = list(reference)
    if successors is not None and len(chosen) > successors:
        chosen = (rng or random.Random(index)).sample(chosen, successors)
    for a in chosen:
        after = apply_action(state, a)[0]
        try:
            core_after = core.apply_unchecked(action_to_json(a))
        except Exception as e:  # noqa: BLE001 - any refusal of a legal action is a disagreement
            out.append(Disagreement(game, index, f"the core refused {a}: {type(e).__name__}: {e}"))
            continue
        diff = first_difference(encode_state(after), json.loads(core_after.to_json()))
        if diff:
            out.append(Disagreement(game, index, f"after {a}: {diff}"))
    return out


def play_positions(
    edition: str, players: int, seed: int, chooser: Chooser = random_chooser, options: dict[str, Any] | None = None
) -> Iterator[GameState]:
    """Every position of one game played on the reference engine by ``chooser`` (the last one too)."""
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, SeededChance(seed), load_rules(edition), options or {})
    rng = random.Random(seed)
    while True:
        yield state
        if state.game_over:
            return
        legal = legal_actions(state)
        state = apply_action(state, chooser(state, legal, rng))[0]


def check_game(
    edition: str,
    players: int,
    seed: int,
    chooser: Chooser = random_chooser,
    options: dict[str, Any] | None = None,
    successors: int | None = 4,
) -> tuple[int, list[Disagreement]]:
    """(positions compared, disagreements) over one game."""
    game = f"{edition} {players}p seed {seed}" + (f" {options}" if options else "")
    found: list[Disagreement] = []
    count = 0
    rng = random.Random(seed)
    for state in play_positions(edition, players, seed, chooser, options):
        found.extend(check_position(state, game, successors, rng))
        count += 1
    return count, found
