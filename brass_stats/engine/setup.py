"""Setting up a game, and where its chance outcomes come from.

Two chance sources, as the log format allows:

* :class:`SeededChance`: every shuffle comes from a documented PRNG
  (SplitMix64 + Fisher-Yates, see ``docs/log-format.md``), so any program can
  reproduce a deal from the seed alone.
* :class:`ExplicitChance`: the deal is written out (merchant tiles, turn order,
  hands, face-down discards, deck order, and the rail-era deck and hands), for
  games recorded elsewhere.

>>> g = new_game(["Ann", "Bob"], SeededChance(7))
>>> [len(p.hand) for p in g.players], len(g.deck)
([8, 8], 22)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import LogFormatError
from ..rules_data import BIRMINGHAM, RulesData, override_range
from .state import GameState, MerchantSpace, Player

MASK64 = (1 << 64) - 1
_TWO_64 = 1 << 64


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): a tiny PRNG other programs can reproduce exactly.

    >>> r = SplitMix64(0)
    >>> hex(r.next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, from the last position down: swap i with below(i + 1).

        :meth:`next` and :meth:`below` written out in the loop (the same numbers: a game's setup
        shuffles a hundred times or more, and calls cost more than the arithmetic)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO_64 - _TWO_64 % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state


# Merchant tile faces as written in chance records.
def tile_face(accepts: frozenset[str]) -> str:
    if not accepts:
        return "blank"
    if len(accepts) > 1:
        return "all"
    return next(iter(accepts))


@dataclass(frozen=True)
class Deal:
    """Everything chance decides at the start of an era."""

    hands: list[list[str]]
    deck: list[str]  # top card first
    discards: list[list[str]]  # face-down discard per seat (canal era only)
    reserve: list[str] = field(default_factory=list)  # beneath the deck tile, unused this era (Lancashire)


class ChanceSource(Protocol):
    def merchant_faces(self, rules: RulesData, players: int) -> dict[str, list[str]]: ...

    def canal_deal(self, rules: RulesData, players: int, deck: list[str], reserve: int) -> Deal: ...

    def distant_market(self, tiles: Sequence[int], era: str) -> list[int]: ...

    def turn_order(self, players: int) -> list[int]: ...

    def rail_deal(self, cards: list[str], players: int, remove: int = 0) -> Deal: ...

    def copy(self) -> ChanceSource: ...

    def to_json(self) -> Any: ...


def _merchant_space_keys(rules: RulesData, players: int) -> list[tuple[str, int]]:
    return [(m.id, i) for m in rules.merchants.values() if players in m.player_counts for i in range(m.spaces)]


class SeededChance:
    """Chance from a seed. Order of draws: merchant tiles, deck, turn order, then the rail-era reshuffle."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = SplitMix64(seed)

    def merchant_faces(self, rules: RulesData, players: int) -> dict[str, list[str]]:
        ids = list(rules.merchant_tiles_by_players.get(players, ()))
        self.rng.shuffle(ids)
        out: dict[str, list[str]] = {}
        for (loc, _), tid in zip(_merchant_space_keys(rules, players), ids, strict=True):
            out.setdefault(loc, []).append(tile_face(rules.merchant_tiles[tid].accepts))
        return out

    def canal_deal(self, rules: RulesData, players: int, deck: list[str], reserve: int) -> Deal:
        """Shuffle, deal hands, then the face-down discards (Birmingham); the bottom ``reserve`` cards
        go beneath the deck tile (Lancashire)."""
        deck = list(deck)
        self.rng.shuffle(deck)
        size = rules.constants["hand_size"]
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        deck = deck[players * size :]
        k = rules.face_down_discards
        discards = [deck[i * k : (i + 1) * k] for i in range(players)]
        deck = deck[players * k :]
        cut = len(deck) - reserve
        return Deal(hands, deck[:cut], discards, deck[cut:])

    def distant_market(self, tiles: Sequence[int], era: str) -> list[int]:
        """The Distant Cotton Market tiles shuffled (top first); no draw at all without such tiles."""
        pile = sorted(tiles)
        self.rng.shuffle(pile)
        return pile

    def turn_order(self, players: int) -> list[int]:
        order = list(range(players))
        self.rng.shuffle(order)
        return order

    def rail_deal(self, cards: list[str], players: int, remove: int = 0) -> Deal:
        """Sort, shuffle, return the top ``remove`` cards to the box (classic deck), deal 8 each."""
        deck = sorted(cards)
        self.rng.shuffle(deck)
        deck = deck[remove:]
        size = BIRMINGHAM.constants["hand_size"]
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        return Deal(hands, deck[players * size :], [[] for _ in range(players)])

    def copy(self) -> SeededChance:
        new = SeededChance.__new__(SeededChance)
        new.seed = self.seed
        new.rng = SplitMix64(0)
        new.rng.state = self.rng.state
        return new

    def to_json(self) -> Any:
        return self.seed


