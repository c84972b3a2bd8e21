"""Contracts of the batch review and of the judge's second opinion that a user relies on.

* A batch review into a Parquet dataset stores the games it finished when a batch is full, or when the
  time is up, whichever comes first: a run killed later loses at most one batch or one interval of work.
* A batch review is given one store: anything else is refused with a clear error before any work.
* The judge asks its deeper searches (``DEEP_FACTOR`` times its budget) exactly when the documented
  condition holds (docs/analysis.md, "Sure before it labels" and "Labels and accuracy").

The review's own work is replaced where it does not matter to the contract (the rows a game gets, the
models' readings of the compared actions), so each case is set up on its side of the condition; the
store, the writer, the searches and the labelling are the package's own.
"""

from __future__ import annotations

import shutil
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import brass_stats as bs
from brass_stats.analysis.review import Reviewer, review_game, run
from brass_stats.analysis.review import collection as C
from brass_stats.analysis.review.judge import DEEP_FACTOR, WIN_VP_PER_PLAYER
from brass_stats.analysis.review.judgement import MARGIN_THRESHOLDS
from brass_stats.bots.search import SearchResult
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import AS_PLAYED, STRICT
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog
from brass_stats.storage import ingest
from brass_stats.storage.corpus import CorpusRef, open_corpus
from brass_stats.storage.dataset import read_commits
from brass_stats.storage.tables import game_id

GAMES = (
    bs.SAMPLES / "real" / "wq9gs6-2p.json",
    bs.SAMPLES / "generated" / "game-2002-00000.json",
    bs.SAMPLES / "generated" / "game-2002-00001.json",
)
ORDER = sorted(game_id(GameLog.load(p)) for p in GAMES)  # a collection review goes by game id


# -- the batch review's writes ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three games in a Parquet dataset (their logs beside it), nothing reviewed."""
    root = tmp_path_factory.mktemp("batches")
    logs = root / "logs"
    logs.mkdir()
    for p in GAMES:
        shutil.copy(p, logs)
    pq = root / "pq"
    assert ingest([logs], None, parquet_dir=pq, workers=1, progress=False).stored == 3
    return pq


@pytest.fixture(scope="module")
def canned() -> Any:
    """A review cheap to make (the first two actions of a game, one simulation): the rows any game gets."""
    log = GameLog.load(GAMES[1])
    return review_game(replace(log, actions=log.actions[:2]), simulations=1, seed=0, workers=1)


def stored(pq: Path) -> dict[str, int]:
    """The rows the dataset's ``analysis`` table holds now, per game."""
    con = open_corpus(parquet=pq)
    try:
        return dict(con.execute("SELECT game_id, count(*) FROM analysis GROUP BY game_id").fetchall())
    finally:
        con.close()


