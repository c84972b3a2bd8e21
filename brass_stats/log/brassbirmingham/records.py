"""Import games exported by the BrassBirmingham online server (Quasrain-Coder, TypeScript).

A record (``*.record.json``) holds that server's actions and the seed behind
every chance outcome; :mod:`.deal` rebuilds the deal from it. A setup
file (``*.setup.json``, made by running that server's engine), when given, is
only a cross-check. The converter maps the server's link indices, slot indices, card ids and merchant
names to this project's identifiers (tables in ``tables.json``),
replays the game through the engine, and writes every choice the record left
out exactly as that server made it (:class:`QuasrainPolicy`), so the converted
log replays under the strict rule that ambiguous choices are stated.

>>> from pathlib import Path
>>> d = Path(__file__).parents[3] / "tests" / "golden" / "quasrain"
>>> log = convert_files(d / "wq9gs6-2p.record.json")
>>> len(log.actions), log.players
(78, ('jsb', '111'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from ...engine import policy as choice
from ...engine.actions import Action, Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
from ...engine.policy import ChoicePolicy
from ...engine.resources import MARKET, MERCHANT
from ...engine.state import GameState
from ...engine.turn import tile_sale_value
from ...errors import IllegalAction, LogFormatError
from ..format import GameLog, parse_json
from .deal import (
    CardPlay,
    ConversionError,
    Reconstruction,
    brief,
    check_setup_file,
    declared_result,
    reconstruct,
    tables,
)
from .departures import PlayedGame, rail_coal_choice

T = TypeVar("T")


@cache
def _server_location_names() -> dict[str, str]:
    return {ours: theirs for theirs, ours in tables()["locations"].items()}


def _server_sort_key(ref: str) -> tuple[str, int]:
    """Order the server used: its location id as a plain string, then slot."""
    loc, _, idx = ref.partition(":")
    return _server_location_names()[loc], int(idx)


class QuasrainPolicy(ChoicePolicy):
    """The fixed order in which the server filled choices that a record leaves out.

    See docs/importing.md, "Choices a record leaves out".
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
            ordered = sorted(opts, key=lambda r: _server_sort_key(str(r)))
            if context.get("cause") == "develop":
                # one cube per tile, each from the first works holding any iron at that moment
                return ordered[0]
            used: list[str] = context["used"]
            if used and used[-1] in opts:
                return used[-1]
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


# Fields a record may hold, per action type (anything else fails loudly: a newer server wrote it).
ENTRY_FIELDS = frozenset({"seq", "player", "action"})
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "build": frozenset({"type", "cardId", "industry", "location", "slotIndex", "ironSources"}),
    "network": frozenset({"type", "cardId", "links", "beerSource"}),
    "develop": frozenset({"type", "cardId", "removals", "ironSources"}),
    "sell": frozenset({"type", "cardId", "sales", "bonusDevelop"}),
    "loan": frozenset({"type", "cardId"}),
    "pass": frozenset({"type", "cardId"}),
    "scout": frozenset({"type", "cardIds"}),
}
SALE_FIELDS = frozenset({"location", "slotIndex", "merchant", "useMerchantBeer", "beerSources"})
IRON_SOURCE_FIELDS = frozenset({"kind", "location", "slotIndex", "count"})
BEER_SOURCE_FIELDS = frozenset({"kind", "location", "slotIndex", "tileIndex"})


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


