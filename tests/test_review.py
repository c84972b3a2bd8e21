"""The game review: labels, thresholds and accuracy; a planted blunder; reproducibility; fairness; illegal games."""

from __future__ import annotations

import math
import pickle
import random
from dataclasses import replace

import pytest
from hidden_cards import hide_differently

from brass_stats.analysis.review import (
    ActionReview,
    GameReview,
    Reviewer,
    action_seed,
    game_accuracy,
    label,
    margin_accuracy,
    margin_game_accuracy,
    margin_label,
    margin_thresholds,
    move_accuracy,
    review_game,
    thresholds,
)
from brass_stats.analysis.review.run import ReviewJob, review_action, reviewer_for
from brass_stats.bots import play_game
from brass_stats.bots.greedy import GreedyBot
from brass_stats.bots.value import WinProbabilityModel, default_model
from brass_stats.engine.actions import Pass
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import STRICT
from brass_stats.engine.scoring import win_shares
from brass_stats.engine.setup import SeededChance
from brass_stats.engine.state import GameState
from brass_stats.engine.turn import apply_action
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, replay

TINY = 8  # search simulations per judged action: a small tree, quick enough for a test


def greedy_game(seed: int, edition: str = "birmingham", players: int = 2) -> GameLog:
    return play_game([GreedyBot() for _ in range(players)], seed=seed, edition=edition)


@pytest.fixture(scope="module")
def game() -> GameLog:
    return greedy_game(16)


# -- labels, thresholds, accuracy (checked by hand) ------------------------------------------------
# lichess's win-probability scale: the review keeps it for win_loss / win_label and the win chart


def test_thresholds_are_lichess_points_times_two_over_n() -> None:
    assert thresholds(2) == (0.05, 0.10, 0.15)
    assert thresholds(4) == (0.025, 0.05, 0.075)
    assert all(math.isclose(a, b) for a, b in zip(thresholds(3), (1 / 30, 2 / 30, 3 / 30), strict=True))


@pytest.mark.parametrize(
    ("loss", "players", "expected"),
    [
        (0.0, 2, None),
        (0.049, 2, None),
        (0.05, 2, "inaccuracy"),  # a threshold itself counts
        (0.0999, 2, "inaccuracy"),
        (0.10, 2, "mistake"),
        (0.15, 2, "blunder"),
        (1.0, 2, "blunder"),
        (0.033, 3, None),
        (0.034, 3, "inaccuracy"),
        (0.07, 3, "mistake"),
        (0.10, 3, "blunder"),
        (0.024, 4, None),
        (0.025, 4, "inaccuracy"),
        (0.06, 4, "mistake"),
        (0.075, 4, "blunder"),
    ],
)
def test_labels(loss: float, players: int, expected: str | None) -> None:
    assert label(loss, players) == expected


def test_accuracy_is_lichess_formula_on_two_player_points() -> None:
    # 103.1668 * exp(-0.04354 * d) - 3.1669, d in two-player percentage points
    assert move_accuracy(0.0, 2) == pytest.approx(99.9999, abs=1e-4)
    assert move_accuracy(0.10, 2) == pytest.approx(63.59, abs=0.01)  # d = 10
    assert move_accuracy(0.05, 4) == pytest.approx(63.59, abs=0.01)  # d = 5 * 4/2 = 10
    assert move_accuracy(0.20, 3) == pytest.approx(24.78, abs=0.01)  # d = 20 * 3/2 = 30
    assert move_accuracy(1.0, 2) == 0.0  # clipped: the formula gives -1.84
    assert game_accuracy([0.0, 0.10], 2) == pytest.approx((99.9999 + 63.59) / 2, abs=0.01)
    assert game_accuracy([], 2) is None


# the review's measure: VP of expected margin (the mover's VP minus its opponents' mean), any table size


def test_margin_thresholds_are_4_8_15_vp() -> None:
    assert margin_thresholds() == (4.0, 8.0, 15.0)


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, None),
        (3.99, None),
        (4.0, "inaccuracy"),  # a threshold itself counts
        (7.99, "inaccuracy"),
        (8.0, "mistake"),
        (14.99, "mistake"),
        (15.0, "blunder"),
        (60.0, "blunder"),
        (-2.0, None),
    ],
)
def test_margin_labels(loss: float, expected: str | None) -> None:
    assert margin_label(loss) == expected


