"""Contracts of the search and the turn planner that a player relies on, on both paths (the compiled core
and the pure-Python reference, ``bot_path`` in tests/conftest.py), and in the core itself where it keeps
the same rule.

* Which action stands for a group of actions that differ only in their cards: the first, in the order
  given, of those that discard the least useful cards (greedy's card values); when every action is of one
  group, the first one given.
* The search's guards: nothing to search (no legal action, a finished game) and a leaf temperature that is
  not positive are refused with a clear error, before anything is drawn from the caller's generator.
* The turn planner plans a second action only for its own mover: never once the game is over, never for
  the player who moves next.

Expectations come from the card values, the rules (which action ends the game, who moves next) and the
greedy evaluation of the positions the actions lead to, computed here.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest
from helpers import dead_end

import brass_stats as bs
from brass_stats.bots.compiled import core_rank
from brass_stats.bots.greedy import DEFAULT_WEIGHTS, GreedyBot, board_key, card_values, evaluate

# rank is not exported by brass_stats.bots.search: module-level import, to fix if candidates.py moves
from brass_stats.bots.search import SearchBot, SoftmaxLeaf
from brass_stats.bots.search.candidates import rank
from brass_stats.bots.specs import make_bot
from brass_stats.bots.turn_planner import CANDIDATES, TurnPlanner
from brass_stats.engine.actions import Action, Build, Pass
from brass_stats.engine.compiled import enabled as core_enabled
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState
from brass_stats.engine.turn import apply_action

pytestmark = pytest.mark.usefixtures("bot_path")


def states_of(path: str) -> list[GameState]:
    r = bs.replay(bs.load(bs.SAMPLES / path))
    return [r.state_at(i) for i in range(-1, len(r.steps))]


@pytest.fixture(scope="module")
def birmingham() -> list[GameState]:
    return states_of("generated/game-2002-00000.json")


def discarded_value(action: Action, values: dict[str, float]) -> float:
    """The greedy card values of the cards an action discards."""
    return sum(values[c] for c in action.cards)


def representatives(state: GameState, legal: Sequence[Action]) -> dict[object, Action]:
    """Each group's documented representative: the first action given of those discarding the least value."""
    seat = state.current_player
    assert seat is not None
    values = card_values(state, seat)
    groups: dict[object, list[Action]] = {}
    for a in legal:
        groups.setdefault(board_key(a), []).append(a)
    out = {}
    for key, group in groups.items():
        least = min(discarded_value(a, values) for a in group)
        out[key] = next(a for a in group if discarded_value(a, values) == least)
    return out


def tied_groups(state: GameState, legal: Sequence[Action]) -> int:
    """Groups where several actions discard the least value (where the choice among them shows)."""
    seat = state.current_player
    assert seat is not None
    values = card_values(state, seat)
    groups: dict[object, list[float]] = {}
    for a in legal:
        groups.setdefault(board_key(a), []).append(discarded_value(a, values))
    return sum(1 for costs in groups.values() if costs.count(min(costs)) > 1)


# -- which action stands for a group ---------------------------------------------------------------------


@pytest.mark.parametrize("index", [0, 19])
@pytest.mark.parametrize("order", ["engine", "reversed"])
def test_a_group_is_represented_by_the_first_given_of_its_cheapest_discards(
    index: int, order: str, birmingham: list[GameState]
) -> None:
    """The search's candidates (its root actions) and the ranking, in Python and in the core: one action
    per group, the first in the order given of those discarding the cards greedy values least."""
    state = birmingham[index + 1]  # the position after action ``index``
    legal = legal_actions(state)
    if order == "reversed":
        legal = legal[::-1]
    assert tied_groups(state, legal) >= 5  # cards of equal value: the order given decides
    expected = representatives(state, legal)
    ranked = rank(state, legal, GreedyBot())
    assert len(ranked) >= 10
    for c in ranked:
        assert c.action == expected[board_key(c.action)]
    result = SearchBot(simulations=6).analyse(state, legal, random.Random(4))
    for s in result.actions:
        assert s.action == expected[board_key(s.action)]
    assert {board_key(s.action) for s in result.actions} == {board_key(c.action) for c in ranked}
    found = core_rank(state, dataclasses.asdict(DEFAULT_WEIGHTS), legal)
    assert found is not None  # the core models this position
    assert [a for a, _ in found] == [c.action for c in ranked]


