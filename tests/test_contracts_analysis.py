"""Contracts of the analysis wing that a player or a user relies on, each pinned by a mutant that survived.

* A batch review that meets a game breaking a rule names the action as people count it (from 1), the
  number ``brass-stats validate`` shows for the same game.
* A game's key moments name the tile a build placed by its industry and level.
* Win statistics by dimensions refuse a dimension given twice (a table with the same column twice
  says nothing more), with a ValueError naming the rule, before any work.
* A player's opening is, unless told otherwise, its first 3 actions (docs/statistics.md), shortfalls
  left out, in the order played.
* A player-game's accuracy falls in the band whose lower bound it reaches (0-70, 70-80, 80-90, 90-100).
* A game compared with the corpus: a percentile in an empty sample is undefined (NaN), not an error; the
  words for a percentile say the bottom below 50 and the top from 50, in the smallest tens that hold it;
  a round no corpus winner reached is answered with no band, and said so.
* A batch review reports the wall time it took (``seconds``), whether it reviewed games or found none
  left to review.
* A log reviewed as played (``policy=AS_PLAYED``) is replayed as played: the review goes past the
  departures from the rules that policy tolerates; without a policy the review is strict and stops at
  the first of them.
* In the last round the games are played out and a win counts WIN_VP_PER_PLAYER VP a player.
* The loss the engine is sure of is the mean loss less its standard error over the samples of the hidden
  cards: when the samples disagree, it is below the mean loss, and a label goes by it.

Expectations come from how the games are built (which action is the illegal one), from clocks read
around the runs, and from the documented formula applied to readings the test sets; never from the
output of the code under test.
"""

from __future__ import annotations

import json
import math
import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

import brass_stats as bs
from brass_stats.analysis.review import ActionReview, Reviewer, review_game, run
from brass_stats.analysis.review import collection as C
from brass_stats.analysis.review.judge import CONFIRM_SAMPLES, END_SAMPLES, SAMPLES, WIN_VP_PER_PLAYER
from brass_stats.analysis.review.judgement import MARGIN_THRESHOLDS, margin_label
from brass_stats.analysis.statistics.accuracy import accuracy_band
from brass_stats.analysis.statistics.breakdowns import action_swings, open_game
from brass_stats.analysis.statistics.curves import (
    compare_game,
    comparison_sentences,
    describe_percentile,
    percentile_of,
)
from brass_stats.analysis.statistics.win_rates import opening_sequences, stats_by
from brass_stats.bots.search import ActionStats, SearchResult
from brass_stats.engine import Build, Develop
from brass_stats.engine.actions import Action
from brass_stats.engine.policy import AS_PLAYED, STRICT
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog
from brass_stats.storage import ingest
from brass_stats.storage.corpus import CorpusRef
from brass_stats.validation import describe, validate

TWO_P = bs.SAMPLES / "real" / "wq9gs6-2p.json"
GAMES = (bs.SAMPLES / "generated" / "game-2002-00000.json", bs.SAMPLES / "generated" / "game-2002-00001.json")


# -- the batch review names a rule-breaking action as people count it ------------------------------------


def test_a_batch_review_numbers_the_action_breaking_a_rule_from_1_as_validate_does() -> None:
    """The real 2-player game's first three actions, then the third again: the fourth action of the log
    (0-based index 3) breaks a rule. The batch review's failure names "action 4", the number
    ``brass-stats validate`` prints for the same game, with the same rule and reason."""
    data = json.loads(TWO_P.read_text("utf-8"))
    data["actions"] = [data["actions"][i] for i in (0, 1, 2, 2)]
    data.pop("result", None)
    fourth = 4  # the repeated action is the log's fourth, counted from 1
    # validate's verdict on the same game: its line counts actions from 1
    verdict = validate(GameLog.from_json(data))
    assert verdict.kind == "illegal" and verdict.error is not None
    assert next(describe(verdict)).startswith(f"<log>: ILLEGAL action {fourth} (")
    rule, why = verdict.error["rule"], verdict.error["message"]

    outcome = C.review_stored_game(C.GameTask("g", json.dumps(data), False, 1, 0))
    assert outcome.rows is None
    assert outcome.error == f"action {fourth} breaks a rule [{rule}]: {why}"


# -- the batch review's seconds are the run's wall time ---------------------------------------------------


