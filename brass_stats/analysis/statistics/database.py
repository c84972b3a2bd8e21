"""Where the notebooks find their database, and the demo database built from the shipped sample games.

The notebooks read ``$BRASS_DB`` if it is set, else ``brass-demo.duckdb`` in the repository root
(the nearest folder above the working directory holding this project's ``pyproject.toml``), else in
the working directory; a missing file is built there from the shipped sample games. A notebook opened
from ``notebooks/`` thus uses the same file as ``brass-stats demo`` run in the repository root, never
a second copy beside the notebooks.

>>> import os
>>> os.environ["BRASS_DB"] = "/data/games.duckdb"
>>> demo_database(build=False)
PosixPath('/data/games.duckdb')
>>> del os.environ["BRASS_DB"]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pandas as pd

from ...engine.policy import AS_PLAYED
from ...samples import SAMPLES

if TYPE_CHECKING:
    from ...storage import IngestReport

DEMO_DB = "brass-demo.duckdb"
ENV = "BRASS_DB"


def sample_games_dir() -> Path:
    """The sample games shipped inside the package (:data:`~brass_stats.samples.SAMPLES`)."""
    return SAMPLES


def repository_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (default: the working directory) with brass-stats' pyproject.toml."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        try:
            if project.is_file() and 'name = "brass-stats"' in project.read_text(encoding="utf-8"):
                return folder
        except OSError:
            continue
    return None


def demo_database(build: bool = True, start: Path | None = None) -> Path:
    """The database file the notebooks read (see the module docs); built from the sample games if missing."""
    named = os.environ.get(ENV)
    path = Path(named) if named else (repository_root(start) or (start or Path.cwd())) / DEMO_DB
    if build and not path.exists():
        from ...storage import ingest

        report = ingest([str(sample_games_dir())], path, workers=1, progress=False)
        print(f"built {path} from the sample games: {report.summary()}")
    return path


def build_demo_database(db: Path, workers: int | None = None, progress: bool = False) -> IngestReport:
    """Import the sample games into ``db`` as ``brass-stats demo`` does.

    The real games are imported as they were played (one server let a player place 16 rail links).
    """
    from ...storage import ingest

    return ingest([str(sample_games_dir())], db, workers=workers, progress=progress, policy=AS_PLAYED)


def real_game_winners(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The winner of each real (imported, not generated) game: players, name, vp, game_id; by player count."""
    return con.execute(
        """
        SELECT g.player_count AS players, p.name, p.final_vp AS vp, g.game_id
        FROM games g JOIN players p USING (game_id) WHERE p.rank = 1 AND g.seed = 'explicit'
        ORDER BY g.player_count
        """
    ).df()


def demo_game(con: duckdb.DuckDBPyConnection, winners: pd.DataFrame) -> str | None:
    """The game the demo reports on: the last of ``winners`` (the most players), else the first stored game."""
    first = con.execute("SELECT game_id FROM games ORDER BY game_id LIMIT 1").fetchone()
    return winners["game_id"].iloc[-1] if not winners.empty else (first[0] if first else None)
