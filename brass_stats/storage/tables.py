"""A replayed game as a set of Arrow tables (the rows the storage layer writes).

Every table carries ``game_id``, a stable id derived from the log's content (see :func:`game_id`).
The columns are documented in ``docs/storage-schema.md``; the schemas below are the single source
of truth for their types, used for the Arrow tables, the DuckDB tables and the Parquet files.

>>> from brass_stats.bots import RandomBot, play_game
>>> from brass_stats.replay import replay
>>> t = game_tables(replay(play_game([RandomBot(), RandomBot()], seed=3)), None)
>>> sorted(t) == sorted(SCHEMAS)
True
>>> t["turn_snapshots"].num_rows == 2 * t["actions"].num_rows
True
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from datetime import UTC, datetime
from typing import Any, Literal

import pyarrow as pa

from ..engine.actions import Build, Develop, Network, Scout, Sell, Shortfall
from ..engine.scoring import standings
from ..engine.state import Effect, GameState, Tile
from ..log.format import FORMAT_VERSION, GameLog
from ..replay import Replay, Step
from ..rules_data import ALL_INDUSTRIES, RulesData

I32 = pa.int32()
STR = pa.string()
BOOL = pa.bool_()

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("edition", STR),
        ("player_count", I32),
        ("source_file", STR),
        ("source_kind", STR),
        ("played_at", pa.timestamp("us", tz="UTC")),
        ("format_version", I32),
        ("seed", STR),
        ("declared_result", STR),
        ("replayed_result", STR),
        ("winner", STR),
        ("n_actions", I32),
        ("n_rounds", I32),
        ("imported_at", pa.timestamp("us", tz="UTC")),
    ]
)

PLAYERS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("seat", I32),
        ("name", STR),
        ("player_kind", STR),
        ("final_vp", I32),
        ("final_income_level", I32),
        ("final_money", I32),
        ("rank", I32),
        ("start_turn_position", I32),
        ("canal_era_vp", I32),
        ("loans", I32),
    ]
)

ACTIONS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("turn_position", I32),
        ("seat", I32),
        ("action_type", STR),
        ("end_of_turn", BOOL),
        ("card", STR),
        ("locations", pa.list_(STR)),
        ("industry", STR),
        ("level", I32),
        ("money_spent", I32),
        ("coal_from_own", I32),
        ("coal_from_opponents", I32),
        ("coal_from_market", I32),
        ("iron_from_own", I32),
        ("iron_from_opponents", I32),
        ("iron_from_market", I32),
        ("beer_from_own", I32),
        ("beer_from_opponents", I32),
        ("beer_from_merchant", I32),
        ("resource_sources", STR),
        ("action_json", STR),
    ]
)

EFFECTS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("effect_index", I32),
        ("actor", I32),
        ("kind", STR),
        ("seat", I32),
        ("amount", I32),
        ("cause", STR),
        ("detail", STR),
    ]
)

TURN_SNAPSHOTS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("turn_position", I32),
        ("actor", I32),
        ("end_of_turn", BOOL),
        ("seat", I32),
        ("order_position", I32),
        ("money", I32),
        ("income_space", I32),
        ("income_level", I32),
        ("vp", I32),
        ("potential_link_vp", I32),
        ("potential_tile_vp", I32),
        ("loans", I32),
        ("cards_in_hand", I32),
        ("tiles_on_board", I32),
        *[(f"tiles_{ind}", I32) for ind in ALL_INDUSTRIES],
        ("flipped_tiles", I32),
        ("tiles_by_level", STR),
        ("links_on_board", I32),
        ("spent_this_round", I32),
    ]
)

ERA_SCORES_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("era", STR),
        ("seat", I32),
        ("link_vp", I32),
        *[(f"tile_vp_{ind}", I32) for ind in ALL_INDUSTRIES],
        ("tile_vp", I32),
        ("merchant_bonus_vp", I32),
        ("shortfall_vp_lost", I32),
        ("cash_vp", I32),
        ("introductory_vp", I32),
        ("vp_gained_in_era", I32),
        ("vp_at_era_end", I32),
        ("links_scored", I32),
        ("tiles_scored", I32),
    ]
)

BOARD_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("action_index", I32),
        ("before_scoring", BOOL),
        ("piece", STR),
        ("location", STR),
        ("slot", I32),
        ("link_id", STR),
        ("owner", I32),
        ("industry", STR),
        ("level", I32),
        ("flipped", BOOL),
        ("resources", I32),
        ("vp_if_scored", I32),
    ]
)

SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "players": PLAYERS_SCHEMA,
    "actions": ACTIONS_SCHEMA,
    "effects": EFFECTS_SCHEMA,
    "turn_snapshots": TURN_SNAPSHOTS_SCHEMA,
    "era_scores": ERA_SCORES_SCHEMA,
    "board": BOARD_SCHEMA,
}
"""Table name -> Arrow schema, in the order the tables are written (``games`` first)."""

ERAS = ("canal", "rail")


# -- the game id -----------------------------------------------------------------------


def game_id(log: GameLog) -> str:
    """Stable id from the log's content: the same game (same header, chance and actions) always gets the same id.

    ``source``, ``result`` and the file name are left out, so re-exporting or renaming a log keeps its id.
    """
    body = {
        "edition": log.edition,
        "players": list(log.players),
        "options": log.options,
        "chance": log.chance,
        "actions": [a.to_json() for a in log.actions],
    }
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- provenance: where a log came from, who played it, when -----------------------------


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


# -- helpers ---------------------------------------------------------------------------


def _json(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _loc(ref: str) -> str:
    return ref.split(":", 1)[0]


def _location_link_values(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons per location on a board: printed (merchants) plus flipped tiles, as scoring.location_link_value."""
    extra: Counter[str] = Counter()
    for ref, t in tiles.items():
        if t.flipped:
            extra[_loc(ref)] += rules.level(t.industry, t.level).link_vp
    return {loc: info.printed_link_vp + extra[loc] for loc, info in rules.locations.items()}


