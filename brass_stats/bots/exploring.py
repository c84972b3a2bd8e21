"""A greedy bot that sometimes plays at random: self-play that reaches positions greedy play never does.

>>> from brass_stats.bots import play_game
>>> log = play_game([ExploringBot(0.2), ExploringBot(0.2)], seed=3)
>>> log.players
('greedy-explore-0.2-0', 'greedy-explore-0.2-1')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.state import GameState
from . import RandomBot
from .compiled import overridden
from .greedy import GreedyBot


class ExploringBot:
    """Greedy play with a share of random actions: with probability ``rate`` a decision is
    :class:`~brass_stats.bots.RandomBot`'s, otherwise :class:`~brass_stats.bots.greedy.GreedyBot`'s.

    The win-probability model learns from such games what happens after actions a greedy player never
    takes (the actions a review has to judge)."""

    def __init__(self, rate: float) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"explore must be between 0 and 1, not {rate}")
        self.rate = rate
        self.name = f"greedy-explore-{rate:g}"
        self.greedy = GreedyBot()
        self.random = RandomBot()

    def core_spec(self) -> dict[str, Any] | None:
        """What the compiled core runs for this bot (see :mod:`brass_stats.bots.compiled`)."""
        if overridden(self, ExploringBot, "choose") or self.greedy.core_spec() is None:
            return None
        return {"kind": "exploring", "rate": self.rate, "weights": dataclasses.asdict(self.greedy.weights)}

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < self.rate:
            return self.random.choose(state, legal_actions, rng)
        return self.greedy.choose(state, legal_actions, rng)


__all__ = ["ExploringBot"]
