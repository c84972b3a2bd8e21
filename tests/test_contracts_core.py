"""The compiled core's own guards of the search, asked directly (not through SearchBot, whose guards
``test_contracts_search.py`` holds on both paths): nothing to search and a leaf temperature that is not
positive are refused with a clear error."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import dead_end

import brass_stats as bs
from brass_stats.bots.compiled import core_search
from brass_stats.bots.search import SearchBot
from brass_stats.engine import compiled
from brass_stats.engine.state import GameState

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the compiled core is not built")


@pytest.fixture(scope="module")
def birmingham() -> list[GameState]:
    r = bs.replay(bs.load(bs.SAMPLES / "generated/game-2002-00000.json"))
    return [r.state_at(i) for i in range(-1, len(r.steps))]


def search_spec(**leaf: Any) -> dict[str, Any]:
    spec = SearchBot(simulations=3).core_spec()
    assert spec is not None
    return {**spec, "leaf": {**spec["leaf"], **leaf}}


def test_the_core_refuses_a_search_with_no_legal_action(birmingham: list[GameState]) -> None:
    """Asked directly (not through SearchBot's own guard): the given list empty, or the engine's list empty."""
    state = birmingham[11]
    with pytest.raises(ValueError, match="no legal action to search"):
        core_search(state, search_spec(), 5, [], ())
    with pytest.raises(ValueError, match="no legal action to search"):
        core_search(dead_end(state), search_spec(), 5, None, ())


@pytest.mark.parametrize(("start", "end"), [(0.0, 3.0), (14.0, 0.0), (-1.0, -1.0)])
def test_the_core_refuses_a_temperature_that_is_not_positive(
    start: float, end: float, birmingham: list[GameState]
) -> None:
    state = birmingham[11]
    assert core_search(state, search_spec(start=1.0, end=1.0), 5, None, ()) is not None  # a positive one works
    with pytest.raises(ValueError, match="the temperature must be positive"):
        core_search(state, search_spec(start=start, end=end), 5, None, ())
