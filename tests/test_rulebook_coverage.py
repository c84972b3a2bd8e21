"""Every rule clause the engine can cite has a test that names it."""

from __future__ import annotations

import re
from pathlib import Path

from brass_stats.engine.rulebook import RULES

TESTS = Path(__file__).parent


def test_every_rule_id_has_a_test_named_after_it() -> None:
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_\w+)", path.read_text(), flags=re.M))
    missing = [rid for rid in RULES if not any(rid.replace(".", "_") in n for n in names)]
    assert missing == [], f"rule ids without a test named after them: {missing}"


def test_every_rule_id_raised_by_the_engine_is_in_the_rulebook_catalogue() -> None:
    engine = TESTS.parent / "brass_stats"
    cited = set()
    for path in engine.rglob("*.py"):
        cited.update(re.findall(r'IllegalAction\(\s*"([a-z_]+\.[a-z_]+)"', path.read_text()))
        cited.update(re.findall(r'rule="([a-z_]+\.[a-z_]+)"', path.read_text()))
    assert cited, "the engine cites rules"
    assert cited <= set(RULES), f"cited but not catalogued: {sorted(cited - set(RULES))}"
