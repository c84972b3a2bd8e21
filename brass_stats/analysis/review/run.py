"""A whole game reviewed: its actions fanned out as independent tasks (:func:`review_game`).

Every action of a game, up to its first illegal action if any, is one task of the package's task runner
(:func:`brass_stats.tasks.run_tasks`): in this process, in local worker processes (``workers``) or on a
Dask cluster (``cluster``). Each action's search has its own seed (:func:`.seeds.action_seed`), so the
review is the same wherever and in whatever order its actions are judged.

In this process the actions are judged by one :class:`~.judge.Reviewer` on the caller's replay. Elsewhere
a task carries a :class:`ReviewJob` (the log as JSON text, the policy, the budget, the seed and the
model, pickled once) and the action's index; each worker process makes the job's reviewer once (the
game replayed, the model loaded) and keeps it in a per-process cache (:func:`reviewer_for`).
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...bots.value import WinProbabilityModel
from ...engine.policy import STRICT, ChoicePolicy
from ...log.format import GameLog
from ...replay import Replay, replay
from ...tasks import run_tasks
from .judge import DEFAULT_SIMULATIONS, Reviewer
from .records import ActionReview, GameReview


@dataclass(frozen=True)
class ReviewJob:
    """What a worker needs to judge any action of one game: plain, picklable values, sent with every task.

    ``key`` (a digest of all of them) is what a job is compared and hashed by: the per-process cache's
    key, the same for every task of one review wherever it is unpickled.
    """

    game: str = field(compare=False, repr=False)  # the log as JSON text
    policy: ChoicePolicy = field(compare=False)
    simulations: int = field(compare=False)
    seed: int = field(compare=False)
    model: bytes | None = field(compare=False, repr=False)  # the pickled model; None: the shipped one
    key: str

    @classmethod
    def of(
        cls, log: GameLog, policy: ChoicePolicy, simulations: int, seed: int, model: WinProbabilityModel | None
    ) -> ReviewJob:
        game = json.dumps(log.to_json(), ensure_ascii=False)
        blob = None if model is None else pickle.dumps(model)
        key = hashlib.sha256(pickle.dumps((game, policy, simulations, seed, blob))).hexdigest()
        return cls(game, policy, simulations, seed, blob, key)


@lru_cache(maxsize=2)  # bounded: a long-lived Dask worker may review game after game
def reviewer_for(job: ReviewJob) -> Reviewer:
    """The job's reviewer, made once per process: the game replayed, the model unpickled."""
    model = None if job.model is None else pickle.loads(job.model)
    return Reviewer(GameLog.from_json(json.loads(job.game)), job.policy, job.simulations, job.seed, model)


def review_action(job: ReviewJob, index: int) -> ActionReview:
    """Review action ``index`` of the job's game (one task, in a worker process or on a Dask worker)."""
    return reviewer_for(job).review(index)


def review_game(
    game: GameLog | Replay,
    policy: ChoicePolicy | None = None,
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int = 0,
    workers: int = 1,
    cluster: str | None = None,
    model: WinProbabilityModel | None = None,
    progress: Callable[[], Any] | None = None,
) -> GameReview:
    """Review every action of ``game`` (up to its first illegal one); see :mod:`brass_stats.analysis.review`.

    ``game``: a log, replayed here under ``policy`` (default: strict), or its replay (made under
    ``policy`` when one is given; a replay keeping its states is not replayed again in this process).
    ``workers``: local processes (1: this process); ``cluster``: a Dask cluster instead (``local``,
    ``local:N`` or a scheduler address). ``model``: the win-probability model (None: the shipped one),
    sent to the workers too. ``progress``: a callable called once per reviewed action (a progress bar).
    """
    if isinstance(game, Replay):
        r = game
        if policy is not None and policy is not r.policy:
            raise ValueError("the replay was made under another policy than the one given")
        policy = r.policy
    else:
        policy = policy if policy is not None else STRICT
        r = replay(game, policy)
    log = r.log
    indices = list(range(len(r.steps)))
    stopped = None
    if r.error is not None:
        e = r.error
        stopped = {"index": e.index, "rule": e.rule, "message": e.message}
    calls: list[tuple[Any, ...]]
    if cluster is None and (workers <= 1 or len(indices) <= 1):  # here: one reviewer on the replay at hand
        fn: Callable[..., ActionReview] = Reviewer(r, policy, simulations, seed, model).review
        calls = [(i,) for i in indices]
    else:
        job = ReviewJob.of(log, policy, simulations, seed, model)
        fn, calls = review_action, [(job, i) for i in indices]
    reviews: dict[int, ActionReview] = {}
    for item in run_tasks(fn, calls, workers=max(1, min(workers, len(indices))), cluster=cluster):
        reviews[item.index] = item
        if progress is not None:
            progress()
    return GameReview(log.edition, tuple(log.players), tuple(reviews[i] for i in indices), simulations, seed, stopped)


__all__ = ["ReviewJob", "review_action", "review_game", "reviewer_for"]
