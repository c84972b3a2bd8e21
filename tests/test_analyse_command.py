"""``brass-stats analyse`` (a game judged action by action), the ``analysis`` table it stores, ``stats --by
accuracy`` over it, and ``brass-stats winprob train``. Tiny budgets and short games or slices: these check
the plumbing and reproducibility, not the judgement's quality."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from brass_stats.analysis.review import ActionReview, margin_game_accuracy
from brass_stats.analysis.statistics.accuracy import accuracy_band, player_accuracy
from brass_stats.bots.value import WinProbabilityModel, training
from brass_stats.cli import main
from brass_stats.log.format import GameLog
from brass_stats.presentation.evaluation import MEASURE
from brass_stats.replay import replay
from brass_stats.samples import SAMPLES
from brass_stats.storage import Store, ingest
from brass_stats.storage.analysis_table import analysis_table, replace_in_dataset
from brass_stats.storage.corpus import open_corpus
from brass_stats.storage.dataset import dataset_files
from brass_stats.storage.tables import game_id

TWO_P = SAMPLES / "real" / "wq9gs6-2p.json"  # 78 actions
OTHER_2P = SAMPLES / "generated" / "game-2002-00000.json"  # 78 actions
SPARE_2P = SAMPLES / "generated" / "game-2002-00001.json"
TINY = ["--simulations", "2"]


def _slice(tmp_path: Path, actions: list[int] | int, name: str = "slice.json") -> Path:
    """The 2-player real game cut to its first actions (or to the given actions of it), no declared result."""
    data = json.loads(TWO_P.read_text("utf-8"))
    picked = range(actions) if isinstance(actions, int) else actions
    data["actions"] = [data["actions"][i] for i in picked]
    data.pop("result", None)
    path = tmp_path / name
    path.write_text(json.dumps(data), "utf-8")
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, ["analyse", *args])


def _json(*args: str) -> dict[str, Any]:
    res = _run(*args, "--format", "json")
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.stdout)
    return out


# -- the command on a log file -------------------------------------------------------------


def test_table_numbers_actions_from_one_and_summarises_each_player(tmp_path: Path) -> None:
    res = _run(str(_slice(tmp_path, 4)), *TINY)
    assert res.exit_code == 0, res.output
    rows = [line.split() for line in res.stdout.splitlines()]
    numbers = [r[0] for r in rows if len(r) > 1 and r[0].isdigit() and r[1] in ("jsb", "111")]
    assert numbers == ["1", "2", "3", "4"]  # action N on screen is index N-1
    header = next(r for r in rows if r[:3] == ["#", "player", "action"])
    assert header[3:] == ["jsb", "111", "cost", "(VP)"]  # one win % column per player, in seat order
    # the title says what the cost is; each judged action's cost is in VP, one figure (no "±")
    assert MEASURE in " ".join(res.stdout.split())
    costs = [r[-1] for r in rows if len(r) > 4 and r[0].isdigit() and r[1] in ("jsb", "111")]
    assert len(costs) == 4 and all(float(c) >= 0 for c in costs) and "±" not in res.stdout
    assert "Accuracy" in res.stdout and "blunders" in res.stdout and "1 VP of margin for 1 point" in res.stdout
    assert "the log ends before the game does (4 actions analysed)" in res.stderr


def test_json_is_the_review_with_the_game_id_and_is_reproducible(tmp_path: Path) -> None:
    path = _slice(tmp_path, 4)
    a = _json(str(path), *TINY, "--seed", "7")
    b = _json(str(path), *TINY, "--seed", "7")
    assert a == b
    assert a["game_id"] == game_id(GameLog.load(path))
    assert (a["simulations"], a["seed"], a["stopped"]) == (2, 7, None)
    assert [x["index"] for x in a["actions"]] == [0, 1, 2, 3]
    assert all(abs(sum(x["win_after"]) - 1) < 1e-9 for x in a["actions"])
    assert [p["player"] for p in a["summary"]] == ["jsb", "111"]
    # every field of the review: the margin measure and the win-probability one beside it
    fields = {f.name for f in dataclasses.fields(ActionReview)}
    assert all(set(x) == fields for x in a["actions"])
    judged = [x for x in a["actions"] if x["judged"]]
    assert judged and all(len(x["vp_after"]) == 2 and x["loss_se"] is not None for x in judged)
    assert all(x["compared"][0]["win"] == x["win_after"] and x["compared"][0]["vp"] == x["vp_after"] for x in judged)


def test_two_workers_give_what_one_gives(tmp_path: Path) -> None:
    path = _slice(tmp_path, 3)
    assert _json(str(path), *TINY, "--workers", "2") == _json(str(path), *TINY)


def test_csv_has_one_line_per_action_with_0_based_indexes(tmp_path: Path) -> None:
    res = _run(str(_slice(tmp_path, 3)), *TINY, "--format", "csv")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == (
        "action_index,seat,player,action,win_after_0,win_after_1,vp_after_0,vp_after_1,judged,best,best_value,"
        "played_value,loss,loss_se,label,win_loss,win_label"
    )
    assert [line.split(",")[0] for line in lines[1:]] == ["0", "1", "2"]


def test_an_illegal_game_is_analysed_up_to_its_first_illegal_action_and_exits_1(tmp_path: Path) -> None:
    path = _slice(tmp_path, [0, 1, 2, 3, 1, 4, 5], "illegal.json")  # action 5 repeats action 2: not its turn
    res = _run(str(path), *TINY, "--format", "json")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["stopped"]["index"] == 4 and out["stopped"]["rule"] == "turn.order"
    assert [x["index"] for x in out["actions"]] == [0, 1, 2, 3]
    assert "analysis stopped at action 5 of 7, which breaks a rule [turn.order]" in res.stderr


def test_errors_are_one_line_and_an_exit_status(tmp_path: Path) -> None:
    res = _run(str(tmp_path / "missing.json"))
    assert res.exit_code == 2 and "no such file" in res.output
    res = _run(str(_slice(tmp_path, 2)), "--store")
    assert res.exit_code == 2 and "--store writes into a store" in res.output
    res = _run(str(_slice(tmp_path, 2)), "--workers", "2", "--cluster", "local:1")
    assert res.exit_code == 2 and "with --cluster use local:N" in res.output


def test_a_cluster_without_dask_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)
    res = _run(str(_slice(tmp_path, 2)), "--cluster", "local:1")
    assert res.exit_code == 2
    assert res.output.strip() == "error: --cluster needs Dask: pip install 'brass-stats[cluster]'"


def test_the_command_replays_the_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from brass_stats.replay import Replay

    runs: list[int] = []
    real_run = Replay.run

    def counted(self: Replay) -> Replay:
        runs.append(len(self.log.actions))
        return real_run(self)

    monkeypatch.setattr(Replay, "run", counted)
    _json(str(_slice(tmp_path, 4)), *TINY)
    assert runs == [4]


REVIEWING = {  # the commands that review a game, each with what it needs besides GAME and the review's options
    "analyse": [],
    "report": ["--analyse", "--out", "{tmp}/r.html"],
    "view": ["--analyse", "--out", "{tmp}/v.html"],
}


@pytest.mark.parametrize("command", sorted(REVIEWING))
def test_every_review_has_the_same_options(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One definition (brass_stats.cli.review_options): the same options, help, ranges and checks."""
    extra = [a.replace("{tmp}", str(tmp_path)) for a in REVIEWING[command]]

    def run(*args: str) -> Any:
        return CliRunner().invoke(main, [command, str(_slice(tmp_path, 2)), *extra, *args])

    help_text = CliRunner().invoke(main, [command, "--help"], terminal_width=200).output
    for option in ("--simulations", "--seed", "--workers", "--cluster"):
        line = next(x for x in help_text.splitlines() if x.strip().startswith(option))
        reference = CliRunner().invoke(main, ["analyse", "--help"], terminal_width=200).output
        assert line.split(option, 1)[1].strip() in reference, (option, line)
    assert ("--as-played" in help_text) == (command == "analyse")  # report, view: always as played, said so
    assert command == "analyse" or "The review is of the game as played" in help_text
    for bad in (["--seed", "-1"], ["--seed", str(2**63)], ["--simulations", "0"], ["--workers", "0"]):
        assert run(*bad).exit_code == 2, bad
    res = run("--workers", "2", "--cluster", "local:1")
    assert res.exit_code == 2 and "with --cluster use local:N" in res.output
    res = run("--cluster", "nowhere")
    assert res.exit_code == 2 and "--cluster takes local" in res.output
    for name in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)
    res = run("--cluster", "local:1")
    assert res.exit_code == 2
    assert res.output.strip() == "error: --cluster needs Dask: pip install 'brass-stats[cluster]'"


