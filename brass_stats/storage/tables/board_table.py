"""Fast twin of ``_board`` in tests/reference_tables.py (held equal by tests/test_tables_equivalence.py).

The board table: every piece on the board at the end of each round and before each era's scoring,
each distinct piece row built once and the rounds' rows taken by index (:class:`BoardTable`).
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any

import numpy as np
import pyarrow as pa

from ...engine.state import GameState, Tile
from ...replay import Step
from ...rules_data import RulesData
from .assemble import Indexed, int_numpy
from .board_statistics import BoardStatistics
from .schemas import BOARD_SCHEMA


def _link_icons(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons of the flipped tiles per location (locations without any left out)."""
    out: dict[str, int] = {}
    level = rules.level
    for ref, t in tiles.items():
        if t.flipped:
            icons = level(t.industry, t.level).link_vp
            if icons:
                loc = ref.partition(":")[0]
                out[loc] = out.get(loc, 0) + icons
    return out


_BOARD_BASE = pa.schema([BOARD_SCHEMA.field(name) for name in BOARD_SCHEMA.names[1:6]])  # era ... before_scoring
_BOARD_PIECE = pa.schema([BOARD_SCHEMA.field(name) for name in BOARD_SCHEMA.names[6:]])  # piece ... vp_if_scored


