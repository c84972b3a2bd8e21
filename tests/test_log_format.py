"""The game-log format (docs/log-format.md): the seeded deal, the codec, the schema and the reader's errors.

The PRNG and the deal are re-implemented here from the words of the doc (section 9), reading the
rules data file directly, so the doc and the engine are checked against each other.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from brass_stats.cli import main
from brass_stats.engine import (
    Build,
    Develop,
    ExplicitChance,
    Loan,
    Network,
    Pass,
    Sale,
    Scout,
    SeededChance,
    Sell,
    Shortfall,
    SplitMix64,
    apply_action,
    new_game,
)
from brass_stats.errors import LogFormatError
from brass_stats.log.brassbirmingham.records import convert_files
from brass_stats.log.format import GameLog
from brass_stats.log.schema import schema
from brass_stats.replay import Replay
from brass_stats.rules_data import load_rules

ROOT = Path(__file__).parents[1]
DOC = ROOT / "docs" / "log-format.md"
DATA = ROOT / "brass_stats" / "rules_data" / "birmingham.json"
GOLDEN = ROOT / "tests" / "golden" / "quasrain"
NAMES = ["Ann", "Bob", "Cid", "Dee"]

# -- an independent implementation of docs/log-format.md section 9 -------------------------------

TWO64 = 1 << 64


class DocRng:
    """SplitMix64, below() and shuffle() as the doc states them."""

    def __init__(self, seed: int) -> None:
        self.state = seed % TWO64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % TWO64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % TWO64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % TWO64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = TWO64 - TWO64 % n
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def doc_deal(seed: int, n: int) -> dict[str, Any]:
    """The four steps of "Order of draws", straight from the data file."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    rng = DocRng(seed)
    # (1) merchant tiles
    accepts = {t["id"]: t["accepts"] for t in data["merchant_tiles"]}
    ids = list(data["merchant_tiles_by_player_count"][str(n)])
    rng.shuffle(ids)
    spaces = [
        (m["id"], i)
        for m in data["merchants"]
        if n in m["spaces_used_for_player_counts"]
        for i in range(m["merchant_tile_spaces"])
    ]

    def face(acc: list[str]) -> str:
        return "blank" if not acc else "all" if len(acc) > 1 else acc[0]

    merchants = [(loc, i, face(accepts[t])) for (loc, i), t in zip(spaces, ids, strict=True)]
    # (2) deck
    deck: list[str] = []
    for c in data["cards"]["location_cards"]:
        deck += ["loc:" + c["location"]] * c["count"][str(n)]
    for c in data["cards"]["industry_cards"]:
        deck += ["ind:" + "+".join(c["industries"])] * c["count"][str(n)]
    deck.sort()
    full = list(deck)
    rng.shuffle(deck)
    hands = [deck[8 * s : 8 * s + 8] for s in range(n)]
    discards = [[deck[8 * n + s]] for s in range(n)]
    rest = deck[9 * n :]
    # (3) turn order
    order = list(range(n))
    rng.shuffle(order)
    # (4) rail era: every deck card has been discarded by then
    rail = sorted(full)
    rng.shuffle(rail)
    return {
        "merchants": merchants,
        "hands": hands,
        "discards": discards,
        "deck": rest,
        "turn_order": order,
        "rail_hands": [rail[8 * s : 8 * s + 8] for s in range(n)],
        "rail_deck": rail[8 * n :],
    }


def pass_through_canal_era(state: Any) -> Any:
    """Play the whole Canal Era with Pass actions (always legal), returning the first Rail Era state."""
    while state.era == "canal":
        seat = state.current_player
        state, _ = apply_action(state, Pass(seat, state.players[seat].hand[0]))
    return state


# -- (a) SplitMix64 and the seeded deal ------------------------------------------------------------

SEED0_OUTPUTS = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]