SINGULAR = {"cards": "card", "locations": "location", "industries": "industry", "links": "link"}
"""The server's tables by the word an error message names one entry with."""


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

    def known(self, obj: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
        unknown = sorted(str(k) for k in obj if k not in allowed)
        if unknown:
            raise self.fail(
                f"{where}.{unknown[0]}" if where else unknown[0],
                f"unknown field(s) {', '.join(map(repr, unknown))} (this importer reads {', '.join(sorted(allowed))})",
            )

    def obj(self, value: Any, field: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"must be an object, got {brief(value)}")
        return value

    def lookup(self, table: str, key: Any, field: str) -> Any:
        value = self.t[table].get(key) if isinstance(key, str | int) and not isinstance(key, bool) else None
        if value is None and _is_int(key):
            value = self.t[table].get(str(key))
        if value is None:
            raise self.fail(field, f"unknown {SINGULAR.get(table, table)} {brief(key)}")
        return value

    def card(self, key: Any, field: str = "cardId") -> str:
        if not isinstance(key, str):
            raise self.fail(field, f"a card id must be a string, got {brief(key)}")
        return str(self.lookup("cards", key, field))

    def slot(self, loc: Any, index: Any, field: str) -> str:
        slots = self.t["slots"].get(loc) if isinstance(loc, str) else None
        if slots is None:
            raise self.fail(field, f"unknown location {brief(loc)}")
        if not _is_int(index) or not 0 <= index < len(slots):
            raise self.fail(field, f"{loc} has no slot {brief(index)}")
        return str(slots[index])

    def source(self, src: Any, field: str, allowed: frozenset[str]) -> str:
        src = self.obj(src, field)
        self.known(src, allowed, field)
        kind = src.get("kind")
        if kind == "merchant":
            return MERCHANT
        if kind == "market":
            return MARKET
        if "location" in src:
            return self.slot(src["location"], src.get("slotIndex"), field)
        raise self.fail(field, f"cannot read source {brief(src)}")

    def iron_sources(self, action: Mapping[str, Any]) -> tuple[str, ...] | None:
        """``ironSources``: one entry per works; a newer record's ``count`` says how many cubes it gave."""
        if "ironSources" not in action:
            return None
        value = action["ironSources"]
        if not isinstance(value, list):
            raise self.fail("ironSources", "must be a list")
        out: list[str] = []
        for src in value:
            ref = self.source(src, "ironSources", IRON_SOURCE_FIELDS)
            count = src.get("count", 1)
            if not _is_int(count) or not 1 <= count <= MAX_IRON_PER_SOURCE:
                raise self.fail("ironSources.count", f"must be a whole number of cubes (1..{MAX_IRON_PER_SOURCE})")
            out.extend([ref] * count)
        return tuple(out)

    def beer_sources(self, sale: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, int | None]:
        """A sale's ``beerSources``, and the merchant space a ``{kind: merchant, tileIndex}`` names."""
        if "beerSources" not in sale:
            return None, None
        value = sale["beerSources"]
        if not isinstance(value, list):
            raise self.fail("sales.beerSources", "must be a list")
        out: list[str] = []
        space: int | None = None
        for src in value:
            out.append(self.source(src, "sales.beerSources", BEER_SOURCE_FIELDS))
            if "tileIndex" in src:
                if out[-1] != MERCHANT or not _is_int(src["tileIndex"]) or not 0 <= src["tileIndex"] < 2:
                    raise self.fail("sales.beerSources.tileIndex", f"not a merchant space: {brief(src)}")
                space = src["tileIndex"]
        return tuple(out), space


# A works holds at most 6 iron cubes (Iron Works IV); a count above that is not a real record.
MAX_IRON_PER_SOURCE = 6


def _entry(entry: Any, record: str, index: int) -> tuple[_Mapper, int, Mapping[str, Any]]:
    """Check an ``{seq, player, action}`` entry's shape: (mapper naming its seq, player, action object)."""
    if not isinstance(entry, dict):
        raise ConversionError(f"each action entry must be an object, got {brief(entry)}", record=record, seq=index)
    seq = entry.get("seq")
    m = _Mapper(record, seq if _is_int(seq) else index)
    m.known(entry, ENTRY_FIELDS, "")
    player = m.get(entry, "player")
    if not _is_int(player):
        raise m.fail("player", f"must be a seat number, got {brief(player)}")
    a = m.obj(m.get(entry, "action"), "action")
    kind = m.get(a, "type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise m.fail("type", f"unknown action type {brief(kind)}")
    m.known(a, ACTION_FIELDS[kind], "")
    return m, player, a


def card_play(entry: Any, record: str, index: int) -> CardPlay:
    """The cards one entry spends, in the server's ids (for rebuilding the deal; see .deal)."""
    m, player, a = _entry(entry, record, index)
    if a["type"] == "scout":
        ids = m.get(a, "cardIds")
        if not isinstance(ids, list) or len(ids) != 3:
            raise m.fail("cardIds", "a scout discards a list of three card ids")
        for c in ids:
            m.card(c, "cardIds")
        return CardPlay(m.seq, player, list(ids), "cardIds")
    card = m.get(a, "cardId")
    m.card(card)
    return CardPlay(m.seq, player, [card], "cardId")


def map_action(entry: Mapping[str, Any], record: str, policy: QuasrainPolicy, index: int = 0) -> Action:
    """One ``{seq, player, action}`` entry as a project action (choices the record omits stay None)."""
    m, player, a = _entry(entry, record, index)
    kind = a["type"]
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
            m.iron_sources(a),
        )
    if kind == "network":
        links = m.get(a, "links")
        if not isinstance(links, list) or not 1 <= len(links) <= 2:
            raise m.fail("links", "must be a list of one or two link indices")
        beer = a.get("beerSource")
        return Network(
            player,
            m.card(m.get(a, "cardId")),
            tuple(str(m.lookup("links", i, "links")) for i in links),
            None,
            None if beer is None else m.source(beer, "beerSource", BEER_SOURCE_FIELDS - {"tileIndex"}),
        )
    if kind == "develop":
        removals = m.get(a, "removals")
        if not isinstance(removals, list) or not 1 <= len(removals) <= 2:
            raise m.fail("removals", "must be a list of one or two industries")
        return Develop(
            player,
            m.card(m.get(a, "cardId")),
            tuple(str(m.lookup("industries", r, "removals")) for r in removals),
            m.iron_sources(a),
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
            s = m.obj(s, "sales")
            m.known(s, SALE_FIELDS, "sales")
            tile = m.slot(m.get(s, "location"), m.get(s, "slotIndex"), "sales.slotIndex")
            merchant = str(m.lookup("locations", m.get(s, "merchant"), "sales.merchant"))
            use_merchant = s.get("useMerchantBeer", False)
            if not isinstance(use_merchant, bool):
                raise m.fail("sales.useMerchantBeer", f"must be true or false, got {brief(use_merchant)}")
            policy.merchant_beer[tile] = use_merchant
            beer, space = m.beer_sources(s)
            this_bonus = None
            drinks_merchant = use_merchant or (beer is not None and MERCHANT in beer)
            if bonus_ind is not None and drinks_merchant and merchant == "gloucester":
                this_bonus, bonus_ind = bonus_ind, None
            sales.append(Sale(tile, merchant, space, beer, this_bonus))
        if bonus_ind is not None:  # dropping it would silently change the game
            raise m.fail("bonusDevelop", "no sale in this action drinks a Gloucester merchant's barrel")
        return Sell(player, m.card(m.get(a, "cardId")), tuple(sales))
    if kind == "loan":
        return Loan(player, m.card(m.get(a, "cardId")))
    if kind == "pass":
        return Pass(player, m.card(m.get(a, "cardId")))
    ids = m.get(a, "cardIds")  # scout (the entry check admits no other type)
    if not isinstance(ids, list):
        raise m.fail("cardIds", "must be a list of card ids")
    return Scout(player, tuple(m.card(c, "cardIds") for c in ids))


def chance_from_reconstruction(rebuilt: Reconstruction) -> dict[str, Any]:
    """Explicit chance records (project identifiers) from the deal rebuilt from the seed."""
    t = tables()

    def cards(ids: list[str]) -> list[str]:
        return [t["cards"][c] for c in ids]

    init = rebuilt.initial
    chance: dict[str, Any] = {
        "merchant_tiles": {
            t["locations"][loc]: [t["merchant_faces"][f] for f in spec["tiles"]]
            for loc, spec in init.merchants.items()
            if spec["tiles"]
        },
        "turn_order": list(init.turn_order),
        "hands": [cards(h) for h in init.hands],
        "discards": [[c] for c in cards(init.discard_pile)],
        "deck": cards(init.deck_top_first),
    }
    if rebuilt.rail is not None:
        chance["rail_era"] = {
            "hands": [cards(h) for h in rebuilt.rail.hands],
            "deck": cards(rebuilt.rail.deck_top_first),
        }
    return chance


def _player_count(record: Mapping[str, Any], record_name: str) -> int:
    n = record.get("playerCount")
    seats = record.get("seats")
    if n is None and isinstance(seats, list):
        n = len(seats)  # older exports: one seat object per player
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 4:
        raise ConversionError(f"must be 2, 3 or 4, got {brief(n)}", record=record_name, field="playerCount")
    return n


def _seat_names(record: Mapping[str, Any], players: int, record_name: str) -> tuple[str, ...]:
    seats = record.get("seats")
    if seats is None:
        return tuple(f"Seat {i}" for i in range(players))
    if not isinstance(seats, list) or len(seats) != players:
        raise ConversionError(f"must list {players} seat objects (playerCount)", record=record_name, field="seats")
    names = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise ConversionError(f"seat {i} must be an object, got {brief(seat)}", record=record_name, field="seats")
        name = seat.get("nickname", f"Seat {i}")
        if not isinstance(name, str) or not _encodable(name):
            raise ConversionError(
                f"seat {i}'s nickname must be a string of characters, got {brief(name)}",
                record=record_name,
                field="seats.nickname",
            )
        names.append(name)
    return tuple(names)


def _bot_seats(record: Mapping[str, Any], names: tuple[str, ...]) -> list[str | None] | None:
    """``source.bots`` for the log: the nickname of each seat the server marks ``isAI``, None for people.

    None when no seat says (older records); see docs/log-format.md section 4.
    """
    seats = record.get("seats")
    if not isinstance(seats, list) or not any(isinstance(s, dict) and "isAI" in s for s in seats):
        return None
    return [
        name if isinstance(s, dict) and s.get("isAI") is True else None for s, name in zip(seats, names, strict=True)
    ]


def _encodable(text: str) -> bool:
    """False for a string holding a lone UTF-16 surrogate (it cannot be written as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _room(record: Mapping[str, Any], record_name: str) -> str | None:
    room = record.get("roomCode")
    if room is not None and (not isinstance(room, str) or not _encodable(room) or len(room) > 100):
        raise ConversionError(f"must be a short string, got {brief(room)}", record=record_name, field="roomCode")
    return room


def _seed(record: Mapping[str, Any], record_name: str) -> int | float:
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | float):
        raise ConversionError(f"must be a number, got {brief(seed)}", record=record_name, field="seed")
    return seed


def rebuild_setup(record: Any, record_name: str = "record") -> Reconstruction:
    """Every chance outcome of a record, rebuilt from its ``seed``, ``playerCount`` and the cards it spends."""
    if not isinstance(record, Mapping) or not isinstance(record.get("actions"), list):
        raise ConversionError("not a BrassBirmingham record (no 'actions' list)", record=record_name)
    players = _player_count(record, record_name)
    plays = [card_play(e, record_name, i) for i, e in enumerate(record["actions"])]
    return reconstruct(players, _seed(record, record_name), plays, record_name)


def convert(record: Any, setup: Any = None, record_name: str = "record", setup_name: str = "setup") -> GameLog:
    """Convert one record into a fully stated project log (raises ConversionError).

    Chance outcomes are rebuilt from the record alone (:func:`rebuild_setup`). A
    ``setup`` (the ``*.setup.json`` object), when given, is checked against them
    field by field, and supplies the server's published scores as the declared result.
    """
    rebuilt = rebuild_setup(record, record_name)
    names = _seat_names(record, rebuilt.players, record_name)
    result: dict[str, Any] | None = None
    not_kept: list[dict[str, Any]] = []
    if setup is not None:
        check_setup_file(rebuilt, setup, record_name, setup_name)
        result, not_kept = declared_result(setup, record_name, rebuilt.players)
    source: dict[str, Any] = {
        "format": "quasrain",
        "room": _room(record, record_name),
        "seed": rebuilt.seed,
        "record": Path(record_name).name,
        "chance": "rebuilt from the record's seed, playerCount and cards (server-setup.md)",
    }
    if setup is not None:
        source["setup_checked"] = Path(setup_name).name
        if not_kept:
            source["published_not_kept"] = not_kept
    if rebuilt.unknown:
        source["unknown"] = list(rebuilt.unknown)
    bots = _bot_seats(record, names)
    if bots is not None and any(bots):
        source["bots"] = bots
    log = GameLog(players=names, chance=chance_from_reconstruction(rebuilt), result=result, source=source)
    game, error = _play(record, log, record_name)
    if error is not None:
        game = _at_older_prices(record, log, record_name, game, error)
    log.actions = game.actions
    if game.departures:
        assert log.source is not None
        log.source["departures"] = game.departures
    try:  # what the importer writes, the strict reader must read (names, published scores in range)
        GameLog.from_json(log.to_json())
    except LogFormatError as e:
        where = f"{e.where}: " if e.where else ""
        why = f"the converted log would not be a valid log: {where}{e.message}"
        raise ConversionError(why, record=record_name, field="setup.scores" if "result" in where else None) from None
    return log


OLDER_SERVER_PRICES = {"manufacturer.4": 14}
"""Tile prices (``industry.level``: £) of an older version of the server, where it departed from the printed
tile: it charged £14 for Manufacturer IV (printed: £8). See docs/importing.md, "Manufacturer IV"."""


def _play(record: Mapping[str, Any], log: GameLog, record_name: str) -> tuple[PlayedGame, ConversionError | None]:
    """Step the record's actions through the engine, the server's choices filled in: the game, and the
    error that stopped it (None when every action converted). Raises ConversionError for the setup."""
    policy = QuasrainPolicy()
    try:
        game = PlayedGame(log, policy)
    except LogFormatError as e:
        raise ConversionError(e.message, record=record_name, field="setup") from None
    try:
        for i, entry in enumerate(record["actions"]):
            seq = entry["seq"] if _is_int(entry.get("seq")) else i
            _settle_shortfalls(game, record_name, seq)
            action = map_action(entry, record_name, policy, i)
            try:
                game.push(action)
            except IllegalAction as e:
                msg = f"illegal action: {e.message} [{e.rule}]"
                raise ConversionError(msg, record=record_name, seq=seq, field="action", rule=e.rule) from None
            except LogFormatError as e:
                raise ConversionError(e.message, record=record_name, seq=seq) from None
        _settle_shortfalls(game, record_name, None)
    except ConversionError as e:
        return game, e
    return game, None


def _at_older_prices(
    record: Mapping[str, Any], log: GameLog, record_name: str, failed: PlayedGame, error: ConversionError
) -> PlayedGame:
    """A record that fails after building a tile an older server version priced differently: the game
    converted again at that server's price, kept when every action then converts (the price becomes
    ``options.played_costs``, and each such build a ``build.cost`` departure). Otherwise ``error`` is raised.

    The price shows in the record's later actions: £6 more spent on a Manufacturer IV changes the next
    round's turn order (or leaves the seat short of money), so the record fails at £8 and converts at £14.
    """
    built = {f"{industry}.{level}" for industry, level in failed.built}
    prices = {key: price for key, price in OLDER_SERVER_PRICES.items() if key in built}
    if not prices:
        raise error
    options = {**log.options, "played_costs": prices}
    game, again = _play(record, replace(log, options=options), record_name)
    if again is not None:
        raise error
    log.options = options
    return game


def _settle_shortfalls(game: PlayedGame, record: str, seq: Any) -> None:
    """The server sold tiles for negative income by itself; write those choices as actions."""
    while game.state.phase == "shortfall":
        seat = game.state.current_player
        assert seat is not None
        try:
            game.push(Shortfall(seat))
        except IllegalAction as e:
            raise ConversionError(f"shortfall before this action: {e.message}", record=record, seq=seq) from None


def _read_json(path: Path, what: str) -> Any:
    """The file's JSON, read strictly (no duplicate keys, NaN or lone surrogates; within the size limits)."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ConversionError(f"cannot read {what}: {e.strerror}", record=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConversionError(f"{what} is not UTF-8 text (byte {e.start})", record=str(path)) from None
    try:
        return parse_json(text, str(path))
    except LogFormatError as e:
        raise ConversionError(f"{what} is {e.message}", record=str(path), field=e.where) from None


def convert_files(record_path: str | Path, setup_path: str | Path | None = None) -> GameLog:
    """Convert a record file, and check it against its setup file when one is given (see :func:`convert`)."""
    record_path = Path(record_path)
    record = _read_json(record_path, "record")
    if setup_path is None:
        return convert(record, None, str(record_path))
    setup = _read_json(Path(setup_path), "setup")
    return convert(record, setup, str(record_path), str(setup_path))
