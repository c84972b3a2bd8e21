"""Fast twin of :func:`count_board_statistics` (held equal by tests/test_tables_equivalence.py).

Each seat's board statistics for the turn_snapshots table (potential link and tile VP, pieces on the
board), counted from scratch by :func:`count_board_statistics` (the reference) and kept up to date from
one board to the next by :class:`BoardStatistics` (what the tables use).
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import compress
from operator import is_not, ne
from typing import Any

from ...engine.state import GameState, Tile
from ...rules_data import ALL_INDUSTRIES, RulesData
from .action_json import SORTED_JSON


def location_of(ref: str) -> str:
    """The location of a slot reference ``"location:slot"``."""
    return ref.split(":", 1)[0]


def _location_link_values(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons per location on a board: printed (merchants) plus flipped tiles, as scoring.location_link_value."""
    extra: Counter[str] = Counter()
    for ref, t in tiles.items():
        if t.flipped:
            extra[location_of(ref)] += rules.level(t.industry, t.level).link_vp
    return {loc: info.printed_link_vp + extra[loc] for loc, info in rules.locations.items()}


def count_board_statistics(state: GameState) -> list[tuple[Any, ...]]:
    """Per seat, from scratch, the snapshot values that depend only on the board: potential link VP,
    potential tile VP, tiles_on_board, tiles_<industry>..., flipped_tiles, tiles_by_level, links_on_board.

    The reference for :class:`BoardStatistics`, which keeps the same values up to date incrementally.
    """
    rules = state.rules
    over = state.game_over
    seats = range(len(state.players))
    count = {seat: dict.fromkeys(ALL_INDUSTRIES, 0) for seat in seats}
    by_level: dict[int, dict[str, dict[str, int]]] = {seat: {} for seat in seats}
    flipped = dict.fromkeys(seats, 0)
    tile_vp = dict.fromkeys(seats, 0)
    link_icons: Counter[str] = Counter()
    for ref, t in state.tiles.items():
        seat = t.owner
        count[seat][t.industry] += 1
        lv = by_level[seat].setdefault(t.industry, {})
        key = str(t.level)
        lv[key] = lv.get(key, 0) + 1
        if t.flipped:
            info = rules.level(t.industry, t.level)
            flipped[seat] += 1
            tile_vp[seat] += info.vp
            link_icons[location_of(ref)] += info.link_vp
    links = dict.fromkeys(seats, 0)
    link_vp = dict.fromkeys(seats, 0)
    locations, rule_links = rules.locations, rules.links
    for link_id, owner in state.links.items():
        links[owner] += 1
        if not over:
            link_vp[owner] += sum(locations[x].printed_link_vp + link_icons[x] for x in rule_links[link_id].connects)
    out = []
    for seat in seats:
        c = count[seat]
        out.append(
            (
                link_vp[seat],
                0 if over else tile_vp[seat],
                sum(c.values()),
                *c.values(),
                flipped[seat],
                SORTED_JSON(by_level[seat]),
                links[seat],
            )
        )
    return out


