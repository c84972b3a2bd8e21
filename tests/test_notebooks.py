"""The notebooks run top to bottom on the sample data, so they never go stale."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRASS_DB", str(tmp_path / "sample.duckdb"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any(o.get("output_type") in ("execute_result", "display_data") for o in outputs)
    assert os.path.exists(tmp_path / "sample.duckdb")


def test_there_are_two_notebooks() -> None:
    assert [p.name for p in NOTEBOOKS] == ["post_game_report.ipynb", "strategy_stats.ipynb"]
