"""Where the notebooks find their database.

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

DEMO_DB = "brass-demo.duckdb"
ENV = "BRASS_DB"


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
        from ..storage import ingest
        from .cli import sample_games_dir

        report = ingest([str(sample_games_dir())], path, workers=1, progress=False)
        print(f"built {path} from the sample games: {report.summary()}")
    return path
