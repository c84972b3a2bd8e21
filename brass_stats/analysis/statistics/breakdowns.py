"""Per-game analysis over the stored tables: income curves, VP breakdowns, progression, key moments.

Every function takes a DuckDB connection holding the storage tables and a game
id, and returns a pandas DataFrame, so the same code serves a database of
thousands of games and a single log replayed in memory (:func:`open_game`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from ...engine.policy import AS_PLAYED
from ...log.format import GameLog
from ...replay import Replay
from ...rules_data import ALL_INDUSTRIES, load_rules
from ...storage import Store, game_tables
from ...storage.corpus import CorpusError, open_corpus
from ...storage.lookup import GameNotFound, resolve_game


@dataclass
class GameSource:
    """A connection with the storage tables, and the id of the game to look at."""

    con: duckdb.DuckDBPyConnection
    game_id: str
    replay: Replay | None = None  # kept when the game came from a log file


def open_game(
    game: str, db: str | Path | duckdb.DuckDBPyConnection | None = None, parquet: str | Path | None = None
) -> GameSource:
    """A log file (replayed in memory), or a game in a store of games, named as
    :func:`~brass_stats.storage.lookup.resolve_game` reads it (game id or prefix, source game id, file name).

    The store is the DuckDB file ``db``, the Parquet dataset folder ``parquet``, or an open connection
    (``db``) such as :func:`~brass_stats.storage.corpus.open_corpus` returns. A log file is replayed as
    played (:data:`~brass_stats.engine.policy.AS_PLAYED`): analysis shows what happened;
    ``brass-stats validate`` is the strict check.
    """
    path = Path(game)
    if path.exists() or (db is None and parquet is None and path.suffix == ".json"):
        log = GameLog.load(path)
        r = Replay(log, policy=AS_PLAYED).run()
        if r.error is not None:
            raise GameNotFound(f"{game}: cannot analyse a game with an illegal action: {r.error}")
        if not r.finished:
            raise GameNotFound(f"{game}: the game is not finished")
        store = Store(":memory:")
        store.write_game(game_tables(r, str(path)))
        gid = store.con.execute("SELECT game_id FROM games").fetchone()[0]  # type: ignore[index]
        return GameSource(store.con, gid, r)
    if db is None and parquet is None:
        raise GameNotFound(f"{game!r} is not a log file; give --db or --parquet to look it up as a stored game")
    if isinstance(db, duckdb.DuckDBPyConnection):
        con, where = db, "the store"
    else:
        try:
            con = open_corpus(db, parquet)
        except CorpusError as e:
            raise GameNotFound(str(e)) from None
        where = str(db if db is not None else parquet)
    return GameSource(con, resolve_game(con, game, where))


def _df(src: GameSource, sql: str) -> pd.DataFrame:
    return src.con.execute(sql, {"g": src.game_id}).df()


def players(src: GameSource) -> pd.DataFrame:
    return _df(src, "SELECT * FROM players WHERE game_id = $g ORDER BY seat")


def game_row(src: GameSource) -> dict[str, object]:
    df = _df(src, "SELECT * FROM games WHERE game_id = $g")
    if df.empty:
        raise GameNotFound(f"no game {src.game_id}")
    return dict(df.iloc[0])


_END_OF_ROUND = """
WITH last AS (
  SELECT round, max(action_index) AS action_index FROM turn_snapshots WHERE game_id = $g GROUP BY round
)
SELECT s.round, s.era, s.era_round, s.seat, p.name, s.income_level, s.income_space, s.money, s.vp,
       s.potential_link_vp, s.potential_tile_vp, s.loans, s.spent_this_round, s.order_position
