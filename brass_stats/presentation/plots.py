"""Charts for one game (matplotlib): income curves, VP breakdown, VP progression, money and spending."""

from __future__ import annotations

import unicodedata

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .board import PLAYER_COLOURS  # noqa: E402

SOURCE_COLOURS = {
    "canal_links": "#6baed6",
    "rail_links": "#2171b5",
    "cotton_mill": "#fdd0a2",
    "coal_mine": "#525252",
    "iron_works": "#d94801",
    "manufacturer": "#9e9ac8",
    "pottery": "#74c476",
    "brewery": "#fdae6b",
    "port": "#1b9e77",
    "shipyard": "#7570b3",
    "merchant_bonus": "#e7ba52",
    "cash": "#bdbdbd",
    "introductory": "#969696",
}


def _name(n: str) -> str:
    return unicodedata.normalize("NFKC", str(n))


def _era_boundary(ax: plt.Axes, rounds: pd.DataFrame) -> None:
    rail = rounds.loc[rounds["era"] == "rail", "round"]
    if not rail.empty:
        ax.axvline(rail.min() - 0.5, color="#999999", ls="--", lw=1)
        ax.text(rail.min() - 0.4, ax.get_ylim()[1], " Rail Era", va="top", fontsize=8, color="#666666")


def income_chart(summary: pd.DataFrame) -> Figure:
    """``summary``: :func:`brass_stats.analysis.games.round_summary`."""
    fig, ax = plt.subplots(figsize=(8, 4))
    for seat, g in summary.groupby("seat"):
        ax.plot(
            g["round"],
            g["income_level"],
            marker="o",
            ms=3,
            color=PLAYER_COLOURS[int(seat)],
            label=_name(g["name"].iloc[0]),
        )
    ax.axhline(0, color="#cccccc", lw=1)
    ax.set_xlabel("round")
    ax.set_ylabel("income level (£ per round)")
    ax.set_title("Income level at the end of each round")
    _era_boundary(ax, summary)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def vp_breakdown_chart(by_source: pd.DataFrame) -> Figure:
    """``by_source``: :func:`brass_stats.analysis.games.vp_by_source` (stacked bars per player)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    names = [_name(n) for n in by_source["name"]]
    bottom = [0.0] * len(by_source)
    for src, colour in SOURCE_COLOURS.items():
        values = by_source[src].astype(float).tolist()
        if not any(values):
            continue
        ax.bar(names, values, bottom=bottom, color=colour, label=src.replace("_", " "), edgecolor="white", lw=0.5)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    lost = by_source["shortfall_lost"].astype(float).tolist()
    if any(lost):
        ax.bar(names, lost, color="#cb181d", label="shortfall lost")
    for i, total in enumerate(by_source["total"]):
        ax.text(i, bottom[i] + 1, str(int(total)), ha="center", va="bottom", fontsize=9, weight="bold")
    ax.set_ylabel("VP")
    ax.set_title("Where the VP came from")
    ax.legend(fontsize=7, frameon=False, bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.tight_layout()
    return fig


def vp_progression_chart(progression: pd.DataFrame) -> Figure:
    """Solid: VP scored so far; dashed: VP if the era ended now."""
    fig, ax = plt.subplots(figsize=(8, 4))
    for seat, g in progression.groupby("seat"):
        c = PLAYER_COLOURS[int(seat)]
        ax.plot(g["action_index"], g["vp"], color=c, lw=2, label=_name(g["name"].iloc[0]))
        ax.plot(g["action_index"], g["vp_if_era_ended"], color=c, lw=1, ls="--")
    rail = progression.loc[progression["era"] == "rail", "action_index"]
    if not rail.empty:
        ax.axvline(rail.min() - 0.5, color="#999999", ls="--", lw=1)
    ax.set_xlabel("action")
    ax.set_ylabel("VP")
    ax.set_title("VP so far (solid) and if the era ended now (dashed)")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def money_chart(money: pd.DataFrame) -> Figure:
    """Money after income (lines) and money spent in the round (bars), per player."""
    fig, ax = plt.subplots(figsize=(8, 4))
    seats = sorted(money["seat"].unique())
    width = 0.8 / max(1, len(seats))
    for i, seat in enumerate(seats):
        g = money[money["seat"] == seat]
        c = PLAYER_COLOURS[int(seat)]
        ax.bar(g["round"] - 0.4 + width * (i + 0.5), g["spent_this_round"], width=width, color=c, alpha=0.35)
        ax.plot(g["round"], g["money"], color=c, marker="o", ms=3, label=_name(g["name"].iloc[0]))
    ax.set_xlabel("round")
    ax.set_ylabel("£")
    ax.set_title("Money after income (lines) and spent in the round (bars)")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig
