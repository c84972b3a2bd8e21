"""Where things sit on the drawn board, and the names and colours every drawing shares.

Both drawings (the SVG board and the matplotlib figure) read the same positions,
so the report, ``brass-stats board`` and the viewer show one map.

>>> layout("birmingham")["dudley"]
(34.0, 34.0)
>>> industry_name("cotton_mill"), roman(3)
('Cotton Mill', 'III')
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ..rules_data import INDUSTRY_NAME

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
