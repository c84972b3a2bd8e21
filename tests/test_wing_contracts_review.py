"""What a game review must report: forced actions unjudged, judged actions consistent, labels at thresholds.

Expectations come from the rules (which actions had one legal option), from the win-probability model
called on its own, and from the label scale (lichess's points times 2/N); nothing is copied from a
review's output.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

import brass_stats as bs

# Reviewer (one action at a time) is not exported by the package: module-level import, to fix when
# brass_stats/analysis/review/game.py is split
from brass_stats.analysis.review import (
    LABELS,
    ActionReview,
    GameReview,
    Reviewer,
    game_accuracy,
    label,
    move_accuracy,
    review_game,
    review_rows,
    thresholds,
)
from brass_stats.bots.search import SearchResult
from brass_stats.bots.value import win_probabilities
from brass_stats.engine.actions import Action, action_from_json
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import STRICT
from brass_stats.engine.state import GameState
from brass_stats.replay.notation import describe_action

TINY = 4  # search simulations per judged action
GAME = "generated/game-2012-00000.json"  # 2 players; a forced Shortfall at 62, a forced Pass at 76


@pytest.fixture(scope="module")
def reviewer() -> Reviewer:
    return Reviewer(bs.load(bs.SAMPLES / GAME), STRICT, TINY, 0, None)


def forced_indices(r: bs.Replay) -> list[int]:
    return [i for i in range(len(r.steps)) if len(legal_actions(r.state_at(i - 1))) == 1]


def test_a_forced_action_is_reported_unjudged_with_its_win_probabilities(reviewer: Reviewer) -> None:
    r = reviewer.replay
    forced = forced_indices(r)
    assert forced == [62, 76]  # the rules leave one option: a Shortfall, then a Pass
    names = list(r.log.players)
    for i in forced:
        review = reviewer.review(i)
        assert isinstance(review, ActionReview)
        played = r.steps[i].action
        assert (review.index, review.seat, review.player) == (i, played.player, names[played.player])
        assert review.action == describe_action(played, r.initial.rules, names)
        assert review.judged is False
        assert review.win_after == pytest.approx(tuple(win_probabilities(r.state_at(i))))
        assert sum(review.win_after) == pytest.approx(1.0)
        assert (review.best, review.best_action, review.best_value, review.played_value) == (None,) * 4
        assert (review.loss, review.label, review.simulations) == (None, None, 0)


def test_a_forced_action_counts_for_no_players_accuracy(reviewer: Reviewer) -> None:
    forced = [reviewer.review(i) for i in (62, 76)]
    judged = reviewer.review(63)
    game = GameReview("birmingham", tuple(reviewer.names), (forced[0], judged, forced[1]), TINY, 0, None)
    mover = game.summary[judged.seat]
    assert mover.judged == 1 and judged.loss is not None
    assert mover.accuracy == pytest.approx(move_accuracy(judged.loss, 2))
    rows = {row["action_index"]: row for row in review_rows(game, "g")}
    assert [rows[i]["judged"] for i in (62, 63, 76)] == [False, True, False]
    assert rows[62]["best"] is None and rows[62]["loss"] is None and rows[62]["win_after"] == list(forced[0].win_after)


@pytest.mark.parametrize("index", [59, 63])
def test_a_judged_action_reports_a_consistent_loss_label_and_best_action(reviewer: Reviewer, index: int) -> None:
    r = reviewer.replay
    before, after = r.state_at(index - 1), r.state_at(index)
    legal = legal_actions(before)
    assert len(legal) > 1
    review = reviewer.review(index)
    names = list(r.log.players)
    played = r.steps[index].action
    assert review.judged is True and review.simulations == TINY
    assert review.win_after == pytest.approx(tuple(win_probabilities(after)))
    assert review.action == describe_action(played, before.rules, names)
    assert review.best_value is not None and review.played_value is not None and review.loss is not None
    assert 0.0 <= review.played_value <= 1.0 and 0.0 <= review.best_value <= 1.0
    # the action played is among those judged: the best is at least as good, the loss never negative
    assert review.loss == pytest.approx(review.best_value - review.played_value) and review.loss >= 0.0
    assert review.label == label(review.loss, before.num_players)
    assert review.best_action is not None
    best = action_from_json(review.best_action)
    assert best in legal and review.best == describe_action(best, before.rules, names)
    # a tie goes to the action played: no loss exactly when the best is the action played
    assert (review.loss == 0.0) == (best == played)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_loss_at_a_threshold_takes_that_label(players: int) -> None:
    """A loss at a threshold, or below it by float rounding (1e-12: a difference of two probabilities),
    takes the threshold's label; a loss visibly below it (1e-9) takes the label below."""
    limits = thresholds(players)
    below = (None, *LABELS[:-1])
    for name, lower, t in zip(LABELS, below, limits, strict=True):
        assert t == pytest.approx((0.05, 0.10, 0.15)[LABELS.index(name)] * 2 / players)
        assert label(t, players) == name
        assert label(t - 1e-12, players) == name
        assert label(t - 1e-9, players) == lower
    # the difference of two win probabilities that is the 2-player threshold up to rounding
    assert 0.35 - 0.30 < 0.05 and label(0.35 - 0.30, 2) == "inaccuracy"
    assert label(1.0, players) == "blunder" and label(0.0, players) is None


