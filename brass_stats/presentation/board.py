"""Drawing the board with matplotlib: locations, links coloured by owner, tiles with owner, level and
flipped state. Positions and colours come from :mod:`.geometry`, shared with the SVG board.

>>> from brass_stats.engine import new_game, SeededChance
>>> fig = draw_board(new_game(["A", "B"], SeededChance(1)))
>>> len(fig.axes)
1
"""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..engine.state import GameState, Tile
from ..rules_data import RulesData
from .geometry import INDUSTRY_LETTER, MERCHANT_FACE, PLAYER_COLOURS, layout
from .text import plot_text


def draw_board(
    state: GameState,
    tiles: dict[str, Tile] | None = None,
    links: dict[str, int] | None = None,
    title: str | None = None,
    names: list[str] | None = None,
) -> Figure:
    """Draw the board of ``state`` (or the given tiles/links, e.g. ``state.era_boards[era]``)."""
    rules: RulesData = state.rules
    tiles = state.tiles if tiles is None else tiles
    links = state.links if links is None else links
    pos = layout(rules.edition)
    from .plots import Chart

    fig = Chart(figsize=(9, 10))
    ax = fig.add_subplot()
    ax.set_xlim(-8, 108)
    ax.set_ylim(-8, 106)
    ax.set_aspect("equal")
    ax.axis("off")
    # lines first (unbuilt ones faint), then built links on top
    for lid, link in rules.links.items():
        pts = [pos[loc] for loc in link.connects]
        owner = links.get(lid)
        style: dict[str, Any] = {"color": "#cccccc", "lw": 1.0, "ls": ":" if not link.canal else "-", "zorder": 1}
        if owner is not None:
            style = {"color": PLAYER_COLOURS[owner], "lw": 4.0, "ls": "-", "zorder": 2, "alpha": 0.9}
        a, b = pts[0], pts[1]
        ax.plot([a[0], b[0]], [a[1], b[1]], **style)
        if len(pts) == 3:  # the farm brewery joined to the Kidderminster-Worcester line
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            ax.plot([mid[0], pts[2][0]], [mid[1], pts[2][1]], **style)
    for loc_id, loc in rules.locations.items():
        x, y = pos[loc_id]
        if loc.is_merchant:
            faces = [
                MERCHANT_FACE[ms.face] + ("*" if ms.beer else "")
                for ms in state.merchant_spaces
                if ms.location == loc_id
            ]
            ax.add_patch(
                FancyBboxPatch((x - 5, y - 2.5), 10, 5, boxstyle="round,pad=0.4", fc="#f3e3b5", ec="#8a6d1d", zorder=3)
            )
            ax.text(x, y + 0.8, loc.name, ha="center", va="center", fontsize=7, weight="bold", zorder=4)
            label = " ".join(faces) or ("trade" if loc_id in rules.trade_locations else "(no tiles)")
            if state.dcm_pile or state.dcm_drawn:
                label = f"trade; market row {state.dcm_position}"
            ax.text(x, y - 1.4, label, ha="center", va="center", fontsize=6, zorder=4)
            continue
        n = len(loc.slots)
        w = 4.2 * n + 1.5
        ax.add_patch(
            FancyBboxPatch((x - w / 2, y - 2.6), w, 5.6, boxstyle="round,pad=0.3", fc="#f7f7f2", ec="#777777", zorder=3)
        )
        label = "Farm" if loc.kind == "farm_brewery" else loc.name
        ax.text(x, y + 4.3, label, ha="center", va="center", fontsize=6.5, zorder=4)
        for i, slot in enumerate(loc.slots):
            sx = x - w / 2 + 0.9 + 4.2 * i
            t = tiles.get(slot.ref)
            if t is None:
                ax.add_patch(Rectangle((sx, y - 2), 3.6, 4, fc="white", ec="#999999", lw=0.6, zorder=4))
                ax.text(
                    sx + 1.8,
                    y,
                    "/".join(INDUSTRY_LETTER[s] for s in slot.industries),
                    ha="center",
                    va="center",
                    fontsize=4.5,
                    color="#999999",
                    zorder=5,
                )
                continue
            colour = PLAYER_COLOURS[t.owner]
            ax.add_patch(
                Rectangle(
                    (sx, y - 2),
                    3.6,
                    4,
                    fc=colour if t.flipped else "white",
                    ec=colour,
                    lw=1.5,
                    hatch=None if t.flipped else "///",
                    zorder=4,
                )
            )
            text = f"{INDUSTRY_LETTER[t.industry]}{t.level}" + (f"\n{t.resources}" if t.resources else "")
            ax.text(
                sx + 1.8,
                y,
                text,
                ha="center",
                va="center",
                fontsize=5.5,
                color="white" if t.flipped else "black",
                weight="bold",
                zorder=5,
            )
    names = names or [p.name for p in state.players]
    handles = [ax.plot([], [], color=PLAYER_COLOURS[i], lw=4)[0] for i in range(len(names))]
    ax.legend(handles, [plot_text(n) for n in names], loc="lower right", fontsize=7, frameon=False)
    ax.text(
        -6,
        -6,
        "filled: flipped; hatched: unflipped; number: cubes/barrels left; C/K/I/M/P/B = industry",
        fontsize=6,
        color="#555555",
    )
    if title:
        ax.set_title(plot_text(title, limit=120))
    fig.tight_layout()
    return fig
