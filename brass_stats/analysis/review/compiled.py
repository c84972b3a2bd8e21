"""The judge's readings on the compiled core: what :class:`~.judge.Reviewer` asks of ``brass_stats._core``.

The core takes the samples of the hidden cards from their seeds, plays the rest of the mover's turn
with the greedy bot and, when the game ends before the mover moves again, the rest of the game with
the turn planner, and reads both learned models, drawing every random number the reference draws:
the readings are the reference's, float for float (``tests/test_core_review.py``). It is asked only
for positions it models and actions it applies exactly as the reference does (checked once per
action on the true position: an action a game as played took against a rule may not be one).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from ...bots.compiled import core_models
from ...bots.greedy import DEFAULT_WEIGHTS, Weights
from ...bots.value import FinalVpModel, WinProbabilityModel
from ...engine.actions import Action
from ...engine.compiled import NotInCore, core_module, enabled, encode_state, to_core
from ...engine.information import attempt
from ...engine.policy import ChoicePolicy
from ...engine.state import GameState

Vector = tuple[float, ...]


class CoreJudge:
    """The core's side of one reviewer: its models, its weights, and which actions it may read."""

    def __init__(self, model: WinProbabilityModel, final_vp: FinalVpModel, weights: Weights, policy: ChoicePolicy):
        self.usable = (
            type(model) is WinProbabilityModel and type(final_vp) is FinalVpModel and weights == DEFAULT_WEIGHTS
        )
        self.model, self.final_vp = model, final_vp
        self.weights = dataclasses.asdict(weights)
        self.policy = policy
        self._applies: dict[tuple[int, Action], bool] = {}

    def _core_state(self, state: GameState, actions: Sequence[Action]) -> Any | None:
        """The position for the core, when the core is on and applies every action as the reference does."""
        if not (self.usable and enabled()):
            return None
        try:
            core = to_core(state)
        except NotInCore:
            return None
        for action in actions:
            key = (state.action_count, action)
            ok = self._applies.get(key)
            if ok is None:
                ok = self._applies[key] = self._same_successor(state, core, action)
            if not ok:
                return None
        return core

    def _same_successor(self, state: GameState, core: Any, action: Action) -> bool:
        try:
            reference = encode_state(attempt(state, action, self.policy))
            return bool(json.loads(core.apply_unchecked(json.dumps(action.to_json())).to_json()) == reference)
        except Exception:  # noqa: BLE001 - any refusal on either side: the reference reads this action
            return False

    def ends(
        self, state: GameState, seat: int, played: Action, sample: tuple[int, int], turn: tuple[int, int]
    ) -> bool | None:
        """Whether the game ends before the mover moves again, read in the first sample (None: not here)."""
        core = self._core_state(state, [played])
        if core is None:
            return None
        request = {
            "seat": seat,
            "played": played.to_json(),
            "sample": list(sample),
            "turn": list(turn),
            "weights": self.weights,
        }
        return bool(core_module().review_ends(core, json.dumps(request)))

    def readings(
        self,
        state: GameState,
        seat: int,
        actions: Sequence[Action],
        samples: Sequence[tuple[int, int]],
        last: bool,
        turn: tuple[int, int],
    ) -> list[list[tuple[Vector, Vector]]] | None:
        """``Reviewer.judge``'s readings from the core (None: not here)."""
        core = self._core_state(state, actions)
        if core is None:
            return None
        request = {
            "seat": seat,
            "actions": [a.to_json() for a in actions],
            "samples": [list(s) for s in samples],
            "last": last,
            "turn": list(turn),
            "weights": self.weights,
        }
        text = core_module().review_judge(core, json.dumps(request), core_models(self.model, self.final_vp))
        return [[(tuple(win), tuple(vp)) for win, vp in per_action] for per_action in json.loads(text)]
