"""Issue 11, the server-record importer: mutated records and setup files always get a verdict.

Structure-aware mutants of the golden records (and of their setup files): keys deleted, values
replaced by values of other types or by other identifiers of the server, values swapped between
places, lists cut or repeated. Converting one either succeeds, and then the log it makes is read
back by the strict log reader, or raises :class:`ConversionError` (one line: file, seq, field,
why); never any other exception.

CI runs a few hundred cases with a fixed derivation. For a long campaign::

    BRASS_FUZZ_EXAMPLES=100000 pytest tests/test_quasrain_fuzz.py -p no:randomly -x
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

from conftest import GOLDEN, GOLDEN_GAMES
from fuzzing import every_place
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brass_stats.log.brassbirmingham.records import ConversionError, convert
from brass_stats.log.format import GameLog

CAMPAIGN = os.environ.get("BRASS_FUZZ_EXAMPLES")
FUZZ = settings(
    max_examples=int(CAMPAIGN or 300),
    derandomize=not CAMPAIGN,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
RECORDS = [json.loads((GOLDEN / f"{n}.record.json").read_text()) for n in GOLDEN_GAMES]
RECORDS += [json.loads(p.read_text()) for p in sorted((GOLDEN / "handmade").glob("hand4x.record.json"))]
SETUPS = [json.loads((GOLDEN / f"{n}.setup.json").read_text()) for n in GOLDEN_GAMES]

INTERESTING: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    3,
    4,
    5,
    7,
    38,
    99,
    2**32,
    2**63,
    -(2**63),
    10**30,
    1.5,
    -0.0,
    "",
    "x",
    "\ud800",
    "a" * 600,
    "0",
    "build",
    "network",
    "develop",
    "sell",
    "loan",
    "scout",
    "pass",
    "teleport",
    "merchant",
    "market",
    "brewery",
    "loc-birmingham-0",
    "loc-belper-1",
    "wild-location-0",
    "wild-industry-3",
    "ind-coal-2",
    "birmingham",
    "stoke-on-trent",
    "gloucester",
    "atlantis",
    "cotton",
    "iron",
    "any",
    "blank",
    [],
    {},
    [0],
    [1, 2],
    [38, 38],
    ["loc-birmingham-0"],
    {"kind": "merchant", "tileIndex": 1},
    {"kind": "merchant", "tileIndex": 9},
    {"location": "birmingham", "slotIndex": 0},
    {"location": "dudley", "slotIndex": 1, "count": 2},
    {"location": "dudley", "slotIndex": 1, "count": 0},
    {"kind": "market"},
]


def mutate(doc: Any, rng: random.Random, rounds: int) -> Any:
    """``rounds`` structure-aware changes to a copy of ``doc``."""
    doc = copy.deepcopy(doc)
    for _ in range(rounds):
        nodes = every_place(doc)
        if not nodes:
            return rng.choice(INTERESTING)
        container, key = rng.choice(nodes)
        value = container[key]
        op = rng.randrange(7)
        if op == 0:  # another value, often of another type
            container[key] = copy.deepcopy(rng.choice(INTERESTING))
        elif op == 1:  # delete a key or element
            del container[key]
        elif op == 2:  # swap with another place's value
            other, other_key = rng.choice(nodes)
            try:
                container[key], other[other_key] = copy.deepcopy(other[other_key]), copy.deepcopy(value)
            except (IndexError, KeyError):  # the other place was inside this one
                container[key] = copy.deepcopy(other[other_key]) if other_key in range(len(other)) else None
        elif op == 3 and isinstance(value, int) and not isinstance(value, bool):
            container[key] = rng.choice([value + 1, value - 1, -value, value * 2**40])
        elif op == 4 and isinstance(value, list) and value:
            if rng.random() < 0.5:
                value.append(copy.deepcopy(rng.choice(value)))
            else:
                del value[rng.randrange(len(value)) :]
        elif op == 5 and isinstance(value, dict):
            value[rng.choice(["seq", "player", "action", "type", "cardId", "count", "tileIndex", "note"])] = (
                copy.deepcopy(rng.choice(INTERESTING))
            )
        else:  # a whole subtree becomes null: the classic of wrongly shaped exports
            container[key] = None
    return doc


def verdict(record: Any, setup: Any) -> str:
    try:
        log = convert(record, setup, "fuzz.record.json", "fuzz.setup.json")
    except ConversionError as e:
        line = str(e)
        assert "\n" not in line and line.startswith("fuzz.")
        return "refused"
    GameLog.loads(log.dumps())  # what the importer writes, the strict reader reads
    return "converted"


@FUZZ
@given(st.sampled_from(range(len(RECORDS))), st.integers(1, 3), st.randoms(use_true_random=False))
def test_mutated_records_get_a_verdict(which: int, rounds: int, rng: random.Random) -> None:
    record = copy.deepcopy(RECORDS[which])
    if rng.random() < 0.8:  # mostly short records: the replay stops early, so many more cases fit
        record["actions"] = record["actions"][: rng.randrange(1, 45)]
    verdict(mutate(record, rng, rounds), None)


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 3))
@given(st.sampled_from(range(len(SETUPS))), st.integers(1, 3), st.randoms(use_true_random=False))
def test_mutated_setup_files_get_a_verdict(which: int, rounds: int, rng: random.Random) -> None:
    record = copy.deepcopy(RECORDS[which])
    record["actions"] = record["actions"][: rng.choice([5, 40, len(record["actions"])])]
    verdict(record, mutate(SETUPS[which], rng, rounds))


def test_the_issues_wrongly_shaped_setups_and_records_are_refused_in_one_line() -> None:
    record, setup = RECORDS[0], SETUPS[0]
    cases = [
        (record, setup | {"scores": 5}),
        (record, setup | {"scores": {"officialRulesEngine_d3d2697_fromYuiffyAudit": {"finalScores": [1, 2]}}}),
        (record | {"seats": ["jsb", "111"]}, setup),
        (record, setup | {"initialSetup": setup["initialSetup"] | {"turnOrder": ["1", "0"]}}),
        (record, setup | {"initialSetup": setup["initialSetup"] | {"merchants": ["shrewsbury"]}}),
        (record, setup | {"initialSetup": setup["initialSetup"] | {"merchants": {"oxford": 3}}}),
        (record, setup | {"railEraStart": None}),
        (record, []),
        (record | {"actions": None}, setup),
        (record | {"actions": [None]}, setup),
        (record | {"playerCount": "2"}, setup),
        (record | {"seed": None}, setup),
    ]
    for rec, stp in cases:
        assert verdict(rec, stp) == "refused", (rec.get("seats"), str(stp)[:200])
    # null scores mean no published scores: the game converts without a declared result
    for scores in (None, {"officialRulesEngine_d3d2697_fromYuiffyAudit": None}):
        assert convert(record, setup | {"scores": scores}, "r").result is None