def _link_value(rules: RulesData, values: dict[str, int], link_id: str) -> int:
    return sum(values[loc] for loc in rules.links[link_id].connects)


def _ends_round(step: Step, state: GameState) -> bool:
    return state.game_over or state.round != step.round


def _check(replay: Replay) -> None:
    if replay.error is not None:
        raise ValueError(f"the replay stopped at an illegal action: {replay.error}")
    if not replay.finished:
        raise ValueError("the replay did not reach the end of the game")
    if replay.steps and replay.steps[-1].state is None:
        raise ValueError("game_tables needs a replay that keeps states (keep_states=True)")


# -- the tables ------------------------------------------------------------------------


def game_tables(replay: Replay, source_file: str | None) -> dict[str, pa.Table]:
    """Every table for one finished replay (``keep_states=True``), keyed by table name (see :data:`SCHEMAS`)."""
    _check(replay)
    gid = game_id(replay.log)
    rows = {
        "games": _games(replay, gid, source_file),
        "players": _players(replay, gid),
        "era_scores": _era_scores(replay, gid),
        "board": _board(replay, gid),
    }
    # the big per-action tables are built as columns, in one pass over the steps
    columns = _per_action_columns(replay, gid)
    return {
        name: _columns_to_table(columns[name], schema) if name in columns else _to_table(rows[name], schema)
        for name, schema in SCHEMAS.items()
    }


def _to_table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    columns = {name: [r[name] for r in rows] for name in schema.names}
    return pa.Table.from_pydict(columns, schema=schema)


def _columns_to_table(rows: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    """Rows given as tuples in schema order, turned into one Arrow array per column (one transpose)."""
    if not rows:
        return schema.empty_table()
    columns = list(zip(*rows, strict=True))
    if len(columns) != len(schema):
        raise ValueError(f"{len(columns)} values per row for {len(schema)} columns")
    return pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)], schema=schema)


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


def _games(replay: Replay, gid: str, source_file: str | None) -> list[dict[str, Any]]:
    log = replay.log
    st = replay.standings()
    winners = " & ".join(s.name for s in st if s.rank == 1)
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
        }
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


# -- the per-action tables, as columns --------------------------------------------------