def test_margin_accuracy_is_lichess_formula_with_a_vp_for_a_point() -> None:
    # 103.1668 * exp(-0.04354 * d) - 3.1669, d in VP of margin lost (no table-size scaling)
    assert margin_accuracy(0.0) == pytest.approx(99.9999, abs=1e-4)
    assert margin_accuracy(-3.0) == margin_accuracy(0.0)  # a negative loss is no loss
    assert margin_accuracy(4.0) == pytest.approx(83.51, abs=0.01)
    assert margin_accuracy(10.0) == pytest.approx(63.58, abs=0.01)  # as a 10-point loss on lichess
    assert margin_accuracy(10.0) == pytest.approx(move_accuracy(0.10, 2))
    assert margin_accuracy(30.0) == pytest.approx(24.78, abs=0.01)
    assert margin_accuracy(100.0) == 0.0  # clipped: the formula gives -1.84
    assert margin_game_accuracy([0.0, 10.0]) == pytest.approx((99.9999 + 63.58) / 2, abs=0.01)
    assert margin_game_accuracy([]) is None


def test_summary_counts_labels_and_averages_margin_accuracy_of_judged_moves_only() -> None:
    def act(i: int, seat: int, loss: float | None, judged: bool = True) -> ActionReview:
        lab = margin_label(loss) if loss is not None else None
        return ActionReview(i, seat, f"p{seat}", "x", (0.5, 0.5), judged, loss=loss, label=lab)

    # seat 0: fine, a mistake (9 VP); seat 1: a blunder (20 VP), a forced action, an inaccuracy (5 VP)
    actions = (act(0, 0, 0.0), act(1, 0, 9.0), act(2, 1, 20.0), act(3, 1, None, judged=False), act(4, 1, 5.0))
    a, b = GameReview("birmingham", ("p0", "p1"), actions, TINY, 0, None).summary
    assert (a.judged, a.inaccuracies, a.mistakes, a.blunders) == (2, 0, 1, 0)
    assert (b.judged, b.inaccuracies, b.mistakes, b.blunders) == (2, 1, 0, 1)
    assert a.accuracy == pytest.approx((99.9999 + 66.5531) / 2, abs=1e-3)  # margin accuracy of 0 and 9 VP
    assert b.accuracy == pytest.approx((40.0204 + 79.8170) / 2, abs=1e-3)  # of 20 and 5 VP
    assert b.accuracy == pytest.approx((margin_accuracy(20.0) + margin_accuracy(5.0)) / 2)


# -- a planted blunder -------------------------------------------------------------------------------


def planted_pass(seed: int, edition: str, index: int) -> tuple[GameLog, GameLog]:
    """A greedy game cut after action ``index``, once as played and once with a pass planted there
    (a last-round action that was not a pass)."""
    log = greedy_game(seed, edition)
    r = replay(log)
    before = r.state_at(index - 1)
    assert before.era == "rail" and before.is_last_round_of_era
    assert not isinstance(r.steps[index].action, Pass)
    bad = next(a for a in legal_actions(before) if isinstance(a, Pass))
    return log, replace(log, actions=[*log.actions[:index], bad])


@pytest.mark.parametrize(
    ("seed", "edition", "index"),
    [
        (0, "birmingham", 74),  # the first action of the mover's last turn: two rail links were worth 13 VP
        (2, "birmingham", 77),  # the game's last action: the sale was worth 16 VP
    ],
)
def test_a_pass_that_throws_away_vp_in_the_last_round_is_a_mistake(seed: int, edition: str, index: int) -> None:
    log, planted = planted_pass(seed, edition, index)
    review = Reviewer(planted, STRICT, TINY, 0, None).review(index)
    assert review.judged and review.label in ("mistake", "blunder"), review
    assert review.best_value is not None and review.played_value is not None
    assert review.loss is not None and review.loss_se is not None
    # a mistake at least (8 VP of the mover's expected margin), and sure of it: the label reads loss - se
    mistake = margin_thresholds()[1]
    assert review.best_value - review.played_value >= mistake
    assert review.loss - review.loss_se >= mistake
    # the action really played, from the same position, is no mistake
    honest = Reviewer(log, STRICT, TINY, 0, None).review(index)
    assert honest.label not in ("mistake", "blunder"), honest


@pytest.mark.parametrize(
    ("seed", "edition", "index"),
    [
        (16, "birmingham", 76),  # the mover's last turn: the pass costs it the game
        (2, "birmingham", 74),  # its network denied the opponent: only playing the round out shows it
        (13, "lancashire", 62),  # the mover's last turn, the opponent still to play
    ],
)
def test_a_pass_that_loses_a_close_game_is_seen_by_both_measures(seed: int, edition: str, index: int) -> None:
    """The pass costs the game but only 1-5 VP of margin: the margin sees it worse than the best move,
    below a mistake's 8 VP; the win-probability measure kept beside it (``win_label``) flags it."""
    log, planted = planted_pass(seed, edition, index)
    review = Reviewer(planted, STRICT, TINY, 0, None).review(index)
    assert review.judged and review.best_value is not None and review.played_value is not None
    assert review.loss is not None and review.loss > 0 and review.best_value > review.played_value, review
    assert review.win_label in ("mistake", "blunder"), review
    honest = Reviewer(log, STRICT, TINY, 0, None).review(index)
    assert honest.label not in ("mistake", "blunder") and honest.win_label not in ("mistake", "blunder"), honest


