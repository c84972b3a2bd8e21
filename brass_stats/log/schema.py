"""The JSON Schema (draft 2020-12) of the game-log format, version 1, shipped as package data.

The reader (:meth:`brass_stats.log.format.GameLog.from_json`) enforces this schema on every log
it loads, so the schema and the reader cannot drift apart: :func:`check` runs a compiled
validator (fastjsonschema) built from ``schema.json`` itself.

>>> s = schema()
>>> s["properties"]["format_version"]["const"]
1
>>> from jsonschema import Draft202012Validator
>>> from brass_stats.log.format import GameLog
>>> Draft202012Validator(s).is_valid(GameLog.new(["Ann", "Bob"], seed=42).to_json())
True
>>> check(GameLog.new(["Ann", "Bob"], seed=42).to_json()) is None
True
>>> check({"format": "brass-stats-log"})
('format_version', 'must contain a required field: format_version')
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import fastjsonschema


@cache
def _text() -> str:
    return resources.files(__package__).joinpath("schema.json").read_text("utf-8")


def schema() -> dict[str, Any]:
    """The schema as a new dict on each call (callers may change their copy freely)."""
    data: dict[str, Any] = json.loads(_text())
    return data


def _as_draft7(node: Any, max_length: int | None = None) -> Any:
    """The same schema in the draft-07 dialect that fastjsonschema compiles, plus the reader's string limit.

    Two rewrites keep the meaning: ``prefixItems`` becomes the array form of ``items``, and a
    ``$ref`` with sibling keywords (ignored beside ``$ref`` in draft 7) becomes ``allOf``. With
    ``max_length``, every string the schema describes gets that ``maxLength``.
    """
    if isinstance(node, list):
        return [_as_draft7(v, max_length) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _as_draft7(v, max_length) for k, v in node.items() if k not in ("$schema", "description", "title")}
    if max_length is not None and (out.get("type") == "string" or "pattern" in out):
        out["maxLength"] = max_length
    if "prefixItems" in out:
        out["items"] = out.pop("prefixItems")
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out = {"allOf": [{"$ref": ref}, out]}
    return out


@cache
def _validators(max_length: int | None) -> tuple[Callable[[Any], Any], dict[str, Callable[[Any], Any]]]:
    """(the log without its actions, one validator per action type).

    Actions are checked by their own ``type``'s definition rather than through the schema's
    ``oneOf`` (which tries all eight): the same verdict, four times faster.
    """
    base = _as_draft7(schema(), max_length)
    top = copy.deepcopy(base)
    top["properties"]["actions"] = {"type": "array", "items": {"type": "object", "required": ["type", "player"]}}
    per_type = {}
    for ref in schema()["$defs"]["action"]["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[-1]
        sub = {"$defs": base["$defs"], "$ref": ref["$ref"]}
        per_type[base["$defs"][name]["properties"]["type"]["const"]] = fastjsonschema.compile(sub)
    for name in ("seeded_chance", "explicit_chance"):
        per_type[name] = fastjsonschema.compile({"$defs": base["$defs"], "$ref": f"#/$defs/{name}"})
    return fastjsonschema.compile(top), per_type


_DATA_PATH = re.compile(r"^data(\.|(?=\[)|$)")


def _split(e: fastjsonschema.JsonSchemaValueException, prefix: str = "") -> tuple[str, str]:
    """(where, why) from fastjsonschema's ``data.a.b[3] must ...`` message."""
    msg = e.message
    name, _, why = msg.partition(" ")
    where = _DATA_PATH.sub("", name)
    if prefix:
        where = prefix + ("." + where if where and not where.startswith("[") else where)
    if e.rule == "maxLength" and isinstance(e.value, str):
        why = (
            f"a string of {len(e.value)} characters is over the limit of {e.rule_definition} "
            "(BRASS_STATS_MAX_STRING_LENGTH)"
        )
    if e.rule == "required" and e.rule_definition:
        missing = [k for k in e.rule_definition if not isinstance(e.value, dict) or k not in e.value]
        if missing:
            why = f"must contain a required field: {missing[0]}"
            where = f"{where}.{missing[0]}" if where else missing[0]
    return where, why


def check(data: Any, max_string_length: int | None = None) -> tuple[str, str] | None:
    """``None`` if ``data`` matches the schema (and strings are at most ``max_string_length`` long),
    else (where, why) of the first mismatch found."""
    top, per_type = _validators(max_string_length)
    try:
        top(data)
    except fastjsonschema.JsonSchemaValueException as e:
        chance = data.get("chance") if isinstance(data, dict) else None
        if e.rule == "oneOf" and e.name == "data.chance" and isinstance(chance, dict):
            # "matches neither kind of chance" says little: check it as the kind it looks like
            try:
                per_type["seeded_chance" if "seed" in chance else "explicit_chance"](chance)
            except fastjsonschema.JsonSchemaValueException as inner:
                return _split(inner, "chance")
        return _split(e)
    for i, action in enumerate(data["actions"]):
        validate = per_type.get(action["type"]) if isinstance(action["type"], str) else None
        if validate is None or action["type"].endswith("_chance"):
            return f"actions[{i}].type", "must be one of build, network, develop, sell, loan, scout, pass, shortfall"
        try:
            validate(action)
        except fastjsonschema.JsonSchemaValueException as e:
            return _split(e, f"actions[{i}]")
    return None