def test_splitmix64_known_answers_seed_0() -> None:
    doc, code = DocRng(0), SplitMix64(0)
    assert [doc.next() for _ in range(4)] == SEED0_OUTPUTS
    assert [code.next() for _ in range(4)] == SEED0_OUTPUTS


def test_splitmix64_streams_agree() -> None:
    for seed in (1, 42, 2**63, TWO64 - 1):
        doc, code = DocRng(seed), SplitMix64(seed)
        assert [doc.next() for _ in range(50)] == [code.next() for _ in range(50)]


def test_below_rejects_outputs_at_or_above_the_limit() -> None:
    # limit for n = 2^63 + 1 is 2^63 + 1; seed 0's first output (0xE2...) is above it, so it is rejected.
    n = 2**63 + 1
    assert DocRng(0).below(n) == SEED0_OUTPUTS[1]
    assert SplitMix64(0).below(n) == SEED0_OUTPUTS[1]
    for bound in (1, 2, 3, 7, 40, 10**12):
        doc, code = DocRng(5), SplitMix64(5)
        assert [doc.below(bound) for _ in range(20)] == [code.below(bound) for _ in range(20)]


def test_shuffle_test_vector() -> None:
    for rng in (DocRng(0), SplitMix64(0)):
        items = list(range(10))
        rng.shuffle(items)
        assert items == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_doc_deal_matches_new_game(players: int) -> None:
    for seed in range(21):
        want = doc_deal(seed, players)
        g = new_game(NAMES[:players], SeededChance(seed))
        assert [(m.location, m.index, m.face) for m in g.merchant_spaces] == want["merchants"], seed
        assert [p.hand for p in g.players] == want["hands"], seed
        assert [p.discard for p in g.players] == want["discards"], seed
        assert g.deck == want["deck"], seed
        assert g.turn_order == want["turn_order"], seed
        rail = g.chance.copy().rail_deal(sorted(g.rules.deck(players)), players)
        assert (rail.hands, rail.deck) == (want["rail_hands"], want["rail_deck"]), seed


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 42])
def test_doc_rail_deal_matches_a_played_canal_era(players: int, seed: int) -> None:
    state = pass_through_canal_era(new_game(NAMES[:players], SeededChance(seed)))
    want = doc_deal(seed, players)
    assert [p.hand for p in state.players] == want["rail_hands"]
    assert state.deck == want["rail_deck"]


# -- (b) round trip -------------------------------------------------------------------------------

EVERY_ACTION = [
    Build(0, "loc:worcester", "cotton_mill", "worcester", 1, ("dudley:0",), ("market",)),
    Build(1, "loc:dudley", "coal_mine", "dudley"),
    Network(1, "loc:coventry", ("birmingham--coventry",)),
    Network(0, "ind:brewery", ("birmingham--worcester", "worcester--gloucester"), ("dudley:0", "market"), "walsall:1"),
    Develop(1, "loc:birmingham", ("pottery", "brewery"), ("birmingham:2", "market")),
    Develop(0, "ind:pottery", ("coal_mine",)),
    Sell(
        0,
        "loc:dudley",
        (
            Sale("worcester:1", "gloucester", 1, ("merchant",), "coal_mine"),
            Sale("redditch:0", "oxford", 0, ("walsall:1",)),
            Sale("coventry:0", "oxford"),
        ),
    ),
    Loan(1, "ind:pottery"),
    Scout(0, ("loc:tamworth", "loc:wolverhampton", "ind:brewery")),
    Pass(1, "wild:location"),
    Shortfall(1, ("coventry:0", "birmingham:2")),
    Shortfall(0),
]


def every_action_log() -> GameLog:
    return GameLog(
        players=("Ann", "Bob"),
        chance={"seed": 7},
        actions=list(EVERY_ACTION),
        options={"tile_overrides": {"manufacturer.4.cost_money": 14}},
        result={
            "final": [{"seat": 0, "vp": 151, "rank": 1}, {"seat": 1, "vp": 139}],
            "rail_era_start": {"vp": [48, 41]},
        },
        source={"recorded_by": "hand", "names": ["Ann", "Bob"], "n": None},
    )


