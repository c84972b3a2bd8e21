"""Leaf evaluators: a state -> one value per seat (each seat's chance of winning, summing to 1).

The search calls a leaf evaluator on the (determinized) states where its simulations stop. Any
callable ``state -> Sequence[float]`` (one number per seat, higher is better for that seat) fits;
a learned win-probability model plugs in here. The default, :class:`SoftmaxLeaf`, turns the greedy
bot's estimates of each seat's final VP into win probabilities with a softmax whose temperature
falls as the game goes on. A finished game is
always scored by its result (:func:`~brass_stats.engine.scoring.win_shares`), whatever the evaluator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ...engine.scoring import win_shares
from ...engine.state import GameState
from ..greedy import GreedyBot, evaluate, resource_demand

LeafEvaluator = Callable[[GameState], Sequence[float]]
"""One value per seat (in seat order) of a position: win probabilities, or any score in [0, 1]."""


def softmax(scores: Sequence[float], temperature: float) -> tuple[float, ...]:
    """``exp(score / temperature)`` normalised to sum to 1 (stable for any scores).

    >>> [round(p, 3) for p in softmax([100.0, 100.0, 90.0], 10.0)]
    [0.422, 0.422, 0.155]
    """
    top = max(scores)
    e = [math.exp((s - top) / temperature) for s in scores]
    total = sum(e)
    return tuple(x / total for x in e)


class SoftmaxLeaf:
    """Win probabilities from the greedy evaluation: a softmax of each seat's estimated final VP.

    The temperature is in VP: a seat estimated ``T`` VP ahead of another is e (2.7) times as likely
    to win. Estimates firm up as the game goes on, so ``T`` falls linearly from ``start`` (first
    round) to ``end`` (last round) with :meth:`~brass_stats.engine.state.GameState.progress`; give
    ``temperature`` for a constant one. The defaults fit greedy self-play (both editions, 2-4
    players, 72 games on seeds other than the benchmark's): the best constant is 8 VP, the best per
    tenth of the game falls from about 17 to 3, and the line from 14 to 3 has a lower log loss than
    any constant (0.717 against 0.735).
    A finished game gives its :func:`~brass_stats.engine.scoring.win_shares`.
    """

    def __init__(
        self,
        temperature: float | None = None,
        greedy: GreedyBot | None = None,
        start: float = 14.0,
        end: float = 3.0,
        estimates: Callable[[GameState], Sequence[float]] | None = None,
    ) -> None:
        if temperature is not None:
            start = end = temperature
        if start <= 0 or end <= 0:
            raise ValueError("the temperature must be positive")
        self.start, self.end = start, end
        self.weights = (greedy or GreedyBot()).weights
        self.estimates = estimates

    def temperature(self, state: GameState) -> float:
        return self.start + (self.end - self.start) * state.progress()

    def __call__(self, state: GameState) -> tuple[float, ...]:
        if state.game_over:
            return win_shares(state)
        if self.estimates is not None:
            return softmax(list(self.estimates(state)), self.temperature(state))
        w = self.weights
        demand = resource_demand(state, w)  # what evaluate() would compute once per seat
        estimates = [evaluate(state, seat, w, demand=demand) for seat in range(state.num_players)]
        return softmax(estimates, self.temperature(state))

    def __repr__(self) -> str:
        if self.start == self.end:
            return f"SoftmaxLeaf(temperature={self.start})"
        return f"SoftmaxLeaf(start={self.start}, end={self.end})"
