"""A player that plans its whole turn: the greedy bot, looking one action further within its own turn.

The greedy bot judges each action by the position it leaves, so it misses a turn whose first action only
pays off through the second: a brewery built for the beer that a sale in the same turn needs, a loan for
the money of a second build. With two actions left in its turn, :class:`TurnPlanner` tries the greedy
evaluation's :data:`CANDIDATES` best first actions (:func:`~.search.candidates.rank`), each followed by the
greedy bot's second action, and plays the first action of the best pair (by the greedy evaluation of the
position after both). With one action left it is the greedy bot. The game review plays the last round
out with it, where such turns decide games.

>>> import random
>>> from brass_stats.engine import SeededChance, new_game
>>> from brass_stats.engine.legal import legal_actions
>>> g = new_game(["A", "B"], SeededChance(3))
>>> a = TurnPlanner().choose(g, legal_actions(g), random.Random(0))
>>> a in legal_actions(g)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.compiled import enabled as core_enabled
from ..engine.information import knowable
from ..engine.legal import legal_actions as all_legal_actions
from ..engine.state import GameState
from ..engine.turn import apply_action
from .compiled import core_choose, overridden
from .greedy import GreedyBot, evaluate
from .search.candidates import rank

CANDIDATES = 10
"""First actions tried with two actions left (the greedy evaluation's best, one per group of equal boards)."""


class TurnPlanner:
    """The greedy bot, choosing a two-action turn's first action by the best pair it can start."""

    name = "planner"

    def __init__(self, greedy: GreedyBot | None = None, candidates: int = CANDIDATES) -> None:
        self.greedy = greedy or GreedyBot()
        self.candidates = candidates

    def core_spec(self) -> dict[str, Any] | None:
        """What the compiled core runs for this bot (see :mod:`brass_stats.bots.compiled`)."""
        if overridden(self, TurnPlanner, "choose") or self.greedy.core_spec() is None:
            return None
        return {"kind": "planner", "weights": dataclasses.asdict(self.greedy.weights), "candidates": self.candidates}

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if core_enabled() and len(legal_actions) > 1:
            spec = self.core_spec()
            chosen = None if spec is None else core_choose(state, spec, legal_actions, rng)
            if chosen is not None:
                return chosen
        seat = state.current_player
        assert seat is not None  # a game in play has a player to move
        if state.phase != "actions" or state.actions_per_turn() - state.actions_this_turn < 2 or len(legal_actions) < 2:
            return self.greedy.choose(state, legal_actions, rng)
        ranked = rank(state, knowable(state, legal_actions), self.greedy)[: self.candidates]
        if not ranked:
            return self.greedy.choose(state, legal_actions, rng)
        best, best_value = ranked[0].action, float("-inf")
        for candidate in ranked:
            after = apply_action(state, candidate.action)[0]
            if not after.game_over and after.current_player == seat:
                second = self.greedy.choose(after, all_legal_actions(after), rng)
                after = apply_action(after, second)[0]
            value = evaluate(after, seat, self.greedy.weights)
            if value > best_value + 1e-9:
                best, best_value = candidate.action, value
        return best
