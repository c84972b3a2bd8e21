"""Fast twin of the per-action builders in tests/reference_tables.py (held equal by tests/test_tables_equivalence.py).

The actions, effects, turn_snapshots and era_scores tables (a row per action, per effect, per action
and seat, per era and seat), built from one pass over the replay's steps (:func:`_walk`), which also
gathers the board table's rounds (:mod:`.board_table`) and the VP effects that era_scores sums.
"""

from __future__ import annotations

import marshal
from collections.abc import Sequence
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from ...engine.actions import Build, Develop, Loan, Network, Pass, Scout, Sell, Shortfall
from ...engine.state import Effect, GameState
from ...replay import Replay, Step
from .action_json import SORTED_JSON
from .assemble import GameParts, Indexed, arrow_array, int_numpy
from .board_statistics import BoardStatistics, count_board_statistics, location_of
from .board_table import BoardTable
from .ids import action_json_column
from .schemas import ACTIONS_SCHEMA, ERA_SCORES_SCHEMA, ERAS, I32, STR, TURN_SNAPSHOTS_SCHEMA

_DETAIL_JSON: dict[Any, str] = {}
_SOURCES_JSON: dict[Any, str] = {}


def _memo_json(cache: dict[Any, str], key: Any, value: Any) -> str:
    """``value`` as sorted JSON, memoised under ``key`` (which must tell apart values that dump differently)."""
    text = cache.get(key)
    if text is None:
        if len(cache) > 100_000:  # bounded: an ingest worker lives for many games
            cache.clear()
        text = cache[key] = SORTED_JSON(value)
    return text


def _detail_column(details: Sequence[dict[str, Any]]) -> list[str]:
    """Each effect's detail as sorted JSON, memoised: most details repeat (same tile, same resource).

    The memo is keyed by the detail's ``marshal`` bytes (version 2: no back-references), which tell
    apart every value that dumps differently (``True``, ``1``, ``1.0`` and ``"1"``; keys in another
    order, a tuple for a list or an interned string only make another entry): ``marshal.loads`` gives
    the value back, so equal bytes are equal values of equal types. A value ``marshal`` does not write
    (an object of another class) keys the column by ``repr`` instead, which also tells them apart
    (slower: about 0.4 us a detail against 0.2). (Keyed by the items, it runs fewer instructions but
    takes longer: a tuple per item to allocate.)
    """
    cache = _DETAIL_JSON
    try:
        keys: list[Any] = list(map(marshal.dumps, details, repeat(2)))
    except ValueError:  # (marshal's "unmarshallable object")
        keys = list(map(repr, details))
    out = list(map(cache.get, keys))
    if None in out:
        if len(cache) > 100_000:  # bounded: an ingest worker lives for many games
            cache.clear()
        for i, text in enumerate(out):
            if text is None:
                out[i] = cache[keys[i]] = SORTED_JSON(details[i])
    return out  # type: ignore[return-value]


_RESOURCE_KINDS = {"coal_used": "coal", "iron_used": "iron", "beer_used": "beer"}
_SUMMED_KINDS = {"money": "money", "vp": "vp", **_RESOURCE_KINDS}  # effect kind -> what the actions sum
# position of each "<resource>_from_<where>" count in the actions table (after money_spent)
_FROM_COLUMNS = {
    (res, where): i
    for i, (res, where) in enumerate(
        [(r, w) for r in ("coal", "iron") for w in ("own", "opponents", "market")]
        + [("beer", w) for w in ("own", "opponents", "merchant")]
    )
}
_NO_COUNTS = (0,) * len(_FROM_COLUMNS)
_NO_SOURCES = SORTED_JSON([])


_NO_VALUES = frozenset({Loan, Pass})
_NO_LOCATIONS: list[str] = []  # (shared: the column is only read)


