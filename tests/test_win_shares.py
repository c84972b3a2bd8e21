"""Each seat's share of a finished game: :func:`~brass_stats.engine.scoring.win_shares`.

1 for the player ranked first by the standings (VP, then the income marker's space, then money),
``1/k`` each for ``k`` players still tied first, 0 for the others. It is the one result: the search
backs it up at the end of a line of play, and the win-probability model gives it for a finished
game and is trained on it.
"""

from __future__ import annotations

import random

import pytest

import brass_stats as bs
from brass_stats.bots.search import SearchBot, SoftmaxLeaf
from brass_stats.bots.value import default_model
from brass_stats.engine import SeededChance, new_game, win_shares
from brass_stats.engine.state import GameState


def table(*players: tuple[int, int, int]) -> GameState:
    """A game whose seats have these (VP, income space, money)."""
    g = new_game(["Ann", "Bob", "Cid", "Dee"][: len(players)], SeededChance(1))
    for p, (vp, space, money) in zip(g.players, players, strict=True):
        p.vp, p.income_space, p.money = vp, space, money
    return g


@pytest.mark.parametrize(
    ("players", "shares"),
    [
        ([(60, 30, 5), (60, 30, 5), (50, 30, 5)], (0.5, 0.5, 0.0)),  # a 2-way tie shares the win
        ([(50, 30, 5)] * 4, (0.25, 0.25, 0.25, 0.25)),
        ([(60, 30, 5), (60, 31, 0), (70, 0, 0)], (0.0, 0.0, 1.0)),  # most VP wins
        ([(60, 30, 5), (60, 31, 0), (50, 0, 0)], (0.0, 1.0, 0.0)),  # then the income marker's space
        ([(60, 30, 5), (60, 30, 6)], (0.0, 1.0)),  # then money
    ],
)
def test_the_first_ranked_share_the_win(players: list[tuple[int, int, int]], shares: tuple[float, ...]) -> None:
    assert win_shares(table(*players)) == shares


def test_a_finished_game_is_scored_by_its_shares_everywhere() -> None:
    r = bs.replay(bs.load(bs.SAMPLES / "real" / "gm7vza-4p.json"), bs.AS_PLAYED)
    assert r.state.game_over and win_shares(r.state) == (1.0, 0.0, 0.0, 0.0)  # Player1 wins with 152 VP
    tied = r.state.copy()
    for p in tied.players[:2]:
        p.vp, p.income_space, p.money = 200, 30, 5
    assert win_shares(tied) == (0.5, 0.5, 0.0, 0.0)
    for state in (r.state, tied):
        expected = win_shares(state)
        assert default_model().predict(state) == list(expected)
        assert default_model().predict_many([state]) == [list(expected)]
        assert SoftmaxLeaf()(state) == expected


def test_the_search_backs_up_the_shares_of_a_finished_game() -> None:
    r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"), bs.STRICT)
    before = r.state_at(len(r.steps) - 2)  # the game's last action to play
    result = SearchBot(simulations=4).analyse(before, [r.steps[-1].action], random.Random(1))
    assert result.value == win_shares(r.state) == (1.0, 0.0)
