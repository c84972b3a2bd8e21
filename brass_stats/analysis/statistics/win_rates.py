"""Strategy statistics across many games: win rates by seat, turn order, openings, strategies, ...

Every statistic is over *player-games* (one player in one game) that pass a
:class:`~brass_stats.analysis.statistics.filters.CorpusFilter`. Wins are shared on ties (two players
tied for first each get half a win). Each bucket reports the win rate with a 95% Wilson score
interval and the win rate expected by chance (the mean of 1 / players over the bucket), so a
bucket is only interesting where its interval excludes the expectation. The definitions are in
``docs/statistics.md``.

>>> round(wilson(7, 10)[0], 3), round(wilson(7, 10)[1], 3)
(0.397, 0.892)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import duckdb
import pandas as pd

from ...rules_data import ALL_INDUSTRIES
from .accuracy import player_accuracy
from .filters import CorpusFilter, player_games_sql
from .strategy import strategies

DIMENSIONS = (
    "edition",
    "player_count",
    "seat",
    "turn_position",
    "player_kind",
    "source_kind",
    "loans",
    "strategy",
    "era_focus",
    "opening",
    "industry",
)
"""The ``--by`` dimensions of ``stats`` (each described in ``docs/statistics.md``)."""

ANALYSIS_DIMENSIONS = ("accuracy",)
"""``--by`` dimensions of ``stats`` that only analysed games have (``brass-stats analyse GAME --store``):
``accuracy``, the player's accuracy in the game in bands (:mod:`.accuracy`). Player-games of games not
analysed are left out."""

OUTCOME_DIMENSIONS = ("final_rank", "result")
"""Extra dimensions for curves: the player's final rank, and ``winner`` / ``rest``."""

# dimensions whose buckets are listed by size, not in their natural order
_CATEGORICAL = {"strategy", "opening", "industry", "edition", "player_kind", "source_kind", "era_focus"}

STATS_COLUMNS = [
    "player_games",
    "games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_win_rate",
    "mean_vp",
    "mean_margin",
]
RATE_COLUMNS = ("win_rate", "ci_low", "ci_high", "expected_win_rate")


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional wins allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def player_games(con: duckdb.DuckDBPyConnection, filters: CorpusFilter | None = None) -> pd.DataFrame:
    """One row per player per game passing ``filters``, with the player's share of the win and VP margin."""
    sql, params = player_games_sql(filters or CorpusFilter(), con)
    return con.execute(sql + " ORDER BY game_id, seat", params).df()


# each action in an opening: its type, and the industry for build, develop (sorted) and sell (sorted, once each)
_OPENING_WORD = """action_type || CASE
     WHEN action_type = 'build' THEN ' ' || industry
     WHEN action_type = 'develop' THEN ' ' || array_to_string(list_sort(string_split(industry, '+')), '+')
     WHEN action_type = 'sell' THEN ' ' || array_to_string(list_sort(list_distinct(string_split(industry, '+'))), '+')
     ELSE '' END"""


