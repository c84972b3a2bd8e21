"""A game's tables as pandas or polars DataFrames, without any database."""

from __future__ import annotations

from typing import Any, Literal

from ...replay import Replay
from .game import game_tables


def frames(
    replay: Replay, backend: Literal["pandas", "polars"] = "pandas", source_file: str | None = None
) -> dict[str, Any]:
    """The tables of :func:`game_tables` as pandas or polars DataFrames, without any database."""
    tables = game_tables(replay, source_file)
    if backend == "pandas":
        return {name: t.to_pandas() for name, t in tables.items()}
    if backend == "polars":
        import polars as pl

        return {name: pl.from_arrow(t) for name, t in tables.items()}
    raise ValueError(f"unknown backend {backend!r}; expected 'pandas' or 'polars'")
