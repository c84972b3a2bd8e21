"""What the search bot's parts must do: its budget, its candidates, its clock and what it may not see.

Every expectation comes from the rules or from an independent computation: the greedy evaluation of
the position an action leads to, the order of play (the Rail Era starts half-way through a game of
two equal eras), a clock that only the test advances.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections import Counter

import pytest

import brass_stats as bs
from brass_stats.bots import play_game
from brass_stats.bots.greedy import DEFAULT_WEIGHTS, GreedyBot, board_key, card_values, evaluate, resource_demand

# rank, Candidate, board_key, Node and select are not (yet) exported by the package: module-level
# imports, to fix if brass_stats/bots/search/candidates.py or tree.py move
from brass_stats.bots.search import SearchBot, SoftmaxLeaf
from brass_stats.bots.search.candidates import Candidate, rank
from brass_stats.bots.search.tree import Node, select
from brass_stats.engine import apply_action
from brass_stats.engine.actions import Pass, Scout, Sell
from brass_stats.engine.information import determinize, face_down_count, unseen_cards
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState

# the bots' tests run on both paths: the compiled core and the pure-Python reference (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("bot_path")


def sample_states(path: str) -> list[GameState]:
    """Every position of a sample game, from before its first action to its end."""
    r = bs.replay(bs.load(bs.SAMPLES / path))
    return [r.state_at(i) for i in range(-1, len(r.steps))]


@pytest.fixture(scope="module")
def two_player_game() -> list[GameState]:
    return sample_states("generated/game-2002-00000.json")


def first_action_of_a_turn(states: list[GameState], era: str, with_scout: bool = True) -> GameState:
    """A position where the mover starts a two-action turn (its hand is not refilled after one action)."""
    for s in states:
        if s.game_over or s.era != era or s.actions_this_turn != 0 or s.actions_per_turn() != 2:
            continue
        if not with_scout or any(isinstance(a, Scout) for a in legal_actions(s)):
            return s
    raise AssertionError("no such position")


# -- the budget ----------------------------------------------------------------------------------------


class FakeClock:
    """``time.perf_counter`` that moves only when a leaf is evaluated: one second per simulation."""

    def __init__(self, limit: int = 50) -> None:
        self.now = 1000.0
        self.leaves = 0
        self.limit = limit

    def __call__(self) -> float:
        return self.now

    def leaf(self, state: GameState) -> tuple[float, ...]:
        self.leaves += 1
        if self.leaves > self.limit:  # instead of hanging, a search that ignores its budget fails
            raise AssertionError("the search ran past its budget")
        self.now += 1.0
        return tuple(1.0 / state.num_players for _ in range(state.num_players))


@pytest.mark.parametrize("simulations", [1, 2, 7])
def test_the_search_stops_at_its_simulation_budget(simulations: int, two_player_game: list[GameState]) -> None:
    state = two_player_game[10]
    clock = FakeClock()
    result = SearchBot(simulations=simulations, leaf=clock.leaf).analyse(state, None, random.Random(1))
    # early in the game every simulation ends at a leaf: one leaf evaluation per simulation
    assert clock.leaves == result.simulations == simulations
    assert sum(s.visits for s in result.actions) == simulations


@pytest.mark.parametrize(
    ("simulations", "seconds", "expected"),
    [
        (None, 3.5, 4),  # the clock passes 3.5 s during the 4th simulation: the search stops after it
        (None, 3.0, 3),  # a simulation that ends exactly at the deadline is the last one
        (None, 0.0, 1),  # a decision always makes one simulation
        (10, 3.5, 4),  # the clock stops it before the count
        (2, 3.5, 2),  # the count stops it before the clock
    ],
)
def test_the_search_stops_at_its_time_budget(
    simulations: int | None,
    seconds: float,
    expected: int,
    two_player_game: list[GameState],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = two_player_game[10]
    clock = FakeClock()
    monkeypatch.setattr(time, "perf_counter", clock)
    bot = SearchBot(simulations=simulations, seconds=seconds, leaf=clock.leaf)
    result = bot.analyse(state, None, random.Random(1))
    assert result.simulations == clock.leaves == expected
    assert result.seconds == pytest.approx(float(expected))  # the time it took, on the test's clock


def test_a_search_without_a_generator_uses_seed_zero_and_the_engines_legal_actions(
    two_player_game: list[GameState],
) -> None:
    state = two_player_game[10]
    bot = SearchBot(simulations=5)
    default = bot.analyse(state)
    given = bot.analyse(state, legal_actions(state), random.Random(0))
    assert [(s.action, s.visits, s.value) for s in default.actions] == [
        (s.action, s.visits, s.value) for s in given.actions
    ]
    assert default.best == given.best and default.value == given.value


def test_a_search_needs_a_budget() -> None:
    with pytest.raises(ValueError):
        SearchBot(simulations=None, seconds=None)
    with pytest.raises(ValueError):
        SearchBot(simulations=0)


def test_a_single_legal_action_is_played_without_searching(two_player_game: list[GameState]) -> None:
    state = two_player_game[10]
    clock = FakeClock(limit=0)
    only = legal_actions(state)[3]
    assert SearchBot(simulations=5, leaf=clock.leaf).choose(state, [only], random.Random(1)) == only
    assert clock.leaves == 0


# -- the candidates ------------------------------------------------------------------------------------


def test_a_single_legal_action_is_the_only_candidate(two_player_game: list[GameState]) -> None:
    state = two_player_game[10]
    legal = legal_actions(state)
    for a in (legal[0], legal[-1]):
        assert rank(state, [a], GreedyBot()) == [Candidate(a, 0.0)]
    # actions that differ only in their cards lead to one board: one candidate, the first listed
    passes = [a for a in legal if isinstance(a, Pass)]
    assert len(passes) > 1 and len({board_key(a) for a in passes}) == 1
    assert rank(state, passes, GreedyBot()) == [Candidate(passes[0], 0.0)]


def test_a_candidates_score_is_the_greedy_value_of_the_board_and_the_hand_it_keeps(
    two_player_game: list[GameState],
) -> None:
    """Score = greedy's evaluation of the board the action leads to (no hand term, the resource demand
    of the position decided in) + the hand weight times the values (before the action) of the cards in
    hand after it: a scout keeps two wild cards."""
    state = first_action_of_a_turn(two_player_game, "canal")
    seat = state.current_player
    assert seat is not None
    w = DEFAULT_WEIGHTS
    values = card_values(state, seat)
    demand = resource_demand(state, w)
    ranked = rank(state, legal_actions(state), GreedyBot())
    scouts = [c for c in ranked if isinstance(c.action, Scout)]
    assert len(scouts) == 1  # every scout leads to one board
    checked = [*ranked[:4], *scouts, *ranked[-3:]]
    for c in checked:
        after = apply_action(state, c.action)[0]
        assert after.current_player == seat and after.actions_this_turn == 1  # no refill yet
        kept = sum(values[card] for card in after.players[seat].hand)
        expected = evaluate(after, seat, w, include_hand=False, demand=demand) + w.hand * kept
        assert c.score == pytest.approx(expected, abs=1e-9), c.action
    # the scout's two wild cards are in the hand greedy values in full after the action
    scout = scouts[0]
    after = apply_action(state, scout.action)[0]
    assert len(after.players[seat].hand) == len(state.players[seat].hand) - 1
    assert scout.score == pytest.approx(evaluate(after, seat, w, demand=demand), abs=1e-9)
    assert [c.score for c in ranked] == sorted((c.score for c in ranked), reverse=True)


def test_each_candidate_discards_the_least_useful_cards_of_its_group(two_player_game: list[GameState]) -> None:
    state = first_action_of_a_turn(two_player_game, "canal")
    seat = state.current_player
    assert seat is not None
    values = card_values(state, seat)
    legal = legal_actions(state)

    def cost(a: object) -> float:
        cards = [getattr(a, f, None) for f in ("card", "second_card")] + list(getattr(a, "discards", ()))
        return sum(values[c] for c in cards if c is not None)

    cheapest: dict[object, float] = {}
    for a in legal:
        k = board_key(a)
        cheapest[k] = min(cheapest.get(k, float("inf")), cost(a))
    ranked = rank(state, legal, GreedyBot())
    assert {board_key(c.action) for c in ranked} == set(cheapest)  # one candidate per board (no Sell cap hit)
    for c in ranked:
        assert c.action in legal and cost(c.action) == cheapest[board_key(c.action)]
    # greedy's own choice is the best candidate's board (or ties with it)
    choice = GreedyBot().choose(state, legal, random.Random(0))
    best = next(c for c in ranked if board_key(c.action) == board_key(choice))
    assert best.score == pytest.approx(ranked[0].score, abs=1e-9)


def sale_merit(state: GameState, a: Sell) -> tuple[int, int]:
    """How many tiles a Sell flips, then their VP (the rulebook's VP of each sold tile's level)."""
    tiles = [state.tiles[s.tile] for s in a.sales]
    return len(tiles), sum(state.rules.level(t.industry, t.level).vp for t in tiles)


@pytest.mark.parametrize("cap", [1, 3])
def test_the_sell_cap_keeps_the_sells_that_flip_most(cap: int, two_player_game: list[GameState]) -> None:
    state = two_player_game[25]
    legal = legal_actions(state)
    sells = {board_key(a): a for a in legal if isinstance(a, Sell)}
    assert len(sells) > 3  # more Sell boards than either cap
    greedy = GreedyBot(dataclasses.replace(DEFAULT_WEIGHTS, sell_cap=cap))
    ranked = rank(state, legal, greedy)
    kept = [c.action for c in ranked if isinstance(c.action, Sell)]
    assert len(kept) == cap
    dropped = [a for k, a in sells.items() if k not in {board_key(b) for b in kept}]
    assert len(dropped) == len(sells) - cap
    assert min(sale_merit(state, a) for a in kept) >= max(sale_merit(state, a) for a in dropped)
    # every other kind of action is still a candidate
    others = {board_key(a) for a in legal if not isinstance(a, Sell)}
    assert {board_key(c.action) for c in ranked if not isinstance(c.action, Sell)} == others
    # with a cap above the count, every Sell board is a candidate
    roomy = GreedyBot(dataclasses.replace(DEFAULT_WEIGHTS, sell_cap=len(sells)))
    assert len([c for c in rank(state, legal, roomy) if isinstance(c.action, Sell)]) == len(sells)


# -- the clock of the leaf evaluator -------------------------------------------------------------------


def leaf_progress(state: GameState) -> float:
    """The default leaf's game clock, read through its temperature: start 10, end 20 -> 10 + 10 * progress."""
    return (SoftmaxLeaf(start=10.0, end=20.0).temperature(state) - 10.0) / 10.0


