"""Charts across many games: per-round curves with their interquartile band, and one game against the band.

Built on :class:`matplotlib.figure.Figure` directly (no pyplot, no backend chosen), so they work in
scripts, servers and notebooks alike.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"]


def _text(v: object) -> str:
    """A label safe for matplotlib: no mathtext from a ``$`` in a player's name."""
    return unicodedata.normalize("NFKC", str(v)).replace("$", r"\$")


def curves_chart(df: pd.DataFrame, by: Sequence[str], ylabel: str, title: str) -> Figure:
    """``df``: :func:`brass_stats.analysis.curves.curves`; one mean line and interquartile band per bucket."""
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    groups = df.groupby(list(by), sort=False) if len(df) else []
    for i, (key, g) in enumerate(groups):
        keys = key if isinstance(key, tuple) else (key,)
        label = ", ".join(f"{d} {k}" for d, k in zip(by, keys, strict=True))
        colour = COLOURS[i % len(COLOURS)]
        ax.fill_between(g["round"], g["q25"], g["q75"], color=colour, alpha=0.15, lw=0)
        ax.plot(g["round"], g["mean"], color=colour, marker="o", ms=3, label=_text(label))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round (both eras)")
    ax.set_ylabel(_text(ylabel))
    ax.set_title(_text(title))
    if len(df):
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def compare_chart(cmp: pd.DataFrame, ylabel: str, title: str) -> Figure:
    """``cmp``: :func:`brass_stats.analysis.curves.compare_game`; the winners' band and each player's line."""
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    band = cmp.drop_duplicates("round").sort_values("round")
    ax.fill_between(
        band["round"],
        band["winners_q25"],
        band["winners_q75"],
        color="#999999",
        alpha=0.3,
        lw=0,
        label="winners' middle half",
    )
    ax.plot(band["round"], band["winners_median"], color="#555555", ls="--", lw=1, label="winners' median")
    for i, (_, g) in enumerate(cmp.groupby("seat", sort=True)):
        ax.plot(
            g["round"], g["value"], color=COLOURS[i % len(COLOURS)], marker="o", ms=3, label=_text(g["name"].iloc[0])
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round (both eras)")
    ax.set_ylabel(_text(ylabel))
    ax.set_title(_text(title))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def win_rate_chart(df: pd.DataFrame, dimension: str, title: str) -> Figure:
    """Win rate per bucket with its 95% Wilson interval, and the expected win rate as a reference line.

    ``df``: :func:`brass_stats.analysis.stats.stats_by` for one dimension.
    """
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    x = range(len(df))
    rate = df["win_rate"] * 100
    err = [rate - df["ci_low"] * 100, df["ci_high"] * 100 - rate]
    ax.bar(x, rate, color="#6baed6", yerr=err, capsize=3, label="win rate (95% Wilson interval)")
    for i, e in enumerate(df["expected_win_rate"] * 100):
        ax.hlines(e, i - 0.4, i + 0.4, color="#d62728", lw=2, label="expected win rate" if i == 0 else "_nolegend_")
    ax.set_xticks(list(x), [_text(v) for v in df[dimension]], rotation=30 if len(df) > 5 else 0)
    ax.set_ylabel("win rate (%)")
    ax.set_xlabel(_text(dimension))
    ax.set_title(_text(title))
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


__all__ = ["compare_chart", "curves_chart", "win_rate_chart"]
