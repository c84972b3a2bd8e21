"""Which games and players a corpus statistic covers: one filter object and one SQL builder.

Every corpus command (``stats``, ``curves``, ``compare``, ``openings``) takes the same options
(added by :func:`brass_stats.cli.common.corpus_filter_options`) and reads its player-games from
:func:`player_games_sql`, so a filter means the same thing everywhere (see ``docs/statistics.md``).

>>> sql, params = player_games_sql(CorpusFilter(players=(2, 3), source="human"))
>>> "g.player_count IN (?, ?)" in sql and sql.endswith("WHERE player_kind = ?"), params
(True, [2, 3, 'human'])
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

import duckdb

SOURCES = ("human", "bot", "real", "generated")
"""``--source`` values: ``human``/``bot`` keep the seats a person / a program played (a per-player filter);
``real``/``generated`` keep whole games recorded from play / written by self-play (a per-game filter)."""


@dataclass(frozen=True)
class CorpusFilter:
    """The games and player-games a statistic covers. Empty fields filter nothing."""

    editions: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    source: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    def describe(self) -> str:
        """The filter in words, for table titles and empty-result messages."""
        parts = []
        if self.editions:
            parts.append("edition " + "/".join(self.editions))
        if self.players:
            parts.append("/".join(map(str, self.players)) + " players")
        if self.source:
            parts.append(f"source {self.source}")
        if self.since:
            parts.append(f"played since {self.since:%Y-%m-%d}")
        if self.until:
            parts.append(f"played before {self.until:%Y-%m-%d}")
        return ", ".join(parts) if parts else "all games"


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    return {r[0] for r in con.execute(f'SELECT * FROM "{table}" LIMIT 0').description}


def player_games_sql(f: CorpusFilter, con: duckdb.DuckDBPyConnection | None = None) -> tuple[str, list[Any]]:
    """SQL for one row per player per game that passes ``f``, and its parameters.

    Columns: ``game_id, edition, player_count, source_kind, played_at, seat, name, player_kind,
    final_vp, final_income_level, final_money, rank, start_turn_position, loans, win, margin``.
    ``win`` is the player's share of the win (1 for a sole winner, 1/k for k players tied on rank 1,
    else 0); ``margin`` is the player's final VP minus the best final VP among the other players.
    Ties and margins are computed over the whole game, before any per-seat filter. Given ``con``,
    provenance columns missing from an older database read as NULL / ``human``.
    """
    have_games = _columns(con, "games") if con is not None else {"source_kind", "played_at"}
    have_players = _columns(con, "players") if con is not None else {"player_kind"}
    source_kind = "g.source_kind" if "source_kind" in have_games else "NULL::VARCHAR"
    played = "g.played_at" if "played_at" in have_games else "NULL::TIMESTAMPTZ"
    kind = "p.player_kind" if "player_kind" in have_players else "'human'"
    where: list[str] = []
    params: list[Any] = []
    if f.editions:
        where.append(f"g.edition IN ({', '.join('?' * len(f.editions))})")
        params += list(f.editions)
    if f.players:
        where.append(f"g.player_count IN ({', '.join('?' * len(f.players))})")
        params += list(f.players)
    if f.source in ("real", "generated"):
        where.append(f"{source_kind} = ?")
        params.append(f.source)
    if f.since is not None:
        where.append(f"{played} >= ?")
        params.append(f.since)
    if f.until is not None:
        where.append(f"{played} < ?")
        params.append(f.until)
    inner = f"""
  SELECT p.game_id, g.edition, g.player_count, {source_kind} AS source_kind, {played} AS played_at,
         p.seat, p.name, {kind} AS player_kind, p.final_vp, p.final_income_level, p.final_money, p.rank,
         p.start_turn_position, p.loans,
         CASE WHEN p.rank = 1
              THEN 1.0 / count(*) FILTER (WHERE p.rank = 1) OVER (PARTITION BY p.game_id)
              ELSE 0.0 END AS win,
         p.final_vp - max(p.final_vp) OVER (
             PARTITION BY p.game_id ORDER BY p.seat ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
             EXCLUDE CURRENT ROW) AS margin
  FROM players p JOIN games g USING (game_id)
  {"WHERE " + " AND ".join(where) if where else ""}"""
    sql = f"SELECT * FROM ({inner}\n) AS pg"
    if f.source in ("human", "bot"):
        # a per-seat filter sits outside, so ties and margins still see every seat of the game
        sql += " WHERE player_kind = ?"
        params.append(f.source)
    return sql, params


def parse_date(value: str) -> datetime:
    """A ``--since`` / ``--until`` value as a UTC time (raises ValueError); a bare date is the start of that day.

    >>> parse_date("2024-05-01").isoformat(), parse_date("2024-05-01T12:00+02:00").isoformat()
    ('2024-05-01T00:00:00+00:00', '2024-05-01T10:00:00+00:00')
    """
    when = datetime.fromisoformat(value)
    if len(value) <= 10:  # a bare date means the start of that day
        when = datetime.combine(date.fromisoformat(value), time())
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


__all__ = ["SOURCES", "CorpusFilter", "parse_date", "player_games_sql"]
