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
import marshal
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from itertools import chain, compress, repeat
from operator import attrgetter, is_not, itemgetter, ne
from typing import Any, Literal, NamedTuple

import numpy as np
import pyarrow as pa

from ..engine.actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
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
        ("source_game_id", STR),
        ("declared_result_matches", BOOL),
        ("result_differences", STR),
        ("n_deviations", I32),
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

DEVIATIONS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("seat", I32),
        ("rule", STR),
        ("message", STR),
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
    "deviations": DEVIATIONS_SCHEMA,
}
"""Table name -> Arrow schema, in the order the tables are written (``games`` first)."""

ERAS = ("canal", "rail")


# -- the game id -----------------------------------------------------------------------


def game_id(log: GameLog) -> str:
    """Stable id from the log's content: the same game (same header, chance and actions) always gets the same id.

    ``source``, ``result`` and the file name are left out, so re-exporting or renaming a log keeps its id.
    The id hashes the JSON text of ``{"actions", "chance", "edition", "options", "players"}`` (keys
    sorted, compact), written piece by piece: the same text ``json.dumps`` writes for the whole.
    """
    actions = tuple(log.actions)
    writers = _WRITERS.get
    texts = [(write(a) if (write := writers(type(a))) else None) or _action_texts(a) for a in actions]
    # the actions table writes the same actions in field order: kept for the next game_tables
    _LAST_ACTIONS[:] = [actions, [t[0] for t in texts]]
    text = "".join(
        [
            '{"actions":[',
            ",".join([t[1] for t in texts]),
            '],"chance":',
            _SORTED_JSON(log.chance),
            ',"edition":',
            _SORTED_JSON(log.edition),
            ',"options":',
            _SORTED_JSON(log.options),
            ',"players":',
            _SORTED_JSON(list(log.players)),
            "}",
        ]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


_STR_JSON = json.encoder.encode_basestring  # a string as the encoders below write it (ensure_ascii=False)


def _compact_json(sort_keys: bool) -> Any:
    """A compact JSON writer (``ensure_ascii=False``), byte for byte ``json.JSONEncoder(...).encode``.

    ``json.dumps`` with options builds a new encoder per call, and ``JSONEncoder.encode`` builds a new
    C encoder per call; this one is built once (without the check for circular references: the
    values written here are trees).
    """
    encoder = json.JSONEncoder(sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)  # (None without the C accelerator)
    if make is None:
        return encoder.encode
    write = make(None, encoder.default, _STR_JSON, None, ":", ",", sort_keys, False, True)

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return _STR_JSON(value)
        return "".join(write(value, 0))

    return encode


_SORTED_JSON = _compact_json(sort_keys=True)
_ACTION_JSON = _compact_json(sort_keys=False)
# per action class: (field, its JSON key with the colon) in to_json's order, and the sorted order as indices
_ActionKeys = tuple[tuple[tuple[str, str], ...], tuple[int, ...]]
_ACTION_KEYS: dict[type[Action], _ActionKeys | None] = {}
# the last game_id's actions and their field-order JSON: the actions table of the same game reuses them
_LAST_ACTIONS: list[Any] = [(), []]


def _action_keys(cls: type[Action]) -> _ActionKeys | None:
    """``"type"`` and an action class's fields, in ``to_json``'s order and sorted (None: its own ``to_json``)."""
    if cls not in _ACTION_KEYS:
        keys = None
        if cls.to_json is Action.to_json:
            names = ["type", *(f.name for f in fields(cls) if f.name != "type")]
            in_order = tuple((name, _STR_JSON(name) + ":") for name in names)
            keys = (in_order, tuple(sorted(range(len(names)), key=names.__getitem__)))
        _ACTION_KEYS[cls] = keys
    return _ACTION_KEYS[cls]


def _sale_texts(sale: Any) -> tuple[str, str] | None:
    """A sale's ``to_json`` as compact JSON, in its order and sorted (None: not a plain :class:`Sale`)."""
    if type(sale) is not Sale or Sale.to_json is not _SALE_TO_JSON:
        return None
    tile, merchant = sale.tile, sale.merchant
    space, beer, bonus = sale.merchant_space, sale.beer, sale.bonus_develop
    if not (isinstance(tile, str) and isinstance(merchant, str)):
        return None
    head = '"tile":' + _STR_JSON(tile) + ',"merchant":' + _STR_JSON(merchant)
    parts = [head]
    sort = []
    if beer is not None:
        if type(beer) is not tuple or not all(isinstance(x, str) for x in beer):
            return None
        text = '"beer":[' + ",".join(map(_STR_JSON, beer)) + "]"
        sort.append(text)
    if bonus is not None:
        if not isinstance(bonus, str):
            return None
        sort.append('"bonus_develop":' + _STR_JSON(bonus))
    sort.append('"merchant":' + _STR_JSON(merchant))
    if space is not None:
        if type(space) is not int:
            return None
        parts.append('"merchant_space":' + int.__repr__(space))
        sort.append(parts[-1])
    sort.append('"tile":' + _STR_JSON(tile))
    if beer is not None:
        parts.append(sort[0])
    if bonus is not None:
        parts.append('"bonus_develop":' + _STR_JSON(bonus))
    return "{" + ",".join(parts) + "}", "{" + ",".join(sort) + "}"


_SALE_TO_JSON = Sale.to_json


_Writer = Any  # (action) -> (field-order JSON, sorted JSON), or None for a value it does not write
_WRITERS: dict[type[Action], _Writer] = {}


def _writer(cls: type[Action]) -> _Writer:
    """A writer for one action class: its field values' types (which fields are None, which strings,
    integers or tuples) pick a function written for exactly those types, which places each value's
    text in both key orders with one f-string each; values of other types (and tuples of sales) go to
    :func:`_field_writer`."""
    fallback = _field_writer(cls)
    keys = _action_keys(cls)
    if keys is None or fallback is None:
        return fallback
    in_order, by_name = keys
    names = [name for name, _ in in_order[1:]]  # (in_order[0] is "type")
    if not names:
        return fallback
    get = attrgetter(*names) if len(names) > 1 else (lambda a: (getattr(a, names[0]),))
    known: dict[tuple[type, ...], Any] = {}

    def write(a: Action) -> tuple[str, str] | None:
        values = get(a)
        f = known.get(kinds := tuple(map(type, values)))
        if f is None:
            f = known[kinds] = _typed_writer(cls, in_order, by_name, kinds) or fallback
        if f is fallback:
            return fallback(a)
        try:
            return f(*values)
        except TypeError:  # a tuple that does not hold strings alone (sales): the fallback's from now on
            known[kinds] = fallback
            return fallback(a)

    return write


def _typed_writer(
    cls: type[Action], in_order: tuple[tuple[str, str], ...], by_name: tuple[int, ...], kinds: tuple[type, ...]
) -> Any:
    """A function of the field values (types ``kinds``, in field order) returning both JSON texts, or
    None when a type is not one written here (the caller's fallback writes it)."""
    # each key with its value's place in an f-string (None: a field left out)
    parts: list[str | None] = [(_STR_JSON("type") + ":" + _STR_JSON(cls.TYPE)).replace("{", "{{").replace("}", "}}")]
    lines = []
    for i, ((_, key), kind) in enumerate(zip(in_order[1:], kinds, strict=True)):
        if kind is type(None):
            parts.append(None)
            continue
        if kind is str:
            lines.append(f"    t{i} = S(v{i})")
        elif kind is int:
            lines.append(f"    t{i} = R(v{i})")
        elif kind is tuple:
            lines.append(f"    t{i} = '[' + ','.join(map(S, v{i})) + ']'")
        else:
            return None
        parts.append(key.replace("{", "{{").replace("}", "}}") + "{t" + str(i) + "}")
    args = ", ".join(f"v{i}" for i in range(len(kinds)))

    def text(order: Sequence[int]) -> str:
        body = ",".join([p for p in map(parts.__getitem__, order) if p is not None])
        return "f" + repr("{{" + body + "}}")

    lines.insert(0, f"def write({args}):")
    lines.append(f"    return ({text(range(len(parts)))}, {text(by_name)})")
    namespace: dict[str, Any] = {"S": _STR_JSON, "R": int.__repr__}
    exec("\n".join(lines), namespace)  # noqa: S102 (code made here from the class's field names)
    return namespace["write"]


def _field_writer(cls: type[Action]) -> _Writer:
    """A function written for one action class (as ``dataclasses`` writes ``__init__``): no loop over
    the fields, each field's text made once and placed in both key orders (``p``: as written, ``q``:
    sorted, which differ for sales). Strings, integers, tuples of strings and of sales only: anything
    else returns None (an unexpected type)."""
    keys = _action_keys(cls)
    if keys is None:
        return None
    in_order, by_name = keys
    lines = ["def write(a):"]
    for i, (name, key) in enumerate(in_order):
        if name == "type":
            lines.append(f"    p{i} = q{i} = {key + _STR_JSON(cls.TYPE)!r}")
            continue
        lines += [
            f"    v = a.{name}",
            "    if v is None:",
            f"        p{i} = q{i} = None",
            "    elif isinstance(v, str):",
            f"        p{i} = q{i} = {key!r} + S(v)",
            "    elif type(v) is int:",
            f"        p{i} = q{i} = {key!r} + R(v)",
            "    elif type(v) is tuple:",
            "        try:",
            f"            p{i} = q{i} = {key + '['!r} + ','.join(map(S, v)) + ']'",
            "        except TypeError:",
            "            t = SALES(v)",
            "            if t is None:",
            "                return None",
            f"            p{i} = {key!r} + t[0]",
            f"            q{i} = {key!r} + t[1]",
            "    else:",
            "        return None",
        ]
    order = ", ".join(f"p{i}" for i in range(len(in_order)))
    by_key = ", ".join(f"q{i}" for i in by_name)
    # (filter(None, ...) drops the fields left out: every other part is a non-empty text)
    lines.append(
        f"    return ('{{' + ','.join(filter(None, ({order},))) + '}}',"
        f" '{{' + ','.join(filter(None, ({by_key},))) + '}}')"
    )
    namespace: dict[str, Any] = {"S": _STR_JSON, "R": int.__repr__, "SALES": _sales_texts}
    exec("\n".join(lines), namespace)  # noqa: S102 (code made here from the class's field names)
    return namespace["write"]


def _sales_texts(sales: tuple[Any, ...]) -> tuple[str, str] | None:
    """A tuple of sales as JSON lists, keys as written and sorted (None: not all plain :class:`Sale`)."""
    texts = [_sale_texts(x) for x in sales]
    if None in texts:
        return None
    return (
        "[" + ",".join([t[0] for t in texts]) + "]",  # type: ignore[index]
        "[" + ",".join([t[1] for t in texts]) + "]",  # type: ignore[index]
    )


def _action_texts(a: Action) -> tuple[str, str]:
    """``a.to_json()`` as compact JSON, keys in field order and sorted: byte for byte what the encoders write.

    Written directly for the usual fields (strings, integers, tuples of strings, sales); anything
    else (an unexpected type) goes through ``to_json`` and the encoders.
    """
    cls = type(a)
    write = _WRITERS.get(cls)
    if write is None and cls not in _WRITERS:
        write = _WRITERS[cls] = _writer(cls)
    if write is not None:
        texts = write(a)
        if texts is not None:
            return texts
    keys = _action_keys(cls)
    if keys is None:
        d = a.to_json()
        return _ACTION_JSON(d), _SORTED_JSON(d)
    in_order, by_name = keys
    parts: list[str | None] = []
    sorted_parts: list[str | None] | None = None  # only when a value is written differently sorted (sales)
    for name, key in in_order:
        v = a.TYPE if name == "type" else getattr(a, name)
        if v is None:
            parts.append(None)
        elif isinstance(v, str):
            parts.append(key + _STR_JSON(v))
        elif type(v) is int:  # not a bool
            parts.append(key + int.__repr__(v))
        elif type(v) is tuple:
            if all(isinstance(x, str) for x in v):
                parts.append(key + "[" + ",".join(map(_STR_JSON, v)) + "]")
                continue
            sales = [_sale_texts(x) for x in v]
            if None in sales:
                d = a.to_json()
                return _ACTION_JSON(d), _SORTED_JSON(d)
            if sorted_parts is None:
                sorted_parts = list(parts)
            parts.append(key + "[" + ",".join([t[0] for t in sales]) + "]")  # type: ignore[index]
            sorted_parts.append(key + "[" + ",".join([t[1] for t in sales]) + "]")  # type: ignore[index]
            continue
        else:
            d = a.to_json()
            return _ACTION_JSON(d), _SORTED_JSON(d)
        if sorted_parts is not None:
            sorted_parts.append(parts[-1])
    if sorted_parts is None:
        sorted_parts = parts
    return (
        "{" + ",".join([p for p in parts if p is not None]) + "}",
        "{" + ",".join([p for p in map(sorted_parts.__getitem__, by_name) if p is not None]) + "}",
    )


def _action_json(a: Action, sort_keys: bool = False) -> str:
    """``a.to_json()`` as compact JSON (keys in field order, or sorted), byte for byte what the encoder writes."""
    return _action_texts(a)[1 if sort_keys else 0]


def _action_json_column(actions: list[Action]) -> list[str]:
    """Each action's field-order JSON, reusing the texts of the last :func:`game_id` for equal actions."""
    known, texts = _LAST_ACTIONS
    if len(known) != len(actions):
        return [_action_texts(a)[0] for a in actions]
    # equal actions: the same class and field values, compared as one tuple each (what the dataclass's
    # __eq__ does, without its Python-level call)
    return [
        t if a is k or (type(a) is type(k) and _fields_of(a) == _fields_of(k)) else _action_texts(a)[0]
        for a, k, t in zip(actions, known, texts, strict=True)
    ]


_FIELD_GETTERS: dict[type, Any] = {}


def _fields_of(a: Action) -> Any:
    """An action's field values, as the dataclass's ``__eq__`` compares them (the eight action classes;
    any other class: the action itself, compared by its own ``__eq__``)."""
    cls = type(a)
    get = _FIELD_GETTERS.get(cls)
    if get is None:
        get = _FIELD_GETTERS[cls] = (
            attrgetter(*[f.name for f in fields(cls) if f.compare]) if cls in _ACTION_CLASSES else _itself
        )
    return get(a)


def _itself(a: Action) -> Action:
    return a


_ACTION_CLASSES = frozenset({Build, Network, Develop, Sell, Loan, Scout, Pass, Shortfall})


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
    """``json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))``, by the encoder made once."""
    return _SORTED_JSON(v)


def _loc(ref: str) -> str:
    return ref.split(":", 1)[0]


def _location_link_values(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons per location on a board: printed (merchants) plus flipped tiles, as scoring.location_link_value."""
    extra: Counter[str] = Counter()
    for ref, t in tiles.items():
        if t.flipped:
            extra[_loc(ref)] += rules.level(t.industry, t.level).link_vp
    return {loc: info.printed_link_vp + extra[loc] for loc, info in rules.locations.items()}


def _link_icons(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons of the flipped tiles per location (locations without any left out)."""
    out: dict[str, int] = {}
    level = rules.level
    for ref, t in tiles.items():
        if t.flipped:
            icons = level(t.industry, t.level).link_vp
            if icons:
                loc = ref.partition(":")[0]
                out[loc] = out.get(loc, 0) + icons
    return out


def _check(replay: Replay) -> None:
    if replay.error is not None:
        raise ValueError(f"the replay stopped at an illegal action: {replay.error}")
    if not replay.finished:
        raise ValueError("the replay did not reach the end of the game")
    if replay.steps and replay.steps[-1].state is None:
        raise ValueError("game_tables needs a replay that keeps states (keep_states=True)")


# -- the tables ------------------------------------------------------------------------


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


#: One game's tables before Arrow: per table, its columns (name -> a list, a numpy array, an Arrow
#: array or an :class:`_Indexed`) or its rows (tuples in the schema's order).
GameParts = dict[str, tuple[Literal["columns", "rows"], Any]]


class _Indexed(NamedTuple):
    """A column given as ``values`` taken at ``at`` (positions in ``values``): a game's few distinct
    values (its id, its board pieces) converted to Arrow and taken once per batch, not once per game
    (each Arrow call costs a few microseconds whatever its length)."""

    values: Sequence[Any]
    at: np.ndarray  # (integers)


def game_parts(replay: Replay, source_file: str | None, gid: str | None = None) -> GameParts:
    """One game's tables, not yet converted to Arrow (see :func:`assemble_tables`)."""
    _check(replay)
    if gid is None:
        gid = game_id(replay.log)
    # the big tables are built as columns, in one pass over the steps
    parts, broken = _per_action_tables(replay, gid)
    deviations = _deviations(replay, gid) if broken else []  # (Replay.deviations reads every effect)
    rows = {
        "games": _games(replay, gid, source_file, len(deviations)),
        "players": _players(replay, gid),
        "deviations": deviations,
    }
    for name, dicts in rows.items():
        parts[name] = ("rows", list(map(itemgetter(*SCHEMAS[name].names), dicts)))
    return parts


def assemble_tables(games: Sequence[GameParts]) -> dict[str, pa.Table]:
    """Games' parts (see :func:`game_parts`) as one Arrow table each, the games in order.

    Arrow's conversions cost a few microseconds per call whatever their length: a column converted once
    for a batch of games costs much less than once per game.
    """
    out: dict[str, pa.Table] = {}
    for name, schema in SCHEMAS.items():
        kind = games[0][name][0] if games else "rows"
        if kind == "rows":
            rows = [row for g in games for row in g[name][1]]
            out[name] = _rows_table(rows, schema) if rows else _EMPTY[name]
            continue
        parts = [g[name][1] for g in games]
        out[name] = pa.Table.from_arrays(
            [_column([p[col] for p in parts], type_) for col, type_ in _schema_parts(schema)[0]], schema=schema
        )
    return out


_EMPTY = {name: schema.empty_table() for name, schema in SCHEMAS.items()}  # (Arrow tables are immutable)


def _column(parts: list[Any], type_: pa.DataType) -> pa.Array | pa.ChunkedArray:
    """A column's parts (a game's list, numpy array, Arrow array or :class:`_Indexed` each) as one Arrow
    column of ``type_``."""
    if all(type(p) is _Indexed for p in parts):
        return _indexed_column(parts, type_)
    if len(parts) == 1:
        return _one_column(parts[0], type_)
    if all(isinstance(p, (list, tuple)) and type(p) is not _Indexed for p in parts):  # (_Indexed is a tuple)
        return _array(list(chain.from_iterable(parts)), type_)
    if all(isinstance(p, np.ndarray) and p.dtype != object for p in parts):
        return pa.array(np.concatenate(parts), type=type_, from_pandas=False)
    chunks: list[pa.Array] = []
    for p in parts:
        c = _one_column(p, type_)
        chunks.extend(c.chunks if isinstance(c, pa.ChunkedArray) else [c])
    return pa.chunked_array(chunks, type=type_)


def _one_column(c: Any, type_: pa.DataType) -> pa.Array | pa.ChunkedArray:
    if isinstance(c, _ARROW_ARRAYS):
        return c
    if type(c) is _Indexed:
        return _indexed_column([c], type_)
    if isinstance(c, np.ndarray):
        return pa.array(c, type=type_, from_pandas=False)
    return _array(c, type_)


def _indexed_column(parts: list[_Indexed], type_: pa.DataType) -> pa.Array:
    """Games' :class:`_Indexed` parts as one column: their values together, taken at their indexes
    (shifted past the games before)."""
    if len(parts) == 1:
        values, index = parts[0]
    else:
        values = list(chain.from_iterable([p.values for p in parts]))
        offsets = np.cumsum([0, *[len(p.values) for p in parts[:-1]]])
        index = np.concatenate([p.at + off for p, off in zip(parts, offsets, strict=True)])
    if type_ == I32 and len(values):
        try:  # (integers without nulls: numpy's fancy indexing costs less than an Arrow take)
            return pa.array(np.fromiter(values, dtype=np.int32, count=len(values))[index])
        except TypeError:  # a null
            pass
    return pa.array(values, type=type_).take(pa.array(index))


_SCHEMA_PARTS: dict[int, tuple[pa.Schema, list[tuple[str, pa.DataType]], pa.DataType]] = {}


def _schema_parts(schema: pa.Schema) -> tuple[list[tuple[str, pa.DataType]], pa.DataType]:
    """A schema's (name, type) pairs and its struct type, made once: hashing a schema or walking its
    fields makes Arrow objects each time (about 15 us for a table's schema, several times per game)."""
    known = _SCHEMA_PARTS.get(id(schema))
    if known is None or known[0] is not schema:
        if len(_SCHEMA_PARTS) > 256:  # (module-level schemas: a few dozen)
            _SCHEMA_PARTS.clear()
        fields_ = list(schema)
        known = _SCHEMA_PARTS[id(schema)] = (schema, [(f.name, f.type) for f in fields_], pa.struct(fields_))
    return known[1], known[2]


def _rows_table(rows: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    """Rows as tuples in ``schema`` order, as a table: converted by Arrow as one struct array, in one
    call for every column (a few rows cost less so than one conversion per column)."""
    return pa.Table.from_struct_array(pa.array(rows, type=_schema_parts(schema)[1]))


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


def source_game_id(log: GameLog) -> str | None:
    """The source's own id for the game: ``source.game_id``, else ``source.room`` (a server room code)."""
    src = log.source or {}
    for key in ("game_id", "room"):
        if src.get(key) is not None:
            return str(src[key])
    return None


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


# -- the per-action tables, as columns --------------------------------------------------

_DETAIL_JSON: dict[Any, str] = {}
_SOURCES_JSON: dict[Any, str] = {}


def _memo_json(cache: dict[Any, str], key: Any, value: Any) -> str:
    """``value`` as sorted JSON, memoised under ``key`` (which must tell apart values that dump differently)."""
    text = cache.get(key)
    if text is None:
        if len(cache) > 100_000:  # bounded: an ingest worker lives for many games
            cache.clear()
        text = cache[key] = _SORTED_JSON(value)
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
                out[i] = cache[keys[i]] = _SORTED_JSON(details[i])
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
_NO_SOURCES = _SORTED_JSON([])


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
        locations = [_loc(s.tile) for s in a.sales]
        industry = "+".join([before.tiles[s.tile].industry for s in a.sales])
    elif isinstance(a, Shortfall):
        locations = [_loc(t) for t in a.tiles or ()]
    if len(locations) > 1:
        locations = list(dict.fromkeys(locations))
    return card, locations, industry, level


# -- board statistics per seat (turn snapshots) ----------------------------------------------


def _board_statistics(state: GameState) -> list[tuple[Any, ...]]:
    """Per seat, from scratch, the snapshot values that depend only on the board: potential link VP,
    potential tile VP, tiles_on_board, tiles_<industry>..., flipped_tiles, tiles_by_level, links_on_board.

    The reference for :class:`_BoardStatistics`, which keeps the same values up to date incrementally.
    """
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
    out = []
    for seat in seats:
        c = count[seat]
        out.append(
            (
                link_vp[seat],
                0 if over else tile_vp[seat],
                sum(c.values()),
                *c.values(),
                flipped[seat],
                _SORTED_JSON(by_level[seat]),
                links[seat],
            )
        )
    return out


class _BoardStatistics:
    """Every seat's board statistics (as :func:`_board_statistics`), kept up to date from one board to the next.

    Consecutive boards differ by a few tiles and links, so only those are counted again: tiles are
    compared by identity (the engine never changes a tile in place but puts a changed copy in its
    place, see :class:`~brass_stats.engine.state.Tile`), links by owner. A seat's potential link VP is
    the sum, over the locations its links touch, of each location's link icons, so when a location's
    icons change it follows from the number of link ends each seat has there.

    The piece counts (``tiles_on_board`` ... ``links_on_board``) are kept as rows of :attr:`pieces`,
    one new row each time a seat's counts change; :attr:`piece_row` names each seat's current row.
    """

    def __init__(self, rules: RulesData, players: int) -> None:
        self.rules = rules
        self.level = rules.level
        self.seats = range(players)
        self.printed = {loc: info.printed_link_vp for loc, info in rules.locations.items()}
        self.tiles: dict[str, Tile] = {}
        self.links: dict[str, int] = {}
        self.count = [dict.fromkeys(ALL_INDUSTRIES, 0) for _ in self.seats]
        self.flipped = [0] * players
        self.tile_vp = [0] * players
        self.n_links = [0] * players
        self.link_vp = [0] * players
        self.icons: dict[str, int] = {}  # location -> link icons of the flipped tiles there
        self.ends: dict[str, dict[int, int]] = {}  # location -> seat -> that seat's link ends there
        self.pieces: list[tuple[Any, ...]] = []  # tiles_on_board ... links_on_board, one row per change
        self.piece_row = [0] * players
        self._changed: set[int] = set(self.seats)  # seats whose piece counts changed since the last row
        self._levels_json = [_NO_LEVELS] * players  # each seat's tiles_by_level

    def update(self, tiles: dict[str, Tile], links: dict[str, int]) -> None:
        """Move to a new board (``tiles`` and ``links`` are not changed afterwards)."""
        old = self.tiles
        if tiles is not old:
            # the tiles that are not the same objects any more (or new), found without a Python loop
            changed = list(compress(tiles, map(is_not, tiles.values(), map(old.get, tiles))))
            added = 0
            for ref in changed:
                t = tiles[ref]
                was = old.get(ref)
                if was is None:
                    added += 1
                elif was.owner == t.owner and was.industry == t.industry and was.level == t.level:
                    if was.flipped:  # else only its resources changed: nothing counted here
                        if not t.flipped:
                            self._flip(ref, was, -1)
                    elif t.flipped:
                        self._flip(ref, t, 1)
                    continue
                else:
                    self._tile(ref, was, -1)
                self._tile(ref, t, 1)
            if len(old) + added != len(tiles):  # some tiles left the board
                for ref, was in old.items():
                    if ref not in tiles:
                        self._tile(ref, was, -1)
            self.tiles = tiles
        old_links = self.links
        if not links and old_links:  # the end of the Canal Era: every link leaves the board
            for owner in old_links.values():
                self.n_links[owner] -= 1
                self._changed.add(owner)
            self.link_vp = [0] * len(self.link_vp)
            self.ends = {}
            self.links = links
        elif links is not old_links and links != old_links:
            added = 0
            for link_id in list(compress(links, map(ne, links.values(), map(old_links.get, links)))):
                owner = links[link_id]
                had = old_links.get(link_id)
                if had is None:
                    added += 1
                else:
                    self._link(link_id, had, -1)
                self._link(link_id, owner, 1)
            if len(old_links) + added != len(links):
                for link_id, had in old_links.items():
                    if link_id not in links:
                        self._link(link_id, had, -1)
            self.links = links
        if self._changed:
            pieces, levels, flipped, n_links = self.pieces, self._levels_json, self.flipped, self.n_links
            for seat in self._changed:
                c = self.count[seat].values()
                self.piece_row[seat] = len(pieces)
                pieces.append((sum(c), *c, flipped[seat], levels[seat], n_links[seat]))
            self._changed.clear()

    def _tile(self, ref: str, t: Tile, sign: int) -> None:
        """Count a tile onto (+1) or off (-1) the board."""
        seat, industry = t.owner, t.industry
        self.count[seat][industry] += sign
        # the seat's tiles_by_level after the change, memoised by the text before it and the change
        key = (self._levels_json[seat], industry, t.level, sign)
        text = _LEVEL_STEPS.get(key)
        if text is None:
            text = _level_step(*key)
        self._levels_json[seat] = text
        self._changed.add(seat)
        if t.flipped:
            self._flip(ref, t, sign)

    def _flip(self, ref: str, t: Tile, sign: int) -> None:
        """Count a flipped tile's VP and link icons in (+1) or out (-1)."""
        seat = t.owner
        info = self.level(t.industry, t.level)
        self.flipped[seat] += sign
        self.tile_vp[seat] += sign * info.vp
        self._changed.add(seat)
        if info.link_vp:
            loc = ref.partition(":")[0]
            icons = sign * info.link_vp
            self.icons[loc] = self.icons.get(loc, 0) + icons
            ends = self.ends.get(loc)
            if ends:
                link_vp = self.link_vp
                for s, n_ends in ends.items():
                    link_vp[s] += icons * n_ends

    def _link(self, link_id: str, owner: int, sign: int) -> None:
        self.n_links[owner] += sign
        all_ends = self.ends
        printed, icons = self.printed, self.icons
        vp = 0
        for loc in self.rules.links[link_id].connects:
            ends = all_ends.get(loc)
            if ends is None:
                ends = all_ends[loc] = {}
            ends[owner] = ends.get(owner, 0) + sign
            vp += printed[loc] + icons.get(loc, 0)
        self.link_vp[owner] += sign * vp
        self._changed.add(owner)

    def location_link_values(self) -> dict[str, int]:
        """Link icons per location on the current board (as :func:`_location_link_values`)."""
        icons = self.icons
        return {loc: printed + icons.get(loc, 0) for loc, printed in self.printed.items()}

    def rows(self, over: bool) -> list[tuple[Any, ...]]:
        """Per seat, the values of :func:`_board_statistics` for the current board."""
        return [
            (0 if over else self.link_vp[s], 0 if over else self.tile_vp[s], *self.pieces[self.piece_row[s]])
            for s in self.seats
        ]


_NO_LEVELS = _SORTED_JSON({})
_LEVEL_STEPS: dict[tuple[str, str, int, int], str] = {}


def _level_step(text: str, industry: str, level: int, sign: int) -> str:
    """A seat's tiles_by_level (sorted JSON: industry -> level -> tiles) with one tile of ``industry``
    and ``level`` more (``sign`` 1) or less (-1), memoised in :data:`_LEVEL_STEPS`."""
    by_industry = json.loads(text)
    levels = by_industry.setdefault(industry, {})
    key = str(level)
    n = levels.get(key, 0) + sign
    if n:
        levels[key] = n
    else:
        del levels[key]
        if not levels:
            del by_industry[industry]
    if len(_LEVEL_STEPS) > 100_000:  # bounded: an ingest worker lives for many games
        _LEVEL_STEPS.clear()
    out = _LEVEL_STEPS[(text, industry, level, sign)] = _SORTED_JSON(by_industry)
    return out


# -- actions, effects, turn snapshots and board, in one pass over the steps -------------------


def _array(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """Python values as an Arrow array: integer columns without nulls through numpy, twice as fast."""
    if type_ == I32 and values:
        try:
            return pa.array(np.fromiter(values, dtype=np.int32, count=len(values)))
        except TypeError:  # a null: Arrow's own conversion
            pass
    return pa.array(values, type=type_)


def _numbers(values: Sequence[Any]) -> np.ndarray:
    """An integer column as a numpy array (int32, or objects when it holds a null)."""
    try:
        return np.fromiter(values, dtype=np.int32, count=len(values))
    except TypeError:  # a null
        return np.array(values, dtype=object)


_ARROW_ARRAYS = (pa.Array, pa.ChunkedArray)


_HEAD = pa.schema([("era", STR), ("round", I32), ("era_round", I32), ("turn_position", I32)])
_PIECES = pa.schema(  # tiles_on_board ... links_on_board
    [TURN_SNAPSHOTS_SCHEMA.field(name) for name in TURN_SNAPSHOTS_SCHEMA.names[18:-1]]
)
_COUNTS = pa.schema([ACTIONS_SCHEMA.field(name) for name in ACTIONS_SCHEMA.names[13:23]])


def _per_action_tables(replay: Replay, gid: str) -> tuple[GameParts, int]:
    """The actions, effects, turn_snapshots, board and era_scores tables' parts, in one pass over the
    steps; and the number of deviation effects (broken rules the replay tolerated)."""
    steps = replay.steps
    initial = replay.initial
    rules = initial.rules
    n_players = initial.num_players
    seats = range(n_players)
    states: list[GameState] = [s.state for s in steps]  # type: ignore[misc]
    actors = [s.action.player for s in steps]

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
    board = _BoardTable(rules)
    vp_effects: list[tuple[str, Effect]] = []  # (the era of the action, a VP effect)
    era_ends: list[tuple[str, GameState]] = []

    tracker = _BoardStatistics(rules, n_players)
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
    if steps and tracker.rows(over) != _board_statistics(before):
        raise ValueError("board statistics kept from board to board differ from the last board counted from scratch")

    n = len(steps)
    index = np.arange(n, dtype=np.int32)  # (a replay's steps are numbered from 0)
    if n and (steps[0].index != 0 or steps[-1].index != n - 1):
        index = _array([s.index for s in steps], I32).to_numpy()
    era, *numbers = (
        zip(*[(s.era, s.round, s.era_round, s.turn_position) for s in steps], strict=True) if n else ((),) * 4
    )
    head_numbers = [_numbers(c) for c in numbers]  # round, era_round, turn_position
    actor = _numbers(actors)
    end_of_turn = np.fromiter([st.actions_this_turn == 0 for st in states], dtype=np.bool_, count=n)
    card, locations, industry, level = zip(*values, strict=True) if values else ((), (), (), ())
    actions = {
        "game_id": _Indexed((gid,), np.zeros(n, dtype=np.intp)),
        "action_index": index,
        "era": era,
        **dict(zip(_HEAD.names[1:], head_numbers, strict=True)),
        "seat": actor,
        "action_type": [s.action.TYPE for s in steps],
        "end_of_turn": end_of_turn,
        "card": card,
        "locations": locations,
        "industry": industry,
        "level": level,
        **dict(zip(_COUNTS.names, zip(*counts, strict=True) if counts else [()] * len(_COUNTS), strict=True)),
        "resource_sources": sources,
        "action_json": _action_json_column([s.action for s in steps]),
    }

    per_step = [s.effects for s in steps]
    flat = [e for effects_of_step in per_step for e in effects_of_step]
    n_effects = np.fromiter(map(len, per_step), dtype=np.int64, count=n)
    starts = np.cumsum(n_effects) - n_effects
    columns: list[tuple[Any, ...]] = list(zip(*flat, strict=True)) if flat else [()] * 5  # kind ... detail
    effects = {
        "game_id": _Indexed((gid,), np.zeros(len(flat), dtype=np.intp)),
        "action_index": np.repeat(index, n_effects),
        "effect_index": (np.arange(len(flat), dtype=np.int64) - np.repeat(starts, n_effects)).astype(np.int32),
        "actor": np.repeat(actor, n_effects),
        "kind": columns[0],
        "seat": columns[1],
        "amount": columns[2],
        "cause": columns[3],
        "detail": _detail_column(columns[4]),
    }

    # one row per action and seat: the per-action columns repeated, the board statistics taken by index
    players = [p for st in states for p in st.players]
    levels = rules.income_levels
    piece_index = np.fromiter(piece_rows, dtype=np.intp, count=len(piece_rows))
    pieces = zip(*tracker.pieces, strict=True) if tracker.pieces else [()] * len(_PIECES)
    snapshots = {
        "game_id": _Indexed((gid,), np.zeros(n * n_players, dtype=np.intp)),
        "action_index": np.repeat(index, n_players),
        "era": _Indexed(era, np.repeat(index, n_players)),
        **{name: np.repeat(c, n_players) for name, c in zip(_HEAD.names[1:], head_numbers, strict=True)},
        "actor": np.repeat(actor, n_players),
        "end_of_turn": np.repeat(end_of_turn, n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int32), n),
        "order_position": positions,
        "money": [p.money for p in players],
        "income_space": [p.income_space for p in players],
        "income_level": [levels[p.income_space] for p in players],
        "vp": [p.vp for p in players],
        "loans": [p.loans for p in players],
        "cards_in_hand": [len(p.hand) for p in players],
        "potential_link_vp": link_vp,
        "potential_tile_vp": tile_vp,
        **{name: _Indexed(c, piece_index) for name, c in zip(_PIECES.names, pieces, strict=True)},
        "spent_this_round": spent_col,
    }
    parts: GameParts = {
        "actions": ("columns", actions),
        "effects": ("columns", effects),
        "turn_snapshots": ("columns", snapshots),
        "board": ("columns", board.columns(gid)),
        "era_scores": ("rows", _era_scores(gid, n_players, vp_effects, era_ends)),
    }
    return parts, columns[0].count("deviation")


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
    each era's last action (gathered in :func:`_per_action_tables`'s pass over the steps): one row
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


_BOARD_BASE = pa.schema([BOARD_SCHEMA.field(name) for name in BOARD_SCHEMA.names[1:6]])  # era ... before_scoring
_BOARD_PIECE = pa.schema([BOARD_SCHEMA.field(name) for name in BOARD_SCHEMA.names[6:]])  # piece ... vp_if_scored


class _BoardTable:
    """The board table: every piece on the board at the end of each round (and before each era's scoring).

    Most pieces stay the same from one round to the next, so each distinct piece row is built once
    and the table is assembled by index: a round's rows are (round, piece) index pairs.
    """

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        self.rounds: list[tuple[Any, ...]] = []  # era, round, era_round, action_index, before_scoring
        self.pieces: list[tuple[Any, ...]] = []  # piece ... vp_if_scored
        self.rows_of_round: list[int] = []  # how many rows each round has (a round's rows are consecutive)
        self.piece_of_row: list[int] = []
        self._tiles: dict[str, Tile] = {}  # ref -> the tile last seen there
        self._tile_rows: dict[str, int] = {}  # ref -> that tile's piece row
        self._slots: dict[str, tuple[str, int]] = {}  # ref -> (location, slot): the order of the tiles
        self._refs: set[str] = set()  # the last board's tile refs, and their order
        self._order: list[str] = []
        self._others: dict[tuple[Any, ...], int] = {}  # link, merchant and market -> piece row
        self._ends: dict[str, tuple[int, tuple[str, ...]]] = {}  # link id -> printed icons, locations
        # the last mid-era round's links, link icons per location and link rows; merchants and their rows
        self._links: dict[str, int] | None = None
        self._icons: dict[str, int] = {}
        self._last_link_rows: list[int] = []
        self._spaces: list[Any] = []
        self._merchant_rows: list[int] = []
        self._markets: tuple[int, int] | None = None
        self._market_rows: list[int] = []

    def _piece(self, key: tuple[Any, ...], row: tuple[Any, ...]) -> int:
        i = self._others.get(key)
        if i is None:
            i = self._others[key] = len(self.pieces)
            self.pieces.append(row)
        return i

    def add(self, step: Step, st: GameState, current: _BoardStatistics) -> None:
        """The board after ``step``, which ends a round (``current`` holds ``st``'s board statistics)."""
        era_end = st.game_over or st.era != step.era
        self.rounds.append((step.era, step.round, step.era_round, step.index, era_end))
        rows = self.piece_of_row
        start = len(rows)
        if era_end:  # the board as it was just before the era's scoring
            tiles, links = st.era_boards[step.era]
            self._add_tiles(tiles)
            rows.extend(self._link_rows(links, _link_icons(self.rules, tiles)))
        else:
            self._add_tiles(st.tiles)
            # the same link rows as the last round's unless a link or a location's link icons changed
            links = st.links
            if (links is not self._links and links != self._links) or current.icons != self._icons:
                self._links, self._icons = links, dict(current.icons)
                self._last_link_rows = self._link_rows(links, current.icons)
            rows.extend(self._last_link_rows)
        # the merchant tile faces, so a board drawn from the table shows them (merchant spaces are
        # replaced when they change, never changed in place)
        spaces = st.merchant_spaces
        if len(spaces) != len(self._spaces) or any(map(is_not, spaces, self._spaces)):
            self._spaces = list(spaces)
            self._merchant_rows = [
                self._piece(
                    (ms.location, ms.index, ms.face, ms.beer),
                    ("merchant", ms.location, ms.index, None, None, ms.face, None, None, int(ms.beer), 0),
                )
                for ms in spaces
            ]
        rows.extend(self._merchant_rows)
        markets = (st.coal_market, st.iron_market)
        if markets != self._markets:  # cubes left on the markets
            self._markets = markets
            self._market_rows = [
                self._piece((market, cubes), ("market", market, None, None, None, None, None, None, cubes, 0))
                for market, cubes in zip(("coal", "iron"), markets, strict=True)
            ]
        rows.extend(self._market_rows)
        self.rows_of_round.append(len(rows) - start)

    def _add_tiles(self, tiles: dict[str, Tile]) -> None:
        """The tiles' rows, by location then slot.

        Every tile is compared (by identity, without a Python loop): the board statistics see only
        the boards whose version changed, and taking coal or iron from a tile replaces it without a
        new version (a Develop's iron at the end of a round)."""
        if tiles.keys() != self._refs:  # tiles were built or removed: the order again
            slots = self._slots
            for ref in tiles.keys() - slots.keys():
                place, _, number = ref.partition(":")
                slots[ref] = (place, int(number))
            self._order = sorted(tiles, key=slots.__getitem__)
            self._refs = set(tiles)
        order, known, tile_rows = self._order, self._tiles, self._tile_rows
        replaced = list(compress(order, map(is_not, map(tiles.__getitem__, order), map(known.get, order))))
        if replaced:
            level, slots = self.rules.level, self._slots
            for ref in replaced:
                t = tiles[ref]
                loc, slot = slots[ref]
                vp = level(t.industry, t.level).vp if t.flipped else 0
                known[ref] = t
                tile_rows[ref] = len(self.pieces)
                self.pieces.append(("tile", loc, slot, None, t.owner, t.industry, t.level, t.flipped, t.resources, vp))
        self.piece_of_row.extend(map(tile_rows.__getitem__, order))

    def _link_rows(self, links: dict[str, int], icons: dict[str, int]) -> list[int]:
        """The links' rows, by link id (``icons``: link icons of the flipped tiles per location; the
        printed ones are summed once per link)."""
        ends, known, get = self._ends, self._others, icons.get
        out = []
        for link_id in sorted(links):
            end = ends.get(link_id)
            if end is None:
                connects = tuple(self.rules.links[link_id].connects)
                end = ends[link_id] = (sum(self.rules.locations[loc].printed_link_vp for loc in connects), connects)
            vp, connects = end
            for loc in connects:
                vp += get(loc, 0)
            owner = links[link_id]
            key = (link_id, owner, vp)
            i = known.get(key)
            if i is None:
                i = known[key] = len(self.pieces)
                self.pieces.append(("link", None, None, link_id, owner, None, None, None, None, vp))
            out.append(i)
        return out

    def columns(self, gid: str) -> dict[str, Any]:
        # a round's rows are consecutive: its values repeated as many times as it has rows
        of_round = np.fromiter(self.rows_of_round, dtype=np.intp, count=len(self.rows_of_round))
        era, *rest = zip(*self.rounds, strict=True) if self.rounds else ((),) * len(_BOARD_BASE)
        rounds = [
            _Indexed(era, np.repeat(np.arange(len(of_round)), of_round)),
            *[np.repeat(_numbers(c), of_round) for c in rest[:-1]],
            np.repeat(np.array(rest[-1], dtype=bool), of_round),
        ]
        n = len(self.piece_of_row)
        index = np.fromiter(self.piece_of_row, dtype=np.intp, count=n)
        pieces = zip(*self.pieces, strict=True) if self.pieces else [()] * len(_BOARD_PIECE)
        columns = {
            "game_id": _Indexed((gid,), np.zeros(n, dtype=np.intp)),
            **dict(zip(_BOARD_BASE.names, rounds, strict=True)),
            **{name: _Indexed(c, index) for name, c in zip(_BOARD_PIECE.names, pieces, strict=True)},
        }
        return columns


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
