"""The compiled core's greedy bot against the reference (``brass_stats.bots.greedy``), exactly.

* The evaluation: on every position of played games (both editions, 2 to 4 players, random and
  greedy players, and replayed sample games), for every seat, the core's ``explain`` terms,
  ``evaluate``, ``resource_demand`` and ``card_values`` are the reference's floats bit for bit
  (compared as ``float.hex``: ``-0.0`` is not ``0.0`` here), with the default weights and with
  weights that are not whole numbers (opponents weighted too).
* The decision: on positions of played games, the core's groups of actions and the value of the
  board each leads to are the reference's (``board_values``, bit for bit), its tied best actions
  are the list the reference's ``GreedyBot.choose`` draws from, in its order, and the action
  picked with a ``random.Random`` seeded alike is the reference's.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from core_parity import play_positions, random_chooser
from helpers import sampled_states

from brass_stats.bots.greedy import (
    DEFAULT_WEIGHTS,
    Evaluator,
    GreedyBot,
    Weights,
    board_values,
    cap_sells,
    card_values,
    evaluate,
    explain,
    group_by_board,
    resource_demand,
)
from brass_stats.engine import SeededChance, compiled
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built")

REPLAYS = Path(__file__).parents[1] / "replays"
SAMPLE_GAMES = (
    "generated/game-3003-00001.json",
    "lancashire/game-5004-00001.json",
    "real/gm7vza-4p.json",
)
# every term weighted by something that is not a whole number, opponents included
ODD_WEIGHTS = Weights(
    money=0.37,
    money_hoard=0.13,
    spend_per_action=9.3,
    near_actions=3.7,
    income=1.11,
    discount=0.913,
    carry=1.3,
    p_sell_ready=0.87,
    p_sell_connected=0.66,
    p_sell_unconnected=0.31,
    p_cube_canal=0.47,
    p_cube_rail=0.93,
    isolated_coal=0.71,
    income_delay=0.53,
    shortfall=1.43,
    risk=1.07,
    risk_rounds=3,
    negative_income=0.27,
    crowding=0.61,
    demand_ref=0.57,
    demand_prior=5.3,
    demand_min=0.31,
    p_rail_later=0.79,
    link_growth=0.37,
    reach=0.29,
    develop=1.7,
    hand=0.33,
    opponents=0.4,
    sell_cap=3,  # the cap on Sell groups bites often
)
WEIGHTS = (DEFAULT_WEIGHTS, ODD_WEIGHTS)


@pytest.fixture(autouse=True)
def _reference_on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference runs on the pure-Python path (else a bot may hand its decision to the core)."""
    monkeypatch.setenv(compiled.SWITCH, "python")


GAMES = [(edition, players) for edition in ("birmingham", "lancashire") for players in (2, 3, 4)]


def _json(w: Weights) -> str:
    return json.dumps(dataclasses.asdict(w))


def _hex(terms: dict[str, float]) -> list[tuple[str, str]]:
    return [(k, float.hex(v)) for k, v in terms.items()]