# -- stored games: --db / --parquet, --store, stats --by accuracy --------------------------------


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Three 2-player games in a DuckDB file and a Parquet dataset; two of them analysed with --store."""
    root = tmp_path_factory.mktemp("analysed")
    logs = root / "logs"
    logs.mkdir()
    for p in (TWO_P, OTHER_2P, SPARE_2P):
        shutil.copy(p, logs)
    db, pqdir = root / "g.duckdb", root / "pq"
    report = ingest([logs], db, parquet_dir=pqdir, workers=1, progress=False)
    assert (report.stored, report.failed) == (3, 0)
    for game in ("wq9gs6", OTHER_2P.name):  # a source game id, a file name
        res = _run(game, "--db", str(db), "--parquet", str(pqdir), "--store", "--simulations", "1")
        assert res.exit_code == 0, res.output
        assert "stored the analysis of game" in res.stderr
    return db, pqdir


def _rows(con: Any, sql: str = "SELECT * EXCLUDE (analysed_at) FROM analysis ORDER BY game_id, action_index") -> list:
    return con.execute(sql).fetchall()


def test_store_writes_the_same_rows_into_duckdb_and_parquet(analysed: tuple[Path, Path]) -> None:
    db, pqdir = analysed
    a, b = open_corpus(db=db), open_corpus(parquet=pqdir)
    rows = _rows(a)
    assert len(rows) == 2 * 78 and rows == _rows(b)
    ids = {game_id(GameLog.load(p)) for p in (TWO_P, OTHER_2P)}
    assert {r[0] for r in rows} == ids
    # the stored rows are the review's: the same as the command's JSON for that game
    out = _json(str(TWO_P), "--simulations", "1")
    columns = "action_index, win_after, vp_after, best_value, played_value, loss, loss_se, label, win_loss"
    mine = a.execute(
        f"SELECT {columns} FROM analysis WHERE game_id = ? ORDER BY action_index", [out["game_id"]]
    ).fetchall()
    for con in (a, b):  # a read-only connection left open keeps the next test from writing the file
        con.close()
    keys = ["index", *columns.split(", ")[1:]]
    assert mine == [tuple(x[k] for k in keys) for x in out["actions"]]


def test_analysing_again_replaces_the_games_rows(analysed: tuple[Path, Path], tmp_path: Path) -> None:
    db, pqdir = tmp_path / "g.duckdb", tmp_path / "pq"
    shutil.copy(analysed[0], db)
    shutil.copytree(analysed[1], pqdir)
    gid = game_id(GameLog.load(TWO_P))
    res = _run(gid, "--db", str(db), "--parquet", str(pqdir), "--store", "--simulations", "1", "--seed", "3")
    assert res.exit_code == 0, res.output
    for con in (open_corpus(db=db), open_corpus(parquet=pqdir)):
        counts = con.execute("SELECT game_id, count(*), min(seed), max(seed) FROM analysis GROUP BY ALL").fetchall()
        assert sorted(counts) == sorted([(gid, 78, 3, 3), (game_id(GameLog.load(OTHER_2P)), 78, 0, 0)])
    # the replaced file is gone from the dataset's folder, not only from its commit records
    files = sorted((pqdir / "analysis").rglob("*.parquet"))
    assert sum(pq.read_table(f).num_rows for f in files) == 2 * 78


def test_replacing_rows_in_a_shared_file_keeps_the_other_games(analysed: tuple[Path, Path], tmp_path: Path) -> None:
    """An export from DuckDB puts both games' analyses in one file: replacing one rewrites it without that game."""
    with Store(analysed[0]) as s:
        s.to_parquet(tmp_path / "export")
    export = tmp_path / "export"
    (shared,) = dataset_files(export)["analysis"]
    gid, other = game_id(GameLog.load(TWO_P)), game_id(GameLog.load(OTHER_2P))
    new = analysis_table(
        [{"game_id": gid, "action_index": 0, "seat": 1, "judged": False, "win_after": [0.5, 0.5], "simulations": 1,
          "seed": 99, "as_played": False}]
    )  # fmt: skip
    replace_in_dataset(export, new, {gid: ("birmingham", 2)})
    con = open_corpus(parquet=export)
    assert con.execute("SELECT game_id, count(*), max(seed) FROM analysis GROUP BY ALL ORDER BY ALL").fetchall() == (
        sorted([(gid, 1, 99), (other, 78, 0)])
    )
    assert not shared.exists()
    theirs = f"SELECT * EXCLUDE (analysed_at) FROM analysis WHERE game_id = '{other}' ORDER BY ALL"
    assert _rows(con, theirs) == _rows(open_corpus(db=analysed[0]), theirs)


