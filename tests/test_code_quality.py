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


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    quick = readme[readme.index("Install everything the tests need") :]
    block = quick[quick.index("```sh\n") + len("```sh\n") :]
    (command,) = [line for line in block[: block.index("```")].splitlines() if line.strip()]
    return command


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text("utf-8").splitlines() if ln and not ln.startswith("#")]
    assert ci[-1] == _readme_test_command() == "bash tests/run.sh"


def test_the_test_command_installs_chromium_when_it_is_missing(tmp_path: Path) -> None:
    # a machine without Chromium and without apt-get: the script says what to install and stops (exit 2)
    # before installing anything; with apt-get (Debian, Ubuntu) it installs the package (read below)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in ("bash", "dirname", "id", "cat"):
        if found := shutil.which(tool):
            (bindir / tool).symlink_to(found)
    res = subprocess.run(
        ["bash", str(ROOT / "tests" / "run.sh")],
        env={"PATH": str(bindir)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "need Chromium" in res.stderr
    script = (ROOT / "tests" / "run.sh").read_text("utf-8")
    assert "apt-get install -y -qq chromium" in script and "python3 -m pytest -n auto" in script
