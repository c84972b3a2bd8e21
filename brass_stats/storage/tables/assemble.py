"""Per-batch Arrow assembly: games' columns and rows, converted to Arrow once per batch, not per game.

Each game's tables are first built as plain columns (:data:`GameParts`, by :func:`.game.game_parts`);
:func:`assemble_tables` converts a batch of them to one Arrow table per table name. A game's few
distinct values (its id, its board pieces) travel as :class:`Indexed` and are converted once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, Literal, NamedTuple

import numpy as np
import pyarrow as pa

from .schemas import I32, SCHEMAS

#: One game's tables before Arrow: per table, its columns (name -> a list, a numpy array, an Arrow
#: array or an :class:`Indexed`) or its rows (tuples in the schema's order).
GameParts = dict[str, tuple[Literal["columns", "rows"], Any]]


class Indexed(NamedTuple):
    """A column given as ``values`` taken at ``at`` (positions in ``values``): a game's few distinct
    values (its id, its board pieces) converted to Arrow and taken once per batch, not once per game
    (each Arrow call costs a few microseconds whatever its length)."""

    values: Sequence[Any]
    at: np.ndarray  # (integers)


def assemble_tables(games: Sequence[GameParts]) -> dict[str, pa.Table]:
    """Games' parts (see :func:`.game.game_parts`) as one Arrow table each, the games in order.

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
    """A column's parts (a game's list, numpy array, Arrow array or :class:`Indexed` each) as one Arrow
    column of ``type_``."""
    if all(type(p) is Indexed for p in parts):
        return _indexed_column(parts, type_)
    if len(parts) == 1:
        return _one_column(parts[0], type_)
    if all(isinstance(p, (list, tuple)) and type(p) is not Indexed for p in parts):  # (Indexed is a tuple)
        return arrow_array(list(chain.from_iterable(parts)), type_)
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
    if type(c) is Indexed:
        return _indexed_column([c], type_)
    if isinstance(c, np.ndarray):
        return pa.array(c, type=type_, from_pandas=False)
    return arrow_array(c, type_)


def _indexed_column(parts: list[Indexed], type_: pa.DataType) -> pa.Array:
    """Games' :class:`Indexed` parts as one column: their values together, taken at their indexes
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


def arrow_array(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """Python values as an Arrow array: integer columns without nulls through numpy, twice as fast."""
    if type_ == I32 and values:
        try:
            return pa.array(np.fromiter(values, dtype=np.int32, count=len(values)))
        except TypeError:  # a null: Arrow's own conversion
            pass
    return pa.array(values, type=type_)


def int_numpy(values: Sequence[Any]) -> np.ndarray:
    """An integer column as a numpy array (int32, or objects when it holds a null)."""
    try:
        return np.fromiter(values, dtype=np.int32, count=len(values))
    except TypeError:  # a null
        return np.array(values, dtype=object)


_ARROW_ARRAYS = (pa.Array, pa.ChunkedArray)