class BoardTable:
    """The board table: every piece on the board at the end of each round (and before each era's scoring).

    Most pieces stay the same from one round to the next, so each distinct piece row is built once
    and the table is assembled by index: a round's rows are (round, piece) index pairs.
    """

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        self.rounds: list[tuple[Any, ...]] = []  # era, round, era_round, action_index, before_scoring
        self.pieces: list[tuple[Any, ...]] = []  # piece ... vp_if_scored
        self.rows_of_round: list[int] = []  # how many rows each round has (a round's rows are consecutive)
        self.piece_of_row: list[int] = []
        self._tiles: dict[str, Tile] = {}  # ref -> the tile last seen there
        self._tile_rows: dict[str, int] = {}  # ref -> that tile's piece row
        self._slots: dict[str, tuple[str, int]] = {}  # ref -> (location, slot): the order of the tiles
        self._refs: set[str] = set()  # the last board's tile refs, and their order
        self._order: list[str] = []
        self._others: dict[tuple[Any, ...], int] = {}  # link, merchant and market -> piece row
        self._ends: dict[str, tuple[int, tuple[str, ...]]] = {}  # link id -> printed icons, locations
        # the last mid-era round's links, link icons per location and link rows; merchants and their rows
        self._links: dict[str, int] | None = None
        self._icons: dict[str, int] = {}
        self._last_link_rows: list[int] = []
        self._spaces: list[Any] = []
        self._merchant_rows: list[int] = []
        self._markets: tuple[int, int] | None = None
        self._market_rows: list[int] = []

    def _piece(self, key: tuple[Any, ...], row: tuple[Any, ...]) -> int:
        i = self._others.get(key)
        if i is None:
            i = self._others[key] = len(self.pieces)
            self.pieces.append(row)
        return i

    def add(self, step: Step, st: GameState, current: BoardStatistics) -> None:
        """The board after ``step``, which ends a round (``current`` holds ``st``'s board statistics)."""
        era_end = st.game_over or st.era != step.era
        self.rounds.append((step.era, step.round, step.era_round, step.index, era_end))
        rows = self.piece_of_row
        start = len(rows)
        if era_end:  # the board as it was just before the era's scoring
            tiles, links = st.era_boards[step.era]
            self._add_tiles(tiles)
            rows.extend(self._link_rows(links, _link_icons(self.rules, tiles)))
        else:
            self._add_tiles(st.tiles)
            # the same link rows as the last round's unless a link or a location's link icons changed
            links = st.links
            if (links is not self._links and links != self._links) or current.icons != self._icons:
                self._links, self._icons = links, dict(current.icons)
                self._last_link_rows = self._link_rows(links, current.icons)
            rows.extend(self._last_link_rows)
        # the merchant tile faces, so a board drawn from the table shows them (merchant spaces are
        # replaced when they change, never changed in place)
        spaces = st.merchant_spaces
        if len(spaces) != len(self._spaces) or any(map(is_not, spaces, self._spaces)):
            self._spaces = list(spaces)
            self._merchant_rows = [
                self._piece(
                    (ms.location, ms.index, ms.face, ms.beer),
                    ("merchant", ms.location, ms.index, None, None, ms.face, None, None, int(ms.beer), 0),
                )
                for ms in spaces
            ]
        rows.extend(self._merchant_rows)
        markets = (st.coal_market, st.iron_market)
        if markets != self._markets:  # cubes left on the markets
            self._markets = markets
            self._market_rows = [
                self._piece((market, cubes), ("market", market, None, None, None, None, None, None, cubes, 0))
                for market, cubes in zip(("coal", "iron"), markets, strict=True)
            ]
        rows.extend(self._market_rows)
        self.rows_of_round.append(len(rows) - start)

    def _add_tiles(self, tiles: dict[str, Tile]) -> None:
        """The tiles' rows, by location then slot.

        Every tile is compared (by identity, without a Python loop): the board statistics see only
        the boards whose version changed, and taking coal or iron from a tile replaces it without a
        new version (a Develop's iron at the end of a round)."""
        if tiles.keys() != self._refs:  # tiles were built or removed: the order again
            slots = self._slots
            for ref in tiles.keys() - slots.keys():
                place, _, number = ref.partition(":")
                slots[ref] = (place, int(number))
            self._order = sorted(tiles, key=slots.__getitem__)
            self._refs = set(tiles)
        order, known, tile_rows = self._order, self._tiles, self._tile_rows
        replaced = list(compress(order, map(is_not, map(tiles.__getitem__, order), map(known.get, order))))
        if replaced:
            level, slots = self.rules.level, self._slots
            for ref in replaced:
                t = tiles[ref]
                loc, slot = slots[ref]
                vp = level(t.industry, t.level).vp if t.flipped else 0
                known[ref] = t
                tile_rows[ref] = len(self.pieces)
                self.pieces.append(("tile", loc, slot, None, t.owner, t.industry, t.level, t.flipped, t.resources, vp))
        self.piece_of_row.extend(map(tile_rows.__getitem__, order))

    def _link_rows(self, links: dict[str, int], icons: dict[str, int]) -> list[int]:
        """The links' rows, by link id (``icons``: link icons of the flipped tiles per location; the
        printed ones are summed once per link)."""
        ends, known, get = self._ends, self._others, icons.get
        out = []
        for link_id in sorted(links):
            end = ends.get(link_id)
            if end is None:
                connects = tuple(self.rules.links[link_id].connects)
                end = ends[link_id] = (sum(self.rules.locations[loc].printed_link_vp for loc in connects), connects)
            vp, connects = end
            for loc in connects:
                vp += get(loc, 0)
            owner = links[link_id]
            key = (link_id, owner, vp)
            i = known.get(key)
            if i is None:
                i = known[key] = len(self.pieces)
                self.pieces.append(("link", None, None, link_id, owner, None, None, None, None, vp))
            out.append(i)
        return out

    def columns(self, gid: str) -> dict[str, Any]:
        # a round's rows are consecutive: its values repeated as many times as it has rows
        of_round = np.fromiter(self.rows_of_round, dtype=np.intp, count=len(self.rows_of_round))
        era, *rest = zip(*self.rounds, strict=True) if self.rounds else ((),) * len(_BOARD_BASE)
        rounds = [
            Indexed(era, np.repeat(np.arange(len(of_round)), of_round)),
            *[np.repeat(int_numpy(c), of_round) for c in rest[:-1]],
            np.repeat(np.array(rest[-1], dtype=bool), of_round),
        ]
        n = len(self.piece_of_row)
        index = np.fromiter(self.piece_of_row, dtype=np.intp, count=n)
        pieces = zip(*self.pieces, strict=True) if self.pieces else [()] * len(_BOARD_PIECE)
        columns = {
            "game_id": Indexed((gid,), np.zeros(n, dtype=np.intp)),
            **dict(zip(_BOARD_BASE.names, rounds, strict=True)),
            **{name: Indexed(c, index) for name, c in zip(_BOARD_PIECE.names, pieces, strict=True)},
        }
        return columns