def test_round_trip_every_action_type() -> None:
    log = every_action_log()
    assert {a.TYPE for a in log.actions} == {
        "build",
        "network",
        "develop",
        "sell",
        "loan",
        "scout",
        "pass",
        "shortfall",
    }
    text = log.dumps()
    back = GameLog.loads(text)
    assert back == log
    assert back.dumps() == text
    assert Draft202012Validator(schema()).is_valid(json.loads(text))


def test_canonical_text_has_one_action_per_line(tmp_path: Path) -> None:
    log = every_action_log()
    lines = [line.strip().rstrip(",") for line in log.dumps().splitlines()]
    for a in log.actions:
        assert json.dumps(a.to_json(), separators=(",", ":")) in lines
    path = tmp_path / "game.json"
    log.save(path)
    assert not (tmp_path / "game.json.tmp").exists()
    loaded = GameLog.load(path)
    assert loaded.file == str(path)
    loaded.file = None
    assert loaded == log


def test_round_trip_explicit_chance() -> None:
    log = convert_files(GOLDEN / "wq9gs6-2p.record.json", GOLDEN / "wq9gs6-2p.setup.json")
    assert GameLog.loads(log.dumps()) == log


# -- (c) the examples in the doc -------------------------------------------------------------------

_BLOCK = re.compile(r"(?:<!-- (?P<mark>[^>]*?) -->\n)?```json\n(?P<body>.*?)\n```", re.S)


def complete_doc_logs() -> list[tuple[str | None, str]]:
    out = []
    for m in _BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        data = json.loads(m["body"])
        if isinstance(data, dict) and data.get("format") == "brass-stats-log":
            out.append((m["mark"], m["body"]))
    return out


def test_doc_has_complete_examples() -> None:
    marks = [mark for mark, _ in complete_doc_logs()]
    assert len(marks) == 3
    assert "replays cleanly" in marks and "equals seed 42" in marks


@pytest.mark.parametrize("index", range(3))
def test_doc_examples_parse_and_match_the_schema(index: int) -> None:
    _, text = complete_doc_logs()[index]
    log = GameLog.loads(text)
    errors = [e.message for e in Draft202012Validator(schema()).iter_errors(json.loads(text))]
    assert errors == []
    assert GameLog.loads(log.dumps()) == log


def test_doc_shape_example_has_every_action_type() -> None:
    (text,) = [t for mark, t in complete_doc_logs() if mark is None]
    log = GameLog.loads(text)
    assert [a.TYPE for a in log.actions] == [
        "build",
        "network",
        "network",
        "develop",
        "sell",
        "loan",
        "scout",
        "pass",
        "shortfall",
    ]


def _doc_log(mark: str) -> GameLog:
    (text,) = [t for m, t in complete_doc_logs() if m == mark]
    return GameLog.loads(text)


def test_doc_replayable_example_replays() -> None:
    log = _doc_log("replays cleanly")
    r = Replay(log).run()
    assert r.error is None
    assert len(r.steps) == len(log.actions) == 10
    assert r.check_result() == []
    # the doc's claim: without merchant_space the last action is ambiguous
    last = log.actions[-1]
    assert isinstance(last, Sell)
    log.actions[-1] = Sell(last.player, last.card, (Sale("birmingham:0", "oxford", None, ("merchant",)),))
    r = Replay(log).run()
    assert r.error is not None and r.error.rule == "log.choice_stated"
    assert str(r.error) == (
        "action 10, canal era round 3, player 1: the action does not say which merchant tile (for its barrel); "
        "the rules allow 2 options: oxford:0, oxford:1 [log.choice_stated]"
    )