def test_store_needs_the_game_in_the_store(analysed: tuple[Path, Path], tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    shutil.copy(analysed[0], db)
    res = _run(str(_slice(tmp_path, 2)), "--db", str(db), "--store", *TINY)
    assert res.exit_code == 2
    assert "is not stored in" in res.output and "ingest" in res.output


def test_stats_by_accuracy_covers_the_analysed_games(analysed: tuple[Path, Path]) -> None:
    db, pqdir = analysed
    args = ["stats", "--by", "accuracy", "--min-games", "1", "--format", "json"]
    res = CliRunner().invoke(main, [*args, "--db", str(db)])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert sum(r["player_games"] for r in rows) == 4  # two analysed games of two players; the third is left out
    assert sum(r["wins"] for r in rows) == 2
    # each player-game's band is the review's accuracy figure, banded
    con = open_corpus(db=db)
    acc = player_accuracy(con)
    expected: dict[str, int] = {}
    for gid, seat, value, band in acc.itertuples(index=False):
        losses = [
            r[0]
            for r in con.execute(
                "SELECT sure_loss FROM analysis WHERE game_id = ? AND seat = ? AND judged", [gid, seat]
            ).fetchall()
        ]
        # the review's own figure: VP of margin surely lost
        assert value == margin_game_accuracy(losses) and band == accuracy_band(value)
        expected[band] = expected.get(band, 0) + 1
    assert {r["accuracy"]: r["player_games"] for r in rows} == expected
    again = CliRunner().invoke(main, [*args, "--parquet", str(pqdir)])
    assert again.exit_code == 0 and again.stdout == res.stdout


def test_stats_by_accuracy_without_analysed_games_says_so(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    ingest([str(TWO_P)], db, workers=1, progress=False)
    res = CliRunner().invoke(main, ["stats", "--by", "accuracy", "--db", str(db)])
    assert res.exit_code == 0
    assert "no analysed games" in res.output


# -- winprob train --------------------------------------------------------------------------


def test_winprob_train_rebuilds_a_loadable_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(training, "EDITIONS", ("birmingham",))
    monkeypatch.setattr(training, "PLAYER_COUNTS", (2,))
    games = 3
    # a corpus seed whose 3 games are split both ways (a stable hash of the file names)
    seed = next(
        s
        for s in range(100)
        if 0 < sum(training.held_out(training.game_path(".", s, i, 2)) for i in range(games)) < games
    )
    out = tmp_path / "model.txt.gz"
    args = ["winprob", "train", "--corpus", str(tmp_path / "corpus"), "--seed", str(seed), "--workers", "1"]
    res = CliRunner().invoke(main, [*args, "--games", str(games), "--out", str(out), "--format", "json"])
    assert res.exit_code == 0, res.output
    scores = {r["group"]: r for r in json.loads(res.stdout)}
    assert scores["all"]["positions"] > 0 and 0 <= scores["all"]["ece"] <= 1
    assert scores["all"]["baseline_log_loss"] > 0
    assert scores["all"]["mae_vp"] > 0 and scores["era=canal"]["mae_vp"] is None  # the VP model's error beside
    assert f"wrote {out}" in res.stderr
    model = WinProbabilityModel.load(out)
    p = model.predict(replay(GameLog.load(TWO_P)).state_at(30))
    assert len(p) == 2 and abs(sum(p) - 1) < 1e-9
    # a corpus too small to split (one greedy game, no other kind): one line saying so
    monkeypatch.setattr(training, "RECIPES", training.RECIPES[:1])
    single = next(s for s in range(100) if training.held_out(training.game_path(".", s, 0, 2)))
    res = CliRunner().invoke(
        main, ["winprob", "train", "--corpus", str(tmp_path / "one"), "--seed", str(single), "--games", "1"]
    )
    assert res.exit_code == 2
    assert "no training game" in res.output and "make more games" in res.output


def test_a_departure_accepted_as_played_is_judged_not_refused() -> None:
    """The real 4-player game places a 15th and 16th link (action 118, index 117): accepted with --as-played,
    the review judges it (applying it as played) instead of failing on it."""
    from brass_stats.analysis.review import Reviewer
    from brass_stats.engine.policy import AS_PLAYED

    log = GameLog.load(SAMPLES / "real" / "gm7vza-4p.json")
    reviewer = Reviewer(log, AS_PLAYED, 2, 0, None)
    assert {d["action_index"] for d in reviewer.replay.deviations} == {117}
    a = reviewer.review(117)
    assert a.judged and a.played_value is not None and a.loss is not None and a.loss >= 0
    assert "builds 2 rail links Gloucester–Redditch and Redditch–Oxford" in a.action
