"""The corpus statistics built for 100,000s of games give the plain definitions' answers (issue 14).

``stats --by opening`` takes each player's first actions with a top-N aggregate over the first rounds
only, ``stats`` joins its dimensions in DuckDB and reads only the columns it needs, strategies are
labelled without a Python call per player-game, the win table is aggregated per column, not per
bucket, and ``curves`` summarise the rounds in DuckDB. Each is compared here with the straightforward
version, on the sample corpus and on a copy doctored to reach the slow paths (a game that ends early,
a player without an action in a round, a build without an industry).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brass_stats.analysis.statistics.curves import band, curves, round_values
from brass_stats.analysis.statistics.database import sample_games_dir
from brass_stats.analysis.statistics.filters import CorpusFilter
from brass_stats.analysis.statistics.strategy import (
    INDUSTRY_GROUPS,
    classify_era,
    classify_eras,
    classify_strategies,
    classify_strategy,
    vp_sources,
)
from brass_stats.analysis.statistics.win_rates import (
    DIMENSIONS,
    STATS_COLUMNS,
    _clean,
    _natural,
    add_dimensions,
    opening_sequences,
    player_games,
    stats_by,
    wilson,
)
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest

# the definition, as one plain query: number every action of every player, keep the first N
REFERENCE_OPENINGS = """
WITH firsts AS (
  SELECT game_id, seat, action_index, {word} AS what,
         row_number() OVER (PARTITION BY game_id, seat ORDER BY action_index) AS k
  FROM actions WHERE {keep}
)
SELECT game_id, seat, string_agg(what, ' > ' ORDER BY action_index) AS opening
FROM firsts WHERE k <= ? GROUP BY game_id, seat ORDER BY game_id, seat
"""
WORD = """action_type || CASE
  WHEN action_type = 'build' THEN ' ' || industry
  WHEN action_type = 'develop' THEN ' ' || array_to_string(list_sort(string_split(industry, '+')), '+')
  WHEN action_type = 'sell' THEN ' ' || array_to_string(list_sort(list_distinct(string_split(industry, '+'))), '+')
  ELSE '' END"""


def reference_openings(con: duckdb.DuckDBPyConnection, n: int, builds_only: bool = False) -> pd.DataFrame:
    word, keep = ("industry", "action_type = 'build'") if builds_only else (WORD, "action_type <> 'shortfall'")
    return con.execute(REFERENCE_OPENINGS.format(word=word, keep=keep), [n]).df()


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("sample") / "sample.duckdb"
    # as played, like the demo: the real gm7vza-4p placed 16 links for one seat (D1)
    assert ingest([str(sample_games_dir())], db, workers=1, progress=False, policy=AS_PLAYED).exit_status == 0
    return db


@pytest.fixture(scope="module")
def doctored(sample: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The sample corpus with three games changed to reach the slow paths of the opening query."""
    db = tmp_path_factory.mktemp("doctored") / "doctored.duckdb"
    shutil.copy(sample, db)
    con = duckdb.connect(str(db))
    ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id LIMIT 3").fetchall()]
    ended, skipped, blank = ids
    con.execute("DELETE FROM actions WHERE game_id = ? AND round > 1", [ended])  # a game that ended in round 1
    # seat 0 without an action in rounds 2 and 3 (a deviation, or a log with a gap)
    con.execute("DELETE FROM actions WHERE game_id = ? AND seat = 0 AND round IN (2, 3)", [skipped])
    con.execute(
        "UPDATE actions SET industry = NULL WHERE game_id = ? AND action_index = "
        "(SELECT min(action_index) FROM actions WHERE game_id = ? AND action_type = 'build')",
        [blank, blank],
    )
    con.close()
    return db, {"ended": ended, "skipped": skipped, "blank": blank}


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_opening_query_equals_the_plain_definition(sample: Path, doctored: tuple[Path, dict[str, str]], n: int) -> None:
    for db in (sample, doctored[0]):
        con = duckdb.connect(str(db), read_only=True)
        expected = reference_openings(con, n)
        assert len(expected) > 100
        pd.testing.assert_frame_equal(opening_sequences(con, n), expected)
        for builds in (1, n):
            pd.testing.assert_frame_equal(
                opening_sequences(con, builds, builds_only=True), reference_openings(con, builds, True)
            )


def test_the_doctored_games_reach_the_slow_paths(doctored: tuple[Path, dict[str, str]]) -> None:
    db, games = doctored
    con = duckdb.connect(str(db), read_only=True)
    seq = opening_sequences(con, 3).set_index(["game_id", "seat"])["opening"]
    # the player who skipped rounds 2 and 3 has one action in rounds 1-3: the others come from round 4 on
    early = con.execute(
        "SELECT count(*) FROM actions WHERE game_id = ? AND seat = 0 AND round <= 3 AND action_type <> 'shortfall'",
        [games["skipped"]],
    ).fetchone()
    assert early is not None and early[0] == 1
    assert seq[(games["skipped"], 0)].count(" > ") == 2
    # a game that ended in round 1: one action each
    assert all(o.count(" > ") == 0 for o in seq[games["ended"]])
    # a build without an industry (the game's first action) takes its place and is left out of the words,
    # as string_agg leaves out a NULL: two words for three actions
    first = con.execute("SELECT seat FROM actions WHERE game_id = ? AND action_index = 0", [games["blank"]]).fetchone()
    assert first is not None and seq[(games["blank"], first[0])].count(" > ") == 1


