"""``brass-stats analyse --db FILE`` / ``--parquet DIR`` without GAME: every stored game not yet reviewed,
one game per task, each game's rows stored as it is done (brass_stats.analysis.review.collection).

A store of three 2-player games (one real, two generated) and a budget of one simulation: these check the
plumbing (which games, once each, the same rows however run, a failure kept to its game), not the
judgement."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from brass_stats.analysis.review import run
from brass_stats.analysis.review.collection import select_games
from brass_stats.analysis.statistics.filters import CorpusFilter
from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED, STRICT
from brass_stats.log.format import GameLog
from brass_stats.samples import SAMPLES
from brass_stats.storage import ingest
from brass_stats.storage.corpus import open_corpus
from brass_stats.storage.dataset import read_commits
from brass_stats.storage.tables import game_id

REAL = SAMPLES / "real" / "wq9gs6-2p.json"
GENERATED = (SAMPLES / "generated" / "game-2002-00000.json", SAMPLES / "generated" / "game-2002-00001.json")
GAMES = (REAL, *GENERATED)
IDS = {p.name: game_id(GameLog.load(p)) for p in GAMES}
TINY = ["--simulations", "1"]
ROWS = "SELECT * EXCLUDE (analysed_at) FROM analysis ORDER BY game_id, action_index"


def _analyse(*args: str) -> Any:
    return CliRunner().invoke(main, ["analyse", *args])


def _rows(db: Path | None = None, parquet: Path | None = None, sql: str = ROWS) -> list[tuple[Any, ...]]:
    con = open_corpus(db=db, parquet=parquet)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()  # a read-only connection left open would keep the next command from writing


def _per_game(db: Path | None = None, parquet: Path | None = None) -> dict[str, int]:
    return dict(_rows(db, parquet, "SELECT game_id, count(*) FROM analysis GROUP BY game_id"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The three games in a DuckDB file and in a Parquet dataset, nothing reviewed."""
    root = tmp_path_factory.mktemp("collection")
    logs = root / "logs"
    logs.mkdir()
    for p in GAMES:
        shutil.copy(p, logs)
    db, pqdir = root / "g.duckdb", root / "pq"
    assert ingest([logs], db, workers=1, progress=False).stored == 3
    assert ingest([logs], None, parquet_dir=pqdir, workers=1, progress=False).stored == 3
    return {"root": root, "logs": logs, "db": db, "parquet": pqdir}


def _copy_db(store: dict[str, Path], tmp_path: Path) -> Path:
    """A copy of the DuckDB file beside the original (the logs are found relative to it, as stored)."""
    db = store["root"] / f"{tmp_path.name}.duckdb"
    shutil.copy(store["db"], db)
    return db