# -- reproducibility ---------------------------------------------------------------------------------


def test_same_seed_same_review(game: GameLog) -> None:
    picks = (20, 33, 51)
    a = Reviewer(game, STRICT, TINY, 5, None)
    b = Reviewer(game, STRICT, TINY, 5, None)
    first = [a.review(i) for i in picks]
    assert [b.review(i) for i in reversed(picks)][::-1] == first  # nor does the order matter
    assert all(x.judged for x in first)


def test_workers_give_the_same_review_as_one_process(game: GameLog) -> None:
    short = replace(game, actions=game.actions[:12])
    one = review_game(short, simulations=TINY, seed=3, workers=1)
    two = review_game(short, simulations=TINY, seed=3, workers=2)
    assert len(one.actions) == 12 and one.stopped is None
    assert two.to_json() == one.to_json()


class MoneyModel(WinProbabilityModel):
    """A custom model, easy to recognise: each seat's chance is its share of the money (plus one).
    A module-level class, so it pickles and travels to worker processes."""

    def __init__(self) -> None:  # no booster
        pass

    def predict(self, state: GameState) -> list[float]:
        if state.game_over:
            return list(win_shares(state))
        money = [p.money + 1 for p in state.players]
        return [m / sum(money) for m in money]


def turn_ends(r: Replay, count: int) -> list[int]:
    """The actions among the first ``count`` that end their mover's turn (the rest of the turn is empty)."""
    turn = [(r.state_at(i).round, r.state_at(i).turn_pos) for i in range(-1, count)]
    return [i for i in range(count) if turn[i + 1] != turn[i]]


def test_a_custom_model_travels_to_the_workers_and_is_used(game: GameLog) -> None:
    short = replace(game, actions=game.actions[:12])
    one = review_game(short, simulations=TINY, seed=3, workers=1, model=MoneyModel())
    two = review_game(short, simulations=TINY, seed=3, workers=2, model=MoneyModel())
    assert two.to_json() == one.to_json()
    # its predictions, not the shipped model's, in the win probabilities. win_after is read after the
    # action and the rest of the mover's turn (on samples of the hidden cards); where the action ends the
    # turn and another seat moves next there is no rest, and (money being public) it is the model's
    # reading of the state after the action
    r = replay(short)
    ends = [i for i in turn_ends(r, 12) if r.state_at(i).current_player != r.steps[i].action.player]
    assert len(ends) >= 4
    for i in ends:
        assert two.actions[i].win_after == pytest.approx(MoneyModel().predict(r.state_at(i))), i
    # and in the judged actions' win readings (each compared action's, the played one first)
    for a in two.actions:
        if a.judged:
            assert a.compared[0][0] == a.win_after and a.win_loss is not None
    shipped = review_game(short, simulations=TINY, seed=3, workers=1)
    assert [a.win_after for a in shipped.actions] != [a.win_after for a in two.actions]
    assert [[w for w, _ in a.compared] for a in shipped.actions] != [[w for w, _ in a.compared] for a in two.actions]


def test_an_action_that_ends_the_turn_is_read_without_the_movers_next_turn(game: GameLog) -> None:
    short = replace(game, actions=game.actions[:12])
    review = review_game(short, simulations=TINY, seed=3, workers=1, model=MoneyModel())
    r = replay(short)
    again = [i for i in turn_ends(r, 12) if r.state_at(i).current_player == r.steps[i].action.player]
    assert again  # (the mover ends a round and begins the next one)
    for i in again:
        assert review.actions[i].win_after == pytest.approx(MoneyModel().predict(r.state_at(i))), i


def test_the_shipped_model_given_explicitly_travels_to_the_workers(game: GameLog) -> None:
    short = replace(game, actions=game.actions[:4])
    two = review_game(short, simulations=TINY, seed=1, workers=2, model=default_model())
    assert two.to_json() == review_game(short, simulations=TINY, seed=1).to_json()


def test_a_worker_replays_a_game_once_and_keeps_its_reviewer(game: GameLog) -> None:
    job = ReviewJob.of(game, STRICT, TINY, 3, MoneyModel())
    sent = pickle.loads(pickle.dumps(job))
    assert sent == job and hash(sent) == hash(job) and sent.policy is not STRICT  # compared by its key
    assert ReviewJob.of(game, STRICT, TINY, 4, None) != ReviewJob.of(game, STRICT, TINY, 3, None)
    reviewer_for.cache_clear()
    got = [review_action(pickle.loads(pickle.dumps(job)), i) for i in (20, 33, 51)]
    info = reviewer_for.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    reviewer_for.cache_clear()
    assert got == [Reviewer(game, STRICT, TINY, 3, MoneyModel()).review(i) for i in (20, 33, 51)]


