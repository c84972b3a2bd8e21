"""Structure-aware mutation of valid game logs, and the property every mutant must satisfy.

Used by ``tests/test_fuzz.py`` (hypothesis drives the choices) and by
``benchmarks/fuzz_campaign.py`` (long campaigns in several processes).

The property (issue 11): whatever the bytes, reading and replaying a log ends in a verdict (the
log is refused with a :class:`LogFormatError`, or it replays to an illegal action, an unfinished
game, a different result or OK), never in any other exception; a log the reader accepts also
matches ``schema.json``; a finished legal game can be turned into storage rows; and every verdict
can be printed and written as UTF-8.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

REPO = Path(__file__).parents[1]
SEED_FILES = sorted(
    [*(REPO / "replays" / "real").glob("*.json")]
    + [REPO / "replays" / "generated" / f"game-{k}-00000.json" for k in (2002, 3003, 4004)]
    + [REPO / "replays" / "lancashire" / f"game-{k}-00000.json" for k in (5002, 5003, 5004)]
)

INTERESTING: list[Any] = [
    0,
    -1,
    1,
    2,
    3,
    4,
    5,
    8,
    99,
    100,
    2**31,
    2**63,
    -(2**63),
    2**64,
    10**19,
    10**30,
    1.5,
    -0.0,
    True,
    False,
    None,
    "",
    "x",
    "\ud800",
    "\udc00x",
    "\U0001f600",
    "$x^$",
    "[bold]x[/bold]",
    "a" * 600,
    "loc:dudley",
    "loc:atlantis",
    "ind:coal_mine",
    "ind:port",
    "ind:cotton_mill+manufacturer",
    "wild:location",
    "wild:industry",
    "market",
    "merchant",
    "distant_market",
    "birmingham:0",
    "birmingham:99",
    "liverpool:1",
    "coventry--birmingham",
    "blank",
    "all",
    "build",
    "shortfall",
    "canal",
    "rail",
    [],
    {},
    [1],
    [[]],
    ["loc:dudley"],
    ["market", "market"],
    {"a": 1},
    {"seed": 1},
    {"hands": [], "deck": []},
    {"tile_overrides": {"iron_works.1.cost_iron": 2**63}},
    {"tile_overrides": {"iron_works.1.income_spaces": -100}},
    {"tile_overrides": {"manufacturer.4.cost_money": 0}},
    {"tile_overrides": {"coal_mine.1.vp": 40}},
    {"classic_deck": True},
    {"introductory": True},
    {"virtual_link": True},
    {"canal": [0, 1], "rail": [4]},
]

KEYS = [
    "type",
    "player",
    "card",
    "second_card",
    "industry",
    "location",
    "slot",
    "coal",
    "iron",
    "beer",
    "links",
    "industries",
    "sales",
    "tile",
    "merchant",
    "merchant_space",
    "bonus_develop",
    "discards",
    "tiles",
    "amount",
    "seed",
    "hands",
    "deck",
    "merchant_tiles",
    "turn_order",
    "rail_era",
    "reserve",
    "distant_market",
    "removed",
    "options",
    "result",
    "final",
    "rail_era_start",
    "vp",
    "money",
    "income_level",
    "income_space",
    "rank",
    "source",
    "tile_overrides",
]


def seed_logs() -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in SEED_FILES]


def every_place(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) pair in the document, so any value can be replaced or removed."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            out.append((node, k))
            if isinstance(v, dict | list):
                stack.append(v)
    return out


def _strings(doc: Any) -> list[str]:
    return [c[k] for c, k in every_place(doc) if isinstance(c[k], str)]


def mutate(doc: dict[str, Any], rng: random.Random, rounds: int) -> dict[str, Any]:
    """``rounds`` structure-aware changes to a copy of ``doc`` (which is left alone)."""
    doc = copy.deepcopy(doc)
    if rng.random() < 0.7 and doc.get("actions"):
        # mostly short games: the replay stops early, so many more cases fit in the time
        doc["actions"] = doc["actions"][: rng.randrange(len(doc["actions"]) + 1)]
        if rng.random() < 0.8:
            doc.pop("result", None)
    gentle = rng.random() < 0.6  # changes that keep the shape, so that the rules get tested, not just the reader
    for _ in range(rounds):
        nodes = every_place(doc)
        if not nodes:
            break
        container, key = rng.choice(nodes)
        value = container[key]
        if gentle:
            _gentle(doc, nodes, container, key, rng)
            continue
        op = rng.randrange(10)
        if op == 0:
            container[key] = copy.deepcopy(rng.choice(INTERESTING))
        elif op == 1:
            del container[key]
        elif op == 2 and isinstance(value, dict):
            value[rng.choice(KEYS)] = copy.deepcopy(rng.choice(INTERESTING + [value]))
        elif op == 3:
            other_container, other_key = rng.choice(nodes)
            container[key] = copy.deepcopy(other_container[other_key])  # a subtree from elsewhere
        elif op == 4 and isinstance(value, int) and not isinstance(value, bool):
            container[key] = rng.choice([value + 1, value - 1, -value, value * 2 ** rng.randrange(70), value + 10])
        elif op == 5 and isinstance(value, str):
            pool = _strings(doc)
            container[key] = rng.choice([rng.choice(pool), value + rng.choice(["x", "_", ":1", "\ud800"]), value[:-1]])
        elif op == 6 and isinstance(value, list) and value:
            choice = rng.randrange(4)
            if choice == 0:
                value.append(copy.deepcopy(rng.choice(value)))
            elif choice == 1:
                rng.shuffle(value)
            elif choice == 2:
                del value[rng.randrange(len(value)) :]
            else:
                value.insert(rng.randrange(len(value)), copy.deepcopy(rng.choice(INTERESTING)))
        elif op == 7 and isinstance(value, dict):
            if value:
                k = rng.choice(list(value))
                value[rng.choice(KEYS)] = value.pop(k)  # renamed key
        elif op == 8:
            container[key] = [value] if rng.random() < 0.5 else {"x": value}  # one level deeper
        else:
            container[key] = copy.deepcopy(rng.choice(INTERESTING))
    return doc


def _gentle(doc: Any, nodes: list[tuple[Any, Any]], container: Any, key: Any, rng: random.Random) -> None:
    """A value swapped for another value found under the same key elsewhere (a card for a card, a
    slot for a slot), an integer nudged, or actions reordered, dropped or repeated."""
    value = container[key]
    actions = doc.get("actions")
    if isinstance(actions, list) and actions and rng.random() < 0.25:
        i = rng.randrange(len(actions))
        choice = rng.randrange(3)
        if choice == 0:
            del actions[i]
        elif choice == 1:
            actions.insert(i, copy.deepcopy(rng.choice(actions)))
        else:
            j = rng.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        return
    if isinstance(value, int) and not isinstance(value, bool):
        container[key] = max(0, value + rng.choice([-2, -1, 1, 2]))
        return
    same = [c[k] for c, k in nodes if k == key and type(c[k]) is type(value) and c[k] != value]
    if same:
        container[key] = copy.deepcopy(rng.choice(same))
    elif isinstance(value, list) and value:
        rng.shuffle(value)


def mutate_text(text: str, rng: random.Random) -> str:
    """Changes only text can make: duplicate keys, NaN, deep nesting, huge numbers, cut files, bad escapes."""
    op = rng.randrange(8)
    if op == 0:
        return text.replace("{", '{"format": "x", ', 1) if rng.random() < 0.5 else text.replace('"', '"seed": 1, "', 1)
    if op == 1:
        return text.replace("0", rng.choice(["NaN", "Infinity", "-Infinity", "1e999"]), 1)
    if op == 2:
        depth = rng.choice([50, 999, 5000])
        return text.replace("[", "[" * depth, 1).replace("]", "]" * depth, 1)
    if op == 3:
        return text.replace("1", "1" * rng.choice([19, 20, 21, 400, 5000]), 1)
    if op == 4:
        return text[: rng.randrange(len(text) + 1)]
    if op == 5:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["\\ud800", "\\udfff", "\\u0000", '\\"', "\x00", "\\x"]) + text[i:]
    if op == 6:
        return text.replace('"player": 1', '"player": true', 1).replace('"player":1', '"player":1.0', 1)
    return text.replace(",", ",,", 1) if rng.random() < 0.5 else text.replace(":", ": -", 1)


def check_verdict(text: str) -> str:
    """Read and replay ``text``; the kind of verdict. Anything but a verdict raises (a bug)."""
    from jsonschema import Draft202012Validator

    from brass_stats.errors import LogFormatError
    from brass_stats.log.format import GameLog
    from brass_stats.log.schema import schema
    from brass_stats.validation import describe, replay_and_judge

    try:
        log = GameLog.loads(text, "fuzz.json")
    except LogFormatError as e:
        line = str(e)
        line.encode("utf-8")  # printable
        assert "\n" not in line.strip(), line
        return "refused"
    data = json.loads(text)
    errors = list(Draft202012Validator(schema()).iter_errors(data))
    assert not errors, f"the reader accepted what schema.json refuses: {errors[0].message[:300]}"
    from brass_stats.engine.policy import AS_PLAYED, STRICT

    # a log that lists its server's departures (gm7vza-4p: 16 links for one seat) is judged as played
    replay, verdict = replay_and_judge(log, keep_states=True, policy=AS_PLAYED if log.departures else STRICT)
    for line in describe(verdict):
        line.encode("utf-8")
    json.dumps(verdict.to_json(), ensure_ascii=False).encode("utf-8")
    if verdict.ok and replay is not None:
        from brass_stats.storage import game_tables

        game_tables(replay, "fuzz.json")
    return verdict.kind
