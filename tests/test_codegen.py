"""Generated code lives in brass_stats/codegen.py alone, and shows its readable source to tracebacks.

Each generator compiles through :func:`brass_stats.codegen.compile_source`, which keeps the source in
:mod:`linecache`: :func:`inspect.getsource` and a traceback through a generated function show its lines
(not ``File "<string>"`` with nothing to read).
"""

from __future__ import annotations

import ast
import inspect
import traceback
from pathlib import Path

import pytest

from brass_stats.engine.actions import Build, Sale
from brass_stats.engine.state import GameState, _shallow_copy
from brass_stats.log import schema as log_schema

PACKAGE = Path(__file__).parents[1] / "brass_stats"


def _traceback_of(call: object) -> str:
    with pytest.raises(Exception) as caught:
        call()  # type: ignore[operator]
    return "".join(traceback.format_exception(caught.value))


def test_a_generated_init_shows_its_source() -> None:
    source = inspect.getsource(Build.__init__)
    assert source.startswith("def __init__(self, player, card=_default_card, industry=_default_industry,")
    assert "    _set_location(self, location)\n" in source
    assert "_set_merchant(self, merchant)" in inspect.getsource(Sale.__init__)
    assert Build.__init__.__code__.co_filename.startswith("<generated: brass_stats.engine.actions: Build.__init__")
    # a traceback through it names the generated file and quotes the line that failed
    text = _traceback_of(lambda: Build.__init__(object(), 0))  # type: ignore[arg-type]
    assert 'File "<generated: brass_stats.engine.actions: Build.__init__' in text
    assert "_set_player(self, player)" in text


def test_the_shallow_copy_of_a_state_shows_its_source() -> None:
    source = inspect.getsource(_shallow_copy)
    assert source.splitlines()[:3] == [
        "def shallow_copy(self):",
        "    new = NEW(GameState)",
        "    new.rules = self.rules",
    ]
    assert len(source.splitlines()) == len(GameState.__slots__) + 3
    text = _traceback_of(lambda: _shallow_copy(object()))
    assert 'File "<generated: brass_stats.engine.state: GameState copy' in text
    assert "new.rules = self.rules" in text


def test_a_quick_schema_test_shows_its_source() -> None:
    quick = log_schema._validators(None)[2]["build"]
    source = inspect.getsource(quick)
    assert source.startswith("def quick_test(v):\n    return (")
    assert "<generated: log.schema: quick test of a build action" in quick.__code__.co_filename


def test_only_codegen_compiles_code() -> None:
    """No module of the package but codegen.py calls exec, eval or compile."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "codegen.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            call = node.func if isinstance(node, ast.Call) else None
            if isinstance(call, ast.Name) and call.id in ("exec", "eval", "compile"):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {call.id}()")
    assert not found, "generated code outside brass_stats/codegen.py:\n" + "\n".join(found)
