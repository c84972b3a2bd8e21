"""What one action changed on the board, read from a replay step's effects (for highlighting it).

Both the SVG board (``brass-stats board --at``) and the viewer mark these changes.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.engine import Loan
>>> from brass_stats.replay import Replay
>>> r = Replay(GameLog.new(["Ann", "Bob"], seed=1))
>>> seat = r.state.current_player
>>> bool(changes_of(r.push(Loan(seat, r.state.players[seat].hand[0]))))
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..replay import Step


@dataclass
class Changes:
    """What one action did to the board (for highlighting)."""

    placed: set[str] = field(default_factory=set)  # slot refs of tiles built
    flipped: set[str] = field(default_factory=set)
    removed: dict[str, tuple[int, str, int]] = field(default_factory=dict)  # ref -> (owner, industry, level)
    links: set[str] = field(default_factory=set)
    # where cubes and barrels came from: tile ref, "market:coal", "market:iron" or "merchant:<location>"
    taken: dict[str, dict[str, int]] = field(default_factory=dict)
    # (source as in ``taken``, slot ref or link id it went to), for arrows
    flows: set[tuple[str, str]] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.placed or self.flipped or self.removed or self.links or self.taken)


def changes_of(step: Step) -> Changes:
    """The board changes recorded in a replay step's effects."""
    ch = Changes()
    action = step.action
    # the merchants whose barrels were drunk, in the order the sales drink them
    merchants = iter([s.merchant for s in getattr(action, "sales", ()) for b in s.beer or () if b == "merchant"])
    for e in step.effects:
        d = e.detail
        if e.kind == "build":
            ch.placed.add(d["tile"])
            ch.removed.pop(d["tile"], None)
        elif e.kind == "flip":
            ch.flipped.add(d["tile"])
        elif e.kind == "tile_removed":
            ch.removed[d["tile"]] = (e.seat, d["industry"], d["level"])
        elif e.kind == "link":
            ch.links.add(d["link"])
        elif e.kind in ("coal_used", "iron_used", "beer_used"):
            resource = e.kind.split("_")[0]
            src = d.get("source", "")
            if src == "market":
                src = f"market:{resource}"
            elif src == "merchant":
                src = f"merchant:{next(merchants, None)}"
            bucket = ch.taken.setdefault(src, {})
            bucket[resource] = bucket.get(resource, 0) + e.amount
    # a tile built over another one (overbuilding) is new, not removed
    for ref in ch.placed:
        ch.removed.pop(ref, None)
    ch.flows = _flows(step)
    return ch


def _source_key(src: str, resource: str, merchant: str | None) -> str:
    if src == "market":
        return f"market:{resource}"
    if src == "merchant":
        return f"merchant:{merchant}"
    return src


def _flows(step: Step) -> set[tuple[str, str]]:
    """Where each cube or barrel went: the built tile, the link it paid for, or the tile sold with it."""
    action = step.action
    flows: set[tuple[str, str]] = set()
    sales = getattr(action, "sales", None)
    if sales is not None:
        for sale in sales:
            for b in sale.beer or ():
                flows.add((_source_key(b, "beer", sale.merchant), sale.tile))
        return flows
    target: str | None = None
    for e in step.effects:
        if e.kind in ("build", "link"):
            target = e.detail.get("tile") or e.detail.get("link")
        elif e.kind in ("coal_used", "iron_used", "beer_used") and e.cause in ("build", "network"):
            flows.add((_source_key(e.detail.get("source", ""), e.kind.split("_")[0], None), target or ""))
    built = next((e.detail["tile"] for e in step.effects if e.kind == "build"), None)
    # a build pays for coal and iron before the tile is placed: those go to the built tile
    return {(src, built if not dst and built else dst) for src, dst in flows if (dst or built)}