class Clock:
    """``time.monotonic`` for the collection's writer: moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def review_run(
    dataset: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    canned: Any,
    batch: int,
    seconds_per_game: float,
) -> tuple[Path, list[dict[str, int]], int]:
    """Review the whole dataset (a copy) with ``PARQUET_BATCH = batch`` while each game's review takes
    ``seconds_per_game`` on the writer's clock. Returns the copy, what the store held as each game's
    review started, and how many commit records the run added."""
    pq = tmp_path / "pq"
    shutil.copytree(dataset, pq)
    # the logs beside the copy too, as beside the original (a store finds them relative to its folder)
    shutil.copytree(dataset.parent / "logs", tmp_path / "logs")
    clock = Clock()
    monkeypatch.setattr(C, "PARQUET_BATCH", batch)
    monkeypatch.setattr(C, "time", types.SimpleNamespace(monotonic=clock, perf_counter=time.perf_counter))
    seen: list[dict[str, int]] = []

    def review(game: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(stored(pq))  # what a kill at this moment would leave
        clock.now += seconds_per_game
        return canned

    monkeypatch.setattr(run, "review_game", review)
    commits = len(read_commits(pq))
    report = C.review_collection(CorpusRef(parquet=pq), simulations=1, progress=False)
    assert report.reviewed == 3 and not report.failed, report.summary()
    rows = len(canned.actions)
    assert stored(pq) == dict.fromkeys(ORDER, rows)  # every game's rows in the end, whatever the batches
    return pq, seen, len(read_commits(pq)) - commits


def test_a_full_batch_of_reviewed_games_is_stored_before_the_next_game_is_reviewed(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, canned: Any
) -> None:
    """PARQUET_BATCH games reviewed: they are in the store at once, though no time has passed."""
    _, seen, commits = review_run(dataset, tmp_path, monkeypatch, canned, batch=2, seconds_per_game=0.0)
    rows = len(canned.actions)
    assert seen == [{}, {}, dict.fromkeys(ORDER[:2], rows)]
    assert commits == 2  # the full batch, then the last game at the end


def test_reviewed_games_are_stored_when_the_time_is_up_though_the_batch_is_not_full(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, canned: Any
) -> None:
    """PARQUET_SECONDS passed since the last write: the games reviewed since are stored, one at a time here."""
    _, seen, commits = review_run(dataset, tmp_path, monkeypatch, canned, batch=100, seconds_per_game=C.PARQUET_SECONDS)
    rows = len(canned.actions)
    assert seen == [{}, dict.fromkeys(ORDER[:1], rows), dict.fromkeys(ORDER[:2], rows)]
    assert commits == 3


def test_without_a_full_batch_or_the_time_up_the_games_are_stored_together_at_the_end(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, canned: Any
) -> None:
    """Neither trigger: one commit record for the run, written when it ends (a batch is all or nothing)."""
    below = C.PARQUET_SECONDS / 3 - 0.5  # three games take less than PARQUET_SECONDS in all
    _, seen, commits = review_run(dataset, tmp_path, monkeypatch, canned, batch=100, seconds_per_game=below)
    assert seen == [{}, {}, {}]
    assert commits == 1


# -- a batch review is given one store ---------------------------------------------------------------------


class UntouchableRef(CorpusRef):
    """A store reference that fails the test if the review opens it."""

    def connect(self) -> Any:
        raise AssertionError("the store was opened")


@pytest.mark.parametrize("which", ["neither", "both"])
def test_a_batch_review_refuses_anything_but_one_store_before_opening_it(
    which: str, dataset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither a DuckDB file nor a Parquet dataset, or both at once: a ValueError saying what to give, and
    no store opened, no game reviewed."""
    monkeypatch.setattr(run, "review_game", lambda *a, **k: pytest.fail("a game was reviewed"))
    ref = UntouchableRef() if which == "neither" else UntouchableRef(db=dataset / "g.duckdb", parquet=dataset)
    with pytest.raises(ValueError, match="one store: a DuckDB file or a Parquet dataset"):
        C.review_collection(ref, simulations=1, progress=False)


# -- the judge's second opinions ---------------------------------------------------------------------------

TINY = 4
JUDGED = "generated/game-2012-00000.json"  # 2 players
INDEX = 63  # a Rail Era action, neither of the last two rounds; several legal actions


