"""Every rule clause the engine can cite has a test that names it."""

from __future__ import annotations

import re
from pathlib import Path

from brass_stats.rulebook import ALL_RULE_IDS, RULEBOOKS

TESTS = Path(__file__).parent


def test_every_rule_id_has_a_test_named_after_it() -> None:
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_\w+)", path.read_text(), flags=re.M))
    missing = [rid for rid in sorted(ALL_RULE_IDS) if not any(rid.replace(".", "_") in n for n in names)]
    assert missing == [], f"rule ids without a test named after them: {missing}"


def test_every_rule_id_raised_by_the_engine_is_in_the_rulebook_catalogue() -> None:
    engine = TESTS.parent / "brass_stats"
    cited = set()
    for path in engine.rglob("*.py"):
        cited.update(re.findall(r'IllegalAction\(\s*"([a-z_]+\.[a-z_]+)"', path.read_text()))
        cited.update(re.findall(r'rule="([a-z_]+\.[a-z_]+)"', path.read_text()))
    assert cited, "the engine cites rules"
    assert cited <= ALL_RULE_IDS, f"cited but not catalogued: {sorted(cited - ALL_RULE_IDS)}"


def test_each_edition_catalogue_quotes_its_own_rulebook() -> None:
    assert RULEBOOKS["lancashire"]["coal.market"].text != RULEBOOKS["birmingham"]["coal.market"].text
    assert "scout.wild_in_hand" not in RULEBOOKS["lancashire"] and "sell.port" not in RULEBOOKS["birmingham"]