def _action_values(step: Step, before: GameState, after: GameState) -> tuple[Any, ...]:
    """The actions-table values that depend on the action's type: card, locations, industry, level."""
    a = step.action
    cls = type(a)
    # the usual classes first, by their exact type
    if cls is Build:
        level = None
        for e in step.effects:
            if e.kind == "build":
                level = e.detail["level"]
                break
        return a.card or None, [a.location], a.industry, level  # type: ignore[attr-defined]
    if cls in _NO_VALUES:  # (loans and passes: a card alone; a subclass gets the same below)
        return a.card or None, _NO_LOCATIONS, None, None  # type: ignore[attr-defined]
    card: str | None = getattr(a, "card", None) or None
    locations: list[str] = []
    industry: str | None = None
    level = None
    if isinstance(a, Build):
        locations = [a.location]
        industry = a.industry
        level = next((e.detail["level"] for e in step.effects if e.kind == "build"), None)
    elif isinstance(a, Network):
        links = after.rules.links
        for link in a.links:
            locations.extend(links[link].endpoints)
    elif isinstance(a, Scout):
        card = ",".join(a.discards)
    elif isinstance(a, Develop):
        industry = "+".join(a.industries)
    elif isinstance(a, Sell):
        locations = [location_of(s.tile) for s in a.sales]
        industry = "+".join([before.tiles[s.tile].industry for s in a.sales])
    elif isinstance(a, Shortfall):
        locations = [location_of(t) for t in a.tiles or ()]
    if len(locations) > 1:
        locations = list(dict.fromkeys(locations))
    return card, locations, industry, level


_HEAD = pa.schema([("era", STR), ("round", I32), ("era_round", I32), ("turn_position", I32)])
_PIECES = pa.schema(  # tiles_on_board ... links_on_board
    [TURN_SNAPSHOTS_SCHEMA.field(name) for name in TURN_SNAPSHOTS_SCHEMA.names[18:-1]]
)
_COUNTS = pa.schema([ACTIONS_SCHEMA.field(name) for name in ACTIONS_SCHEMA.names[13:23]])


def per_action_tables(replay: Replay, gid: str) -> tuple[GameParts, int]:
    """The actions, effects, turn_snapshots, board and era_scores tables' parts, in one pass over the
    steps; and the number of deviation effects (broken rules the replay tolerated)."""
    steps = replay.steps
    states: list[GameState] = [s.state for s in steps]  # type: ignore[misc]
    actors = [s.action.player for s in steps]
    walk = _walk(replay, states, actors)
    head = _head(steps, states, actors)
    actions = _actions_columns(gid, steps, head, walk)
    effects, n_deviations = _effects_columns(gid, steps, head)
    parts: GameParts = {
        "actions": ("columns", actions),
        "effects": ("columns", effects),
        "turn_snapshots": ("columns", _snapshot_columns(gid, replay, states, head, walk)),
        "board": ("columns", walk.board.columns(gid)),
        "era_scores": ("rows", _era_scores(gid, replay.initial.num_players, walk.vp_effects, walk.era_ends)),
    }
    return parts, n_deviations


class _Walk(NamedTuple):
    """What the one pass over the steps gathers (:func:`_walk`), for the columns built after it."""

    values: list[tuple[Any, ...]]  # per action: card, locations, industry, level
    counts: list[tuple[int, ...]]  # per action: money_spent, <resource>_from_<where>...
    sources: list[str]  # per action: resource_sources
    positions: list[int]  # per action and seat: order_position
    spent: list[int]  # per action and seat: spent_this_round
    link_vp: list[int]  # per action and seat: potential_link_vp
    tile_vp: list[int]  # per action and seat: potential_tile_vp
    piece_rows: list[int]  # per action and seat: its row of tracker.pieces
    tracker: BoardStatistics
    board: BoardTable
    vp_effects: list[tuple[str, Effect]]  # (the era of the action, a VP effect)
    era_ends: list[tuple[str, GameState]]  # (an era, the state after its last action)


