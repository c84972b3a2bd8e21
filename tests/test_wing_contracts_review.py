"""What a game review must report: forced actions unjudged, judged actions consistent, labels at thresholds.

Expectations come from the rules (which actions had one legal option, which turns end the game), from the
models called on their own on states built by applying actions, from the judge's own pieces called one by
one (its samples of the hidden cards, the rest of the mover's turn, the game played out) and from the label
scales (VP of margin for the labels, lichess's points times 2/N for the win chart); nothing is copied from
a review's output.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pytest

import brass_stats as bs

# Reviewer (one action at a time) is not exported by the package: module-level import, to fix when
# brass_stats/analysis/review/game.py is split
from brass_stats.analysis.review import (
    LABELS,
    ActionReview,
    GameReview,
    Reviewer,
    action_seed,
    game_accuracy,
    label,
    margin_accuracy,
    margin_label,
    move_accuracy,
    review_game,
    review_rows,
    thresholds,
)
from brass_stats.analysis.review.judge import CONFIRM_SAMPLES, END_SAMPLES, SAMPLES, WIN_VP_PER_PLAYER
from brass_stats.bots.search import SearchResult
from brass_stats.bots.value import (
    default_final_vp_model,
    default_model,
    margins,
    position_features,
    win_probabilities,
)
from brass_stats.engine.actions import Action, action_from_json
from brass_stats.engine.information import attempt
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import STRICT
from brass_stats.engine.scoring import win_shares
from brass_stats.engine.state import GameState
from brass_stats.engine.turn import apply_action
from brass_stats.replay.notation import describe_action

TINY = 4  # search simulations per judged action
GAME = "generated/game-2012-00000.json"  # 2 players; a forced Shortfall at 62, a forced Pass at 76


@pytest.fixture(scope="module")
def reviewer() -> Reviewer:
    return Reviewer(bs.load(bs.SAMPLES / GAME), STRICT, TINY, 0, None)


def forced_indices(r: bs.Replay) -> list[int]:
    return [i for i in range(len(r.steps)) if len(legal_actions(r.state_at(i - 1))) == 1]


Vector = tuple[float, ...]


def mean(vectors: Sequence[Sequence[float]]) -> Vector:
    """The seat-by-seat mean of some readings (one value per seat each)."""
    return tuple(statistics.fmean(float(v[s]) for v in vectors) for s in range(len(vectors[0])))


@dataclass
class Drawn:
    """The samples of the hidden cards (each with its turn seed) one review drew."""

    worlds: list[tuple[GameState, int]] = field(default_factory=list)  # ``_worlds``: every compared action's
    final: bool | None = None  # ``_worlds``: the game ends before the mover moves again
    later: list[tuple[GameState, int]] = field(default_factory=list)  # ``_world`` after it: the confirmation's


@contextmanager
def drawn_samples(reviewer: Reviewer) -> Iterator[Drawn]:
    """Record the samples the judge's own pieces hand out during a review (the review is unchanged)."""
    drawn = Drawn()
    world, worlds = reviewer._world, reviewer._worlds

    def spy_world(*args: Any) -> tuple[GameState, int]:
        out = world(*args)
        if drawn.final is not None:
            drawn.later.append(out)
        return out

    def spy_worlds(*args: Any) -> tuple[list[tuple[GameState, int]], bool]:
        assert drawn.final is None  # one set of samples per review
        ws, final = worlds(*args)
        drawn.worlds, drawn.final = list(ws), final
        return ws, final

    reviewer._world = spy_world  # type: ignore[assignment]
    reviewer._worlds = spy_worlds  # type: ignore[assignment]
    try:
        yield drawn
    finally:
        del reviewer._world, reviewer._worlds


def positions_read(
    reviewer: Reviewer, before: GameState, action: Action, worlds: Sequence[tuple[GameState, int]], final: bool
) -> list[GameState]:
    """Where the judge must read ``action``, built with its pieces called one by one: in each sample of the
    hidden cards, the action attempted, the rest of the mover's turn (the turn of ``before``) from the
    sample's turn seed, and, when the game ends before the mover moves again, the rest of the game from
    the same seed."""
    out = []
    turn = (before.round, before.turn_pos)
    for world, turn_seed in worlds:
        rng = random.Random(turn_seed)
        after = reviewer._finish_turn(attempt(world, action, STRICT), action.player, rng, turn)
        out.append(reviewer._play_out(after, rng) if final else after)
    return out