def _greedy_chooser(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    return GreedyBot().choose(state, legal, rng)


def _positions(edition: str, players: int, seed: int) -> Iterator[GameState]:
    """A game by random players, then one by greedy players (whose boards fill up)."""
    yield from play_positions(edition, players, seed, random_chooser)
    yield from play_positions(edition, players, seed + 1, _greedy_chooser)


def _evaluation_disagreements(state: GameState) -> list[str]:
    """Every place the core's evaluation of ``state`` differs from the reference's (as hex floats)."""
    core = compiled.to_core(state)
    out = []
    where = f"action {state.action_count}"
    for w in WEIGHTS:
        wj = _json(w)
        demand = resource_demand(state, w)
        if float.hex(compiled.core_module().resource_demand(core, wj)) != float.hex(demand):
            out.append(f"{where}: resource_demand")
        for seat in range(state.num_players):
            for hand in (True, False):
                ref = _hex(explain(state, seat, w, hand))
                got = _hex(compiled.core_module().greedy_explain(core, seat, wj, hand))
                if ref != got:
                    out.append(f"{where} seat {seat} hand {hand}: explain {ref} / core {got}")
                ref_v = float.hex(evaluate(state, seat, w, hand, demand))
                got_v = float.hex(compiled.core_module().greedy_evaluate(core, seat, wj, hand, demand))
                if ref_v != got_v:
                    out.append(f"{where} seat {seat} hand {hand}: evaluate {ref_v} / core {got_v}")
    for seat in range(state.num_players):
        ref_c = {c: float.hex(v) for c, v in card_values(state, seat).items()}
        got_c = {c: float.hex(v) for c, v in compiled.core_module().card_values(core, seat).items()}
        if ref_c != got_c:
            out.append(f"{where} seat {seat}: card_values {ref_c} / core {got_c}")
    return out


@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_evaluation_is_the_references_float_on_every_position(edition: str, players: int) -> None:
    positions = 0
    found: list[str] = []
    for state in _positions(edition, players, 100 * players):
        found.extend(_evaluation_disagreements(state))
        positions += 1
    assert positions > 100
    assert not found, f"{len(found)} disagreements over {positions} positions:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("name", SAMPLE_GAMES)
def test_evaluation_is_the_references_float_on_replayed_games(name: str) -> None:
    positions = 0
    found: list[str] = []
    for state in sampled_states(REPLAYS / name, every=1, final=True):
        found.extend(_evaluation_disagreements(state))
        positions += 1
    assert positions > 50
    assert not found, f"{len(found)} disagreements over {positions} positions:\n" + "\n".join(found[:10])


def test_default_weights_are_the_references() -> None:
    """The core's defaults are the reference's; it reads every field of the weights, and refuses unknown ones."""
    assert json.loads(compiled.core_module().greedy_default_weights()) == dataclasses.asdict(DEFAULT_WEIGHTS)
    g = next(play_positions("birmingham", 2, 1))
    core = compiled.to_core(g)
    assert compiled.core_module().greedy_evaluate(core, 0, _json(DEFAULT_WEIGHTS)) == evaluate(g, 0)
    with pytest.raises(ValueError, match="weights"):
        compiled.core_module().greedy_evaluate(core, 0, json.dumps({**dataclasses.asdict(DEFAULT_WEIGHTS), "x": 1}))
    with pytest.raises(ValueError, match="seat"):
        compiled.core_module().greedy_explain(core, 2, _json(DEFAULT_WEIGHTS))


# -- the decision ----------------------------------------------------------------------------------


class _Recorder(random.Random):
    """A ``random.Random`` that remembers the list it last drew a choice from (the reference's ties)."""

    drawn_from: list[Any] | None = None

    def choice(self, seq: Sequence[Any]) -> Any:
        self.drawn_from = list(seq)
        return super().choice(seq)


def _decision_disagreements(state: GameState, bots: Sequence[GreedyBot]) -> list[str]:
    """Where the core's greedy decision at ``state`` differs from the reference's, for each bot's weights:
    the groups and the board value of each (bit for bit, the reference's Develop and Network shortcuts
    included), the tied list the reference draws from (or its one action), and the action drawn with
    a seeded generator."""
    out = []
    core = compiled.to_core(state)
    legal = legal_actions(state)
    for bot in bots:
        w = bot.weights
        groups = cap_sells(state, group_by_board(legal), w.sell_cap)
        values = board_values(state, state.current_player, groups.values(), Evaluator(state, w))
        text, got_values = compiled.core_module().greedy_board_values(core, _json(w))
        firsts = compiled.actions_from_json(text)
        if firsts != [g[0] for g in groups.values()]:
            out.append(f"action {state.action_count}: the groups differ")
        elif [float.hex(v) for v in values] != [float.hex(v) for v in got_values]:
            i = next(i for i, (a, b) in enumerate(zip(values, got_values, strict=True)) if float.hex(a) != float.hex(b))
            out.append(
                f"action {state.action_count}: board value of {firsts[i]}: {values[i]!r} / core {got_values[i]!r}"
            )
        seed = state.action_count
        rng = _Recorder(seed)
        chosen = bot.choose(state, legal, rng)
        tied = rng.drawn_from if rng.drawn_from is not None else [chosen]
        got = compiled.actions_from_json(compiled.core_module().greedy_choose(core, _json(bot.weights)))
        picked = got[0] if len(got) == 1 else random.Random(seed).choice(got)
        if got != tied or picked != chosen:
            out.append(
                f"action {state.action_count}: reference {chosen} of {len(tied)} tied, core {picked} of {len(got)}"
            )
    return out


@pytest.mark.parametrize(("edition", "players"), GAMES)
def test_decision_is_the_references_on_every_position(edition: str, players: int) -> None:
    bots = (GreedyBot(DEFAULT_WEIGHTS), GreedyBot(ODD_WEIGHTS))
    positions = 0
    found: list[str] = []
    for seed in (1000 + 100 * players, 2000 + 100 * players):
        for state in _positions(edition, players, seed):
            if state.game_over:
                continue
            found.extend(_decision_disagreements(state, bots))
            positions += 1
    assert positions > 250
    assert not found, f"{len(found)} disagreements over {positions} positions:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("name", SAMPLE_GAMES)
def test_decision_is_the_references_on_replayed_games(name: str) -> None:
    bots = (GreedyBot(DEFAULT_WEIGHTS), GreedyBot(ODD_WEIGHTS))
    positions = 0
    found: list[str] = []
    unsupported = 0
    for state in sampled_states(REPLAYS / name, every=1):
        try:
            found.extend(_decision_disagreements(state, bots))
        except compiled.core_module().CoreUnsupported:
            # a written-out deal: the core cannot deal the Rail Era an era-ending action reaches
            assert not isinstance(state.chance, SeededChance)
            unsupported += 1
            continue
        positions += 1
    assert positions > 50
    assert unsupported <= 4  # the last actions of the Canal Era at most
    assert not found, f"{len(found)} disagreements over {positions} positions:\n" + "\n".join(found[:10])