def opening_sequences_sql(actions: int = 3, builds_only: bool = False) -> str:
    """SQL for ``game_id, seat, opening`` (in no order), without parameters: see :func:`opening_sequences`.

    Built for corpora of 100,000s of games. Each player's first ``actions`` actions are taken by a
    top-N aggregate (``min_by``), not by numbering every action with a window (a sort of the whole
    table), and, for openings of actions, only from the first ``actions`` rounds: a player acts at
    least once a round, so these hold their opening. The games with a player who has fewer there (a
    game that ended early, an edition or a deviation where a player skipped a round) are taken from all
    their actions, so the result is always the plain definition's (a test compares them).
    """
    n = int(actions)
    if builds_only:
        word, keep = "industry", "action_type = 'build'"
    else:
        word, keep = _OPENING_WORD, "action_type <> 'shortfall'"
    # a struct, because min_by leaves out NULL arguments (a build without an industry still takes a place)
    firsts = f"min_by({{'w': {word}}}, action_index, {n}) AS firsts"
    if builds_only:  # builds come at any round: look at them all
        source = f"SELECT game_id, seat, {firsts} FROM actions WHERE {keep} GROUP BY game_id, seat"
    else:
        source = f"""
        WITH early AS (
          SELECT game_id, seat, {firsts} FROM actions WHERE {keep} AND round <= {n} GROUP BY game_id, seat
        ),
        short AS (  -- games with a player who has fewer than {n} of them in the first {n} rounds
          SELECT DISTINCT p.game_id FROM players p LEFT JOIN early e USING (game_id, seat)
          WHERE coalesce(len(e.firsts), 0) < {n}
        )
        SELECT * FROM early WHERE game_id NOT IN (SELECT game_id FROM short)
        UNION ALL
        SELECT game_id, seat, {firsts} FROM actions
        WHERE {keep} AND game_id IN (SELECT game_id FROM short) GROUP BY game_id, seat"""
    # like string_agg: NULL words are skipped, and an opening of NULL words only is NULL
    return f"""
        SELECT game_id, seat, array_to_string(list_transform(firsts, lambda x: x.w), ' > ') AS opening
        FROM ({source})"""


def opening_sequences(con: duckdb.DuckDBPyConnection, actions: int = 3, builds_only: bool = False) -> pd.DataFrame:
    """``game_id, seat, opening``: each player's first ``actions`` actions as a normalised sequence.

    An action is its type, with the industry for ``build`` (``build coal_mine``), ``develop``
    (the industries developed, sorted) and ``sell`` (the industries sold, sorted, each once);
    card ids and locations are left out. With ``builds_only`` the sequence is the first
    ``actions`` industries built (the build order). Shortfall actions never count.
    """
    return con.execute(f"{opening_sequences_sql(actions, builds_only)} ORDER BY game_id, seat").df()


_INDUSTRIES_BUILT = (
    "SELECT DISTINCT game_id, seat, industry FROM actions WHERE action_type = 'build' AND industry IS NOT NULL"
)