def test_the_leaf_clock_runs_over_two_eras_in_a_full_game(two_player_game: list[GameState]) -> None:
    live = [s for s in two_player_game if not s.game_over]
    clocks = [leaf_progress(s) for s in live]
    assert clocks[0] == 0.0
    assert all(a <= b + 1e-12 for a, b in zip(clocks, clocks[1:], strict=False))
    first_rail = next(i for i, s in enumerate(live) if s.era == "rail")
    assert clocks[first_rail] == pytest.approx(0.5)  # the Rail Era starts half-way
    rounds = 2 * live[0].rules.rounds_per_era[2]
    assert 1 - 1 / rounds <= clocks[-1] < 1.0  # the last decision is in the last round


def test_the_introductory_game_has_one_era_and_its_clock_reaches_the_end() -> None:
    log = play_game([GreedyBot(), GreedyBot()], seed=4, options={"introductory": True})
    r = bs.replay(log)
    states = [r.state_at(i) for i in range(-1, len(r.steps))]
    live = [s for s in states if not s.game_over]
    assert states[-1].game_over and all(s.era == "canal" for s in live)  # one era
    clocks = [leaf_progress(s) for s in live]
    assert clocks[0] == 0.0
    assert all(a <= b + 1e-12 for a, b in zip(clocks, clocks[1:], strict=False))
    rounds = live[0].rules.rounds_per_era[2]
    assert 1 - 1 / rounds <= clocks[-1] < 1.0  # its last decision is in the last round of the game
    # the temperature falls from start to (nearly) end
    leaf = SoftmaxLeaf(start=14.0, end=3.0)
    assert leaf.temperature(live[0]) == 14.0 and leaf.temperature(live[-1]) < 3.0 + 11.0 / rounds


