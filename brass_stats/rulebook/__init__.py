"""The rule clauses the engine enforces, each with an id and the rulebook's words, per edition.

An :class:`~brass_stats.errors.IllegalAction` names one of these ids, so a
validator can print exactly which rule an action breaks. The clauses are data
(``<edition>.json`` beside this module); every id has a test named after it, checked by
``tests/test_rulebook_coverage.py``.

>>> RULES["loan.limit"].text
'You cannot take a loan if it will take your income level below -10.'
>>> rule_text("sell.port", "lancashire")[:30]
'You may sell cotton to an unfl'
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
    raw = json.loads(resources.files(__package__).joinpath(f"{edition}.json").read_text("utf-8"))
    return {r["id"]: Rule(r["id"], r["section"], r["text"]) for r in raw["rules"]}


RULEBOOKS: dict[str, dict[str, Rule]] = {edition: _load(edition) for edition in ("birmingham", "lancashire")}
RULES: dict[str, Rule] = RULEBOOKS["birmingham"]
ALL_RULE_IDS: frozenset[str] = frozenset(rid for book in RULEBOOKS.values() for rid in book)


def rule_text(rule: str, edition: str = "birmingham") -> str:
    """The rulebook's words for a rule id in an edition (falling back to any edition that has it)."""
    for book in (RULEBOOKS.get(edition, {}), *RULEBOOKS.values()):
        if rule in book:
            return book[rule].text
    return ""
