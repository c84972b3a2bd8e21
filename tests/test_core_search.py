"""The search on the compiled core chooses what the reference's search chooses (core/src/search/).

Same position, same seed, same budget: the same result on both paths, root action for root action
(the actions, their visits, their mean values per seat, their greedy scores and ranks), the same
choice and the same root value; for every leaf the search can run in the core (the greedy softmax,
the learned VP's softmax, the win model, expected VP, the review's stake), both editions, 2-4
players, forced actions, rollouts and a time budget's bookkeeping."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import brass_stats as bs
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.search import SearchBot, SearchResult, SoftmaxLeaf
from brass_stats.bots.search.evaluation import StakeLeaf, WinLeaf, leaf_spec
from brass_stats.bots.value import default_final_vp_model, default_model
from brass_stats.engine import SeededChance, apply_action, new_game
from brass_stats.engine.compiled import SWITCH
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState
from brass_stats.rules_data import load_rules


@contextmanager
def python_path() -> Iterator[None]:
    """Everything inside runs on the pure-Python reference."""
    mp = pytest.MonkeyPatch()
    mp.setenv(SWITCH, "python")
    try:
        yield
    finally:
        mp.undo()


def greedy_positions(edition: str, players: int, seed: int, every: int) -> list[GameState]:
    """Every ``every``-th position of a greedy game (played on the reference)."""
    state = new_game([f"p{i}" for i in range(players)], SeededChance(seed), load_rules(edition))
    rng = random.Random(seed)
    out = []
    with python_path():
        while not state.game_over:
            if state.action_count % every == 0:
                out.append(state)
            state = apply_action(state, GreedyBot().choose(state, legal_actions(state), rng))[0]
    return out


def as_data(r: SearchResult) -> tuple[object, ...]:
    return (
        r.seat,
        r.best,
        [(s.action, s.visits, s.value, s.score, s.rank) for s in r.actions],
        r.simulations,
        r.value,
        r.recovered,
    )


def both(bot: SearchBot, state: GameState, seed: int, **kw: object) -> tuple[SearchResult, SearchResult]:
    core = bot.analyse(state, rng=random.Random(seed), **kw)  # type: ignore[arg-type]
    with python_path():
        reference = bot.analyse(state, rng=random.Random(seed), **kw)  # type: ignore[arg-type]
    return core, reference


POSITIONS = [
    pytest.param(edition, players, id=f"{edition}-{players}p")
    for edition in ("birmingham", "lancashire")
    for players in (2, 3, 4)
]


@pytest.mark.parametrize(("edition", "players"), POSITIONS)
def test_the_default_search_gives_the_reference_result_through_a_game(edition: str, players: int) -> None:
    bot = SearchBot(simulations=24)
    for i, state in enumerate(greedy_positions(edition, players, 5, 13)):
        core, reference = both(bot, state, 100 + i)
        assert as_data(core) == as_data(reference), f"position {state.action_count}"


LEAVES = {
    "softmax-vp": lambda: SoftmaxLeaf(estimates=default_final_vp_model().predict),
    "win": lambda: WinLeaf(default_model()),
    "win-predict": lambda: default_model().predict,
    "final-vp": lambda: default_final_vp_model().predict,
    "stake": lambda: StakeLeaf(default_final_vp_model(), default_model(), 50.0),
    "constant-temperature": lambda: SoftmaxLeaf(temperature=6.0),
}


@pytest.mark.parametrize("leaf", list(LEAVES))
def test_every_leaf_the_core_runs_gives_the_reference_result(leaf: str) -> None:
    bot = SearchBot(simulations=16, leaf=LEAVES[leaf]())
    assert bot.core_spec() is not None  # the core runs it
    for edition, players in (("birmingham", 4), ("lancashire", 3)):
        for i, state in enumerate(greedy_positions(edition, players, 9, 29)):
            core, reference = both(bot, state, i)
            assert as_data(core) == as_data(reference), f"{edition} position {state.action_count}"


def test_knobs_rollouts_and_forced_actions_give_the_reference_result() -> None:
    state = greedy_positions("birmingham", 3, 2, 40)[1]
    legal = legal_actions(state)
    for knobs in ({"c_ucb": 0.7, "pw_c": 2.0, "pw_alpha": 0.3}, {"rollout_depth": 3}, {"max_depth": 2}):
        bot = SearchBot(simulations=20, **knobs)  # type: ignore[arg-type]
        core, reference = both(bot, state, 7)
        assert as_data(core) == as_data(reference), knobs
    # forced: the worst-ranked actions join the root, as a review forces the action played
    bot = SearchBot(simulations=20)
    force = [legal[-1], legal[len(legal) // 2]]
    core, reference = both(bot, state, 3, force=force)
    assert as_data(core) == as_data(reference)
    assert {s.action for s in core.actions} >= set(force)


def test_a_callers_own_list_of_legal_actions_is_searched_as_given() -> None:
    state = greedy_positions("birmingham", 2, 4, 30)[1]
    subset = [a for a in legal_actions(state) if a.TYPE != "build"]
    bot = SearchBot(simulations=20)
    core, reference = both(bot, state, 5, legal_actions=subset)
    assert as_data(core) == as_data(reference)
    assert all(s.action in subset for s in core.actions)


def test_a_leaf_the_core_cannot_run_keeps_the_search_in_python() -> None:
    def leaf(state: GameState) -> tuple[float, ...]:
        return tuple(1.0 / state.num_players for _ in state.players)

    bot = SearchBot(simulations=8, leaf=leaf)
    assert leaf_spec(leaf) is None and bot.core_spec() is None
    state = greedy_positions("birmingham", 2, 1, 50)[0]
    core, reference = both(bot, state, 1)  # both on the Python path: the same search
    assert as_data(core) == as_data(reference)


def test_a_softmax_leaf_on_other_weights_than_the_ranking_stays_in_python() -> None:
    from dataclasses import replace

    from brass_stats.bots.greedy import DEFAULT_WEIGHTS

    other = GreedyBot(replace(DEFAULT_WEIGHTS, hand=0.4))
    bot = SearchBot(simulations=8, leaf=SoftmaxLeaf(greedy=other))
    assert bot.core_spec() is None


def test_a_time_budget_runs_in_the_core_and_reports_its_simulations() -> None:
    state = greedy_positions("birmingham", 4, 3, 40)[1]
    result = SearchBot(simulations=None, seconds=0.05).analyse(state, rng=random.Random(1))
    assert result.simulations >= 1 and sum(s.visits for s in result.actions) == result.simulations
    assert result.best in legal_actions(state)


def test_the_real_games_positions_give_the_reference_result() -> None:
    """A game recorded elsewhere (a written-out deal, as played): the core searches its positions too."""
    r = bs.replay(bs.load(bs.SAMPLES / "real" / "gm7vza-4p.json"), bs.AS_PLAYED)
    bot = SearchBot(simulations=12, leaf=WinLeaf(default_model()))
    for i in range(0, len(r.steps) - 10, 23):
        core, reference = both(bot, r.state_at(i), i)
        assert as_data(core) == as_data(reference), f"action {i}"
