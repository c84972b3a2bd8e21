"""A reviewed game for people: the better action drawn on the board, the largest mistakes, the words.

Shared by the replay viewer and the post-game report; the review itself is
:func:`brass_stats.analysis.review.review_game`'s :class:`~brass_stats.analysis.review.GameReview`.

>>> from brass_stats.rules_data import load_rules
>>> svg = better_action_svg(load_rules("birmingham"), {"type": "build", "location": "dudley", "slot": 0})
>>> 'class="bs-better"' in svg and "<rect" in svg
True
>>> better_action_svg(load_rules("birmingham"), {"type": "loan", "card": "loc:dudley"})
''
>>> vp(7.34), vp(7.34, 1.46), vp(None)
('7.3', '7.3 ± 1.5', '')
>>> points(0.1234)
'12.3'
>>> MEASURE.startswith("cost: the VP of expected final margin")
True
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from ..rules_data import RulesData
from .geometry import SLOT, geometry
from .svg_board import esc

if TYPE_CHECKING:
    from ..analysis.review import ActionReview, GameReview

LABEL_COLOURS = {"inaccuracy": "#d4a000", "mistake": "#e06c00", "blunder": "#c00000"}
BETTER_COLOUR = "#7b2cbf"
"""The better action's outline on the board (apart from the amber of what was played)."""


MEASURE = (
    "cost: the VP of expected final margin (your VP minus your opponents' mean) a move gave away against "
    "the best move found, counting only what the engine is sure of, and the chance of winning given away"
)
"""What a review's loss is, in one line (every page and table that shows a loss says it)."""


def labels_line() -> str:
    """The labels' thresholds and the accuracy formula, in one line (after :data:`MEASURE`)."""
    from ..analysis.review import margin_thresholds  # only pages of a review say it: it is loaded then
    from ..analysis.review.judge import WIN_VP_PER_PLAYER

    a, b, c = margin_thresholds()
    return (
        f"Labels count the cost (a whole win is worth {WIN_VP_PER_PLAYER:g} VP a player): inaccuracy from "
        f"{a:g} VP, mistake from {b:g}, blunder from {c:g}. Accuracy counts the margin the engine is sure of "
        "alone: lichess's formula with 1 VP of margin for 1 point (100: always the best move found; a 10 VP "
        "loss scores 64)."
    )


def vp(loss: float | None, se: float | None = None) -> str:
    """A loss in VP of expected margin, as people read it, with its standard error when given:
    ``7.34, 1.46`` -> ``"7.3 ± 1.5"``."""
    if loss is None:
        return ""
    return f"{loss:.1f}" if se is None else f"{loss:.1f} ± {se:.1f}"


def points(loss: float | None) -> str:
    """A win-probability loss (0-1) in percentage points, as people read it: ``0.1234`` -> ``"12.3"``
    (the review's ``win_loss``, kept for comparison; its ``loss`` is in VP: :func:`vp`)."""
    return "" if loss is None else f"{loss * 100:.1f}"


def _f(v: float) -> str:
    return f"{v:.1f}"