def _walk(replay: Replay, states: list[GameState], actors: list[int]) -> _Walk:
    """One pass over the steps (``states``: each step's state after it, ``actors``: who acted): every
    value that depends on the state before or after an action, and the board table's rounds."""
    steps = replay.steps
    initial = replay.initial
    rules = initial.rules
    n_players = initial.num_players
    seats = range(n_players)

    # per action
    values: list[tuple[Any, ...]] = []  # card, locations, industry, level
    counts: list[tuple[int, ...]] = []  # money_spent, <resource>_from_<where>...
    sources: list[str] = []
    # per action, per seat
    positions: list[int] = []
    spent_col: list[int] = []
    link_vp: list[int] = []
    tile_vp: list[int] = []
    piece_rows: list[int] = []  # each seat's row of tracker.pieces
    board = BoardTable(rules)
    vp_effects: list[tuple[str, Effect]] = []  # (the era of the action, a VP effect)
    era_ends: list[tuple[str, GameState]] = []

    tracker = BoardStatistics(rules, n_players)
    version: int | None = None
    over = False
    no_vp = [0] * n_players
    spent = [0] * n_players
    spent_round = None
    order: list[int] = []
    order_positions: list[int] = []
    before = initial
    summed_kinds = _SUMMED_KINDS.get
    for step, st, seat in zip(steps, states, actors, strict=True):
        values.append(_action_values(step, before, st))
        if step.round != spent_round:
            spent = [0] * n_players
            spent_round = step.round
        used: list[tuple[Any, ...]] = []  # resource, source, owner, the owner's type
        from_counts = None
        paid = 0
        for e in step.effects:
            kind, who, amount, cause, detail = e  # (a tuple: unpacked faster than read by name)
            res = summed_kinds(kind)
            if res is None:  # (most effects: nothing summed here)
                continue
            if res == "money":
                if amount < 0 and cause != "income":
                    spent[who] -= amount
                    if who == seat:
                        paid -= amount
            elif res == "vp":
                vp_effects.append((step.era, e))
            elif who == seat:  # a resource the actor used
                src, owner = detail["source"], detail.get("owner")
                used.append((res, src, owner, type(owner)))
                where = src if src in ("market", "merchant") else "own" if owner == seat else "opponents"
                i = _FROM_COLUMNS.get((res, where))
                if i is not None:
                    if from_counts is None:
                        from_counts = [0] * len(_FROM_COLUMNS)
                    from_counts[i] += 1
        counts.append((paid, *(from_counts or _NO_COUNTS)))
        if used:
            key = tuple(used)
            text = _SOURCES_JSON.get(key)
            if text is None:
                rows = [{"resource": res, "source": src, "owner": owner} for res, src, owner, _ in used]
                text = _memo_json(_SOURCES_JSON, key, rows)
            sources.append(text)
        else:
            sources.append(_NO_SOURCES)
        spent_col.extend(spent)
        if before.turn_order is not order and before.turn_order != order:  # (replaced when it changes)
            order = before.turn_order
            order_positions = [order.index(s) for s in seats]
        positions.extend(order_positions)
        if st.board_version != version:  # every change to tiles or links bumps board_version
            tracker.update(st.tiles, st.links)
            version = st.board_version
        over = st.phase == "over"  # (st.game_over, without a property call)
        if over:  # nothing is left to score
            link_vp.extend(no_vp)
            tile_vp.extend(no_vp)
        else:
            link_vp.extend(tracker.link_vp)
            tile_vp.extend(tracker.tile_vp)
        piece_rows.extend(tracker.piece_row)
        if over or st.round != step.round:  # the round ends: the board as it stands
            board.add(step, st, tracker)
        if over or st.era != step.era:
            era_ends.append((step.era, st))
        before = st
    # the last board once more, from scratch: a guard against a miscount in the incremental statistics
    if steps and tracker.rows(over) != count_board_statistics(before):
        raise ValueError("board statistics kept from board to board differ from the last board counted from scratch")
    return _Walk(
        values,
        counts,
        sources,
        positions,
        spent_col,
        link_vp,
        tile_vp,
        piece_rows,
        tracker,
        board,
        vp_effects,
        era_ends,
    )