def test_a_forced_action_is_reported_unjudged_with_its_win_probabilities(reviewer: Reviewer) -> None:
    """Nothing to judge, but the chart gets the judge's reading: ``win_after`` (``vp_after``) is the mean,
    over the judge's samples of the hidden cards (drawn from the action's own seed), of the win (final-VP)
    model after the action and the rest of the mover's turn, or, when the game ends before the mover moves
    again, of the game played out. An action that ends the turn of a game that goes on reads as the true
    next position: the samples differ from it only in cards, which the models never see."""
    r = reviewer.replay
    forced = forced_indices(r)
    assert forced == [62, 76]  # the rules leave one option: a Shortfall, then a Pass
    names = list(r.log.players)
    model, final_vp = default_model(), default_final_vp_model()
    for i in forced:
        before, after = r.state_at(i - 1), r.state_at(i)
        played = r.steps[i].action
        seat = played.player
        with drawn_samples(reviewer) as drawn:
            review = reviewer.review(i)
        assert isinstance(review, ActionReview)
        assert (review.index, review.seat, review.player) == (i, seat, names[seat])
        assert review.action == describe_action(played, r.initial.rules, names)
        assert review.judged is False
        # both end the mover's turn (62 the round: the mover moves first in the next one, a new turn); 76 is
        # in the Rail Era's last round, so the game ends before the mover moves again
        assert (after.round, after.turn_pos) != (before.round, before.turn_pos)
        ends_game = after.era == "rail" and after.era_round == before.rules.rounds_per_era[before.num_players]
        assert ends_game == (i == 76) and drawn.final is ends_game
        assert len(drawn.worlds) == (END_SAMPLES if ends_game else SAMPLES) and not drawn.later
        # the samples: from the action's own seed alone, each keeping what the mover can see
        again, again_final = reviewer._worlds(before, seat, played, random.Random(action_seed(reviewer.seed, i)))
        assert [t for _, t in again] == [t for _, t in drawn.worlds] and again_final is ends_game
        for world, _ in drawn.worlds:
            assert world.players[seat].hand == before.players[seat].hand
            assert np.array_equal(position_features(world), position_features(before))
        read = positions_read(reviewer, before, played, drawn.worlds, ends_game)
        assert review.win_after == pytest.approx(mean([model.predict(s) for s in read]))
        assert review.vp_after == pytest.approx(mean([final_vp.predict(s) for s in read]))
        assert sum(review.win_after) == pytest.approx(1.0)
        if ends_game:  # played out: the finished games' results, by the rules
            assert all(s.game_over for s in read)
            assert review.win_after == pytest.approx(mean([win_shares(s) for s in read]))
            assert review.vp_after == pytest.approx(mean([[p.vp for p in s.players] for s in read]))
        else:  # nothing played after it: every sample reads as the true next position
            assert all(np.array_equal(position_features(s), position_features(after)) for s in read)
            assert review.win_after == pytest.approx(tuple(win_probabilities(after)))
            assert review.vp_after == pytest.approx(tuple(final_vp.predict(after)))
        assert (review.best, review.best_action, review.best_value, review.played_value) == (None,) * 4
        assert (review.loss, review.loss_se, review.sure_loss, review.deep_loss) == (None,) * 4
        assert (review.label, review.win_loss, review.win_label, review.search_rank) == (None,) * 4
        assert (review.simulations, review.compared) == (0, ())


def test_a_forced_action_counts_for_no_players_accuracy(reviewer: Reviewer) -> None:
    forced = [reviewer.review(i) for i in (62, 76)]
    judged = reviewer.review(63)
    game = GameReview("birmingham", tuple(reviewer.names), (forced[0], judged, forced[1]), TINY, 0, None)
    mover = game.summary[judged.seat]
    assert mover.judged == 1 and judged.loss is not None
    assert judged.sure_loss is not None
    assert mover.accuracy == pytest.approx(margin_accuracy(judged.sure_loss))  # the sure loss, in VP of margin
    rows = {row["action_index"]: row for row in review_rows(game, "g")}
    assert [rows[i]["judged"] for i in (62, 63, 76)] == [False, True, False]
    assert rows[62]["best"] is None and rows[62]["loss"] is None and rows[62]["win_after"] == list(forced[0].win_after)