def test_doc_scout_cards_example_two_discards_read_and_stop_the_replay_at_the_scout() -> None:
    # section 5, "Shape and rules": the scout of section 3's log cut to two discards
    log = _doc_log("replays cleanly")
    scout = log.actions[5]
    assert isinstance(scout, Scout) and scout.discards[:2] == ("loc:tamworth", "loc:worcester")
    log.actions[5] = Scout(scout.player, scout.discards[:2])
    log = GameLog.loads(log.dumps())  # it reads
    r = Replay(log).run()
    assert r.error is not None and r.error.rule == "scout.cards" and r.error.index == 5
    line = "action 6, canal era round 2, player 0: Scout discards 3 cards, not 2 [scout.cards]"
    assert str(r.error) == line
    assert f"```text\n{line}\n```" in DOC.read_text(encoding="utf-8")


def test_reverse_link_spelling_resolves_to_the_canonical_id() -> None:
    log = GameLog.new(["Ann", "Bob"], seed=42)
    log.actions = [Network(0, "loc:coventry", ("coventry--birmingham",))]
    r = Replay(log).run()
    assert r.error is None
    assert r.resolved_log().actions == [Network(0, "loc:coventry", ("birmingham--coventry",))]


def test_log_truncated_doc_replayable_example_is_a_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "prefix.json"
    _doc_log("replays cleanly").save(path)
    result = CliRunner().invoke(main, ["validate", "--workers", "1", str(path)])
    assert result.exit_code == 2
    assert "not finished" in result.output


def test_doc_explicit_example_is_the_seed_42_deal() -> None:
    explicit = _doc_log("equals seed 42")
    chance = explicit.chance
    want = doc_deal(42, 2)
    assert chance["hands"] == want["hands"]
    assert chance["discards"] == want["discards"]
    assert chance["deck"] == want["deck"]
    assert chance["turn_order"] == want["turn_order"]
    assert chance["rail_era"] == {"hands": want["rail_hands"], "deck": want["rail_deck"]}
    faces: dict[str, list[str]] = {}
    for loc, _, face in want["merchants"]:
        faces.setdefault(loc, []).append(face)
    assert chance["merchant_tiles"] == faces
    # replayed with the actions of section 3, the states agree, through the Rail Era deal
    seeded = _doc_log("replays cleanly")
    explicit.actions = list(seeded.actions)
    a, b = Replay(explicit).run(), Replay(seeded).run()
    assert a.error is None and b.error is None
    for sa, sb in zip(a.steps, b.steps, strict=True):
        assert sa.action == sb.action and sa.effects == sb.effects
    ra = pass_through_canal_era(a.state)
    rb = pass_through_canal_era(b.state)
    assert [p.hand for p in ra.players] == [p.hand for p in rb.players]
    assert ra.deck == rb.deck


# -- (d) the converted golden games --------------------------------------------------------------


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(schema())


def test_schema_loader_returns_fresh_copies() -> None:
    a = schema()
    a["title"] = "changed"
    assert schema()["title"] != "changed"


@pytest.mark.parametrize("name", ["wq9gs6-2p", "gm7vza-4p"])
def test_converted_golden_game_matches_the_schema(name: str) -> None:
    log = convert_files(GOLDEN / f"{name}.record.json", GOLDEN / f"{name}.setup.json")
    errors = [f"{list(e.path)}: {e.message}" for e in Draft202012Validator(schema()).iter_errors(log.to_json())]
    assert errors == []


# -- schema precision --------------------------------------------------------------------------------


def _base() -> dict[str, Any]:
    return GameLog(("Ann", "Bob"), {"seed": 1}, list(EVERY_ACTION[:3])).to_json()


