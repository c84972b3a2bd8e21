"""Rules data: the printed components of each edition, loaded once from JSON.

The JSON files in this package are the source of truth (copied from the
project's verified game data); this module only gives them typed, read-only
shapes and derived lookups. Nothing here decides a rule.

>>> rules = load_rules("birmingham")
>>> rules.locations["dudley"].slots[0].industries
('coal_mine',)
>>> rules.income_level(10), rules.income_level(99)
(0, 30)
>>> len(rules.deck(4))
64
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from importlib import resources
from typing import Any

INDUSTRIES: tuple[str, ...] = (
    "cotton_mill",
    "coal_mine",
    "iron_works",
    "manufacturer",
    "pottery",
    "brewery",
)
# Every industry of every edition, in a fixed order (storage columns use it).
ALL_INDUSTRIES: tuple[str, ...] = (*INDUSTRIES, "port", "shipyard")
# Each industry's name as the rulebooks print it (the move list and the board drawings show these).
INDUSTRY_NAME: dict[str, str] = {
    "port": "Port",
    "shipyard": "Shipyard",
    "cotton_mill": "Cotton Mill",
    "coal_mine": "Coal Mine",
    "iron_works": "Iron Works",
    "manufacturer": "Manufacturer",
    "pottery": "Pottery",
    "brewery": "Brewery",
}
SELLABLE: frozenset[str] = frozenset({"cotton_mill", "manufacturer", "pottery"})
ERAS: tuple[str, ...] = ("canal", "rail")
EDITIONS: tuple[str, ...] = ("birmingham", "lancashire")


@dataclass(frozen=True, slots=True)
class IndustryLevel:
    """One level of an industry as printed on the player mat and tile."""

    industry: str
    level: int
    tiles: int
    cost_money: int
    cost_coal: int
    cost_iron: int
    beer_to_sell: int
    vp: int
    income_spaces: int
    link_vp: int
    coal_produced: int
    iron_produced: int
    beer_canal: int
    beer_rail: int
    canal_ok: bool
    rail_ok: bool
    can_develop: bool

    @property
    def lightbulb(self) -> bool:
        return not self.can_develop

    def buildable_in(self, era: str) -> bool:
        return self.canal_ok if era == "canal" else self.rail_ok

    def resources_on_build(self, era: str) -> int:
        if self.industry == "coal_mine":
            return self.coal_produced
        if self.industry == "iron_works":
            return self.iron_produced
        if self.industry == "brewery":
            return self.beer_canal if era == "canal" else self.beer_rail
        return 0


@dataclass(frozen=True, slots=True)
class Slot:
    location: str
    index: int
    industries: tuple[str, ...]
    ref: str = field(init=False, repr=False, compare=False)  # "<location>:<index>", made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "ref", f"{self.location}:{self.index}")

    @property
    def single_icon(self) -> bool:
        return len(self.industries) == 1


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    name: str
    kind: str  # "town", "farm_brewery" or "merchant"
    slots: tuple[Slot, ...]
    printed_link_vp: int
    banner: str | None

    @property
    def is_merchant(self) -> bool:
        return self.kind == "merchant"


@dataclass(frozen=True, slots=True)
class Link:
    id: str
    endpoints: tuple[str, str]
    connects: tuple[str, ...]  # endpoints, plus a farm brewery joined to the line
    canal: bool
    rail: bool

    def allowed_in(self, era: str) -> bool:
        return self.canal if era == "canal" else self.rail


@dataclass(frozen=True, slots=True)
class Merchant:
    id: str
    spaces: int
    player_counts: tuple[int, ...]
    bonus_type: str  # "money", "vp", "income" or "develop"
    bonus_amount: int


@dataclass(frozen=True, slots=True)
class MerchantTile:
    id: str
    accepts: frozenset[str]
    min_players: int


@dataclass(frozen=True, slots=True)
class Market:
    resource: str
    prices: tuple[int, ...]  # cheapest space first
    initial_cubes: int
    price_when_empty: int

    @property
    def capacity(self) -> int:
        return len(self.prices)

    def _check_cubes(self, cubes: int) -> None:
        if not 0 <= cubes <= self.capacity:
            raise ValueError(f"{self.resource} market holds 0..{self.capacity} cubes, not {cubes}")

    def buy_price(self, cubes: int) -> int:
        """Price of the cheapest filled space when the market holds ``cubes``."""
        capacity = len(self.prices)  # called for every cube bought: no property, no helper call
        if not 0 <= cubes <= capacity:
            self._check_cubes(cubes)
        if cubes == 0:
            return self.price_when_empty
        return self.prices[capacity - cubes]

    def sell_price(self, cubes: int) -> int | None:
        """Price paid for the most expensive empty space, or None when full."""
        capacity = len(self.prices)
        if not 0 <= cubes <= capacity:
            self._check_cubes(cubes)
        if cubes == capacity:
            return None
        return self.prices[capacity - cubes - 1]


# Card codes: "loc:<location>", "ind:<industry>[+<industry>]", "wild:location", "wild:industry".
WILD_LOCATION = "wild:location"
WILD_INDUSTRY = "wild:industry"
WILD_CARDS = frozenset({WILD_LOCATION, WILD_INDUSTRY})


def card_industries(code: str) -> tuple[str, ...]:
    """Industries an industry card allows (empty for other cards)."""
    if code.startswith("ind:"):
        return tuple(code[4:].split("+"))
    return ()


def card_location(code: str) -> str | None:
    return code[4:] if code.startswith("loc:") else None


@dataclass(frozen=True, eq=False)
class RulesData:
    """Every printed value the engine needs, for one edition and one set of overrides."""

    edition: str
    constants: Mapping[str, Any]
    locations: Mapping[str, Location]
    links: Mapping[str, Link]
    industries: Mapping[str, tuple[IndustryLevel, ...]]
    merchants: Mapping[str, Merchant]
    merchant_tiles: Mapping[str, MerchantTile]
    merchant_tiles_by_players: Mapping[int, tuple[str, ...]]
    markets: Mapping[str, Market]
    income_levels: tuple[int, ...]  # income level of each progress-track space
    deck_counts: Mapping[int, Mapping[str, int]]
    wild_cards: Mapping[str, int]
    rounds_per_era: Mapping[int, int]
    overrides: tuple[tuple[str, Any], ...] = field(default=())
    # -- what differs between editions, as data ------------------------------------------
    industry_ids: tuple[str, ...] = INDUSTRIES
    sellable: frozenset[str] = SELLABLE
    trade_locations: frozenset[str] = frozenset()  # printed coal-market / trade icons
    trade_industries: frozenset[str] = frozenset()  # tiles that show a trade icon (Lancashire ports)
    loan_options: tuple[tuple[int, int], ...] = ((30, 3),)  # (money, income levels lost)
    face_down_discards: int = 1  # canal-era setup discard per player
    deck_tile: Mapping[str, int] = field(default_factory=dict)  # era -> cards per player beneath it
    cash_vp_per: int | None = None  # end of the rail era: 1 VP per this many £
    dcm_track: tuple[int | None, ...] = ()  # Distant Cotton Market: income spaces per row, None = X
    dcm_tiles: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # players -> tile moves
    classic_deck_counts: Mapping[str, int] = field(default_factory=dict)
    flips_on_build: frozenset[str] = frozenset()  # industries flipped as soon as they are built
    double_rail_beer: int = 1  # barrels for two rail links in one action
    double_action_build: bool = False  # any two cards as any location card, using both actions
    link_anywhere_without_pieces: bool = True  # Birmingham: with nothing on the board, a link goes anywhere
    # classic variants (Lancashire): cards beneath the deck tile / returned to the box, by player count
    classic_deck_beneath: Mapping[int, int] = field(default_factory=dict)
    classic_deck_removed_in_rail: Mapping[int, int] = field(default_factory=dict)
    virtual_link: tuple[str, str] | None = None  # (in your network, may then build here with an industry card)
    slots: Mapping[str, Slot] = field(init=False, repr=False)
    link_aliases: Mapping[str, str] = field(init=False, repr=False)
    _levels: Mapping[tuple[str, int], IndustryLevel] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index = {s.ref: s for loc in self.locations.values() for s in loc.slots}
        object.__setattr__(self, "slots", index)
        levels = {(ind, lv.level): lv for ind, lvs in self.industries.items() for lv in lvs}
        object.__setattr__(self, "_levels", levels)
        # "a--b" and "b--a" both name the same link; the data's id is canonical
        aliases = {f"{b}--{a}": lid for lid, ln in self.links.items() for a, b in [ln.endpoints]}
        aliases.update({lid: lid for lid in self.links})
        object.__setattr__(self, "link_aliases", aliases)

    # -- derived lookups -------------------------------------------------
    def level(self, industry: str, level: int) -> IndustryLevel:
        try:
            return self._levels[(industry, level)]
        except KeyError:
            raise IndexError(f"{industry} has no level {level}") from None

    @cached_property
    def location_industries(self) -> dict[str, frozenset[str]]:
        """Industries shown on any space of each location (computed once per rules data)."""
        return {loc.id: frozenset(i for s in loc.slots for i in s.industries) for loc in self.locations.values()}

    def first_level(self, industry: str) -> int:
        """The lowest printed level (1, or 0 for Lancashire's unbuildable shipyards)."""
        return self.industries[industry][0].level

    def income_level(self, space: int) -> int:
        if space < 0:  # a negative index would silently read the top of the track
            raise IndexError(f"progress-track space {space} does not exist")
        return self.income_levels[space]

    @property
    def max_income_space(self) -> int:
        return len(self.income_levels) - 1

    def top_space_of_level(self, level: int) -> int:
        """Highest progress-track space showing ``level`` (where a loan puts the marker)."""
        return self._top_spaces[level]

    @cached_property
    def _top_spaces(self) -> dict[int, int]:
        return {lv: i for i, lv in enumerate(self.income_levels)}  # a later space overwrites an earlier one

    def deck(self, players: int) -> list[str]:
        """The draw deck (unshuffled, sorted) for a player count."""
        out: list[str] = []
        for code, n in sorted(self.deck_counts[players].items()):
            out.extend([code] * n)
        return out

    @property
    def merchant_locations(self) -> tuple[str, ...]:
        return tuple(self.merchants)

    @property
    def all_card_codes(self) -> frozenset[str]:
        codes = {c for counts in self.deck_counts.values() for c in counts} | set(self.classic_deck_counts)
        return frozenset(codes | set(self.wild_cards))


def _raw(edition: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath(f"{edition}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _markets(raw: dict[str, Any]) -> dict[str, Market]:
    return {
        name: Market(name, tuple(m["space_prices_cheapest_first"]), m["initial_cubes"], m["price_when_empty"])
        for name, m in raw["markets"].items()
        if name in ("coal", "iron")
    }


def _income_track(raw: dict[str, Any]) -> list[int]:
    """The income level printed beside each progress-track space."""
    income: list[int] = []
    for lv in raw["progress_track"]["levels"]:
        income.extend([lv["income_level"]] * (lv["last_space"] - lv["first_space"] + 1))
    return income


def card_code(card: dict[str, Any]) -> str:
    """The code of a card entry of the data: ``loc:<location>`` or ``ind:<industry>[+<industry>]``."""
    if "location" in card:
        return f"loc:{card['location']}"
    industries = card.get("industries") or [card["industry"]]
    return "ind:" + "+".join(industries)


def _deck_counts(raw: dict[str, Any]) -> dict[int, dict[str, int]]:
    """Cards of each code in the draw deck, per player count."""
    cards = raw["cards"]["location_cards"] + raw["cards"]["industry_cards"]
    return {
        p: {card_code(c): c["count"][str(p)] for c in cards if c["count"][str(p)]} for p in raw["constants"]["players"]
    }


def _build_birmingham(raw: dict[str, Any]) -> RulesData:
    c = raw["constants"]
    locations: dict[str, Location] = {}
    for loc in raw["locations"]:
        slots = tuple(Slot(loc["id"], s["index"], tuple(s["allowed_industries"])) for s in loc["slots"])
        locations[loc["id"]] = Location(
            loc["id"], loc["name"], loc["kind"], slots, loc["printed_link_vp"], loc.get("banner_colour")
        )
    links = {
        ln["id"]: Link(
            ln["id"], (ln["endpoints"][0], ln["endpoints"][1]), tuple(ln["connects"]), ln["canal"], ln["rail"]
        )
        for ln in raw["links"]
    }
    industries = {
        ind: tuple(_industry_level(ind, lv) for lv in raw["industry_tiles"][ind]["levels"]) for ind in INDUSTRIES
    }
    merchants = {
        m["id"]: Merchant(
            m["id"],
            m["merchant_tile_spaces"],
            tuple(m["spaces_used_for_player_counts"]),
            m["beer_bonus"]["type"],
            m["beer_bonus"]["amount"],
        )
        for m in raw["merchants"]
    }
    merchant_tiles = {
        t["id"]: MerchantTile(t["id"], frozenset(t["accepts"]), t["min_players"]) for t in raw["merchant_tiles"]
    }
    by_players = {int(k): tuple(v) for k, v in raw["merchant_tiles_by_player_count"].items()}
    markets = _markets(raw)
    income = _income_track(raw)
    deck_counts = _deck_counts(raw)
    wild = raw["cards"]["wild_cards"]
    return RulesData(
        edition="birmingham",
        constants=c,
        locations=locations,
        links=links,
        industries=industries,
        merchants=merchants,
        merchant_tiles=merchant_tiles,
        merchant_tiles_by_players=by_players,
        markets=markets,
        income_levels=tuple(income),
        deck_counts=deck_counts,
        wild_cards={WILD_LOCATION: wild["wild_location"], WILD_INDUSTRY: wild["wild_industry"]},
        rounds_per_era={int(k): v for k, v in c["rounds_per_era"].items()},
        trade_locations=frozenset(m["id"] for m in raw["merchants"] if m["coal_market_connection_icon"]),
    )


def _industry_level(ind: str, lv: dict[str, Any]) -> IndustryLevel:
    prod = lv["produces"]
    cost = lv["cost"] or {"money": 0, "coal": 0, "iron": 0}
    return IndustryLevel(
        industry=ind,
        level=lv["level"],
        tiles=lv["tiles_per_player"],
        cost_money=cost["money"],
        cost_coal=cost["coal"],
        cost_iron=cost["iron"],
        beer_to_sell=lv.get("beer_to_sell") or 0,
        vp=lv["vp_when_flipped"],
        income_spaces=lv["income_spaces_when_flipped"],
        link_vp=lv["link_vp"],
        coal_produced=prod.get("coal", 0),
        iron_produced=prod.get("iron", 0),
        beer_canal=prod.get("beer_canal_era", 0),
        beer_rail=prod.get("beer_rail_era", 0),
        canal_ok=lv["can_build_canal_era"],
        rail_ok=lv["can_build_rail_era"],
        can_develop=lv["can_develop"],
    )


LANCASHIRE_INDUSTRIES: tuple[str, ...] = ("cotton_mill", "coal_mine", "iron_works", "port", "shipyard")


def _build_lancashire(raw: dict[str, Any]) -> RulesData:
    c = raw["constants"]
    locations: dict[str, Location] = {}
    for loc in raw["locations"]:
        slots = tuple(Slot(loc["id"], s["index"], tuple(s["allowed_industries"])) for s in loc["slots"])
        kind = {"external_market": "merchant"}.get(loc["kind"], loc["kind"])
        locations[loc["id"]] = Location(loc["id"], loc["name"], kind, slots, loc.get("printed_link_vp", 0), None)
    links = {
        ln["id"]: Link(
            ln["id"], (ln["endpoints"][0], ln["endpoints"][1]), tuple(ln["endpoints"]), ln["canal"], ln["rail"]
        )
        for ln in raw["links"]
    }
    industries = {
        ind: tuple(_industry_level(ind, lv) for lv in raw["industry_tiles"][ind]["levels"])
        for ind in LANCASHIRE_INDUSTRIES
    }
    markets = _markets(raw)
    income = _income_track(raw)
    deck_counts = _deck_counts(raw)
    classic = {
        card_code(card): card.get("count_2007_original_deck", card["count"]["4"])
        for card in raw["cards"]["location_cards"] + raw["cards"]["industry_cards"]
    }
    dcm = raw["distant_cotton_market"]
    track = tuple(None if s.get("x_space") else s["income_spaces"] for s in dcm["track"]["spaces_top_to_bottom"])
    return RulesData(
        edition="lancashire",
        constants=c,
        locations=locations,
        links=links,
        industries=industries,
        merchants={},
        merchant_tiles={},
        merchant_tiles_by_players={},
        markets=markets,
        income_levels=tuple(income),
        deck_counts=deck_counts,
        wild_cards={},
        rounds_per_era={int(k): v for k, v in c["rounds_per_era"].items()},
        industry_ids=LANCASHIRE_INDUSTRIES,
        sellable=frozenset({"cotton_mill"}),
        trade_locations=frozenset(loc["id"] for loc in raw["locations"] if loc.get("printed_trade_icon")),
        trade_industries=frozenset({"port"}),
        loan_options=tuple((o["money"], o["income_levels_lost"]) for o in c["loan"]["options"]),
        face_down_discards=0,
        deck_tile={"canal": 1, "rail": 2},
        cash_vp_per=10,
        dcm_track=track,
        dcm_tiles={int(k): tuple(v) for k, v in dcm["tiles_by_player_count"].items()},
        classic_deck_counts=classic,
        flips_on_build=frozenset({"shipyard"}),
        double_rail_beer=0,
        double_action_build=True,
        link_anywhere_without_pieces=False,
        # "Classic 3-4 Player Deck Setup" and "Virtual Link" in the rulebook's Classic Rules
        classic_deck_beneath={3: 9, 4: 6},
        classic_deck_removed_in_rail={3: 6, 4: 2},
        virtual_link=("liverpool", "birkenhead"),
    )


# Fields of an IndustryLevel that a game's options may override (e.g. the
# disputed Manufacturer IV cost); anything else is printed and fixed.
OVERRIDABLE_FIELDS = frozenset(
    {"cost_money", "cost_coal", "cost_iron", "income_spaces", "vp", "link_vp", "beer_to_sell"}
)


class UnknownOverride(ValueError):
    """A tile override names an industry, level or field that does not exist."""


def _apply_overrides(rules: RulesData, overrides: tuple[tuple[str, Any], ...]) -> RulesData:
    industries = {k: list(v) for k, v in rules.industries.items()}
    for key, value in overrides:
        try:
            ind, lvl_s, fld = key.split(".")
            lvl = int(lvl_s)
            pos = next(i for i, lv in enumerate(industries[ind]) if lv.level == lvl)
            current = industries[ind][pos]
        except (ValueError, KeyError, IndexError, StopIteration):
            raise UnknownOverride(f"unknown tile override {key!r} (expected industry.level.field)") from None
        if fld not in OVERRIDABLE_FIELDS or not isinstance(value, int) or isinstance(value, bool):
            raise UnknownOverride(
                f"tile override {key!r}: field must be one of {sorted(OVERRIDABLE_FIELDS)} with an integer value"
            )
        low, high = override_range(rules, fld)
        if not low <= value <= high:
            raise UnknownOverride(
                f"tile override {key!r}: {value} is out of range; {rules.edition.title()} allows {low} to {high} "
                f"(twice the largest printed {fld}, at least 4)"
            )
        changes: dict[str, Any] = {fld: value}
        industries[ind][pos] = replace(current, **changes)
    return replace(rules, industries={k: tuple(v) for k, v in industries.items()}, overrides=overrides)


def override_range(rules: RulesData, fld: str) -> tuple[int, int]:
    """The values a tile override of ``fld`` may take: 0 to twice the edition's largest printed value
    (at least 4). Misprints stay well inside; absurd values (an iron cost of 2**63) are refused."""
    printed = max(getattr(lv, fld) for levels in rules.industries.values() for lv in levels)
    return 0, max(4, 2 * printed)


@cache
def _base(edition: str) -> RulesData:
    builders = {"birmingham": _build_birmingham, "lancashire": _build_lancashire}
    if edition not in builders:
        raise ValueError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")
    return builders[edition](_raw(edition))


# Bounded: every distinct set of overrides in a log builds its own rules data (~90 KB), and
# logs are user input. The editions' own data (no overrides) is kept for good.
@lru_cache(maxsize=32)
def _with_overrides(edition: str, overrides: tuple[tuple[str, Any], ...]) -> RulesData:
    return _apply_overrides(_base(edition), overrides)


def _load(edition: str, overrides: tuple[tuple[str, Any], ...]) -> RulesData:
    return _with_overrides(edition, overrides) if overrides else _base(edition)


def load_rules(edition: str = "birmingham", tile_overrides: Mapping[str, int] | None = None) -> RulesData:
    """Rules data for an edition, computed once per distinct set of overrides.

    ``tile_overrides`` maps ``"industry.level.field"`` to a value, e.g.
    ``{"manufacturer.4.cost_money": 14}`` for the printing that shows £14.
    """
    overrides = tile_overrides or {}
    if not isinstance(overrides, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in overrides.items()
    ):
        # Checked before hashing: the cache key needs hashable values, and a log's options are user input.
        raise UnknownOverride(f"tile overrides must map 'industry.level.field' to an integer, not {overrides!r}")
    key = tuple(sorted(overrides.items()))
    return _load(edition, key)


def raw_data(edition: str) -> dict[str, Any]:
    """The edition's JSON exactly as shipped (for data tests and documentation)."""
    return _raw(edition)


BIRMINGHAM: RulesData = load_rules("birmingham")