def test_actions_all_of_one_group_are_represented_by_the_first_given(birmingham: list[GameState]) -> None:
    """Every action given discards a different card for the same board (Passes): the first one stands
    for them, even when it discards the card greedy values most (no ranking is needed to play it)."""
    state = birmingham[1]
    seat = state.current_player
    assert seat is not None
    values = card_values(state, seat)
    passes = sorted((a for a in legal_actions(state) if isinstance(a, Pass)), key=lambda a: -values[a.card])
    assert len(passes) > 2 and values[passes[0].card] > values[passes[-1].card]
    assert rank(state, passes, GreedyBot())[0].action == passes[0]
    result = SearchBot(simulations=3).analyse(state, passes, random.Random(1))
    assert [s.action for s in result.actions] == [passes[0]]
    found = core_rank(state, dataclasses.asdict(DEFAULT_WEIGHTS), passes)
    assert found is not None and [a for a, _ in found] == [passes[0]]


# -- the search's guards ---------------------------------------------------------------------------------


def test_a_search_given_no_legal_action_is_refused_and_draws_nothing(birmingham: list[GameState]) -> None:
    state = birmingham[11]
    rng = random.Random(7)
    before = rng.getstate()
    with pytest.raises(ValueError, match="no legal action to search"):
        SearchBot(simulations=3).analyse(state, [], rng)
    assert rng.getstate() == before  # refused before anything is drawn
    with pytest.raises(ValueError, match="no legal action to search"):
        SearchBot(simulations=3).choose(state, [], rng)


def test_a_search_where_the_engine_lists_no_legal_action_is_refused(birmingham: list[GameState]) -> None:
    """A position edited into a dead end (the mover holds no card): a clear refusal, not a crash in the tree."""
    state = dead_end(birmingham[11])
    with pytest.raises(ValueError, match="no legal action to search"):
        SearchBot(simulations=3).analyse(state, None, random.Random(1))


def test_a_search_of_a_finished_game_is_refused(birmingham: list[GameState]) -> None:
    assert birmingham[-1].game_over
    with pytest.raises(ValueError, match="the game is over"):
        SearchBot(simulations=3).analyse(birmingham[-1], None, random.Random(1))


@pytest.mark.parametrize(
    "knobs",
    [
        {"temperature": 0.0},
        {"temperature": -2.0},
        {"start": 0.0},
        {"end": 0.0},
        {"start": 14.0, "end": -1.0},
        {"start": -3.0, "end": 3.0},
    ],
)
def test_a_leaf_temperature_that_is_not_positive_is_refused(knobs: dict[str, Any]) -> None:
    """The softmax leaf divides by its temperature: zero or below, from its start to its end, is refused."""
    with pytest.raises(ValueError, match="the temperature must be positive"):
        SoftmaxLeaf(**knobs)


@pytest.mark.parametrize("spec", ["mcts:temp=0", "mcts:temp=-1", "mcts:leaf=vp:temp=0"])
def test_a_bot_spec_with_a_temperature_that_is_not_positive_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="temperature must be positive"):
        make_bot(spec)


def test_a_positive_temperature_is_accepted_and_searched(birmingham: list[GameState]) -> None:
    """The other side of the guard: a small positive temperature, constant or falling, is a working leaf."""
    state = birmingham[11]
    for leaf in (SoftmaxLeaf(temperature=0.5), SoftmaxLeaf(start=1.0, end=0.25)):
        result = SearchBot(simulations=4, leaf=leaf).analyse(state, None, random.Random(2))
        assert result.simulations == 4 and sum(result.value) == pytest.approx(1.0)


# -- the turn planner's second action ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def lancashire_games() -> dict[str, list[GameState]]:
    return {name: states_of(f"lancashire/{name}.json") for name in ("game-5002-00001",)}


def double_builds(state: GameState) -> list[Action]:
    """Lancashire's double-action builds: one build that takes both actions of a turn (two cards)."""
    return [a for a in legal_actions(state) if isinstance(a, Build) and a.second_card is not None]


