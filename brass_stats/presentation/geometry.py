"""Where things sit on the drawn board, and the names and colours every drawing shares.

The SVG board and the viewer read the same positions (and every chart the same colours),
so the report, ``brass-stats board`` and the viewer show one map.

>>> layout("birmingham")["dudley"]
(34.0, 34.0)
>>> industry_name("cotton_mill"), roman(3)
('Cotton Mill', 'III')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..rules_data import INDUSTRY_NAME, RulesData

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
INDUSTRY_LETTER = {
    "port": "Pt",
    "shipyard": "S",
    "cotton_mill": "C",
    "coal_mine": "K",
    "iron_works": "I",
    "manufacturer": "M",
    "pottery": "P",
    "brewery": "B",
}
# What a tile's cubes or barrels are, by industry.
RESOURCE_OF = {"coal_mine": "coal", "iron_works": "iron", "brewery": "beer"}
MERCHANT_FACE = {"cotton_mill": "C", "manufacturer": "M", "pottery": "P", "all": "CMP", "blank": "-"}
_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")


@cache
def layout(edition: str = "birmingham") -> dict[str, tuple[float, float]]:
    """Approximate position of every location on the printed board (x east, y north, about 0-100)."""
    raw = json.loads(resources.files(__package__).joinpath(f"{edition}_layout.json").read_text("utf-8"))
    return {k: (float(v[0]), float(v[1])) for k, v in raw["locations"].items()}


def industry_name(industry: str) -> str:
    return INDUSTRY_NAME.get(industry, industry.replace("_", " ").title())


def roman(level: int) -> str:
    return _ROMAN[level] if 0 < level < len(_ROMAN) else str(level)


# -- the SVG board's pixels ---------------------------------------------------------------

SCALE = 10  # px per layout unit
SLOT = 44  # slot square, px
SLOT_STEP = 48
PAD_X = 120
PAD_TOP = 90
PAD_BOTTOM = 80
PANEL_W = 340


@dataclass(frozen=True)
class Geometry:
    """Pixel positions of one edition's board."""

    edition: str
    centres: dict[str, tuple[float, float]]
    width: int
    height: int
    board_width: int

    def slot_xy(self, rules: RulesData, ref: str) -> tuple[float, float]:
        """Top-left corner of a slot."""
        loc_id, idx = ref.rsplit(":", 1)
        n = len(rules.locations[loc_id].slots)
        cx, cy = self.centres[loc_id]
        x0 = cx - (n * SLOT_STEP + 8) / 2
        return x0 + 6 + int(idx) * SLOT_STEP, cy - SLOT / 2

    def slot_centre(self, rules: RulesData, ref: str) -> tuple[float, float]:
        x, y = self.slot_xy(rules, ref)
        return x + SLOT / 2, y + SLOT / 2

    def link_mid(self, rules: RulesData, link_id: str) -> tuple[float, float]:
        a, b = (self.centres[loc] for loc in rules.links[link_id].endpoints)
        return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


@cache
def geometry(edition: str) -> Geometry:
    pos = layout(edition)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    centres = {k: ((x - x0) * SCALE + PAD_X, (y1 - y) * SCALE + PAD_TOP) for k, (x, y) in pos.items()}
    board_w = int((x1 - x0) * SCALE + 2 * PAD_X)
    height = int((y1 - y0) * SCALE + PAD_TOP + PAD_BOTTOM)
    return Geometry(edition, centres, board_w + PANEL_W, max(height, 1000), board_w)