# -- what a seat may not see: the face-down discards -----------------------------------------------------


def test_only_the_canal_eras_setup_discards_are_face_down(two_player_game: list[GameState]) -> None:
    canal = two_player_game[0]
    k = canal.rules.face_down_discards
    assert k == 1 and canal.era == "canal"  # Birmingham: one face-down card per player at setup
    assert face_down_count(canal) == k and all(len(p.discard) == k for p in canal.players)
    first_rail = next(s for s in two_player_game if s.era == "rail")
    # the Canal Era's discards are shuffled into the Rail Era's deck: nothing face down is left
    assert all(p.discard == [] for p in first_rail.players)
    for s in two_player_game:
        assert face_down_count(s) == (k if s.era == "canal" else 0)
    lancashire = sample_states("lancashire/game-5002-00000.json")
    assert {face_down_count(s) for s in lancashire} == {0}


def test_a_rail_era_discard_is_seen_and_kept_by_the_sample(two_player_game: list[GameState]) -> None:
    rail = next(s for s in two_player_game if s.era == "rail" and all(p.discard for p in s.players))
    seat = rail.current_player
    assert seat is not None
    hidden = [c for p in rail.players if p.seat != seat for c in p.hand] + rail.deck + rail.reserve
    assert Counter(unseen_cards(rail, seat)) == Counter(hidden)
    d = determinize(rail, seat, random.Random(2))
    assert [p.discard for p in d.players] == [p.discard for p in rail.players]


