"""ruff and mypy stay clean (the project's own configuration in pyproject.toml), and module-private
names stay private: no module of the package imports an underscore name from another one."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "brass_stats"


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
    assert ci[-1] == _readme_test_command() == "bash tests/setup.sh && python3 -m pytest -n auto"


def test_the_test_command_installs_chromium_when_it_is_missing(tmp_path: Path) -> None:
    # a machine without Chromium and without apt-get: the script says what to install and stops (exit 2)
    # before installing anything; with apt-get (Debian, Ubuntu) it installs the package (read below)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in ("bash", "dirname", "id", "cat"):
        if found := shutil.which(tool):
            (bindir / tool).symlink_to(found)
    res = subprocess.run(
        ["bash", str(ROOT / "tests" / "setup.sh")],
        env={"PATH": str(bindir)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "need Chromium" in res.stderr
    script = (ROOT / "tests" / "setup.sh").read_text("utf-8")
    assert "apt-get install -y -qq chromium" in script and "pip install -q -e '.[dev]'" in script


def _module_name(path: Path) -> str:
    """``brass_stats/a/b.py`` -> ``brass_stats.a.b``; a package's ``__init__.py`` -> the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _private_imports(source: str, module: str, is_package: bool) -> list[tuple[int, str, str]]:
    """(line, imported module, name) for each ``from brass_stats... import _name`` in ``source``
    (relative imports resolved from ``module``); dunder names (``__version__``) are not private."""
    found = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            imported = ".".join(base + ([node.module] if node.module else []))
        else:
            imported = node.module or ""
        if imported.split(".")[0] != "brass_stats":
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append((node.lineno, imported, alias.name))
    return found


def test_private_imports_are_found() -> None:
    source = "from .b import _x, y\nfrom ..c import _z\nfrom os import _exit\nfrom . import __version__\n"
    assert _private_imports(source, "brass_stats.p.a", False) == [
        (1, "brass_stats.p.b", "_x"),
        (2, "brass_stats.c", "_z"),
    ]
    assert _private_imports("from .b import _x\n", "brass_stats.p", True) == [(1, "brass_stats.p.b", "_x")]


def test_no_module_imports_a_private_name_of_another() -> None:
    """A name that starts with ``_`` belongs to its module: one that another module needs is part of
    its package's internal surface and gets a public name (or the code that needs it moves)."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        for line, imported, name in _private_imports(path.read_text("utf-8"), module, path.name == "__init__.py"):
            wrong.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {name} from {imported}")
    assert not wrong, "modules that import another module's private names (give them a public name):\n" + (
        "\n".join(wrong)
    )
