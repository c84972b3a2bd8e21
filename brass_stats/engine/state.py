"""Game state: plain mutable records, copied cheaply for look-ahead.

The state holds what is on the table; rules live in the action modules.
Each action starts from :meth:`GameState.successor` of the state before it, which shares with it
everything the engine replaces rather than changes: every list and dict but ``tiles`` (the engine
puts a new list or dict in place, e.g. ``state.deck = state.deck[n:]``), the chance source, and the
:class:`Player` records, which the engine changes only through :meth:`GameState.player_mut` (a
shared player is copied first). :meth:`GameState.copy`, for look-ahead, shares only what the engine
replaces rather than changes (the tile and merchant-space records, player mats, options, era boards);
:meth:`GameState.independent_copy` (what ``Replay.state_at`` hands out) shares nothing one may change.
Derived facts (who is connected to what) are cached per board version in
:mod:`brass_stats.engine.connectivity` and never recomputed while the board is unchanged.
Copies of a state share those caches until one of them changes its board: a change
replaces the changed state's cache dicts (never clears them), so what one copy adds
to a shared cache is true for every state sharing it.
"""

from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..codegen import shallow_copier
from ..rules_data import IndustryLevel, RulesData

if TYPE_CHECKING:
    from .setup import ChanceSource


def _short(name: str, limit: int = 40) -> str:
    """A player name cut for a one-line repr (names come from uploaded logs and may be huge)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


class Tile:
    """An industry tile on the board.

    A tile may be shared by several states (see :meth:`GameState.copy`): the engine changes one by
    putting a changed copy in its place (``state.tiles[ref] = t = state.tiles[ref].copy()``).
    """

    __slots__ = ("owner", "industry", "level", "flipped", "resources")

    def __init__(self, owner: int, industry: str, level: int, resources: int = 0, flipped: bool = False) -> None:
        self.owner = owner
        self.industry = industry
        self.level = level
        self.resources = resources  # coal cubes, iron cubes or beer barrels left
        self.flipped = flipped

    def __repr__(self) -> str:
        f = " flipped" if self.flipped else ""
        return f"Tile({self.industry} {self.level} p{self.owner}{f} r={self.resources})"

    def copy(self) -> Tile:
        return Tile(self.owner, self.industry, self.level, self.resources, self.flipped)


_STARTING_MATS: weakref.WeakKeyDictionary[RulesData, tuple[dict[str, tuple[int, ...]], dict[str, int]]] = (
    weakref.WeakKeyDictionary()
)


def _starting_mat(rules: RulesData) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
    """(the full player mat, the first level of each industry), made once per rules data (never changed)."""
    found = _STARTING_MATS.get(rules)
    if found is None:
        ids = rules.industry_ids
        mat = {ind: tuple(lv.tiles for lv in rules.industries[ind]) for ind in ids}
        found = _STARTING_MATS[rules] = (mat, {ind: rules.first_level(ind) for ind in ids})
    return found


class Player:
    __slots__ = (
        "seat",
        "name",
        "money",
        "income_space",
        "vp",
        "hand",
        "discard",
        "mat",
        "first_level",
        "spent",
        "loans",
        "link_tiles",
    )

    def __init__(self, seat: int, name: str, rules: RulesData) -> None:
        self.seat = seat
        self.name = name
        c = rules.constants
        self.money: int = c["starting_money"]
        self.income_space: int = c["income_marker_start_space"]
        self.vp: int = 0
        self.hand: list[str] = []
        self.discard: list[str] = []
        # tiles left on the player mat, per industry, per level (index: level - first level); shared
        # between copies of the player (and by every player at the start: the same full mat), so it
        # is replaced (set_mat_count), never changed in place
        self.mat: dict[str, tuple[int, ...]]
        self.first_level: dict[str, int]
        self.mat, self.first_level = _starting_mat(rules)
        self.spent: int = 0  # money spent this round (on the Character tile)
        self.loans: int = 0
        self.link_tiles: int = c["per_player_components"]["link_tiles"]

    def __repr__(self) -> str:
        return (
            f"<Player {self.seat} {_short(self.name)!r}: £{self.money}, {self.vp} VP, income space "
            f"{self.income_space}, {len(self.hand)} cards, {self.loans} loans, {self.tiles_left} tiles left>"
        )

    @property
    def tiles_left(self) -> int:
        """Industry tiles still on the player mat."""
        return sum(sum(levels) for levels in self.mat.values())

    def lowest_level(self, industry: str) -> int | None:
        for i, n in enumerate(self.mat[industry]):
            if n:
                return i + self.first_level[industry]
        return None

    def take_from_mat(self, industry: str, lowest: int | None = None) -> int:
        """Take the lowest tile of ``industry`` off the mat; returns its level (``lowest``: that level,
        when the caller has just read it with :meth:`lowest_level`)."""
        lvl = self.lowest_level(industry) if lowest is None else lowest
        assert lvl is not None
        i = lvl - self.first_level[industry]
        self.set_mat_count(industry, lvl, self.mat[industry][i] - 1)
        return lvl

    def set_mat_count(self, industry: str, level: int, count: int) -> None:
        """Tiles of one level left on the mat (a new mat: the old one may be shared with copies)."""
        levels = self.mat[industry]
        i = level - self.first_level[industry]
        self.mat = {**self.mat, industry: (*levels[:i], count, *levels[i + 1 :])}

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.seat, p.name, p.money, p.income_space, p.vp = self.seat, self.name, self.money, self.income_space, self.vp
        p.hand, p.discard = list(self.hand), list(self.discard)
        p.mat = self.mat  # replaced, never changed in place
        p.first_level = self.first_level
        p.spent, p.loans, p.link_tiles = self.spent, self.loans, self.link_tiles
        return p


class Effect(NamedTuple):
    """A consequence of an action: who it affects, what changed, and why (a named tuple: a replay
    makes one for every consequence, and a tuple is the cheapest immutable record to make)."""

    kind: str  # money, income_spaces, vp, flip, market_sale, market_buy, merchant_bonus, tile_removed, ...
    seat: int
    amount: int
    cause: str
    detail: dict[str, Any]


_NEIGHBOURS: dict[tuple[str, ...], tuple[tuple[str, frozenset[str]], ...]] = {}


def _link_neighbours(ends: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """(location, the link's other ends) for each end of a link, made once per link."""
    found = _NEIGHBOURS.get(ends)
    if found is None:
        found = _NEIGHBOURS[ends] = tuple((a, frozenset(b for b in ends if b != a)) for a in ends)
    return found


# ``new_effect(Effect, (kind, seat, amount, cause, detail))``: tuple.__new__ makes the named tuple without
# the Python-level __new__ the class defines. The hottest places (every action makes five or so effects)
# append such a tuple to ``state.effects`` themselves, which is what GameState.effect does, minus a call.
new_effect = tuple.__new__


@dataclass(slots=True)
class MerchantSpace:
    """A merchant tile on a space; shared between copies of a state, so the engine replaces it
    (in a new list: ``spaces[i] = ms.with_beer(False); state.merchant_spaces = spaces``) rather than
    changing it."""

    location: str
    index: int
    face: str  # "cotton_mill", "manufacturer", "pottery", "all" or "blank"
    accepts: frozenset[str]
    beer: bool

    def with_beer(self, beer: bool) -> MerchantSpace:
        return MerchantSpace(self.location, self.index, self.face, self.accepts, beer)


@dataclass(slots=True)  # (slots: the engine reads a state's fields on every step; see _shallow_copy)
class GameState:
    rules: RulesData
    players: list[Player]
    chance: ChanceSource
    era: str = "canal"
    round: int = 1  # counts through both eras
    era_round: int = 1
    turn_order: list[int] = field(default_factory=list)
    turn_pos: int = 0
    actions_this_turn: int = 0
    deck: list[str] = field(default_factory=list)  # top card first
    wild: dict[str, int] = field(default_factory=dict)
    tiles: dict[str, Tile] = field(default_factory=dict)  # "location:slot" -> tile
    links: dict[str, int] = field(default_factory=dict)  # link id -> owner seat
    coal_market: int = 0
    iron_market: int = 0
    merchant_spaces: list[MerchantSpace] = field(default_factory=list)
    phase: str = "actions"  # "actions", "shortfall" or "over"
    shortfalls: list[tuple[int, int]] = field(default_factory=list)  # (seat, £ still owed), in turn order
    era_ends_after_shortfall: bool = False
    reserve: list[str] = field(default_factory=list)  # cards beneath the deck tile, unused this era
    dcm_pile: list[int] = field(default_factory=list)  # Distant Cotton Market tiles, top first
    dcm_drawn: list[int] = field(default_factory=list)
    dcm_position: int = 0  # marker row on the Distant Cotton Market track
    options: dict[str, Any] = field(default_factory=dict)
    # the board just before each era's scoring: era -> (tiles, links)
    era_boards: dict[str, tuple[dict[str, Tile], dict[str, int]]] = field(default_factory=dict)
    board_version: int = 0
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)  # facts about tiles and links
    place_cache: dict[Any, Any] = field(default_factory=dict, repr=False)  # where tiles and links are
    link_cache: dict[Any, Any] = field(default_factory=dict, repr=False)  # facts about links only
    action_count: int = 0
    effects: list[Effect] | None = None  # set to a list to record consequences
    # bit ``seat`` set: ``players[seat]`` belongs to this state alone (see ``player_mut``)
    _owned: int = field(default=-1, init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        head = f"<GameState {self.rules.edition}, {self.num_players} players"
        if self.phase == "over":
            best = max(self.players, key=lambda p: p.vp)
            return (
                f"{head}: game over after {self.action_count} actions ({_short(best.name)!r} has most VP, {best.vp})>"
            )
        seat = self.current_player
        who = f"{_short(self.players[seat].name)!r} (seat {seat})" if seat is not None else "nobody"
        rounds = self.rules.rounds_per_era.get(self.num_players, "?")
        where = f"{self.era.title()} Era round {self.era_round} of {rounds} (round {self.round})"
        if self.phase == "shortfall":
            return f"{head}: {where}, {who} must pay a shortfall; {self.action_count} actions taken>"
        left = self.actions_per_turn() - self.actions_this_turn
        return f"{head}: {where}, {who} to move ({left} action{'s' if left != 1 else ''} left); " + (
            f"{self.action_count} actions taken>"
        )

    def effect(self, kind: str, seat: int, amount: int, cause: str, **detail: Any) -> None:
        """Record one consequence of the current action (only when recording)."""
        effects = self.effects
        if effects is not None:
            effects.append(new_effect(Effect, (kind, seat, amount, cause, detail)))

    # -- who is to move ------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase == "shortfall":
            return self.shortfalls[0][0]
        return self.turn_order[self.turn_pos]

    @property
    def game_over(self) -> bool:
        return self.phase == "over"

    def actions_per_turn(self) -> int:
        first = self.era == "canal" and self.era_round == 1
        c = self.rules.constants
        return c["actions_first_round_canal_era"] if first else c["actions_per_turn"]

    @property
    def is_last_round_of_era(self) -> bool:
        return self.era_round == self.rules.rounds_per_era[self.num_players]

    def progress(self) -> float:
        """How far the game has gone, by the round clock: 0 at setup, 1 once the game is over.

        The game is ``rules.rounds_per_era[players]`` rounds per era, two eras (an introductory
        game: the Canal Era only); each turn taken in a round counts ``1 / players`` of it. Rounds
        are counted per era, so a Canal Era that ran longer or shorter does not shift the Rail
        Era's clock, which is capped at 1. Between a round's last turn and the next round (a
        shortfall to pay), the clock reads the start of the round just played. The win-probability
        model was trained on these values (its ``progress`` feature); the search bot's softmax
        leaf cools with them.

        >>> from brass_stats.engine import Pass, SeededChance, apply_action, new_game
        >>> state = new_game(["Ann", "Bob"], SeededChance(1))
        >>> state.progress(), state.rules.rounds_per_era[2]
        (0.0, 10)
        >>> def one_turn(state):
        ...     seat = state.current_player
        ...     return apply_action(state, Pass(seat, state.players[seat].hand[0]))[0]
        >>> one_turn(state).progress()  # half a round of the game's 20
        0.025
        >>> one_turn(new_game(["Ann", "Bob"], SeededChance(1), options={"introductory": True})).progress()
        0.05
        """
        if self.phase == "over":
            return 1.0
        n = self.num_players
        per_era = self.rules.rounds_per_era[n]
        eras = 1 if self.options.get("introductory") else 2
        done = (per_era if self.era == "rail" else 0) + self.era_round - 1 + self.turn_pos / n
        return min(1.0, done / (eras * per_era))

    # -- small queries -------------------------------------------------------
    def level_info(self, tile: Tile) -> IndustryLevel:
        return self.rules.level(tile.industry, tile.level)

    def dcm_track_value(self, position: int) -> int | None:
        """Income spaces beside a Distant Cotton Market row (None: the X, market closed)."""
        return self.rules.dcm_track[position]

    def income_level(self, seat: int) -> int:
        return self.rules.income_levels[self.players[seat].income_space]

    def tiles_of(self, seat: int) -> list[tuple[str, Tile]]:
        return [(ref, t) for ref, t in self.tiles.items() if t.owner == seat]

    def has_pieces_on_board(self, seat: int) -> bool:
        """An industry tile or a link of the player's on the board (its network is not empty)."""
        nets: list[frozenset[str]] | None = self.place_cache.get("nets")  # see board.network
        if nets is not None:
            return bool(nets[seat])
        return seat in self.links.values() or any(t.owner == seat for t in self.tiles.values())

    def touch_board(self, links: bool = True, placed: bool = True) -> None:
        """Call after any change to tiles or links: drops cached facts about the board.

        ``links=False``: no link changed, so connectivity (distances) is kept; ``placed=False``
        as well: no tile was placed or removed either (a flip), so networks are kept too.
        The caches are replaced, not cleared: other copies of the state may share them.
        """
        self.board_version += 1
        self.cache = {}
        if placed or links:
            self.place_cache = {}
        if links:
            self.link_cache = {}

    def add_link(self, link_id: str, seat: int) -> None:
        """Place a link tile; the link adjacency is updated from the previous one, not rebuilt."""
        self.links = {**self.links, link_id: seat}  # a new dict: states share their links
        adj = self.link_cache.get("adj")
        nets = self.place_cache.get("nets")
        self.touch_board()
        ends = self.rules.links[link_id].connects
        if adj is not None:
            adj = adj.copy()
            for a, others in _link_neighbours(ends):
                old = adj.get(a)
                adj[a] = others if old is None else old | others
            self.link_cache["adj"] = adj
        if nets is not None:
            nets = nets.copy()  # a new list: other states share the old one
            nets[seat] = nets[seat].union(ends)
            self.place_cache["nets"] = nets

    def place_tile(self, ref: str, tile: Tile) -> None:
        """Put a tile on an empty slot; the owner's network grows by its location (not rebuilt)."""
        self.tiles[ref] = tile
        nets = self.place_cache.get("nets")
        trade = self.place_cache.get(("trade",))
        self.touch_board(links=False)
        if nets is not None:
            nets = nets.copy()  # a new list: other states share the old one
            nets[tile.owner] = nets[tile.owner].union((ref.partition(":")[0],))
            self.place_cache["nets"] = nets
        if trade is not None and tile.industry not in self.rules.trade_industries:
            self.place_cache[("trade",)] = trade

    def copy(self) -> GameState:
        """A copy fit for look-ahead and for editing by hand: changing it (its players included) never
        changes this state (shares the immutable rules data).

        The tiles themselves are shared: the engine never changes a :class:`Tile` in place but
        replaces it with a changed copy (copy on write), so only the dict is copied here.
        """
        new = _shallow_copy(self)
        new.players = [p.copy() for p in self.players]
        new._owned = -1
        new.turn_order = list(self.turn_order)
        new.deck = list(self.deck)
        new.wild = dict(self.wild)
        new.tiles = dict(self.tiles)
        new.links = dict(self.links)
        new.merchant_spaces = list(self.merchant_spaces)
        new.shortfalls = list(self.shortfalls)
        new.reserve = list(self.reserve)
        new.dcm_pile = list(self.dcm_pile)
        new.dcm_drawn = list(self.dcm_drawn)
        new.chance = self.chance.copy()
        new.effects = None
        return new

    def independent_copy(self) -> GameState:
        """A copy that shares nothing one may change with this state or any other (what
        :meth:`Replay.state_at <brass_stats.replay.Replay.state_at>` hands out): unlike :meth:`copy`,
        whose callers keep to the engine's copy-on-write, it has its own tiles, merchant spaces, player
        mats, options, era boards and (empty) board caches, so even a change made by hand to any of them
        stays in it. Only the rules data, which nothing changes, is shared.
        """
        new = self.copy()
        for p in new.players:
            p.mat, p.first_level = dict(p.mat), dict(p.first_level)
        new.tiles = {ref: t.copy() for ref, t in self.tiles.items()}
        new.merchant_spaces = [ms.with_beer(ms.beer) for ms in self.merchant_spaces]
        new.options = copy.deepcopy(self.options)
        new.era_boards = {
            era: ({ref: t.copy() for ref, t in tiles.items()}, dict(links))
            for era, (tiles, links) in self.era_boards.items()
        }
        new.cache, new.place_cache, new.link_cache = {}, {}, {}  # filled again on demand, for this state alone
        return new

    def successor(self) -> GameState:
        """The copy :func:`~brass_stats.engine.turn.apply_action` changes (cheaper than :meth:`copy`).

        It shares with this state every part the engine replaces rather than changes (lists, dicts
        but ``tiles``, the chance source) and the :class:`Player` records themselves: the engine
        changes a player only through :meth:`player_mut`, which copies a shared one first, in
        whichever of the two states changes it. Edit a state by hand only after :meth:`copy`.
        """
        new = _shallow_copy(self)
        new.players = list(self.players)
        new.tiles = self.tiles.copy()
        new.effects = None
        new._owned = self._owned = 0  # every player is now shared by the two states
        return new

    def player_mut(self, seat: int) -> Player:
        """The player at ``seat``, to be changed: a player shared with another state (see
        :meth:`successor`) is copied first. Hold the result only while nothing else copies it.

        The hottest places write its fast path out:
        ``state.players[seat] if state._owned >> seat & 1 else state.player_mut(seat)``."""
        if self._owned >> seat & 1:
            return self.players[seat]
        p = self.players[seat] = self.players[seat].copy()
        self._owned |= 1 << seat
        return p

    # -- income and VP ---------------------------------------------------------
    def advance_income(self, seat: int, spaces: int) -> int:
        """Move the income marker forward, capped at the top of the track; returns spaces moved."""
        p = self.players[seat] if self._owned >> seat & 1 else self.player_mut(seat)  # player_mut, inlined (hot)
        new = min(p.income_space + spaces, self.rules.max_income_space)
        moved = new - p.income_space
        p.income_space = new
        return moved


# ``_shallow_copy(state)``: a new state whose every field is the same object as ``state``'s (what
# ``copy.copy`` does, without its generic machinery), written out field by field from the slots
_shallow_copy = shallow_copier(GameState)
