"""The test command of a mutation campaign: run the tests that cover the mutated lines (docs/testing.md).

cosmic-ray writes one mutant into the working tree and runs this script there. It reads the mutated
lines from ``git diff``, looks up in the coverage map (``campaign.py map``) the tests whose run
executed those lines (a line run only at import: every test that ran any line of its file, then the
rest of the wing's tests), and runs them with pytest, fastest first, until their recorded time reaches
the budget; ``-x`` stops at the first failure. Exit status 0: every selected test passed (the mutant
survived); non-zero: killed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from coverage_map import CoverageMap  # noqa: E402

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def mutated_lines(tree: Path) -> dict[str, set[int]]:
    """The lines of the package that the working tree changes, in the committed file's numbering."""
    diff = subprocess.run(
        ["git", "diff", "-U0", "--no-color", "--", "brass_stats"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines: dict[str, set[int]] = {}
    path = ""
    for row in diff.splitlines():
        if row.startswith("--- a/"):
            path = row[len("--- a/") :]
        elif (hunk := HUNK.match(row)) is not None:
            start, count = int(hunk.group(1)), int(hunk.group(2) or "1")
            lines.setdefault(path, set()).update(range(start, start + max(count, 1)))
    return lines


def selected_tests(cover: CoverageMap, changed: dict[str, set[int]], budget: float) -> list[str]:
    """The covering tests, fastest first, within the budget. A line no test runs is run at import (a
    module constant, a default, a decorator): its file's tests come first, then the rest of the wing's,
    each fastest first, as any test may read what the import made."""
    covering: set[str] = set()
    at_import: set[str] = set()
    for path, numbers in changed.items():
        found = cover.tests_of_lines(path, numbers)
        covering |= found
        if not found:
            at_import |= cover.tests_of_file(path)
    groups = [covering | at_import]
    if at_import or not covering:
        groups.append(cover.all_tests() - covering - at_import)
    chosen: list[str] = []
    spent = 0.0
    for group in groups:
        for test in sorted(group, key=lambda t: (cover.duration(t), t)):
            if chosen and spent + cover.duration(test) > budget:
                break
            chosen.append(test)
            spent += cover.duration(test)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", type=Path, required=True, help="the campaign's coverage map folder")
    parser.add_argument("--budget", type=float, default=90.0, help="seconds of recorded test time")
    args = parser.parse_args(argv)
    tree = Path.cwd()
    changed = mutated_lines(tree)
    if not changed:
        print("no mutated line in the working tree: refusing to judge an unmutated tree", file=sys.stderr)
        return 3
    chosen = selected_tests(CoverageMap(args.map), changed, args.budget)
    if not chosen:
        print(f"no test covers {sorted(changed)}: the mutant survives")
        return 0
    env = dict(os.environ, PYTHONPATH=str(tree))  # subprocesses of the tests import the mutant too
    with tempfile.NamedTemporaryFile("w", suffix=".args", delete=False) as listing:
        listing.write("\n".join(chosen) + "\n")
    try:
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts="]
        return subprocess.run([*command, f"@{listing.name}"], cwd=tree, env=env, check=False).returncode
    finally:
        os.unlink(listing.name)


if __name__ == "__main__":
    sys.exit(main())
