"""A reliability plot: predicted win probability against the observed win share, per bin, with counts.

Built as a :class:`~brass_stats.presentation.plots.Chart` (no pyplot, no backend chosen). The bins are
those of :func:`brass_stats.bots.value.training.calibration_bins`: ``(mean predicted,
mean observed, count)`` per non-empty bin of equal width.

>>> fig = reliability_chart({"all": [(0.05, 0.04, 900), (0.52, 0.55, 100)]})
>>> [ax.get_ylabel() for ax in fig.axes]
['observed win share', 'pairs']
>>> fig.to_png()[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .corpus_plots import COLOURS
from .plots import Chart
from .text import plot_text

Bins = Sequence[tuple[float, float, int]]


def reliability_chart(
    series: Mapping[str, Bins],
    n_bins: int = 10,
    title: str = "Calibration on held-out games",
    width: float = 5.5,
    height: float = 5.5,
) -> Chart:
    """One line per series (e.g. ``{"all": ..., "Canal Era": ..., "Rail Era": ...}``): each bin's mean
    predicted probability against its mean observed win share, the diagonal for a perfect model; below,
    how many (position, seat) pairs each bin holds (log scale), the series' bars side by side."""
    fig = Chart(figsize=(width, height), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 1)})
    top.plot((0, 1), (0, 1), color="#999999", ls="--", lw=1, label="perfect calibration")
    names = list(series)
    bar = 1 / n_bins / max(len(names), 1) * 0.9
    for i, name in enumerate(names):
        bins = list(series[name])
        colour = COLOURS[i % len(COLOURS)]
        top.plot(
            [b[0] for b in bins], [b[1] for b in bins], color=colour, marker="o", ms=4, lw=1.2, label=plot_text(name)
        )
        # each bar at its bin: bins are equal-width and a bin's mean prediction lies inside it
        where = [min(int(b[0] * n_bins), n_bins - 1) for b in bins]
        x = [(w + 0.05) / n_bins + (i + 0.5) * bar for w in where]
        bottom.bar(x, [b[2] for b in bins], width=bar, color=colour, align="center")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.set_ylabel("observed win share")
    top.set_title(plot_text(title, limit=100), fontsize=10)
    top.grid(alpha=0.3)
    top.legend(fontsize=8, frameon=False, loc="upper left")
    bottom.set_yscale("log")
    bottom.set_xlabel("predicted win probability")
    bottom.set_ylabel("pairs")
    bottom.grid(alpha=0.3, axis="y")
    return fig


__all__ = ["reliability_chart"]