# one encoder each, built once (json.dumps with options builds a new encoder per call)
_SORTED_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode
_ACTION_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_DETAIL_JSON: dict[tuple[tuple[str, Any, type], ...], str] = {}


def _detail_json(detail: dict[str, Any]) -> str:
    """An effect's detail as sorted JSON, memoised: most details repeat (same tile, same resource)."""
    try:
        key = tuple((k, v, type(v)) for k, v in detail.items())  # the type: True == 1 but dumps differently
        text = _DETAIL_JSON.get(key)
    except TypeError:  # a list or dict value: not hashable
        return _SORTED_JSON(detail)
    if text is None:
        if len(_DETAIL_JSON) > 100_000:  # bounded: an ingest worker lives for many games
            _DETAIL_JSON.clear()
        text = _DETAIL_JSON[key] = _SORTED_JSON(detail)
    return text


_RESOURCE_KINDS = {"coal_used": "coal", "iron_used": "iron", "beer_used": "beer"}
# position of each "<resource>_from_<where>" count in the actions table (after money_spent)
_FROM_COLUMNS = {
    (res, where): i
    for i, (res, where) in enumerate(
        [(r, w) for r in ("coal", "iron") for w in ("own", "opponents", "market")]
        + [("beer", w) for w in ("own", "opponents", "merchant")]
    )
}


def _is_spending(e: Effect) -> bool:
    """Money paid to the bank by an action (the Character-tile amount): not income, never a gain."""
    return e.kind == "money" and e.amount < 0 and e.cause != "income"


def _action_columns(step: Step, before: GameState, after: GameState) -> tuple[Any, ...]:
    """The actions-table values after ``turn_position``: seat ... action_json."""
    a = step.action
    seat = a.player
    card: str | None = getattr(a, "card", None) or None
    locations: list[str] = []
    industry: str | None = None
    level: int | None = None
    if isinstance(a, Scout):
        card = ",".join(a.discards)
    elif isinstance(a, Build):
        locations = [a.location]
        industry = a.industry
        level = next((e.detail["level"] for e in step.effects if e.kind == "build"), None)
    elif isinstance(a, Network):
        links = after.rules.links
        for link in a.links:
            locations.extend(links[link].endpoints)
    elif isinstance(a, Develop):
        industry = "+".join(a.industries)
    elif isinstance(a, Sell):
        locations = [_loc(s.tile) for s in a.sales]
        industry = "+".join(before.tiles[s.tile].industry for s in a.sales)
    elif isinstance(a, Shortfall):
        locations = [_loc(t) for t in a.tiles or ()]
    if len(locations) > 1:
        locations = list(dict.fromkeys(locations))
    sources = []
    counts = [0] * len(_FROM_COLUMNS)
    spent = 0
    for e in step.effects:
        if e.seat != seat:
            continue
        res = _RESOURCE_KINDS.get(e.kind)
        if res is not None:
            src, owner = e.detail["source"], e.detail.get("owner")
            sources.append({"resource": res, "source": src, "owner": owner})
            where = src if src in ("market", "merchant") else "own" if owner == seat else "opponents"
            i = _FROM_COLUMNS.get((res, where))
            if i is not None:
                counts[i] += 1
        elif e.kind == "money" and e.amount < 0 and e.cause != "income":
            spent -= e.amount
    return (
        seat,
        a.TYPE,
        after.actions_this_turn == 0,
        card,
        locations,
        industry,
        level,
        spent,
        *counts,
        _SORTED_JSON(sources),
        _ACTION_JSON(a.to_json()),
    )


