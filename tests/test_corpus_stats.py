"""Corpus statistics (stats, openings, curves, compare) on hand-built corpora whose answers are known."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from corpus_builder import Game, build
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from brass_stats.analysis.statistics.curves import compare_game, curves, describe_percentile, percentile_of
from brass_stats.analysis.statistics.filters import CorpusFilter
from brass_stats.analysis.statistics.strategy import classify_era, classify_strategy, strategies
from brass_stats.analysis.statistics.win_rates import opening_sequences, openings, stats_by, wilson
from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED


def _run(*args: str) -> str:
    res = CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    return res.output


def _json(*args: str) -> list[dict[str, object]]:
    """The JSON records a command prints on stdout (notes go to stderr)."""
    res = CliRunner().invoke(main, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def _con(path: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(path), read_only=True)


# -- a corpus where seat 0 always wins -------------------------------------------------------


@pytest.fixture(scope="module")
def seat0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """8 two-player games won by seat 0 by 10 VP, 4 three-player games won by seat 0 by 5 VP."""
    games = [Game(vp=[110, 100]) for _ in range(8)] + [Game(vp=[105, 100, 90]) for _ in range(4)]
    return build(tmp_path_factory.mktemp("seat0") / "c.duckdb", games)


def test_seat_zero_always_wins(seat0: Path) -> None:
    df = stats_by(_con(seat0), "seat").set_index("seat")
    assert df.loc[0, "win_rate"] == 1.0 and df.loc[0, "wins"] == 12 and df.loc[0, "player_games"] == 12
    assert df.loc[1, "win_rate"] == 0.0 and df.loc[2, "win_rate"] == 0.0
    # expected by chance: 8 games at 1/2 and 4 at 1/3
    assert df.loc[0, "expected_win_rate"] == pytest.approx(round((8 / 2 + 4 / 3) / 12, 4))
    assert df.loc[2, "expected_win_rate"] == pytest.approx(round(1 / 3, 4))
    # margin: own VP minus the best opponent's
    assert df.loc[0, "mean_margin"] == pytest.approx((8 * 10 + 4 * 5) / 12, abs=0.05)
    assert df.loc[1, "mean_margin"] == pytest.approx((8 * -10 + 4 * -5) / 12, abs=0.05)
    assert df.loc[2, "mean_margin"] == -15
    lo, hi = wilson(12, 12)
    assert df.loc[0, "ci_low"] == pytest.approx(round(lo, 4)) and df.loc[0, "ci_high"] == 1.0


def test_two_dimensions_and_player_counts(seat0: Path) -> None:
    df = stats_by(_con(seat0), ["player_count", "seat"])
    assert list(zip(df["player_count"], df["seat"], df["player_games"], strict=True)) == [
        (2, 0, 8),
        (2, 1, 8),
        (3, 0, 4),
        (3, 1, 4),
        (3, 2, 4),
    ]
    assert list(df["games"]) == [8, 8, 4, 4, 4]


def test_stats_command_shows_percentages_and_counts(seat0: Path, tmp_path: Path) -> None:
    out = _run("stats", "--db", str(seat0), "--by", "seat", "--min-games", "1", "--plot", str(tmp_path / "w.svg"))
    svg = (tmp_path / "w.svg").read_text()
    assert "expected win rate" in svg and "win rate (95% Wilson interval)" in svg
    assert "player_games" in out and "100.0%" in out and "0.0%" in out
    rows = _json("stats", "--db", str(seat0), "--by", "seat", "--min-games", "1")
    assert [r["win_rate"] for r in rows] == [1.0, 0.0, 0.0]


def test_min_games_hides_buckets(seat0: Path) -> None:
    out = _run("stats", "--db", str(seat0), "--by", "seat", "--min-games", "5")
    assert "1 bucket(s) with fewer than 5 player-games hidden (4 player-games)" in out
    rows = _json("stats", "--db", str(seat0), "--by", "seat", "--min-games", "5")
    assert [r["seat"] for r in rows] == [0, 1]


def test_players_filter(seat0: Path) -> None:
    rows = _json("stats", "--db", str(seat0), "--by", "seat", "--players", "3")
    assert [r["player_games"] for r in rows] == []  # 4 player-games per seat: below the default --min-games 10
    rows = _json("stats", "--db", str(seat0), "--by", "seat", "--players", "3", "--min-games", "1")
    assert [(r["seat"], r["player_games"]) for r in rows] == [(0, 4), (1, 4), (2, 4)]
    rows = _json("stats", "--db", str(seat0), "--by", "seat", "--players", "2,3", "--min-games", "1")
    assert [r["player_games"] for r in rows] == [12, 12, 4]


@pytest.mark.parametrize(
    "args",
    [
        ("stats", "--by", "seat"),
        ("stats", "--by", "strategy", "--by", "era_focus"),
        ("openings",),
        ("curves", "--metric", "income"),
    ],
)
@pytest.mark.parametrize(
    "filters",
    [("--edition", "lancashire"), ("--players", "4"), ("--source", "human"), ("--since", "2026-01-01")],
)
def test_filters_that_empty_the_result(seat0: Path, args: tuple[str, ...], filters: tuple[str, ...]) -> None:
    res = CliRunner().invoke(main, [*args, "--db", str(seat0), *filters])
    assert res.exit_code == 0, res.output
    assert res.exception is None
    assert "no " in res.output and "match the filters" in res.output
    assert res.output.count("\n") == 1


def test_bad_filter_values_are_one_line_errors(seat0: Path) -> None:
    for bad in (["--players", "5"], ["--players", "two"], ["--since", "yesterday"]):
        res = CliRunner().invoke(main, ["stats", "--db", str(seat0), "--by", "seat", *bad])
        assert res.exit_code == 2 and res.exception is None or isinstance(res.exception, SystemExit)
        assert "Invalid value" in res.output


# -- ties, sources and dates ----------------------------------------------------------------


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    jan, jun = datetime(2026, 1, 10, tzinfo=UTC), datetime(2026, 6, 10, tzinfo=UTC)
    games = [
        Game(vp=[100, 100, 90]),  # seats 0 and 1 tie for first
        Game(vp=[80, 120], source_kind="real", played_at=jan),  # people: seat 1 wins
        Game(vp=[130, 120], source_kind="real", kinds=["human", "bot"], played_at=jun),  # a person beats a bot
        Game(vp=[70, 75, 76, 60], edition="lancashire"),
    ]
    return build(tmp_path_factory.mktemp("mixed") / "c.duckdb", games)


def test_ties_share_the_win_and_margin_is_never_minus_zero(mixed: Path) -> None:
    df = stats_by(_con(mixed), "seat", CorpusFilter(players=(3,))).set_index("seat")
    assert df.loc[0, "wins"] == 0.5 and df.loc[1, "wins"] == 0.5 and df.loc[2, "wins"] == 0
    assert df.loc[0, "mean_margin"] == 0 and df.loc[1, "mean_margin"] == 0 and df.loc[2, "mean_margin"] == -10
    out = _run("stats", "--db", str(mixed), "--by", "seat", "--players", "3", "--min-games", "1")
    assert "-0 " not in out and "-0.0" not in out
    assert "50.0%" in out


def test_every_game_shares_out_one_win(mixed: Path) -> None:
    for dim in ("seat", "turn_position", "player_count", "edition", "player_kind", "source_kind", "loans"):
        df = stats_by(_con(mixed), dim)
        assert df["wins"].sum() == pytest.approx(4.0), dim
        assert df["player_games"].sum() == 11, dim


def test_source_filters(mixed: Path) -> None:
    con = _con(mixed)
    human = stats_by(con, "source_kind", CorpusFilter(source="human"))
    assert human.set_index("source_kind")["player_games"].to_dict() == {"real": 3}
    assert human["wins"].sum() == 2  # the seat-1 winner of game 1 and the person who beat the bot
    bot = stats_by(con, "player_count", CorpusFilter(source="bot")).set_index("player_count")
    assert bot["player_games"].to_dict() == {2: 1, 3: 3, 4: 4}
    assert bot.loc[2, "wins"] == 0 and bot.loc[2, "mean_margin"] == -10  # ties and margins see the whole game
    real = stats_by(con, "seat", CorpusFilter(source="real"))
    assert real["player_games"].sum() == 4
    generated = stats_by(con, "edition", CorpusFilter(source="generated")).set_index("edition")
    assert generated["games"].to_dict() == {"birmingham": 1, "lancashire": 1}


def test_date_filters_keep_only_dated_games(mixed: Path) -> None:
    con = _con(mixed)
    since = stats_by(con, "seat", CorpusFilter(since=datetime(2026, 3, 1, tzinfo=UTC)))
    assert since["games"].max() == 1 and since["mean_vp"].tolist() == [130, 120]
    until = stats_by(con, "seat", CorpusFilter(until=datetime(2026, 3, 1, tzinfo=UTC)))
    assert until["mean_vp"].tolist() == [80, 120]
    out = _run(
        "stats",
        "--db",
        str(mixed),
        "--by",
        "seat",
        "--since",
        "2026-01-10",
        "--until",
        "2026-06-10",
        "--min-games",
        "1",
        "--format",
        "csv",
    )
    first = out.splitlines()[1].split(",")
    assert first[0] == "0" and [float(v) for v in first[1:5]] == [1, 1, 0, 0]  # seat 0: one game, lost


def test_edition_filter(mixed: Path) -> None:
    df = stats_by(_con(mixed), "seat", CorpusFilter(editions=("lancashire",)))
    assert df["player_games"].tolist() == [1, 1, 1, 1] and df["win_rate"].tolist() == [0, 0, 1, 0]


# -- the Wilson interval -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 500), data=st.data())
def test_wilson_matches_scipy(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-6) and hi == pytest.approx(ci.high, abs=1e-6)


# -- strategies ----------------------------------------------------------------------------------


def test_strategy_classification_rules() -> None:
    assert classify_strategy(60, {"cotton": 40}) == "network"  # exactly 60% from links
    assert classify_strategy(59, {"cotton": 41}) == "cotton"
    assert classify_strategy(10, {"coal_iron": 34, "pottery": 33, "brewery": 33}) == "coal_iron"
    assert classify_strategy(10, {"coal_iron": 32, "pottery": 30, "brewery": 30, "cotton": 8}) == "mixed"  # < 1/3
    assert classify_strategy(10, {"cotton": 45, "manufacturer": 45}) == "mixed"  # a tie for the lead
    assert classify_strategy(0, {}) == "none"
    assert classify_era(40, 100) == "canal" and classify_era(39, 100) == "even"
    assert classify_era(30, 100) == "even" and classify_era(29, 100) == "rail" and classify_era(0, 0) == "none"


@pytest.fixture(scope="module")
def strategic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    games = [
        Game(
            vp=[100, 60],
            scores=[
                ({"link": 10, "cotton_mill": 20}, {"link": 20, "cotton_mill": 50}),  # cotton, canal 30/100: even
                ({"link": 20}, {"link": 30, "coal_mine": 4, "iron_works": 6}),  # network (50/60), canal 20/60: even
            ],
        ),
        Game(
            vp=[90, 95],
            scores=[
                ({"link": 5, "pottery": 5}, {"link": 20, "coal_mine": 30, "iron_works": 30}),  # coal_iron, rail
                # brewery 30 of 98 tile VP (< 1/3): mixed; canal 70 of 138: canal
                (
                    {"link": 30, "brewery": 20, "cotton_mill": 20},
                    {"link": 10, "brewery": 10, "manufacturer": 28, "pottery": 20},
                ),
            ],
        ),
    ]
    return build(tmp_path_factory.mktemp("strategy") / "c.duckdb", games)


def test_strategies_from_era_scores(strategic: Path) -> None:
    df = strategies(_con(strategic)).sort_values(["game_id", "seat"])
    assert df["strategy"].tolist() == ["cotton", "network", "coal_iron", "mixed"]
    assert df["era_focus"].tolist() == ["even", "even", "rail", "canal"]
    both = stats_by(_con(strategic), ["strategy", "era_focus"])
    assert set(zip(both["strategy"], both["era_focus"], both["win_rate"], strict=True)) == {
        ("cotton", "even", 1.0),
        ("network", "even", 0.0),
        ("coal_iron", "rail", 0.0),
        ("mixed", "canal", 1.0),
    }


# -- openings --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Path:
    a = [("build", "coal_mine"), ("network", None), ("develop", "iron_works+coal_mine"), ("build", "brewery")]
    b = [("loan", None), ("build", "cotton_mill"), ("sell", "cotton_mill+cotton_mill"), ("shortfall", None)]
    games = [Game(vp=[100, 90], actions=[a, b]) for _ in range(3)] + [Game(vp=[80, 90], actions=[a, b])]
    return build(tmp_path_factory.mktemp("openings") / "c.duckdb", games)


def test_opening_sequences_are_normalised(opened: Path) -> None:
    seq = opening_sequences(_con(opened), 3).query("game_id == 'g000'").set_index("seat")["opening"]
    assert seq[0] == "build coal_mine > network > develop coal_mine+iron_works"
    assert seq[1] == "loan > build cotton_mill > sell cotton_mill"
    builds = opening_sequences(_con(opened), 2, builds_only=True).query("game_id == 'g000'").set_index("seat")
    assert builds["opening"].tolist() == ["coal_mine > brewery", "cotton_mill"]


def test_openings_win_rates_and_top(opened: Path) -> None:
    df = openings(_con(opened), 2)
    assert df["opening"].tolist() == ["build coal_mine > network", "loan > build cotton_mill"]
    assert df["win_rate"].tolist() == [0.75, 0.25]
    assert len(openings(_con(opened), 2, top=1)) == 1
    out = _run("openings", "--db", str(opened), "--actions", "1", "--min-games", "5")
    assert "all 2 bucket(s) have fewer than 5 player-games" in out
    out = _run("openings", "--db", str(opened), "--actions", "1", "--min-games", "1", "--format", "csv")
    first = out.splitlines()[1].split(",")
    assert "card-" not in out and first[0] == "build coal_mine" and [float(v) for v in first[1:5]] == [4, 4, 3, 0.75]


# -- curves and compare ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def curved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # winners' income by round: 1..4 (+ game index); losers': 0 every round
    games = [Game(vp=[100, 90], income=[[1 + k, 2 + k, 3 + k, 4 + k], [0, 0, 0, 0]]) for k in range(4)]
    games.append(Game(vp=[50, 90, 70], income=[[0, 0, 0, 0], [9, 9, 9, 9], [5, 5, 5, 5]]))
    return build(tmp_path_factory.mktemp("curves") / "c.duckdb", games)


def test_curves_mean_and_band(curved: Path) -> None:
    df = curves(_con(curved), "income", ["result"], CorpusFilter(players=(2,)))
    winners = df[df["result"] == "winner"].set_index("round")
    # round 1 values 1, 2, 3, 4: mean 2.5, quartiles 1.75 and 3.25 (linear interpolation)
    assert winners.loc[1, ["player_games", "mean", "q25", "median", "q75"]].tolist() == [4, 2.5, 1.8, 2.5, 3.2]
    assert winners.loc[4, "mean"] == 5.5
    rest = df[df["result"] == "rest"]
    assert rest["mean"].tolist() == [0.0] * 4 and not (rest["mean"].astype(str) == "-0.0").any()
    by_rank = curves(_con(curved), "vp", ["final_rank"], CorpusFilter(players=(3,)))
    assert by_rank.groupby("final_rank")["mean"].first().to_dict() == {1: 109.0, 2: 105.0, 3: 100.0}
    pot = curves(_con(curved), "potential_vp", ["player_count"], CorpusFilter(players=(3,)))
    assert pot["mean"].tolist() == [round((109 + 105 + 100) / 3 + 3, 1)] * 4


def test_curves_min_games_and_plot(curved: Path, tmp_path: Path) -> None:
    out = _run(
        "curves",
        "--db",
        str(curved),
        "--metric",
        "income",
        "--by",
        "result",
        "--by",
        "player_count",
        "--min-games",
        "3",
        "--format",
        "csv",
        "--plot",
        str(tmp_path / "c.png"),
    )
    lines = out.splitlines()
    assert lines[0] == "result,player_count,round,player_games,mean,q25,median,q75"
    assert {line.split(",")[1] for line in lines[1:] if "," in line} == {"2"}  # 3-player buckets: 1 and 2 player-games
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_percentiles() -> None:
    import numpy as np

    assert percentile_of(1, np.array([1, 2, 3, 4])) == 12.5
    assert percentile_of(5, np.array([1, 2, 3, 4])) == 100.0
    assert describe_percentile(12.5) == "bottom 20%" and describe_percentile(100.0) == "top 10%"


def test_compare_against_winners_of_same_player_count(curved: Path, tmp_path: Path) -> None:
    con = _con(curved)
    cmp = compare_game(con, "g000", con, "income")
    assert cmp.attrs["corpus_games"] == 3  # the other 2-player games; the game itself is left out
    seat0 = cmp[cmp["seat"] == 0].set_index("round")
    # round 1: this winner has 1; the other winners 2, 3, 4 -> below all of them
    assert seat0.loc[1, "pct_of_winners"] == 0.0 and seat0.loc[1, "winners_median"] == 3.0
    # among all six players at round 1 (0, 0, 0, 2, 3, 4): 1 is above three
    assert seat0.loc[1, "pct_of_all"] == 50.0
    out = _run(
        "compare", "g000", "--db", str(curved), "--min-games", "1", "--round", "2", "--plot", str(tmp_path / "c.svg")
    )
    assert "P0's income level after round 2 was 2: in the bottom 10% of winners" in out
    assert "winners' median" in (tmp_path / "c.svg").read_text()  # the band is drawn and labelled
    too_few = _run("compare", "g000", "--db", str(curved))
    assert "only 3 other 2-player Birmingham games" in too_few


def test_compare_unknown_game_is_one_line(curved: Path) -> None:
    res = CliRunner().invoke(main, ["compare", "zzz", "--db", str(curved)])
    assert res.exit_code == 2 and "no game with id 'zzz'" in res.output
    assert res.output.count("\n") == 1


# -- provenance columns from the log's source -------------------------------------------------------


def test_source_kind_player_kinds_and_dates_from_the_log() -> None:
    from brass_stats.log.format import GameLog
    from brass_stats.storage.tables import played_at, player_kinds, source_kind

    real = GameLog.new(["Ann", "Bob", "AI"], seed=1, source={"bots": [None, None, "AI-1"], "played_at": "2026-09-14"})
    assert source_kind(real) == "real" and player_kinds(real) == ["human", "human", "bot"]
    assert played_at(real) == datetime(2026, 9, 14, tzinfo=UTC)
    generated = GameLog.new(["a", "b"], seed=1, source={"generator": "brass-stats selfplay", "bots": ["greedy"]})
    assert source_kind(generated) == "generated" and player_kinds(generated) == ["bot", "bot"]
    plain = GameLog.new(["a", "b"], seed=1)
    assert source_kind(plain) == "real" and player_kinds(plain) == ["human", "human"] and played_at(plain) is None
    zoned = GameLog.new(["a", "b"], seed=1, source={"played_at": "2026-09-14T20:30:00+02:00"})
    assert played_at(zoned) == datetime(2026, 9, 14, 18, 30, tzinfo=UTC)
    assert played_at(GameLog.new(["a", "b"], seed=1, source={"played_at": "last week"})) is None


def test_stored_games_carry_their_provenance(tmp_path: Path) -> None:
    from brass_stats.bots import RandomBot, play_game
    from brass_stats.replay import replay
    from brass_stats.storage.tables import game_tables

    log = play_game([RandomBot(), RandomBot()], seed=3)
    log.source = {"bots": ["random", None], "played_at": "2026-02-01T10:00:00"}
    t = game_tables(replay(log), None)
    assert t["players"].column("player_kind").to_pylist() == ["bot", "human"]
    assert t["games"].column("source_kind").to_pylist() == ["real"]
    assert t["games"].column("played_at").to_pylist()[0] == datetime(2026, 2, 1, 10, tzinfo=UTC)


def test_parquet_corpus_gives_the_same_statistics(seat0: Path, tmp_path: Path) -> None:
    from brass_stats.storage import Store

    with Store(seat0, read_only=True) as store:
        store.to_parquet(tmp_path / "pq")
    from_db = _json("stats", "--db", str(seat0), "--by", "player_count", "--by", "seat", "--min-games", "1")
    from_pq = _json(
        "stats", "--parquet", str(tmp_path / "pq"), "--by", "player_count", "--by", "seat", "--min-games", "1"
    )
    assert from_pq == from_db and len(from_db) == 5


def test_imported_server_games_mark_the_servers_bot_seats() -> None:
    from conftest import convert_golden

    from brass_stats.storage.tables import player_kinds

    four = convert_golden("gm7vza-4p")  # seats 2 and 3 are the server's AI players (isAI in the record)
    assert four.source is not None and four.source["bots"] == [None, None, four.players[2], four.players[3]]
    assert player_kinds(four) == ["human", "human", "bot", "bot"]
    two = convert_golden("wq9gs6-2p")  # two people: no bots field
    assert two.source is not None and "bots" not in two.source and player_kinds(two) == ["human", "human"]


# -- the distribution published in docs/statistics.md ------------------------------------------------


def _doc_table(heading: str) -> list[list[str]]:
    """The rows of the first Markdown table whose header starts with ``| heading |`` in docs/statistics.md."""
    lines = (Path(__file__).parents[1] / "docs" / "statistics.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def test_the_documented_strategy_distribution_is_the_sample_corpus(tmp_path: Path) -> None:
    from brass_stats.analysis.statistics.database import sample_games_dir
    from brass_stats.storage import ingest

    db = tmp_path / "sample.duckdb"
    # as played, like the demo: the real gm7vza-4p placed 16 links for one seat (D1)
    assert ingest([str(sample_games_dir())], db, workers=1, progress=False, policy=AS_PLAYED).exit_status == 0
    con = _con(db)
    by_edition = (
        strategies(con)
        .merge(con.execute("SELECT game_id, edition FROM games").df())
        .groupby(["strategy", "edition"])
        .size()
        .to_dict()
    )
    wins = stats_by(con, "strategy").set_index("strategy")
    for name, birmingham, lancashire, total, rate, expected in _doc_table("strategy"):
        assert by_edition.get((name, "birmingham"), 0) == int(birmingham), name
        assert by_edition.get((name, "lancashire"), 0) == int(lancashire), name
        row = wins.loc[name]
        assert row["player_games"] == int(total), name
        # as the stats table prints it: "48.3% (35.9-60.8%)"
        shown = f"{100 * row['win_rate']:.1f}% ({100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%)"
        assert shown == rate, name
        assert f"{100 * row['expected_win_rate']:.1f}%" == expected, name
    era = stats_by(con, "era_focus").set_index("era_focus")
    for name, total, rate, expected in _doc_table("era focus"):
        assert era.loc[name, "player_games"] == int(total) and rate.startswith(
            f"{100 * era.loc[name, 'win_rate']:.1f}%"
        )
        assert f"{100 * era.loc[name, 'expected_win_rate']:.1f}%" == expected
