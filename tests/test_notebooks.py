"""The notebooks run top to bottom in a Jupyter kernel and show their charts and boards inline.

They run with the kernel's default matplotlib backend (no MPLBACKEND=Agg): a chart that only
reached a non-interactive backend would leave no image in the outputs, and the test counts images.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from brass_stats.analysis.statistics.database import DEMO_DB, demo_database, repository_root, sample_games_dir
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest

ROOT = Path(__file__).parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# images each notebook must show inline (charts as PNG, boards as SVG)
IMAGES = {"post_game_report": 6, "strategy_stats": 2, "step_through_a_game": 7, "analysis": 2}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "sample.duckdb"
    # as played, like the demo: the real gm7vza-4p placed more than 14 links for one seat (D1)
    assert ingest([str(sample_games_dir())], path, workers=1, progress=False, policy=AS_PLAYED).exit_status == 0
    return path


def _images(nb: nbformat.NotebookNode) -> list[str]:
    return [
        mime
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") in ("execute_result", "display_data")
        for mime in o.get("data", {})
        if mime in ("image/png", "image/svg+xml")
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_shows_its_charts_inline(path: Path, database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRASS_DB", str(database))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nb = nbformat.read(path, as_version=4)
    # run from the notebooks folder, as Jupyter does
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = _images(nb)
    assert len(images) >= IMAGES[path.stem], images
    if path.stem != "strategy_stats":
        assert {"image/png", "image/svg+xml"} <= set(images)  # charts and boards
    assert not (path.parent / DEMO_DB).exists(), "a second database was built beside the notebooks"


def test_notebooks_find_the_database_in_the_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BRASS_DB", raising=False)
    assert repository_root(ROOT / "notebooks") == ROOT
    assert demo_database(build=False, start=ROOT / "notebooks") == ROOT / DEMO_DB
    monkeypatch.setenv("BRASS_DB", "/elsewhere/games.duckdb")
    assert demo_database(build=False, start=ROOT / "notebooks") == Path("/elsewhere/games.duckdb")


def test_the_four_notebooks() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "analysis.ipynb",
        "post_game_report.ipynb",
        "step_through_a_game.ipynb",
        "strategy_stats.ipynb",
    ]
