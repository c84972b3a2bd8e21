"""Shared fixtures: the golden games, converted in the test from the raw server files."""

from __future__ import annotations

from pathlib import Path

import pytest

from brass_stats.log.brassbirmingham.records import convert_files
from brass_stats.log.format import GameLog

GOLDEN = Path(__file__).parent / "golden" / "quasrain"
GOLDEN_GAMES = ("wq9gs6-2p", "gm7vza-4p")


def convert_golden(name: str) -> GameLog:
    return convert_files(GOLDEN / f"{name}.record.json", GOLDEN / f"{name}.setup.json")


@pytest.fixture(scope="session", params=GOLDEN_GAMES)
def golden_log(request: pytest.FixtureRequest) -> GameLog:
    return convert_golden(request.param)


@pytest.fixture(params=["core", "python"])
def bot_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test twice, as CPython runs the tests of an accelerated module: once with the bots on the
    compiled core, once on the pure-Python reference (``BRASS_STATS_CORE=python``). Test modules of the
    bots opt in with ``pytestmark = pytest.mark.usefixtures("bot_path")``."""
    from brass_stats.engine.compiled import SWITCH

    if request.param == "python":
        monkeypatch.setenv(SWITCH, "python")
    else:
        monkeypatch.delenv(SWITCH, raising=False)
    return str(request.param)
