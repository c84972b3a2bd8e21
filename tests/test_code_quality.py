"""ruff and mypy stay clean (the project's own configuration in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "brass_stats", "tests", "benchmarks", "notebooks"],
        ["ruff", "format", "--check", "brass_stats", "tests", "benchmarks", "notebooks"],
        ["mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_linters_are_clean(command: list[str]) -> None:
    exe = shutil.which(command[0]) or str(Path(sys.executable).parent / command[0])
    res = subprocess.run([exe, *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
