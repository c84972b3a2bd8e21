"""Replay a game log through the engine: step through it, and read the state after any action.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.engine import Loan
>>> log = GameLog.new(["Ann", "Bob"], seed=1)
>>> r = Replay(log)
>>> seat = r.state.current_player
>>> r.push(Loan(seat, r.state.players[seat].hand[0])).money_after(seat)
47
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.policy import STRICT, ChoicePolicy
from ..engine.scoring import Standing, standings
from ..engine.setup import new_game
from ..engine.state import Effect, GameState
from ..engine.turn import apply_action
from ..errors import IllegalAction
from ..log.format import GameLog


@dataclass(slots=True)
class Step:
    """One applied action: where it sat, what it did, and the state after it."""

    index: int
    era: str
    round: int
    era_round: int
    turn_position: int  # 0-based position in that round's turn order
    action: Action  # as resolved (every choice stated)
    effects: list[Effect]
    state: GameState | None  # after the action (None when states are not kept)

    def __repr__(self) -> str:
        where = f"<Step {self.index}: {self.era.title()} Era round {self.era_round}"
        if self.state is None:
            return f"{where}, seat {self.action.player}: {self.action!r}>"
        from .notation import describe_step

        names = [_short(p.name) for p in self.state.players]
        text = _short(describe_step(self, self.state.rules, names).split(". End of ", 1)[0], 160)
        return f"{where}: {text}>"

    def money_after(self, seat: int) -> int:
        assert self.state is not None
        return self.state.players[seat].money


@dataclass
class Replay:
    """Replays a log action by action. Illegal actions stop the replay and are kept in ``error``."""

    log: GameLog
    policy: ChoicePolicy = STRICT
    keep_states: bool = True
    initial: GameState = field(init=False)
    state: GameState = field(init=False)
    steps: list[Step] = field(default_factory=list, init=False)
    error: IllegalAction | None = field(default=None, init=False)
    checkpoints: dict[str, GameState] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.initial = new_game(list(self.log.players), self.log.chance_source(), self.log.rules(), self.log.options)
        # without kept states the replay changes one state in place (no copy per action)
        self.state = self.initial if self.keep_states else self.initial.copy()

    def __repr__(self) -> str:
        names = ", ".join(repr(_short(n)) for n in self.log.players)
        head = f"<Replay {self.log.edition}, {len(self.log.players)} players ({names}): "
        done = f"{len(self.steps)} of {len(self.log.actions)} actions"
        if self.error is not None:
            return f"{head}{done}, stopped by an illegal action at index {self.error.index} ({self.error.rule})>"
        if self.finished:
            top = min(self.standings(), key=lambda s: (s.rank, s.seat))
            return f"{head}{done}, finished: {_short(top.name)!r} wins with {top.vp} VP>"
        return f"{head}{done}, not finished>"

    # -- stepping ------------------------------------------------------------
    def push(self, action: Action) -> Step:
        """Apply one more action (raises IllegalAction, leaving the replay where it was)."""
        before = self.state
        effects: list[Effect] = []
        before.effects = effects
        era, round_, era_round, turn_pos = before.era, before.round, before.era_round, before.turn_pos
        try:
            after, resolved = apply_action(before, action, self.policy, in_place=not self.keep_states)
        except IllegalAction as e:
            if not self.keep_states:
                self._restore()
            e.index = len(self.steps)
            e.era, e.round = era, round_
            e.action = action.to_json()
            e.file = self.log.file
            e.edition = self.log.edition
            e.details.setdefault("player", action.player)
            raise
        finally:
            before.effects = None
        after.effects = None
        step = Step(
            len(self.steps),
            era,
            round_,
            era_round,
            turn_pos,
            resolved,
            effects,
            after if self.keep_states else None,
        )
        self.steps.append(step)
        if era == "canal" and after.era == "rail":
            self.checkpoints["rail_era_start"] = after if self.keep_states else after.copy()
        self.state = after
        return step

    def _restore(self) -> None:
        """After an illegal action changed the in-place state half-way: the state after the last
        legal action again, replayed from the start (only failing games pay for this)."""
        state = self.initial.copy()
        for step in self.steps:
            state, _ = apply_action(state, step.action, self.policy, in_place=True)
        state.effects = None
        self.state = state

    def run(self) -> Replay:
        """Apply every action of the log; stops at the first illegal one (see ``error``)."""
        with gc_paused():
            for action in self.log.actions[len(self.steps) :]:
                try:
                    self.push(action)
                except IllegalAction as e:
                    self.error = e
                    break
        return self

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    # -- reading ---------------------------------------------------------------
    def state_at(self, index: int) -> GameState:
        """State after action ``index`` (``-1``: the state before the first action), yours to change.

        It is an independent copy (:meth:`GameState.independent_copy`): changing it, its players, lists
        or dicts changes neither the replay nor any other state it handed out.
        """
        return self._state_at(index).independent_copy()

    def _state_at(self, index: int) -> GameState:
        """The kept state after action ``index`` itself, for the package's own readers, which never
        change it: it shares what an action did not change (players, lists, dicts) with the states
        around it, so a change would reach them too."""
        if index < 0:
            return self.initial
        if not self.keep_states:
            raise ValueError("this replay does not keep states (keep_states=False)")
        return self.steps[index].state  # type: ignore[return-value]

    @property
    def finished(self) -> bool:
        return self.state.game_over

    def standings(self) -> list[Standing]:
        return standings(self.state)

    @property
    def deviations(self) -> list[dict[str, Any]]:
        """Every broken rule the policy tolerated (replays as played), in order:
        ``{"action_index", "rule", "message"}``. Always empty under the strict policy."""
        return [
            {"action_index": s.index, "rule": e.detail["rule"], "message": e.detail["message"]}
            for s in self.steps
            for e in s.effects
            if e.kind == "deviation"
        ]

    def resolved_log(self) -> GameLog:
        """The log with every choice written out, as replayed."""
        out = GameLog(
            self.log.players,
            self.log.chance,
            [s.action for s in self.steps],
            self.log.edition,
            dict(self.log.options),
            self.log.result,
            self.log.source,
        )
        return out

    def check_result(self) -> list[str]:
        """Differences between the declared result (if any) and the replay; empty when they agree."""
        declared = self.log.result
        if not declared:
            return []
        problems: list[str] = []
        final = declared.get("final")
        if final is not None:
            if not self.finished:
                return ["the log declares a final result but the game is not finished"]
            got = {s.seat: s for s in self.standings()}
            for row in final:
                s = got.get(row.get("seat"))
                if s is None:
                    problems.append(f"declared result names unknown seat {row.get('seat')!r}")
                    continue
                for key in ("vp", "income_level", "money", "rank"):
                    if key in row and row[key] != getattr(s, key):
                        problems.append(f"seat {s.seat} {key}: declared {row[key]}, replayed {getattr(s, key)}")
        canal = declared.get("rail_era_start")
        if canal is not None:
            st = self.checkpoints.get("rail_era_start")
            if st is None:
                problems.append(
                    "the log declares a rail-era-start checkpoint but the replay never reached the Rail Era"
                )
            else:
                for key, values in canal.items():
                    for seat, want in enumerate(values):
                        have = _player_value(st, seat, key)
                        if have != want:
                            problems.append(f"rail era start, seat {seat} {key}: declared {want}, replayed {have}")
        return problems


# Objects frozen before this module was imported, taken as not the application's: CPython 3.12 starts
# with the tuples of its static types frozen (375 on 3.12.1; none on 3.11 or 3.13). They are immortal,
# so the first thaw below (which moves them to the oldest generation) changes nothing for them. (An
# application that froze objects before importing this module sees them thawed once, by the first
# replay: they are then scanned by full collections again, nothing worse.)
_FROZEN_AT_START = [gc.get_freeze_count()]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a replay allocates many small objects and no cycles,
    and the collector would rescan every kept state again and again (about 3x slower)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            # what the replay made and still holds goes to the oldest generation in one step
            # (freeze, then unfreeze): re-enabled with its young generation full, the collector would
            # otherwise scan it at once, and again in every younger collection while it lives
            if gc.get_freeze_count() == _FROZEN_AT_START[0]:  # never thaw what the application froze
                gc.freeze()
                gc.unfreeze()
                _FROZEN_AT_START[0] = 0
            gc.enable()


def _player_value(state: GameState, seat: int, key: str) -> Any:
    p = state.players[seat]
    if key == "income_level":
        return state.income_level(seat)
    if key == "income_space":
        return p.income_space
    return getattr(p, key)


def _short(name: str, limit: int = 40) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def replay(log: GameLog, policy: ChoicePolicy = STRICT, keep_states: bool = True) -> Replay:
    """Replay a whole log (see :class:`Replay`)."""
    return Replay(log, policy, keep_states).run()
