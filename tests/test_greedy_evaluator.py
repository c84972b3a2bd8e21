"""The greedy bot's fast paths give exactly what the from-scratch definitions give.

:class:`~brass_stats.bots.greedy.Evaluator` (board facts computed once per board version and
reused) must return the very float :func:`~brass_stats.bots.greedy.evaluate` returns, on the
states one decision compares: the state to move and the result of one action of every group.
The sample games (both editions, 2 to 4 players) are replayed and sampled; every seat is
evaluated, with the default weights and with weights whose terms are not whole numbers (so a
change in the order of a float sum would show). The bot's own choices are pinned by
``tests/test_selfplay_corpora.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import sampled_states

from brass_stats.bots.greedy import (
    DEFAULT_WEIGHTS,
    BoardFacts,
    Evaluator,
    Weights,
    board_values,
    evaluate,
    group_by_board,
    resource_demand,
)
from brass_stats.bots.greedy.board_facts import _components
from brass_stats.bots.greedy.bot import _cards_key
from brass_stats.engine.actions import Action
from brass_stats.engine.connectivity import distances_from
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.turn import apply_action

REPLAYS = Path(__file__).parents[1] / "replays"
GAMES = (
    "generated/game-2002-00000.json",
    "generated/game-3003-00001.json",
    "generated/game-4004-00002.json",
    "generated/game-4014-00000.json",
    "lancashire/game-5002-00000.json",
    "lancashire/game-5004-00001.json",
    "real/gm7vza-4p.json",
)
# every term weighted by something that is not a whole number, opponents included
ODD_WEIGHTS = Weights(carry=1.3, link_growth=0.37, reach=0.29, develop=1.7, opponents=0.4, crowding=0.61)


@pytest.mark.parametrize("name", GAMES)
def test_evaluator_equals_evaluate_on_every_compared_state(name: str) -> None:
    checked = reused = 0
    for state in sampled_states(REPLAYS / name, every=9, final=True):
        if state.game_over:
            after_states = [state]
        else:
            groups = group_by_board(legal_actions(state))
            after_states = [state] + [apply_action(state, v[0])[0] for v in groups.values()]
        for w in (DEFAULT_WEIGHTS, ODD_WEIGHTS):
            judge = Evaluator(state, w)
            demand = resource_demand(state, w)
            for after in after_states:
                reused += after.board_version == state.board_version
                for seat in range(state.num_players):
                    expected = evaluate(after, seat, w, include_hand=False, demand=demand)
                    assert judge.value(after, seat) == expected, (name, state.action_count, seat, w is ODD_WEIGHTS)
                    checked += 1
    assert checked > 500 and reused > 50  # both the shared and the recomputed board facts were exercised


@pytest.mark.parametrize("name", GAMES)
def test_the_value_of_every_group_is_the_value_of_its_result(name: str) -> None:
    """board_values() applies one Develop per set of iron sources, one Network per set of coal and beer
    sources, and scores the others from it."""
    develops = networks = 0
    for state in sampled_states(REPLAYS / name, every=5, final=True):
        if state.game_over:
            continue
        seat = state.current_player
        assert seat is not None
        groups = list(group_by_board(legal_actions(state)).values())
        for w in (DEFAULT_WEIGHTS, ODD_WEIGHTS):
            demand = resource_demand(state, w)
            expected = [evaluate(apply_action(state, v[0])[0], seat, w, False, demand) for v in groups]
            assert board_values(state, seat, groups, Evaluator(state, w)) == expected, (name, state.action_count)
        develops += sum(v[0].TYPE == "develop" for v in groups)
        networks += sum(v[0].TYPE == "network" for v in groups)
    assert develops > 100 and networks > 20


@pytest.mark.parametrize("name", GAMES)
def test_link_components_are_the_engines_connectivity(name: str) -> None:
    for state in sampled_states(REPLAYS / name, every=10, final=True):
        linked = [state.rules.links[lid].connects for lid in state.links]
        component = _components(linked) if linked else {}
        places = sorted({loc for ends in linked for loc in ends} | {ref.split(":", 1)[0] for ref in state.tiles})
        for a in places:
            reach = distances_from(state, (a,))
            for b in places:
                assert (component.get(a, a) == component.get(b, b)) == (b in reach), (name, a, b)


def _canonical(facts: BoardFacts) -> tuple[object, ...]:
    """The facts with every component named by its sorted members (representatives are arbitrary)."""
    members: dict[str, set[str]] = {}
    for loc, root in facts.link_facts.component.items():
        members.setdefault(root, set()).add(loc)

    def name(root: str) -> tuple[str, ...]:
        return tuple(sorted(members.get(root, {root})))

    tiles = []
    for ref, kind, data, *rest in facts.tiles:
        if isinstance(data, tuple) and len(data) == 2 and isinstance(data[1], str):  # (buyers, component)
            data = (data[0], name(data[1]))
        tiles.append((ref, kind, data, *rest))
    breweries = sorted((ref, owner, name(root)) for ref, owner, root in facts.breweries)
    own = facts.link_facts
    return (facts.pending, facts.rescoring, facts.growth, facts.reach, tiles, breweries, own.own_links_at, own.own_ends)


@pytest.mark.parametrize("name", GAMES)
def test_derived_board_facts_equal_facts_made_from_scratch(name: str) -> None:
    derived = 0
    for state in sampled_states(REPLAYS / name, every=11, final=True):
        if state.game_over:
            continue
        for v in group_by_board(legal_actions(state)).values():
            after = apply_action(state, v[0])[0]
            if after.game_over or after.board_version == state.board_version:
                continue
            for seat in range(state.num_players):
                for w in (DEFAULT_WEIGHTS, ODD_WEIGHTS):
                    fresh = BoardFacts(after, seat, w)
                    assert _canonical(BoardFacts(state, seat, w).derive(after, seat, w)) == _canonical(fresh)
                    derived += 1
    assert derived > 100


@pytest.mark.parametrize("name", GAMES)
def test_cards_key_is_equal_exactly_when_the_cards_are(name: str) -> None:
    for state in sampled_states(REPLAYS / name, every=20, final=True):
        acts = [] if state.game_over else legal_actions(state)
        by_class: dict[type, list[Action]] = {}
        for a in acts:
            by_class.setdefault(type(a), []).append(a)
        for cls, same in by_class.items():
            key = _cards_key(cls)
            for a in same[:40]:
                for b in same[:40]:
                    assert (key(a) == key(b)) == (a.cards == b.cards)