FROM turn_snapshots s
JOIN last USING (round, action_index)
JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat
WHERE s.game_id = $g
ORDER BY s.round, s.seat
"""


def round_summary(src: GameSource) -> pd.DataFrame:
    """One row per round and player, as the round ended (after income)."""
    return _df(src, _END_OF_ROUND)


def income_by_round(src: GameSource) -> pd.DataFrame:
    """Income level per player at the end of each round (wide: one column per player)."""
    df = round_summary(src)
    seats = df.drop_duplicates("seat").sort_values("seat")
    names = [str(n) for n in seats["name"]]
    if len(set(names)) < len(names):  # two players of the same name: the seat tells them apart
        names = [f"{n} (seat {s})" for n, s in zip(names, seats["seat"], strict=True)]
    column = dict(zip(seats["seat"], names, strict=True))
    # pivot, not pivot_table: no averaging, so levels stay integers; columns in seat order
    wide = df.assign(column=df["seat"].map(column)).pivot(
        index=["round", "era", "era_round"], columns="column", values="income_level"
    )[names]
    wide.columns.name = None
    return wide.reset_index()


def vp_breakdown(src: GameSource) -> pd.DataFrame:
    """VP by source per player and era: links, flipped tiles by industry, merchant bonuses, shortfall losses."""
    tile_cols = ", ".join(f"e.tile_vp_{ind}" for ind in ALL_INDUSTRIES)
    return _df(
        src,
        f"""
        SELECT p.seat, p.name, e.era, e.link_vp, {tile_cols}, e.tile_vp, e.merchant_bonus_vp,
               e.shortfall_vp_lost, e.cash_vp, e.introductory_vp, e.vp_gained_in_era, e.vp_at_era_end
        FROM era_scores e JOIN players p ON p.game_id = e.game_id AND p.seat = e.seat
        WHERE e.game_id = $g
        ORDER BY p.seat, CASE e.era WHEN 'canal' THEN 0 ELSE 1 END
        """,
    )


def vp_by_source(src: GameSource) -> pd.DataFrame:
    """One row per player, one column per VP source (canal links, rail links, tiles by industry, ...)."""
    df = vp_breakdown(src)
    rows = []
    for seat, g in df.groupby("seat", sort=True):
        by_era = {r["era"]: r for _, r in g.iterrows()}
        row: dict[str, object] = {"seat": seat, "name": g["name"].iloc[0]}
        row["canal_links"] = int(by_era["canal"]["link_vp"]) if "canal" in by_era else 0
        row["rail_links"] = int(by_era["rail"]["link_vp"]) if "rail" in by_era else 0
        for ind in ALL_INDUSTRIES:
            row[ind] = int(g[f"tile_vp_{ind}"].sum())
        row["merchant_bonus"] = int(g["merchant_bonus_vp"].sum())
        row["cash"] = int(g["cash_vp"].sum())
        row["introductory"] = int(g["introductory_vp"].sum())
        row["shortfall_lost"] = -int(g["shortfall_vp_lost"].sum())
        row["total"] = sum(int(v) for k, v in row.items() if k not in ("seat", "name"))  # type: ignore[call-overload]
        rows.append(row)
    return pd.DataFrame(rows)


def game_edition(src: GameSource) -> str:
    """The game's edition (``birmingham`` when the store does not say)."""
    row = src.con.execute("SELECT edition FROM games WHERE game_id = ?", [src.game_id]).fetchone()
    return str(row[0]) if row else "birmingham"


def vp_sources(by_source: pd.DataFrame, edition: str) -> list[str]:
    """The VP sources of ``vp_by_source`` that apply to the edition (no Birmingham ports, no cash VP...)."""
    rules = load_rules(edition)
    lacking = [i for i in ALL_INDUSTRIES if i not in rules.industries]
    if not rules.cash_vp_per:
        lacking.append("cash")
    if "introductory" in by_source and not by_source["introductory"].any():
        lacking.append("introductory")
    return [c for c in by_source.columns if c not in ("seat", "name", *lacking)]