class _Head(NamedTuple):
    """The per-action columns that the actions, effects and turn_snapshots tables share."""

    action_index: np.ndarray
    era: Sequence[str]
    numbers: list[np.ndarray]  # round, era_round, turn_position
    actor: np.ndarray
    end_of_turn: np.ndarray


def _head(steps: Sequence[Step], states: list[GameState], actors: list[int]) -> _Head:
    """The shared per-action columns (``states``: each step's state after it, ``actors``: who acted)."""
    n = len(steps)
    index = np.arange(n, dtype=np.int32)  # (a replay's steps are numbered from 0)
    if n and (steps[0].index != 0 or steps[-1].index != n - 1):
        index = arrow_array([s.index for s in steps], I32).to_numpy()
    era, *numbers = (
        zip(*[(s.era, s.round, s.era_round, s.turn_position) for s in steps], strict=True) if n else ((),) * 4
    )
    head_numbers = [int_numpy(c) for c in numbers]  # round, era_round, turn_position
    actor = int_numpy(actors)
    end_of_turn = np.fromiter([st.actions_this_turn == 0 for st in states], dtype=np.bool_, count=n)
    return _Head(index, era, head_numbers, actor, end_of_turn)


def _actions_columns(gid: str, steps: Sequence[Step], head: _Head, walk: _Walk) -> dict[str, Any]:
    """The actions table's columns: one row per action."""
    n = len(steps)
    counts = walk.counts
    card, locations, industry, level = zip(*walk.values, strict=True) if walk.values else ((), (), (), ())
    return {
        "game_id": Indexed((gid,), np.zeros(n, dtype=np.intp)),
        "action_index": head.action_index,
        "era": head.era,
        **dict(zip(_HEAD.names[1:], head.numbers, strict=True)),
        "seat": head.actor,
        "action_type": [s.action.TYPE for s in steps],
        "end_of_turn": head.end_of_turn,
        "card": card,
        "locations": locations,
        "industry": industry,
        "level": level,
        **dict(zip(_COUNTS.names, zip(*counts, strict=True) if counts else [()] * len(_COUNTS), strict=True)),
        "resource_sources": walk.sources,
        "action_json": action_json_column([s.action for s in steps]),
    }


def _effects_columns(gid: str, steps: Sequence[Step], head: _Head) -> tuple[dict[str, Any], int]:
    """The effects table's columns (one row per effect, in action order), and how many deviations
    (broken rules the replay tolerated) are among the effects."""
    n = len(steps)
    index, actor = head.action_index, head.actor
    per_step = [s.effects for s in steps]
    flat = [e for effects_of_step in per_step for e in effects_of_step]
    n_effects = np.fromiter(map(len, per_step), dtype=np.int64, count=n)
    starts = np.cumsum(n_effects) - n_effects
    columns: list[tuple[Any, ...]] = list(zip(*flat, strict=True)) if flat else [()] * 5  # kind ... detail
    effects = {
        "game_id": Indexed((gid,), np.zeros(len(flat), dtype=np.intp)),
        "action_index": np.repeat(index, n_effects),
        "effect_index": (np.arange(len(flat), dtype=np.int64) - np.repeat(starts, n_effects)).astype(np.int32),
        "actor": np.repeat(actor, n_effects),
        "kind": columns[0],
        "seat": columns[1],
        "amount": columns[2],
        "cause": columns[3],
        "detail": _detail_column(columns[4]),
    }
    return effects, columns[0].count("deviation")