def _schema_rejects(data: Any) -> bool:
    return not Draft202012Validator(schema()).is_valid(data)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(format="other"),
        lambda d: d.update(format_version=2),
        lambda d: d.update(edition="catan"),
        lambda d: d.update(extra=1),
        lambda d: d.update(players=d["players"][:1]),
        lambda d: d["players"][1].update(seat=2),
        lambda d: d["players"][0].update(colour="red"),
        lambda d: d.update(options={"tile_overrides": {"manufacturer.four.cost_money": 14}}),
        lambda d: d.update(options={"tile_overrides": {"manufacturer.4.colour": 14}}),
        lambda d: d.update(options={"speed": 1}),
        lambda d: d.update(chance={"seed": -1}),
        lambda d: d.update(chance={"seed": 1, "deck": []}),
        lambda d: d.update(chance={"seed": "1"}),
        lambda d: d.update(source=[1]),
        lambda d: d["actions"][0].update(type="trade"),
        lambda d: d["actions"][0].update(colour="red"),
        lambda d: d["actions"][0].pop("card"),
        lambda d: d["actions"][0].update(card="location:dudley"),
        lambda d: d["actions"][0].update(slot=None),
        lambda d: d["actions"][0].update(coal=["dudley"]),
        lambda d: d["actions"][0].update(coal=["a merchant"]),
        lambda d: d["actions"][2].update(links="birmingham--coventry"),
        lambda d: d["actions"][2].update(links=["birmingham-coventry"]),
        lambda d: d["actions"][2].update(beer=["walsall:1"]),
        lambda d: d.update(result={"final": [{"seat": 0}]}),
        lambda d: d.update(result={"rail_era_start": {"coins": [1, 2]}}),
        lambda d: d.update(result={"winner": 0}),
    ],
)
def test_schema_rejects(change: Any) -> None:
    data = _base()
    assert not _schema_rejects(data)
    change(data)
    assert _schema_rejects(data)


@pytest.mark.parametrize(
    "change",
    [
        # counts and choices that only the rules forbid (docs/log-format.md section 5, "Shape and rules")
        lambda d: d["actions"][0].update(coal=["merchant"]),
        lambda d: d["actions"][2].update(links=[]),
        lambda d: d["actions"][2].update(links=["birmingham--coventry"] * 3),
        lambda d: d["actions"][2].update(beer="merchant"),
        lambda d: d["actions"][2].update(coal=["market"] * 3),
    ],
)
def test_schema_accepts_what_only_the_rules_refuse(change: Any) -> None:
    data = _base()
    change(data)
    assert not _schema_rejects(data)
    GameLog.from_json(data)  # and so does the reader


def test_schema_rejects_bad_explicit_chance() -> None:
    golden = convert_files(GOLDEN / "wq9gs6-2p.record.json", GOLDEN / "wq9gs6-2p.setup.json").to_json()
    assert not _schema_rejects(golden)
    for change in (
        lambda c: c.pop("deck"),
        lambda c: c.update(extra=[]),
        lambda c: c["hands"][0].pop(),
        lambda c: c["discards"][0].append("loc:dudley"),
        lambda c: c["deck"].append("wild:location"),
        lambda c: c["merchant_tiles"].update(oxford=["blank", "gold"]),
        lambda c: c.update(turn_order=[1, 1]),
        lambda c: c["rail_era"].pop("deck"),
        lambda c: c["rail_era"]["hands"][1].append("loc:dudley"),
    ):
        data = copy.deepcopy(golden)
        change(data["chance"])
        assert _schema_rejects(data)


# -- (e) malformed input -------------------------------------------------------------------------------


def _load_error(data: Any) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        GameLog.loads(data if isinstance(data, str) else json.dumps(data))
    return info.value


def test_invalid_json_names_line_and_column() -> None:
    e = _load_error('{\n "format": "brass-stats-log",\n "format_version" 1\n}')
    assert "not valid JSON" in e.message
    assert "line 3 column 19" in e.message


def test_file_name_is_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(LogFormatError) as info:
        GameLog.load(path)
    assert str(info.value).startswith(f"{path}: not valid JSON")


