"""The search bot (information-set MCTS): determinism, legality, fairness, whole games, max^n."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hidden_cards import hide_differently

from brass_stats.bots import play_game
from brass_stats.bots.greedy import GreedyBot, board_key
from brass_stats.bots.search import SearchBot, SearchResult, SoftmaxLeaf
from brass_stats.bots.search.candidates import rank
from brass_stats.bots.search.tree import Node, select, widen
from brass_stats.bots.specs import BOTS
from brass_stats.engine import SeededChance, apply_action, new_game, win_shares
from brass_stats.engine.actions import action_from_json
from brass_stats.engine.information import determinize, knowable, unseen_cards
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState
from brass_stats.rules_data import load_rules

# the bots' tests run on both paths: the compiled core and the pure-Python reference (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("bot_path")

TINY = 12  # simulations: enough to build a tree a few levels deep, quick enough for a test


def greedy_line(players: int, seed: int, actions: int, edition: str = "birmingham") -> GameState:
    """The position after ``actions`` greedy actions of a seeded game."""
    state = new_game([f"p{i}" for i in range(players)], SeededChance(seed), load_rules(edition))
    bot, rng = GreedyBot(), random.Random(seed)
    for _ in range(actions):
        state, _ = apply_action(state, bot.choose(state, legal_actions(state), rng))
    return state


def summary(r: SearchResult) -> tuple[object, ...]:
    return r.best, r.simulations, r.value, tuple((s.action, s.visits, s.value, s.score, s.rank) for s in r.actions)


@pytest.fixture(scope="module")
def position() -> GameState:
    return greedy_line(3, 5, 9)  # Canal Era round 3 (two actions a turn), face-down discards in play


def test_determinize_keeps_what_the_mover_knows(position: GameState) -> None:
    seat = position.current_player
    assert seat is not None
    d = determinize(position, seat, random.Random(3))
    assert d.players[seat].hand == position.players[seat].hand
    assert Counter(unseen_cards(d, seat)) == Counter(unseen_cards(position, seat))
    assert [len(p.hand) for p in d.players] == [len(p.hand) for p in position.players]
    assert len(d.deck) == len(position.deck) and len(d.reserve) == len(position.reserve)
    assert [p.discard[1:] for p in d.players] == [p.discard[1:] for p in position.players]  # face-up discards
    assert d.tiles == position.tiles and d.links == position.links and d.turn_order == position.turn_order
    others = [p.seat for p in position.players if p.seat != seat]
    hidden = [position.players[s].hand for s in others] + [position.deck]
    assert hidden != [d.players[s].hand for s in others] + [d.deck]  # something was resampled
    assert position.chance is not d.chance
    # the sample depends on the unseen multiset only, never on where the cards really are
    other = hide_differently(position, 11)
    assert [other.players[s].hand for s in others] != [position.players[s].hand for s in others]
    d2 = determinize(other, seat, random.Random(3))
    assert [p.hand for p in d2.players] == [p.hand for p in d.players] and d2.deck == d.deck


def test_search_is_deterministic_for_a_seed_and_budget(position: GameState) -> None:
    legal = legal_actions(position)
    bot = SearchBot(simulations=TINY)
    a = bot.analyse(position, legal, random.Random(7))
    b = bot.analyse(position, legal, random.Random(7))
    assert summary(a) == summary(b)
    assert a.simulations == TINY and sum(s.visits for s in a.actions) == TINY
    c = SearchBot(simulations=TINY).choose(position, legal, random.Random(7))
    assert c == a.best


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_search_is_fair_it_never_reads_hidden_cards(edition: str) -> None:
    """Two positions that differ only in cards the mover cannot see get the same analysis."""
    state = greedy_line(3, 21, 14, edition)
    other = hide_differently(state, 4)
    seat = state.current_player
    assert seat is not None
    assert [p.hand for p in other.players] != [p.hand for p in state.players] or other.deck != state.deck
    assert other.players[seat].hand == state.players[seat].hand
    legal = legal_actions(state)
    assert legal == legal_actions(other)
    bot = SearchBot(simulations=TINY)
    a = bot.analyse(state, legal, random.Random(1))
    b = bot.analyse(other, legal, random.Random(1))
    assert summary(a) == summary(b)


def test_search_is_fair_about_the_distant_cotton_market_tiles() -> None:
    """Lancashire: the engine lists a Sell with a Distant Cotton Market sale before another sale only
    if the face-down tiles keep the market open; the search must not learn their order from that."""
    state = greedy_line(3, 1, 32, "lancashire")
    other = state.copy()
    other.dcm_pile = sorted(state.dcm_pile, reverse=True)  # the first tile now closes the market
    legal, legal_other = legal_actions(state), legal_actions(other)
    assert legal != legal_other
    assert knowable(state, legal) == knowable(other, legal_other) != legal
    bot = SearchBot(simulations=TINY)
    assert summary(bot.analyse(state, legal, random.Random(2))) == summary(
        bot.analyse(other, legal_other, random.Random(2))
    )
    # a player's pile-dependent Sell can still be judged: where the market closes, the sales stop
    hidden = next(a for a in legal if a not in legal_other)
    stats = bot.analyse(state, legal, random.Random(2), force=[hidden]).stats_of(hidden)
    assert stats is not None and stats.visits > 0


def test_search_returns_a_legal_action_everywhere() -> None:
    state = greedy_line(2, 8, 0)
    bot, greedy, rng = SearchBot(simulations=3), GreedyBot(), random.Random(2)
    for i in range(40):
        legal = legal_actions(state)
        choice = bot.choose(state, legal, rng)
        assert choice in legal
        state, _ = apply_action(state, choice if i % 2 else greedy.choose(state, legal, rng))


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_search_bot_plays_whole_two_player_games(edition: str) -> None:
    log = play_game([SearchBot(simulations=2), GreedyBot()], seed=3, edition=edition)
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    for a in log.actions:
        state, _ = apply_action(state, a)  # raises on an illegal action
    assert state.game_over
    assert sum(win_shares(state)) == pytest.approx(1.0)


def test_values_are_one_per_seat_and_each_player_maximises_its_own(position: GameState) -> None:
    r = SearchBot(simulations=TINY).analyse(position, legal_actions(position), random.Random(5))
    assert len(r.value) == position.num_players == 3
    assert sum(r.value) == pytest.approx(1.0)  # win probabilities (softmax leaf)
    for s in r.actions:
        assert s.visits == 0 or (len(s.value) == 3 and sum(s.value) == pytest.approx(1.0))
    # max^n: the player to move picks by its own component, not by anyone else's
    node = Node(1, 3)
    cands = rank(position, legal_actions(position), GreedyBot())[:2]
    keys = [board_key(c.action) for c in cands]
    for key, values in zip(keys, [(0.9, 0.05, 0.05), (0.0, 0.3, 0.7)], strict=True):
        child = node.children[key] = Node(None, 3, None)
        child.backup(values)
        child.avail = 1
    assert select(node, cands, keys, 3, c_ucb=0.0)[0] == keys[1]
    node.player = 0
    assert select(node, cands, keys, 3, c_ucb=0.0)[0] == keys[0]


def test_leaf_evaluator_is_injected(position: GameState) -> None:
    calls = []

    def leaf(state: GameState) -> tuple[float, ...]:
        calls.append(state.action_count)
        return (0.2, 0.3, 0.5)

    r = SearchBot(simulations=TINY, leaf=leaf).analyse(position, legal_actions(position), random.Random(5))
    assert len(calls) == TINY
    assert r.value == pytest.approx((0.2, 0.3, 0.5))
    assert SoftmaxLeaf(temperature=5.0)(position) != SoftmaxLeaf(temperature=50.0)(position)


def test_forced_action_is_searched_and_widening_grows(position: GameState) -> None:
    legal = legal_actions(position)
    ranked = rank(position, legal, GreedyBot())
    last = ranked[-1].action
    r = SearchBot(simulations=TINY).analyse(position, legal, random.Random(5), force=[last])
    stats = r.stats_of(last)
    assert stats is not None and stats.visits > 0
    assert [widen(n, 1.0, 0.5) for n in (0, 3, 15)] == [1, 2, 4]


def test_chance_inside_the_search_keeps_its_actions_legal() -> None:
    """Lancashire: a Distant Cotton Market tile drawn in one simulation (income, money, a mill left
    unflipped) must not make another simulation reuse that line's legal actions. Before the search
    keyed its caches by the tiles drawn, this decision raised IllegalAction (a flipped mill sold)."""
    data = json.loads((Path(__file__).parent / "search_positions" / "lancashire-dcm.json").read_text())
    state = new_game(data["players"], SeededChance(data["seed"]), load_rules(data["edition"]))
    for a in data["actions"]:
        state, _ = apply_action(state, action_from_json(a))
    legal = legal_actions(state)
    result = SearchBot(simulations=100).analyse(state, legal, random.Random(5))
    assert result.best in legal and result.recovered == 0


def test_mcts_is_registered_for_selfplay() -> None:
    assert isinstance(BOTS["mcts"](), SearchBot)
    assert BOTS["mcts"]().name == "mcts"