@pytest.mark.parametrize("index", [59, 63])
def test_a_judged_action_reports_a_consistent_loss_label_and_best_action(reviewer: Reviewer, index: int) -> None:
    """Values are the mover's margin (its VP less its opponents' mean, by the final-VP model) after the
    action and the rest of its turn, averaged over the judge's samples; the loss is the mean paired
    difference best - played over those samples (and the confirmation's, when it would be labelled), never
    negative; the label goes by the sure loss. 59: a Pass ending the mover's turn; 63: a Pass starting it."""
    r = reviewer.replay
    before, after = r.state_at(index - 1), r.state_at(index)
    legal = legal_actions(before)
    assert len(legal) > 1
    played = r.steps[index].action
    seat, n = played.player, before.num_players
    names = list(r.log.players)
    model, final_vp = default_model(), default_final_vp_model()
    # not the Rail Era's last two rounds: the samples are read by the models, none is played out
    assert before.era == "rail" and before.era_round < before.rules.rounds_per_era[n] - 1
    with drawn_samples(reviewer) as drawn:
        review = reviewer.review(index)
    assert drawn.final is False and len(drawn.worlds) == SAMPLES
    assert review.judged is True and review.simulations == TINY and review.search_rank is not None
    assert review.action == describe_action(played, before.rules, names)
    assert review.best_action is not None
    best = action_from_json(review.best_action)
    assert best in legal and review.best == describe_action(best, before.rules, names)
    # the values and the chart, from the models read where the judge's pieces lead
    mine = positions_read(reviewer, before, played, drawn.worlds, False)
    theirs = positions_read(reviewer, before, best, drawn.worlds, False)
    turn = (before.round, before.turn_pos)
    assert all(not s.game_over and (s.round, s.turn_pos) != turn for s in mine + theirs)  # the whole turn
    mine_vp, best_vp = [final_vp.predict(s) for s in mine], [final_vp.predict(s) for s in theirs]
    assert review.played_value == pytest.approx(statistics.fmean(margins(v)[seat] for v in mine_vp))
    assert review.best_value == pytest.approx(statistics.fmean(margins(v)[seat] for v in best_vp))
    assert review.win_after == pytest.approx(mean([model.predict(s) for s in mine]))
    assert review.vp_after == pytest.approx(mean(mine_vp))
    if before.actions_this_turn == before.actions_per_turn() - 1:  # 59: any action ends the turn
        # nothing is played after it: every sample reads as the true position after the action
        assert index == 59
        assert review.win_after == pytest.approx(tuple(win_probabilities(after)))
        assert review.played_value == pytest.approx(margins(final_vp.predict(after))[seat])
        assert review.best_value == pytest.approx(margins(final_vp.predict(apply_action(before, best)[0]))[seat])
    # the loss: paired differences over the samples, and CONFIRM_SAMPLES more when it would be labelled
    diffs = [margins(b)[seat] - margins(p)[seat] for p, b in zip(mine_vp, best_vp, strict=True)]
    confirmed = best != played and margin_label(statistics.fmean(diffs)) is not None
    assert len(drawn.later) == (CONFIRM_SAMPLES if confirmed else 0)
    more_mine = [final_vp.predict(s) for s in positions_read(reviewer, before, played, drawn.later, False)]
    more_best = [final_vp.predict(s) for s in positions_read(reviewer, before, best, drawn.later, False)]
    diffs += [margins(b)[seat] - margins(p)[seat] for p, b in zip(more_mine, more_best, strict=True)]
    assert review.loss is not None and review.loss_se is not None
    # the loss is the first two samples' reading; the standard error is over every sample judged
    assert review.loss == pytest.approx(max(0.0, statistics.fmean(diffs[:SAMPLES])))
    assert review.loss_se == pytest.approx(statistics.stdev(diffs) / math.sqrt(len(diffs)), abs=1e-9)
    # here every sample gives the same difference (63: the action played is the best; 59: it ends the
    # turn), so the loss is also the difference of the two values
    assert max(diffs) - min(diffs) == pytest.approx(0.0, abs=1e-9)
    assert review.best_value is not None and review.played_value is not None
    assert review.loss >= 0.0 and review.loss == pytest.approx(review.best_value - review.played_value)
    # a tie goes to the action played: no loss exactly when the best is the action played
    assert (review.loss == 0.0) == (best == played)
    # the label: by the sure loss, the loss less its standard error and no more than a search of twice
    # the budget sees (asked exactly when that still makes a label: a game played by the rules, not played out)
    sure = statistics.fmean(diffs) - review.loss_se
    assert (review.deep_loss is not None) == (best != played and margin_label(sure) is not None)
    if review.deep_loss is not None:
        assert review.deep_loss >= 0.0
        sure = min(sure, review.deep_loss)
    assert review.sure_loss is not None and review.sure_loss == pytest.approx(max(0.0, sure))
    # the label counts the sure loss and, before the last round, the chance of winning given away
    assert review.win_loss is not None and review.label_loss is not None
    counted = review.sure_loss + WIN_VP_PER_PLAYER * n * review.win_loss
    if margin_label(counted) == margin_label(review.sure_loss):
        assert review.label_loss == pytest.approx(counted)
    else:  # the chance of winning raises the label: a deeper search may lower it, never below the sure loss
        assert review.sure_loss - 1e-9 <= review.label_loss <= counted + 1e-9
    assert review.label == margin_label(review.label_loss)
    # the compared actions: the one played first, the best of them in value; the win chart's loss and label
    assert review.compared[0][0] == pytest.approx(review.win_after)
    assert review.compared[0][1] == pytest.approx(review.vp_after)
    assert max(margins(v)[seat] for _, v in review.compared) == pytest.approx(review.best_value)
    win_loss = max(0.0, max(w[seat] for w, _ in review.compared) - review.win_after[seat])
    assert review.win_loss == pytest.approx(win_loss) and review.win_label == label(win_loss, n)


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


