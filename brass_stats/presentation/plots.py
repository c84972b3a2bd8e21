"""Charts for one game (matplotlib): income curves, VP breakdown, VP progression, money and spending.

Figures are built as :class:`matplotlib.figure.Figure` objects, never through
pyplot, and no backend is chosen: they work headless (``fig.savefig``) and show
inline in Jupyter (a :class:`Chart` has ``_repr_png_``). Player names are drawn
as plain text, never as mathtext.

>>> import pandas as pd
>>> summary = pd.DataFrame({"round": [1, 2, 1, 2], "era": ["canal"] * 4, "seat": [0, 0, 1, 1],
...                         "name": ["$Ann$"] * 2 + ["Bob"] * 2, "income_level": [0, 2, -1, 3]})
>>> fig = income_chart(summary)
>>> fig.axes[0].get_legend().get_texts()[0].get_text()
'\\\\$Ann\\\\$'
>>> fig.to_png()[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import textwrap
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .geometry import PLAYER_COLOURS
from .text import display_number, plot_text

if TYPE_CHECKING:
    from ..analysis.review import GameReview

# Stack order, bottom to top. Cotton mill and brewery used to be two near-identical oranges.
SOURCE_COLOURS = {
    "canal_links": "#9ecae1",
    "rail_links": "#2171b5",
    "cotton_mill": "#f2f0e6",
    "coal_mine": "#404040",
    "iron_works": "#e6550d",
    "manufacturer": "#9e9ac8",
    "pottery": "#74c476",
    "brewery": "#8c510a",
    "port": "#17becf",
    "shipyard": "#c51b7d",
    "merchant_bonus": "#ffd92f",
    "cash": "#bdbdbd",
    "introductory": "#d9d9d9",
}
SHORTFALL_COLOUR = "#cb181d"


class Chart(Figure):
    """A matplotlib Figure that Jupyter shows inline by itself, whatever the backend."""

    def to_png(self, dpi: int = 110) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()

    def _repr_png_(self) -> bytes:
        return self.to_png()

    def __repr__(self) -> str:
        title = self.axes[0].get_title() if self.axes else ""
        return f"<Chart {title!r}>"


def new_chart(width: float = 8, height: float = 4) -> tuple[Chart, Axes]:
    """A figure with one axes (constrained layout keeps outside legends and labels in the picture)."""
    fig = Chart(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    return fig, ax


def player_legend(ax: Axes, **kw: Any) -> None:
    """A legend of the labelled lines, with names as plain text (explicit labels: a name may start with '_')."""
    handles = [h for h in ax.get_lines() if getattr(h, "_brass_label", None) is not None]
    labels = [h._brass_label for h in handles]  # type: ignore[attr-defined]
    ax.legend(handles, labels, **{"fontsize": 8, "frameon": False, **kw})


def player_line(ax: Axes, x: Any, y: Any, name: object, **kw: Any) -> None:
    """Plot a line that :func:`player_legend` names after the player (as plain text)."""
    (line,) = ax.plot(x, y, **kw)
    line._brass_label = plot_text(name)  # type: ignore[attr-defined]


def _era_boundary(ax: Axes, rounds: pd.DataFrame, x: str = "round") -> None:
    rail = rounds.loc[rounds["era"] == "rail", x]
    if not rail.empty:
        at = rail.min() - 0.5 if x == "round" else rail.min()
        ax.axvline(at, color="#999999", ls="--", lw=1)
        ax.text(at, 1.0, " Rail Era", va="top", fontsize=8, color="#666666", transform=ax.get_xaxis_transform())


def income_chart(summary: pd.DataFrame) -> Chart:
    """``summary``: :func:`brass_stats.analysis.statistics.breakdowns.round_summary`."""
    fig, ax = new_chart()
    for seat, g in summary.groupby("seat"):
        player_line(
            ax, g["round"], g["income_level"], g["name"].iloc[0], marker="o", ms=3, color=PLAYER_COLOURS[int(seat)]
        )
    ax.axhline(0, color="#cccccc", lw=1)
    ax.set_xlabel("round")
    ax.set_ylabel("income level (£ per round)")
    ax.set_title("Income level at the end of each round")
    _era_boundary(ax, summary)
    player_legend(ax)
    return fig


def _tick_name(name: object, width: int = 14) -> str:
    """A player name for an x tick: wrapped on at most three lines so neighbours never overlap."""
    lines = textwrap.wrap(plot_text(name, limit=3 * width), width, break_long_words=True) or [""]
    if len(lines) > 3:
        lines = lines[:2] + [lines[2][: width - 1] + "…"]
    return "\n".join(lines)


def vp_breakdown_chart(by_source: pd.DataFrame) -> Chart:
    """``by_source``: :func:`brass_stats.analysis.statistics.breakdowns.vp_by_source` (stacked bars per player).

    The legend reads top to bottom in the order the segments are stacked, top to bottom.
    """
    fig, ax = new_chart(8, 4.8)
    x = list(range(len(by_source)))
    bottom = [0.0] * len(by_source)
    handles = []
    for src, colour in SOURCE_COLOURS.items():
        if src not in by_source:
            continue
        values = by_source[src].astype(float).tolist()
        if not any(values):
            continue
        bars = ax.bar(x, values, bottom=bottom, color=colour, edgecolor="#555555", lw=0.4)
        handles.append((bars, src.replace("_", " ")))
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    lost = by_source["shortfall_lost"].astype(float).tolist() if "shortfall_lost" in by_source else []
    if any(lost):
        bars = ax.bar(x, lost, color=SHORTFALL_COLOUR)
        handles.insert(0, (bars, "shortfall lost"))  # drawn below zero: last in the legend
    for i, total in enumerate(by_source["total"]):
        ax.text(i, bottom[i], display_number(int(total)), ha="center", va="bottom", fontsize=9, weight="bold")
    top = max([*bottom, 1.0])
    ax.set_ylim(min([0.0, *lost]) * 1.15, top * 1.12)  # room above the tallest bar for its total
    ax.set_xticks(x, [_tick_name(n) for n in by_source["name"]], fontsize=8)
    ax.set_ylabel("VP")
    ax.set_title("Where the VP came from")
    ordered = list(reversed(handles))
    fig.legend(
        handles=[h for h, _ in ordered],
        labels=[label for _, label in ordered],
        fontsize=7,
        frameon=False,
        loc="outside right upper",
    )
    return fig


def with_round_positions(progression: pd.DataFrame) -> pd.DataFrame:
    """Add ``x``: the round as a number, with each action at its place within its round (round 3's
    second of four actions is at 3.25), so a chart can have rounds on its axis."""
    df = progression.copy()
    firsts = df.groupby("round")["action_index"].agg(["min", "max"])
    span = (firsts["max"] - firsts["min"] + 1).reindex(df["round"]).to_numpy()
    start = firsts["min"].reindex(df["round"]).to_numpy()
    df["x"] = df["round"] + (df["action_index"].to_numpy() - start + 1) / span - 1
    return df


def vp_progression_chart(progression: pd.DataFrame) -> Chart:
    """Solid: VP scored so far; dashed: VP if the era ended now. The x axis counts rounds."""
    fig, ax = new_chart()
    df = with_round_positions(progression)
    for seat, g in df.groupby("seat"):
        c = PLAYER_COLOURS[int(seat)]
        player_line(ax, g["x"], g["vp"], g["name"].iloc[0], color=c, lw=2)
        ax.plot(g["x"], g["vp_if_era_ended"], color=c, lw=1, ls="--")
    rounds = sorted(df["round"].unique())
    if rounds:
        step = max(1, len(rounds) // 16)
        ax.set_xticks([r - 0.5 for r in rounds[::step]], [str(r) for r in rounds[::step]])
        ax.set_xlim(min(rounds) - 1, max(rounds))
    rail = df.loc[df["era"] == "rail", "round"]
    if not rail.empty:
        ax.axvline(rail.min() - 1, color="#999999", ls="--", lw=1)
        ax.text(
            rail.min() - 1, 1.0, " Rail Era", va="top", fontsize=8, color="#666666", transform=ax.get_xaxis_transform()
        )
    ax.set_xlabel("round (each player's turns in order within it)")
    ax.set_ylabel("VP")
    ax.set_title("VP so far (solid) and if the era ended now (dashed)")
    player_legend(ax)
    return fig


def money_chart(money: pd.DataFrame) -> Chart:
    """Money after income (lines) and money spent in the round (bars), per player."""
    fig, ax = new_chart()
    seats = sorted(money["seat"].unique())
    width = 0.8 / max(1, len(seats))
    for i, seat in enumerate(seats):
        g = money[money["seat"] == seat]
        c = PLAYER_COLOURS[int(seat)]
        ax.bar(g["round"] - 0.4 + width * (i + 0.5), g["spent_this_round"], width=width, color=c, alpha=0.35)
        player_line(ax, g["round"], g["money"], g["name"].iloc[0], color=c, marker="o", ms=3)
    ax.set_xlabel("round")
    ax.set_ylabel("£")
    ax.set_title("Money after income (lines) and spent in the round (bars)")
    player_legend(ax)
    return fig


LABEL_MARKERS = {"inaccuracy": ("o", "#d4a000"), "mistake": ("s", "#e06c00"), "blunder": ("X", "#c00000")}


def win_probability_chart(review: GameReview, rail_from: int | None = None) -> Chart:
    """Each player's win probability after each reviewed action (x: the action's number, from 1, as on
    screen), the judged slips marked on the mover's line. ``rail_from``: the index of the Rail Era's
    first action, drawn as a dashed line."""
    fig, ax = new_chart(9, 4)
    x = [a.index + 1 for a in review.actions]
    for seat, name in enumerate(review.players):
        y = [100 * a.win_after[seat] for a in review.actions]
        player_line(ax, x, y, name, color=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)], lw=1.8)
    for kind, (marker, colour) in LABEL_MARKERS.items():
        marked = [a for a in review.actions if a.label == kind]
        if marked:
            ax.scatter(
                [a.index + 1 for a in marked],
                [100 * a.win_after[a.seat] for a in marked],
                marker=marker,
                s=36,
                color=colour,
                edgecolors="white",
                linewidths=0.6,
                zorder=3,
                label=kind,
            )
    ax.axhline(100 / max(1, len(review.players)), color="#cccccc", lw=1, ls=":")
    if rail_from is not None and x and min(x) <= rail_from + 1 <= max(x):
        ax.axvline(rail_from + 0.5, color="#999999", ls="--", lw=1)
        ax.text(
            rail_from + 0.5, 1.0, " Rail Era", va="top", fontsize=8, color="#666666", transform=ax.get_xaxis_transform()
        )
    ax.set_ylim(0, 100)
    if x:
        ax.set_xlim(0.5, max(x) + 0.5)
    ax.set_xlabel("action (numbered from 1)")
    ax.set_ylabel("win probability (%)")
    ax.set_title("Win probability after each action")
    lines = [h for h in ax.get_lines() if getattr(h, "_brass_label", None) is not None]
    slips = [h for h in ax.collections if h.get_label() in LABEL_MARKERS]
    handles: list[Artist] = [*lines, *slips]
    labels = [str(getattr(h, "_brass_label", h.get_label())) for h in handles]
    fig.legend(
        handles,
        labels,
        fontsize=8,
        frameon=False,
        loc="outside right upper",
    )
    return fig
