"""What the greedy evaluation promises a player about income (docs/bots.md, the greedy bot): an income
level is money at every income payout still to come, so more income is worth more, and worth more the more
rounds are left. The positions are edited only in the mover's income and money (money plenty, so that no
shortfall can weigh in); the expectation is the rules' own: income is paid once a round."""

from __future__ import annotations

import dataclasses

import pytest

import brass_stats as bs
from brass_stats.bots.greedy import evaluate, explain, horizon
from brass_stats.engine.network import network
from brass_stats.engine.state import GameState


@pytest.fixture(scope="module")
def birmingham() -> list[GameState]:
    r = bs.replay(bs.load(bs.SAMPLES / "generated/game-2002-00000.json"))
    return [r.state_at(i) for i in range(-1, len(r.steps))]


def income_gain(state: GameState, spaces: int) -> float:
    """How much the greedy evaluation of the mover grows when its income marker is ``spaces`` further on."""
    seat = state.current_player
    assert seat is not None
    base = state.copy()
    base.player_mut(seat).money = 150
    richer = base.copy()
    richer.player_mut(seat).income_space += spaces
    return evaluate(richer, seat, include_hand=False) - evaluate(base, seat, include_hand=False)


def test_more_income_is_valued_higher_and_more_so_with_more_rounds_to_go(birmingham: list[GameState]) -> None:
    early, late = birmingham[4], birmingham[-10]
    assert early.era == "canal" and late.era == "rail" and not late.game_over
    gains = [income_gain(early, 10), income_gain(late, 10)]
    assert gains[0] > gains[1] > 0


def test_the_horizon_of_a_seat_is_an_immutable_value(birmingham: list[GameState]) -> None:
    """``horizon()`` (exported with the evaluation) gives a value: what is left of the game for a seat
    cannot be changed by whoever holds it, and equal horizons hash alike."""
    h = horizon(birmingham[4], 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.payouts = 0  # type: ignore[misc]
    assert h.payouts > 0 and hash(h) == hash(horizon(birmingham[4], 0))


def test_a_wider_network_is_worth_more_to_greedy(birmingham: list[GameState]) -> None:
    """Greedy's reach term (docs/bots.md): locations in a seat's network are where its industry cards can
    build, so a seat that reaches more locations is valued more for it, and a seat with a network is
    valued above nothing for it."""
    state = birmingham[-10]
    sizes = {seat: len(network(state, seat)) for seat in range(state.num_players)}
    reach = {seat: explain(state, seat)["reach"] for seat in sizes}
    assert min(sizes.values()) > 0 and len(set(sizes.values())) == len(sizes)
    assert all(value > 0 for value in reach.values())
    assert sorted(sizes, key=sizes.__getitem__) == sorted(reach, key=reach.__getitem__)
