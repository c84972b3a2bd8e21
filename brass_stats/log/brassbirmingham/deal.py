"""Rebuild a BrassBirmingham (Quasrain-Coder) server game's chance outcomes from its record alone.

Implements the server's deal as docs/importing.md section 2 describes it: one mulberry32 generator,
seeded from the record's ``seed``, shuffles the deck (then deals hands,
face-down discards and the draw deck by seat), the merchant tile pool and the
first turn order; at the end of the Canal Era the same generator, continuing,
reshuffles the discard pile (whose order follows from the cards the record's
actions spend) into the Rail Era hands and deck.

Everything is in the server's own identifiers (card ids such as
``loc-birmingham-0``, merchant names such as ``any``), in the same shape as the
``initialSetup`` / ``railEraStart`` objects of a ``*.setup.json`` file, so a
setup file can be checked against it field by field.

>>> rng = Mulberry32(0)
>>> [hex(rng.next_u32()) for _ in range(3)]
['0x4434b462', '0x159c37', '0x39285b08']
>>> setup = new_game(2, 1)
>>> setup.turn_order, setup.hands[0][:2]
([0, 1], ['loc-worcester-0', 'loc-redditch-0'])
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from ...errors import LogFormatError

T = TypeVar("T")

_MASK = 0xFFFFFFFF
HAND_SIZE = 8
START_MONEY = 17
START_INCOME_SPACE = 10
COAL_MARKET_CUBES = 13
IRON_MARKET_CUBES = 8
WILD_CARDS = 4  # of each kind, in a supply apart from the deck
WILD_KINDS = ("wild-location", "wild-industry")


class ConversionError(LogFormatError):
    """A record could not be converted: names the record, the action's ``seq`` and the field."""

    def __init__(
        self, message: str, *, record: str, seq: int | None = None, field: str | None = None, rule: str | None = None
    ) -> None:
        parts = (f"seq {seq}" if seq is not None else "", f"field {field!r}" if field else "")
        where = ", ".join(x for x in parts if x)
        super().__init__(message, file=record, where=where or None)
        self.seq = seq
        self.field = field
        self.rule = rule  # the broken rule's id, when the record's action is illegal


def to_uint32(seed: float) -> int:
    """JavaScript's ``seed >>> 0``: truncate toward zero, reduce mod 2**32; NaN and infinities give 0.

    >>> to_uint32(-1), to_uint32(2**32 + 5), to_uint32(3.9), to_uint32(float("nan"))
    (4294967295, 5, 3, 0)
    """
    if isinstance(seed, float):
        if not math.isfinite(seed):
            return 0
        seed = math.trunc(seed)
    return int(seed) & _MASK


class Mulberry32:
    """The server's generator; every value is kept unsigned and masked to 32 bits (docs/importing.md 2.1)."""

    def __init__(self, seed: float) -> None:
        self.state = to_uint32(seed)
        self.draws = 0

    def next_u32(self) -> int:
        self.state = (self.state + 0x6D2B79F5) & _MASK
        self.draws += 1
        z = self.state
        z = ((z ^ (z >> 15)) * (z | 1)) & _MASK
        m = ((z ^ (z >> 7)) * (z | 61)) & _MASK
        z = z ^ ((z + m) & _MASK)
        return (z ^ (z >> 14)) & _MASK

    def random(self) -> float:
        """A float in [0, 1), exactly ``u / 2**32``."""
        return self.next_u32() / 4294967296

    def below(self, n: int) -> int:
        """``Math.floor(random() * n)``, computed exactly as ``(u * n) >> 32``."""
        return (self.next_u32() * n) >> 32