class Recorder:
    """A model (win probability or final VP) that also records every position it was asked about."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[GameState] = []

    def predict(self, state: GameState) -> list[float]:
        self.seen.append(state)
        return list(self.inner.predict(state))


def judged_positions(r: bs.Replay) -> list[GameState]:
    return [r.state_at(i - 1) for i in range(len(r.steps))]


def test_the_judge_values_an_action_after_the_rest_of_the_movers_turn(reviewer: Reviewer) -> None:
    """Before the last round both models are read at the position after the mover's whole turn (the rest
    played by the greedy bot from the sample's turn seed): the next player to move, never a finished game;
    every action in the same samples."""
    states = judged_positions(reviewer.replay)
    state = next(
        s
        for s in states
        if s.era == "rail" and not s.is_last_round_of_era and s.actions_this_turn == 0 and s.actions_per_turn() == 2
    )
    seat = state.current_player
    assert seat is not None
    model, final_vp = RecordingModel(), RecordingModel((60.0, 40.0))
    judge = Reviewer(reviewer.replay.log, STRICT, TINY, 0, model, final_vp=final_vp)  # type: ignore[arg-type]
    actions = legal_actions(state)[:3]
    turn = (state.round, state.turn_pos)
    for action in actions:  # one action leaves the mover a second one: the judge must play it
        once = apply_action(state, action)[0]
        assert once.current_player == seat and (once.round, once.turn_pos) == turn
    worlds, final = judge._worlds(state, seat, actions[0], random.Random(1))
    assert final is False and len(worlds) == SAMPLES  # not the last round: the mover moves again
    assert not model.seen and not final_vp.seen
    readings = judge.judge(state, seat, actions, worlds, final)
    assert readings == [[((0.5, 0.5), (60.0, 40.0))] * len(worlds)] * len(actions)
    assert len(model.seen) == len(final_vp.seen) == len(actions) * len(worlds)
    assert all(a is b for a, b in zip(model.seen, final_vp.seen, strict=True))  # the same positions
    for k, after in enumerate(model.seen):  # action by action, each in every sample
        assert not after.game_over
        assert after.actions_this_turn == 0 and (after.round, after.turn_pos) != turn
        action, (world, turn_seed) = actions[k // len(worlds)], worlds[k % len(worlds)]
        expected = judge._finish_turn(attempt(world, action, STRICT), seat, random.Random(turn_seed), turn)
        assert (after.round, after.turn_pos, after.current_player) == (
            expected.round,
            expected.turn_pos,
            expected.current_player,
        )
        assert [p.hand for p in after.players] == [p.hand for p in expected.players]
        assert np.array_equal(position_features(after), position_features(expected))


def test_the_judge_plays_the_last_round_out_to_the_end(reviewer: Reviewer) -> None:
    """When the game ends before the mover moves again, every judged line is played to the end (in
    END_SAMPLES samples) and its readings are the finished game's result and VP."""
    states = judged_positions(reviewer.replay)
    state = next(s for s in states if s.era == "rail" and s.is_last_round_of_era and s.actions_this_turn == 0)
    seat = state.current_player
    assert seat is not None
    model, final_vp = Recorder(default_model()), Recorder(default_final_vp_model())
    judge = Reviewer(reviewer.replay.log, STRICT, TINY, 0, model, final_vp=final_vp)  # type: ignore[arg-type]
    actions = legal_actions(state)[:2]
    worlds, final = judge._worlds(state, seat, actions[0], random.Random(1))
    assert final is True and len(worlds) == END_SAMPLES
    readings = judge.judge(state, seat, actions, worlds, final)
    assert len(model.seen) == len(actions) * len(worlds) and model.seen == final_vp.seen
    assert all(after.game_over for after in model.seen)
    flat = [reading for per_action in readings for reading in per_action]
    for (win, vp), after in zip(flat, model.seen, strict=True):
        assert win == pytest.approx(win_shares(after))
        assert vp == tuple(float(p.vp) for p in after.players)


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