def readings(seats: int, seat: int, margin: float, win: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Win chances and final VP of ``seats`` seats giving ``seat`` the chance ``win`` and the margin
    ``margin`` over its opponents' mean."""
    vp = [60.0] * seats
    vp[seat] += margin
    chances = [(1.0 - win) / (seats - 1)] * seats
    chances[seat] = win
    return tuple(chances), tuple(vp)


class Stubbed:
    """A reviewer whose readings of the compared actions the test sets (margin and win chance of the action
    played, and of every other action), with its two deeper searches spied on (each runs for real)."""

    def __init__(self, index: int, played_margin: float, other_margin: float, played_win: float = 0.5,
                 other_win: float = 0.5, final: bool = False, game: str = JUDGED,
                 policy: Any = STRICT) -> None:  # fmt: skip
        self.reviewer = reviewer = Reviewer(bs.load(bs.SAMPLES / game), policy, TINY, 0, None)
        self.index = index
        self.before = reviewer.replay.state_at(index - 1)
        self.played = reviewer.replay.steps[index].action
        seat, seats = self.played.player, self.before.num_players
        self.calls: dict[str, list[tuple[list[Action], SearchResult]]] = {"deep": [], "deep_win": []}
        played = self.played

        def judge(state: GameState, s: int, actions: Sequence[Action], worlds: Sequence[Any], final: bool) -> list:
            out = []
            for a in actions:
                m, w = (played_margin, played_win) if a == played else (other_margin, other_win)
                out.append([readings(seats, seat, m, w)] * len(worlds))
            return out

        stubbed: Any = reviewer  # its methods replaced on this instance only
        stubbed.judge = judge
        stubbed._worlds = lambda state, s, a, rng: ([object(), object()], final)  # two samples, never dealt
        stubbed._world = lambda state, s, rng: object()
        for name in ("deep", "deep_win"):
            self._spy(name)

    def _spy(self, name: str) -> None:
        bot = getattr(self.reviewer, name)
        real: Callable[..., SearchResult] = bot.analyse

        def analyse(state: GameState, legal: Any = None, rng: Any = None, force: Sequence[Action] = ()) -> SearchResult:
            result = real(state, legal, rng, force)
            self.calls[name].append((list(force), result))
            return result

        bot.analyse = analyse

    def review(self) -> Any:
        return self.reviewer.review(self.index)


BLUNDER = MARGIN_THRESHOLDS[-1] + 5.0  # VP of margin: a blunder by the margin alone
SMALL = MARGIN_THRESHOLDS[0] / 4  # no label by the margin alone


def test_a_loss_about_to_be_labelled_is_checked_by_a_search_of_deep_factor_times_the_budget() -> None:
    """Another action is better by a labelled margin (not the last round, no rule broken): the deeper search
    runs once, on the action played and the best one, with DEEP_FACTOR times the judge's simulations."""
    s = Stubbed(INDEX, played_margin=0.0, other_margin=BLUNDER)
    review = s.review()
    assert review.judged and review.best_action != s.played.to_json() and review.loss == pytest.approx(BLUNDER)
    assert review.simulations == TINY  # the judge's own search
    ((force, result),) = s.calls["deep"]
    assert force[0] == s.played and force[1].to_json() == review.best_action
    assert result.simulations == DEEP_FACTOR * TINY
    assert review.deep_loss is not None and review.sure_loss == pytest.approx(min(BLUNDER, review.deep_loss))
    assert s.calls["deep_win"] == []  # the win chance given away (none) raises no label


@pytest.mark.parametrize(
    ("why", "played_margin", "other_margin", "final"),
    [
        ("a loss too small for a label", 0.0, SMALL, False),
        ("the action played is the best", BLUNDER, 0.0, False),
        ("the last round: the games were played out", 0.0, BLUNDER, True),
    ],
)
def test_the_deeper_search_is_not_asked_when_no_label_is_at_stake(
    why: str, played_margin: float, other_margin: float, final: bool
) -> None:
    s = Stubbed(INDEX, played_margin, other_margin, final=final)
    review = s.review()
    assert review.judged, why
    assert s.calls["deep"] == [], why
    assert review.deep_loss is None, why
    if final:  # without the deeper check the loss stands: the games played out are the sure reading
        assert review.label == "blunder"


def test_an_action_that_broke_a_tolerated_rule_gets_no_deeper_search() -> None:
    """A game stored as played: the action that broke a rule (the real 4-player game's 15th and 16th link)
    is judged, but the searches play by the rules, so no second opinion is asked, however large the loss."""
    s = Stubbed(117, played_margin=0.0, other_margin=BLUNDER, game="real/gm7vza-4p.json", policy=AS_PLAYED)
    assert any(e.kind == "deviation" for e in s.reviewer.replay.steps[117].effects)
    review = s.review()
    assert review.judged and review.loss is not None and review.loss > MARGIN_THRESHOLDS[-1]
    assert s.calls["deep"] == [] and s.calls["deep_win"] == [] and review.deep_loss is None


def test_a_chance_of_winning_that_raises_the_label_is_checked_by_a_search_of_deep_factor_times_the_budget() -> None:
    """A small loss in VP, but a large win chance given away (valued at WIN_VP_PER_PLAYER a player): the
    label would rise, so the stake search runs once, with DEEP_FACTOR times the judge's simulations, and
    the label loss is at most what it sees (never below the sure loss)."""
    given_away = (MARGIN_THRESHOLDS[-1] + 5.0) / (WIN_VP_PER_PLAYER * 2)
    s = Stubbed(INDEX, played_margin=0.0, other_margin=SMALL, played_win=0.5 - given_away, other_win=0.5)
    review = s.review()
    assert review.win_loss == pytest.approx(given_away)
    assert s.calls["deep"] == []  # the margin alone is no label
    ((force, result),) = s.calls["deep_win"]
    assert force[0] == s.played and force[1].to_json() == review.best_action
    assert result.simulations == DEEP_FACTOR * TINY
    assert review.sure_loss is not None and review.label_loss is not None
    assert review.sure_loss - 1e-9 <= review.label_loss <= review.sure_loss + WIN_VP_PER_PLAYER * 2 * given_away


def test_a_chance_of_winning_that_leaves_the_label_as_it_is_asks_no_stake_search() -> None:
    s = Stubbed(INDEX, played_margin=0.0, other_margin=SMALL, played_win=0.499, other_win=0.5)
    review = s.review()
    assert review.win_loss == pytest.approx(0.001) and review.label is None
    assert s.calls["deep"] == [] and s.calls["deep_win"] == []


def test_the_judged_position_is_an_ordinary_one() -> None:
    """The premise of the cases above: several legal actions, the Rail Era before its last two rounds."""
    r = bs.replay(bs.load(bs.SAMPLES / JUDGED))
    before = r.state_at(INDEX - 1)
    assert len(legal_actions(before)) > 1
    assert before.era == "rail" and before.era_round < before.rules.rounds_per_era[before.num_players] - 1