@pytest.mark.parametrize(
    ("change", "message", "where"),
    [
        (lambda d: d.update(format="brass-log"), "not a brass-stats game log (field 'format' is 'brass-log'", None),
        (lambda d: d.pop("format"), "field 'format' is None", None),
        (
            lambda d: d.update(format_version=2),
            "unsupported format_version 2; this version of brass-stats reads version 1",
            None,
        ),
        (lambda d: d.update(edition="catan"), "unknown edition 'catan'; known: birmingham, lancashire", "edition"),
        (lambda d: d.update(players=d["players"][:1]), "'players' must list 2 to 4 players", "players"),
        (lambda d: d["players"][1].update(seat=2), "players[1] must be {'seat': 1, 'name': <string>}", "players[1]"),
        (lambda d: d["players"][0].update(name=7), "players[0] must be {'seat': 0", "players[0]"),
        (lambda d: d.update(options={"speed": 1}), "unknown option(s): ['speed']", "options"),
        (
            lambda d: d.update(options={"tile_overrides": {"manufacturer.9.cost_money": 1}}),
            "unknown tile override 'manufacturer.9.cost_money'",
            "options.tile_overrides",
        ),
        (
            lambda d: d["actions"][1].update(type="trade"),
            "unknown action type 'trade'; expected one of build",
            "actions[1]",
        ),
        (lambda d: d["actions"][1].pop("card"), "a build action needs 'card'", "actions[1]"),
        (lambda d: d["actions"][1].update(colour="red"), "unknown field(s) for a build action: colour", "actions[1]"),
        (lambda d: d["actions"][1].update(slot="0"), "field 'slot' must be an integer, got '0'", "actions[1]"),
        (lambda d: d["actions"][1].update(player=2), "player 2 is not a seat of this game", "actions[1]"),
        (lambda d: d["actions"][0].update(sales={}), "field 'sales' must be a list of sales", "actions[0]"),
        (lambda d: d["actions"][0]["sales"][0].update(price=3), "unknown sale field(s): price", "actions[0]"),
        (lambda d: d.update(actions={}), "'actions' must be a list", "actions"),
        (lambda d: d.update(result=[1]), "'result' must be an object", "result"),
        (lambda d: d.update(chance={"seed": -1}), "the seed must be an integer from 0 to 2**64 - 1", "chance.seed"),
        (
            lambda d: d.update(chance={"seed": 1.5}),
            "a seeded 'chance' is exactly {'seed': <non-negative integer>}",
            "chance",
        ),
        (lambda d: d.update(chance={"seed": 1, "deck": []}), "a seeded 'chance' is exactly", "chance"),
        (lambda d: d.update(chance=None), "'chance' must be an object", "chance"),
    ],
)
def test_malformed_log(change: Any, message: str, where: str | None) -> None:
    data = GameLog(
        ("Ann", "Bob"),
        {"seed": 1},
        [Sell(0, "loc:dudley", (Sale("worcester:1", "gloucester"),)), Build(1, "loc:dudley", "coal_mine", "dudley")],
    ).to_json()
    GameLog.from_json(copy.deepcopy(data))  # the unchanged log is fine
    change(data)
    e = _load_error(data)
    assert message in e.message
    assert e.where == where
    # the schema cannot know how many seats the game has or how many levels an industry has
    assert Draft202012Validator(schema()).is_valid(data) == (message in SCHEMA_CANNOT_TELL)


SCHEMA_CANNOT_TELL = {"player 2 is not a seat of this game", "unknown tile override 'manufacturer.9.cost_money'"}


def _explicit_log() -> dict[str, Any]:
    return convert_files(GOLDEN / "wq9gs6-2p.record.json", GOLDEN / "wq9gs6-2p.setup.json").to_json()