@pytest.fixture(scope="module")
def one_shot(store: dict[str, Path]) -> list[tuple[Any, ...]]:
    """The rows of the whole store reviewed in one run, by two worker processes."""
    db = store["root"] / "one-shot.duckdb"
    shutil.copy(store["db"], db)
    res = _analyse("--db", str(db), *TINY, "--workers", "2")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("reviewed 3 game(s) (234 actions), skipped 0 already reviewed (1 simulations, seed 0)")
    assert "failed 0" in res.stdout
    return _rows(db)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game id of every game reviewed in this process (a task run with --workers 1), in order."""
    seen: list[str] = []
    real = run.review_game

    def review_game(game: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(game_id(game.log))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(run, "review_game", review_game)
    return seen


def test_every_game_gets_its_rows_and_stats_by_accuracy_covers_them(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]]
) -> None:
    con = open_corpus(db=store["db"])
    actions = dict(con.execute("SELECT game_id, n_actions FROM games").fetchall())
    con.close()
    per_game: dict[str, int] = {}
    for row in one_shot:
        per_game[row[0]] = per_game.get(row[0], 0) + 1
    assert per_game == actions == {gid: 78 for gid in IDS.values()}
    assert {(r[11], r[12], r[13]) for r in one_shot} == {(1, 0, False)}  # simulations, seed, as played
    # stats --by accuracy works as is on the reviewed store: every player-game of the three games
    db = store["root"] / "one-shot.duckdb"
    res = CliRunner().invoke(
        main, ["stats", "--db", str(db), "--by", "accuracy", "--min-games", "1", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert sum(r["player_games"] for r in rows) == 6 and sum(r["wins"] for r in rows) == 3
    cross = CliRunner().invoke(
        main, ["stats", "--db", str(db), "--by", "accuracy", "--by", "strategy", "--min-games", "1"]
    )
    assert cross.exit_code == 0, cross.output


def test_a_game_reviewed_alone_gets_the_same_rows(store: dict[str, Path], one_shot: list[tuple[Any, ...]]) -> None:
    db = store["root"] / "alone.duckdb"
    shutil.copy(store["db"], db)
    res = _analyse(IDS[REAL.name], "--db", str(db), "--store", *TINY, "--format", "json")
    assert res.exit_code == 0, res.output
    assert _rows(db) == [r for r in one_shot if r[0] == IDS[REAL.name]]


def test_a_second_run_goes_on_where_the_first_stopped_and_reviews_nothing_twice(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]], counted: list[str], tmp_path: Path
) -> None:
    db = _copy_db(store, tmp_path)
    first = _analyse("--db", str(db), *TINY, "--source", "real")  # a part of the store, as a stopped run left it
    assert first.exit_code == 0, first.output
    assert first.stdout.startswith("reviewed 1 game(s) (78 actions), skipped 0")
    assert counted == [IDS[REAL.name]]
    rest = _analyse("--db", str(db), *TINY)
    assert rest.exit_code == 0, rest.output
    assert rest.stdout.startswith("reviewed 2 game(s) (156 actions), skipped 1 already reviewed")
    assert sorted(counted) == sorted(IDS.values())  # each game once
    assert _rows(db) == one_shot  # the rows of a one-shot run (by two workers there, one here)
    again = _analyse("--db", str(db), *TINY, "--format", "json")
    assert again.exit_code == 0 and json.loads(again.stdout)[0] | {"seconds": 0} == {
        "reviewed": 0, "skipped": 3, "failed": 0, "actions": 0, "simulations": 1, "seed": 0,
        "first_failed_game": None, "first_failure": None, "seconds": 0,
    }  # fmt: skip
    assert len(counted) == 3
    # --redo reviews again (the same rows); another seed is another review, replacing the game's rows
    redo = _analyse("--db", str(db), *TINY, "--source", "real", "--redo")
    assert redo.exit_code == 0 and redo.stdout.startswith("reviewed 1 game(s)")
    assert len(counted) == 4 and _rows(db) == one_shot
    seeded = _analyse("--db", str(db), *TINY, "--source", "real", "--seed", "5")
    assert seeded.exit_code == 0 and seeded.stdout.startswith("reviewed 1 game(s) (78 actions), skipped 0")
    seeds = _rows(db, sql="SELECT game_id, min(seed), max(seed) FROM analysis GROUP BY ALL ORDER BY ALL")
    assert seeds == sorted([(IDS[REAL.name], 5, 5), *((IDS[p.name], 0, 0) for p in GENERATED)])


def test_a_killed_run_keeps_the_games_it_stored(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = _copy_db(store, tmp_path)
    real = run.review_game
    calls: list[str] = []

    def killed_at_the_second(game: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(game_id(game.log))
        if len(calls) == 2:
            raise KeyboardInterrupt  # as a kill (Ctrl-C) in the middle of the second game
        return real(game, *args, **kwargs)

    monkeypatch.setattr(run, "review_game", killed_at_the_second)
    res = _analyse("--db", str(db), *TINY)
    assert res.exit_code != 0
    assert _per_game(db) == {calls[0]: 78}  # the first game's rows, all of them; nothing of the second
    monkeypatch.setattr(run, "review_game", real)
    rest = _analyse("--db", str(db), *TINY)
    assert rest.exit_code == 0, rest.output
    assert rest.stdout.startswith("reviewed 2 game(s) (156 actions), skipped 1 already reviewed")
    assert _rows(db) == one_shot


def test_a_failing_game_is_reported_and_the_others_are_stored(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One game's review raises, another game's log is gone: both named, the third stored; exit 1."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for p in GAMES:
        shutil.copy(p, logs)
    db = tmp_path / "g.duckdb"
    assert ingest([logs], db, workers=1, progress=False).stored == 3
    (logs / GENERATED[1].name).unlink()
    bad, gone, good = IDS[GENERATED[0].name], IDS[GENERATED[1].name], IDS[REAL.name]
    real = run.review_game

    def fails_on_one(game: Any, *args: Any, **kwargs: Any) -> Any:
        if game_id(game.log) == bad:
            raise RuntimeError("boom")
        return real(game, *args, **kwargs)

    monkeypatch.setattr(run, "review_game", fails_on_one)
    res = _analyse("--db", str(db), *TINY)
    assert res.exit_code == 1
    assert f"game {bad}: FAILED: internal error (RuntimeError: boom)" in res.stderr
    assert f"game {gone}: FAILED: its log file" in res.stderr and "is not available to replay" in res.stderr
    line = res.stdout.strip()
    assert line.startswith("reviewed 1 game(s) (78 actions), skipped 0 already reviewed (1 simulations, seed 0)")
    assert f"failed 2 (first: game {min(bad, gone)}: " in line  # the games go in the order of their ids
    assert _per_game(db) == {good: 78}
    assert _rows(db) == [r for r in one_shot if r[0] == good]
    # mended, the next run reviews the failed game and nothing else
    monkeypatch.setattr(run, "review_game", real)
    again = _analyse("--db", str(db), *TINY, "--format", "json")
    assert again.exit_code == 1
    out = json.loads(again.stdout)[0]
    assert (out["reviewed"], out["skipped"], out["failed"], out["first_failed_game"]) == (1, 1, 1, gone)
    assert _per_game(db) == {good: 78, bad: 78}


def test_a_game_stored_as_played_is_reviewed_as_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real 4-player game breaks the link-tile limit: stored with --as-played, it is reviewed as played;
    a game stored strictly is reviewed strictly."""
    logs = tmp_path / "logs"
    logs.mkdir()
    four = SAMPLES / "real" / "gm7vza-4p.json"
    for p in (four, REAL):
        shutil.copy(p, logs)
    db = tmp_path / "g.duckdb"
    assert ingest([logs], db, workers=1, progress=False, policy=AS_PLAYED).stored == 2
    con = open_corpus(db=db)
    games, skipped = select_games(con, CorpusFilter(), 1, 0)
    con.close()
    assert skipped == 0
    assert {g.game_id: g.as_played for g in games} == {game_id(GameLog.load(four)): True, IDS[REAL.name]: False}
    policies: dict[str, Any] = {}
    real = run.review_game

    def spy(game: Any, policy: Any, *args: Any, **kwargs: Any) -> Any:
        gid = game_id(game.log)
        policies[gid] = (policy, game.policy, game.error)
        if gid != IDS[REAL.name]:
            raise RuntimeError("not reviewed here: 124 actions of 4 players")
        return real(game, policy, *args, **kwargs)

    monkeypatch.setattr(run, "review_game", spy)
    res = _analyse("--db", str(db), *TINY)
    assert res.exit_code == 1 and "not reviewed here" in res.stderr
    assert policies == {
        game_id(GameLog.load(four)): (AS_PLAYED, AS_PLAYED, None),
        IDS[REAL.name]: (STRICT, STRICT, None),
    }
    assert _rows(db, sql="SELECT DISTINCT game_id, as_played FROM analysis") == [(IDS[REAL.name], False)]


