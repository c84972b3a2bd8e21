"""Per-round curves across many games, and one game set against them.

A curve is a per-round metric (income, money, VP, potential VP) read at the end of each round
(the state after the round's last action: income paid, era scored), summarised over the
player-games of a bucket by its mean and interquartile band. :func:`compare_game` places each
player of one game within the band of the corpus's games with the same edition and player count.
Definitions: ``docs/statistics.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import duckdb
import numpy as np
import pandas as pd

from .filters import CorpusFilter, player_games_sql
from .win_rates import DIMENSIONS, OUTCOME_DIMENSIONS, player_games_by

METRICS: dict[str, str] = {
    "income": "income_level",
    "money": "money",
    "vp": "vp",
    "potential_vp": "vp + potential_link_vp + potential_tile_vp",
}
"""Metric name -> the ``turn_snapshots`` expression read at the end of each round."""

METRIC_LABELS = {
    "income": "income level (£ per round)",
    "money": "money (£)",
    "vp": "VP",
    "potential_vp": "VP if the era ended now",
}

CURVE_DIMENSIONS = (*OUTCOME_DIMENSIONS, *DIMENSIONS)
BAND_COLUMNS = ["player_games", "mean", "q25", "median", "q75"]


def _metric_sql(metric: str) -> str:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
    return METRICS[metric]


def round_values(
    con: duckdb.DuckDBPyConnection,
    metric: str,
    filters: CorpusFilter | None = None,
    exclude_game: str | None = None,
    only_game: str | None = None,
) -> pd.DataFrame:
    """The player-games passing ``filters`` (columns of ``player_games_sql``) with ``round``, ``era`` and ``value``."""
    expr = _metric_sql(metric)
    sql, params = player_games_sql(filters or CorpusFilter(), con)
    extra = ""
    if exclude_game is not None:
        extra = "WHERE game_id <> ?"
        params = [*params, exclude_game]
    elif only_game is not None:
        extra = "WHERE game_id = ?"
        params = [*params, only_game]
    return con.execute(
        f"""
        WITH pg AS (SELECT * FROM ({sql}) {extra}),
        last AS (
          SELECT game_id, round, max(action_index) AS action_index FROM turn_snapshots
          WHERE game_id IN (SELECT game_id FROM pg) GROUP BY game_id, round
        )
        SELECT pg.*, s.round, s.era, ({expr}) AS value
        FROM turn_snapshots s JOIN last USING (game_id, round, action_index) JOIN pg USING (game_id, seat)
        ORDER BY pg.game_id, pg.seat, s.round
        """,
        params,
    ).df()


def band(values: pd.DataFrame, keys: Sequence[str], min_games: int = 1) -> pd.DataFrame:
    """Mean and quartiles of ``value`` per ``keys``; groups with fewer than ``min_games`` player-games are dropped."""
    cols = [*keys, *BAND_COLUMNS]
    if values.empty:
        return pd.DataFrame(columns=cols)
    g = values.groupby(list(keys), sort=True)["value"]
    out = pd.DataFrame(
        {
            "player_games": g.size(),
            "mean": g.mean(),
            "q25": g.quantile(0.25),
            "median": g.median(),
            "q75": g.quantile(0.75),
        }
    ).reset_index()
    out = out[out["player_games"] >= min_games].reset_index(drop=True)
    for c in ("mean", "q25", "median", "q75"):
        out[c] = out[c].astype(float).round(1) + 0.0  # + 0.0: never -0
    return out[cols]


def curves(
    con: duckdb.DuckDBPyConnection,
    metric: str,
    by: Sequence[str] = ("final_rank",),
    filters: CorpusFilter | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Mean and interquartile band of ``metric`` per round, one curve per bucket of ``by``.

    >>> # income by round for winners vs the rest in 3-player games:
    >>> # curves(con, "income", ["result"], CorpusFilter(players=(3,)))
    """
    by = list(by)
    for d in by:
        if d not in CURVE_DIMENSIONS:
            raise ValueError(f"unknown dimension {d!r}; choose from {', '.join(CURVE_DIMENSIONS)}")
    if "industry" in by:
        raise ValueError("curves cannot be split by industry (a player-game would count once per industry)")
    return _curve_bands(con, metric, by, filters or CorpusFilter(), min_games)


