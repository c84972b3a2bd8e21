"""Actions: small immutable values with an explicit JSON codec.

Every choice the rules leave to a player is a field. A field left as ``None``
means "not stated"; the engine fills it only when the rules leave exactly one
option (or when a lenient :class:`~brass_stats.engine.policy.ChoicePolicy`
says how). Resource sources are strings:

* ``"<location>:<slot>"``: a tile on the board (coal mine, iron works, brewery)
* ``"market"``: the coal or iron market (or the general supply at the empty price)
* ``"merchant"``: the barrel beside the merchant tile being sold to

>>> a = Build(player=0, card="loc:dudley", industry="coal_mine", location="dudley", slot=0)
>>> action_from_json(a.to_json()) == a
True
>>> a.to_json()["type"]
'build'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..codegen import slot_setting_init
from ..errors import LogFormatError

Sources = tuple[str, ...]


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per action class, in declaration order


def _stated_fields(value: Any) -> str:
    """One line: the class and the fields that are stated (choices left as ``None`` are omitted).

    >>> Build(player=0, card="loc:dudley", industry="coal_mine", location="dudley", slot=0)
    Build(player=0, card='loc:dudley', industry='coal_mine', location='dudley', slot=0)
    """
    stated = ", ".join(
        f"{f.name}={getattr(value, f.name)!r}" for f in fields(value) if getattr(value, f.name) is not None
    )
    return f"{type(value).__name__}({stated})"


@dataclass(frozen=True, slots=True, repr=False)
class Action:
    """Base class: every action names the seat that takes it."""

    TYPE: ClassVar[str] = ""
    player: int

    def __repr__(self) -> str:
        # the dataclass repr lists every unstated choice as None: a move list would be mostly "None"
        return _stated_fields(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        for name in names:
            v = getattr(self, name)
            if v is None:
                continue
            if isinstance(v, tuple):
                v = [x.to_json() if isinstance(x, Sale) else x for x in v]
            out[name] = v
        return out

    @property
    def cards(self) -> tuple[str, ...]:
        """Cards discarded by this action."""
        card = getattr(self, "card", None)
        return (card,) if card else ()

    def skeleton(self) -> Action:
        """The action with every resource-source choice removed (what a player decides at the table first)."""
        return self


@dataclass(frozen=True, slots=True, repr=False)
class Build(Action):
    TYPE: ClassVar[str] = "build"
    card: str = ""
    industry: str = ""
    location: str = ""
    slot: int | None = None
    coal: Sources | None = None
    iron: Sources | None = None
    second_card: str | None = None  # Lancashire double-action build: two cards as any location card

    @property
    def cards(self) -> tuple[str, ...]:
        return (self.card,) if self.second_card is None else (self.card, self.second_card)

    def skeleton(self) -> Action:
        return Build(self.player, self.card, self.industry, self.location, self.slot, second_card=self.second_card)


@dataclass(frozen=True, slots=True, repr=False)
class Network(Action):
    """Place one link (canal or rail) or two rail links."""

    TYPE: ClassVar[str] = "network"
    card: str = ""
    links: tuple[str, ...] = ()
    coal: Sources | None = None  # one source per rail link, in link order
    beer: str | None = None  # the barrel for a double rail link

    def skeleton(self) -> Action:
        return Network(self.player, self.card, self.links)


@dataclass(frozen=True, slots=True, repr=False)
class Develop(Action):
    TYPE: ClassVar[str] = "develop"
    card: str = ""
    industries: tuple[str, ...] = ()
    iron: Sources | None = None

    def skeleton(self) -> Action:
        return Develop(self.player, self.card, self.industries)


@dataclass(frozen=True, slots=True, repr=False)
class Sale:
    """One tile sold within a Sell action."""

    tile: str  # "<location>:<slot>" of the player's unflipped tile
    merchant: str  # merchant location
    merchant_space: int | None = None  # which merchant tile (needed for its barrel)
    beer: Sources | None = None
    bonus_develop: str | None = None  # Gloucester: industry whose lowest tile is removed

    def __repr__(self) -> str:
        return _stated_fields(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": self.tile, "merchant": self.merchant}
        if self.merchant_space is not None:
            out["merchant_space"] = self.merchant_space
        if self.beer is not None:
            out["beer"] = list(self.beer)
        if self.bonus_develop is not None:
            out["bonus_develop"] = self.bonus_develop
        return out

    @classmethod
    def from_json(cls, d: Any) -> Sale:
        if not isinstance(d, dict) or "tile" not in d or "merchant" not in d:
            raise LogFormatError("a sale needs 'tile' and 'merchant'")
        unknown = set(d) - {"tile", "merchant", "merchant_space", "beer", "bonus_develop"}
        if unknown:
            raise LogFormatError(f"unknown sale field(s): {', '.join(sorted(unknown))}")
        return cls(
            tile=_str(d["tile"], "tile"),
            merchant=_str(d["merchant"], "merchant"),
            merchant_space=_opt_int(d.get("merchant_space"), "merchant_space"),
            beer=_opt_strs(d.get("beer"), "beer"),
            bonus_develop=_opt_str(d.get("bonus_develop"), "bonus_develop"),
        )

    def skeleton(self) -> Sale:
        return Sale(self.tile, self.merchant, uses_merchant_space(self))


def uses_merchant_space(sale: Sale) -> int | None:
    """Keep the merchant space in a skeleton only when it decides which barrel is drunk."""
    return sale.merchant_space if sale.beer and "merchant" in sale.beer else None


@dataclass(frozen=True, slots=True, repr=False)
class Sell(Action):
    TYPE: ClassVar[str] = "sell"
    card: str = ""
    sales: tuple[Sale, ...] = ()

    def skeleton(self) -> Action:
        return Sell(self.player, self.card, tuple(s.skeleton() for s in self.sales))


@dataclass(frozen=True, slots=True, repr=False)
class Loan(Action):
    TYPE: ClassVar[str] = "loan"
    card: str = ""
    amount: int | None = None  # £ taken, when the edition offers more than one loan (Lancashire)


@dataclass(frozen=True, slots=True, repr=False)
class Scout(Action):
    """Discard three cards (the action's card first) for one wild location and one wild industry."""

    TYPE: ClassVar[str] = "scout"
    discards: tuple[str, ...] = ()

    @property
    def cards(self) -> tuple[str, ...]:
        return self.discards


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    TYPE: ClassVar[str] = "pass"
    card: str = ""


@dataclass(frozen=True, slots=True, repr=False)
class Shortfall(Action):
    """End-of-round: the player's own tiles removed to pay negative income, in order."""

    TYPE: ClassVar[str] = "shortfall"
    tiles: tuple[str, ...] | None = None

    def skeleton(self) -> Action:
        return self


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls for cls in (Build, Network, Develop, Sell, Loan, Scout, Pass, Shortfall)
}


