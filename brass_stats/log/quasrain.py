"""Import games exported by the BrassBirmingham online server (Quasrain-Coder, TypeScript).

A record (``*.record.json``) holds that server's actions; a setup file
(``*.setup.json``) holds the chance outcomes reconstructed from its seed. The
converter maps the server's link indices, slot indices, card ids and merchant
names to this project's identifiers (tables in ``quasrain_tables.json``),
replays the game through the engine, and writes every choice the record left
out exactly as that server made it (:class:`QuasrainPolicy`), so the converted
log replays under the strict rule that ambiguous choices are stated.

>>> from pathlib import Path
>>> d = Path(__file__).parents[2] / "tests" / "golden" / "quasrain"
>>> log = convert_files(d / "wq9gs6-2p.record.json", d / "wq9gs6-2p.setup.json")
>>> len(log.actions), log.players
(78, ('jsb', '111'))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from ..engine import policy as choice
from ..engine.actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
from ..engine.policy import ChoicePolicy
from ..engine.resources import MARKET, MERCHANT
from ..engine.state import GameState
from ..engine.turn import tile_sale_value
from ..errors import IllegalAction, LogFormatError
from ..replay import Replay
from .format import GameLog
from .quasrain_departures import departures, rail_coal_choice

T = TypeVar("T")


class ConversionError(LogFormatError):
    """A record could not be converted: names the record, the action's ``seq`` and the field."""

    def __init__(self, message: str, *, record: str, seq: int | None = None, field: str | None = None) -> None:
        parts = (f"seq {seq}" if seq is not None else "", f"field {field!r}" if field else "")
        where = ", ".join(x for x in parts if x)
        super().__init__(message, file=record, where=where or None)
        self.seq = seq
        self.field = field