class BoardStatistics:
    """Every seat's board statistics (as :func:`count_board_statistics`), kept up to date from one board to the next.

    Consecutive boards differ by a few tiles and links, so only those are counted again: tiles are
    compared by identity (the engine never changes a tile in place but puts a changed copy in its
    place, see :class:`~brass_stats.engine.state.Tile`), links by owner. A seat's potential link VP is
    the sum, over the locations its links touch, of each location's link icons, so when a location's
    icons change it follows from the number of link ends each seat has there.

    The piece counts (``tiles_on_board`` ... ``links_on_board``) are kept as rows of :attr:`pieces`,
    one new row each time a seat's counts change; :attr:`piece_row` names each seat's current row.
    """

    def __init__(self, rules: RulesData, players: int) -> None:
        self.rules = rules
        self.level = rules.level
        self.seats = range(players)
        self.printed = {loc: info.printed_link_vp for loc, info in rules.locations.items()}
        self.tiles: dict[str, Tile] = {}
        self.links: dict[str, int] = {}
        self.count = [dict.fromkeys(ALL_INDUSTRIES, 0) for _ in self.seats]
        self.flipped = [0] * players
        self.tile_vp = [0] * players
        self.n_links = [0] * players
        self.link_vp = [0] * players
        self.icons: dict[str, int] = {}  # location -> link icons of the flipped tiles there
        self.ends: dict[str, dict[int, int]] = {}  # location -> seat -> that seat's link ends there
        self.pieces: list[tuple[Any, ...]] = []  # tiles_on_board ... links_on_board, one row per change
        self.piece_row = [0] * players
        self._changed: set[int] = set(self.seats)  # seats whose piece counts changed since the last row
        self._levels_json = [_NO_LEVELS] * players  # each seat's tiles_by_level

    def update(self, tiles: dict[str, Tile], links: dict[str, int]) -> None:
        """Move to a new board (``tiles`` and ``links`` are not changed afterwards)."""
        old = self.tiles
        if tiles is not old:
            # the tiles that are not the same objects any more (or new), found without a Python loop
            changed = list(compress(tiles, map(is_not, tiles.values(), map(old.get, tiles))))
            added = 0
            for ref in changed:
                t = tiles[ref]
                was = old.get(ref)
                if was is None:
                    added += 1
                elif was.owner == t.owner and was.industry == t.industry and was.level == t.level:
                    if was.flipped:  # else only its resources changed: nothing counted here
                        if not t.flipped:
                            self._flip(ref, was, -1)
                    elif t.flipped:
                        self._flip(ref, t, 1)
                    continue
                else:
                    self._tile(ref, was, -1)
                self._tile(ref, t, 1)
            if len(old) + added != len(tiles):  # some tiles left the board
                for ref, was in old.items():
                    if ref not in tiles:
                        self._tile(ref, was, -1)
            self.tiles = tiles
        old_links = self.links
        if not links and old_links:  # the end of the Canal Era: every link leaves the board
            for owner in old_links.values():
                self.n_links[owner] -= 1
                self._changed.add(owner)
            self.link_vp = [0] * len(self.link_vp)
            self.ends = {}
            self.links = links
        elif links is not old_links and links != old_links:
            added = 0
            for link_id in list(compress(links, map(ne, links.values(), map(old_links.get, links)))):
                owner = links[link_id]
                had = old_links.get(link_id)
                if had is None:
                    added += 1
                else:
                    self._link(link_id, had, -1)
                self._link(link_id, owner, 1)
            if len(old_links) + added != len(links):
                for link_id, had in old_links.items():
                    if link_id not in links:
                        self._link(link_id, had, -1)
            self.links = links
        if self._changed:
            pieces, levels, flipped, n_links = self.pieces, self._levels_json, self.flipped, self.n_links
            for seat in self._changed:
                c = self.count[seat].values()
                self.piece_row[seat] = len(pieces)
                pieces.append((sum(c), *c, flipped[seat], levels[seat], n_links[seat]))
            self._changed.clear()

    def _tile(self, ref: str, t: Tile, sign: int) -> None:
        """Count a tile onto (+1) or off (-1) the board."""
        seat, industry = t.owner, t.industry
        self.count[seat][industry] += sign
        # the seat's tiles_by_level after the change, memoised by the text before it and the change
        key = (self._levels_json[seat], industry, t.level, sign)
        text = _LEVEL_STEPS.get(key)
        if text is None:
            text = _level_step(*key)
        self._levels_json[seat] = text
        self._changed.add(seat)
        if t.flipped:
            self._flip(ref, t, sign)

    def _flip(self, ref: str, t: Tile, sign: int) -> None:
        """Count a flipped tile's VP and link icons in (+1) or out (-1)."""
        seat = t.owner
        info = self.level(t.industry, t.level)
        self.flipped[seat] += sign
        self.tile_vp[seat] += sign * info.vp
        self._changed.add(seat)
        if info.link_vp:
            loc = ref.partition(":")[0]
            icons = sign * info.link_vp
            self.icons[loc] = self.icons.get(loc, 0) + icons
            ends = self.ends.get(loc)
            if ends:
                link_vp = self.link_vp
                for s, n_ends in ends.items():
                    link_vp[s] += icons * n_ends

    def _link(self, link_id: str, owner: int, sign: int) -> None:
        self.n_links[owner] += sign
        all_ends = self.ends
        printed, icons = self.printed, self.icons
        vp = 0
        for loc in self.rules.links[link_id].connects:
            ends = all_ends.get(loc)
            if ends is None:
                ends = all_ends[loc] = {}
            ends[owner] = ends.get(owner, 0) + sign
            vp += printed[loc] + icons.get(loc, 0)
        self.link_vp[owner] += sign * vp
        self._changed.add(owner)

    def location_link_values(self) -> dict[str, int]:
        """Link icons per location on the current board (as :func:`_location_link_values`)."""
        icons = self.icons
        return {loc: printed + icons.get(loc, 0) for loc, printed in self.printed.items()}

    def rows(self, over: bool) -> list[tuple[Any, ...]]:
        """Per seat, the values of :func:`count_board_statistics` for the current board."""
        return [
            (0 if over else self.link_vp[s], 0 if over else self.tile_vp[s], *self.pieces[self.piece_row[s]])
            for s in self.seats
        ]


_NO_LEVELS = SORTED_JSON({})
_LEVEL_STEPS: dict[tuple[str, str, int, int], str] = {}


def _level_step(text: str, industry: str, level: int, sign: int) -> str:
    """A seat's tiles_by_level (sorted JSON: industry -> level -> tiles) with one tile of ``industry``
    and ``level`` more (``sign`` 1) or less (-1), memoised in :data:`_LEVEL_STEPS`."""
    by_industry = json.loads(text)
    levels = by_industry.setdefault(industry, {})
    key = str(level)
    n = levels.get(key, 0) + sign
    if n:
        levels[key] = n
    else:
        del levels[key]
        if not levels:
            del by_industry[industry]
    if len(_LEVEL_STEPS) > 100_000:  # bounded: an ingest worker lives for many games
        _LEVEL_STEPS.clear()
    out = _LEVEL_STEPS[(text, industry, level, sign)] = SORTED_JSON(by_industry)
    return out
