"""The compiled core as a module: what it exports, how it is built, and that no input crashes it.

* every function and class of the extension is re-exported by ``brass_stats._core`` and typed in its
  stub (``_native.pyi``), so a new entry point cannot go unseen by mypy;
* without ``cargo`` the install stops with one line naming what to install (``core/build_backend.py``);
* a malformed position, an action that is not legal, a request of the wrong shape: a ``ValueError``
  naming what is wrong, never a crash and never a ``BaseException`` that ``except Exception`` misses;
* the fuzzer's mutated logs, replayed as far as the reference goes, handed position by position to
  the core (read back, legal actions, every legal action applied): nothing crashes, and the core
  agrees with the reference on every position it is handed.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import random
import sys
import types
from pathlib import Path

import pytest
from core_parity import check_position
from fuzzing import mutate, seed_logs
from hypothesis import given, settings
from hypothesis import strategies as st

import brass_stats as bs
import brass_stats._core as core
from brass_stats._core import _native
from brass_stats.engine import SeededChance, new_game
from brass_stats.engine.compiled import action_to_json, actions_from_json, encode_state, to_core
from brass_stats.engine.legal import legal_actions
from brass_stats.errors import LogFormatError

ROOT = Path(__file__).parents[1]


def test_every_entry_point_is_exported_and_typed() -> None:
    native = {n for n in dir(_native) if not n.startswith("_")}
    assert native <= set(core.__all__), f"not re-exported: {sorted(native - set(core.__all__))}"
    stub = ast.parse((ROOT / "brass_stats" / "_core" / "_native.pyi").read_text("utf-8"))
    typed = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert native <= typed, f"not in the stub: {sorted(native - typed)}"
    assert issubclass(core.CoreError, Exception) and issubclass(core.CoreUnsupported, Exception)


def _build_backend():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_backend", ROOT / "core" / "build_backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_install_without_rust_stops_with_one_line_naming_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _build_backend()
    monkeypatch.setattr(backend.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit) as stop:
        backend.build_wheel("/nonexistent")
    message = str(stop.value)
    assert "cargo" in message and "rustup.rs" in message and "\n" not in message
    with pytest.raises(SystemExit):
        backend.build_editable("/nonexistent")


def test_an_install_with_rust_goes_on_to_maturin(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _build_backend()
    monkeypatch.setattr(backend.shutil, "which", lambda name: "/usr/bin/" + name)
    called: list[tuple[object, ...]] = []
    fake = types.ModuleType("maturin")
    fake.build_wheel = lambda *a: called.append(a) or "x.whl"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "maturin", fake)  # pip puts the real one in the build environment
    assert backend.build_wheel("/out") == "x.whl" and called == [("/out", None, None)]


@pytest.fixture(scope="module")
def state() -> core.State:
    return to_core(new_game(["a", "b", "c"], SeededChance(4)))


def test_an_action_that_is_not_legal_is_refused_by_name(state: core.State) -> None:
    legal = json.loads(state.legal_actions())
    wrong = dict(legal[0], player=(legal[0]["player"] + 1) % 3)
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply(json.dumps(wrong))
    with pytest.raises(ValueError, match="unknown card"):
        state.apply(json.dumps(dict(legal[0], card="loc:atlantis")))
    with pytest.raises(ValueError, match="action"):
        state.apply("{not json")


def test_a_malformed_position_is_refused_by_name() -> None:
    g = new_game(["a", "b"], SeededChance(2))
    rules = to_core(g)  # the rules made for it
    del rules
    from brass_stats.engine.compiled import core_rules

    wire = encode_state(g)
    cases = {
        "players": [],
        "turn_order": [0, 0],
        "coal_market": 200,
        "tiles": [[999, 0, 0, 1, False, 0]],
        "phase": "dancing",
    }
    for field, value in cases.items():
        bad = dict(wire, **{field: value})
        with pytest.raises(ValueError):
            core.State(core_rules(g.rules), json.dumps(bad))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_mutated_position_is_a_value_error_or_a_position(data: st.DataObject) -> None:
    """Numbers and lists of a real position changed at random: the core refuses or accepts, and an
    accepted position answers every question without crashing."""
    from brass_stats.engine.compiled import core_rules

    g = new_game(["a", "b", "c", "d"], SeededChance(data.draw(st.integers(0, 50))))
    wire = encode_state(g)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 4))):
        field = rng.choice(sorted(wire))
        wire[field] = rng.choice([0, -1, 1, 3, 255, 70000, [], [0], [[0, 0, 0, 0, 0, 0]], "rail", None, True])
    try:
        s = core.State(core_rules(g.rules), json.dumps(wire))
    except ValueError:
        return
    for a in json.loads(s.legal_actions())[:20]:
        with contextlib.suppress(ValueError, core.CoreUnsupported):  # refused by name, never a crash
            s.apply_unchecked(json.dumps(a))


def test_the_fuzzers_mutated_logs_crash_nothing_in_the_core() -> None:
    rng = random.Random(2026)
    seeds = seed_logs()
    positions = agreed = 0
    for k in range(60):
        doc = mutate(json.loads(json.dumps(rng.choice(seeds))), rng, rng.randint(1, 4))
        try:
            r = bs.replay(bs.load(doc), bs.AS_PLAYED)
        except LogFormatError:  # refused by the reader or at setup: no position to hand over
            continue
        for i in range(-1, len(r.steps), 7):
            st_ = r.state_at(i)
            try:
                c = to_core(st_)
            except Exception:  # noqa: BLE001 - NotInCore, or a position the core refuses by name
                continue
            positions += 1
            found = check_position(st_, f"mutant {k}", successors=3, rng=rng)
            agreed += not found
            for a in actions_from_json(c.legal_actions())[:5]:
                c.apply(action_to_json(a))
    assert positions > 100
    assert agreed == positions


def test_a_panic_is_a_core_error_and_the_interpreter_goes_on() -> None:
    """A panic inside the core (a bug) reaches Python as brass_stats._core.CoreError, an Exception with
    the panic's message; the release profile keeps unwinding (an abort would end the interpreter)."""
    with pytest.raises(core.CoreError, match="internal error in the compiled core: boom"):
        _native._panic_for_tests("boom")
    try:
        _native._panic_for_tests("caught")
    except Exception as e:  # noqa: BLE001 - the point: an ordinary except clause catches it
        assert "caught" in str(e)
    assert 'panic = "unwind"' in (ROOT / "core" / "Cargo.toml").read_text("utf-8")
    assert legal_actions(new_game(["a", "b"], SeededChance(1)))  # and the interpreter goes on