@cache
def tables() -> dict[str, Any]:
    """The identifier tables (server id -> project id), shipped as package data."""
    text = resources.files(__package__).joinpath("quasrain_tables.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _server_location_names() -> dict[str, str]:
    return {ours: theirs for theirs, ours in tables()["locations"].items()}


def _server_sort_key(ref: str) -> tuple[str, int]:
    """Order the server used: its location id as a plain string, then slot."""
    loc, _, idx = ref.partition(":")
    return _server_location_names()[loc], int(idx)


class QuasrainPolicy(ChoicePolicy):
    """The fixed order in which the server filled choices that a record leaves out.

    See ``tests/golden/quasrain/README.md`` ("Choices a record leaves out").
    ``merchant_beer`` maps a sold tile to the record's ``useMerchantBeer`` flag
    for the action being converted.
    """

    tolerates = choice.AS_PLAYED_RULES  # the game as played: departures are listed in source.departures

    def __init__(self) -> None:
        self.merchant_beer: dict[str, bool] = {}

    def fill(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        mine = rail_coal_choice(what, context, _server_sort_key)  # the server's own reading
        if mine is not None:
            return mine  # type: ignore[return-value]
        return super().fill(what, options, context)

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        state: GameState = context["state"]
        seat: int = context["player"]
        opts = list(options)
        if what == choice.SLOT:
            loc = context["location"]

            def slot_key(i: Any) -> tuple[int, int, int]:
                t = state.tiles.get(f"{loc}:{i}")
                if t is not None and t.owner != seat:
                    return (0, 0, i)
                if t is None:
                    single = state.rules.locations[loc].slots[i].single_icon
                    return (1 if single else 2, 0, i)
                return (3, t.level, i)

            return min(opts, key=slot_key)
        if what == choice.COAL_MINE:
            return min(opts, key=lambda r: _server_sort_key(str(r)))
        if what == choice.IRON_WORKS:
            used: list[str] = context["used"]
            if used and used[-1] in opts:
                return used[-1]  # (type: ignore not needed: same element type)
            ordered = sorted(opts, key=lambda r: _server_sort_key(str(r)))
            if not used:
                enough = [r for r in ordered if state.tiles[str(r)].resources >= context["remaining"]]
                if enough:
                    return enough[0]
            return ordered[0]
        if what == choice.BEER_SOURCE:
            sale = context.get("sale")
            if sale is not None and self.merchant_beer.get(sale.tile) and MERCHANT in opts:
                return opts[opts.index(MERCHANT)]
            breweries = [o for o in opts if o != MERCHANT]
            if not breweries:
                msg = "the record does not use merchant beer and no brewery has beer"
                raise IllegalAction("beer.source", msg, player=seat)
            return min(breweries, key=lambda r: (state.tiles[str(r)].owner != seat, _server_sort_key(str(r))))
        if what == choice.MERCHANT_TILE:
            return max(opts, key=lambda label: int(str(label).rpartition(":")[2]))  # the rightmost barrel
        if what == choice.BONUS_DEVELOP:
            order = tables()["develop_bonus_order"]
            return min(opts, key=lambda ind: order.index(ind))
        if what == choice.SHORTFALL_TILE:
            return min(opts, key=lambda r: (tile_sale_value(state, str(r)), _server_sort_key(str(r))))
        return super().choose(what, options, context)


class _Mapper:
    """Maps one record action's fields to project identifiers, naming the field on failure."""

    def __init__(self, record: str, seq: int | None) -> None:
        self.record, self.seq = record, seq
        self.t = tables()

    def fail(self, field: str, message: str) -> ConversionError:
        return ConversionError(message, record=self.record, seq=self.seq, field=field)

    def get(self, action: Mapping[str, Any], field: str) -> Any:
        if field not in action:
            raise self.fail(field, "missing")
        return action[field]

    def lookup(self, table: str, key: Any, field: str) -> Any:
        value = self.t[table].get(str(key))
        if value is None:
            raise self.fail(field, f"unknown {table[:-1] if table.endswith('s') else table} {key!r}")
        return value

    def card(self, key: Any, field: str = "cardId") -> str:
        return str(self.lookup("cards", key, field))

    def slot(self, loc: Any, index: Any, field: str) -> str:
        slots = self.t["slots"].get(str(loc))
        if slots is None:
            raise self.fail(field, f"unknown location {loc!r}")
        if not isinstance(index, int) or not 0 <= index < len(slots):
            raise self.fail(field, f"{loc} has no slot {index!r}")
        return str(slots[index])

    def source(self, src: Any, field: str) -> str:
        if not isinstance(src, dict):
            raise self.fail(field, f"a source must be an object, got {src!r}")
        kind = src.get("kind")
        if kind == "merchant":
            return MERCHANT
        if kind == "market":
            return MARKET
        if "location" in src:
            return self.slot(src["location"], src.get("slotIndex"), field)
        raise self.fail(field, f"cannot read source {src!r}")

    def sources(self, action: Mapping[str, Any], field: str) -> tuple[str, ...] | None:
        if field not in action:
            return None
        value = action[field]
        if not isinstance(value, list):
            raise self.fail(field, "must be a list")
        return tuple(self.source(s, field) for s in value)


def map_action(entry: Mapping[str, Any], record: str, policy: QuasrainPolicy) -> Action:
    """One ``{seq, player, action}`` entry as a project action (choices the record omits stay None)."""
    seq = entry.get("seq")
    m = _Mapper(record, seq if isinstance(seq, int) else None)
    player = m.get(entry, "player")
    a = m.get(entry, "action")
    if not isinstance(a, dict) or not isinstance(player, int):
        raise m.fail("action", "each entry needs an integer 'player' and an 'action' object")
    kind = m.get(a, "type")
    if kind == "build":
        location = str(m.lookup("locations", m.get(a, "location"), "location"))
        slot = a.get("slotIndex")
        if slot is not None:
            slot = int(m.slot(m.get(a, "location"), slot, "slotIndex").rpartition(":")[2])
        return Build(
            player,
            m.card(m.get(a, "cardId")),
            str(m.lookup("industries", m.get(a, "industry"), "industry")),
            location,
            slot,
            None,
            m.sources(a, "ironSources"),
        )
    if kind == "network":
        links = m.get(a, "links")
        if not isinstance(links, list):
            raise m.fail("links", "must be a list of link indices")
        beer = a.get("beerSource")
        return Network(
            player,
            m.card(m.get(a, "cardId")),
            tuple(str(m.lookup("links", i, "links")) for i in links),
            None,
            None if beer is None else m.source(beer, "beerSource"),
        )
    if kind == "develop":
        removals = m.get(a, "removals")
        if not isinstance(removals, list):
            raise m.fail("removals", "must be a list of industries")
        return Develop(
            player,
            m.card(m.get(a, "cardId")),
            tuple(str(m.lookup("industries", r, "removals")) for r in removals),
            m.sources(a, "ironSources"),
        )
    if kind == "sell":
        raw_sales = m.get(a, "sales")
        if not isinstance(raw_sales, list) or not raw_sales:
            raise m.fail("sales", "must be a non-empty list")
        bonus = a.get("bonusDevelop")
        bonus_ind = None if bonus is None else str(m.lookup("industries", bonus, "bonusDevelop"))
        sales = []
        policy.merchant_beer = {}
        for s in raw_sales:
            if not isinstance(s, dict):
                raise m.fail("sales", "each sale must be an object")
            tile = m.slot(m.get(s, "location"), m.get(s, "slotIndex"), "sales.slotIndex")
            merchant = str(m.lookup("locations", m.get(s, "merchant"), "sales.merchant"))
            use_merchant = bool(s.get("useMerchantBeer", False))
            policy.merchant_beer[tile] = use_merchant
            beer = m.sources(s, "beerSources")
            space = s.get("tileIndex")
            this_bonus = None
            if bonus_ind is not None and use_merchant and merchant == "gloucester":
                this_bonus, bonus_ind = bonus_ind, None
            sales.append(Sale(tile, merchant, space if isinstance(space, int) else None, beer, this_bonus))
        return Sell(player, m.card(m.get(a, "cardId")), tuple(sales))
    if kind == "loan":
        return Loan(player, m.card(m.get(a, "cardId")))
    if kind == "pass":
        return Pass(player, m.card(m.get(a, "cardId")))
    if kind == "scout":
        ids = m.get(a, "cardIds")
        if not isinstance(ids, list):
            raise m.fail("cardIds", "must be a list of card ids")
        return Scout(player, tuple(m.card(c, "cardIds") for c in ids))
    raise m.fail("type", f"unknown action type {kind!r}")


def chance_from_setup(setup: Mapping[str, Any], record: str) -> dict[str, Any]:
    """Explicit chance records from the setup file's initial deal and rail-era reshuffle."""
    t = tables()

    def fail(field: str, msg: str) -> ConversionError:
        return ConversionError(msg, record=record, field=field)

    def cards(ids: Any, field: str) -> list[str]:
        if not isinstance(ids, list):
            raise fail(field, "must be a list of card ids")
        out = []
        for c in ids:
            code = t["cards"].get(c)
            if code is None:
                raise fail(field, f"unknown card id {c!r}")
            out.append(code)
        return out

    try:
        init = setup["initialSetup"]
        merchants: dict[str, list[str]] = {}
        for loc, spec in init["merchants"].items():
            if not spec["tiles"]:
                continue
            faces = []
            for face in spec["tiles"]:
                if face not in t["merchant_faces"]:
                    raise fail("initialSetup.merchants", f"unknown merchant tile {face!r}")
                faces.append(t["merchant_faces"][face])
            merchants[t["locations"][loc]] = faces
        chance: dict[str, Any] = {
            "merchant_tiles": merchants,
            "turn_order": list(init["turnOrder"]),
            "hands": [cards(h, "initialSetup.hands") for h in init["hands"]],
            "discards": [[c] for c in cards(init["discardPile"], "initialSetup.discardPile")],
            "deck": cards(init["deckTopFirst"], "initialSetup.deckTopFirst"),
        }
        rail = setup.get("railEraStart")
        if rail is not None:
            chance["rail_era"] = {
                "hands": [cards(h, "railEraStart.hands") for h in rail["hands"]],
                "deck": cards(rail["deckTopFirst"], "railEraStart.deckTopFirst"),
            }
    except (KeyError, TypeError) as e:
        raise fail("initialSetup", f"setup file is missing {e}") from None
    return chance


def declared_result(setup: Mapping[str, Any]) -> dict[str, Any] | None:
    """The scores the server published, as a declared result (checked when the log is validated)."""
    scores = setup.get("scores", {}).get("officialRulesEngine_d3d2697_fromYuiffyAudit")
    if not scores:
        return None
    out: dict[str, Any] = {"final": [{"seat": i, "vp": vp} for i, vp in enumerate(scores["finalScores"])]}
    rail = setup.get("railEraStart")
    if rail is not None:
        # VP at the start of the rail era is the canal-era score; railEraStart's own VP predates the
        # server's merchant-link fix, its money and income do not depend on it.
        out["rail_era_start"] = {
            "vp": list(scores["canalScores"]),
            "money": list(rail["money"]),
            "income_level": list(rail["incomeLevel"]),
        }
    return out


def convert(record: Mapping[str, Any], setup: Mapping[str, Any], record_name: str = "record") -> GameLog:
    """Convert one record + setup into a fully stated project log (raises ConversionError)."""
    if not isinstance(record, Mapping) or not isinstance(record.get("actions"), list):
        raise ConversionError("not a BrassBirmingham record (no 'actions' list)", record=record_name)
    seats = record.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        raise ConversionError("'seats' must list 2 to 4 seats", record=record_name, field="seats")
    names = tuple(str(s.get("nickname", f"Seat {i}")) for i, s in enumerate(seats))
    log = GameLog(
        players=names,
        chance=chance_from_setup(setup, record_name),
        options={"tile_overrides": dict(tables()["tile_overrides"])},
        result=declared_result(setup),
        source={
            "format": "quasrain",
            "room": record.get("roomCode"),
            "seed": record.get("seed"),
            "record": Path(record_name).name,
        },
    )
    policy = QuasrainPolicy()
    try:
        replay = Replay(log, policy=policy, keep_states=False)
    except LogFormatError as e:
        raise ConversionError(e.message, record=record_name, field="setup") from None
    for entry in record["actions"]:
        seq = entry.get("seq") if isinstance(entry, dict) else None
        _settle_shortfalls(replay, record_name, seq)
        action = map_action(entry if isinstance(entry, dict) else {}, record_name, policy)
        try:
            replay.push(action)
        except IllegalAction as e:
            msg = f"illegal action: {e.message} [{e.rule}]"
            raise ConversionError(msg, record=record_name, seq=seq, field="action") from None
        except LogFormatError as e:
            raise ConversionError(e.message, record=record_name, seq=seq) from None
    _settle_shortfalls(replay, record_name, None)
    log.actions = [s.action for s in replay.steps]
    found = departures(replay)
    if found:
        assert log.source is not None
        log.source["departures"] = found
    return log


def _settle_shortfalls(replay: Replay, record: str, seq: Any) -> None:
    """The server sold tiles for negative income by itself; write those choices as actions."""
    while replay.state.phase == "shortfall":
        seat = replay.state.current_player
        assert seat is not None
        try:
            replay.push(Shortfall(seat))
        except IllegalAction as e:
            raise ConversionError(f"shortfall before this action: {e.message}", record=record, seq=seq) from None


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConversionError(f"cannot read {what}: {e.strerror}", record=str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ConversionError(f"{what} is not valid JSON: {e}", record=str(path)) from None


def convert_files(record_path: str | Path, setup_path: str | Path) -> GameLog:
    """Convert a record file and its setup file (see :func:`convert`)."""
    record_path, setup_path = Path(record_path), Path(setup_path)
    record = _read_json(record_path, "record")
    setup = _read_json(setup_path, "setup")
    return convert(record, setup, str(record_path))
