"""Charts across many games: per-round curves with their interquartile band, and one game against the band.

Built as :class:`~brass_stats.presentation.plots.Chart` figures (no pyplot, no backend chosen): they
work in scripts (``savefig``) and show inline in Jupyter.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from matplotlib.ticker import MaxNLocator

from .plots import Chart, new_chart
from .text import plot_text as _text

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"]


def curves_chart(df: pd.DataFrame, by: Sequence[str], ylabel: str, title: str) -> Chart:
    """``df``: :func:`~brass_stats.analysis.statistics.curves.curves`; a mean line and quartile band per bucket."""
    fig, ax = new_chart(8, 4.5)
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
    return fig


def compare_chart(cmp: pd.DataFrame, ylabel: str, title: str) -> Chart:
    """``cmp``: :func:`~brass_stats.analysis.statistics.curves.compare_game`; winners' band, each player's line."""
    fig, ax = new_chart(8, 4.5)
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
    return fig


def win_rate_chart(df: pd.DataFrame, dimension: str, title: str) -> Chart:
    """Win rate per bucket with its 95% Wilson interval, and the expected win rate as a reference line.

    ``df``: :func:`brass_stats.analysis.statistics.win_rates.stats_by` for one dimension.
    """
    fig, ax = new_chart(8, 4)
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
    return fig


__all__ = ["compare_chart", "curves_chart", "win_rate_chart"]
