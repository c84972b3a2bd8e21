"""Review a recorded game like a chess engine: win probabilities, each action judged, the better action.

For every action of a game (up to its first illegal action, if any):

- each player's win probability after the action (the win-probability model, public facts only);
- for the player who moved, unless the action was forced (one legal action): a search from that
  player's information set (:class:`~brass_stats.bots.search.SearchBot`, the hidden cards sampled
  from what the mover could know, never read) with the played action forced into the candidates;
  the mover's win probability after the best action found and after the action played, the loss,
  and a label (:mod:`.judgement`);
- per player: accuracy and the number of inaccuracies, mistakes and blunders.

Actions are independent tasks, each with its own seed derived from the review's seed and the action's
index, so a review is the same whatever the number of workers (``workers``) or a Dask cluster
(``cluster``) that runs them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from ...bots.greedy import GreedyBot
from ...bots.search import SearchBot
from ...engine.actions import Action
from ...engine.information import attempt, determinize
from ...engine.legal import legal_actions
from ...engine.policy import AS_PLAYED, STRICT, ChoicePolicy
from ...engine.state import GameState
from ...engine.turn import apply_action
from ...log.format import GameLog
from ...replay import Replay, replay
from ...replay.notation import describe_action
from ..win_probability import WinProbabilityModel, default_model
from .judgement import game_accuracy, label

DEFAULT_SIMULATIONS = 100
"""The default search budget per judged action (see ``docs/analysis.md`` for its cost and noise)."""
PROPOSALS = 3
"""How many of the search's most visited actions the judge compares with the action played."""
SAMPLES = 2
"""Samples of the hidden cards per judgement (each action judged on the same samples)."""
END_SAMPLES = 8
"""Samples when the game ends before the mover moves again (each one played out to the end: cheap)."""


@dataclass(frozen=True)
class ActionReview:
    """One action of a reviewed game."""

    index: int  # the action's index in the log (0-based; shown to people as index + 1)
    seat: int
    player: str
    action: str  # the action played, in the move list's notation
    win_after: tuple[float, ...]  # each seat's win probability after the action
    judged: bool  # False: the action was forced (the only legal one)
    best: str | None = None  # the best action the search found, in notation
    best_action: dict[str, Any] | None = None  # the same, as log JSON (for drawing it)
    best_value: float | None = None  # the mover's win probability after the best action found
    played_value: float | None = None  # ... and after the action played
    loss: float | None = None  # best_value - played_value, never below 0
    label: str | None = None  # "inaccuracy", "mistake", "blunder" or None
    simulations: int = 0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["win_after"] = list(self.win_after)
        return d


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    player: str
    judged: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: every action (up to the first illegal one) and each player's summary."""

    edition: str
    players: tuple[str, ...]
    actions: tuple[ActionReview, ...]
    simulations: int
    seed: int
    stopped: dict[str, Any] | None  # the first illegal action (index, rule, message), if any

    @property
    def summary(self) -> tuple[PlayerReview, ...]:
        n = len(self.players)
        out = []
        for seat, name in enumerate(self.players):
            mine = [a for a in self.actions if a.seat == seat and a.judged]
            labels = [a.label for a in mine]
            out.append(
                PlayerReview(
                    seat,
                    name,
                    len(mine),
                    game_accuracy([a.loss or 0.0 for a in mine], n),
                    labels.count("inaccuracy"),
                    labels.count("mistake"),
                    labels.count("blunder"),
                )
            )
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": list(self.players),
            "simulations": self.simulations,
            "seed": self.seed,
            "stopped": self.stopped,
            "summary": [asdict(p) for p in self.summary],
            "actions": [a.to_json() for a in self.actions],
        }


def action_seed(seed: int, index: int) -> int:
    """The search seed of action ``index`` in a review made with ``seed`` (independent of workers)."""
    digest = hashlib.sha256(f"brass-stats-review:{seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class Reviewer:
    """Judges single actions of one game (a worker holds one, with the game replayed once)."""

    def __init__(
        self, log: GameLog, policy: ChoicePolicy, simulations: int, seed: int, model: WinProbabilityModel | None
    ) -> None:
        self.replay: Replay = replay(log, policy)
        self.policy = policy
        self.names = list(log.players)
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


_WORKER: Reviewer | None = None


def _start_worker(log_json: dict[str, Any], policy: ChoicePolicy, simulations: int, seed: int) -> None:
    global _WORKER
    _WORKER = Reviewer(GameLog.from_json(log_json), policy, simulations, seed, None)


def _review_in_worker(index: int) -> ActionReview:
    assert _WORKER is not None
    return _WORKER.review(index)


def review_actions(
    log_json: dict[str, Any], policy: ChoicePolicy, simulations: int, seed: int, indices: Sequence[int]
) -> list[ActionReview]:
    """Review some actions of a game in this process (one task of a cluster run)."""
    reviewer = Reviewer(GameLog.from_json(log_json), policy, simulations, seed, None)
    return [reviewer.review(i) for i in indices]


def review_game(
    log: GameLog,
    policy: ChoicePolicy = STRICT,
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int = 0,
    workers: int = 1,
    cluster: str | None = None,
    model: WinProbabilityModel | None = None,
    progress: Any = None,
) -> GameReview:
    """Review every action of ``log`` (up to its first illegal one); see the module docstring.

    ``progress``: a callable called once per reviewed action (for a progress bar).
    """
    r = replay(log, policy, keep_states=False)
    count = len(r.steps)
    stopped = None
    if r.error is not None:
        e = r.error
        stopped = {"index": e.index, "rule": e.rule, "message": e.message}
    indices = list(range(count))
    reviews: dict[int, ActionReview] = {}
    for item in _run(log, policy, simulations, seed, indices, workers, cluster, model):
        reviews[item.index] = item
        if progress is not None:
            progress()
    return GameReview(
        log.edition,
        tuple(log.players),
        tuple(reviews[i] for i in indices),
        simulations,
        seed,
        stopped,
    )


def _run(
    log: GameLog,
    policy: ChoicePolicy,
    simulations: int,
    seed: int,
    indices: list[int],
    workers: int,
    cluster: str | None,
    model: WinProbabilityModel | None,
) -> Iterator[ActionReview]:
    if cluster is not None:
        from ...tasks.cluster import Cluster

        dask = Cluster(cluster)
        try:
            log_json = log.to_json()
            parts = dask.workers() * 2
            chunks = [indices[i::parts] for i in range(parts)]
            calls = ((log_json, policy, simulations, seed, c) for c in chunks if c)
            for batch in dask.imap(review_actions, calls):
                yield from batch
        finally:
            dask.close()
    elif workers <= 1 or len(indices) <= 1:
        reviewer = Reviewer(log, policy, simulations, seed, model)
        for i in indices:
            yield reviewer.review(i)
    else:
        init = (log.to_json(), policy, simulations, seed)
        with ProcessPoolExecutor(
            max_workers=min(workers, len(indices)), initializer=_start_worker, initargs=init
        ) as pool:
            yield from pool.map(_review_in_worker, indices, chunksize=1)


def review_rows(review: GameReview, game_id: str, as_played: bool = False) -> Iterable[dict[str, Any]]:
    """One row per reviewed action, for the ``analysis`` table (see ``docs/storage-schema.md``);
    ``as_played``: the game was replayed as played (:data:`AS_PLAYED`)."""
    for a in review.actions:
        yield {
            "game_id": game_id,
            "action_index": a.index,
            "seat": a.seat,
            "judged": a.judged,
            "win_after": list(a.win_after),
            "best": a.best,
            "best_action": None
            if a.best_action is None
            else json.dumps(a.best_action, sort_keys=True, separators=(",", ":")),
            "best_value": a.best_value,
            "played_value": a.played_value,
            "loss": a.loss,
            "label": a.label,
            "simulations": review.simulations,
            "seed": review.seed,
            "as_played": as_played,
        }


__all__ = [
    "AS_PLAYED",
    "DEFAULT_SIMULATIONS",
    "ActionReview",
    "GameReview",
    "PlayerReview",
    "Reviewer",
    "action_seed",
    "review_game",
    "review_rows",
]
