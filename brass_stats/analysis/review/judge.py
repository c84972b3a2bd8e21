"""The judge: one action of a game reviewed from its mover's point of view.

:class:`Reviewer` replays the game once and then, for any action:

- each player's win probability after the action (the win-probability model, public facts only);
- for the player who moved, unless the action was forced (one legal action): a search from that
  player's information set (:class:`~brass_stats.bots.search.SearchBot`, the hidden cards sampled
  from what the mover could know, never read) with the played action forced into the candidates;
  the mover's win probability after the best action found and after the action played
  (:meth:`Reviewer.judge`), the loss, and a label (:mod:`.judgement`).

Each action's search and samples come from its own seed (:func:`.seeds.action_seed`), so an action's
judgement does not depend on which other actions the same reviewer judged before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...bots.greedy import GreedyBot
from ...bots.search import SearchBot
from ...engine.actions import Action
from ...engine.information import attempt, determinize
from ...engine.legal import legal_actions
from ...engine.policy import ChoicePolicy
from ...engine.state import GameState
from ...engine.turn import apply_action
from ...log.format import GameLog
from ...replay import Replay, replay
from ...replay.notation import describe_action
from ..win_probability import WinProbabilityModel, default_model
from .judgement import label
from .records import ActionReview
from .seeds import action_seed

DEFAULT_SIMULATIONS = 100
"""The default search budget per judged action (see ``docs/analysis.md`` for its cost and noise)."""
PROPOSALS = 3
"""How many of the search's most visited actions the judge compares with the action played."""
SAMPLES = 2
"""Samples of the hidden cards per judgement (each action judged on the same samples)."""
END_SAMPLES = 8
"""Samples when the game ends before the mover moves again (each one played out to the end: cheap)."""


class Reviewer:
    """Judges single actions of one game, replayed once (a process holds one per game it reviews).

    ``game``: the game's log, replayed here under ``policy``, or its replay already made under
    ``policy`` (used as it is when it keeps its states, else replayed again with them).
    ``model``: the win-probability model (None: the shipped one).
    """

    def __init__(
        self,
        game: GameLog | Replay,
        policy: ChoicePolicy,
        simulations: int,
        seed: int,
        model: WinProbabilityModel | None,
    ) -> None:
        if isinstance(game, Replay):
            if game.policy is not policy:
                raise ValueError("the replay was made under another policy than the review's")
            self.replay: Replay = game if game.keep_states else replay(game.log, policy)
        else:
            self.replay = replay(game, policy)
        self.policy = policy
        self.names = list(self.replay.log.players)
        self.model = model or default_model()
        self.greedy = GreedyBot()
        self.bot = SearchBot(simulations=simulations, leaf=self._leaf, greedy=self.greedy)
        self.simulations = simulations
        self.seed = seed

    def _leaf(self, state: GameState) -> tuple[float, ...]:
        return tuple(self.model.predict(state))

    def review(self, index: int) -> ActionReview:
        r = self.replay
        before = r.state_at(index - 1)
        after = r.state_at(index)
        played = r.steps[index].action
        seat = played.player
        rules = before.rules
        common: dict[str, Any] = {
            "index": index,
            "seat": seat,
            "player": self.names[seat],
            "action": describe_action(played, rules, self.names),
            "win_after": tuple(self.model.predict(after)),
        }
        legal = legal_actions(before)
        if len(legal) <= 1:
            return ActionReview(**common, judged=False)
        rng = random.Random(action_seed(self.seed, index))
        # an action that broke a rule the policy tolerates (a game as played) is judged, not searched:
        # the search plays by the rules
        departs = any(e.kind == "deviation" for e in r.steps[index].effects)
        result = self.bot.analyse(before, legal, rng, force=[] if departs else [played])
        # the search proposes; the judge compares its few most visited actions with the one played
        proposals = [s.action for s in result.actions[:PROPOSALS] if s.visits]
        mine = result.stats_of(played)
        if mine is not None and mine.action in proposals:
            proposals.remove(mine.action)
        values = self.judge(before, seat, [played, *proposals], rng)
        played_value = values[0]
        best_i = max(range(len(values)), key=lambda i: (values[i], -i))  # ties: the action played
        best_action = ([played, *proposals])[best_i]
        best_value = values[best_i]
        loss = best_value - played_value
        return ActionReview(
            **common,
            judged=True,
            best=describe_action(best_action, rules, self.names),
            best_action=best_action.to_json(),
            best_value=best_value,
            played_value=played_value,
            loss=loss,
            label=label(loss, before.num_players),
            simulations=result.simulations,
        )

    def judge(self, state: GameState, seat: int, actions: Sequence[Action], rng: random.Random) -> list[float]:
        """The mover's win probability after each action and the rest of its turn (played by the greedy
        bot), averaged over :data:`SAMPLES` samples of the cards it cannot see (the same samples for every
        action: a paired comparison, so the noise of the samples cancels in the differences).

        When the game ends before the mover moves again (its turn ends in the last round), the rest of
        the game is played out by the greedy bot in every seat and the result is the value, averaged over
        :data:`END_SAMPLES` samples: the model, a static evaluation, misses what the last turns do to one
        another (a link or a merchant's beer taken from the player who needed it)."""
        seeds = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(SAMPLES)]  # (world, rest of turn)
        worlds = [determinize(state, seat, random.Random(w)) for w, _ in seeds]
        # whether the game ends before the mover moves again: public (the round clock), the same in every world
        first_rng = random.Random(seeds[0][1])
        first = self._finish_turn(attempt(worlds[0], actions[0], self.policy), seat, first_rng)
        final = first.game_over or (first.era == "rail" and first.is_last_round_of_era)
        if final:
            more = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(END_SAMPLES - SAMPLES)]
            seeds += more
            worlds += [determinize(state, seat, random.Random(w)) for w, _ in more]
        totals = [0.0] * len(actions)
        for w, (world, (_, turn_seed)) in enumerate(zip(worlds, seeds, strict=True)):
            for i, action in enumerate(actions):
                if w == i == 0:  # made above, with its generator where the turn left it
                    after, turn_rng = first, first_rng
                else:
                    turn_rng = random.Random(turn_seed)
                    after = self._finish_turn(attempt(world, action, self.policy), seat, turn_rng)
                if final:
                    after = self._play_out(after, turn_rng)
                totals[i] += self.model.predict(after)[seat]
        return [t / len(worlds) for t in totals]

    def _finish_turn(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        turn = (state.round, state.turn_pos)
        while not state.game_over and state.current_player == seat and (state.round, state.turn_pos) == turn:
            state = apply_action(state, self.greedy.choose(state, legal_actions(state), rng))[0]
        return state

    def _play_out(self, state: GameState, rng: random.Random) -> GameState:
        while not state.game_over:
            state = apply_action(state, self.greedy.choose(state, legal_actions(state), rng))[0]
        return state


__all__ = ["DEFAULT_SIMULATIONS", "END_SAMPLES", "PROPOSALS", "SAMPLES", "Reviewer"]