def test_vectorised_strategy_labels_are_the_rules_labels(sample: Path) -> None:
    df = vp_sources(duckdb.connect(str(sample), read_only=True))
    names = list(INDUSTRY_GROUPS)
    expected = [
        classify_strategy(float(r.links), {g: float(getattr(r, g)) for g in names})
        for r in df[["links", *names]].itertuples(index=False)
    ]
    assert len(set(expected)) >= 4
    assert list(classify_strategies(df["links"], df[names])) == expected
    canal = df["canal"].fillna(0)
    eras = [classify_era(float(c), float(t)) for c, t in zip(canal, df["total"], strict=True)]
    assert len(set(eras)) >= 3
    assert list(classify_eras(canal, df["total"])) == eras


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.lists(st.integers(0, 12), min_size=6, max_size=6), st.integers(-5, 40)),
        min_size=1,
        max_size=30,
    )
)
def test_vectorised_labels_on_ties_zeros_and_edges(rows: list[tuple[int, list[int], int]]) -> None:
    """Small integers make ties for the lead, exact thresholds and empty scores common."""
    names = list(INDUSTRY_GROUPS)
    links = pd.Series([float(r[0]) for r in rows])
    tiles = pd.DataFrame([[float(v) for v in r[1]] for r in rows], columns=names)
    expected = [classify_strategy(r[0], dict(zip(names, map(float, r[1]), strict=True))) for r in rows]
    assert list(classify_strategies(links, tiles)) == expected
    canal, total = pd.Series([float(r[2]) for r in rows]), links + tiles.sum(axis=1)
    assert list(classify_eras(canal, total)) == [classify_era(c, t) for c, t in zip(canal, total, strict=True)]


def reference_win_table(pg: pd.DataFrame, by: Sequence[str], min_games: int) -> pd.DataFrame:
    """The win table bucket by bucket, from the definitions in docs/statistics.md."""
    rows = []
    for key, g in pg.groupby(list(by), sort=False):
        n = len(g)
        if n < min_games:
            continue
        wins = float(g["win"].sum())
        lo, hi = wilson(wins, n)
        keys = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(by, keys, strict=True)),
                "player_games": n,
                "games": g["game_id"].nunique(),
                "wins": _clean(wins, 2),
                "win_rate": _clean(wins / n, 4),
                "ci_low": _clean(lo, 4),
                "ci_high": _clean(hi, 4),
                "expected_win_rate": _clean(float((1 / g["player_count"]).mean()), 4),
                "mean_vp": _clean(float(g["final_vp"].mean()), 1),
                "mean_margin": _clean(float(g["margin"].mean()), 1),
            }
        )
    out = pd.DataFrame(rows, columns=[*by, *STATS_COLUMNS])
    categorical = {"strategy", "opening", "industry", "edition", "player_kind", "source_kind", "era_focus"}
    if any(d in categorical for d in by):
        out = out.sort_values(["player_games", *by], ascending=[False, *([True] * len(by))], key=_natural)
    else:
        out = out.sort_values(list(by), key=_natural)
    return out.reset_index(drop=True)


@pytest.mark.parametrize(
    "by",
    [[d] for d in DIMENSIONS] + [["player_count", "turn_position"], ["opening", "seat"], ["industry", "edition"]],
    ids=lambda by: "+".join(by),
)
def test_stats_equal_the_bucket_by_bucket_reference(sample: Path, by: list[str]) -> None:
    con = duckdb.connect(str(sample), read_only=True)
    pg = add_dimensions(con, player_games(con), by)  # every column, merged in pandas
    for min_games in (1, 5):
        got = stats_by(con, by, min_games=min_games)
        expected = reference_win_table(pg, by, min_games)
        assert len(expected) >= 1
        pd.testing.assert_frame_equal(got, expected)


@pytest.mark.parametrize(
    "metric, by",
    [
        ("income", ["result"]),
        ("money", ["final_rank"]),
        ("vp", ["player_count", "seat"]),
        ("potential_vp", ["strategy"]),
        ("income", ["opening"]),
        ("income", ["loans", "turn_position"]),
    ],
    ids=lambda v: v if isinstance(v, str) else "+".join(v),
)
def test_curves_equal_the_plain_band_of_every_round(sample: Path, metric: str, by: list[str]) -> None:
    """Curves summarise the rounds in DuckDB, with the dimensions computed once per player-game: the same
    table as the bands of every player-game's round values with its dimensions, in pandas."""
    con = duckdb.connect(str(sample), read_only=True)
    values = add_dimensions(con, round_values(con, metric), by)
    for min_games in (1, 8):
        expected = band(values, [*by, "round"], min_games)
        got = curves(con, metric, by, min_games=min_games)
        assert len(expected) > 10
        pd.testing.assert_frame_equal(got, expected, check_dtype=False)
        assert got.to_csv(index=False) == expected.to_csv(index=False)
    filtered = curves(con, metric, by, CorpusFilter(players=(3,), source="bot"))
    plain = add_dimensions(con, round_values(con, metric, CorpusFilter(players=(3,), source="bot")), by)
    pd.testing.assert_frame_equal(filtered, band(plain, [*by, "round"], 1), check_dtype=False)
