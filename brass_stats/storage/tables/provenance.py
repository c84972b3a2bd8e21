"""Provenance: where a log came from, who played it, when (columns of the ``games`` and ``players`` tables)."""

from __future__ import annotations

from datetime import UTC, datetime

from ...log.format import GameLog


def source_kind(log: GameLog) -> str:
    """``generated`` for a log written by self-play (its ``source`` names a ``generator``), else ``real``."""
    return "generated" if (log.source or {}).get("generator") else "real"


def player_kinds(log: GameLog) -> list[str]:
    """``bot`` or ``human`` per seat.

    ``source.bots`` names a bot (or null for a person) per seat; every seat of a generated log is a bot.
    """
    bots = (log.source or {}).get("bots")
    generated = source_kind(log) == "generated"
    out = []
    for seat in range(len(log.players)):
        bot = bots[seat] if isinstance(bots, list) and seat < len(bots) else None
        out.append("bot" if generated or (isinstance(bot, str) and bot) else "human")
    return out


def played_at(log: GameLog) -> datetime | None:
    """``source.played_at`` (ISO 8601 date or date-time; UTC when it names no zone), or None."""
    text = (log.source or {}).get("played_at")
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def source_game_id(log: GameLog) -> str | None:
    """The source's own id for the game: ``source.game_id``, else ``source.room`` (a server room code)."""
    src = log.source or {}
    for key in ("game_id", "room"):
        if src.get(key) is not None:
            return str(src[key])
    return None