def shuffle(items: Sequence[T], rng: Mulberry32) -> list[T]:
    """Fisher-Yates from the back into a new list: ``len(items) - 1`` draws, the last index first."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@cache
def tables() -> dict[str, Any]:
    """The importer's identifier tables (server id -> project id, the deck and merchant pools), shipped
    as package data (``tables.json``)."""
    text = resources.files(__package__).joinpath("tables.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def unshuffled_deck(players: int) -> list[str]:
    """The card ids of a ``players``-player deck in the order that goes into the shuffle (docs/importing.md 2.3)."""
    deck: list[str] = []
    copies: dict[str, int] = {}
    for group in tables()["deck_groups"]:
        if players < group["from"]:
            continue
        for _ in range(group["copies"]):
            k = copies.get(group["face"], 0)
            copies[group["face"]] = k + 1
            deck.append(f"{group['face']}-{k}")
    return deck


def face(card: str) -> str:
    """A card id less its copy number: ``loc-birmingham-2`` -> ``loc-birmingham``."""
    return card.rpartition("-")[0]


@dataclass
class ServerSetup:
    """The chance outcomes of a new game, in the server's identifiers (a setup file's ``initialSetup``)."""

    players: int
    merchants: dict[str, dict[str, list[Any]]]
    turn_order: list[int]
    hands: list[list[str]]
    discard_pile: list[str]
    deck_top_first: list[str]
    rng_state: int  # the generator's state after the setup's draws

    def to_json(self) -> dict[str, Any]:
        n = self.players
        return {
            "era": "canal",
            "round": 1,
            "merchants": self.merchants,
            "turnOrder": self.turn_order,
            "hands": self.hands,
            "discardPile": self.discard_pile,
            "deckTopFirst": self.deck_top_first,
            "wildSupply": {"location": WILD_CARDS, "industry": WILD_CARDS},
            "coalMarketCubes": COAL_MARKET_CUBES,
            "ironMarketCubes": IRON_MARKET_CUBES,
            "money": [START_MONEY] * n,
            "incomeSpace": [START_INCOME_SPACE] * n,
            "incomeLevel": [0] * n,
            "vp": [0] * n,
        }


def _new_game(players: int, seed: float) -> tuple[ServerSetup, Mulberry32]:
    if players not in (2, 3, 4):
        raise ValueError(f"the server deals games of 2 to 4 players, not {players!r}")
    rng = Mulberry32(seed)
    cards = shuffle(unshuffled_deck(players), rng)
    n = players
    hands = [cards[HAND_SIZE * p : HAND_SIZE * (p + 1)] for p in range(n)]
    discards = cards[HAND_SIZE * n : (HAND_SIZE + 1) * n]
    deck = cards[(HAND_SIZE + 1) * n :]
    tiles = shuffle(tables()["merchant_pool"][str(n)], rng)
    merchants: dict[str, dict[str, list[Any]]] = {}
    for m in tables()["merchant_order"]:
        faces = tiles[: m["spaces"]] if n >= m["from"] else []
        tiles = tiles[len(faces) :]
        merchants[m["location"]] = {"tiles": faces, "barrels": [f != "blank" for f in faces]}
    turn_order = shuffle(list(range(n)), rng)
    return ServerSetup(n, merchants, turn_order, hands, discards, deck, rng.state), rng


def new_game(players: int, seed: float) -> ServerSetup:
    """The server's ``newGame(playerCount, seed)``: deck, merchants and first turn order (docs/importing.md 2.1-2.5)."""
    return _new_game(players, seed)[0]


def canal_era_actions(players: int) -> int:
    """How many actions the Canal Era always has: the deck size less the player count (docs/importing.md 2.6)."""
    return len(unshuffled_deck(players)) - players


def canal_rounds(players: int) -> int:
    """Canal round 1 has one action per seat, every later round two."""
    return 1 + (canal_era_actions(players) - players) // (2 * players)


@dataclass
class RailEraStart:
    """The Rail Era deal after the reshuffle (a setup file's ``railEraStart``, less its economy fields)."""

    after_seq: int
    round: int
    merchants: dict[str, dict[str, list[Any]]]
    turn_order: list[int] | None  # read from the record; None if it stops before every seat acted
    hands: list[list[str]]
    deck_top_first: list[str]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "afterSeq": self.after_seq,
            "era": "rail",
            "round": self.round,
            "merchants": self.merchants,
            "turnOrder": self.turn_order,
            "hands": self.hands,
            "discardPile": [],
            "deckTopFirst": self.deck_top_first,
            "wildSupply": {"location": WILD_CARDS, "industry": WILD_CARDS},
        }
        if self.turn_order is None:
            del out["turnOrder"]
        return out


@dataclass
class Reconstruction:
    """Every chance outcome the record fixes, and what it leaves unknown (in words)."""

    seed: int
    players: int
    initial: ServerSetup
    rail: RailEraStart | None
    unknown: list[str] = field(default_factory=list)


@dataclass
class CardPlay:
    """The cards one record action spends: its ``seq`` (for errors), seat and card ids (scout: three)."""

    seq: int | None
    player: int
    cards: list[str]
    field: str  # "cardId" or "cardIds"


