"""The log schema's quick tests (brass_stats/log/schema.py): never wider than the schema, and used.

A quick test lets a well-formed action skip fastjsonschema's validator; an action it does not pass
goes to the validator, which decides and words the error. So the one property that matters is
"quick => valid", checked here against the validator on mutated actions, plus: every action of the
sample games passes quickly, and ``check`` gives the verdict and message that the validators alone give.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import fastjsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brass_stats.log import schema as log_schema

REPLAYS = Path(__file__).resolve().parents[1] / "replays"


@cache
def _sample_actions() -> list[dict[str, Any]]:
    actions = []
    for path in sorted(REPLAYS.rglob("*.json")):
        actions.extend(json.loads(path.read_text("utf-8"))["actions"])
    return actions


@cache
def _a_log() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(next(iter(sorted(REPLAYS.rglob("*.json")))).read_text("utf-8"))
    return data


@cache
def _strings() -> list[str]:
    seen = sorted({v for a in _sample_actions() for v in _leaves(a) if isinstance(v, str)})
    return seen + [s + "\n" for s in seen[:20]] + [s.upper() for s in seen[:20]] + ["", "loc:", ":1", "x:1:2"]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


@cache
def _keys() -> list[str]:
    return sorted({k for a in _sample_actions() for k in _all_keys(a)}) + ["junk"]


def _all_keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return list(value) + [k for v in value.values() for k in _all_keys(v)]
    if isinstance(value, list):
        return [k for v in value for k in _all_keys(v)]
    return []


@cache
def _json_values() -> st.SearchStrategy[Any]:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-3, 120)
        | st.sampled_from([0.0, 1.0, 2.0, 0.5, -1.0, 1e300])
        | st.sampled_from(_strings())
        | st.text(max_size=6)
    )
    keys = st.sampled_from(_keys())
    return st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
        max_leaves=6,
    )


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside an action (the action itself excluded) that a mutation can replace."""
    out = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for k, v in items:
        out.append((*here, k))
        out.extend(_paths(v, (*here, k)))
    return out


@st.composite
def _mutated_actions(draw: st.DrawFn) -> dict[str, Any]:
    action = copy.deepcopy(draw(st.sampled_from(_sample_actions())))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(action)
        how = draw(st.sampled_from(["replace", "delete", "add", "retype"]))
        if how == "retype":
            action["type"] = draw(st.sampled_from(sorted(log_schema._validators(None)[2])))
            continue
        if how == "add" or not paths:
            holders = [p for p in paths if isinstance(_at(action, p), dict)]
            where = draw(st.sampled_from([(), *holders]))
            _at(action, where)[draw(st.sampled_from(_keys()))] = draw(_json_values())
            continue
        path = draw(st.sampled_from(paths))
        parent = _at(action, path[:-1])
        if how == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(_json_values())
    return action


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def _valid(action: dict[str, Any], max_length: int | None = None) -> bool:
    _, per_type, _ = log_schema._validators(max_length)
    try:
        per_type[action["type"]](action)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def test_every_sample_action_passes_the_quick_test() -> None:
    """Otherwise the quick tests would save nothing (and 'quick => valid' would hold trivially)."""
    _, _, quick = log_schema._validators(None)
    actions = _sample_actions()
    assert len(actions) > 4000
    assert {a["type"] for a in actions} >= {"build", "network", "develop", "sell", "loan", "scout", "pass"}
    assert [a for a in actions if not quick[a["type"]](a)] == []


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated_actions())
def test_quick_test_never_passes_an_action_the_schema_rejects(action: dict[str, Any]) -> None:
    _, _, quick = log_schema._validators(None)
    if isinstance(action.get("type"), str) and action["type"] in quick and quick[action["type"]](action):
        assert _valid(action), action


@pytest.mark.parametrize(
    "change",
    [
        lambda a: a.update(player=True),  # a bool is no integer in JSON
        lambda a: a.update(player=1.0),  # the schema takes 1.0 as an integer: the validator decides
        lambda a: a.update(card=a["card"] + "\n"),  # '$' matches before a final newline
        lambda a: a.update(extra=1),
        lambda a: a.pop("card"),
        lambda a: a.update(type="build"),
    ],
)
def test_quick_test_leaves_the_doubtful_cases_to_the_validator(change: Any) -> None:
    """Values where Python's reading and JSON Schema's can differ fail the quick test, whatever the
    schema says of them (the validator then decides)."""
    _, _, quick = log_schema._validators(None)
    action = copy.deepcopy(next(a for a in _sample_actions() if a["type"] == "loan"))
    assert quick["loan"](action)
    change(action)
    assert not quick["loan"](action)


def test_quick_test_keeps_the_string_limit() -> None:
    _, _, quick = log_schema._validators(8)
    action = copy.deepcopy(next(a for a in _sample_actions() if a["type"] == "build" and len(a["location"]) > 8))
    assert not quick["build"](action)
    assert not _valid(action, 8)


def _check_without_quick_tests(data: Any) -> tuple[str, str] | None:
    """``check`` as it was before the quick tests: every action through its validator."""
    top, per_type, _ = log_schema._validators(None)
    with mock.patch.object(log_schema, "_validators", lambda max_length: (top, per_type, {})):
        return log_schema.check(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_mutated_actions(), min_size=1, max_size=3), st.integers(0, 30))
def test_check_gives_the_verdict_and_message_of_the_validators(mutated: list[dict[str, Any]], at: int) -> None:
    data = copy.deepcopy(_a_log())
    data["actions"] = data["actions"][:at] + mutated + data["actions"][at:]
    assert log_schema.check(data) == _check_without_quick_tests(data)


_VALUES = [None, True, False, 0, 1, 3, 1.0, 2.5, -1, "", "a", "a\n", "ab", "A"]
_VALUES += [[], [1], [1, 1], [True, 1], ["a", "b"], {}, {"a": 1}, {"a": 1.5}, {"b": 1}]


@pytest.mark.parametrize(
    "node",
    [
        {"type": "null"},
        {"const": None},
        {"const": 1},
        {"enum": [1, "a", None]},
        {"type": ["string", "null"], "pattern": "^a$"},
        {"type": "number", "minimum": 0, "maximum": 2},
        {"minimum": 1},
        {"maxLength": 1},
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True, "maxItems": 1},
        {"type": "array", "items": [{"type": "integer"}, {"type": "string"}]},
        {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
        {"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"pattern": "^a"}},
        {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        {"not": {"type": "integer"}},
    ],
)
def test_quick_test_of_any_node_is_never_wider_than_the_validator(node: dict[str, Any]) -> None:
    """The generator on keywords and combinations the log schema does not use (yet): "quick => valid"
    for values of every JSON type; keywords it does not know (oneOf, not) give a test that is always False."""
    quick = log_schema._QuickTest({}).compile(node)
    validate = fastjsonschema.compile(node)
    for value in _VALUES:
        if quick(value):
            validate(value)  # raises if the quick test was wider
    if set(node) & {"oneOf", "not"}:
        assert not any(quick(v) for v in _VALUES)
    else:
        assert any(quick(v) for v in _VALUES)
