"""The rule clauses the engine enforces, each with an id and the rulebook's words.

An :class:`~brass_stats.errors.IllegalAction` names one of these ids, so a
validator can print exactly which rule an action breaks. The clauses are data
(``rulebook_birmingham.json``); every id has a test named after it, checked by
``tests/test_rulebook_coverage.py``.

>>> RULES["loan.limit"].text
'You cannot take a loan if it will take your income level below -10.'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    text: str


def _load(edition: str) -> dict[str, Rule]:
    raw = json.loads(resources.files(__package__).joinpath(f"rulebook_{edition}.json").read_text("utf-8"))
    return {r["id"]: Rule(r["id"], r["section"], r["text"]) for r in raw["rules"]}


RULES: dict[str, Rule] = _load("birmingham")
