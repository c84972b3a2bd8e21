"""Leaf evaluators: a state -> one value per seat (each seat's chance of winning, summing to 1).

The search calls a leaf evaluator on the (determinized) states where its simulations stop. Any
callable ``state -> Sequence[float]`` (one number per seat, higher is better for that seat) fits;
a learned win-probability model plugs in here. The default, :class:`SoftmaxLeaf`, turns the greedy
bot's estimates of each seat's final VP into win probabilities with a softmax whose temperature
falls as the game goes on. A finished game is
always scored by its result (:func:`~brass_stats.engine.scoring.win_shares`), whatever the evaluator.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

from ...engine.scoring import win_shares
from ...engine.state import GameState
from ..greedy import GreedyBot, evaluate, resource_demand
from ..value import FinalVpModel, WinProbabilityModel

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

    def core_spec(self) -> dict[str, Any] | None:
        """The leaf as the compiled core runs it (None: estimates the core cannot compute)."""
        spec: dict[str, Any] = {"kind": "softmax", "start": self.start, "end": self.end}
        if self.estimates is None:
            return {**spec, "estimates": "greedy", "weights": dataclasses.asdict(self.weights)}
        owner = getattr(self.estimates, "__self__", None)
        if type(owner) is FinalVpModel and getattr(self.estimates, "__func__", None) is FinalVpModel.predict:
            return {**spec, "estimates": "final_vp", "models": {"final_vp": owner}}
        return None

    def __repr__(self) -> str:
        if self.start == self.end:
            return f"SoftmaxLeaf(temperature={self.start})"
        return f"SoftmaxLeaf(start={self.start}, end={self.end})"


class WinLeaf:
    """Each seat's chance of winning by a win-probability model (a finished game: its result)."""

    def __init__(self, model: WinProbabilityModel) -> None:
        self.model = model

    def __call__(self, state: GameState) -> tuple[float, ...]:
        return tuple(self.model.predict(state))

    def core_spec(self) -> dict[str, Any] | None:
        """The leaf as the compiled core runs it (None: a model class the core does not know)."""
        if type(self.model) is not WinProbabilityModel:
            return None
        return {"kind": "win", "models": {"win": self.model}}


class StakeLeaf:
    """Each seat's expected final VP plus its chance of winning valued at ``per_player`` VP a player
    (the review's deeper check of a chance of winning given away)."""

    def __init__(self, final_vp: FinalVpModel, model: WinProbabilityModel, per_player: float) -> None:
        self.final_vp = final_vp
        self.model = model
        self.per_player = per_player

    def __call__(self, state: GameState) -> tuple[float, ...]:
        stake = self.per_player * state.num_players
        return tuple(
            v + stake * w for v, w in zip(self.final_vp.predict(state), self.model.predict(state), strict=True)
        )

    def core_spec(self) -> dict[str, Any] | None:
        """The leaf as the compiled core runs it (None: a model class the core does not know)."""
        if type(self.model) is not WinProbabilityModel or type(self.final_vp) is not FinalVpModel:
            return None
        models = {"win": self.model, "final_vp": self.final_vp}
        return {"kind": "stake", "per_player": self.per_player, "models": models}


def leaf_spec(leaf: LeafEvaluator) -> dict[str, Any] | None:
    """How the compiled core runs a leaf evaluator: its ``core_spec()``, or a shipped model class's
    ``predict`` given as the leaf; None for any other callable (the search then runs in Python)."""
    spec = getattr(leaf, "core_spec", None)
    if callable(spec):
        found: dict[str, Any] | None = spec()
        return found
    owner, func = getattr(leaf, "__self__", None), getattr(leaf, "__func__", None)
    if type(owner) is WinProbabilityModel and func is WinProbabilityModel.predict:
        return {"kind": "win", "models": {"win": owner}}
    if type(owner) is FinalVpModel and func is FinalVpModel.predict:
        return {"kind": "final_vp", "models": {"final_vp": owner}}
    return None
