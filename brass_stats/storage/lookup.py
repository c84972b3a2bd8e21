"""Finding a stored game from what a user types: the one place every command resolves GAME.

GAME may be, in this order of precedence:

1. a game id (16 hex digits, see :func:`~brass_stats.storage.tables.game_id`);
2. the source's own game id (``games.source_game_id``, e.g. the BrassBirmingham room code
   ``GM7VZA``; case does not matter);
3. the source file name: the path stored at import, its file name, or the file name without ``.json``;
4. a prefix of a game id (matched literally: ``%`` and ``_`` are plain characters).

The first kind that matches decides; if it matches several games, the lookup fails and names them.

>>> import duckdb
>>> con = duckdb.connect()
>>> _ = con.execute("CREATE TABLE games (game_id VARCHAR, source_file VARCHAR, source_game_id VARCHAR)")
>>> _ = con.execute("INSERT INTO games VALUES ('0a1b2c3d4e5f6a7b', 'corpus/gm7vza-4p.json', 'GM7VZA')")
>>> [resolve_game(con, g) for g in ("0a1b", "gm7vza", "gm7vza-4p.json", "gm7vza-4p")]
['0a1b2c3d4e5f6a7b', '0a1b2c3d4e5f6a7b', '0a1b2c3d4e5f6a7b', '0a1b2c3d4e5f6a7b']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import BrassError

GAME_HELP = (
    "GAME is a log file, or a stored game (--db) named by its game id, a unique prefix of that id "
    "(matched literally), the source's own game id (e.g. a server room code such as GM7VZA) "
    "or the source file name (e.g. gm7vza-4p.json). See `brass-stats games` for the list."
)


class GameNotFound(BrassError):
    """The game named is neither a log file nor a game in the database (or it names several games)."""


def _columns(con: Any) -> set[str]:
    cur = con.execute("SELECT * FROM games LIMIT 0")
    return {d[0] for d in cur.description}


def _queries(columns: set[str]) -> list[tuple[str, str]]:
    """(what, SQL selecting matching game ids with one parameter) in order of precedence."""
    out = [("game id", "SELECT game_id FROM games WHERE game_id = $g")]
    if "source_game_id" in columns:
        out.append(("source game id", "SELECT game_id FROM games WHERE lower(source_game_id) = lower($g)"))
    if "source_file" in columns:
        out.append(
            (
                "source file",
                """SELECT game_id FROM games
                   WHERE source_file = $g
                      OR regexp_extract(source_file, '[^/\\\\]*$') = $g
                      OR regexp_extract(source_file, '[^/\\\\]*$') = $g || '.json'""",
            )
        )
    out.append(("game id prefix", "SELECT game_id FROM games WHERE starts_with(game_id, $g)"))
    return out


def find_games(con: Any, game: str) -> tuple[str, list[str]]:
    """(how GAME matched, the matching game ids) for the first kind of match that finds any; ([], "") if none."""
    if not game:
        return "", []
    for what, sql in _queries(_columns(con)):
        ids = sorted({r[0] for r in con.execute(sql, {"g": game}).fetchall()})
        if ids:
            return what, ids
    return "", []


def resolve_game(con: Any, game: str, where: str = "the database") -> str:
    """The one game id GAME names in the ``games`` table of ``con`` (raises :class:`GameNotFound`)."""
    what, ids = find_games(con, game)
    if not ids:
        raise GameNotFound(
            f"no game with id {game!r} in {where} (nor a game whose source game id or file name is {game!r})"
        )
    if len(ids) > 1:
        shown = ", ".join(ids[:5]) + (" ..." if len(ids) > 5 else "")
        raise GameNotFound(f"{game!r} matches {len(ids)} games by {what} in {where} ({shown}); give more of the id")
    return ids[0]


def stored_log_file(con: Any, game: str, store: str | Path) -> Path:
    """The log file the game GAME of the store ``store`` (open as ``con``) was imported from.

    The path as stored (relative to where the import ran), else relative to the store's folder; raises
    :class:`GameNotFound` when GAME names no single game or its log file is not there.
    """
    gid = resolve_game(con, game, str(store))
    row = con.execute("SELECT source_file FROM games WHERE game_id = ?", [gid]).fetchone()
    source = row[0] if row else None
    found = log_location(source, store)
    if found is None or "://" in found:
        raise GameNotFound(f"game {gid} in {store}: its log file {source!r} is not available to replay")
    return Path(found)


def log_location(source: str | None, store: str | Path) -> str | None:
    """Where the log a game was imported from (its ``games.source_file``) is now: the path as stored
    (relative to where the import ran), else relative to the store's folder; a URL as it is (read with
    fsspec, as the import read it); None when there is no such file."""
    if not source:
        return None
    if "://" in source:
        return source
    for candidate in (Path(source), Path(str(store)).parent / source):
        if candidate.exists():
            return str(candidate)
    return None


def list_games(con: Any) -> Any:
    """Every stored game, one row each: what ``brass-stats games`` prints (a pandas DataFrame).

    Columns: ``game_id``, ``source_file``, ``source_game_id`` (e.g. a server room code), ``edition``,
    ``players`` (names in seat order), ``winner``, ``declared_result_disagrees`` and ``deviations``
    (how many departures from the rulebook were accepted as played). Games that predate a column get
    NULL there.

    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE games (game_id VARCHAR, source_file VARCHAR, edition VARCHAR, winner VARCHAR)")
    >>> _ = con.execute("CREATE TABLE players (game_id VARCHAR, seat INTEGER, name VARCHAR)")
    >>> _ = con.execute("INSERT INTO games VALUES ('0a1b2c3d4e5f6a7b', 'g.json', 'birmingham', 'Bo')")
    >>> _ = con.execute("INSERT INTO players VALUES ('0a1b2c3d4e5f6a7b', 1, 'Bo'), ('0a1b2c3d4e5f6a7b', 0, 'Al')")
    >>> list_games(con)[["game_id", "players", "winner"]].values.tolist()
    [['0a1b2c3d4e5f6a7b', 'Al, Bo', 'Bo']]
    """
    cols = _columns(con)

    def col(name: str, expr: str | None = None) -> str:
        return f"{expr or 'g.' + name} AS {name}" if name in cols else f"NULL AS {name}"

    disagrees = "NOT g.declared_result_matches" if "declared_result_matches" in cols else None
    sql = f"""
        SELECT g.game_id, g.source_file, {col("source_game_id")}, g.edition,
               (SELECT string_agg(p.name, ', ' ORDER BY p.seat) FROM players p WHERE p.game_id = g.game_id)
                   AS players,
               g.winner,
               {f"{disagrees} AS declared_result_disagrees" if disagrees else "NULL AS declared_result_disagrees"},
               {
        col("n_deviations", "g.n_deviations").replace("AS n_deviations", "AS deviations")
        if "n_deviations" in cols
        else "NULL AS deviations"
    }
        FROM games g
        ORDER BY g.edition, g.source_file, g.game_id
    """
    return con.execute(sql).df()
