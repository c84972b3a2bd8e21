"""A game's tables: :func:`game_tables` (one game), :func:`batch_tables` (several), :func:`game_parts`
(one game's columns and rows before Arrow, as an import's batch gathers them).

The games, players and deviations tables (a few rows per game) are built here; the tables with a row
per action come from :mod:`.per_action`, and :mod:`.assemble` converts everything to Arrow.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

import pyarrow as pa

from ...engine.scoring import standings
from ...log.format import FORMAT_VERSION
from ...replay import Replay
from .action_json import SORTED_JSON
from .assemble import GameParts, assemble_tables
from .ids import game_id
from .per_action import per_action_tables
from .provenance import played_at, player_kinds, source_game_id, source_kind
from .schemas import SCHEMAS


def game_tables(replay: Replay, source_file: str | None, gid: str | None = None) -> dict[str, pa.Table]:
    """Every table for one finished replay (``keep_states=True``), keyed by table name (see :data:`SCHEMAS`).

    ``gid``: the log's :func:`game_id` when the caller has computed it already (ingest does, to skip
    stored games); computed here otherwise. Several games at once: :func:`batch_tables`.
    """
    return assemble_tables([game_parts(replay, source_file, gid)])


def batch_tables(games: Iterable[tuple[Replay, str | None, str | None]]) -> dict[str, pa.Table]:
    """The tables of several finished replays, ``(replay, source_file, game id or None)`` each, in that order:
    the tables :func:`game_tables` gives for each game, concatenated, converted to Arrow once per column
    rather than once per game (what an import's batch does).

    >>> from brass_stats.bots import RandomBot, play_game
    >>> from brass_stats.replay import replay
    >>> games = [(replay(play_game([RandomBot()] * 2, seed=s)), None, None) for s in (3, 4)]
    >>> both = batch_tables(games)
    >>> both["games"].num_rows, both["actions"].num_rows == sum(len(r.steps) for r, _, _ in games)
    (2, True)
    """
    return assemble_tables([game_parts(r, f, g) for r, f, g in games])


def game_parts(replay: Replay, source_file: str | None, gid: str | None = None) -> GameParts:
    """One game's tables, not yet converted to Arrow (see :func:`assemble_tables`)."""
    _check(replay)
    if gid is None:
        gid = game_id(replay.log)
    # the big tables are built as columns, in one pass over the steps
    parts, broken = per_action_tables(replay, gid)
    deviations = _deviations(replay, gid) if broken else []  # (Replay.deviations reads every effect)
    rows = {
        "games": _games(replay, gid, source_file, len(deviations)),
        "players": _players(replay, gid),
        "deviations": deviations,
    }
    for name, dicts in rows.items():
        parts[name] = ("rows", list(map(itemgetter(*SCHEMAS[name].names), dicts)))
    return parts


def _check(replay: Replay) -> None:
    if replay.error is not None:
        raise ValueError(f"the replay stopped at an illegal action: {replay.error}")
    if not replay.finished:
        raise ValueError("the replay did not reach the end of the game")
    if replay.steps and replay.steps[-1].state is None:
        raise ValueError("game_tables needs a replay that keeps states (keep_states=True)")


def _json(v: Any) -> str:
    """``json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))``, by the encoder made once."""
    return SORTED_JSON(v)


def replayed_result(replay: Replay) -> dict[str, Any]:
    """The result as replayed, in the shape of a log's declared ``result``."""
    out: dict[str, Any] = {
        "final": [
            {"seat": s.seat, "vp": s.vp, "income_level": s.income_level, "money": s.money, "rank": s.rank}
            for s in replay.standings()
        ]
    }
    st = replay.checkpoints.get("rail_era_start")
    if st is not None:
        out["rail_era_start"] = {
            "vp": [p.vp for p in st.players],
            "money": [p.money for p in st.players],
            "income_level": [st.income_level(p.seat) for p in st.players],
        }
    return out


def _games(replay: Replay, gid: str, source_file: str | None, n_deviations: int) -> list[dict[str, Any]]:
    log = replay.log
    st = replay.standings()
    winners = " & ".join(s.name for s in st if s.rank == 1)
    differences = replay.check_result()
    return [
        {
            "game_id": gid,
            "edition": log.edition,
            "player_count": len(log.players),
            "source_file": source_file,
            "source_kind": source_kind(log),
            "played_at": played_at(log),
            "format_version": FORMAT_VERSION,
            "seed": str(log.seed) if log.seed is not None else "explicit",
            "declared_result": _json(log.result) if log.result is not None else None,
            "replayed_result": _json(replayed_result(replay)),
            "winner": winners,
            "n_actions": len(replay.steps),
            "n_rounds": replay.state.round,
            "imported_at": datetime.now(UTC),
            "source_game_id": source_game_id(log),
            "declared_result_matches": None if not log.result else not differences,
            "result_differences": _json(differences) if differences else None,
            "n_deviations": n_deviations,
        }
    ]


def _deviations(replay: Replay, gid: str) -> list[dict[str, Any]]:
    """Each rule the game broke as played (replays under the as-played policy), in action order."""
    return [
        {
            "game_id": gid,
            "action_index": d["action_index"],
            "seat": replay.steps[d["action_index"]].action.player,
            "rule": d["rule"],
            "message": d["message"],
        }
        for d in replay.deviations
    ]


def _players(replay: Replay, gid: str) -> list[dict[str, Any]]:
    order = replay.initial.turn_order
    canal = replay.checkpoints.get("rail_era_start")
    final = replay.state
    kinds = player_kinds(replay.log)
    return [
        {
            "game_id": gid,
            "seat": s.seat,
            "name": s.name,
            "player_kind": kinds[s.seat],
            "final_vp": s.vp,
            "final_income_level": s.income_level,
            "final_money": s.money,
            "rank": s.rank,
            "start_turn_position": order.index(s.seat),
            "canal_era_vp": canal.players[s.seat].vp if canal is not None else None,
            "loans": final.players[s.seat].loans,
        }
        for s in standings(final)
    ]