def test_a_replay_given_is_not_replayed_again(game: GameLog, monkeypatch: pytest.MonkeyPatch) -> None:
    short = replace(game, actions=game.actions[:5])
    expected = review_game(short, simulations=TINY, seed=2).to_json()
    r = replay(short)

    def no_replay(*args: object, **kw: object) -> None:
        raise AssertionError("replayed again")

    monkeypatch.setattr("brass_stats.analysis.review.run.replay", no_replay)
    monkeypatch.setattr("brass_stats.analysis.review.judge.replay", no_replay)
    assert review_game(r, simulations=TINY, seed=2).to_json() == expected
    from brass_stats.engine.policy import AS_PLAYED

    with pytest.raises(ValueError, match="another policy"):
        review_game(r, AS_PLAYED)


# -- fairness ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "edition", "index"), [(16, "birmingham", 30), (13, "lancashire", 40)])
def test_hidden_cards_do_not_change_the_judgement(seed: int, edition: str, index: int) -> None:
    log = greedy_game(seed, edition, players=3)
    # enough simulations for the tree to reach the other players' moves (where their hands would matter)
    plain = Reviewer(log, STRICT, 40, 1, None)
    other = Reviewer(log, STRICT, 40, 1, None)
    before = plain.replay.state_at(index - 1)
    moved = hide_differently(before, 7)
    seat = before.current_player
    assert seat is not None and moved.players[seat].hand == before.players[seat].hand
    assert [p.hand for p in moved.players] != [p.hand for p in before.players]
    played = other.replay.steps[index].action
    other.replay.steps[index - 1].state = moved
    other.replay.steps[index].state = apply_action(moved, played)[0]
    a, b = plain.review(index), other.review(index)
    assert a.judged and a == b
    # the search behind the judgement too (its visits and values, which the review only ranks by)
    searches = [
        r.bot.analyse(state, legal_actions(state), random.Random(action_seed(1, index)), force=[played])
        for r, state in ((plain, before), (other, moved))
    ]
    assert searches[0].actions == searches[1].actions


# -- illegal games -------------------------------------------------------------------------------------


def test_an_illegal_game_is_reviewed_up_to_its_first_illegal_action(game: GameLog) -> None:
    again = game.actions[5]  # its card is gone: replaying the sixth action as the seventh is illegal
    broken = replace(game, actions=[*game.actions[:6], again, *game.actions[6:9]])
    review = review_game(broken, simulations=TINY, seed=0)
    assert [a.index for a in review.actions] == list(range(6))
    assert review.stopped is not None and review.stopped["index"] == 6
    assert review.stopped["rule"] and review.stopped["message"]
    assert review.to_json()["stopped"] == review.stopped


def test_a_sale_that_depends_on_the_distant_cotton_market_tiles_is_judged_in_every_sample() -> None:
    """Lancashire: a Sell with a Distant Cotton Market sale before another sale was legal at the table
    only because the face-down tile kept the market open. In a sample of the hidden tiles where it
    closes, the judge attempts the Sell as the player would have: the sales stop where the market closes."""
    from brass_stats.engine.information import determinize as true_determinize
    from brass_stats.engine.setup import new_game
    from brass_stats.rules_data import load_rules

    state = new_game(["p0", "p1", "p2"], SeededChance(1), load_rules("lancashire"))
    bot, rng = GreedyBot(), random.Random(1)
    for _ in range(32):
        state, _ = apply_action(state, bot.choose(state, legal_actions(state), rng))
    closing = state.copy()
    closing.dcm_pile = sorted(state.dcm_pile, reverse=True)  # the first tile closes the market
    hidden = [a for a in legal_actions(state) if a not in legal_actions(closing)]
    assert hidden, "the position has a Sell whose legality depends on the face-down tiles"

    def closing_world(s: GameState, seat: int, r: random.Random) -> GameState:
        world = true_determinize(s, seat, r)
        world.dcm_pile = sorted(world.dcm_pile, reverse=True)
        return world

    seat = state.current_player
    assert seat is not None
    reviewer = Reviewer(greedy_game(3, "lancashire", 3), STRICT, 5, 0, None)
    worlds = [(closing_world(state, seat, random.Random(0)), 0)]  # (a sample of the hidden cards, its turn seed)
    readings = reviewer.judge(state, seat, [hidden[0]], worlds, final=False)
    assert len(readings) == 1 and len(readings[0]) == 1
    win, vp = readings[0][0]
    assert len(win) == len(vp) == 3 and 0.0 <= win[seat] <= 1.0 and all(math.isfinite(v) for v in vp)
