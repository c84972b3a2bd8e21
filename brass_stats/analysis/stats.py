"""Strategy statistics across many games: win rates by seat, turn order, openings, strategies, ...

Wins are shared on ties (two players tied for first each get half a win).
Each bucket reports the win rate with a 95% Wilson score interval and the
win rate expected by chance (1 / players, averaged over the bucket), so a
bucket is only interesting where its interval excludes the expectation.

>>> round(wilson(7, 10)[0], 3), round(wilson(7, 10)[1], 3)
(0.397, 0.892)
"""

from __future__ import annotations

import math

import duckdb
import pandas as pd

from ..rules_data import ALL_INDUSTRIES

DIMENSIONS = ("edition", "seat", "turn_position", "player_count", "loans", "opening", "strategy", "industry")

# VP sources grouped into strategies (a player's strategy is their largest group).
STRATEGY_GROUPS = {
    "cotton": ["tile_vp_cotton_mill"],
    "manufacturing": ["tile_vp_manufacturer"],
    "pottery": ["tile_vp_pottery"],
    "supply": ["tile_vp_coal_mine", "tile_vp_iron_works", "tile_vp_brewery"],
    "shipping": ["tile_vp_port", "tile_vp_shipyard"],
    "links": ["link_vp"],
}


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional wins allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


_PLAYER_GAMES = """
WITH ranked AS (
  SELECT p.*, g.player_count, g.edition,
         count(*) FILTER (WHERE p.rank = 1) OVER (PARTITION BY p.game_id) AS winners,
         avg(p.final_vp) OVER (PARTITION BY p.game_id) AS mean_vp
  FROM players p JOIN games g USING (game_id)
)
SELECT game_id, edition, seat, name, player_count, final_vp, rank, start_turn_position, loans,
       CASE WHEN rank = 1 THEN 1.0 / winners ELSE 0.0 END AS win,
       final_vp - (mean_vp * player_count - final_vp) / (player_count - 1) AS margin
FROM ranked
"""


def player_games(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """One row per player per game, with the player's share of the win and VP margin over the opponents."""
    return con.execute(_PLAYER_GAMES).df()


def _strategy(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    cols = sorted({c for cs in STRATEGY_GROUPS.values() for c in cs})
    df = con.execute(
        f"SELECT game_id, seat, {', '.join(f'sum({c}) AS {c}' for c in cols)} FROM era_scores GROUP BY ALL"
    ).df()
    for name, group in STRATEGY_GROUPS.items():
        df[name] = df[group].sum(axis=1)
    names = list(STRATEGY_GROUPS)
    total = df[names].sum(axis=1)
    df["bucket"] = df[names].idxmax(axis=1).where(total > 0, "none")
    return df[["game_id", "seat", "bucket"]]


def _opening(con: duckdb.DuckDBPyConnection, actions: int = 3) -> pd.DataFrame:
    return con.execute(
        """
        WITH firsts AS (
          SELECT game_id, seat, action_index,
                 action_type || CASE WHEN action_type = 'build' THEN ':' || industry ELSE '' END AS what,
                 row_number() OVER (PARTITION BY game_id, seat ORDER BY action_index) AS k
          FROM actions WHERE action_type <> 'shortfall'
        )
        SELECT game_id, seat, string_agg(what, ' > ' ORDER BY action_index) AS bucket
        FROM firsts WHERE k <= ? GROUP BY game_id, seat
        """,
        [actions],
    ).df()


def _industry(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    return con.execute(
        "SELECT DISTINCT game_id, seat, industry AS bucket FROM actions "
        "WHERE action_type = 'build' AND industry IS NOT NULL"
    ).df()


def stats_by(con: duckdb.DuckDBPyConnection, dimension: str, min_games: int = 30) -> pd.DataFrame:
    """Win statistics per bucket of ``dimension`` (one of :data:`DIMENSIONS`)."""
    if dimension not in DIMENSIONS:
        raise ValueError(f"unknown dimension {dimension!r}; choose from {', '.join(DIMENSIONS)}")
    pg = player_games(con)
    if pg.empty:
        return pd.DataFrame(
            columns=[
                "bucket",
                "games",
                "wins",
                "win_rate",
                "ci_low",
                "ci_high",
                "expected_win_rate",
                "mean_vp",
                "mean_margin",
                "low_sample",
            ]
        )
    if dimension == "edition":
        pg["bucket"] = pg["edition"]
    elif dimension == "seat":
        pg["bucket"] = pg["seat"].astype(str)
    elif dimension == "turn_position":
        pg["bucket"] = (pg["start_turn_position"] + 1).astype(str)
    elif dimension == "player_count":
        pg["bucket"] = pg["player_count"].astype(str) + "p"
    elif dimension == "loans":
        pg["bucket"] = pg["loans"].clip(upper=4).astype(int).astype(str).replace("4", "4+")
    else:
        extra = {"opening": _opening, "strategy": _strategy, "industry": _industry}[dimension](con)
        pg = pg.merge(extra, on=["game_id", "seat"], how="inner")
    rows = []
    for bucket, g in pg.groupby("bucket", sort=True):
        n = len(g)
        wins = float(g["win"].sum())
        lo, hi = wilson(wins, n)
        rows.append(
            {
                "bucket": bucket,
                "games": n,
                "wins": round(wins, 2),
                "win_rate": round(wins / n, 4),
                "ci_low": round(lo, 4),
                "ci_high": round(hi, 4),
                "expected_win_rate": round(float((1 / g["player_count"]).mean()), 4),
                "mean_vp": round(float(g["final_vp"].mean()), 2),
                "mean_margin": round(float(g["margin"].mean()), 2),
                "low_sample": n < min_games,
            }
        )
    out = pd.DataFrame(rows)
    return out.sort_values(["games", "bucket"], ascending=[False, True]).reset_index(drop=True)


def corpus_summary(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """Games, players and scores per player count."""
    return con.execute(
        """
        SELECT g.player_count, count(DISTINCT g.game_id) AS games, count(*) AS player_games,
               round(avg(p.final_vp), 1) AS mean_vp,
               round(avg(p.final_vp) FILTER (WHERE p.rank = 1), 1) AS mean_winning_vp,
               max(p.final_vp) AS best_vp
        FROM games g JOIN players p USING (game_id)
        GROUP BY g.player_count ORDER BY g.player_count
        """
    ).df()


__all__ = ["DIMENSIONS", "ALL_INDUSTRIES", "corpus_summary", "player_games", "stats_by", "wilson"]