class ExplicitChance:
    """Chance written out in the log (for games recorded elsewhere)."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record

    def merchant_faces(self, rules: RulesData, players: int) -> dict[str, list[str]]:
        if not rules.merchant_tiles:
            return {}
        faces = self.record["merchant_tiles"]
        expected = Counter(tile_face(rules.merchant_tiles[t].accepts) for t in rules.merchant_tiles_by_players[players])
        got = Counter(f for fs in faces.values() for f in fs)
        if got != expected:
            raise LogFormatError(
                f"chance.merchant_tiles: faces {dict(got)} differ from the {players}-player tiles {dict(expected)}"
            )
        for loc, fs in faces.items():
            m = rules.merchants.get(loc)
            if m is None or players not in m.player_counts or len(fs) != m.spaces:
                raise LogFormatError(
                    f"chance.merchant_tiles: {loc!r} has no {len(fs)} merchant space(s) in a {players}-player game"
                )
        return {k: list(v) for k, v in faces.items()}

    def canal_deal(self, rules: RulesData, players: int, deck: list[str], reserve: int) -> Deal:
        r = self.record
        k = rules.face_down_discards
        discards = [list(d) for d in r.get("discards", [[] for _ in range(players)])]
        deal = Deal([list(h) for h in r["hands"]], list(r["deck"]), discards, list(r.get("reserve", [])))
        cards = [c for h in deal.hands for c in h] + deal.deck + [c for d in deal.discards for c in d] + deal.reserve
        if Counter(cards) != Counter(deck):
            diff = (Counter(cards) - Counter(deck)) + (Counter(deck) - Counter(cards))
            raise LogFormatError(
                f"chance: hands, discards{', reserve' if reserve else ''} and deck are not the "
                f"{players}-player deck (differences: {dict(diff)})"
            )
        size = rules.constants["hand_size"]
        if len(deal.hands) != players or any(len(h) != size for h in deal.hands):
            raise LogFormatError(f"chance.hands: need {players} hands of {size} cards")
        if len(deal.discards) != players or any(len(d) != k for d in deal.discards):
            count = "one face-down card" if k == 1 else f"{k} face-down cards"
            raise LogFormatError(f"chance.discards: need {count} per player")
        if len(deal.reserve) != reserve:
            raise LogFormatError(f"chance.reserve: need {reserve} card(s) beneath the deck tile")
        return deal

    def distant_market(self, tiles: Sequence[int], era: str) -> list[int]:
        expected = sorted(tiles)
        if not expected:
            return []
        tiles = self.record.get("distant_market", {}).get(era)
        if not isinstance(tiles, list) or sorted(tiles) != expected:
            raise LogFormatError(
                f"chance.distant_market.{era} must list the Distant Cotton Market tiles {expected} in the order drawn"
            )
        return list(tiles)

    def turn_order(self, players: int) -> list[int]:
        order = list(self.record["turn_order"])
        if sorted(order) != list(range(players)):
            raise LogFormatError(f"chance.turn_order must list seats 0..{players - 1} once each, got {order}")
        return order

    def rail_deal(self, cards: list[str], players: int, remove: int = 0) -> Deal:
        r = self.record.get("rail_era")
        if r is None:
            raise LogFormatError(
                "chance.rail_era is missing: the log reaches the Rail Era but does not say how the deck was reshuffled"
            )
        deal = Deal([list(h) for h in r["hands"]], list(r["deck"]), [[] for _ in range(players)])
        size = BIRMINGHAM.constants["hand_size"]
        if len(deal.hands) != players or any(len(h) != min(size, (len(cards) - remove) // players) for h in deal.hands):
            raise LogFormatError(f"chance.rail_era.hands: need {players} hands of {size} cards")
        removed = list(r.get("removed", []))
        if len(removed) != remove:
            raise LogFormatError(f"chance.rail_era.removed: the classic deck removes {remove} card(s)")
        dealt = [c for h in deal.hands for c in h] + deal.deck + removed
        if Counter(dealt) != Counter(cards):
            raise LogFormatError("chance.rail_era: hands and deck are not the cards discarded in the Canal Era")
        return deal

    def copy(self) -> ExplicitChance:
        return self  # read-only

    def to_json(self) -> Any:
        return self.record


# Game options of the log format (``options`` in the header); see docs/log-format.md.
GAME_OPTIONS = frozenset({"virtual_link", "classic_deck", "introductory"})


def starting_deck(rules: RulesData, players: int, options: Mapping[str, Any]) -> tuple[list[str], int]:
    """(the cards shuffled at setup, how many go beneath the deck tile)."""
    if options.get("classic_deck"):
        # Lancashire classic setup: every card, 9 (3p) or 6 (4p) beneath the deck tile
        deck = [c for c, k in sorted(rules.classic_deck_counts.items()) for _ in range(k)]
        return deck, rules.classic_deck_beneath[players]
    return rules.deck(players), rules.deck_tile.get("canal", 0) * players


def distant_market_tiles(rules: RulesData, players: int, options: Mapping[str, Any]) -> list[int]:
    """The Distant Cotton Market tiles in play: those marked for the player count, or every tile with
    the classic deck setup (which ignores Board Setup step 2; the 4-player set is all of them)."""
    if not rules.dcm_tiles:
        return []
    key = max(rules.dcm_tiles) if options.get("classic_deck") else players
    return list(rules.dcm_tiles.get(key, ()))


def check_options(rules: RulesData, players: int, options: Mapping[str, Any]) -> None:
    unknown = set(options) - GAME_OPTIONS - {"tile_overrides", "link_tiles", "played_costs"}
    if unknown:
        raise LogFormatError(f"unknown option(s): {', '.join(sorted(unknown))}")
    for key in GAME_OPTIONS & set(options):
        if not isinstance(options[key], bool):
            raise LogFormatError(f"option {key!r} must be true or false")
    if rules.edition != "lancashire" and (options.get("virtual_link") or options.get("classic_deck")):
        raise LogFormatError("the virtual link and the classic deck are options of Brass: Lancashire")
    if options.get("classic_deck") and players not in rules.classic_deck_beneath:
        raise LogFormatError("the classic deck setup is for 3 or 4 players")
    limit = options.get("link_tiles", 14)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise LogFormatError("option 'link_tiles' (link tiles per player) must be a positive integer")
    if "played_costs" in options:
        check_played_costs(rules, options["played_costs"])


def check_played_costs(rules: RulesData, played: Any) -> None:
    """``options.played_costs``: ``"industry.level"`` -> the £ a game as played charged for that tile,
    within the range of a ``cost_money`` tile override."""
    if not isinstance(played, dict) or not played:
        raise LogFormatError("option 'played_costs' must map 'industry.level' to a price in £")
    low, high = override_range(rules, "cost_money")
    for key, price in played.items():
        industry, _, level = str(key).partition(".")
        levels = rules.industries.get(industry, ())
        if not isinstance(key, str) or not level.isdecimal() or all(lv.level != int(level) for lv in levels):
            raise LogFormatError(f"option 'played_costs': unknown tile {key!r} (expected industry.level)")
        if not isinstance(price, int) or isinstance(price, bool) or not low <= price <= high:
            raise LogFormatError(f"option 'played_costs': {key!r} must be a price of £{low} to £{high}")


def new_game(
    names: Sequence[str],
    chance: ChanceSource,
    rules: RulesData = BIRMINGHAM,
    options: Mapping[str, Any] | None = None,
) -> GameState:
    """Set up the board and players (rulebook: Board Setup, Player Area Setup)."""
    n = len(names)
    options = dict(options or {})
    if n not in rules.constants["players"]:
        raise LogFormatError(f"Brass: {rules.edition.title()} is for 2 to 4 players, not {n}")
    check_options(rules, n, options)
    players = [Player(i, name, rules) for i, name in enumerate(names)]
    if isinstance(options.get("link_tiles"), int):
        for p in players:
            p.link_tiles = options["link_tiles"]
    faces = chance.merchant_faces(rules, n)
    spaces: list[MerchantSpace] = []
    face_accepts = {"blank": frozenset(), "all": frozenset({"cotton_mill", "manufacturer", "pottery"})}
    for loc, i in _merchant_space_keys(rules, n):
        face = faces[loc][i]
        accepts = face_accepts.get(face, frozenset({face}))
        if face not in face_accepts and face not in ("cotton_mill", "manufacturer", "pottery"):
            raise LogFormatError(f"chance.merchant_tiles: unknown merchant tile face {face!r}")
        spaces.append(MerchantSpace(loc, i, face, accepts, beer=bool(accepts)))
    deck, reserve = starting_deck(rules, n, options)
    deal = chance.canal_deal(rules, n, deck, reserve)
    for p, hand, disc in zip(players, deal.hands, deal.discards, strict=True):
        p.hand = list(hand)
        p.discard = list(disc)
    dcm = chance.distant_market(distant_market_tiles(rules, n, options), "canal")
    state = GameState(
        rules=rules,
        players=players,
        chance=chance,
        turn_order=chance.turn_order(n),
        deck=list(deal.deck),
        wild=dict(rules.wild_cards),
        coal_market=rules.markets["coal"].initial_cubes,
        iron_market=rules.markets["iron"].initial_cubes,
        merchant_spaces=spaces,
        reserve=list(deal.reserve),
        dcm_pile=dcm,
        options=options,
    )
    return state