@pytest.mark.parametrize(
    ("change", "message", "where"),
    [
        (lambda c: c.pop("deck"), "explicit chance records need deck", "chance"),
        (lambda c: [c.pop("deck"), c.pop("hands")], "explicit chance records need deck, hands", "chance"),
        (lambda c: c.update(seed_used=3), "unknown chance field(s): seed_used", "chance"),
        (lambda c: c.update(hands=c["hands"][:1]), "must be a list of 2 card lists", "chance.hands"),
        (lambda c: c["discards"].__setitem__(1, "ind:brewery"), "must be a list of card codes", "chance.discards[1]"),
        (
            lambda c: c.update(merchant_tiles=[]),
            "must map merchant locations to lists of tile faces",
            "chance.merchant_tiles",
        ),
        (lambda c: c.update(turn_order=["1", "0"]), "must be a list of seats", "chance.turn_order"),
        (lambda c: c.update(rail_era={"hands": []}), "must be {'hands': [...], 'deck': [...]}", "chance.rail_era"),
    ],
)
def test_malformed_explicit_chance(change: Any, message: str, where: str) -> None:
    data = _explicit_log()
    change(data["chance"])
    e = _load_error(data)
    assert message in e.message
    assert e.where == where
    assert not Draft202012Validator(schema()).is_valid(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda c: c["deck"].__setitem__(0, "loc:leek"),
            "chance: hands, discards and deck are not the 2-player deck (differences: {",
        ),
        (lambda c: c["deck"].pop(), "chance: hands, discards and deck are not the 2-player deck"),
        (lambda c: c["deck"].append(c["hands"][0].pop()), "chance.hands: need 2 hands of 8 cards"),
        (lambda c: c["discards"][0].append(c["deck"].pop()), "chance.discards: need one face-down card per player"),
        (lambda c: c.update(turn_order=[1, 1]), "chance.turn_order must list seats 0..1 once each, got [1, 1]"),
        (
            lambda c: c["merchant_tiles"].update(oxford=["pottery", "blank"]),
            "chance.merchant_tiles: faces",
        ),
        (
            lambda c: [c["merchant_tiles"].pop("shrewsbury"), c["merchant_tiles"].update(warrington=["cotton_mill"])],
            "chance.merchant_tiles: 'warrington' has no 1 merchant space(s) in a 2-player game",
        ),
    ],
)
def test_explicit_chance_inconsistent_with_the_components(change: Any, message: str) -> None:
    data = _explicit_log()
    change(data["chance"])
    players = [p["name"] for p in data["players"]]
    if Draft202012Validator(schema()).is_valid(data):
        log = GameLog.from_json(data)  # the shape is fine: the reader accepts it
        with pytest.raises(LogFormatError) as info:
            Replay(log)
        assert message in info.value.message
    else:
        # hands of 8, one discard each, distinct seats: the schema says so, and the reader enforces it
        with pytest.raises(LogFormatError, match="does not match the log schema"):
            GameLog.from_json(data)
    # setup checks the same on its own (for callers that build chance records in code)
    with pytest.raises(LogFormatError) as info:
        new_game(players, ExplicitChance(data["chance"]), load_rules("birmingham"))
    assert message in info.value.message


def _explicit_game(rail_era: dict[str, Any] | None) -> Any:
    want = doc_deal(3, 2)
    chance: dict[str, Any] = {
        "merchant_tiles": {},
        "turn_order": want["turn_order"],
        "hands": want["hands"],
        "discards": want["discards"],
        "deck": want["deck"],
    }
    for loc, _, face in want["merchants"]:
        chance["merchant_tiles"].setdefault(loc, []).append(face)
    if rail_era is not None:
        chance["rail_era"] = rail_era
    return new_game(NAMES[:2], ExplicitChance(chance))


def test_explicit_rail_era_missing() -> None:
    with pytest.raises(LogFormatError) as info:
        pass_through_canal_era(_explicit_game(None))
    assert "chance.rail_era is missing" in info.value.message


def test_explicit_rail_era_wrong_cards() -> None:
    want = doc_deal(3, 2)
    deck = list(want["rail_deck"])
    deck[0] = "loc:leek"
    with pytest.raises(LogFormatError) as info:
        pass_through_canal_era(_explicit_game({"hands": want["rail_hands"], "deck": deck}))
    assert "chance.rail_era: hands and deck are not the cards discarded in the Canal Era" in info.value.message


