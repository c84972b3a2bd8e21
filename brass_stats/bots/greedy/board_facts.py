"""Fast twin of :func:`~brass_stats.bots.greedy.evaluation.explain` (held equal by tests/test_greedy_evaluator.py).

What the evaluation of one seat takes from the board alone (links, tiles placed and flipped),
computed once per board and updated from the tiles and links that changed:
:class:`TileFacts`, :class:`LinkFacts` and :class:`BoardFacts`, which
:class:`~brass_stats.bots.greedy.fast_evaluation.Evaluator` reads.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

from ...engine.connectivity import trade_locations
from ...engine.state import GameState, Tile
from ...rules_data import IndustryLevel, Location, RulesData
from .evaluation import EMPTY_SLOT_ICONS
from .weights import Weights

# kinds of own unflipped tiles in :class:`BoardFacts`
SELL_FIXED = 0  # P(sale) is known from the board alone
SELL_MERCHANT = 1  # Birmingham: connected to a buyer; ready if it or a brewery in reach has beer
SELL_MARKET = 2  # Lancashire: connected to a trade location; the Distant Cotton Market may close
RESOURCE = 3  # coal mine, iron works, brewery (and Lancashire's port): cubes / barrels left


class TileFacts:
    """What the evaluation of one seat takes from the tiles alone: placed, owned, flipped (not cubes).

    Made from scratch with one pass over the tiles, or derived from the facts of a state this one
    was reached from (:meth:`derive`) by looking only at the tiles that changed: tiles are shared
    between copies of a state and replaced, never changed, by the engine (copy on write), so a
    changed tile is one that is not the same object any more.
    """

    __slots__ = (
        "era",
        "tiles",
        "icons",
        "tile_vp",
        "rescoring",
        "own_unflipped",
        "own_locs",
        "breweries",
        "ports",
        "unflipped_icons",
        "placed",
    )

    def __init__(self, state: GameState, seat: int, w: Weights) -> None:
        rules = state.rules
        canal = state.era == "canal"
        level = rules.level
        icons: dict[str, int] = {}
        tile_vp = 0
        rescoring = 0.0
        own_unflipped: list[tuple[str, str, IndustryLevel]] = []
        own_locs: set[str] = set()
        breweries: list[tuple[str, int, str]] = []  # unflipped breweries, any owner: ref, owner, location
        ports: list[str] = []  # locations of unflipped ports (Lancashire), any owner
        unflipped_icons: dict[str, int] = {}  # link icons of unflipped tiles, per location
        placed: dict[str, int] = {}  # tiles per location
        for ref, t in state.tiles.items():
            loc = _location_of(ref)
            info = level(t.industry, t.level)
            placed[loc] = placed.get(loc, 0) + 1
            if t.flipped:
                icons[loc] = icons.get(loc, 0) + info.link_vp
                if t.owner == seat:
                    tile_vp += info.vp
                    if canal and t.level >= 2:
                        rescoring += w.carry * info.vp
            else:
                unflipped_icons[loc] = unflipped_icons.get(loc, 0) + info.link_vp
                if t.industry == "brewery":
                    breweries.append((ref, t.owner, loc))
                elif t.industry == "port":
                    ports.append(loc)
                if t.owner == seat:
                    own_unflipped.append((ref, loc, info))
            if t.owner == seat:
                own_locs.add(loc)
        self.era = state.era
        self.tiles = state.tiles
        self.icons = icons
        self.tile_vp = tile_vp
        self.rescoring = rescoring
        self.own_unflipped = own_unflipped
        self.own_locs = own_locs
        self.breweries = breweries
        self.ports = ports
        self.unflipped_icons = unflipped_icons
        self.placed = placed

    def derive(self, state: GameState, seat: int, w: Weights) -> TileFacts | None:
        """These facts updated to ``state``, reached from the state they describe by adding tiles,
        flipping tiles or taking cubes; None when it got there otherwise (a tile removed, overbuilt
        or moved, or a new era): make them from scratch then."""
        old = self.tiles
        new = state.tiles
        if state.era != self.era:
            return None
        if new is old:
            return self
        old_refs = list(old)
        new_refs = list(new)
        n = len(old_refs)
        if new_refs[:n] != old_refs:  # a tile left, or one moved to the end
            return None
        old_tiles = list(old.values())
        new_tiles = list(new.values())
        # tiles are replaced, never changed: compare identities (at C speed: most are the same)
        changed: list[tuple[str, Tile | None, Tile]] = [
            (new_refs[i], old_tiles[i], new_tiles[i])
            for i in itertools.compress(range(n), map(operator.is_not, old_tiles, new_tiles))
        ]
        for i in range(n, len(new_refs)):
            changed.append((new_refs[i], None, new_tiles[i]))
        for _, o, t in changed:
            if o is not None and (
                o.owner != t.owner or o.industry != t.industry or o.level != t.level or (o.flipped and not t.flipped)
            ):
                return None  # overbuilt (or unflipped)
        out = TileFacts.__new__(TileFacts)
        out.era = self.era
        out.tiles = new
        out.icons = self.icons
        out.tile_vp = self.tile_vp
        out.rescoring = self.rescoring
        out.own_unflipped = self.own_unflipped
        out.own_locs = self.own_locs
        out.breweries = self.breweries
        out.ports = self.ports
        out.unflipped_icons = self.unflipped_icons
        out.placed = self.placed
        rules = state.rules
        canal = state.era == "canal"
        rescored = False
        for ref, o, t in changed:
            flips = t.flipped and (o is None or not o.flipped)
            if o is not None and not flips:
                continue  # cubes or barrels taken, nothing else
            loc = _location_of(ref)
            info = rules.level(t.industry, t.level)
            if out.unflipped_icons is self.unflipped_icons:
                out.unflipped_icons = dict(self.unflipped_icons)
            if o is None:
                if out.placed is self.placed:
                    out.placed = dict(self.placed)
                out.placed[loc] = out.placed.get(loc, 0) + 1
                if not flips:
                    out.unflipped_icons[loc] = out.unflipped_icons.get(loc, 0) + info.link_vp
            else:  # flipped in place: its icons now count as flipped
                out.unflipped_icons[loc] -= info.link_vp
            own = t.owner == seat
            if flips:
                if out.icons is self.icons:
                    out.icons = dict(self.icons)
                out.icons[loc] = out.icons.get(loc, 0) + info.link_vp
                if own:
                    out.tile_vp += info.vp
                    rescored = rescored or (canal and t.level >= 2)
            if o is None:  # a new tile
                if own and loc not in out.own_locs:
                    out.own_locs = out.own_locs | {loc}
                if not flips:
                    if t.industry == "brewery":
                        out.breweries = [*out.breweries, (ref, t.owner, loc)]
                    elif t.industry == "port":
                        out.ports = [*out.ports, loc]
                    if own:
                        out.own_unflipped = [*out.own_unflipped, (ref, loc, info)]
            else:  # flipped in place
                if t.industry == "brewery":
                    out.breweries = [b for b in out.breweries if b[0] != ref]
                elif t.industry == "port":
                    out.ports = list(out.ports)
                    out.ports.remove(loc)
                if own:
                    out.own_unflipped = [u for u in out.own_unflipped if u[0] != ref]
        if rescored:  # in the board's order, like explain()
            out.rescoring = 0.0
            for t in new.values():
                if t.owner == seat and t.flipped and t.level >= 2:
                    out.rescoring += w.carry * rules.level(t.industry, t.level).vp
        return out

    def slot_icons(self, location: Location) -> float:
        """Link icons still to come at a town: unflipped tiles' icons, and a guess per empty slot
        (the slots of ``explain()`` summed in another order: halves and integers, so exactly)."""
        loc = location.id
        empty = len(location.slots) - self.placed.get(loc, 0)
        return self.unflipped_icons.get(loc, 0) + EMPTY_SLOT_ICONS * empty


class LinkFacts:
    """What the evaluation of one seat takes from the links alone: connectivity and own links.

    ``component`` maps every linked location to a representative of its connected component (an
    unlinked location is alone in its own), so "connected" is one comparison; :meth:`derive` merges
    the components of links added since.
    """

    __slots__ = ("links", "own_links_at", "own_ends", "component")

    def __init__(self, links: dict[str, int], rules: RulesData, seat: int) -> None:
        defs = rules.links
        own_links_at: dict[str, int] = {}
        linked: list[tuple[str, ...]] = []
        for lid, owner in links.items():
            ends = defs[lid].connects
            linked.append(ends)
            if owner == seat:
                for loc in ends:
                    own_links_at[loc] = own_links_at.get(loc, 0) + 1
        self.links = links
        self.own_links_at = own_links_at
        self.own_ends = set(own_links_at)
        self.component = _components(linked) if linked else {}

    def derive(self, new: dict[str, int], rules: RulesData, seat: int) -> LinkFacts | None:
        """These facts updated to the links ``new``: these links plus new ones (else None)."""
        old = self.links
        if new is old:
            return self
        n = len(old)
        new_ids = list(new)
        if new_ids[:n] != list(old) or list(new.values())[:n] != list(old.values()):
            return None  # links are only ever added (until an era ends)
        if len(new_ids) == n:
            return self
        added = [(lid, new[lid]) for lid in new_ids[n:]]
        defs = rules.links
        out = LinkFacts.__new__(LinkFacts)
        out.links = new
        out.own_links_at = self.own_links_at
        out.own_ends = self.own_ends
        component = dict(self.component)
        for lid, owner in added:
            ends = defs[lid].connects
            if owner == seat:
                if out.own_links_at is self.own_links_at:
                    out.own_links_at = dict(self.own_links_at)
                    out.own_ends = set(self.own_ends)
                for loc in ends:
                    out.own_links_at[loc] = out.own_links_at.get(loc, 0) + 1
                out.own_ends.update(ends)
            roots = {component.get(loc, loc) for loc in ends}
            root = component.get(ends[0], ends[0])
            roots.discard(root)
            if roots:
                for loc, r in component.items():
                    if r in roots:
                        component[loc] = root
            for loc in ends:
                component[loc] = root
        out.component = component
        return out


class BoardFacts:
    """What :func:`explain` takes from the board alone (links, tiles placed and flipped), for one seat.

    A board changes only through :meth:`~brass_stats.engine.state.GameState.touch_board`, which
    bumps ``board_version``; two states with the same ``board_version``, one copied from the
    other, hold the same links and the same tiles, flipped alike (the cubes and barrels on the
    tiles, the merchants' beer and everything off the board may differ: those are read from the
    state each time). It combines :class:`TileFacts` and :class:`LinkFacts`. Every float is
    accumulated in the order :func:`explain` uses (or is a sum of halves, exact in any order), so
    :meth:`Evaluator.value` gives exactly the same number.
    """

    __slots__ = ("pending", "rescoring", "growth", "reach", "tiles", "breweries", "tile_facts", "link_facts")

    def __init__(
        self,
        state: GameState,
        seat: int,
        w: Weights,
        tile_facts: TileFacts | None = None,
        link_facts: LinkFacts | None = None,
    ) -> None:
        rules = state.rules
        tf = self.tile_facts = tile_facts or TileFacts(state, seat, w)
        lf = self.link_facts = link_facts or LinkFacts(state.links, rules, seat)
        component = lf.component
        own_links_at = lf.own_links_at
        locations = rules.locations
        icons = tf.icons
        link_vp = 0
        growth = 0.0  # a sum of halves: exact in any order
        for loc, n in own_links_at.items():
            L = locations[loc]
            link_vp += n * (L.printed_link_vp + icons.get(loc, 0))
            if L.kind != "merchant":
                growth += n * tf.slot_icons(L)
        self.growth = growth
        self.pending = float(link_vp + tf.tile_vp)
        self.rescoring = tf.rescoring
        self.reach = len(tf.own_locs | lf.own_ends)
        self.breweries = [(ref, owner, component.get(loc, loc)) for ref, owner, loc in tf.breweries]

        dcm = bool(rules.dcm_track)
        if dcm:
            ports = {component.get(loc, loc) for loc in tf.ports}
            trade_components = {component.get(x, x) for x in trade_locations(state)}
        seen: dict[str, int] = {}
        tiles: list[tuple[Any, ...]] = []
        canal = state.era == "canal"
        for ref, loc, info in tf.own_unflipped:
            industry = info.industry
            here = component.get(loc, loc)
            kind: int
            data: Any
            if industry in rules.sellable:
                if dcm:
                    if here in ports:
                        kind, data = SELL_FIXED, w.p_sell_ready
                    elif here in trade_components:
                        kind, data = SELL_MARKET, None
                    else:
                        kind, data = SELL_FIXED, w.p_sell_unconnected
                else:
                    buyers = tuple(
                        i
                        for i, ms in enumerate(state.merchant_spaces)
                        if industry in ms.accepts and component.get(ms.location, ms.location) == here
                    )
                    if buyers:
                        kind, data = SELL_MERCHANT, (buyers, here)
                    else:
                        kind, data = SELL_FIXED, w.p_sell_unconnected
            else:
                crowd = w.crowding ** seen.get(industry, 0)
                seen[industry] = seen.get(industry, 0) + 1
                isolated = industry == "coal_mine" and loc not in component  # no link reaches it
                kind, data = RESOURCE, (crowd, isolated)
            worth = info.vp + info.link_vp * own_links_at.get(loc, 0)
            tiles.append((ref, kind, data, worth, canal and info.level >= 2, info.vp, info.income_spaces))
        self.tiles = tiles

    def derive(
        self,
        state: GameState,
        seat: int,
        w: Weights,
        links: dict[str, int] | None = None,
        tile_facts: TileFacts | None = None,
    ) -> BoardFacts:
        """The facts of ``state`` (with ``links`` instead of its own, if given), reached from the state
        these describe: derived where it can be (``tile_facts``: those of ``state``, if known)."""
        tf = tile_facts or self.tile_facts.derive(state, seat, w)
        if links is None:
            links = state.links
        lf = self.link_facts.derive(links, state.rules, seat) or LinkFacts(links, state.rules, seat)
        return BoardFacts(state, seat, w, tf, lf)


_LOCATION_OF: dict[str, str] = {}


def _location_of(ref: str) -> str:
    """The location of a slot reference ``"<location>:<slot>"`` (memoised: there are few)."""
    loc = _LOCATION_OF.get(ref)
    if loc is None:
        loc = _LOCATION_OF[ref] = ref.split(":", 1)[0]
    return loc


def _components(linked: Sequence[tuple[str, ...]]) -> dict[str, str]:
    """Every linked location -> one representative location of its connected component."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for ends in linked:
        for loc in ends:
            parent.setdefault(loc, loc)
        first = root(ends[0])
        for loc in ends[1:]:
            other = root(loc)
            if other != first:
                parent[other] = first
    return {loc: root(loc) for loc in parent}
