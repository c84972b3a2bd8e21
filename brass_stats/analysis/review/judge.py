"""The judge: one action of a game reviewed from its mover's point of view.

:class:`Reviewer` replays the game once and then, for any action (``docs/analysis.md`` defines each
figure):

- the engine's opinion after it: each player's win probability and expected final VP after the action
  and the rest of the mover's turn, over samples of the cards the mover cannot see (in the last round,
  the game played out by the turn planner);
- for the player who moved, unless the action was forced (one legal action): a search from that
  player's information set (:class:`~brass_stats.bots.search.SearchBot`, the hidden cards sampled
  from what the mover could know, never read) with the played action forced into the candidates; the
  mover's expected margin after the best action found and after the action played
  (:meth:`Reviewer.judge`), the loss in VP, the loss the engine is sure of (more samples, a deeper
  search) and a label (:mod:`.judgement`).

Each action's search and samples come from its own seed (:func:`.seeds.action_seed`), so an action's
judgement does not depend on which other actions the same reviewer judged before.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence
from typing import Any

from ...bots.greedy import GreedyBot
from ...bots.search import SearchBot
from ...bots.search.evaluation import StakeLeaf, WinLeaf
from ...bots.turn_planner import TurnPlanner
from ...bots.value import WinProbabilityModel, default_model
from ...bots.value.final_vp import FinalVpModel, default_final_vp_model, margins
from ...engine.actions import Action
from ...engine.information import attempt, determinize
from ...engine.legal import legal_actions
from ...engine.policy import ChoicePolicy
from ...engine.state import GameState
from ...engine.turn import apply_action
from ...log.format import GameLog
from ...replay import Replay, replay
from ...replay.notation import describe_action
from .compiled import CoreJudge
from .judgement import label, margin_label
from .records import ActionReview
from .seeds import action_seed

DEFAULT_SIMULATIONS = 1600
"""The default search budget per judged action (see ``docs/analysis.md`` for its cost and noise)."""
PROPOSALS = 3
"""How many of the search's most visited actions the judge compares with the action played."""
SAMPLES = 2
"""Samples of the hidden cards per judgement (each action judged on the same samples)."""
WIN_VP_PER_PLAYER = 50.0
"""What a whole win is worth in VP, per player (100 VP at two players, 200 at four): in the last round a
move's value is the mover's margin plus its share of the win at this rate, and before it a label also
counts the win probability a move gave away at this rate, so that a move that throws the game away is a
blunder even when it costs few VP (lichess's blunder, 15 points of win probability times 2/N, is then
worth 15 VP)."""
DEEP_FACTOR = 2
"""The second opinion's budget, in multiples of the review's (see :meth:`Reviewer.review`)."""
CONFIRM_SAMPLES = 4
"""More samples on which an action that would be labelled is judged again (against the best action only)."""
END_SAMPLES = 8
"""Samples when the game ends before the mover moves again (each one played out to the end: cheap)."""


Vector = tuple[float, ...]


class Sample:
    """A sample of the cards the mover cannot see, from its seed, and the seed of the rest of the mover's
    turn in it. It unpacks as ``(world, turn_seed)``; the world is dealt on first use (the compiled core
    deals its own from the seed)."""

    __slots__ = ("state", "seat", "seed", "turn_seed", "_world")

    def __init__(self, state: GameState, seat: int, seed: int, turn_seed: int) -> None:
        self.state, self.seat, self.seed, self.turn_seed = state, seat, seed, turn_seed
        self._world: GameState | None = None

    @property
    def world(self) -> GameState:
        if self._world is None:
            self._world = determinize(self.state, self.seat, random.Random(self.seed))
        return self._world

    @property
    def seeds(self) -> tuple[int, int]:
        return self.seed, self.turn_seed

    def __iter__(self) -> Iterator[Any]:
        yield self.world
        yield self.turn_seed


