"""The Python API (issue 12): ``import brass_stats as bs``, one-line reprs, notebook display, doctests."""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import brass_stats as bs
from brass_stats.presentation.notebook import player_table

MODULES = sorted(m.name for m in pkgutil.walk_packages(bs.__path__, "brass_stats."))
GAME = bs.SAMPLES / "real" / "gm7vza-4p.json"


@pytest.fixture(scope="module")
def real() -> bs.Replay:
    return bs.replay(GAME, bs.AS_PLAYED)  # its server let seat 2 place 16 links (D1)


@pytest.mark.parametrize("module", ["brass_stats", *MODULES])
def test_docstring_examples_run(module: str) -> None:
    """Every example in the package's docstrings is executed (doctest), so the docs cannot go stale."""
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0


def test_the_top_level_api_covers_load_replay_legal_actions_validate_and_tables(real: bs.Replay) -> None:
    assert bs.__version__ and bs.__version__[0].isdigit()
    text = GAME.read_text(encoding="utf-8")
    from_path, from_text, from_obj = bs.load(GAME), bs.load(text), bs.load(json.loads(text))
    assert from_path.actions == from_text.actions == from_obj.actions and len(from_path.actions) == 124
    assert bs.replay(from_obj, bs.AS_PLAYED).state.players[0].vp == real.state.players[0].vp == 152
    assert bs.replay(str(GAME), bs.AS_PLAYED).finished
    assert bs.replay(GAME).error is not None  # strict: the 15th link tile
    # legal actions of a fresh game: every one of them can be applied
    fresh = bs.replay(bs.GameLog.new(["Ann", "Bob"], seed=3))
    moves = bs.legal_actions(fresh.state)
    assert moves and all(isinstance(m, bs.Action) for m in moves)
    fresh.push(moves[0])
    assert bs.validate(GAME, bs.AS_PLAYED).ok and bs.validate(from_path, bs.AS_PLAYED).ok
    assert bs.validate(text, bs.AS_PLAYED).ok and bs.validate(GAME).error["rule"] == "network.link_tiles"
    assert bs.validate("no/such/file.json").kind == "format"
    with pytest.raises(bs.LogFormatError):
        bs.load("{}")
    tables = bs.frames(real)
    assert len(tables["actions"]) == 124
    store = bs.Store(":memory:")
    store.write_game(bs.game_tables(real, "g.json"))
    assert store.con.execute("SELECT count(*) FROM actions").fetchone() == (124,)


def test_importing_brass_stats_is_light() -> None:
    """``import brass_stats`` does not load the database, Arrow or matplotlib (they come when used)."""
    code = "import sys, brass_stats; print(sorted(m for m in ('duckdb', 'pyarrow', 'matplotlib') if m in sys.modules))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "[]"


def test_reprs_are_one_short_line(real: bs.Replay) -> None:
    objects = [
        real,
        real.log,
        real.steps[0],
        real.steps[-1],
        real.state,
        real.state_at(30),
        real.initial,
        real.state_at(30).players[2],
        real.steps[5].action,
    ]
    for obj in objects:
        text = repr(obj)
        assert "\n" not in text and len(text) < 400, text
    assert repr(real.state_at(-1)).startswith("<GameState birmingham, 4 players: Canal Era round 1 of 8")
    assert "Player1" in repr(real) and "124 of 124 actions" in repr(real) and "152 VP" in repr(real)
    # an unstated choice is not printed
    assert "None" not in repr(bs.GameLog.new(["A", "B"], seed=1)) and "None" not in repr(real.log.actions[0])


def test_reprs_of_huge_names_stay_short() -> None:
    r = bs.replay(bs.GameLog.new(["A" * 100_000, "B"], seed=1))
    for obj in (r, r.log, r.state, r.state.players[0]):
        assert len(repr(obj)) < 400


def _jupyter_formats(obj: object) -> dict[str, str]:
    """What a Jupyter cell ending in ``obj`` shows: IPython's display formatters, as a kernel runs them."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    bs._register_jupyter_drawings()  # what `import brass_stats` does in a running kernel
    data, _ = shell.display_formatter.format(obj)
    return dict(data)


def test_state_html_shows_the_board_and_the_players_values(real: bs.Replay) -> None:
    state = real.state_at(60)
    shown = _jupyter_formats(state)
    html = shown["text/html"]
    assert "<svg" in html and "<table" in html
    table = player_table(state)
    for p in state.players:
        row = table[table["seat"] == p.seat].iloc[0]
        assert (row["money"], row["vp"], row["cards"], row["loans"]) == (p.money, p.vp, len(p.hand), p.loans)
        assert row["income_level"] == state.income_level(p.seat)
        assert row["tiles_left"] == sum(sum(v) for v in p.mat.values())
    assert shown["image/svg+xml"].lstrip().startswith("<svg")
    replay_html = _jupyter_formats(real)["text/html"]
    assert "<svg" in replay_html and "Player1" in replay_html


def test_outside_jupyter_nothing_is_registered_and_the_engine_draws_nothing(real: bs.Replay) -> None:
    # the engine and the replay know nothing of drawing: no _repr_html_ of their own
    assert not hasattr(real.state, "_repr_html_") and not hasattr(real, "_repr_html_")


def test_readme_python_example_runs(tmp_path: Path) -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\nimport brass_stats as bs")
    code = readme[start + len("```python\n") : readme.index("```", start + 10)]
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1], timeout=300
    )
    assert res.returncode == 0, res.stderr
