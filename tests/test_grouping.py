"""Actions that differ only in their discarded cards: one board key, one group, one cap on Sells.

:func:`~brass_stats.bots.greedy.board_key` is the one grouping key of the greedy bot and the search
(its ranking and its tree's children); :func:`~brass_stats.bots.greedy.cap_sells` the one rule that
keeps at most ``sell_cap`` Sell groups. The sample games (both editions, 2 to 4 players) are
replayed and sampled.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from helpers import sampled_states

from brass_stats.bots.greedy import GreedyBot, Weights, board_key, cap_sells, group_by_board
from brass_stats.bots.search.candidates import rank
from brass_stats.engine.actions import Action, Loan, Scout, Sell
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.state import GameState

REPLAYS = Path(__file__).parents[1] / "replays"
GAMES = (
    "generated/game-2002-00000.json",
    "generated/game-4004-00002.json",
    "lancashire/game-5002-00000.json",
    "lancashire/game-5004-00001.json",
    "real/gm7vza-4p.json",
)


def _reference_key(a: Action) -> object:
    """The rule as first written: the action with its cards blanked, and how many cards it discards."""
    if isinstance(a, Scout):
        return ("scout",)
    blank = {
        f.name: ("" if f.name == "card" else None) for f in dataclasses.fields(a) if f.name in ("card", "second_card")
    }
    return len(a.cards), dataclasses.replace(a, **blank)


@pytest.mark.parametrize("name", GAMES)
def test_board_key_groups_like_blanking_the_cards(name: str) -> None:
    for state in sampled_states(REPLAYS / name, every=15):
        acts = legal_actions(state)
        reference: dict[object, list[Action]] = {}
        for a in acts:
            reference.setdefault(_reference_key(a), []).append(a)
        assert list(group_by_board(acts).values()) == list(reference.values())
        # keys of different groups differ; keys of one group are equal
        assert len({board_key(v[0]) for v in reference.values()}) == len(reference)
        assert all(board_key(a) == board_key(v[0]) for v in reference.values() for a in v)


def test_board_key_counts_the_cards_discarded() -> None:
    assert board_key(Loan(0, "loc:dudley")) == board_key(Loan(0, "ind:iron_works"))
    assert board_key(Loan(0, "loc:dudley")) != board_key(Loan(0))  # a card against none (a log's omitted card)
    assert board_key(Scout(0, ("loc:dudley", "loc:walsall", "ind:coal_mine"))) == board_key(Scout(1))  # every Scout


def _merit(state: GameState, a: Sell) -> tuple[int, int]:
    return len(a.sales), sum(state.level_info(state.tiles[s.tile]).vp for s in a.sales)


def test_cap_sells_keeps_the_sells_that_flip_most_then_score_most() -> None:
    checked = 0
    for name in GAMES:
        for state in sampled_states(REPLAYS / name, every=3):
            groups = group_by_board(legal_actions(state))
            sells = [v[0] for v in groups.values() if isinstance(v[0], Sell)]
            if len(sells) < 4:
                continue
            cap = len(sells) // 2
            capped = cap_sells(state, groups, cap)
            kept = [v[0] for v in capped.values() if isinstance(v[0], Sell)]
            assert len(kept) == cap
            # every Sell kept is at least as good as every Sell dropped; the other groups all stay
            worst = min(_merit(state, a) for a in kept)
            assert all(_merit(state, a) <= worst for a in sells if a not in kept)
            assert [k for k, v in groups.items() if not isinstance(v[0], Sell)] == [
                k for k, v in capped.items() if not isinstance(v[0], Sell)
            ]
            # the search's groups ([cheapest action, its cost]) are capped alike
            pairs = {k: [v[0], 0.0] for k, v in groups.items()}
            assert list(cap_sells(state, pairs, cap)) == list(capped)
            assert cap_sells(state, groups, len(sells)) is groups  # nothing to drop: the groups themselves
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("name", GAMES[:3])
def test_the_search_ranks_one_candidate_per_capped_group(name: str) -> None:
    greedy = GreedyBot(Weights(sell_cap=3))
    for state in sampled_states(REPLAYS / name, every=25):
        legal = legal_actions(state)
        groups = cap_sells(state, group_by_board(legal), 3)
        if len(groups) < 2:
            continue
        ranked = rank(state, legal, greedy)
        assert sorted(map(repr, (board_key(c.action) for c in ranked))) == sorted(map(repr, groups))
