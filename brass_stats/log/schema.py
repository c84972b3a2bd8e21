"""The JSON Schema (draft 2020-12) of the game-log format, version 1, shipped as package data.

>>> s = schema()
>>> s["properties"]["format_version"]["const"]
1
>>> from jsonschema import Draft202012Validator
>>> from brass_stats.log.format import GameLog
>>> Draft202012Validator(s).is_valid(GameLog.new(["Ann", "Bob"], seed=42).to_json())
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _text() -> str:
    return resources.files(__package__).joinpath("schema.json").read_text("utf-8")


def schema() -> dict[str, Any]:
    """The schema as a new dict on each call (callers may change their copy freely)."""
    data: dict[str, Any] = json.loads(_text())
    return data