def _snapshot_columns(gid: str, replay: Replay, states: list[GameState], head: _Head, walk: _Walk) -> dict[str, Any]:
    """The turn_snapshots table's columns: one row per action and seat, the per-action columns
    repeated, the board statistics taken by index."""
    n = len(states)
    n_players = replay.initial.num_players
    index, actor = head.action_index, head.actor
    tracker = walk.tracker
    players = [p for st in states for p in st.players]
    levels = replay.initial.rules.income_levels
    piece_index = np.fromiter(walk.piece_rows, dtype=np.intp, count=len(walk.piece_rows))
    pieces = zip(*tracker.pieces, strict=True) if tracker.pieces else [()] * len(_PIECES)
    return {
        "game_id": Indexed((gid,), np.zeros(n * n_players, dtype=np.intp)),
        "action_index": np.repeat(index, n_players),
        "era": Indexed(head.era, np.repeat(index, n_players)),
        **{name: np.repeat(c, n_players) for name, c in zip(_HEAD.names[1:], head.numbers, strict=True)},
        "actor": np.repeat(actor, n_players),
        "end_of_turn": np.repeat(head.end_of_turn, n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int32), n),
        "order_position": walk.positions,
        "money": [p.money for p in players],
        "income_space": [p.income_space for p in players],
        "income_level": [levels[p.income_space] for p in players],
        "vp": [p.vp for p in players],
        "loans": [p.loans for p in players],
        "cards_in_hand": [len(p.hand) for p in players],
        "potential_link_vp": walk.link_vp,
        "potential_tile_vp": walk.tile_vp,
        **{name: Indexed(c, piece_index) for name, c in zip(_PIECES.names, pieces, strict=True)},
        "spent_this_round": walk.spent,
    }


_ERA_SCORE_COLUMNS = ERA_SCORES_SCHEMA.names[3:]  # link_vp ... tiles_scored
_ERA_COLUMN = {name: i for i, name in enumerate(_ERA_SCORE_COLUMNS)}
_VP_GAINED, _VP_AT_END = _ERA_COLUMN["vp_gained_in_era"], _ERA_COLUMN["vp_at_era_end"]
_LINK_VP, _LINKS_SCORED = _ERA_COLUMN["link_vp"], _ERA_COLUMN["links_scored"]
_TILE_VP, _TILES_SCORED = _ERA_COLUMN["tile_vp"], _ERA_COLUMN["tiles_scored"]
_MERCHANT_BONUS, _SHORTFALL = _ERA_COLUMN["merchant_bonus_vp"], _ERA_COLUMN["shortfall_vp_lost"]
_CASH, _INTRODUCTORY = _ERA_COLUMN["cash_vp"], _ERA_COLUMN["introductory_vp"]


def _era_scores(
    gid: str, n: int, vp_effects: list[tuple[str, Effect]], era_ends: list[tuple[str, GameState]]
) -> list[tuple[Any, ...]]:
    """The era_scores table from the VP effects (with the era of their action) and the state after
    each era's last action (gathered in the pass over the steps, :func:`_walk`): one row
    per era and seat, the values summed in a list per row."""
    era_row = {era: i * n for i, era in enumerate(ERAS)}
    rows = [[0] * len(_ERA_SCORE_COLUMNS) for _ in range(len(ERAS) * n)]
    for row in rows:
        row[_VP_AT_END] = None  # type: ignore[call-overload]
    for era_of_step, e in vp_effects:
        c = rows[era_row[era_of_step] + e.seat]
        amount = e.amount
        c[_VP_GAINED] += amount
        cause = e.cause
        if cause.endswith("_era_scoring"):
            detail = e.detail
            if detail.get("source") == "link":
                c[_LINK_VP] += amount
                c[_LINKS_SCORED] += 1
            else:
                i = _ERA_COLUMN.get(f"tile_vp_{detail['industry']}")
                if i is not None:
                    c[i] += amount
                c[_TILE_VP] += amount
                c[_TILES_SCORED] += 1
        elif cause.startswith("merchant_bonus:"):
            c[_MERCHANT_BONUS] += amount
        elif cause == "shortfall":
            c[_SHORTFALL] -= amount
        elif cause == "cash_scoring":
            c[_CASH] += amount
        elif cause == "introductory_scoring":
            c[_INTRODUCTORY] += amount
    for era, state in era_ends:
        for p in state.players:
            rows[era_row[era] + p.seat][_VP_AT_END] = p.vp
    return [(gid, era, seat, *rows[era_row[era] + seat]) for era in ERAS for seat in range(n)]