_GENERATED_INIT: dict[type, Any] = {}  # the dataclass's own ``__init__`` of each class (for the tests)

# Each action class (and Sale) sets its slots directly in ``__init__``: the dataclass's own calls
# ``object.__setattr__`` per field (the class is frozen): 0.60 against 0.35 µs for a Network, and
# ``legal_actions`` makes a few hundred actions per call (see codegen.slot_setting_init).
_QUICK: tuple[type, ...] = (Sale, *ACTION_TYPES.values())
for _cls in _QUICK:
    _GENERATED_INIT[_cls] = _cls.__init__  # type: ignore[misc]
    _cls.__init__ = slot_setting_init(_cls)  # type: ignore[misc]


# -- decoding helpers ------------------------------------------------------


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise LogFormatError(f"field {name!r} must be a non-empty string, got {v!r}")
    return v


def _opt_str(v: Any, name: str) -> str | None:
    return None if v is None else _str(v, name)


def _opt_int(v: Any, name: str) -> int | None:
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise LogFormatError(f"field {name!r} must be an integer, got {v!r}")
    return v


def _strs(v: Any, name: str) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise LogFormatError(f"field {name!r} must be a list of strings, got {v!r}")
    return tuple(_str(x, name) for x in v)


def _opt_strs(v: Any, name: str) -> tuple[str, ...] | None:
    return None if v is None else _strs(v, name)


_FIELD_DECODERS: dict[str, Any] = {
    "card": _str,
    "industry": _str,
    "location": _str,
    "slot": _opt_int,
    "coal": _opt_strs,
    "iron": _opt_strs,
    "beer": _opt_str,
    "links": _strs,
    "industries": _strs,
    "discards": _strs,
    "tiles": _opt_strs,
    "second_card": _opt_str,
    "amount": _opt_int,
}


# Per action type, once: (field names with "type", then (name, required, decoder) for each field but player).
_LAYOUT: dict[type[Action], tuple[frozenset[str], tuple[tuple[str, bool, Any], ...]]] = {
    cls: (
        frozenset(f.name for f in fields(cls)) | {"type"},
        tuple((f.name, f.default is not None, _FIELD_DECODERS.get(f.name)) for f in fields(cls) if f.name != "player"),
    )
    for cls in ACTION_TYPES.values()
}


def action_from_json(d: Any) -> Action:
    """Decode one action object of the log format; raises LogFormatError with the reason."""
    if not isinstance(d, dict):
        raise LogFormatError(f"an action must be a JSON object, got {type(d).__name__}")
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise LogFormatError(f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}")
    names, layout = _LAYOUT[cls]
    unknown = d.keys() - names
    if unknown:
        raise LogFormatError(f"unknown field(s) for a {kind} action: {', '.join(sorted(unknown))}")
    if not isinstance(d.get("player"), int) or isinstance(d.get("player"), bool):
        raise LogFormatError(f"a {kind} action needs 'player': the seat number")
    nulls = [k for k, v in d.items() if v is None]
    if nulls:
        raise LogFormatError(
            f"field(s) {', '.join(sorted(nulls))} are null; leave a choice out instead of writing null"
        )
    kwargs: dict[str, Any] = {"player": d["player"]}
    for name, required, decode in layout:
        if name not in d:
            if required:  # fields defaulting to None are optional choices
                raise LogFormatError(f"a {kind} action needs {name!r}")
            continue
        if name == "sales":
            if not isinstance(d["sales"], list):  # an empty list is for the rules (sell.at_least_one)
                raise LogFormatError("field 'sales' must be a list of sales")
            kwargs["sales"] = tuple(Sale.from_json(s) for s in d["sales"])
        else:
            kwargs[name] = decode(d[name], name)
    return cls(**kwargs)
