"""Players that play whole games through the engine, and self-play.

Write your own by implementing :class:`Agent`::

    class AlwaysLoan:
        name = "always-loan"

        def choose(self, state, legal_actions, rng):
            loans = [a for a in legal_actions if a.TYPE == "loan"]
            return loans[0] if loans else legal_actions[0]

>>> from brass_stats.bots import RandomBot, play_game
>>> log = play_game([RandomBot(), RandomBot()], seed=5)
>>> len(log.actions) > 70
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..engine.actions import Action
from ..engine.compiled import enabled as core_enabled
from ..engine.legal import legal_actions
from ..engine.setup import SeededChance, new_game
from ..engine.state import GameState
from ..engine.turn import apply_action
from ..log.format import GameLog
from .compiled import core_play, overridden


class Agent(Protocol):
    """A player: picks one of the legal actions. ``rng`` is the only source of randomness it may use."""

    name: str

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over action types first, then over that type's legal options."""

    name = "random"

    def core_spec(self) -> dict[str, Any] | None:
        """What the compiled core runs for this bot (see :mod:`brass_stats.bots.compiled`)."""
        return None if overridden(self, RandomBot, "choose") else {"kind": "random"}

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        by_type: dict[str, list[Action]] = {}
        for a in legal_actions:
            by_type.setdefault(a.TYPE, []).append(a)
        kind = rng.choice(sorted(by_type))
        return rng.choice(by_type[kind])


def play_game(
    agents: Sequence[Agent],
    seed: int,
    names: Sequence[str] | None = None,
    edition: str = "birmingham",
    options: Mapping[str, Any] | None = None,
) -> GameLog:
    """Play one seeded game to the end; returns its log (seeded chance, every choice stated).

    When every agent can be run by the compiled core (``core_spec()``), the whole game is played
    there in one request: the same game, action for action (:mod:`brass_stats.bots.compiled`)."""
    names = list(names or [f"{a.name}-{i}" for i, a in enumerate(agents)])
    log = GameLog.new(names, seed=seed, edition=edition, options=dict(options or {}))
    state = new_game(names, SeededChance(seed), log.rules(), log.options)
    if core_enabled():
        specs = [getattr(a, "core_spec", lambda: None)() for a in agents]
        if all(s is not None for s in specs):
            played = core_play(state, specs, seed)  # type: ignore[arg-type]
            if played is not None:
                log.actions.extend(played)
                return log
    rng = random.Random(seed)
    while not state.game_over:
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        action = agents[seat].choose(state, legal, rng)
        state, done = apply_action(state, action)
        log.actions.append(done)
    return log
