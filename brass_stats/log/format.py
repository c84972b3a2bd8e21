"""The project's game-log format (version 1): read, check and write.

A log is one JSON object (see ``docs/log-format.md`` and ``schema.json``)::

    {"format": "brass-stats-log", "format_version": 1, "edition": "birmingham",
     "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
     "options": {}, "chance": {"seed": 42},
     "actions": [{"type": "loan", "player": 1, "card": "loc:dudley"}, ...],
     "result": {"final": [{"seat": 0, "vp": 151}, ...]}}

>>> log = GameLog.new(["Ann", "Bob"], seed=42)
>>> GameLog.from_json(log.to_json()).players
('Ann', 'Bob')
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import Action, action_from_json
from ..engine.setup import ChanceSource, ExplicitChance, SeededChance
from ..errors import LogFormatError
from ..rules_data import RulesData, UnknownOverride, load_rules
from . import schema as _schema
from .limits import Limits, env_name

# Editions the engine can replay (the rules data may know more).
PLAYABLE_EDITIONS: tuple[str, ...] = ("birmingham", "lancashire")
FORMAT_NAME = "brass-stats-log"
FORMAT_VERSION = 1
OPTION_KEYS = frozenset(
    {"tile_overrides", "virtual_link", "classic_deck", "introductory", "link_tiles", "played_costs"}
)
TOP_LEVEL_KEYS = frozenset(
    {"format", "format_version", "edition", "players", "options", "chance", "source", "actions", "result"}
)
RESULT_ROW_KEYS = frozenset({"seat", "name", "vp", "income_level", "money", "rank"})
CHECKPOINT_KEYS = frozenset({"vp", "money", "income_level", "income_space"})
# explicit chance records each edition needs (beyond turn order, hands and deck)
EDITION_CHANCE_KEYS = {
    "birmingham": frozenset({"merchant_tiles", "discards"}),
    "lancashire": frozenset({"reserve", "distant_market"}),
}


@dataclass
class GameLog:
    """A recorded game: header, chance, actions, and optionally the declared result."""

    players: tuple[str, ...]
    chance: dict[str, Any]
    actions: list[Action] = field(default_factory=list)
    edition: str = "birmingham"
    options: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    source: dict[str, Any] | None = None
    file: str | None = None

    def __repr__(self) -> str:
        names = ", ".join(repr(n if len(n) <= 40 else n[:39] + "…") for n in self.players)
        chance = f"seed {self.seed}" if self.seed is not None else "explicit chance"
        where = f", file {Path(self.file).name!r}" if self.file else ""
        size = f"{len(self.players)} players ({names}), {len(self.actions)} actions"
        return f"<GameLog {self.edition}, {size}, {chance}{where}>"

    @classmethod
    def new(cls, names: list[str], seed: int, **kw: Any) -> GameLog:
        return cls(players=tuple(names), chance={"seed": seed}, **kw)

    # -- derived -------------------------------------------------------------
    @property
    def departures(self) -> list[dict[str, Any]]:
        """Where the game as played broke a rule, as its importer listed them (``source.departures``)."""
        return list((self.source or {}).get("departures", []))

    @property
    def seed(self) -> int | None:
        s = self.chance.get("seed")
        return s if isinstance(s, int) else None

    def rules(self) -> RulesData:
        try:
            return load_rules(self.edition, self.options.get("tile_overrides"))
        except UnknownOverride as e:
            raise LogFormatError(str(e), file=self.file, where="options.tile_overrides") from None

    def chance_source(self) -> ChanceSource:
        if self.seed is not None:
            return SeededChance(self.seed)
        return ExplicitChance(self.chance)

    # -- codec -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "edition": self.edition,
            "players": [{"seat": i, "name": n} for i, n in enumerate(self.players)],
            "options": self.options,
            "chance": self.chance,
        }
        if self.source:
            out["source"] = self.source
        out["actions"] = [a.to_json() for a in self.actions]
        if self.result is not None:
            out["result"] = self.result
        return out

    def dumps(self) -> str:
        """Canonical text: one action per line, so diffs of logs stay readable."""
        body = self.to_json()
        actions = body.pop("actions")
        result = body.pop("result", None)
        head = json.dumps(body, ensure_ascii=False, indent=1)[:-2]
        lines = ",\n".join("  " + json.dumps(a, ensure_ascii=False, separators=(",", ":")) for a in actions)
        text = head + ',\n "actions": [\n' + lines + "\n ]"
        if result is not None:
            text += ',\n "result": ' + json.dumps(result, ensure_ascii=False)
        return text + "\n}\n"

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash never leaves a half-written log."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def from_json(cls, data: Any, file: str | None = None, limits: Limits | None = None) -> GameLog:
        """Check a parsed log: the limits, then the JSON Schema (structure), then the meaning."""
        limits = limits or Limits.from_env()

        def fail(msg: str, where: str | None = None) -> LogFormatError:
            return LogFormatError(msg, file=file, where=where)

        actions = data.get("actions") if isinstance(data, dict) else None
        if isinstance(actions, list) and len(actions) > limits.max_actions:
            raise fail(
                f"{len(actions)} actions is over the limit of {limits.max_actions} "
                f"(set {env_name('max_actions')} to allow more)",
                "actions",
            )
        mismatch = _schema.check(data, limits.max_string_length)
        if mismatch is not None:
            # The checks below word most mistakes better than the schema does; the schema has the last word.
            cls._check(data, fail)
            where, why = mismatch
            raise fail(_clip(f"does not match the log schema: {why}"), where or None)
        if "source" in data:
            _check_free_form(data["source"], "source", limits, fail)
        return cls._check(data, fail, file)

    @classmethod
    def _check(cls, data: Any, fail: Any, file: str | None = None) -> GameLog:
        """The reader's own checks (clear messages, and what the schema cannot say: seats in range, names)."""
        if not isinstance(data, dict):
            raise fail("a game log must be a JSON object")
        if data.get("format") != FORMAT_NAME:
            raise fail(
                f"not a brass-stats game log (field 'format' is {data.get('format')!r}, expected {FORMAT_NAME!r})"
            )
        unknown = set(data) - TOP_LEVEL_KEYS
        if unknown:
            raise fail(f"unknown top-level field(s): {', '.join(sorted(unknown))}")
        version = data.get("format_version")
        if version != FORMAT_VERSION:
            raise fail(
                f"unsupported format_version {version!r}; this version of brass-stats reads version {FORMAT_VERSION}"
            )
        edition = data.get("edition")
        if edition not in PLAYABLE_EDITIONS:
            raise fail(f"unknown edition {edition!r}; known: {', '.join(PLAYABLE_EDITIONS)}", "edition")
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise fail("'players' must list 2 to 4 players", "players")
        names = []
        for i, p in enumerate(players):
            if (
                not isinstance(p, dict)
                or set(p) != {"seat", "name"}
                or p["seat"] != i
                or not isinstance(p["name"], str)
            ):
                raise fail(f"players[{i}] must be {{'seat': {i}, 'name': <string>}}", f"players[{i}]")
            if _has_lone_surrogate(p["name"]):
                raise fail("the name holds a lone UTF-16 surrogate (not a character)", f"players[{i}].name")
            names.append(p["name"])
        options = data.get("options", {})
        if not isinstance(options, dict) or set(options) - OPTION_KEYS:
            raise fail(
                f"unknown option(s): {sorted(set(options) - OPTION_KEYS) if isinstance(options, dict) else options}",
                "options",
            )
        chance = data.get("chance")
        _check_chance(chance, len(names), fail, edition)
        assert isinstance(chance, dict)
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise fail("'actions' must be a list", "actions")
        actions = []
        for i, a in enumerate(raw_actions):
            try:
                actions.append(action_from_json(a))
            except LogFormatError as e:
                raise fail(e.message, f"actions[{i}]") from None
            if not 0 <= actions[-1].player < len(names):
                raise fail(f"player {actions[-1].player} is not a seat of this game", f"actions[{i}]")
        result = data.get("result")
        if result is not None:
            _check_result(result, len(names), fail)
        source = data.get("source")
        if source is not None and not isinstance(source, dict):
            raise fail("'source' must be an object", "source")
        if source is not None and "departures" in source:
            _check_departures(source["departures"], len(actions), fail)
        log = cls(tuple(names), chance, actions, edition, options, result, source, file)
        log.rules()  # checks the overrides
        return log

    @classmethod
    def loads(cls, text: str, file: str | None = None, limits: Limits | None = None) -> GameLog:
        """Read a log from JSON text (strict JSON, within ``limits``; see :func:`parse_json`)."""
        limits = limits or Limits.from_env()
        return cls.from_json(parse_json(text, file, limits), file, limits)

    @classmethod
    def load(cls, path: str | Path, limits: Limits | None = None) -> GameLog:
        """Read a log file (UTF-8; at most ``limits.max_file_bytes`` bytes)."""
        limits = limits or Limits.from_env()
        path = Path(path)
        try:
            with path.open("rb") as f:
                raw = f.read(limits.max_file_bytes + 1)
        except OSError as e:
            raise LogFormatError(f"cannot read: {e.strerror or e}", file=str(path)) from None
        if len(raw) > limits.max_file_bytes:
            raise LogFormatError(
                f"the file is over the limit of {limits.max_file_bytes} bytes "
                f"(set {env_name('max_file_bytes')} to allow more)",
                file=str(path),
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = raw[e.start : e.start + 1]
            raise LogFormatError(f"not UTF-8 text: byte {e.start} ({bad!r})", file=str(path)) from None
        return cls.loads(text, str(path), limits)


class _Refused(ValueError):
    """Raised inside the JSON parser's hooks: strict JSON refuses this."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def parse_json(text: str, file: str | None = None, limits: Limits | None = None) -> Any:
    """Strict JSON: no duplicate keys, no NaN/Infinity, no lone surrogates, within the size limits.

    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    brass_stats.errors.LogFormatError: not strict JSON: duplicate key 'a' in one object
    >>> parse_json('[NaN]')
    Traceback (most recent call last):
    ...
    brass_stats.errors.LogFormatError: not strict JSON: NaN is not a JSON number
    """
    limits = limits or Limits.from_env()
    if len(text) > limits.max_file_bytes:
        raise LogFormatError(
            f"the text is over the limit of {limits.max_file_bytes} characters "
            f"(set {env_name('max_file_bytes')} to allow more)",
            file=file,
        )
    digits = limits.max_int_digits

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(items)
        if len(d) != len(items):
            seen: set[str] = set()
            dup = next(k for k, _ in items if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            raise _Refused(f"duplicate key {_clip(repr(dup), 80)} in one object")
        return d

    def parse_float(s: str) -> float:
        if len(s) > digits + 8:
            raise _Refused(f"a number of {len(s)} characters is over the limit ({env_name('max_int_digits')})")
        value = float(s)
        if not math.isfinite(value):
            raise _Refused(f"{_clip(s, 40)} is too large for a JSON number")
        return value

    def parse_constant(s: str) -> Any:
        raise _Refused(f"{s} is not a JSON number")

    try:
        # Integers are parsed by Python's own (fast) path: the schema's ranges bound every integer a
        # log uses, _check_free_form bounds those in `source`, and Python refuses over 4300 digits.
        data = json.loads(text, object_pairs_hook=pairs, parse_float=parse_float, parse_constant=parse_constant)
    except json.JSONDecodeError as e:
        raise LogFormatError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}", file=file) from None
    except _Refused as e:
        raise LogFormatError(f"not strict JSON: {e}", file=file) from None
    except ValueError as e:  # Python's limit on integer digits
        raise LogFormatError(f"not accepted: {_clip(str(e), 120)}", file=file) from None
    except RecursionError:
        raise LogFormatError("not accepted: JSON nested too deeply", file=file) from None
    if _SURROGATE_ESCAPE.search(text):
        for where, s in _strings(data, ""):
            if _has_lone_surrogate(s):
                why = "a string holds a lone UTF-16 surrogate (not a character)"
                raise LogFormatError(why, file=file, where=where or None)
    return data


def _has_lone_surrogate(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _strings(node: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every string (keys included) in parsed JSON, with where it is; iterative, any depth."""
    stack: list[tuple[str, Any]] = [(where, node)]
    while stack:
        at, v = stack.pop()
        if isinstance(v, str):
            yield at, v
        elif isinstance(v, dict):
            for k, x in v.items():
                yield at, k
                stack.append((f"{at}.{k}" if at else k, x))
        elif isinstance(v, list):
            stack.extend((f"{at}[{i}]", x) for i, x in enumerate(v))


def _check_free_form(node: Any, where: str, limits: Limits, fail: Any) -> None:
    """``source`` is free-form: bound its depth and strings."""
    stack: list[tuple[str, Any, int]] = [(where, node, 1)]
    while stack:
        at, v, depth = stack.pop()
        if depth > limits.max_depth:
            raise fail(f"nested deeper than the limit of {limits.max_depth} ({env_name('max_depth')})", at)
        if isinstance(v, str):
            if len(v) > limits.max_string_length:
                raise fail(_string_too_long(len(v), limits), at)
            if _has_lone_surrogate(v):
                raise fail("a string holds a lone UTF-16 surrogate (not a character)", at)
        elif isinstance(v, int) and len(str(abs(v))) > limits.max_int_digits:
            raise fail(
                f"an integer of {len(str(abs(v)))} digits is over the limit of {limits.max_int_digits} "
                f"({env_name('max_int_digits')})",
                at,
            )
        elif isinstance(v, dict):
            for k, x in v.items():
                if len(k) > limits.max_string_length or _has_lone_surrogate(k):
                    raise fail("a key is too long or not text", at)
                stack.append((f"{at}.{k}", x, depth + 1))
        elif isinstance(v, list):
            stack.extend((f"{at}[{i}]", x, depth + 1) for i, x in enumerate(v))


def _string_too_long(n: int, limits: Limits) -> str:
    return (
        f"a string of {n} characters is over the limit of {limits.max_string_length} ({env_name('max_string_length')})"
    )


def _clip(text: str, most: int = 300) -> str:
    """Bound a message that quotes input: huge values never reach a terminal whole."""
    return text if len(text) <= most else text[: most - 15] + f"... ({len(text)} chars)"


def _check_chance(chance: Any, players: int, fail: Any, edition: str = "birmingham") -> None:
    if not isinstance(chance, dict):
        raise fail("'chance' must be an object: {'seed': <int>} or explicit chance records", "chance")
    if "seed" in chance:
        if set(chance) != {"seed"} or not isinstance(chance["seed"], int) or isinstance(chance["seed"], bool):
            raise fail("a seeded 'chance' is exactly {'seed': <non-negative integer>}", "chance")
        if not 0 <= chance["seed"] < 2**64:
            raise fail("the seed must be an integer from 0 to 2**64 - 1", "chance.seed")
        return
    missing = ({"turn_order", "hands", "deck"} | EDITION_CHANCE_KEYS[edition]) - set(chance)
    if missing:
        raise fail(f"explicit chance records need {', '.join(sorted(missing))}", "chance")
    unknown = set(chance) - {"turn_order", "hands", "deck", "rail_era"} - EDITION_CHANCE_KEYS[edition]
    if unknown:
        raise fail(f"unknown chance field(s): {', '.join(sorted(unknown))}", "chance")

    def card_lists(v: Any, where: str, n: int | None) -> None:
        if not isinstance(v, list) or (n is not None and len(v) != n):
            raise fail(f"must be a list of {n if n is not None else ''} card lists", where)
        for i, h in enumerate(v):
            if not isinstance(h, list) or not all(isinstance(c, str) for c in h):
                raise fail("must be a list of card codes", f"{where}[{i}]")

    card_lists(chance["hands"], "chance.hands", players)
    card_lists([chance["deck"]], "chance.deck", 1)
    if "discards" in chance:
        card_lists(chance["discards"], "chance.discards", players)
    if "reserve" in chance:
        card_lists([chance["reserve"]], "chance.reserve", 1)
    if "merchant_tiles" in chance:
        if not isinstance(chance["merchant_tiles"], dict):
            raise fail("must map merchant locations to lists of tile faces", "chance.merchant_tiles")
        for loc, faces in chance["merchant_tiles"].items():
            if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
                raise fail("must be a list of tile faces (strings)", f"chance.merchant_tiles.{loc}")
    dcm = chance.get("distant_market")
    if dcm is not None and (
        not isinstance(dcm, dict)
        or set(dcm) - {"canal", "rail"}
        or not all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in dcm.values())
    ):
        raise fail("must be {'canal': [tile moves...], 'rail': [...]}", "chance.distant_market")
    if not isinstance(chance["turn_order"], list) or not all(isinstance(s, int) for s in chance["turn_order"]):
        raise fail("must be a list of seats", "chance.turn_order")
    rail = chance.get("rail_era")
    if rail is not None:
        if not isinstance(rail, dict) or not {"hands", "deck"} <= set(rail) <= {"hands", "deck", "removed"}:
            msg = "must be {'hands': [...], 'deck': [...]} (and 'removed' for the classic deck)"
            raise fail(msg, "chance.rail_era")
        card_lists(rail["hands"], "chance.rail_era.hands", players)
        card_lists([rail["deck"]], "chance.rail_era.deck", 1)