class DealFollower:
    """Follows every seat's hand (server card ids) through a record's card plays, in order.

    At the end of the Canal Era it reshuffles the discard pile with the same
    generator and deals the Rail Era (docs/importing.md 2.7). Raises :class:`ConversionError`
    when a card an action names is not in the acting seat's hand under the
    derived deal (a wrong seed or player count, or a record not from this server).
    """

    def __init__(self, players: int, seed: float, record: str = "record") -> None:
        self.setup, self._rng = _new_game(players, seed)
        self.seed, self.players, self.record = to_uint32(seed), players, record
        self.canal = canal_era_actions(players)
        self.hands = [list(h) for h in self.setup.hands]
        self.deck = list(self.setup.deck_top_first)
        self.pile = list(self.setup.discard_pile)
        self.rail: RailEraStart | None = None
        self.actors: list[int] = []

    def _fail(self, play: CardPlay, msg: str) -> ConversionError:
        return ConversionError(msg, record=self.record, seq=play.seq, field=play.field)

    def play(self, play: CardPlay) -> None:
        n, i, setup = self.players, len(self.actors), self.setup
        if not 0 <= play.player < n:
            raise ConversionError(
                f"no seat {play.player} in a {n}-player game", record=self.record, seq=play.seq, field="player"
            )
        if len(set(play.cards)) != len(play.cards):
            raise self._fail(play, f"the same card is named twice: {play.cards}")
        if i < n and play.player != setup.turn_order[i]:
            actors = [*self.actors, play.player]
            raise ConversionError(
                f"the first actors {actors} are not the first turn order {setup.turn_order} that seed "
                f"{self.seed} gives a {n}-player game: wrong seed or playerCount, or not this server's record",
                record=self.record,
                seq=play.seq,
                field="player",
            )
        hand = self.hands[play.player]
        for card in play.cards:
            if card not in hand:
                raise self._fail(
                    play,
                    f"card {card!r} is not in seat {play.player}'s hand {hand} as dealt from seed {self.seed} "
                    f"({n} players): wrong seed or playerCount, or a card the seat does not hold",
                )
        self.actors.append(play.player)
        if len(play.cards) > 1:  # a scout's cards enter the pile in hand order (docs/importing.md 2.6)
            ordered = sorted(play.cards, key=hand.index)
            for card in ordered:
                hand.remove(card)
            self.pile.extend(ordered)
            held = {c for h in self.hands for c in h}
            for kind in WILD_KINDS:
                k = next((k for k in range(WILD_CARDS) if f"{kind}-{k}" not in held), None)
                if k is None:
                    raise self._fail(play, f"no {kind} card is left in the supply for this scout")
                hand.append(f"{kind}-{k}")
        else:
            for card in play.cards:
                hand.remove(card)
                if face(card) not in WILD_KINDS:
                    self.pile.append(card)
        if i < n or (i - n) % 2 == 1:  # the seat's turn ends: refill to 8 (docs/importing.md 2.6)
            need = max(0, HAND_SIZE - len(hand))
            hand.extend(self.deck[:need])
            del self.deck[:need]
        if i + 1 == self.canal:
            self._reshuffle()

    def _reshuffle(self) -> None:
        n = self.players
        rail_cards = shuffle(self.pile, self._rng)  # the generator continues at draw K+1
        self.hands = [rail_cards[HAND_SIZE * p : HAND_SIZE * (p + 1)] for p in range(n)]
        self.deck = rail_cards[HAND_SIZE * n :]
        self.pile = []
        hands = [list(h) for h in self.hands]
        self.rail = RailEraStart(
            self.canal - 1, canal_rounds(n) + 1, self.setup.merchants, None, hands, list(self.deck)
        )

    def result(self) -> Reconstruction:
        """What the plays so far fix, and what they leave unknown (in words)."""
        n, unknown = self.players, []
        if self.rail is None:
            unknown.append(
                f"the Rail Era deal: the record stops after {len(self.actors)} of the Canal Era's {self.canal} "
                "actions, and the reshuffle depends on the order of every Canal Era discard"
            )
        else:
            firsts = self.actors[self.canal : self.canal + 2 * n : 2]
            if len(firsts) == n:
                self.rail.turn_order = firsts
            else:
                unknown.append("the Rail Era turn order: the record stops before every seat acted in the Rail Era")
        return Reconstruction(self.seed, n, self.setup, self.rail, unknown)


def reconstruct(players: int, seed: float, plays: Sequence[CardPlay], record: str = "record") -> Reconstruction:
    """Every chance outcome fixed by a record's card plays (docs/importing.md 2.3-2.7); see :class:`DealFollower`."""
    follower = DealFollower(players, seed, record)
    for play in plays:
        follower.play(play)
    return follower.result()


