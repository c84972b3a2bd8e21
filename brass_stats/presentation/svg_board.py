"""The board as SVG: crisp at any zoom, readable at 100%, for both editions.

Every location and slot, links coloured by owner (canal or rail), tiles with industry,
level, owner, flipped state and cubes or barrels left, merchant tiles with their goods
and barrels, the coal and iron markets, and each player's money, income level and VP.
``highlight`` marks what an action changed (see :mod:`~brass_stats.presentation.changes`).

The drawing is made of named parts (one per link, location, market, player panel...).
``brass-stats board`` joins them into one file; the viewer sends each distinct part once
and swaps parts while stepping, so both show exactly the same drawing.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.replay import replay
>>> r = replay(GameLog.new(["Ann", "<Bob>"], seed=1))
>>> svg = board_svg(r.state)
>>> svg.startswith("<svg") and "&lt;Bob&gt;" in svg and "<Bob>" not in svg
True
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..engine.state import GameState, Tile
from ..rules_data import Location, RulesData
from .changes import Changes, changes_of
from .geometry import (
    INDUSTRY_LETTER,
    MERCHANT_FACE,
    PANEL_W,
    PLAYER_COLOURS,
    RESOURCE_OF,
    SLOT,
    SLOT_STEP,
    Geometry,
    geometry,
    industry_name,
    roman,
)

if TYPE_CHECKING:
    from ..replay import Step

RESOURCE_COLOUR = {"coal": "#222222", "iron": "#d9822b", "beer": "#8b5a2b"}
SMALL_FACE = ' style="font-size:11px"'
WHITE_TEXT = ' style="fill:#fff"'
HIGHLIGHT = "#ffb000"
REMOVED = "#c00000"
SOURCE = "#0097a7"

STYLE = """
.bs-board text{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;fill:#222}
.bs-board .loc{font-size:13px;font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.bs-board .ind{font-size:15px;font-weight:bold;text-anchor:middle}
.bs-board .lvl{font-size:12px;text-anchor:middle}
.bs-board .icon{font-size:11px;fill:#888;text-anchor:middle}
.bs-board .small{font-size:12px}
.bs-board .mid{text-anchor:middle}
.bs-board .head{font-size:18px;font-weight:bold}
.bs-board .pname{font-size:14px;font-weight:bold}
.bs-board .hl{font-size:12px;font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:4px}
.bs-board .inv{fill:#fff}
"""

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(text: object) -> str:
    """Text made safe for XML/HTML: escaped, with characters XML cannot hold replaced."""
    return html.escape(_XML_BAD.sub("\ufffd", str(text)), quote=True)


def short(name: str, limit: int = 20) -> str:
    """A name shortened to fit a panel; NFKC folds full-width punctuation that common fonts lack."""
    name = unicodedata.normalize("NFKC", name)
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


# -- parts ---------------------------------------------------------------------------------


def _f(v: float) -> str:
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}"


def _resource_marks(x: float, y: float, tile: Tile, light: bool) -> str:
    res = RESOURCE_OF.get(tile.industry)
    if res is None or tile.resources <= 0:
        return ""
    colour = RESOURCE_COLOUR[res]
    stroke = ' stroke="#fff" stroke-width="1"' if light else ""
    n = tile.resources
    size, step = (7, 8) if n <= 5 else (5, 6) if n <= 7 else (3, 4)
    start = x + (SLOT - (n * step - 1)) / 2
    out = []
    for i in range(n):
        cx = start + i * step
        if res == "beer":
            out.append(
                f'<circle cx="{_f(cx + size / 2)}" cy="{_f(y + 35 + size / 2)}" r="{size / 2 + 0.3:.1f}" '
                f'fill="{colour}"{stroke}/>'
            )
        else:
            out.append(f'<rect x="{_f(cx)}" y="{_f(y + 35)}" width="{size}" height="{size}" fill="{colour}"{stroke}/>')
    return "".join(out)


def _tile_title(tile: Tile, names: Sequence[str]) -> str:
    owner = names[tile.owner] if tile.owner < len(names) else f"seat {tile.owner}"
    words = [f"{industry_name(tile.industry)} {roman(tile.level)}", owner, "flipped" if tile.flipped else "not flipped"]
    res = RESOURCE_OF.get(tile.industry)
    if res:
        words.append(f"{tile.resources} {'barrels' if res == 'beer' else res + ' cubes'} left")
    return esc(", ".join(words))


def _slot_svg(rules: RulesData, geo: Geometry, ref: str, tile: Tile | None, names: Sequence[str]) -> str:
    x, y = geo.slot_xy(rules, ref)
    xs, ys = _f(x), _f(y)
    mx = _f(x + SLOT / 2)
    if tile is None:
        icons = "/".join(INDUSTRY_LETTER[i] for i in rules.slots[ref].industries)
        return (
            f'<rect x="{xs}" y="{ys}" width="{SLOT}" height="{SLOT}" fill="#fff" stroke="#aaa" stroke-width="1"/>'
            f'<text class="icon" x="{mx}" y="{_f(y + 26)}">{icons}</text>'
        )
    colour = PLAYER_COLOURS[tile.owner % len(PLAYER_COLOURS)]
    fill = colour if tile.flipped else "#fff"
    inv = ' style="fill:#fff"' if tile.flipped else ""
    return (
        f"<g><title>{_tile_title(tile, names)}</title>"
        f'<rect x="{_f(x + 1.5)}" y="{_f(y + 1.5)}" width="{SLOT - 3}" height="{SLOT - 3}" rx="3" fill="{fill}" '
        f'stroke="{colour}" stroke-width="3"/>'
        f'<text class="ind" x="{mx}" y="{_f(y + 18)}"{inv}>{INDUSTRY_LETTER[tile.industry]}</text>'
        f'<text class="lvl" x="{mx}" y="{_f(y + 31)}"{inv}>{roman(tile.level)}</text>'
        f"{_resource_marks(x, y, tile, tile.flipped)}</g>"
    )


def _town_svg(rules: RulesData, geo: Geometry, loc: Location, tiles: dict[str, Tile], names: Sequence[str]) -> str:
    cx, cy = geo.centres[loc.id]
    n = len(loc.slots)
    if n == 0:  # Lancashire towns that only links reach
        w = max(70, 8 * len(loc.name) + 12)
        return (
            f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - 12)}" width="{w}" height="24" rx="12" fill="#eeeeee" '
            f'stroke="#999"/><text class="small mid" x="{_f(cx)}" y="{_f(cy + 4)}">{esc(loc.name)}</text>'
        )
    w = n * SLOT_STEP + 8
    label = "Farm Brewery" if loc.kind == "farm_brewery" else loc.name
    parts = [
        f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - SLOT / 2 - 4)}" width="{w}" height="{SLOT + 8}" rx="5" '
        f'fill="#f4f1e6" stroke="#777"/>',
        f'<text class="loc mid" x="{_f(cx)}" y="{_f(cy - SLOT / 2 - 9)}">{esc(label)}</text>',
    ]
    parts += [_slot_svg(rules, geo, s.ref, tiles.get(s.ref), names) for s in loc.slots]
    return "".join(parts)


def _merchant_svg(state: GameState, geo: Geometry, loc: Location) -> str:
    rules = state.rules
    cx, cy = geo.centres[loc.id]
    spaces = [m for m in state.merchant_spaces if m.location == loc.id]
    merchant = rules.merchants.get(loc.id)
    n = max(len(spaces), 1)
    w = max(n * SLOT_STEP + 8, 120)
    if merchant is None:  # Lancashire: a market outside the map, reached by ports' trade
        return (
            f'<rect x="{_f(cx - 60)}" y="{_f(cy - 18)}" width="120" height="36" rx="6" fill="#e8eef7" '
            f'stroke="#35608f" stroke-dasharray="6 3" stroke-width="2"/>'
            f'<text class="loc mid" x="{_f(cx)}" y="{_f(cy - 1)}">{esc(loc.name)}</text>'
            f'<text class="small mid" x="{_f(cx)}" y="{_f(cy + 13)}">external market</text>'
        )
    out = [
        f'<rect x="{_f(cx - w / 2)}" y="{_f(cy - SLOT / 2 - 4)}" width="{w}" height="{SLOT + 8}" rx="6" '
        f'fill="#f3e3b5" stroke="#8a6d1d" stroke-width="2"/>',
        f'<text class="loc mid" x="{_f(cx)}" y="{_f(cy - SLOT / 2 - 9)}">{esc(loc.name)}</text>',
    ]
    x0 = cx - (len(spaces) * SLOT_STEP - 4) / 2
    for i, ms in enumerate(spaces):
        x = x0 + i * SLOT_STEP
        y = cy - SLOT / 2
        face = MERCHANT_FACE.get(ms.face, ms.face)
        accepts = ", ".join(industry_name(a) for a in sorted(ms.accepts)) or "nothing (blank)"
        title = esc(f"merchant tile: buys {accepts}; {'barrel of beer' if ms.beer else 'no beer'}")
        out.append(
            f"<g><title>{title}</title>"
            f'<rect x="{_f(x)}" y="{_f(y)}" width="{SLOT}" height="{SLOT}" rx="4" fill="#fffaf0" stroke="#8a6d1d"/>'
            f'<text class="ind" x="{_f(x + SLOT / 2)}" y="{_f(y + 20)}"'
            f"{SMALL_FACE if len(face) > 2 else ''}>{esc(face)}</text>"
        )
        if ms.beer:
            out.append(f'<circle cx="{_f(x + SLOT / 2)}" cy="{_f(y + 33)}" r="6" fill="{RESOURCE_COLOUR["beer"]}"/>')
        out.append("</g>")
    if not spaces:
        out.append(f'<text class="icon" x="{_f(cx)}" y="{_f(cy + 4)}">not in play</text>')
    bonus = _bonus_text(merchant.bonus_type, merchant.bonus_amount)
    out.append(f'<text class="small mid" x="{_f(cx)}" y="{_f(cy + SLOT / 2 + 20)}">beer bonus: {esc(bonus)}</text>')
    return "".join(out)


def _bonus_text(kind: str, amount: int) -> str:
    return {
        "money": f"+£{amount}",
        "vp": f"+{amount} VP",
        "income": f"+{amount} income",
        "develop": "free develop" if amount == 1 else f"{amount} free develops",
    }.get(kind, f"{kind} {amount}")


def _link_svg(rules: RulesData, geo: Geometry, link_id: str, owner: int | None, era: str) -> str:
    if owner is None:
        return ""
    pts = [geo.centres[loc] for loc in rules.links[link_id].connects]
    colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
    segs = [(pts[0], pts[1])]
    if len(pts) == 3:
        mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
        segs.append((mid, pts[2]))
    out = []
    for a, b in segs:
        line = f'x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}"'
        out.append(f'<line {line} stroke="{colour}" stroke-width="8" stroke-linecap="round"/>')
        if era == "rail":  # sleepers: tells rail links from canal links
            out.append(f'<line {line} stroke="#fff" stroke-width="2" stroke-dasharray="5 7"/>')
    return "".join(out)


def _market_svg(rules: RulesData, x: float, y: float, resource: str, cubes: int) -> str:
    market = rules.markets[resource]
    cap = market.capacity
    cell = min(22, (PANEL_W - 30) // cap)
    price = market.buy_price(cubes)
    out = [
        f'<text class="pname" x="{_f(x)}" y="{_f(y)}">{resource.title()} market: {cubes} of {cap}'
        f"{'' if cubes else ' (empty)'}, buy at £{price}</text>"
    ]
    for i in range(cap):
        cx = x + i * cell
        filled = i >= cap - cubes
        out.append(
            f'<rect x="{_f(cx)}" y="{_f(y + 8)}" width="{cell - 3}" height="{cell - 3}" fill="'
            f'{RESOURCE_COLOUR[resource] if filled else "#fff"}" stroke="#888"/>'
        )
        if i % 2 == 0 or cap <= 10:
            out.append(
                f'<text class="small mid" x="{_f(cx + (cell - 3) / 2)}" y="{_f(y + cell + 20)}">'
                f"£{market.prices[i]}</text>"
            )
    return "".join(out)


def _players_svg(state: GameState, x: float, y: float, names: Sequence[str]) -> str:
    out = [f'<text class="head" x="{_f(x)}" y="{_f(y)}">Players</text>']
    to_move = state.current_player
    for seat, p in enumerate(state.players):
        yy = y + 22 + seat * 44
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        name = names[seat] if seat < len(names) else p.name
        marker = " \u25c0 to move" if seat == to_move else ""
        out.append(
            f"<g><title>{esc(name)}</title>"
            f'<rect x="{_f(x)}" y="{_f(yy)}" width="16" height="16" fill="{colour}"/>'
            f'<text class="pname" x="{_f(x + 22)}" y="{_f(yy + 13)}">{esc(short(name))}{marker}</text>'
            f'<text class="small" x="{_f(x + 22)}" y="{_f(yy + 30)}">£{p.money} \u00b7 '
            f"income {state.income_level(seat)} \u00b7 {p.vp} VP</text></g>"
        )
    return "".join(out)


def _header_svg(state: GameState, title: str | None) -> str:
    if title is None:
        rounds = state.rules.rounds_per_era.get(state.num_players, 0)
        over = state.game_over
        title = "Game over" if over else f"{state.era.title()} Era, round {state.era_round} of {rounds}"
    return f'<text class="head" x="16" y="30">{esc(title)}</text>'


def _dcm_svg(state: GameState, x: float, y: float) -> str:
    track = state.rules.dcm_track
    out = [
        f'<text class="pname" x="{_f(x)}" y="{_f(y)}">Distant Cotton Market: {len(state.dcm_pile)} tiles left</text>'
    ]
    cell = 30
    for i, v in enumerate(track):
        cx = x + i * (cell + 3)
        here = i == state.dcm_position
        out.append(
            f'<rect x="{_f(cx)}" y="{_f(y + 8)}" width="{cell}" height="{cell}" fill="{"#35608f" if here else "#fff"}" '
            f'stroke="#35608f"/><text class="small mid" x="{_f(cx + cell / 2)}" y="{_f(y + 28)}"'
            f"{WHITE_TEXT if here else ''}>"
            f"{'X' if v is None else '+' + str(v)}</text>"
        )
    out.append(
        f'<text class="small" x="{_f(x)}" y="{_f(y + 56)}">marker (filled): income spaces for the next sale</text>'
    )
    return "".join(out)


def _legend_svg(rules: RulesData, x: float, y: float) -> str:
    lines = ["Industries: " + ", ".join(f"{INDUSTRY_LETTER[i]} {industry_name(i)}" for i in rules.industry_ids[:3])]
    rest = [f"{INDUSTRY_LETTER[i]} {industry_name(i)}" for i in rules.industry_ids[3:]]
    if rest:
        lines.append(", ".join(rest))
    if rules.edition == "lancashire":
        lines.append("Ports (Pt) sell cotton abroad; shipyards (S)")
        lines.append("flip when built. Dashed boxes: external markets")
    else:
        lines.append("Merchant tiles: goods bought (C/M/P, CMP all,")
        lines.append("- none); brown dot: barrel of beer left")
    lines.append("Roman numeral: level")
    out = [f'<text class="head" x="{_f(x)}" y="{_f(y)}">Legend</text>']
    yy = y + 20
    for line in lines:
        out.append(f'<text class="small" x="{_f(x)}" y="{_f(yy)}">{esc(line)}</text>')
        yy += 17
    grey = "#555555"  # samples in no player's colour
    out.append(
        f'<rect x="{_f(x)}" y="{_f(yy)}" width="22" height="22" fill="#fff" stroke="{grey}" stroke-width="3"/>'
        f'<text class="small" x="{_f(x + 28)}" y="{_f(yy + 16)}">not flipped</text>'
        f'<rect x="{_f(x + 130)}" y="{_f(yy)}" width="22" height="22" fill="{grey}" stroke="{grey}" stroke-width="3"/>'
        f'<text class="small" x="{_f(x + 158)}" y="{_f(yy + 16)}">flipped (scores)</text>'
    )
    yy += 34
    for i, (res, label) in enumerate((("coal", "coal"), ("iron", "iron"), ("beer", "beer"))):
        xx = x + i * 90
        if res == "beer":
            out.append(f'<circle cx="{_f(xx + 5)}" cy="{_f(yy - 4)}" r="5" fill="{RESOURCE_COLOUR[res]}"/>')
        else:
            out.append(f'<rect x="{_f(xx)}" y="{_f(yy - 9)}" width="10" height="10" fill="{RESOURCE_COLOUR[res]}"/>')
        out.append(f'<text class="small" x="{_f(xx + 15)}" y="{_f(yy)}">{label} left</text>')
    yy += 20
    out.append(
        f'<line x1="{_f(x)}" y1="{_f(yy)}" x2="{_f(x + 40)}" y2="{_f(yy)}" stroke="{grey}" stroke-width="8"/>'
        f'<text class="small" x="{_f(x + 48)}" y="{_f(yy + 4)}">canal link</text>'
        f'<line x1="{_f(x + 140)}" y1="{_f(yy)}" x2="{_f(x + 180)}" y2="{_f(yy)}" stroke="{grey}" stroke-width="8"/>'
        f'<line x1="{_f(x + 140)}" y1="{_f(yy)}" x2="{_f(x + 180)}" y2="{_f(yy)}" stroke="#fff" stroke-width="2" '
        f'stroke-dasharray="5 7"/><text class="small" x="{_f(x + 188)}" y="{_f(yy + 4)}">rail link</text>'
    )
    yy += 20
    out.append(
        f'<line x1="{_f(x)}" y1="{_f(yy)}" x2="{_f(x + 40)}" y2="{_f(yy)}" stroke="#5b8fc7" stroke-width="2.5" '
        f'stroke-dasharray="8 4"/><text class="small" x="{_f(x + 48)}" y="{_f(yy + 4)}">canal only</text>'
        f'<line x1="{_f(x + 140)}" y1="{_f(yy)}" x2="{_f(x + 180)}" y2="{_f(yy)}" stroke="#999" stroke-width="2.5" '
        f'stroke-dasharray="2 4"/><text class="small" x="{_f(x + 188)}" y="{_f(yy + 4)}">rail only</text>'
    )
    yy += 20
    out.append(
        f'<rect x="{_f(x)}" y="{_f(yy - 8)}" width="18" height="12" fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>'
        f'<text class="small" x="{_f(x + 26)}" y="{_f(yy + 3)}">changed by the last action</text>'
    )
    return "".join(out)


def _base_links(rules: RulesData, geo: Geometry) -> str:
    out = []
    for link in rules.links.values():
        pts = [geo.centres[loc] for loc in link.connects]
        segs = [(pts[0], pts[1])]
        if len(pts) == 3:
            mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
            segs.append((mid, pts[2]))
        if link.canal and link.rail:
            style = 'stroke="#999" stroke-width="2.5"'
        elif link.canal:
            style = 'stroke="#5b8fc7" stroke-width="2.5" stroke-dasharray="8 4"'
        else:
            style = 'stroke="#999" stroke-width="2.5" stroke-dasharray="2 4"'
        for a, b in segs:
            out.append(f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" {style}/>')
    return "".join(out)


# -- putting it together ----------------------------------------------------------------


def board_parts(
    state: GameState,
    *,
    tiles: dict[str, Tile] | None = None,
    links: dict[str, int] | None = None,
    era: str | None = None,
    title: str | None = None,
    names: Sequence[str] | None = None,
) -> list[tuple[str, str]]:
    """The drawing of everything that changes during a game, as named SVG fragments in drawing order."""
    rules = state.rules
    geo = geometry(rules.edition)
    tiles = state.tiles if tiles is None else tiles
    links = state.links if links is None else links
    era = era or state.era
    names = list(names) if names is not None else [p.name for p in state.players]
    parts: list[tuple[str, str]] = [
        (f"link:{lid}", _link_svg(rules, geo, lid, links.get(lid), era)) for lid in rules.links
    ]
    for loc in rules.locations.values():
        if loc.is_merchant:
            parts.append((f"loc:{loc.id}", _merchant_svg(state, geo, loc)))
        else:
            parts.append((f"loc:{loc.id}", _town_svg(rules, geo, loc, tiles, names)))
    px = geo.board_width + 10
    parts.append(("header", _header_svg(state, title)))
    parts.append(("players", _players_svg(state, px, 40, names)))
    my = 40 + 22 + 44 * len(state.players) + 30
    parts.append(("market:coal", _market_svg(rules, px, my, "coal", state.coal_market)))
    parts.append(("market:iron", _market_svg(rules, px, my + 70, "iron", state.iron_market)))
    if rules.dcm_track:
        parts.append(("dcm", _dcm_svg(state, px, my + 140)))
    return parts


def legend_y(rules: RulesData, players: int) -> float:
    return 40 + 22 + 44 * players + 30 + 140 + (90 if rules.dcm_track else 10)


def highlight_svg(state: GameState, changes: Changes | None, layer: str = "over") -> str:
    """Outlines and arrows for what an action changed (empty when nothing).

    ``layer="under"`` is the glow drawn beneath new links (so towns stay readable); ``"over"`` the rest."""
    if not changes:
        return ""
    rules = state.rules
    geo = geometry(rules.edition)
    if layer == "under":
        return _link_glow(rules, geo, changes)
    return _over(state, rules, geo, changes)


def _link_glow(rules: RulesData, geo: Geometry, changes: Changes) -> str:
    out = []
    for lid in sorted(changes.links):
        if lid not in rules.links:
            continue
        pts = [geo.centres[loc] for loc in rules.links[lid].endpoints]
        out.append(
            f'<line x1="{_f(pts[0][0])}" y1="{_f(pts[0][1])}" x2="{_f(pts[1][0])}" y2="{_f(pts[1][1])}" '
            f'stroke="{HIGHLIGHT}" stroke-width="18" stroke-opacity="0.7" stroke-linecap="round"/>'
        )
    return "".join(out)


def _over(state: GameState, rules: RulesData, geo: Geometry, changes: Changes) -> str:
    out: list[str] = []
    for ref in sorted(changes.placed | changes.flipped):
        if ref not in rules.slots:
            continue
        x, y = geo.slot_xy(rules, ref)
        out.append(
            f'<rect x="{_f(x - 4)}" y="{_f(y - 4)}" width="{SLOT + 8}" height="{SLOT + 8}" rx="5" fill="none" '
            f'stroke="{HIGHLIGHT}" stroke-width="5"/>'
        )
    for ref, (_owner, industry, level) in sorted(changes.removed.items()):
        if ref not in rules.slots:
            continue
        x, y = geo.slot_xy(rules, ref)
        out.append(
            f"<g><title>{esc(f'removed: {industry_name(industry)} {roman(level)}')}</title>"
            f'<rect x="{_f(x - 2)}" y="{_f(y - 2)}" width="{SLOT + 4}" height="{SLOT + 4}" fill="none" '
            f'stroke="{REMOVED}" stroke-width="3" stroke-dasharray="5 3"/>'
            f'<path d="M{_f(x + 6)} {_f(y + 6)}L{_f(x + SLOT - 6)} {_f(y + SLOT - 6)}M{_f(x + SLOT - 6)} {_f(y + 6)}'
            f'L{_f(x + 6)} {_f(y + SLOT - 6)}" stroke="{REMOVED}" stroke-width="2" stroke-opacity="0.7"/></g>'
        )
    players = len(state.players)
    pt: tuple[float, float]
    for src, used in sorted(changes.taken.items()):
        label = ", ".join(f"\u2212{n} {res}" for res, n in sorted(used.items()))
        if src.startswith("market:"):
            res = src.split(":")[1]
            x = geo.board_width + 10
            y = 40 + 22 + 44 * players + 30 + (70 if res == "iron" else 0)
            out.append(
                f'<rect x="{_f(x - 5)}" y="{_f(y - 18)}" width="{PANEL_W - 20}" height="62" fill="none" '
                f'stroke="{SOURCE}" stroke-width="3" stroke-dasharray="6 3"/>'
                f'<text class="hl" x="{_f(x + PANEL_W - 90)}" y="{_f(y + 52)}" style="fill:{SOURCE}">'
                f"{esc(label)}</text>"
            )
            continue
        if src.startswith("merchant:"):
            loc = src.split(":", 1)[1]
            if loc not in geo.centres:
                continue
            pt = geo.centres[loc]
            r = 42
            label_y = pt[1] - r - 6  # above: the bonus is written below a merchant
        elif src in rules.slots:
            pt = geo.slot_centre(rules, src)
            r = 34
            label_y = pt[1] + r + 14  # below: the town's name is above
        else:
            continue
        out.append(
            f'<circle cx="{_f(pt[0])}" cy="{_f(pt[1])}" r="{r}" fill="none" stroke="{SOURCE}" stroke-width="3" '
            f'stroke-dasharray="6 3"/>'
            f'<text class="hl mid" x="{_f(pt[0])}" y="{_f(label_y)}" style="fill:{SOURCE}">{esc(label)}</text>'
        )
        for dst in sorted(d for s, d in changes.flows if s == src):
            if dst in rules.slots:
                target = geo.slot_centre(rules, dst)
            elif dst in rules.links:
                target = geo.link_mid(rules, dst)
            else:
                continue
            if abs(target[0] - pt[0]) + abs(target[1] - pt[1]) <= 60:
                continue
            out.append(
                f'<line x1="{_f(pt[0])}" y1="{_f(pt[1])}" x2="{_f(target[0])}" y2="{_f(target[1])}" stroke="{SOURCE}" '
                f'stroke-width="3" stroke-dasharray="8 5" marker-end="url(#bs-arrow)"/>'
            )
    return "".join(out)


def svg_open(rules: RulesData, players: int, *, width: int | None = None) -> str:
    """The SVG element, styles and everything that never changes (frame, unbuilt links, legend)."""
    geo = geometry(rules.edition)
    w_attr = f' width="{width}"' if width else f' width="{geo.width}" height="{geo.height}"'
    edition = "Brass: Lancashire" if rules.edition == "lancashire" else "Brass: Birmingham"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bs-board" viewBox="0 0 {geo.width} {geo.height}"{w_attr} '
        f'style="max-width:100%;height:auto" role="img" aria-label="{edition} board">'
        f"<style>{STYLE}</style>"
        f'<defs><marker id="bs-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        f'orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="{SOURCE}"/></marker></defs>'
        f'<rect width="{geo.width}" height="{geo.height}" fill="#fbfaf5"/>'
        f'<rect x="{geo.board_width}" width="{PANEL_W}" height="{geo.height}" fill="#f0ede2"/>'
        f'<text class="small" x="16" y="{geo.height - 14}" style="fill:#666">{edition}</text>'
        f"{_base_links(rules, geo)}"
        f"<g>{_legend_svg(rules, geo.board_width + 10, legend_y(rules, players))}</g>"
    )


def board_svg(
    state: GameState,
    *,
    highlight: Changes | Step | None = None,
    tiles: dict[str, Tile] | None = None,
    links: dict[str, int] | None = None,
    era: str | None = None,
    title: str | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The board of ``state`` as a standalone SVG document.

    ``tiles``/``links``/``era`` draw another board on the same state (e.g. ``state.era_boards["canal"]``);
    ``highlight`` is a :class:`Changes` or a replay step whose changes are outlined.
    """
    if highlight is not None and not isinstance(highlight, Changes):
        highlight = changes_of(highlight)
    parts = board_parts(state, tiles=tiles, links=links, era=era, title=title, names=names)
    return join_parts(
        svg_open(state.rules, len(state.players)),
        (frag for _, frag in parts),
        highlight_svg(state, highlight),
        highlight_svg(state, highlight, "under"),
    )


def join_parts(head: str, fragments: Iterable[str], overlay: str, underlay: str = "") -> str:
    """The SVG document: the static head, the glow under new links, the parts, then the highlights."""
    body = "".join(f'<g data-part="{i}">{frag}</g>' for i, frag in enumerate(fragments))
    return f'{head}<g data-part="underlay">{underlay}</g>{body}<g data-part="overlay">{overlay}</g></svg>'