def test_accuracy_of_a_perfect_game_is_full_and_falls_with_each_loss() -> None:
    for players in (2, 3, 4):
        perfect = game_accuracy([0.0, 0.0], players)
        assert perfect == pytest.approx(100.0, abs=1e-3)
        losses = [0.01, 0.05, 0.2, 0.6]
        accs = [move_accuracy(x, players) for x in losses]
        assert all(a > b for a, b in zip(accs, accs[1:], strict=False))
        assert game_accuracy(losses, players) == pytest.approx(sum(accs) / len(accs))
    # the same slip in two-player points gives the same accuracy at every table size
    assert move_accuracy(0.10, 2) == pytest.approx(move_accuracy(0.05, 4))


class RecordingModel:
    """A stand-in win-probability model: fixed shares, and every position it was asked about."""

    def __init__(self, shares: tuple[float, ...] = (0.5, 0.5)) -> None:
        self.shares = shares
        self.seen: list[GameState] = []

    def predict(self, state: GameState) -> list[float]:
        self.seen.append(state)
        return list(self.shares)


def judged_positions(r: bs.Replay) -> list[GameState]:
    return [r.state_at(i - 1) for i in range(len(r.steps))]


def test_the_judge_values_an_action_after_the_rest_of_the_movers_turn(reviewer: Reviewer) -> None:
    """Before the last round the judge asks the model about the position after the mover's whole turn
    (the rest played by the greedy bot): the next player to move, never a finished game."""
    states = judged_positions(reviewer.replay)
    state = next(
        s
        for s in states
        if s.era == "rail" and not s.is_last_round_of_era and s.actions_this_turn == 0 and s.actions_per_turn() == 2
    )
    seat = state.current_player
    assert seat is not None
    model = RecordingModel()
    judge = Reviewer(reviewer.replay.log, STRICT, TINY, 0, model)
    actions = legal_actions(state)[:3]
    values = judge.judge(state, seat, actions, random.Random(1))
    assert values == pytest.approx([0.5, 0.5, 0.5])
    assert model.seen and len(model.seen) % len(actions) == 0
    for after in model.seen:
        assert not after.game_over
        assert after.actions_this_turn == 0 and (after.round, after.turn_pos) != (state.round, state.turn_pos)


def test_the_judge_plays_the_last_round_out_to_the_end(reviewer: Reviewer) -> None:
    """When the game ends before the mover moves again, every judged line is played to the end."""
    states = judged_positions(reviewer.replay)
    state = next(s for s in states if s.era == "rail" and s.is_last_round_of_era and s.actions_this_turn == 0)
    seat = state.current_player
    assert seat is not None
    model = RecordingModel()
    judge = Reviewer(reviewer.replay.log, STRICT, TINY, 0, model)
    judge.judge(state, seat, legal_actions(state)[:2], random.Random(1))
    assert model.seen and all(after.game_over for after in model.seen)


@pytest.mark.parametrize(("workers", "count"), [(1, 3), (2, 1)])
def test_one_worker_or_one_action_is_reviewed_in_this_process_with_the_model_given(workers: int, count: int) -> None:
    """No process pool for one worker, nor for a single action: the review uses the model it is given."""
    log = bs.load(bs.SAMPLES / GAME)
    short = replace(log, actions=log.actions[:count])
    model = RecordingModel((0.25, 0.75))
    review = review_game(short, simulations=TINY, seed=1, workers=workers, model=model)
    assert [a.index for a in review.actions] == list(range(count))
    assert all(a.win_after == (0.25, 0.75) for a in review.actions)
    assert all(a.judged for a in review.actions) and model.seen


def test_the_search_behind_a_judgement_has_the_action_played_forced_among_its_candidates() -> None:
    """A game played by the rules: the action played is always searched at the root, however the greedy
    ranking places it (the search cannot widen past it unseen)."""
    reviewer = Reviewer(bs.load(bs.SAMPLES / GAME), STRICT, TINY, 0, None)
    forced: list[list[Action]] = []
    search = reviewer.bot.analyse

    def spy(state: GameState, legal: Any = None, rng: Any = None, force: Sequence[Action] = ()) -> SearchResult:
        forced.append(list(force))
        return search(state, legal, rng, force)

    reviewer.bot.analyse = spy  # type: ignore[method-assign]
    steps = reviewer.replay.steps
    assert not steps[59].effects and {e.kind for e in steps[20].effects} >= {"flip"}  # a pass, a sale
    for i in (20, 59):
        review = reviewer.review(i)
        assert review.judged
        assert forced[-1] == [steps[i].action]
