"""Where the sample games shipped with the package live (:data:`SAMPLES`); a base module, importing nothing else."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SAMPLES: Path = Path(str(resources.files(__package__).joinpath("replays_data")))
"""The sample games shipped with the package: ``real/`` (imported server games), ``generated/``, ``lancashire/``."""