class SecondActions:
    """The planner's greedy bot, recording the positions it is asked to move in (the Python path's second
    actions; on the core path the core plans, and nothing is recorded)."""

    def __init__(self, planner: TurnPlanner) -> None:
        self.asked: list[GameState] = []
        choose = planner.greedy.choose

        def spy(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
            self.asked.append(state)
            return choose(state, legal, rng)

        greedy: Any = planner.greedy  # its choose replaced on this instance only
        greedy.choose = spy


def planned(state: GameState, legal: Sequence[Action], plan_second: bool) -> Action:
    """The documented choice with two actions left: greedy's best CANDIDATES first actions, each valued by
    the greedy evaluation after it (and, with ``plan_second``, after greedy's reply in the next position
    whoever moves there: what the planner must NOT do when another player moves next)."""
    seat = state.current_player
    assert seat is not None
    greedy = GreedyBot()
    best, best_value = None, float("-inf")
    for c in rank(state, legal, greedy)[:CANDIDATES]:
        after = apply_action(state, c.action)[0]
        if plan_second and not after.game_over:
            after = apply_action(after, greedy.choose(after, legal_actions(after), random.Random(0)))[0]
        value = evaluate(after, seat, greedy.weights)
        if value > best_value + 1e-9:
            best, best_value = c.action, value
    assert best is not None
    return best


def test_the_planner_plans_no_second_action_for_the_player_who_moves_next(
    lancashire_games: dict[str, list[GameState]],
) -> None:
    """A double-action build with both actions left ends the mover's turn: the next position is another
    player's, so the build is valued by the position it leaves, not by that player's reply."""
    state = lancashire_games["game-5002-00001"][63]  # after action 62: a 2-player Lancashire turn begins
    seat = state.current_player
    assert state.phase == "actions" and state.actions_this_turn == 0 and state.actions_per_turn() == 2
    builds = double_builds(state)
    assert len(builds) > CANDIDATES
    for a in builds:
        after = apply_action(state, a)[0]
        assert not after.game_over and after.current_player != seat
    expected = planned(state, builds, plan_second=False)
    # the premise: valuing the opponent's reply too would choose another build here
    assert planned(state, builds, plan_second=True) != expected
    planner = TurnPlanner()
    spy = SecondActions(planner)
    assert planner.choose(state, builds, random.Random(3)) == expected
    assert spy.asked == []  # no second action is chosen at all (every first action ends the turn)


def test_the_planner_plans_no_second_action_once_the_game_is_over(
    lancashire_games: dict[str, list[GameState]],
) -> None:
    """The last turn of the game, both actions left: a double-action build ends the game, and is valued
    by the finished game (there is no second action to plan); the other first actions get greedy's second."""
    state = lancashire_games["game-5002-00001"][65]  # after action 64: the game's last turn begins
    seat = state.current_player
    assert state.phase == "actions" and state.actions_this_turn == 0 and state.actions_per_turn() == 2
    builds = double_builds(state)
    assert builds and all(apply_action(state, a)[0].game_over for a in builds)
    expected = planned(state, builds, plan_second=False)
    planner = TurnPlanner()
    spy = SecondActions(planner)
    assert planner.choose(state, builds, random.Random(3)) == expected
    assert spy.asked == []
    # with every legal action given, the second actions planned are all the mover's, in the game's last turn
    legal = legal_actions(state)
    assert len(legal) > len(builds)
    chosen = planner.choose(state, legal, random.Random(3))
    assert chosen in legal
    assert all(not s.game_over and s.current_player == seat for s in spy.asked)
    if not core_enabled():
        assert spy.asked  # the Python path planned the single actions' second actions


def test_a_search_result_is_an_immutable_value(birmingham: list[GameState]) -> None:
    """What a search found cannot be changed after the fact (a review stores and compares it): the result
    and each root action's statistics refuse assignment and hash as the values they are."""
    result = SearchBot(simulations=8).analyse(birmingham[11], None, random.Random(3))
    stats = result.actions[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.best = stats.action  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.visits += 1  # type: ignore[misc]
    assert hash(stats) == hash(dataclasses.replace(stats)) and hash(result) == hash(dataclasses.replace(result))