def first_difference(expected: Any, got: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place (a dotted path) where ``got`` differs from ``expected``; keys only in ``got`` are ignored."""
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            return path, expected, got
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in got:
                return sub, v, "(missing)"
            d = first_difference(v, got[k], sub)
            if d is not None:
                return d
        return None
    if isinstance(expected, list):
        if not isinstance(got, list):
            return path, expected, got
        for i, (a, b) in enumerate(zip(expected, got, strict=False)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d is not None:
                return d
        if len(expected) != len(got):
            return path, expected, got
        return None
    if type(expected) is not type(got) or expected != got:
        return path, expected, got
    return None


def check_setup_file(rebuilt: Reconstruction, setup: Any, record: str, setup_name: str = "setup") -> None:
    """Compare a ``*.setup.json`` with the reconstruction field by field; raise on the first disagreement.

    Checked: all of ``initialSetup``, and the card, merchant, round and turn-order
    fields of ``railEraStart`` (its money, income and VP are not chance outcomes;
    they become the log's declared rail-era checkpoint instead).
    """
    if not isinstance(setup, Mapping):
        raise ConversionError(f"{setup_name} must be a JSON object", record=record, field="setup")
    parts: list[tuple[str, Any]] = [("initialSetup", rebuilt.initial.to_json())]
    if rebuilt.rail is not None and "railEraStart" in setup:
        parts.append(("railEraStart", rebuilt.rail.to_json()))
    for key, mine in parts:
        d = first_difference(mine, setup.get(key), key)
        if d is not None:
            where, want, have = d
            raise ConversionError(
                f"{setup_name} disagrees with the record's seed at {where}: the setup file has {brief(have)}, "
                f"the seed {rebuilt.seed} ({rebuilt.players} players) gives {brief(want)}",
                record=record,
                field=f"setup.{where}",
            )


def brief(v: Any, limit: int = 120) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


AUDITED_SCORES = "officialRulesEngine_d3d2697_fromYuiffyAudit"
BELOW_ZERO = (
    "a log declares no VP below 0: under the rulebook a shortfall costs 1 VP per £1 only while VP are left "
    "(that server went on below 0); the other published values are declared and checked"
)


def declared_result(
    setup: Mapping[str, Any], record: str = "record", players: int | None = None
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The scores the server published (in a setup file), as a declared result checked on validation,
    and the published values the log cannot declare (a final VP below 0), each with where and why."""

    def fail(field: str, msg: str) -> ConversionError:
        return ConversionError(msg, record=record, field=field)

    def numbers(obj: Mapping[str, Any], key: str, where: str) -> list[int]:
        v = obj.get(key)
        if (
            not isinstance(v, list)
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            or (players is not None and len(v) != players)
        ):
            count = f"{players} " if players is not None else ""
            raise fail(f"{where}.{key}", f"must be a list of {count}whole numbers, got {brief(v)}")
        return list(v)

    scores = setup.get("scores")
    if scores is None:
        return None, []
    if not isinstance(scores, dict):
        raise fail("setup.scores", f"must be an object, got {brief(scores)}")
    audited = scores.get(AUDITED_SCORES)
    if audited is None:
        return None, []
    if not isinstance(audited, dict):
        raise fail(f"setup.scores.{AUDITED_SCORES}", f"must be an object, got {brief(audited)}")
    where = f"setup.scores.{AUDITED_SCORES}"
    final = numbers(audited, "finalScores", where)
    out: dict[str, Any] = {"final": [{"seat": i, "vp": vp} for i, vp in enumerate(final) if vp >= 0]}
    not_kept = [
        {"field": f"{where}.finalScores[{i}]", "published": vp, "why": BELOW_ZERO}
        for i, vp in enumerate(final)
        if vp < 0
    ]
    if not out["final"]:
        del out["final"]
    rail = setup.get("railEraStart")
    if rail is not None:
        if not isinstance(rail, dict):
            raise fail("setup.railEraStart", f"must be an object, got {brief(rail)}")
        # VP at the start of the rail era is the canal-era score; railEraStart's own VP predates the
        # server's merchant-link fix, its money and income do not depend on it.
        out["rail_era_start"] = {
            "vp": numbers(audited, "canalScores", where),
            "money": numbers(rail, "money", "setup.railEraStart"),
            "income_level": numbers(rail, "incomeLevel", "setup.railEraStart"),
        }
    return out or None, not_kept