def _curve_bands(
    con: duckdb.DuckDBPyConnection, metric: str, by: list[str], filters: CorpusFilter, min_games: int
) -> pd.DataFrame:
    """:func:`band` of :func:`round_values` with ``add_dimensions``, for corpora of 100,000s of games.

    The dimensions are computed once per player-game (not once per round), and the rounds' values are
    summarised in DuckDB (``quantile_cont`` is pandas' linear quantile; the metrics are integers, so
    means and quartiles come out the same to the last bit); a test compares it with the plain way.
    """
    expr = _metric_sql(metric)
    pg = player_games_by(con, by, filters)
    keys = [f"_b{i}" for i in range(len(by))]  # a dimension may be named like a column (seat, round)
    buckets = pd.DataFrame(
        {"game_id": pg["game_id"], "seat": pg["seat"], **{k: pg[d] for k, d in zip(keys, by, strict=True)}}
    )
    name = "_curve_buckets"
    con.register(name, buckets)
    try:
        out = con.execute(
            f"""
            WITH last AS (  -- every action has a snapshot of every seat: seat 0's are a third to a quarter
              SELECT game_id, max(action_index) AS action_index FROM turn_snapshots
              WHERE seat = 0 AND game_id IN (SELECT game_id FROM {name}) GROUP BY game_id, round
            ),
            ends AS MATERIALIZED (  -- the round ends' rows first: a join of 5 million rows, not of 30
              SELECT s.game_id, s.seat, s.round, {expr} AS value
              FROM turn_snapshots s SEMI JOIN last USING (game_id, action_index)
            )
            SELECT {"".join(f"b.{k}, " for k in keys)}e.round, count(*) AS player_games,
                   avg(value) AS mean, quantile_cont(value, [0.25, 0.5, 0.75]) AS q
            FROM ends e JOIN {name} b USING (game_id, seat)
            {"WHERE " + " AND ".join(f"b.{k} IS NOT NULL" for k in keys) if keys else ""}
            GROUP BY ALL
            """
        ).df()
    finally:
        con.unregister(name)
    out = out.rename(columns=dict(zip(keys, by, strict=True)))
    for i, c in enumerate(("q25", "median", "q75")):
        out[c] = out["q"].map(lambda q, i=i: q[i] if q is not None else None)
    cols = [*by, "round", *BAND_COLUMNS]
    out = out[out["player_games"] >= min_games].sort_values([*by, "round"]).reset_index(drop=True)
    out["player_games"] = out["player_games"].astype("int64")
    for c in ("mean", "q25", "median", "q75"):
        out[c] = out[c].astype(float).round(1) + 0.0  # + 0.0: never -0
    return out[cols] if not out.empty else pd.DataFrame(columns=cols)


def percentile_of(value: float, sample: np.ndarray) -> float:
    """Percentile rank of ``value`` in ``sample`` (0-100; equal values count half).

    >>> percentile_of(3, np.array([1, 2, 3, 4]))
    62.5
    """
    if len(sample) == 0:
        return math.nan
    below = float((sample < value).sum())
    equal = float((sample == value).sum())
    return 100.0 * (below + 0.5 * equal) / len(sample)


def compare_game(
    game_con: duckdb.DuckDBPyConnection,
    game_id: str,
    corpus: duckdb.DuckDBPyConnection,
    metric: str,
    filters: CorpusFilter | None = None,
) -> pd.DataFrame:
    """Each player's ``metric`` per round in one game against the corpus games of its edition and player count.

    Columns: ``seat, name, final_rank, round, value``, the winners' band (``winners_q25``,
    ``winners_median``, ``winners_q75``), ``pct_of_winners`` and ``pct_of_all`` (the value's
    percentile among the corpus winners' / all players' values at that round), ``corpus_games``.
    The game itself is left out of the corpus.
    """
    info = game_con.execute("SELECT edition, player_count FROM games WHERE game_id = ?", [game_id]).fetchone()
    if info is None:
        raise ValueError(f"no game {game_id}")
    edition, count = info
    own = round_values(game_con, metric, only_game=game_id)
    f = filters or CorpusFilter()
    f = CorpusFilter(editions=(edition,), players=(int(count),), source=f.source, since=f.since, until=f.until)
    ref = round_values(corpus, metric, f, exclude_game=game_id)
    rows = []
    for r in own.itertuples(index=False):
        at = ref[ref["round"] == r.round]
        winners = at.loc[at["rank"] == 1, "value"].to_numpy()
        everyone = at["value"].to_numpy()
        q = np.quantile(winners, [0.25, 0.5, 0.75]) if len(winners) else [math.nan] * 3
        rows.append(
            {
                "seat": r.seat,
                "name": r.name,
                "final_rank": r.rank,
                "round": r.round,
                "value": r.value,
                "winners_q25": round(float(q[0]), 1) + 0.0,
                "winners_median": round(float(q[1]), 1) + 0.0,
                "winners_q75": round(float(q[2]), 1) + 0.0,
                "pct_of_winners": round(percentile_of(r.value, winners), 1),
                "pct_of_all": round(percentile_of(r.value, everyone), 1),
                "corpus_games": at["game_id"].nunique(),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(edition=edition, player_count=int(count), corpus_games=int(ref["game_id"].nunique()))
    return out


def describe_percentile(pct: float) -> str:
    """``bottom 10%`` / ``top 25%``-style words for a percentile rank.

    >>> describe_percentile(8.0), describe_percentile(50.0), describe_percentile(97.5)
    ('bottom 10%', 'top 50%', 'top 10%')
    """
    if pct < 50:
        return f"bottom {max(10, math.ceil(pct / 10) * 10)}%"
    return f"top {max(10, math.ceil((100 - pct) / 10) * 10)}%"


def comparison_sentences(cmp: pd.DataFrame, metric: str, round_no: int) -> list[str]:
    """One sentence per player about round ``round_no``, e.g. "Ann's income after round 4 was 3: bottom 10% ..."."""
    label = {"income": "income level", "money": "money", "vp": "VP", "potential_vp": "potential VP"}[metric]
    out = []
    for r in cmp[cmp["round"] == round_no].itertuples(index=False):
        if math.isnan(r.pct_of_winners):
            out.append(f"{r.name}'s {label} after round {round_no} was {r.value}: no corpus winner reached that round")
            continue
        out.append(
            f"{r.name}'s {label} after round {round_no} was {r.value}: in the {describe_percentile(r.pct_of_winners)}"
            f" of winners (winners' median {r.winners_median:g}, middle half {r.winners_q25:g} to {r.winners_q75:g};"
            f" percentile {r.pct_of_winners:g} of winners, {r.pct_of_all:g} of all players)"
        )
    return out


__all__ = [
    "CURVE_DIMENSIONS",
    "METRICS",
    "band",
    "compare_game",
    "comparison_sentences",
    "curves",
    "describe_percentile",
    "percentile_of",
    "round_values",
]