def mean_vector(vectors: Sequence[Sequence[float]]) -> Vector:
    """The seat-by-seat mean of some vectors of one value per seat.

    >>> mean_vector([(1.0, 0.0), (0.5, 0.5)])
    (0.75, 0.25)
    """
    return tuple(statistics.fmean(v[s] for v in vectors) for s in range(len(vectors[0])))


class Reviewer:
    """Judges single actions of one game, replayed once (a process holds one per game it reviews).

    ``game``: the game's log, replayed here under ``policy``, or its replay already made under
    ``policy`` (used as it is when it keeps its states, else replayed again with them).
    ``model``: the win-probability model, ``final_vp`` the expected-final-VP model (None: the shipped ones).
    """

    def __init__(
        self,
        game: GameLog | Replay,
        policy: ChoicePolicy,
        simulations: int,
        seed: int,
        model: WinProbabilityModel | None,
        final_vp: FinalVpModel | None = None,
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
        self.final_vp = final_vp or default_final_vp_model()
        self.greedy = GreedyBot()
        self.planner = TurnPlanner(self.greedy)
        self.bot = SearchBot(simulations=simulations, leaf=WinLeaf(self.model), greedy=self.greedy)
        # the second opinion on an action about to be labelled: a search of twice the budget whose leaves
        # are the expected final VP, so that its values are in the judge's units
        self.deep = SearchBot(simulations=DEEP_FACTOR * simulations, leaf=self.final_vp.predict, greedy=self.greedy)
        # ... and on a chance of winning given away: the same search, each seat valuing its expected VP plus
        # its chance of winning at the label's rate
        self.deep_win = SearchBot(
            simulations=DEEP_FACTOR * simulations,
            leaf=StakeLeaf(self.final_vp, self.model, WIN_VP_PER_PLAYER),
            greedy=self.greedy,
        )
        self.simulations = simulations
        self.seed = seed
        self.core = CoreJudge(self.model, self.final_vp, self.greedy.weights, policy)

    def review(self, index: int) -> ActionReview:
        r = self.replay
        before = r.state_at(index - 1)
        played = r.steps[index].action
        seat = played.player
        rules = before.rules
        rng = random.Random(action_seed(self.seed, index))
        legal = legal_actions(before)
        if len(legal) <= 1:  # forced: nothing to judge, but the chart still shows the engine's opinion
            worlds, final = self._worlds(before, seat, played, rng)
            (forced,) = self.judge(before, seat, [played], worlds, final)
            return ActionReview(**self._common(index, seat, played, rules, forced), judged=False)
        # an action that broke a rule the policy tolerates (a game as played) is judged, not searched:
        # the search plays by the rules
        departs = any(e.kind == "deviation" for e in r.steps[index].effects)
        # the searches list the legal actions themselves (None: the engine's list, as `legal`), which
        # spares the compiled core the list's journey across the boundary
        result = self.bot.analyse(before, None, rng, force=[] if departs else [played])
        # the search proposes; the judge compares its few most visited actions with the one played
        proposals = [s.action for s in result.actions[:PROPOSALS] if s.visits]
        mine = result.stats_of(played)
        search_rank = None if mine is None else [s.action for s in result.actions].index(mine.action)
        if mine is not None and mine.action in proposals:
            proposals.remove(mine.action)
        compared = [played, *proposals]
        worlds, final = self._worlds(before, seat, played, rng)
        readings = self.judge(before, seat, compared, worlds, final)
        n = before.num_players
        # [action][world]: the mover's margin; in the last round, where the game is played out, the
        # result is all but known and the win itself counts too
        stake = WIN_VP_PER_PLAYER * n if final else 0.0
        margin = [[margins(vp)[seat] + stake * win[seat] for win, vp in rs] for rs in readings]
        mean_margin = [statistics.fmean(m) for m in margin]
        best_i = max(range(len(compared)), key=lambda i: (mean_margin[i], -i))  # ties: the action played
        diffs = [b - p for b, p in zip(margin[best_i], margin[0], strict=True)]
        loss = max(0.0, mean_margin[best_i] - mean_margin[0])
        played_out = final  # whether the sure loss was measured on games played out (so it holds the win)
        if best_i and margin_label(loss) is not None and not final:
            # a label is only given when the loss holds: judged again on more samples of the hidden cards,
            # and in the round before the last by playing the game out (a plan for the last turns, such
            # as tiles built now to be sold at the very end, is invisible to the models)
            late = before.era == "rail" and before.rules.rounds_per_era[n] - before.era_round <= 1
            more = [self._world(before, seat, rng) for _ in range(CONFIRM_SAMPLES)]
            extra = self.judge(before, seat, [played, compared[best_i]], more, final=late)
            late_stake = WIN_VP_PER_PLAYER * n if late else 0.0
            again = [
                (margins(b[1])[seat] + late_stake * b[0][seat]) - (margins(p[1])[seat] + late_stake * p[0][seat])
                for p, b in zip(extra[0], extra[1], strict=True)
            ]
            diffs = again if late else diffs + again
            played_out = late
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        sure = statistics.fmean(diffs) - se
        deep_loss = None
        if best_i and margin_label(sure) is not None and not departs and not final:
            # and with a larger budget: the deeper search, which also plays the opponents' replies, must
            # see the loss too (a plan the judge's short horizon misses is not called a mistake)
            deep = self.deep.analyse(before, None, rng, force=[played, compared[best_i]])
            mine_deep, best_deep = deep.stats_of(played), deep.stats_of(compared[best_i])
            if mine_deep is not None and best_deep is not None and mine_deep.value and best_deep.value:
                deep_loss = max(0.0, margins(best_deep.value)[seat] - margins(mine_deep.value)[seat])
            else:
                deep_loss = 0.0  # the deeper search did not compare them: not sure
            sure = min(sure, deep_loss)
        win_mean = [mean_vector([w for w, _ in rs]) for rs in readings]
        vp_mean = [mean_vector([v for _, v in rs]) for rs in readings]
        win_loss = max(0.0, max(w[seat] for w in win_mean) - win_mean[0][seat])
        # a label says what the move cost: the sure loss and, unless it was measured on games played out
        # (which hold the win), the chance of winning the move gave away, valued as in the last round
        label_loss = max(0.0, sure) + (0.0 if played_out else WIN_VP_PER_PLAYER * n * win_loss)
        if margin_label(label_loss) != margin_label(max(0.0, sure)) and not departs:
            # the chance of winning raises the label: a deeper search must see that loss too
            deep = self.deep_win.analyse(before, None, rng, force=[played, compared[best_i]])
            mine_deep, best_deep = deep.stats_of(played), deep.stats_of(compared[best_i])
            seen = 0.0
            if mine_deep is not None and best_deep is not None and mine_deep.value and best_deep.value:
                seen = best_deep.value[seat] - mine_deep.value[seat]
            label_loss = max(max(0.0, sure), min(label_loss, seen))
        best_action = compared[best_i]
        return ActionReview(
            **self._common(index, seat, played, rules, readings[0]),
            judged=True,
            best=describe_action(best_action, rules, self.names),
            best_action=best_action.to_json(),
            best_value=mean_margin[best_i],
            played_value=mean_margin[0],
            loss=loss,
            loss_se=se,
            label=margin_label(label_loss),
            label_loss=label_loss,
            deep_loss=deep_loss,
            sure_loss=max(0.0, sure),
            win_loss=win_loss,
            win_label=label(win_loss, n),
            compared=tuple((w, v) for w, v in zip(win_mean, vp_mean, strict=True)),
            simulations=result.simulations,
            search_rank=search_rank,
        )

    def _common(
        self, index: int, seat: int, played: Action, rules: Any, readings: Sequence[tuple[Vector, Vector]]
    ) -> dict[str, Any]:
        return {
            "index": index,
            "seat": seat,
            "player": self.names[seat],
            "action": describe_action(played, rules, self.names),
            "win_after": mean_vector([w for w, _ in readings]),
            "vp_after": mean_vector([v for _, v in readings]),
        }

    def _world(self, state: GameState, seat: int, rng: random.Random) -> Sample:
        """A sample of the cards ``seat`` cannot see, and the seed of the rest of its turn in it."""
        seed = rng.getrandbits(64)
        return Sample(state, seat, seed, rng.getrandbits(64))

    def _worlds(self, state: GameState, seat: int, played: Action, rng: random.Random) -> tuple[list[Sample], bool]:
        """The samples of the hidden cards an action is judged on, and whether the game ends before the
        mover moves again (public: the round clock), in which case there are :data:`END_SAMPLES`."""
        worlds = [self._world(state, seat, rng) for _ in range(SAMPLES)]
        turn = (state.round, state.turn_pos)
        final = self.core.ends(state, seat, played, worlds[0].seeds, turn)
        if final is None:
            world, turn_seed = worlds[0]
            first = self._finish_turn(attempt(world, played, self.policy), seat, random.Random(turn_seed), turn)
            final = first.game_over or (first.era == "rail" and first.is_last_round_of_era)
        if final:
            worlds += [self._world(state, seat, rng) for _ in range(END_SAMPLES - SAMPLES)]
        return worlds, final

    def judge(
        self,
        state: GameState,
        seat: int,
        actions: Sequence[Action],
        worlds: Sequence[Sample | tuple[GameState, int]],
        final: bool,
    ) -> list[list[tuple[Vector, Vector]]]:
        """Each action's readings in each world: (each seat's win probability, each seat's expected final
        VP) after the action and the rest of the mover's turn (played by the greedy bot). Every action is
        read in the same worlds with the same seeds: a paired comparison, so the noise of the samples
        cancels in the differences.

        When the game ends before the mover moves again (``final``: its turn ends in the last round), the
        rest of the game is played out in every seat by :class:`~brass_stats.bots.turn_planner.TurnPlanner`
        (greedy, planning each two-action turn) and the result is the reading: the
        models, static evaluations, miss what the last turns do to one another (a link or a merchant's beer
        taken from the player who needed it, a sale that wins the game)."""
        turn = (state.round, state.turn_pos)
        if all(isinstance(w, Sample) for w in worlds):  # samples the core can deal from their seeds
            seeds = [w.seeds for w in worlds if isinstance(w, Sample)]
            found = self.core.readings(state, seat, actions, seeds, final, turn)
            if found is not None:
                return found
        out: list[list[tuple[Vector, Vector]]] = []
        for action in actions:
            readings = []
            for world, turn_seed in worlds:
                turn_rng = random.Random(turn_seed)
                after = self._finish_turn(attempt(world, action, self.policy), seat, turn_rng, turn)
                if final:
                    after = self._play_out(after, turn_rng)
                readings.append((tuple(self.model.predict(after)), tuple(self.final_vp.predict(after))))
            out.append(readings)
        return out

    def _finish_turn(self, state: GameState, seat: int, rng: random.Random, turn: tuple[int, int]) -> GameState:
        """The rest of the mover's turn ``turn`` (its round and place in the turn order, read before the
        action: an action that ends the turn of a seat that also moves first in the next round must not
        start that next turn), played by the greedy bot."""
        while not state.game_over and state.current_player == seat and (state.round, state.turn_pos) == turn:
            state = apply_action(state, self.greedy.choose(state, legal_actions(state), rng))[0]
        return state

    def _play_out(self, state: GameState, rng: random.Random) -> GameState:
        """The rest of the game, every seat played by the turn planner (the last turns decide games)."""
        while not state.game_over:
            state = apply_action(state, self.planner.choose(state, legal_actions(state), rng))[0]
        return state


__all__ = [
    "WIN_VP_PER_PLAYER",
    "CONFIRM_SAMPLES",
    "DEEP_FACTOR",
    "DEFAULT_SIMULATIONS",
    "END_SAMPLES",
    "PROPOSALS",
    "SAMPLES",
    "Reviewer",
    "mean_vector",
]
