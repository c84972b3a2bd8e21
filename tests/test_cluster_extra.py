"""Dask is an optional extra (``brass-stats[cluster]``): only ``--cluster`` needs it, and says so when it is missing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from brass_stats.cli import main
from brass_stats.samples import SAMPLES

MESSAGE = "error: --cluster needs Dask: pip install 'brass-stats[cluster]'"


@pytest.fixture
def no_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask as if not installed: importing ``dask`` or ``distributed`` raises ImportError."""
    for name in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)


def _game() -> str:
    return str(sorted((SAMPLES / "real").glob("*-2p.json"))[0])


@pytest.mark.usefixtures("no_dask")
def test_ingest_on_a_cluster_without_dask_says_what_to_install(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    res = CliRunner().invoke(main, ["ingest", _game(), "--db", str(db), "--cluster", "local:1"])
    assert res.exit_code == 2
    assert res.output.strip() == MESSAGE  # one line, no traceback
    assert not db.exists()  # checked before the store is opened


@pytest.mark.usefixtures("no_dask")
def test_selfplay_on_a_cluster_without_dask_says_what_to_install(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        main, ["selfplay", "-n", "1", "-p", "2", "-b", "random", "--out", str(tmp_path / "out"), "--cluster", "local:1"]
    )
    assert res.exit_code == 2
    assert res.output.strip() == MESSAGE
    assert not list(tmp_path.rglob("*.json"))


@pytest.mark.usefixtures("no_dask")
def test_commands_without_cluster_need_no_dask(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["ingest", _game(), "--db", str(tmp_path / "g.duckdb"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(
        main, ["selfplay", "-n", "1", "-p", "2", "-b", "random", "--out", str(tmp_path / "out"), "--workers", "1"]
    )
    assert res.exit_code == 0, res.output