def _industries_built(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    return con.execute(_INDUSTRIES_BUILT).df()


def add_dimensions(
    con: duckdb.DuckDBPyConnection, pg: pd.DataFrame, by: Sequence[str], opening_actions: int = 3
) -> pd.DataFrame:
    """``pg`` with one column per dimension in ``by`` (named after it).

    ``industry`` repeats a player-game once per industry the player built; every other dimension
    gives each player-game exactly one bucket (player-games without an opening are dropped).
    """
    pg = pg.copy()
    for dim in by:
        if dim in ("edition", "player_count", "seat", "player_kind", "source_kind"):
            continue
        if dim == "turn_position":
            pg["turn_position"] = pg["start_turn_position"] + 1
        elif dim == "loans":
            pg["loans"] = pg["loans"].clip(upper=4).astype(int).astype(str).replace("4", "4+")
        elif dim == "final_rank":
            pg["final_rank"] = pg["rank"]
        elif dim == "result":
            pg["result"] = pg["rank"].map(lambda r: "winner" if r == 1 else "rest")
        elif dim in ("strategy", "era_focus"):
            if dim not in pg.columns:
                pg = pg.merge(strategies(con)[["game_id", "seat", "strategy", "era_focus"]], on=["game_id", "seat"])
        elif dim in pg.columns and dim in _JOINED_IN_SQL:
            continue  # joined by the query already (see stats_by)
        elif dim == "opening":
            pg = pg.merge(opening_sequences(con, opening_actions), on=["game_id", "seat"])
        elif dim == "accuracy":
            bands = player_accuracy(con)[["game_id", "seat", "accuracy_band"]].rename(
                columns={"accuracy_band": "accuracy"}
            )
            pg = pg.drop(columns=["accuracy"], errors="ignore").merge(bands, on=["game_id", "seat"])
        elif dim == "industry":
            pg = pg.drop(columns=["industry"], errors="ignore").merge(_industries_built(con), on=["game_id", "seat"])
        else:
            known = ", ".join((*DIMENSIONS, *ANALYSIS_DIMENSIONS, *OUTCOME_DIMENSIONS))
            raise ValueError(f"unknown dimension {dim!r}; choose from {known}")
    return pg


def as_percentages(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` for tables: the rate columns as text percentages (``0.4321`` -> ``43.2%``).

    >>> as_percentages(pd.DataFrame({"win_rate": [0.4321, 1.0]}))["win_rate"].tolist()
    ['43.2%', '100.0%']
    """
    out = df.copy()
    for c in RATE_COLUMNS:
        if c in out.columns:
            out[c] = out[c].map(lambda v: f"{100 * v:.1f}%")
    return out


def _clean(x: float, digits: int) -> float:
    """Rounded, and never ``-0``."""
    return round(x, digits) + 0.0


def win_table(pg: pd.DataFrame, by: Sequence[str], min_games: int = 1) -> pd.DataFrame:
    """Win statistics per bucket of the columns ``by`` of ``pg`` (player-games with ``win`` and ``margin``).

    Buckets with fewer than ``min_games`` player-games are left out; how many is in
    ``result.attrs["hidden_buckets"]`` (and the player-games in them in ``attrs["hidden_player_games"]``).
    """
    rows = []
    hidden = hidden_pg = 0
    if not pg.empty:
        # one vectorised pass per statistic, not a Python loop per bucket: a corpus of 100,000s of
        # games has thousands of openings (or cross-table buckets)
        per = pg.assign(_expected=1 / pg["player_count"]).groupby(list(by), sort=False)
        agg = per.agg(
            n=("win", "size"),
            games=("game_id", "nunique"),
            wins=("win", "sum"),
            expected=("_expected", "mean"),
            vp=("final_vp", "mean"),
            margin=("margin", "mean"),
        )
        for key, n, games, wins, expected, vp, margin in zip(
            agg.index, agg["n"], agg["games"], agg["wins"], agg["expected"], agg["vp"], agg["margin"], strict=True
        ):
            n = int(n)
            if n < min_games:
                hidden += 1
                hidden_pg += n
                continue
            wins = float(wins)
            lo, hi = wilson(wins, n)
            keys = key if isinstance(key, tuple) else (key,)
            rows.append(
                {
                    **dict(zip(by, keys, strict=True)),
                    "player_games": n,
                    "games": int(games),
                    "wins": _clean(wins, 2),
                    "win_rate": _clean(wins / n, 4),
                    "ci_low": _clean(lo, 4),
                    "ci_high": _clean(hi, 4),
                    "expected_win_rate": _clean(float(expected), 4),
                    "mean_vp": _clean(float(vp), 1),
                    "mean_margin": _clean(float(margin), 1),
                }
            )
    out = pd.DataFrame(rows, columns=[*by, *STATS_COLUMNS])
    if not out.empty:
        if any(d in _CATEGORICAL for d in by):
            out = out.sort_values(["player_games", *by], ascending=[False, *([True] * len(by))], key=_natural)
        else:
            out = out.sort_values(list(by), key=_natural)
    out = out.reset_index(drop=True)
    out.attrs["hidden_buckets"] = hidden
    out.attrs["hidden_player_games"] = hidden_pg
    return out


def _natural(s: pd.Series) -> pd.Series:
    """Sort key: numbers as numbers (``4+`` after ``3``), text as text."""
    if pd.api.types.is_numeric_dtype(s):
        return s
    return s.map(lambda v: (0, int(m.group()), str(v)) if (m := re.match(r"\d+", str(v))) else (1, 0, str(v)))


def stats_by(
    con: duckdb.DuckDBPyConnection,
    by: str | Sequence[str],
    filters: CorpusFilter | None = None,
    min_games: int = 1,
    opening_actions: int = 3,
) -> pd.DataFrame:
    """Win statistics per bucket of one or more dimensions (see :data:`DIMENSIONS` and
    :data:`ANALYSIS_DIMENSIONS`), one column per dimension."""
    dims = [by] if isinstance(by, str) else list(by)
    for d in dims:
        if d not in DIMENSIONS and d not in ANALYSIS_DIMENSIONS:
            known = ", ".join((*DIMENSIONS, *ANALYSIS_DIMENSIONS))
            raise ValueError(f"unknown dimension {d!r}; choose from {known}")
    if len(set(dims)) != len(dims):
        raise ValueError("each --by dimension may be given once")
    return win_table(player_games_by(con, dims, filters or CorpusFilter(), opening_actions), dims, min_games)


# the columns of player_games_sql that win_table needs, and those each dimension is made from
_WIN_COLUMNS = ("game_id", "seat", "player_count", "win", "final_vp", "margin")
_DIMENSION_COLUMNS = {
    "edition": ("edition",),
    "player_kind": ("player_kind",),
    "source_kind": ("source_kind",),
    "turn_position": ("start_turn_position",),
    "loans": ("loans",),
    "final_rank": ("rank",),
    "result": ("rank",),
}
# dimensions that come from another table, joined in DuckDB (a join of 100,000s of rows is cheaper there)
_JOINED_IN_SQL = ("opening", "industry")


def player_games_by(
    con: duckdb.DuckDBPyConnection, dims: Sequence[str], filters: CorpusFilter, opening_actions: int = 3
) -> pd.DataFrame:
    """The player-games of ``filters`` with a column per dimension, as :func:`add_dimensions` on
    :func:`player_games` gives them (same rows, same order), reading only the columns the statistics need."""
    sql, params = player_games_sql(filters, con)
    cols = list(dict.fromkeys(c for d in dims for c in (*_WIN_COLUMNS, *_DIMENSION_COLUMNS.get(d, ()))))
    select = ", ".join(f"pg.{c}" for c in cols or _WIN_COLUMNS)
    joins, order = "", "pg.game_id, pg.seat"
    if "opening" in dims:
        select += ", o.opening"
        joins += f" JOIN ({opening_sequences_sql(opening_actions)}) o USING (game_id, seat)"
    if "industry" in dims:
        select += ", i.industry"
        joins += f" JOIN ({_INDUSTRIES_BUILT}) i USING (game_id, seat)"
        order += ", i.industry"
    pg = con.execute(f"SELECT {select} FROM ({sql}) pg{joins} ORDER BY {order}", params).df()
    return add_dimensions(con, pg, dims, opening_actions)


def openings(
    con: duckdb.DuckDBPyConnection,
    actions: int = 3,
    filters: CorpusFilter | None = None,
    min_games: int = 1,
    top: int | None = None,
    builds_only: bool = False,
) -> pd.DataFrame:
    """Win statistics per opening (the first ``actions`` actions, or builds), most played first."""
    pg = player_games(con, filters).merge(opening_sequences(con, actions, builds_only), on=["game_id", "seat"])
    out = win_table(pg, ["opening"], min_games)
    if top is not None and len(out) > top:
        attrs = dict(out.attrs)
        out = out.head(top).copy()
        out.attrs.update(attrs)
    return out


def corpus_summary(con: duckdb.DuckDBPyConnection, filters: CorpusFilter | None = None) -> pd.DataFrame:
    """Games, player-games and scores per edition and player count."""
    sql, params = player_games_sql(filters or CorpusFilter(), con)
    return con.execute(
        f"""
        SELECT edition, player_count, count(DISTINCT game_id) AS games, count(*) AS player_games,
               round(avg(final_vp), 1) AS mean_vp,
               round(avg(final_vp) FILTER (WHERE rank = 1), 1) AS mean_winning_vp,
               max(final_vp) AS best_vp
        FROM ({sql}) GROUP BY edition, player_count ORDER BY edition, player_count
        """,
        params,
    ).df()


__all__ = [
    "ALL_INDUSTRIES",
    "ANALYSIS_DIMENSIONS",
    "DIMENSIONS",
    "OUTCOME_DIMENSIONS",
    "add_dimensions",
    "as_percentages",
    "corpus_summary",
    "openings",
    "opening_sequences",
    "player_games",
    "player_games_by",
    "stats_by",
    "wilson",
    "win_table",
]
