"""The package's layers hold: checked over its import graph (grimp), not claimed.

The layers, bottom first, are the ``layers`` contract of ``[tool.importlinter]`` in pyproject.toml
(one list for import-linter and for these tests): base modules (the rulebook's words, exit codes,
generated code, the samples' path), errors, task running (local processes or Dask), rules data,
engine, log, replay, validation, storage, bots, analysis, presentation, cli. The facade
``brass_stats/__init__.py`` sits above them all.

* a module imports only its own layer or lower ones; a base module imports nothing from the package
  (every import counts: at the top, inside a function, under ``if TYPE_CHECKING:``);
* no circle of imports between modules (function-local imports count; imports under
  ``if TYPE_CHECKING:`` do not, as they never run: two modules of one layer may name each other's
  types, e.g. a replay's ``Step`` and the notation that describes one);
* no module inside the package imports the package root ``brass_stats`` (the facade);
* no module is longer than 600 lines unless :data:`LONG_MODULES` says why it is one idea.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

grimp = pytest.importorskip("grimp")

import brass_stats  # noqa: E402 (after the skip: the graph is of the package this imports)

ROOT = Path(__file__).parents[1]
PACKAGE = Path(brass_stats.__file__).parent
MAX_LINES = 600
LONG_MODULES: dict[str, str] = {
    # "brass_stats/x.py": "why it is one idea",
}


def _layers() -> list[list[str]]:
    """The layers of the import-linter contract, bottom first, each as its modules' full names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    (container,) = contract["containers"]
    return [
        [f"{container}.{name.strip().strip('()')}" for name in layer.split("|")]
        for layer in reversed(contract["layers"])
    ]


LAYERS = _layers()


@cache
def _graph(type_checking: bool = True) -> Any:
    return grimp.build_graph("brass_stats", exclude_type_checking_imports=not type_checking, cache_dir=None)


def _layer_of(module: str) -> int | None:
    for i, layer in enumerate(LAYERS):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return i
    return None


def _imports(graph: Any) -> Iterator[tuple[str, str, int, str]]:
    """(importer, imported, line, the line's text) for every import between modules of the package."""
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            for d in graph.get_import_details(importer=importer, imported=imported):
                yield importer, imported, d["line_number"], d["line_contents"]


def _named(layer: int) -> str:
    return " | ".join(m.removeprefix("brass_stats.") for m in LAYERS[layer])


def test_the_layers_are_read_from_pyproject() -> None:
    assert LAYERS[0][:3] == ["brass_stats.rulebook", "brass_stats.exitcodes", "brass_stats.codegen"]
    assert [layer[0] for layer in LAYERS[1:5]] == [
        "brass_stats.errors",
        "brass_stats.tasks",
        "brass_stats.rules_data",
        "brass_stats.engine",
    ]
    assert LAYERS[-1] == ["brass_stats.cli"]


def test_every_module_is_in_a_layer() -> None:
    lost = sorted(m for m in _graph().modules if m != "brass_stats" and _layer_of(m) is None)
    assert not lost, "modules in no layer (add them to the layers of pyproject.toml):\n" + "\n".join(lost)


def test_no_module_imports_a_higher_layer() -> None:
    wrong = []
    for importer, imported, line, text in _imports(_graph()):
        mine, theirs = _layer_of(importer), _layer_of(imported)
        if importer == "brass_stats" or imported == "brass_stats" or mine is None or theirs is None:
            continue  # the facade, imports of the facade and modules in no layer: the other tests
        base_import = mine == 0 and not (imported == importer or imported.startswith(importer + "."))
        if theirs > mine or base_import:
            wrong.append(
                f"{importer} (layer {_named(mine)}) imports {imported} (layer {_named(theirs)}), line {line}: {text}"
            )
    assert not wrong, "imports of a higher layer (or, in a base module, of the package):\n" + "\n".join(wrong)


def _cycles(graph: Any) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_cycles_are_found() -> None:
    graph = grimp.ImportGraph()
    for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d"), ("p.d", "p.e"), ("p.e", "p.d")]:
        graph.add_import(importer=a, imported=b)
    graph.add_module("p.lone")
    assert sorted(_cycles(graph)) == [["p.a", "p.b", "p.c"], ["p.d", "p.e"]]


def test_no_import_circles() -> None:
    graph = _graph(type_checking=False)
    report = []
    for component in _cycles(graph):
        report.append(f"{len(component)} modules: " + ", ".join(component))
        inside = set(component)
        for importer, imported, line, text in _imports(graph):
            if importer in inside and imported in inside:
                report.append(f"    {importer} -> {imported}, line {line}: {text}")
    assert not report, "import circles:\n" + "\n".join(report)


def test_no_module_imports_the_package_root() -> None:
    wrong = [
        f"{importer}, line {line}: {text}"
        for importer, imported, line, text in _imports(_graph())
        if imported == "brass_stats" and importer != "brass_stats"
    ]
    assert not wrong, "modules that import the facade brass_stats (import what you need from its layer):\n" + (
        "\n".join(wrong)
    )


def test_no_module_is_too_long() -> None:
    long = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE.parent).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        if lines > MAX_LINES and name not in LONG_MODULES:
            long[name] = lines
    assert not long, f"modules over {MAX_LINES} lines (split them by concern): {long}"
    assert all(reason.strip() for reason in LONG_MODULES.values())


def test_import_linter_keeps_the_contract() -> None:
    pytest.importorskip("importlinter")
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PACKAGE.parent), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run(
        [exe, "--no-cache", "--no-logo"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert res.returncode == 0, res.stdout + res.stderr