def vp_sources_by_player(by_source: pd.DataFrame, sources: list[str]) -> pd.DataFrame:
    """Sources as rows, players as columns."""
    names = [str(n) for n in by_source["name"]]
    if len(set(names)) < len(names):  # two players of the same name: the seat tells them apart
        names = [f"{n} (seat {s})" for n, s in zip(names, by_source["seat"], strict=True)]
    table = pd.DataFrame({"source": sources})
    for col, (_, row) in zip(names, by_source.iterrows(), strict=True):
        table[col] = [int(row[s]) for s in sources]
    return table


def tile_vp_by_level(src: GameSource) -> pd.DataFrame:
    """Flipped-tile VP per player, industry and level, from the scoring effects."""
    return _df(
        src,
        """
        SELECT e.seat, p.name, json_extract_string(e.detail, '$.industry') AS industry,
               CAST(json_extract(e.detail, '$.level') AS INTEGER) AS level,
               count(*) AS tiles, sum(e.amount) AS vp
        FROM effects e JOIN players p ON p.game_id = e.game_id AND p.seat = e.seat
        WHERE e.game_id = $g AND e.kind = 'vp' AND e.cause LIKE '%_era_scoring'
              AND json_extract_string(e.detail, '$.source') = 'tile'
        GROUP BY ALL ORDER BY e.seat, industry, level
        """,
    )


def vp_progression(src: GameSource) -> pd.DataFrame:
    """After each player's turn: VP scored so far and what the player would score if the era ended now."""
    return _df(
        src,
        """
        SELECT s.action_index, s.round, s.era, s.seat, p.name, s.vp,
               s.potential_link_vp + s.potential_tile_vp AS era_end_vp,
               s.vp + s.potential_link_vp + s.potential_tile_vp AS vp_if_era_ended
        FROM turn_snapshots s JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE s.game_id = $g AND s.end_of_turn
        ORDER BY s.action_index, s.seat
        """,
    )


def money_and_order(src: GameSource) -> pd.DataFrame:
    """Per round: money after income, money spent, loans so far and the turn order that spending produced."""
    df = round_summary(src)
    df = df.sort_values(["seat", "round"]).copy()
    df["next_order_position"] = df.groupby("seat")["order_position"].shift(-1)
    return df[
        [
            "round",
            "era",
            "era_round",
            "seat",
            "name",
            "money",
            "spent_this_round",
            "loans",
            "order_position",
            "next_order_position",
        ]
    ]


def _describe(row: pd.Series) -> str:
    """A short description of an action from its ``actions`` row ("build cotton mill 2 at stoke")."""
    words = [str(row["action_type"])]
    if isinstance(row.get("industry"), str) and row["industry"]:
        words.append(row["industry"].replace("_", " ").replace("+", ", "))
    level = row.get("level")
    if level is not None and not pd.isna(level):
        words.append(str(int(level)))
    locations = row.get("locations")
    if locations is not None and len(locations):
        words.append(("at " if row["action_type"] == "build" else "") + ", ".join(str(x) for x in locations))
    return " ".join(words)


