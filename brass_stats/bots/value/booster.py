"""What the learned models share: a LightGBM booster over :mod:`.features`, its file and its settings.

A model is read from and written to LightGBM's text format (gzip-compressed when the file name ends in
``.gz``, with a zero timestamp, so the same model always gives the same bytes); it travels to worker
processes as that text, and refuses a booster trained on other features than this version's.
"""

from __future__ import annotations

import gzip
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from .features import FEATURE_NAMES

BASE_PARAMS: dict[str, Any] = {
    "learning_rate": 0.1,
    "min_data_in_leaf": 200,
    "feature_fraction": 0.9,
    "lambda_l2": 1.0,
    "deterministic": True,  # one thread and a fixed seed: training gives the same model every time
    "force_row_wise": True,
    "num_threads": 1,
    "seed": 0,
    "verbosity": -1,
}
"""The training settings every model shares (each adds its objective and its number of leaves)."""

M = TypeVar("M", bound="BoosterModel")


class BoosterModel:
    """A LightGBM booster over :data:`~.features.FEATURE_NAMES`, loaded on first use of LightGBM."""

    def __init__(self, booster: Any) -> None:
        names = tuple(booster.feature_name())
        if names != FEATURE_NAMES:
            raise ValueError(f"the model's features {names} are not this version's {FEATURE_NAMES}")
        self.booster = booster

    @classmethod
    def from_text(cls: type[M], text: str) -> M:
        import lightgbm  # imported on first use: it is slow to import

        return cls(lightgbm.Booster(model_str=text))

    @classmethod
    def load(cls: type[M], path: str | Path) -> M:
        """A model saved by :meth:`save` (gzip-compressed text when the name ends in ``.gz``)."""
        p = Path(path)
        raw = p.read_bytes()
        return cls.from_text((gzip.decompress(raw) if p.suffix == ".gz" else raw).decode("utf-8"))

    @classmethod
    def shipped(cls: type[M], package: str, name: str) -> M:
        """The model shipped as package data ``name`` (gzip-compressed text) of ``package``."""
        return cls.from_text(gzip.decompress(resources.files(package).joinpath(name).read_bytes()).decode("utf-8"))

    def save(self, path: str | Path) -> None:
        text = self.booster.model_to_string().encode("utf-8")
        p = Path(path)
        # mtime=0: the same model gives the same bytes
        p.write_bytes(gzip.compress(text, compresslevel=9, mtime=0) if p.suffix == ".gz" else text)

    def __getstate__(self) -> dict[str, Any]:
        # sent to worker processes with the booster as its text (a booster holds a C handle)
        state = dict(self.__dict__)
        if "booster" in state:
            state["booster"] = state["booster"].model_to_string()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "booster" in state:
            import lightgbm

            state = {**state, "booster": lightgbm.Booster(model_str=state["booster"])}
        self.__dict__.update(state)
