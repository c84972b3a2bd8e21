"""Which tests run which lines of the package: the coverage map of the mutation campaigns.

A wing's map folder holds coverage.py data files written with per-test contexts (pytest-cov's
``--cov-context=test``), each beside a JSON file naming the test files it ran and their tests'
durations. A later data file replaces an earlier one for the test files they share, so a new or changed
test file is mapped on its own (``campaign.py map tests/test_x.py``) instead of the whole suite again.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from coverage import CoverageData

PHASES = ("|setup", "|run", "|teardown")


def test_id(context: str) -> str | None:
    """pytest's node id of a coverage context, or None for code run outside a test (imports)."""
    for phase in PHASES:
        if context.endswith(phase):
            return context[: -len(phase)]
    return None


class CoverageMap:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        parts = sorted(folder.glob("*.json"))
        if not parts:
            raise SystemExit(f"{folder}: no coverage map; run `python tests/mutation/campaign.py map`")
        self.parts: list[tuple[CoverageData, set[str]]] = []
        self.durations: dict[str, float] = {}
        for index, meta_path in enumerate(parts):
            meta = json.loads(meta_path.read_text())
            later = {f for p in parts[index + 1 :] for f in json.loads(p.read_text())["test_files"]}
            data = CoverageData(basename=str(meta_path.with_suffix(".sqlite")))
            data.read()
            self.parts.append((data, later))
            self.durations.update(meta["durations"])
        known = folder.parent / "known-tests.txt"  # what the campaign's tree collects (campaign.py)
        self.known = set(known.read_text().split("\n")) if known.exists() else None

    def duration(self, test: str) -> float:
        return self.durations.get(test, 1.0)

    @cache  # noqa: B019 (one map a process)
    def _lines(self, path: str) -> dict[int, frozenset[str]]:
        merged: dict[int, set[str]] = {}
        for data, replaced in self.parts:
            for measured in data.measured_files():
                if not measured.endswith("/" + path):
                    continue
                for line, contexts in data.contexts_by_lineno(measured).items():
                    for context in contexts:
                        test = test_id(context)
                        if test is None or test.split("::")[0] in replaced or test not in self.durations:
                            continue  # import time, a file mapped again later, or a test that did not pass
                        if self.known is None or test in self.known:
                            merged.setdefault(line, set()).add(test)
        return {line: frozenset(tests) for line, tests in merged.items()}

    def tests_of_lines(self, path: str, lines: set[int]) -> set[str]:
        found: set[str] = set()
        for line in lines:
            found |= self._lines(path).get(line, frozenset())
        return found

    def all_tests(self) -> set[str]:
        """Every test of the map that passed and that the campaign's tree still has."""
        return {t for t in self.durations if self.known is None or t in self.known}

    def tests_of_file(self, path: str) -> set[str]:
        return set().union(*self._lines(path).values())