def action_swings(src: GameSource) -> pd.DataFrame:
    """For every action and every player whose score it changed: who acted, who was affected, by how much.

    The score is VP scored so far plus VP if the era ended now. Era-end scoring is not a swing: for the
    action that ends the Canal Era the score after it is taken as the VP after the era's scoring, without
    what the tiles left on the board would score again at the end of the Rail Era (see
    :func:`era_end_scoring` for the scoring itself).
    """
    snaps = _df(
        src,
        """
        SELECT s.action_index, s.round, s.era, s.actor, s.seat, p.name, s.vp,
               s.vp + s.potential_link_vp + s.potential_tile_vp AS score
        FROM turn_snapshots s JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE s.game_id = $g ORDER BY s.action_index, s.seat
        """,
    )
    actions = _df(
        src,
        """
        SELECT a.action_index, a.action_type, a.industry, a.level, a.locations, p.name AS actor_name
        FROM actions a JOIN players p ON p.game_id = a.game_id AND p.seat = a.seat
        WHERE a.game_id = $g ORDER BY a.action_index
        """,
    )
    cols = ["action_index", "round", "era", "actor", "action", "affected", "swing", "score_after"]
    if snaps.empty:
        return pd.DataFrame(columns=cols)
    eras = snaps.groupby("action_index")["era"].first()
    next_era = eras.shift(-1)
    ends_canal = set(eras.index[(eras == "canal") & (next_era == "rail")])
    snaps = snaps.sort_values(["seat", "action_index"])
    before = snaps.groupby("seat")["score"].shift(1)
    # the first action's "before" is the score at the start: 0 VP and nothing on the board
    before = before.fillna(0)
    after = snaps["score"].where(~snaps["action_index"].isin(ends_canal), snaps["vp"])
    snaps["swing"] = after - before
    snaps["score_after"] = after
    moved = snaps[snaps["swing"] != 0].merge(actions, on="action_index", how="left")
    moved["action"] = moved.apply(_describe, axis=1)
    moved = moved.rename(columns={"name": "affected"})
    moved["actor"] = moved["actor_name"]
    return moved[cols].sort_values(["action_index", "affected"]).reset_index(drop=True)


def era_end_scoring(src: GameSource) -> pd.DataFrame:
    """VP each player scored at the end of each era (links and flipped tiles), and the action that ended it."""
    df = _df(
        src,
        """
        WITH last AS (SELECT era, max(action_index) AS action_index FROM actions WHERE game_id = $g GROUP BY era)
        SELECT e.era, p.name AS player, e.link_vp AS links, e.tile_vp AS tiles,
               e.link_vp + e.tile_vp AS scored, e.vp_at_era_end AS vp_after,
               l.action_index AS after_action, ap.name AS last_action_by
        FROM era_scores e
        JOIN players p ON p.game_id = e.game_id AND p.seat = e.seat
        JOIN last l ON l.era = e.era
        JOIN actions a ON a.game_id = e.game_id AND a.action_index = l.action_index
        JOIN players ap ON ap.game_id = a.game_id AND ap.seat = a.seat
        WHERE e.game_id = $g
        ORDER BY CASE e.era WHEN 'canal' THEN 0 ELSE 1 END, e.seat
        """,
    )
    return df


def key_moments(src: GameSource, top: int = 8) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(largest single-action swings, lead changes), measured on VP scored plus VP if the era ended now.

    Swings name who acted and who was affected; era-end scoring is left out of them
    (:func:`era_end_scoring` reports it).
    """
    swings = action_swings(src)
    if not swings.empty:
        swings = swings.loc[swings["swing"].abs().sort_values(ascending=False, kind="stable").index].head(top)
        swings = swings.reset_index(drop=True)
    snaps = _df(
        src,
        """
        SELECT s.action_index, s.round, s.era, s.seat, p.name,
               s.vp + s.potential_link_vp + s.potential_tile_vp AS score
        FROM turn_snapshots s JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE s.game_id = $g ORDER BY s.action_index, s.seat
        """,
    )
    lead_rows = []
    leader = None
    for idx, g in snaps.groupby("action_index", sort=True):
        best = g.sort_values(["score", "seat"], ascending=[False, True]).iloc[0]
        if (g["score"] == best["score"]).sum() > 1:
            continue  # a tie does not change the lead
        if best["name"] != leader:
            lead_rows.append(
                {
                    "action_index": idx,
                    "round": best["round"],
                    "era": best["era"],
                    "new_leader": best["name"],
                    "score": best["score"],
                    "previous": leader,
                }
            )
            leader = best["name"]
    return swings, pd.DataFrame(lead_rows)


def result_table(src: GameSource) -> pd.DataFrame:
    df = players(src)
    return df[["rank", "seat", "name", "final_vp", "final_income_level", "final_money", "loans"]].sort_values(
        ["rank", "seat"]
    )