def test_explicit_rail_era_equal_to_the_seed() -> None:
    want = doc_deal(3, 2)
    state = pass_through_canal_era(_explicit_game({"hands": want["rail_hands"], "deck": want["rail_deck"]}))
    seeded = pass_through_canal_era(new_game(NAMES[:2], SeededChance(3)))
    assert [p.hand for p in state.players] == [p.hand for p in seeded.players] == want["rail_hands"]


def test_log_result_declared_result_is_checked(tmp_path: Path) -> None:
    """Section 10: every stated key of ``final`` and ``rail_era_start`` is compared with the replay."""
    log = convert_files(GOLDEN / "wq9gs6-2p.record.json", GOLDEN / "wq9gs6-2p.setup.json")
    assert log.result is not None
    r = Replay(log, keep_states=False).run()
    assert r.error is None and r.check_result() == []
    standings = {s.seat: s for s in r.standings()}
    log.result["final"] = [
        {"seat": s, "vp": st.vp, "income_level": st.income_level, "money": st.money, "rank": st.rank}
        for s, st in standings.items()
    ]
    assert r.check_result() == []
    log.result["final"][0]["vp"] += 1
    log.result["final"][1]["rank"] = 3
    log.result["rail_era_start"]["money"][1] -= 1
    assert r.check_result() == [
        f"seat 0 vp: declared {standings[0].vp + 1}, replayed {standings[0].vp}",
        f"seat 1 rank: declared 3, replayed {standings[1].rank}",
        "rail era start, seat 1 money: declared 55, replayed 56",
    ]
    path = tmp_path / "game.json"
    log.save(path)
    result = CliRunner().invoke(main, ["validate", "--workers", "1", str(path)])
    assert result.exit_code == 1


def test_new_game_needs_2_to_4_players() -> None:
    with pytest.raises(LogFormatError) as info:
        new_game(["Solo"], SeededChance(1))
    assert "for 2 to 4 players, not 1" in info.value.message


def test_unknown_version_exits_with_status_2(tmp_path: Path) -> None:
    data = GameLog.new(["Ann", "Bob"], seed=1).to_json()
    data["format_version"] = 2
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--workers", "1", str(path)])
    assert result.exit_code == 2
    assert "unsupported format_version 2" in result.output


def test_null_player_is_a_format_error() -> None:
    data = GameLog(("Ann", "Bob"), {"seed": 1}, [Loan(0, "loc:dudley")]).to_json()
    data["actions"][0]["player"] = None
    e = _load_error(data)
    assert "player" in e.message


def test_actions_built_by_their_quick_init_equal_the_dataclass_ones() -> None:
    """Every action class (and Sale) sets its slots directly in ``__init__`` (speed); it must take the same
    parameters, in the same order, with the same defaults, give equal values and stay frozen."""
    import dataclasses
    import inspect

    from brass_stats.engine.actions import _GENERATED_INIT, ACTION_TYPES, Sale

    classes: tuple[Any, ...] = (Sale, *ACTION_TYPES.values())
    assert set(_GENERATED_INIT) == set(classes)
    for cls in classes:
        generated = _GENERATED_INIT[cls]
        assert cls.__init__ is not generated
        assert inspect.signature(cls.__init__) == inspect.signature(generated), cls
        names = [f.name for f in dataclasses.fields(cls)]
        values = [(f"v{i}",) for i in range(len(names))]  # hashable, distinct per field
        required = sum(f.default is dataclasses.MISSING for f in dataclasses.fields(cls))
        for args, kwargs in [(values, {}), ([], dict(zip(names, values, strict=True))), (values[:required], {})]:
            quick = cls(*args, **kwargs)
            slow = object.__new__(cls)
            generated(slow, *args, **kwargs)
            assert quick == slow and hash(quick) == hash(slow) and repr(quick) == repr(slow), cls
            assert [getattr(quick, n) for n in names] == [getattr(slow, n) for n in names]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(quick, names[0], 9)
        with pytest.raises(TypeError):
            cls(*values, "one too many")