@pytest.fixture(scope="module")
def canned() -> Any:
    """A review cheap to make (the first two actions of a game, one simulation): the rows any game gets."""
    log = GameLog.load(GAMES[0])
    return review_game(replace(log, actions=log.actions[:2]), simulations=1, seed=0, workers=1)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """The two games in a DuckDB file (their logs beside it), nothing reviewed."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for p in GAMES:
        shutil.copy(p, logs)
    db = tmp_path / "g.duckdb"
    assert ingest([logs], db, workers=1, progress=False).stored == len(GAMES)
    return db


def slow(seconds: float, fn: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    """``fn`` taking at least ``seconds`` more; each call's own duration (perf_counter) added to ``spent``."""

    def call(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        time.sleep(seconds)
        spent.append(time.perf_counter() - t0)
        return out

    return call


def test_a_batch_review_reports_the_wall_time_it_took(
    store: Path, canned: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games, each review taking over half a second: the seconds reported are at least the time the
    reviews took and at most the wall time measured around the run."""
    spent: list[float] = []
    monkeypatch.setattr(run, "review_game", slow(0.55, lambda *a, **k: canned, spent))
    t0 = time.perf_counter()
    report = C.review_collection(CorpusRef(db=store), simulations=1, progress=False)
    wall = time.perf_counter() - t0
    assert report.reviewed == len(GAMES) and not report.failed, report.summary()
    assert len(spent) == len(GAMES) and sum(spent) > 1.0
    assert sum(spent) <= report.seconds <= wall


def test_a_batch_review_with_nothing_left_to_review_reports_the_wall_time_it_took(
    store: Path, canned: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second run finds every game reviewed (same budget and seed) and reviews none; choosing the games
    took over a second here: the seconds reported are at least that and at most the wall time around it."""
    monkeypatch.setattr(run, "review_game", lambda *a, **k: canned)
    first = C.review_collection(CorpusRef(db=store), simulations=1, progress=False)
    assert first.reviewed == len(GAMES) and not first.failed, first.summary()
    monkeypatch.setattr(run, "review_game", lambda *a, **k: pytest.fail("a game was reviewed twice"))
    spent: list[float] = []
    monkeypatch.setattr(C, "select_games", slow(1.05, C.select_games, spent))
    t0 = time.perf_counter()
    report = C.review_collection(CorpusRef(db=store), simulations=1, progress=False)
    wall = time.perf_counter() - t0
    assert (report.reviewed, report.skipped, report.failed) == (0, len(GAMES), [])
    assert len(spent) == 1 and spent[0] > 1.0
    assert spent[0] <= report.seconds <= wall


# -- the policy a log is reviewed under ---------------------------------------------------------------------


def departing_log() -> tuple[GameLog, int]:
    """A sample game cut just after its first action that takes iron from a works, that action altered to
    buy the iron from the market instead (iron.works_first: tolerated as played); (the log, its index)."""
    log = GameLog.load(GAMES[0])
    for i, a in enumerate(log.actions):
        if isinstance(a, Build | Develop) and a.iron and a.iron[0] != "market":
            altered = replace(a, iron=("market", *a.iron[1:]))
            return replace(log, actions=[*log.actions[:i], altered], result=None), i
    raise AssertionError("no sample action takes iron from a works")


def unjudging(made: list[tuple[Any, Any]]) -> type:
    """A stand-in for the judge (run.Reviewer) that judges nothing and records, in ``made``, the policy it
    is made with and its replay's."""

    class Unjudging:
        def __init__(self, r: Any, policy: Any, simulations: int, seed: int, model: Any) -> None:
            made.append((policy, r.policy))

        def review(self, index: int) -> ActionReview:
            return ActionReview(index=index, seat=0, player="", action="", win_after=(0.5, 0.5), judged=False)

    return Unjudging


def test_a_log_reviewed_as_played_is_reviewed_past_its_departures_and_strictly_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The log's last action breaks iron.works_first. Reviewed as played, every action is reviewed (the
    departing one too), the judge working as played; with no policy given, the review stops before it,
    naming the rule, and the judge works strictly."""
    log, i = departing_log()
    assert len(log.actions) == i + 1
    made: list[tuple[Any, Any]] = []
    monkeypatch.setattr(run, "Reviewer", unjudging(made))
    as_played = review_game(log, AS_PLAYED, simulations=1, workers=1)
    assert as_played.stopped is None
    assert [a.index for a in as_played.actions] == list(range(i + 1))
    assert made == [(AS_PLAYED, AS_PLAYED)]
    strict = review_game(log, simulations=1, workers=1)
    assert strict.stopped is not None
    assert (strict.stopped["index"], strict.stopped["rule"]) == (i, "iron.works_first")
    assert [a.index for a in strict.actions] == list(range(i))
    assert made[1:] == [(STRICT, STRICT)]


# -- the sure loss: the mean loss less its standard error -------------------------------------------------

TINY = 4
JUDGED = "generated/game-2012-00000.json"  # 2 players
INDEX = 63  # a Rail Era action, neither of the last two rounds; several legal actions (test_contracts_review)


class Spread:
    """A reviewer whose readings the test sets sample by sample: the action played leaves the mover a
    margin of 0 VP in every sample of the hidden cards, every other action the margin ``other[k]`` in the
    k-th sample handed out (the judge's two, then the confirmation's), or ``played_out[k]`` when the
    judge is asked to play the games out, where the mover's win chances are ``played_out_wins`` (after
    the action played, after the other); win chances even otherwise. The judge's ``final`` flags are
    recorded, call by call. Its deeper search is spied on: it runs for real, or, given ``deep`` (the
    mover's lead in final VP over its opponent it expects after the action played, after the other),
    answers that. ``final``: the game ends before the mover moves again (its samples are played out)."""

    def __init__(
        self,
        other: Sequence[float],
        index: int = INDEX,
        played_out: Sequence[float] = (),
        played_out_wins: tuple[float, float] = (0.5, 0.5),
        deep: tuple[float, float] | None = None,
        final: bool = False,
    ) -> None:
        self.reviewer = reviewer = Reviewer(bs.load(bs.SAMPLES / JUDGED), STRICT, TINY, 0, None)
        self.index = index
        self.played = played = reviewer.replay.steps[index].action
        self.seat = seat = played.player
        assert len(reviewer.names) == 2  # the readings below are of two seats
        self.handed: list[int] = []  # the samples handed out, in order
        self.finals: list[bool] = []
        self.deep: list[list[Action]] = []

        def sample() -> int:
            self.handed.append(len(self.handed))
            return self.handed[-1]

        def reading(margin: float, win: float) -> tuple[tuple[float, float], tuple[float, float]]:
            vp, chances = [60.0, 60.0], [1.0 - win, 1.0 - win]
            vp[seat] += margin
            chances[seat] = win
            return (chances[0], chances[1]), (vp[0], vp[1])

        def judge(state: GameState, s: int, actions: Sequence[Action], worlds: Sequence[int], final: bool) -> list:
            self.finals.append(final)
            margin = played_out if final else other
            mine, theirs = played_out_wins if final else (0.5, 0.5)
            return [
                [reading(0.0, mine) if a == played else reading(margin[k], theirs) for k in worlds] for a in actions
            ]

        stubbed: Any = reviewer  # its methods replaced on this instance only
        stubbed.judge = judge
        count = END_SAMPLES if final else SAMPLES
        stubbed._worlds = lambda state, s, a, rng: ([sample() for _ in range(count)], final)
        stubbed._world = lambda state, s, rng: sample()
        bot: Any = reviewer.deep
        real: Callable[..., SearchResult] = bot.analyse

        def analyse(state: GameState, legal: Any = None, rng: Any = None, force: Sequence[Action] = ()) -> SearchResult:
            self.deep.append(list(force))
            if deep is None:
                return real(state, legal, rng, force)
            values = [reading(lead, 0.5)[1] for lead in deep]
            stats = tuple(ActionStats(a, 10, v, 0.0, k) for k, (a, v) in enumerate(zip(force, values, strict=True)))
            return SearchResult(seat, force[1], stats, 20, 0.0, values[1])

        bot.analyse = analyse

    def review(self) -> Any:
        return self.reviewer.review(self.index)


def test_when_the_samples_disagree_the_sure_loss_is_the_mean_loss_less_its_standard_error() -> None:
    """A loss too small for a label, seen as 1.5x and 0.5x its mean in the judge's two samples: the standard
    error of the two differences is half the mean (stdev m*sqrt(2)/2, over sqrt(2)), so the engine is sure
    of half the mean loss, below the mean; no confirmation, no deeper search (no label at stake)."""
    m = MARGIN_THRESHOLDS[0] / 2
    s = Spread([1.5 * m, 0.5 * m])
    review = s.review()
    assert review.judged and review.best_action != s.played.to_json()
    assert s.handed == list(range(SAMPLES)) and s.deep == []
    assert review.loss == pytest.approx(m)
    assert review.loss_se == pytest.approx(m / 2)
    assert review.sure_loss == pytest.approx(m / 2) and review.sure_loss < review.loss
    assert review.label is None


def test_a_loss_only_some_samples_see_gets_no_label_when_less_its_standard_error_it_falls_below_the_threshold() -> None:
    """A mean loss 1 VP above the inaccuracy threshold, but seen as the mean plus or minus 4 VP, sample by
    sample (the judge's two and the confirmation's four): less its standard error (4 sqrt(6/5) / sqrt(6),
    about 1.79 VP) it is below the threshold, so the action is not labelled and no deeper search is
    asked, though the mean alone would be an inaccuracy."""
    m, d = MARGIN_THRESHOLDS[0] + 1.0, 4.0
    n = SAMPLES + CONFIRM_SAMPLES
    other = [m + d if k % 2 == 0 else m - d for k in range(n)]
    s = Spread(other)
    review = s.review()
    assert margin_label(m) == "inaccuracy"  # the premise: the mean alone is labelled
    assert s.handed == list(range(n))  # judged again on the confirmation's samples
    assert review.loss == pytest.approx(m)
    se = d * math.sqrt(n / (n - 1)) / math.sqrt(n)  # the sample stdev of n values at m +- d, over sqrt(n)
    assert se == pytest.approx(statistics.stdev(other) / math.sqrt(n))
    assert review.loss_se == pytest.approx(se)
    assert review.sure_loss == pytest.approx(m - se) and m - se < MARGIN_THRESHOLDS[0]
    assert review.label is None and review.label_loss == pytest.approx(m - se)
    assert s.deep == []


ROUND_BEFORE_LAST = 73  # the Rail Era's 9th round of 10 (2 players): the mover moves again in the 10th


def test_a_loss_the_games_played_out_from_the_round_before_the_last_do_not_see_is_no_mistake() -> None:
    """In the round before the last, the models read a blunder's loss in every sample, but a plan for the
    last turns is invisible to them: the loss is judged again by playing the games out, and those games
    show the action played as good as the other. The sure loss is what the games played out say (none),
    so no label, no deeper search; the loss shown is still the models' first two samples."""
    r = bs.replay(bs.load(bs.SAMPLES / JUDGED))
    before = r.state_at(ROUND_BEFORE_LAST - 1)
    n = before.num_players
    assert before.era == "rail" and before.era_round == before.rules.rounds_per_era[n] - 1  # the premise
    blunder = MARGIN_THRESHOLDS[-1] + 5.0
    total = SAMPLES + CONFIRM_SAMPLES
    s = Spread([blunder] * total, index=ROUND_BEFORE_LAST, played_out=[0.0] * total)
    review = s.review()
    assert margin_label(blunder) == "blunder"
    assert s.finals == [False, True]  # the judge's samples read by the models, the confirmation played out
    assert s.handed == list(range(total))
    assert review.loss == pytest.approx(blunder)
    assert review.sure_loss == pytest.approx(0.0) and review.loss_se == pytest.approx(0.0)
    assert review.label is None and review.label_loss == pytest.approx(0.0)
    assert s.deep == []


def test_before_the_round_before_the_last_the_confirmation_is_read_by_the_models() -> None:
    """Two rounds before the end (the Rail Era's 8th of 10) the confirmation's samples are read by the
    models like the judge's own, and the sure loss is over all six samples."""
    index = 69
    r = bs.replay(bs.load(bs.SAMPLES / JUDGED))
    before = r.state_at(index - 1)
    assert before.era == "rail" and before.era_round == before.rules.rounds_per_era[before.num_players] - 2
    m = MARGIN_THRESHOLDS[0] + 1.0
    total = SAMPLES + CONFIRM_SAMPLES
    s = Spread([m + 4.0, m - 4.0] * (total // 2), index=index, played_out=[0.0] * total)
    review = s.review()
    assert s.finals == [False, False]
    assert review.loss_se == pytest.approx(4.0 * math.sqrt(total / (total - 1)) / math.sqrt(total))


def test_the_deeper_searchs_loss_is_its_margin_after_the_best_action_less_after_the_action_played() -> None:
    """The models see a blunder's loss in every sample; the deeper search expects the mover 12 VP ahead of
    its opponent after the best action and 10 VP ahead after the action played: it sees a loss of 2 VP, so
    the engine is sure of 2 VP only (the smaller opinion), and no label."""
    blunder = MARGIN_THRESHOLDS[-1] + 5.0
    total = SAMPLES + CONFIRM_SAMPLES
    s = Spread([blunder] * total, deep=(10.0, 12.0))
    review = s.review()
    assert len(s.deep) == 1 and s.deep[0][0] == s.played
    assert review.deep_loss == pytest.approx(2.0)
    assert review.sure_loss == pytest.approx(2.0) and review.label is None
    assert review.loss == pytest.approx(blunder)  # the models' reading stands beside it


def test_games_played_out_from_the_round_before_the_last_count_the_win_at_win_vp_per_player() -> None:
    """In the round before the last the confirmation plays the games out, and there, as in the last round,
    a win is worth WIN_VP_PER_PLAYER VP a player: equal margins but a win chance of 0.6 after the best
    action against 0.4 after the action played cost the mover 0.2 * 50 * 2 = 20 VP, a blunder (the deeper
    search sees more)."""
    total = SAMPLES + CONFIRM_SAMPLES
    blunder = MARGIN_THRESHOLDS[-1] + 5.0
    expected = (0.6 - 0.4) * WIN_VP_PER_PLAYER * 2
    assert expected == pytest.approx(20.0) and margin_label(expected) == "blunder"
    # the deeper search sees twice that loss: the smaller opinion is the games played out
    s = Spread(
        [blunder] * total,
        index=ROUND_BEFORE_LAST,
        played_out=[0.0] * total,
        played_out_wins=(0.4, 0.6),
        deep=(0.0, 2 * expected),
    )
    review = s.review()
    assert s.finals == [False, True]
    assert review.deep_loss == pytest.approx(2 * expected)
    assert review.sure_loss == pytest.approx(expected) and review.loss_se == pytest.approx(0.0)
    assert review.label == "blunder" and review.label_loss == pytest.approx(expected)


LAST_ROUND = 77  # the Rail Era's last round: the mover's turn is the game's last


def test_in_the_last_round_a_win_chance_given_away_counts_win_vp_per_player() -> None:
    """The game ends before the mover moves again: the lines are played out and each action's value is the
    mover's final margin plus its share of the win at WIN_VP_PER_PLAYER VP a player. Equal margins, but a
    win chance of 0.6 after the best action against 0.4 after the action played: a loss of
    0.2 * 50 * 2 = 20 VP, a blunder; no confirmation and no deeper search (the games were played out)."""
    r = bs.replay(bs.load(bs.SAMPLES / JUDGED))
    before = r.state_at(LAST_ROUND - 1)
    assert before.era == "rail" and before.era_round == before.rules.rounds_per_era[before.num_players]
    expected = (0.6 - 0.4) * WIN_VP_PER_PLAYER * 2
    assert expected == pytest.approx(20.0) and margin_label(expected) == "blunder"
    s = Spread([], index=LAST_ROUND, played_out=[0.0] * END_SAMPLES, played_out_wins=(0.4, 0.6), final=True)
    review = s.review()
    assert s.finals == [True] and s.handed == list(range(END_SAMPLES)) and s.deep == []
    assert review.best_value is not None and review.played_value is not None
    assert review.best_value - review.played_value == pytest.approx(expected)
    assert review.loss == pytest.approx(expected) and review.sure_loss == pytest.approx(expected)
    assert review.label == "blunder" and review.label_loss == pytest.approx(expected)


# -- a game's key moments ----------------------------------------------------------------------------------


def test_the_swings_name_a_build_by_its_industry_its_tile_level_and_where() -> None:
    """Every build among a game's score swings reads "build <industry> <level> at <location>": the level of
    the tile built, the lowest of that industry left on the builder's mat (the rules)."""
    path = GAMES[0]
    r = bs.replay(bs.load(path))
    swings = action_swings(open_game(str(path)))
    builds = swings[swings["action"].str.startswith("build")]
    assert len(builds) > 3
    for index, text in zip(builds["action_index"], builds["action"], strict=True):
        a = r.steps[int(index)].action
        assert isinstance(a, Build)
        level = r.state_at(int(index) - 1).players[a.player].lowest_level(a.industry)
        assert text == f"build {a.industry.replace('_', ' ')} {level} at {a.location}"


# -- win statistics by dimensions ----------------------------------------------------------------------------


@pytest.mark.parametrize("dims", [["player_count", "player_count"], ["seat", "player_kind", "seat"]])
def test_win_statistics_refuse_a_dimension_given_twice(store: Path, dims: list[str]) -> None:
    """The same dimension twice among several: a ValueError saying each may be given once; the dimensions
    once each are answered (one row per bucket)."""
    con = duckdb.connect(str(store), read_only=True)
    try:
        with pytest.raises(ValueError, match="each --by dimension may be given once"):
            stats_by(con, dims)
        once = list(dict.fromkeys(dims))
        table = stats_by(con, once)
        assert list(table.columns[: len(once)]) == once and not table.empty
    finally:
        con.close()


# -- accuracy bands ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accuracy", "band"),
    [
        (0.0, "0-70"),
        (69.99, "0-70"),
        (70.0, "70-80"),
        (79.99, "70-80"),
        (80.0, "80-90"),
        (89.99, "80-90"),
        (90.0, "90-100"),
        (90.5, "90-100"),
        (100.0, "90-100"),
    ],
)
def test_an_accuracy_falls_in_the_band_whose_lower_bound_it_reaches(accuracy: float, band: str) -> None:
    """``stats --by accuracy`` splits at 70, 80 and 90: a band holds its lower bound, not its upper one."""
    assert accuracy_band(accuracy) == band


# -- a game against the corpus ----------------------------------------------------------------------------


def test_a_percentile_in_an_empty_sample_is_nan_and_equal_values_count_half() -> None:
    """No corpus value to compare with (no winner reached that round): NaN, which the sentences say in words;
    otherwise the share of values below, equal ones counting half: 3 in 1, 2, 3, 4 is (2 + 0.5) / 4."""
    assert math.isnan(percentile_of(3.0, np.array([], dtype=float)))
    assert percentile_of(3.0, np.array([1.0, 2.0, 3.0, 4.0])) == pytest.approx(62.5)
    assert percentile_of(9.0, np.array([1.0, 2.0])) == pytest.approx(100.0)


@pytest.mark.parametrize(
    ("pct", "words"),
    [
        (0.0, "bottom 10%"),
        (8.0, "bottom 10%"),
        (25.0, "bottom 30%"),
        (49.0, "bottom 50%"),
        (49.5, "bottom 50%"),
        (50.0, "top 50%"),
        (75.0, "top 30%"),
        (97.5, "top 10%"),
        (100.0, "top 10%"),
    ],
)
def test_a_percentile_below_50_is_the_bottom_and_from_50_the_top_in_tens(pct: float, words: str) -> None:
    """Below the median a value is in the bottom N%, from it in the top N%: N the smallest multiple of 10,
    at least 10, that holds the value's place counted from that end."""
    assert describe_percentile(pct) == words


def test_a_game_compared_with_a_corpus_without_its_like_gets_no_band_and_says_so() -> None:
    """The corpus is the game's own store, which holds no other game (the game itself is left out): every
    player's every round is still answered, with no winners' band and no percentile (NaN), and each
    sentence says that no corpus winner reached that round."""
    src = open_game(str(GAMES[0]))
    r = bs.replay(bs.load(GAMES[0]))
    cmp = compare_game(src.con, src.game_id, src.con, "vp")
    assert cmp.attrs["corpus_games"] == 0 and (cmp["corpus_games"] == 0).all()
    assert sorted(set(cmp["seat"])) == list(range(len(r.log.players)))
    assert len(cmp) == len(r.log.players) * cmp["round"].nunique() and cmp["round"].nunique() > 10
    for column in ("winners_q25", "winners_median", "winners_q75", "pct_of_winners", "pct_of_all"):
        assert cmp[column].isna().all(), column
    sentences = comparison_sentences(cmp, "vp", 4)
    assert len(sentences) == len(r.log.players)
    assert all("VP after round 4 was" in s and s.endswith(": no corpus winner reached that round") for s in sentences)


# -- openings ----------------------------------------------------------------------------------------------


def test_an_opening_is_by_default_the_players_first_three_actions_in_order(store: Path) -> None:
    """docs/statistics.md: `opening` is the first 3 actions. Each seat's opening names, in order, the types
    of its first three actions in the log (shortfalls never count)."""
    con = duckdb.connect(str(store), read_only=True)
    try:
        openings = opening_sequences(con)
        ids = {str(g): str(p) for g, p in con.execute("SELECT game_id, source_file FROM games").fetchall()}
    finally:
        con.close()
    assert len(ids) == len(GAMES) and len(openings) == 2 * len(GAMES)
    by_name = {p.name: p for p in GAMES}
    for gid, seat, opening in openings.itertuples(index=False):
        log = GameLog.load(by_name[Path(ids[gid]).name])
        types = [a.TYPE for a in log.actions if a.player == seat and a.TYPE != "shortfall"][:3]
        assert [word.split()[0] for word in opening.split(" > ")] == types