def better_action_svg(rules: RulesData, best_action: dict[str, Any] | None, title: str = "") -> str:
    """The better action drawn on the board: the slot a build would take, the links a network would
    place, the tiles a sale would sell (dashed, in :data:`BETTER_COLOUR`); empty for the other actions
    (develop, loan, scout, pass), which are shown in words only."""
    if not best_action:
        return ""
    geo = geometry(rules.edition)
    kind = best_action.get("type")
    marks: list[str] = []
    style = f'fill="none" stroke="{BETTER_COLOUR}" stroke-width="5" stroke-dasharray="9 5"'
    if kind == "build":
        loc, slot = best_action.get("location"), best_action.get("slot")
        ref = f"{loc}:{slot}"
        if ref in rules.slots:
            x, y = geo.slot_xy(rules, ref)
            marks.append(
                f'<rect x="{_f(x - 8)}" y="{_f(y - 8)}" width="{SLOT + 16}" height="{SLOT + 16}" rx="7" {style}/>'
            )
        elif isinstance(loc, str) and loc in geo.centres:  # no slot stated: the town
            cx, cy = geo.centres[loc]
            marks.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="48" {style}/>')
    elif kind == "network":
        for lid in best_action.get("links") or ():
            if lid not in rules.links:
                continue
            (ax, ay), (bx, by) = (geo.centres[loc] for loc in rules.links[lid].endpoints)
            marks.append(
                f'<line x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}" stroke="{BETTER_COLOUR}" '
                f'stroke-width="10" stroke-opacity="0.75" stroke-dasharray="14 8" stroke-linecap="round"/>'
            )
    elif kind == "sell":
        for sale in best_action.get("sales") or ():
            tile = sale.get("tile") if isinstance(sale, dict) else None
            if isinstance(tile, str) and tile in rules.slots:
                x, y = geo.slot_xy(rules, tile)
                marks.append(
                    f'<rect x="{_f(x - 8)}" y="{_f(y - 8)}" width="{SLOT + 16}" height="{SLOT + 16}" rx="7" {style}/>'
                )
    if not marks:
        return ""
    tip = f"<title>{esc(title)}</title>" if title else ""
    return f'<g class="bs-better">{tip}{"".join(marks)}</g>'


def played_best(a: ActionReview) -> bool:
    """Whether the action played is the best one the search found (nothing better to show)."""
    return a.best is None or a.best == a.action


def largest_mistakes(review: GameReview, top: int = 8) -> list[ActionReview]:
    """The judged actions that cost the most (:attr:`~ActionReview.cost`, what the labels count; cost > 0),
    largest first (ties: earlier first): a blunder never ranks below an unlabelled move."""
    lost = [a for a in review.actions if a.cost > 0 and not played_best(a)]
    return sorted(lost, key=lambda a: (-a.cost, a.index))[:top]


def viewer_review(review: GameReview, rules: RulesData, count: int) -> dict[str, Any]:
    """The review as the viewer's data: per action index (``count`` of them; null where not reviewed)
    each player's win probability after it (``w``), and for the mover the label (``l``), the better action
    in words (``b``), the cost (``c``, what the label counts), the margin lost that the engine is sure of
    (``s``, what accuracy counts) and the first reading of it (``loss``; ``r``: whether more samples
    changed its label), the mover's expected margin after the better action and after the action played
    on that first reading (``bv``, ``pv``, VP), and
    the better action's drawing. ``measure`` and ``labels``: what the loss is, the labels and the accuracy,
    in a line each."""
    from ..analysis.review import margin_label  # only pages of a review need it: it is loaded then

    acts: list[dict[str, Any] | None] = [None] * count
    better: list[str] = [""] * count
    for a in review.actions:
        if not 0 <= a.index < count:
            continue
        item: dict[str, Any] = {"w": [round(w, 4) for w in a.win_after], "j": a.judged}
        if a.judged:
            item.update(
                {
                    "l": a.label or "",
                    "b": "" if played_best(a) else unicodedata.normalize("NFKC", a.best or ""),
                    "c": round(a.cost, 2),
                    "s": round(a.accuracy_loss, 2),
                    "loss": round(a.loss or 0.0, 2),
                    "r": margin_label(a.loss or 0.0) != margin_label(a.accuracy_loss),
                    "bv": round(a.best_value or 0.0, 2),
                    "pv": round(a.played_value or 0.0, 2),
                }
            )
            if not played_best(a):
                better[a.index] = better_action_svg(rules, a.best_action, f"better: {a.best}")
        acts[a.index] = item
    summary = [
        {
            "a": None if p.accuracy is None else round(p.accuracy, 1),
            "i": p.inaccuracies,
            "m": p.mistakes,
            "b": p.blunders,
        }
        for p in review.summary
    ]
    return {
        "sims": review.simulations,
        "seed": review.seed,
        "acts": acts,
        "better": better,
        "summary": summary,
        "colours": LABEL_COLOURS,
        "measure": MEASURE,
        "labels": labels_line(),
        "reviewed": len([x for x in acts if x is not None]),
        "stopped": None if review.stopped is None else review.stopped.get("index"),
    }