def test_a_canal_era_face_down_discard_is_unseen_even_by_its_owner(two_player_game: list[GameState]) -> None:
    canal = first_action_of_a_turn(two_player_game, "canal", with_scout=False)
    seat = canal.current_player
    assert seat is not None
    bottom = [p.discard[0] for p in canal.players]
    hidden = [c for p in canal.players if p.seat != seat for c in p.hand] + canal.deck + bottom + canal.reserve
    assert Counter(unseen_cards(canal, seat)) == Counter(hidden)
    d = determinize(canal, seat, random.Random(2))
    assert [p.discard[1:] for p in d.players] == [p.discard[1:] for p in canal.players]  # face up: kept
    samples = [determinize(canal, seat, random.Random(i)) for i in range(12)]
    assert len({tuple(p.discard[0] for p in s.players) for s in samples}) > 1  # the bottom card is resampled


# -- the root of the tree and the decision --------------------------------------------------------------


@pytest.fixture(scope="module")
def searched(two_player_game: list[GameState]) -> tuple[GameState, list[Candidate], dict[int, object]]:
    """A Canal Era decision, its greedy ranking, and searches of several budgets."""
    state = two_player_game[20]
    ranking = rank(state, legal_actions(state), GreedyBot())
    results = {n: SearchBot(simulations=n).analyse(state, None, random.Random(3)) for n in (1, 2, 5, 10, 17)}
    return state, ranking, results


def test_the_root_candidates_are_the_greedy_ranking_of_the_true_position(searched: tuple) -> None:
    """The root is ranked in a sample of the hidden cards, which the ranking does not depend on."""
    _, ranking, results = searched
    for result in results.values():
        by_rank = sorted(result.actions, key=lambda s: s.rank)
        assert [(s.action, s.score) for s in by_rank] == [(c.action, pytest.approx(c.score)) for c in ranking]
        assert [s.rank for s in by_rank] == list(range(len(ranking)))


def test_the_root_widens_to_the_square_root_of_its_visits_trying_each_new_candidate_first(searched: tuple) -> None:
    """Progressive widening (pw_c 1, pw_alpha 1/2): at its v-th visit the root considers the first
    ceil(sqrt(v + 1)) ranked candidates, and a candidate never tried is tried first."""
    _, ranking, results = searched
    assert len(ranking) > 5
    for n, result in results.items():
        tried = {s.rank for s in result.actions if s.visits}
        assert tried == set(range(math.ceil(math.sqrt(n)))), n