def test_a_parquet_dataset_is_reviewed_into_its_analysis_table(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    pqdir = store["root"] / f"pq-{tmp_path.name}"
    shutil.copytree(store["parquet"], pqdir)
    commits = len(read_commits(pqdir))
    res = _analyse("--parquet", str(pqdir), *TINY)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("reviewed 3 game(s) (234 actions), skipped 0")
    assert _rows(parquet=pqdir) == one_shot
    assert len(read_commits(pqdir)) == commits + 1  # one commit record for the batch of three games
    assert {p.parent.name for p in (pqdir / "analysis").rglob("*.parquet")} == {"player_count=2"}
    again = _analyse("--parquet", str(pqdir), *TINY)
    assert again.exit_code == 0 and again.stdout.startswith("reviewed 0 game(s) (0 actions), skipped 3")
    stats = CliRunner().invoke(
        main, ["stats", "--parquet", str(pqdir), "--by", "accuracy", "--min-games", "1", "--format", "json"]
    )
    assert stats.exit_code == 0 and sum(r["player_games"] for r in json.loads(stats.stdout)) == 6


def test_a_dask_cluster_reviews_the_games(
    store: dict[str, Path], one_shot: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    db = _copy_db(store, tmp_path)
    res = _analyse("--db", str(db), *TINY, "--source", "real", "--cluster", "local:2")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("reviewed 1 game(s) (78 actions), skipped 0")
    assert _rows(db) == [r for r in one_shot if r[0] == IDS[REAL.name]]


@pytest.fixture
def nothing_reviewed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    calls = [0]

    def none(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        raise AssertionError("no review expected")

    monkeypatch.setattr(run, "review_game", none)
    yield lambda: calls[0]


def test_what_is_asked_wrongly_is_one_line_and_status_2(
    store: dict[str, Path], tmp_path: Path, nothing_reviewed: Callable[[], int]
) -> None:
    res = _analyse()
    assert res.exit_code == 2
    assert res.output == (
        "error: give GAME (a log file or a stored game), or --db FILE or --parquet DIR to review every stored "
        "game not yet reviewed\n"
    )
    res = _analyse("--db", str(tmp_path / "missing.duckdb"))
    assert res.exit_code == 2 and res.output.strip().endswith("does not exist")
    assert not (tmp_path / "missing.duckdb").exists()
    for args, words in (
        (["--db", str(store["db"]), "--parquet", str(store["parquet"])], "give one store"),
        (["--db", str(store["db"]), "--as-played"], "--as-played is for one GAME"),
        ([str(REAL), "--redo"], "give them without GAME"),
        ([str(REAL), "--source", "real"], "give them without GAME"),
    ):
        res = _analyse(*args)
        assert res.exit_code == 2 and words in res.output, args
    assert nothing_reviewed() == 0
    # a filter that leaves nothing: nothing to do, said in one line
    res = _analyse("--db", str(store["db"]), "--edition", "lancashire")
    assert res.exit_code == 0 and res.stdout.startswith("reviewed 0 game(s) (0 actions), skipped 0")


def test_the_help_shows_the_new_usage() -> None:
    res = CliRunner().invoke(main, ["analyse", "--help"], terminal_width=200)
    assert res.exit_code == 0
    assert "analyse [OPTIONS] [GAME]" in res.output
    assert "Without GAME, review a whole store" in res.output
    for option in ("--edition", "--players", "--source", "--since", "--until", "--redo"):
        assert option in res.output
    assert "--min-games" not in res.output