def _check_departures(departures: Any, n_actions: int, fail: Any) -> None:
    """``source.departures``: where the game as played broke a rule, ``[{action_index, rule, message}]``."""
    if not isinstance(departures, list):
        raise fail("must be a list of {action_index, rule, message}", "source.departures")
    for i, d in enumerate(departures):
        where = f"source.departures[{i}]"
        if not isinstance(d, dict) or set(d) != {"action_index", "rule", "message"}:
            raise fail("each departure is exactly {action_index, rule, message}", where)
        index = d["action_index"]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n_actions:
            raise fail(f"action_index {index!r} is not an action of this log", where)
        if not isinstance(d["rule"], str) or not isinstance(d["message"], str):
            raise fail("'rule' and 'message' must be strings", where)


def _check_result(result: Any, players: int, fail: Any) -> None:
    """The declared result: final standings and/or the rail-era-start checkpoint."""

    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if not isinstance(result, dict) or not result or set(result) - {"final", "rail_era_start"}:
        raise fail("'result' must be an object with 'final' and/or 'rail_era_start'", "result")
    final = result.get("final")
    if final is not None:
        if not isinstance(final, list) or not final:
            raise fail("must be a non-empty list of {seat, vp, ...}", "result.final")
        for i, row in enumerate(final):
            where = f"result.final[{i}]"
            if not isinstance(row, dict) or set(row) - RESULT_ROW_KEYS or "seat" not in row or "vp" not in row:
                raise fail(
                    f"each row needs 'seat' and 'vp' (optional: {', '.join(sorted(RESULT_ROW_KEYS - {'seat', 'vp'}))})",
                    where,
                )
            if not is_int(row["seat"]) or not 0 <= row["seat"] < players:
                raise fail(f"seat {row['seat']!r} is not a seat of this game", where)
            if any(not is_int(v) for k, v in row.items() if k != "name"):
                raise fail("values must be integers", where)
    checkpoint = result.get("rail_era_start")
    if checkpoint is not None:
        if not isinstance(checkpoint, dict) or set(checkpoint) - CHECKPOINT_KEYS:
            raise fail(f"may hold only {', '.join(sorted(CHECKPOINT_KEYS))}", "result.rail_era_start")
        for key, values in checkpoint.items():
            if not isinstance(values, list) or len(values) != players or not all(is_int(v) for v in values):
                raise fail(f"must be a list of {players} integers (one per seat)", f"result.rail_era_start.{key}")
