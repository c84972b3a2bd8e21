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

from ..codegen import predicate


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
def _validators(
    max_length: int | None,
) -> tuple[Callable[[Any], Any], dict[str, Callable[[Any], Any]], dict[str, Callable[[Any], bool]]]:
    """(the log without its actions, one validator per action type, one quick test per action type).

    Actions are checked by their own ``type``'s definition rather than through the schema's
    ``oneOf`` (which tries all eight): the same verdict, four times faster. The quick tests
    (:class:`_QuickTest`) pass every well-formed action of the sample games at 40% of the validator's cost; an
    action they do not pass goes to the validator, which decides and words the error.
    """
    base = _as_draft7(schema(), max_length)
    top = copy.deepcopy(base)
    top["properties"]["actions"] = {"type": "array", "items": {"type": "object", "required": ["type", "player"]}}
    per_type = {}
    quick: dict[str, Callable[[Any], bool]] = {}
    for ref in schema()["$defs"]["action"]["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[-1]
        sub = {"$defs": base["$defs"], "$ref": ref["$ref"]}
        kind = base["$defs"][name]["properties"]["type"]["const"]
        per_type[kind] = fastjsonschema.compile(sub)
        quick[kind] = _QuickTest(base["$defs"]).compile({"$ref": ref["$ref"]}, f"a {kind} action")
    for name in ("seeded_chance", "explicit_chance"):
        per_type[name] = fastjsonschema.compile({"$defs": base["$defs"], "$ref": f"#/$defs/{name}"})
    return fastjsonschema.compile(top), per_type, quick


# -- quick tests: a subset of the schema's meaning, never wider ---------------------------------------
#
# A quick test is one Python expression per action type, generated from the schema and compiled once. It is
# True only for values the schema accepts; it may say False for some it accepts, and those go to
# fastjsonschema, which decides (and words the error). So each keyword is read strictly: exact JSON types
# (an integer is an int, never 1.0 or True), a const or enum equal *and* of the same type, a pattern only
# on strings without a newline (``$`` matches before one), unique items only among strings and integers,
# and any keyword not in _KEYWORDS (oneOf, ...) makes the node's test False. tests/test_log_schema_quick.py
# checks "quick => valid" on mutated actions, and that every action of the sample games passes quickly.

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
_KEYWORDS = frozenset(
    {
        *("$ref", "allOf", "type", "const", "enum", "pattern", "maxLength", "minLength", "minimum", "maximum"),
        *("items", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties"),
        "propertyNames",
    }
)
_IGNORED = frozenset({"description", "title", "$comment", "$defs"})


class _QuickTest:
    """Builds the expression of a schema node for a value named by a Python expression."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.names: dict[str, Any] = {}  # constants the expressions use
        self.depth = 0

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.names)}"
        self.names[name] = value
        return name

    def compile(self, node: Any, what: str = "a schema node") -> Callable[[Any], bool]:
        """The quick test of ``node``, a function of one value (``what`` names it in tracebacks)."""
        return predicate(self.expr(node, "v", 0), self.names, origin=f"log.schema: quick test of {what}")

    def expr(self, node: Any, x: str, refs: int) -> str:
        if node is True or node == {}:
            return "True"
        if not isinstance(node, dict) or set(node) - _KEYWORDS - _IGNORED or refs > 20:
            return "False"
        parts: list[str] = []
        if "$ref" in node:
            ref = node["$ref"]
            name = ref.rsplit("/", 1)[-1]
            if not ref.startswith("#/$defs/") or name not in self.defs:
                return "False"
            parts.append(self.expr(self.defs[name], x, refs + 1))
        parts.extend(self.expr(sub, x, refs) for sub in node.get("allOf", ()))
        kinds: tuple[type, ...] | None = None
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            if any(n not in _JSON_TYPES for n in names):
                return "False"
            kinds = tuple(t for n in names for t in _JSON_TYPES[n])
            one = len(kinds) == 1
            parts.append(f"type({x}) is {self.constant(kinds[0])}" if one else f"type({x}) in {self.constant(kinds)}")
        if "const" in node:
            c = node["const"]
            parts.append(f"(type({x}) is {self.constant(type(c))} and {x} == {self.constant(c)})")
        if "enum" in node:
            options = tuple(node["enum"])
            if all(type(o) is str for o in options):
                parts.append(f"(type({x}) is str and {x} in {self.constant(frozenset(options))})")
            else:
                parts.append(f"any(type({x}) is type(o) and {x} == o for o in {self.constant(options)})")
        for kind, checks in (
            (str, self._string(node, x)),
            ((int, float), self._number(node, x)),
            (list, self._array(node, x, refs)),
            (dict, self._object(node, x, refs)),
        ):
            if not checks:
                continue
            accepted = kind if isinstance(kind, tuple) else (kind,)
            if kinds is not None and not set(kinds) & set(accepted):
                continue  # these keywords never apply to the node's type
            body = " and ".join(checks)
            if kinds is not None and set(kinds) <= set(accepted):
                parts.append(f"({body})")  # the type test above holds already
            elif isinstance(kind, tuple):
                parts.append(f"(type({x}) not in {self.constant(kind)} or ({body}))")
            else:
                parts.append(f"(type({x}) is not {self.constant(kind)} or ({body}))")
        return "(" + " and ".join(parts) + ")" if parts else "True"

    def _string(self, node: dict[str, Any], x: str) -> list[str]:
        out = []
        if "pattern" in node:
            out.append(f"'\\n' not in {x} and {self.constant(re.compile(node['pattern']).search)}({x}) is not None")
        if "maxLength" in node:
            out.append(f"len({x}) <= {int(node['maxLength'])}")
        if "minLength" in node:
            out.append(f"len({x}) >= {int(node['minLength'])}")
        return out

    def _number(self, node: dict[str, Any], x: str) -> list[str]:
        out = []
        for key, op in (("minimum", ">="), ("maximum", "<=")):
            if key in node:
                out.append(f"{x} {op} {self.constant(node[key])}")
        return out

    def _array(self, node: dict[str, Any], x: str, refs: int) -> list[str]:
        out = []
        items = node.get("items")
        self.depth += 1
        item = f"i{self.depth}"
        if isinstance(items, list):  # the first items by position (prefixItems), any more allowed
            for k, sub in enumerate(items):
                out.append(f"(len({x}) <= {k} or {self.expr(sub, f'{x}[{k}]', refs)})")
        elif items is not None:
            out.append(f"all({self.expr(items, item, refs)} for {item} in {x})")
        if "minItems" in node:
            out.append(f"len({x}) >= {int(node['minItems'])}")
        if "maxItems" in node:
            out.append(f"len({x}) <= {int(node['maxItems'])}")
        if node.get("uniqueItems"):  # among strings and integers alone, Python's equality is JSON's
            out.append(f"all(type({item}) in (str, int) for {item} in {x}) and len(set({x})) == len({x})")
        return out

    def _object(self, node: dict[str, Any], x: str, refs: int) -> list[str]:
        out = []
        properties = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        if extra is False:
            out.append(f"{self.constant(frozenset(properties))}.issuperset({x})")
        elif extra is not True:
            self.depth += 1
            key = f"k{self.depth}"
            known = self.constant(frozenset(properties))
            out.append(f"all({key} in {known} or {self.expr(extra, f'{x}[{key}]', refs)} for {key} in {x})")
        out.extend(f"{k!r} in {x}" for k in node.get("required", ()))
        required = set(node.get("required", ()))
        for k, sub in properties.items():
            test = self.expr(sub, f"{x}[{k!r}]", refs)
            if test != "True":
                out.append(test if k in required else f"({k!r} not in {x} or {test})")
        if "propertyNames" in node:
            self.depth += 1
            key = f"k{self.depth}"
            out.append(f"all({self.expr(node['propertyNames'], key, refs)} for {key} in {x})")
        return out


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
    top, per_type, quick = _validators(max_string_length)
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
        kind = action["type"]
        passes = quick.get(kind) if type(kind) is str else None
        if passes is not None and passes(action):
            continue
        validate = per_type.get(kind) if isinstance(kind, str) else None
        if validate is None or kind.endswith("_chance"):
            return f"actions[{i}].type", "must be one of build, network, develop, sell, loan, scout, pass, shortfall"
        try:
            validate(action)
        except fastjsonschema.JsonSchemaValueException as e:
            return _split(e, f"actions[{i}]")
    return None