def _board_columns(state: GameState) -> dict[int, tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Per seat, the snapshot values that depend only on the board: (potential link VP, potential tile VP)
    and (tiles_on_board, tiles_<industry>..., flipped_tiles, tiles_by_level, links_on_board)."""
    rules = state.rules
    over = state.game_over
    seats = range(len(state.players))
    count = {seat: dict.fromkeys(ALL_INDUSTRIES, 0) for seat in seats}
    by_level: dict[int, dict[str, dict[str, int]]] = {seat: {} for seat in seats}
    flipped = dict.fromkeys(seats, 0)
    tile_vp = dict.fromkeys(seats, 0)
    link_icons: Counter[str] = Counter()
    for ref, t in state.tiles.items():
        seat = t.owner
        count[seat][t.industry] += 1
        lv = by_level[seat].setdefault(t.industry, {})
        key = str(t.level)
        lv[key] = lv.get(key, 0) + 1
        if t.flipped:
            info = rules.level(t.industry, t.level)
            flipped[seat] += 1
            tile_vp[seat] += info.vp
            link_icons[_loc(ref)] += info.link_vp
    links = dict.fromkeys(seats, 0)
    link_vp = dict.fromkeys(seats, 0)
    locations, rule_links = rules.locations, rules.links
    for link_id, owner in state.links.items():
        links[owner] += 1
        if not over:
            link_vp[owner] += sum(locations[x].printed_link_vp + link_icons[x] for x in rule_links[link_id].connects)
    out = {}
    for seat in seats:
        c = count[seat]
        out[seat] = (
            (link_vp[seat], 0 if over else tile_vp[seat]),
            (sum(c.values()), *c.values(), flipped[seat], _SORTED_JSON(by_level[seat]), links[seat]),
        )
    return out


def _per_action_columns(replay: Replay, gid: str) -> dict[str, list[tuple[Any, ...]]]:
    """Rows (tuples in schema order) of the actions, effects and turn_snapshots tables, in one pass."""
    actions: list[tuple[Any, ...]] = []
    effects: list[tuple[Any, ...]] = []
    snapshots: list[tuple[Any, ...]] = []
    spent: dict[int, int] = defaultdict(int)
    spent_round = None
    # every change to tiles or links goes through touch_board(), which bumps board_version
    board_cache: dict[tuple[int, bool], dict[int, tuple[tuple[Any, ...], tuple[Any, ...]]]] = {}
    before = replay.initial
    for step in replay.steps:
        st = step.state
        assert st is not None
        index, actor = step.index, step.action.player
        head = (gid, index, step.era, step.round, step.era_round, step.turn_position)
        actions.append(head + _action_columns(step, before, st))
        if step.round != spent_round:
            spent.clear()
            spent_round = step.round
        for i, e in enumerate(step.effects):
            effects.append((gid, index, i, actor, e.kind, e.seat, e.amount, e.cause, _detail_json(e.detail)))
            if e.kind == "money" and e.amount < 0 and e.cause != "income":
                spent[e.seat] -= e.amount
        key = (st.board_version, st.game_over)
        board = board_cache.get(key)
        if board is None:
            board = board_cache[key] = _board_columns(st)
        step_head = (*head, actor, st.actions_this_turn == 0)
        order = before.turn_order
        levels = st.rules.income_levels
        for p in st.players:
            seat = p.seat
            vps, pieces = board[seat]
            snapshots.append(
                (
                    *step_head,
                    seat,
                    order.index(seat),
                    p.money,
                    p.income_space,
                    levels[p.income_space],
                    p.vp,
                    *vps,
                    p.loans,
                    len(p.hand),
                    *pieces,
                    spent[seat],
                )
            )
        before = st
    return {"actions": actions, "effects": effects, "turn_snapshots": snapshots}


def _era_scores(replay: Replay, gid: str) -> list[dict[str, Any]]:
    n = replay.initial.num_players
    acc: dict[tuple[str, int], Counter[str]] = {(era, seat): Counter() for era in ERAS for seat in range(n)}
    vp_end: dict[tuple[str, int], int] = {}
    for step in replay.steps:
        for e in step.effects:
            if e.kind != "vp":
                continue
            c = acc[(step.era, e.seat)]
            c["vp_gained_in_era"] += e.amount
            if e.cause.endswith("_era_scoring"):
                if e.detail.get("source") == "link":
                    c["link_vp"] += e.amount
                    c["links_scored"] += 1
                else:
                    c[f"tile_vp_{e.detail['industry']}"] += e.amount
                    c["tile_vp"] += e.amount
                    c["tiles_scored"] += 1
            elif e.cause.startswith("merchant_bonus:"):
                c["merchant_bonus_vp"] += e.amount
            elif e.cause == "shortfall":
                c["shortfall_vp_lost"] -= e.amount
            elif e.cause == "cash_scoring":
                c["cash_vp"] += e.amount
            elif e.cause == "introductory_scoring":
                c["introductory_vp"] += e.amount
        assert step.state is not None
        if step.state.era != step.era or step.state.game_over:
            for p in step.state.players:
                vp_end[(step.era, p.seat)] = p.vp
    keys = [
        "link_vp",
        *[f"tile_vp_{ind}" for ind in ALL_INDUSTRIES],
        "tile_vp",
        "merchant_bonus_vp",
        "shortfall_vp_lost",
        "cash_vp",
        "introductory_vp",
        "vp_gained_in_era",
        "links_scored",
        "tiles_scored",
    ]
    rows = []
    for (era, seat), c in acc.items():
        row: dict[str, Any] = {"game_id": gid, "era": era, "seat": seat, "vp_at_era_end": vp_end.get((era, seat))}
        row.update({k: c[k] for k in keys})
        rows.append(row)
    return rows


def _board(replay: Replay, gid: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for step in replay.steps:
        st = step.state
        assert st is not None
        if not _ends_round(step, st):
            continue
        era_end = st.game_over or st.era != step.era
        tiles, links = st.era_boards[step.era] if era_end else (st.tiles, st.links)
        rules = st.rules
        values = _location_link_values(rules, tiles)
        base = {
            "game_id": gid,
            "era": step.era,
            "round": step.round,
            "era_round": step.era_round,
            "action_index": step.index,
            "before_scoring": era_end,
        }
        for ref in sorted(tiles, key=lambda r: (_loc(r), int(r.split(":", 1)[1]))):
            t = tiles[ref]
            loc, _, slot = ref.partition(":")
            info = rules.level(t.industry, t.level)
            rows.append(
                base
                | {
                    "piece": "tile",
                    "location": loc,
                    "slot": int(slot),
                    "link_id": None,
                    "owner": t.owner,
                    "industry": t.industry,
                    "level": t.level,
                    "flipped": t.flipped,
                    "resources": t.resources,
                    "vp_if_scored": info.vp if t.flipped else 0,
                }
            )
        for link_id in sorted(links):
            rows.append(
                base
                | {
                    "piece": "link",
                    "location": None,
                    "slot": None,
                    "link_id": link_id,
                    "owner": links[link_id],
                    "industry": None,
                    "level": None,
                    "flipped": None,
                    "resources": None,
                    "vp_if_scored": _link_value(rules, values, link_id),
                }
            )
        for ms in st.merchant_spaces:  # the merchant tile faces, so a board drawn from the table shows them
            rows.append(
                base
                | {
                    "piece": "merchant",
                    "location": ms.location,
                    "slot": ms.index,
                    "link_id": None,
                    "owner": None,
                    "industry": ms.face,
                    "level": None,
                    "flipped": None,
                    "resources": int(ms.beer),
                    "vp_if_scored": 0,
                }
            )
        for market, cubes in (("coal", st.coal_market), ("iron", st.iron_market)):  # cubes left on the markets
            rows.append(
                base
                | {
                    "piece": "market",
                    "location": market,
                    "slot": None,
                    "link_id": None,
                    "owner": None,
                    "industry": None,
                    "level": None,
                    "flipped": None,
                    "resources": cubes,
                    "vp_if_scored": 0,
                }
            )
    return rows


# -- without a database ------------------------------------------------------------------


def frames(
    replay: Replay, backend: Literal["pandas", "polars"] = "pandas", source_file: str | None = None
) -> dict[str, Any]:
    """The tables of :func:`game_tables` as pandas or polars DataFrames, without any database."""
    tables = game_tables(replay, source_file)
    if backend == "pandas":
        return {name: t.to_pandas() for name, t in tables.items()}
    if backend == "polars":
        import polars as pl

        return {name: pl.from_arrow(t) for name, t in tables.items()}
    raise ValueError(f"unknown backend {backend!r}; expected 'pandas' or 'polars'")