def test_the_root_value_is_the_visit_weighted_mean_of_its_childrens_values(searched: tuple) -> None:
    state, _, results = searched
    for n, result in results.items():
        assert result.simulations == n == sum(s.visits for s in result.actions)
        assert len(result.value) == state.num_players
        for seat in range(state.num_players):
            mean = sum(s.visits * s.value[seat] for s in result.actions if s.visits) / n
            assert result.value[seat] == pytest.approx(mean)
        for s in result.actions:
            assert (s.value == ()) == (s.visits == 0)
            assert s.value_for(0) == (s.value[0] if s.visits else None)


def test_the_decision_is_the_most_visited_action_then_the_best_valued_then_the_best_ranked(
    searched: tuple,
) -> None:
    state, _, results = searched
    seat = state.current_player
    for result in results.values():
        keys = [(-s.visits, -(s.value[seat] if s.visits else -1.0), s.rank) for s in result.actions]
        assert keys == sorted(keys)
        assert result.best == result.actions[0].action and result.seat == seat


def test_an_action_is_found_in_the_results_by_its_board(searched: tuple) -> None:
    """stats_of: the action itself, or the candidate that differs from it only in its cards."""
    state, _, results = searched
    result = results[5]
    for a in legal_actions(state):
        found = result.stats_of(a)
        assert found is not None and board_key(found.action) == board_key(a)
        if any(s.action == a for s in result.actions):
            assert found.action == a


def test_a_node_mean_is_its_value_sum_over_its_visits() -> None:
    node = Node(0, 3)
    assert node.mean(1) == 0.0 and node.means() == ()
    node.backup((0.2, 0.3, 0.5))
    node.backup((0.6, 0.1, 0.3))
    assert node.visits == 2
    assert [node.mean(s) for s in range(3)] == pytest.approx([0.4, 0.2, 0.4])
    assert node.means() == pytest.approx((0.4, 0.2, 0.4))


def test_a_childs_availability_counts_the_times_it_was_offered(two_player_game: list[GameState]) -> None:
    """ISMCTS: UCB's exploration term counts how often a child was available, from its first offer."""
    state = two_player_game[20]
    cands = rank(state, legal_actions(state), GreedyBot())[:3]
    keys = [board_key(c.action) for c in cands]
    node = Node(state.current_player, 2)
    for k in range(1, 4):
        key, child, action = select(node, cands[:2], keys[:2], 2, c_ucb=1.4)
        child.backup((0.5, 0.5))
        assert [node.children[x].avail for x in keys[:2]] == [k, k]
    select(node, cands, keys, 2, c_ucb=1.4)
    assert [node.children[x].avail for x in keys] == [4, 4, 1]
    # equal means: the exploration term alone decides; the child tried less often (per offer) goes first
    first, second = (node.children[x] for x in keys[:2])
    assert first.visits + second.visits == 3
    less = keys[0] if first.visits < second.visits else keys[1]
    node.children.pop(keys[2])
    assert select(node, cands[:2], keys[:2], 2, c_ucb=1.4)[0] == less


def test_the_default_leaf_cools_from_14_to_3_vp_over_the_game(two_player_game: list[GameState]) -> None:
    live = [s for s in two_player_game if not s.game_over]
    leaf = SoftmaxLeaf()
    assert leaf.temperature(live[0]) == 14.0
    rounds = 2 * live[0].rules.rounds_per_era[2]
    assert 3.0 < leaf.temperature(live[-1]) <= 3.0 + 11.0 / rounds


def test_the_leaf_gives_each_seat_a_softmax_share_of_its_greedy_estimate(two_player_game: list[GameState]) -> None:
    """p_i / p_j = exp((e_i - e_j) / T) with e the greedy estimates of final VP; the shares sum to 1."""
    for state in two_player_game[30:60:10]:
        for leaf in (SoftmaxLeaf(), SoftmaxLeaf(temperature=5.0)):
            p = leaf(state)
            e = [evaluate(state, s) for s in range(state.num_players)]
            t = leaf.temperature(state)
            assert sum(p) == pytest.approx(1.0)
            assert p[0] / p[1] == pytest.approx(math.exp((e[0] - e[1]) / t))
    finished = two_player_game[-1]
    assert finished.game_over
    p = SoftmaxLeaf()(finished)
    vps = [pl.vp for pl in finished.players]
    assert p[vps.index(max(vps))] == 1.0 and sum(p) == 1.0
