"""The reference's answers that the compiled core's own Rust tests read (``core/src/tests/``).

cargo test (and cargo-mutants, which runs it once per mutant of the crate) cannot call Python, so the
reference's answers travel to the Rust side in a fixture, ``core/src/tests/testdata/reference.json.gz``,
written by this module from the pure-Python reference (``BRASS_STATS_CORE=python``: the bots, the search
and the review run in Python)::

    python3 tests/test_core_fixtures.py

:func:`test_the_reference_fixture_is_what_the_reference_says_now` makes the fixture again and asserts
it equals the stored file: a change of the reference's behaviour fails here until the fixture is
written again (and then the Rust tests say whether the core still agrees).

What it holds, perft-style (docs/core.md, "Testing"):

* positions of seeded games (both editions, 2-4 players, random and greedy play, the introductory
  game, the virtual link, the classic deck; every shortfall and every position at an era's end among
  them): the wire state, the number of legal actions and a digest of the list in order, a digest of
  every legal action's successor, changed actions with the reference's verdict (refused, or the
  successor's digest), the greedy bot's choice and the draw after it, the greedy evaluation of every
  seat and its terms, the resource demand, the card values, digests of every board group's value and
  of the search's candidate ranking, the era's scoring (and the cash and introductory scoring) applied
  to a copy, ``potential_vp``, the standings and the win shares; on every third position the
  features and both shipped models' predictions;
* seeded searches (every leaf the core runs, the knobs, a forced action), whole seeded games of the
  random, greedy, exploring and turn-planner bots with their final scores, and the review's readings.

Digests are SHA-256 of lines: an action or a state as canonical JSON (keys sorted, no spaces), floats
as their IEEE-754 bytes (little-endian); floats written out are ``repr`` strings (exact both ways).
The floats of the greedy evaluation depend on how the Python that wrote the fixture sums (3.12
compensates ``sum()``): the fixture says which, and the Rust test sums the same way.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import os
import random
import struct
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from core_parity import random_chooser  # noqa: E402

from brass_stats.analysis.review.judge import Reviewer, Sample  # noqa: E402
from brass_stats.bots import RandomBot, play_game  # noqa: E402
from brass_stats.bots.exploring import ExploringBot  # noqa: E402
from brass_stats.bots.greedy import DEFAULT_WEIGHTS, GreedyBot, explain, resource_demand  # noqa: E402
from brass_stats.bots.greedy.bot import board_values  # noqa: E402
from brass_stats.bots.greedy.evaluation import card_values, evaluate  # noqa: E402
from brass_stats.bots.greedy.fast_evaluation import Evaluator  # noqa: E402
from brass_stats.bots.greedy.grouping import cap_sells, group_by_board  # noqa: E402
from brass_stats.bots.search import SearchBot, SoftmaxLeaf  # noqa: E402
from brass_stats.bots.search.candidates import rank  # noqa: E402
from brass_stats.bots.search.evaluation import StakeLeaf, WinLeaf  # noqa: E402
from brass_stats.bots.turn_planner import TurnPlanner  # noqa: E402
from brass_stats.bots.value import default_final_vp_model, default_model  # noqa: E402
from brass_stats.bots.value.features import position_features  # noqa: E402
from brass_stats.engine import SeededChance, apply_action, new_game  # noqa: E402
from brass_stats.engine.actions import Action, Build, Develop, Network, Pass, Scout, Sell, Shortfall  # noqa: E402
from brass_stats.engine.compiled import SWITCH, encode_state, rules_table  # noqa: E402
from brass_stats.engine.information import attempt  # noqa: E402
from brass_stats.engine.legal import legal_actions  # noqa: E402
from brass_stats.engine.policy import STRICT  # noqa: E402
from brass_stats.engine.scoring import (  # noqa: E402
    potential_vp,
    score_cash,
    score_era,
    score_introductory,
    standings,
    win_shares,
)
from brass_stats.engine.state import GameState  # noqa: E402
from brass_stats.errors import IllegalAction  # noqa: E402
from brass_stats.rules_data import load_rules  # noqa: E402

ROOT = Path(__file__).parents[1]
FIXTURE = ROOT / "core" / "src" / "tests" / "testdata" / "reference.json.gz"
COMPENSATED_SUM = sys.version_info >= (3, 12)  # how this Python's sum() adds floats (core/src/pysum.rs)

Chooser = Callable[[GameState, Sequence[Action], random.Random], Action]


def greedy_chooser(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    return GreedyBot().choose(state, legal, rng)


CHOOSERS: dict[str, Chooser] = {"random": random_chooser, "greedy": greedy_chooser}

# the games whose positions are held: (edition, players, seed, chooser, options)
GAMES: list[tuple[str, int, int, str, dict[str, Any]]] = [
    ("birmingham", 2, 1, "random", {}),
    ("birmingham", 2, 2, "greedy", {}),
    ("birmingham", 3, 3, "random", {}),
    ("birmingham", 3, 4, "greedy", {}),
    ("birmingham", 4, 5, "random", {}),
    ("birmingham", 4, 6, "greedy", {}),
    ("birmingham", 3, 7, "random", {"introductory": True}),
    ("lancashire", 2, 1, "random", {}),
    ("lancashire", 2, 2, "greedy", {}),
    ("lancashire", 3, 3, "random", {"virtual_link": True}),
    ("lancashire", 3, 4, "greedy", {}),
    ("lancashire", 4, 5, "random", {"classic_deck": True}),
    ("lancashire", 4, 6, "greedy", {}),
]
STRIDE = 4  # every STRIDE-th position of a game is held (and every shortfall and era end)
FEATURES_EVERY = 3  # the features and the models' predictions on every third position held

# searches: (game, the position's action count, leaf, knobs, seed, forced actions by index in the legal list)
SEARCHES: list[tuple[int, int, str, dict[str, Any], int, list[int]]] = [
    (1, 20, "softmax", {}, 1, []),
    (3, 41, "softmax", {"rollout_depth": 3}, 2, []),
    (5, 90, "softmax", {"c_ucb": 0.7, "pw_c": 2.0, "pw_alpha": 0.3}, 3, []),
    (8, 30, "softmax", {"max_depth": 2}, 4, [-1]),
    (10, 55, "win", {}, 5, []),
    (12, 70, "final_vp", {}, 6, []),
    (3, 80, "stake", {}, 7, [-1, 0]),
    (11, 35, "softmax_final_vp", {}, 8, []),
    (0, 60, "constant", {}, 9, []),
]
SEARCH_SIMULATIONS = 16

# whole games: (edition, seed, bots, options)
PLAYED: list[tuple[str, int, list[str], dict[str, Any]]] = [
    ("birmingham", 11, ["random", "random"], {}),
    ("birmingham", 12, ["greedy", "random", "greedy"], {}),
    ("birmingham", 13, ["greedy", "greedy", "greedy", "greedy"], {}),
    ("birmingham", 14, ["exploring", "greedy"], {"introductory": True}),
    ("lancashire", 11, ["random", "random", "random", "random"], {}),
    ("lancashire", 12, ["greedy", "greedy"], {}),
    ("lancashire", 13, ["exploring", "random", "greedy"], {"virtual_link": True}),
    ("birmingham", 15, ["planner", "greedy"], {}),
]

# review readings: (game, the position's action count, samples, the game played out)
REVIEWS: list[tuple[int, int, int]] = [(1, 30, 2), (8, 24, 2), (3, -6, 2)]


@contextmanager
def python_path() -> Iterator[None]:
    """The bots, the search and the review on the pure-Python reference inside."""
    before = os.environ.get(SWITCH)
    os.environ[SWITCH] = "python"
    try:
        yield
    finally:
        if before is None:
            del os.environ[SWITCH]
        else:
            os.environ[SWITCH] = before


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces (what serde_json writes of a ``Value``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(lines: Iterable[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def float_digest(values: Iterable[float]) -> str:
    h = hashlib.sha256()
    for x in values:
        h.update(struct.pack("<d", x))
    return h.hexdigest()


def floats(values: Iterable[float]) -> list[str]:
    return [repr(float(x)) for x in values]


def state_digest(states: Iterable[GameState]) -> str:
    return digest(canonical(encode_state(s)) for s in states)


def game_positions(edition: str, players: int, seed: int, chooser: str, options: dict[str, Any]) -> list[GameState]:
    """Every position of one game played on the reference (the last one too)."""
    state = new_game([f"p{i}" for i in range(players)], SeededChance(seed), load_rules(edition), options)
    rng = random.Random(seed)
    out = [state]
    while not state.game_over:
        state = apply_action(state, CHOOSERS[chooser](state, legal_actions(state), rng))[0]
        out.append(state)
    return out


def held(states: list[GameState], seed: int) -> list[GameState]:
    """The positions of a game the fixture holds: every STRIDE-th, every shortfall, the last action of
    each era and the end."""
    out = []
    for i, s in enumerate(states):
        after = states[i + 1] if i + 1 < len(states) else None
        era_end = after is not None and (after.era != s.era or after.game_over)
        if i % STRIDE == seed % STRIDE or s.phase == "shortfall" or era_end or s.game_over:
            out.append(s)
    return out


def variants(state: GameState, legal: Sequence[Action], rng: random.Random) -> list[Action]:
    """Changed copies of some legal actions (another seat, card, slot, source, link, sale, amount...)."""
    R = dataclasses.replace
    rules = state.rules
    seat = state.current_player or 0
    hand = state.players[seat].hand
    out: list[Action] = [Shortfall(seat, ())]
    other_card = next((c for c in sorted(set(rules.all_card_codes)) if c not in hand), None)
    for a in rng.sample(list(legal), min(3, len(legal))):
        out.append(R(a, player=(a.player + 1) % state.num_players))
        if hasattr(a, "card") and other_card is not None:
            out.append(R(a, card=other_card))
        if isinstance(a, Build):
            out += [R(a, slot=(a.slot or 0) + 1), R(a, coal=None), R(a, iron=None)]
            out.append(R(a, industry=rng.choice(list(rules.industries))))
            out += [R(a, coal=("market",) * len(a.coal or ())), R(a, iron=("market",) * len(a.iron or ()))]
            if hand:
                out.append(R(a, second_card=rng.choice(hand)))
        elif isinstance(a, Network):
            out += [R(a, coal=None), R(a, beer=None), R(a, links=a.links[::-1]), R(a, links=a.links * 2)]
            out += [R(a, coal=("market",) * len(a.coal or ())), R(a, links=(rng.choice(list(rules.links)),))]
        elif isinstance(a, Develop):
            out += [R(a, iron=None), R(a, industries=a.industries * 2), R(a, iron=("market",) * len(a.iron or ()))]
            out.append(R(a, industries=(rng.choice(list(rules.industries)),)))
        elif isinstance(a, Sell):
            out += [R(a, sales=a.sales[::-1]), R(a, sales=(*a.sales, *a.sales[:1])), R(a, sales=())]
            for change in ({"merchant_space": None}, {"beer": None}, {"bonus_develop": None}):
                out.append(R(a, sales=tuple(R(x, **change) for x in a.sales)))
            out.append(R(a, sales=tuple(R(x, merchant_space=(x.merchant_space or 0) + 1) for x in a.sales)))
            out.append(R(a, sales=tuple(R(x, beer=("merchant",) * len(x.beer or "m")) for x in a.sales)))
        elif isinstance(a, Shortfall):
            tiles = a.tiles or ()
            out += [R(a, tiles=tiles[::-1]), R(a, tiles=tiles[:-1]), R(a, tiles=(*tiles, *tiles[:1]))]
        elif isinstance(a, Scout):
            out.append(R(a, discards=a.discards[:1]))
        elif isinstance(a, Pass):
            out.append(R(a, card=hand[0] if hand else a.card))
        elif hasattr(a, "amount"):
            out += [R(a, amount=None), R(a, amount=20)]
    seen: list[Action] = []
    for v in out:
        if v not in seen and v not in legal:
            seen.append(v)
    return seen[:8]


def verdict(state: GameState, action: Action) -> dict[str, Any]:
    """The reference's verdict on an action: refused, or the digest of its successor."""
    try:
        after = apply_action(state, action)[0]
    except IllegalAction:
        return {"action": action.to_json(), "refused": True}
    return {"action": action.to_json(), "after": state_digest([after])}


def greedy_entry(state: GameState, legal: Sequence[Action], seed: int) -> dict[str, Any]:
    """The greedy bot's decision and evaluation at a position."""
    seat = state.current_player
    assert seat is not None
    w = DEFAULT_WEIGHTS
    rng = random.Random(seed)
    choice = GreedyBot().choose(state, legal, rng)
    groups = cap_sells(state, group_by_board(legal), w.sell_cap)
    boards = board_values(state, seat, groups.values(), Evaluator(state, w))
    candidates = rank(state, legal, GreedyBot())
    values = card_values(state, seat)
    return {
        "seed": seed,
        "choice": legal.index(choice),
        "draw_after": rng.getrandbits(32),  # the bot drew from the generator exactly when the reference did
        "groups": len(groups),
        "firsts": digest(canonical(g[0].to_json()) for g in groups.values()),
        "board_values": float_digest(boards),
        "rank": digest(f"{canonical(c.action.to_json())} {struct.pack('<d', c.score).hex()}" for c in candidates),
        "card_values": {code: repr(values[code]) for code in state.players[seat].hand},
    }


def scoring_entry(state: GameState) -> dict[str, Any]:
    """The era's scoring applied to a copy (and the cash and introductory scoring), the standings."""
    out: dict[str, Any] = {
        "potential_vp": [list(potential_vp(state, s)) for s in range(state.num_players)],
        "ranks": [s.rank for s in standings(state)],
        "win_shares": floats(win_shares(state)),
    }
    if not state.game_over:
        for name, score in (("era", score_era), ("cash", score_cash), ("introductory", score_introductory)):
            copy = state.copy()
            score(copy)
            out[name] = {"vp": [p.vp for p in copy.players], "after": state_digest([copy])}
    return out


def position_entry(game: int, index: int, state: GameState, rng: random.Random, features: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"game": game, "index": index, "edition": state.rules.edition, "state": encode_state(state)}
    entry["scoring"] = scoring_entry(state)
    if features:
        entry["features"] = [floats(row) for row in position_features(state)]
        entry["win"] = floats(default_model().predict(state))
        entry["final_vp"] = floats(default_final_vp_model().predict(state))
    if state.game_over:
        return entry
    legal = legal_actions(state)
    entry["legal"] = len(legal)
    entry["legal_digest"] = digest(canonical(a.to_json()) for a in legal)
    entry["successors"] = state_digest(apply_action(state, a)[0] for a in legal)
    entry["variants"] = [verdict(state, v) for v in variants(state, legal, rng)]
    n = state.num_players
    entry["evaluate"] = [floats([evaluate(state, s, DEFAULT_WEIGHTS) for s in range(n)])]
    entry["evaluate"].append(floats([evaluate(state, s, DEFAULT_WEIGHTS, include_hand=False) for s in range(n)]))
    entry["explain"] = [{k: repr(v) for k, v in explain(state, s).items()} for s in range(n)]
    entry["demand"] = repr(resource_demand(state, DEFAULT_WEIGHTS))
    if len(legal) > 1:
        entry["greedy"] = greedy_entry(state, legal, 1000 * game + index)
    return entry


def search_entry(positions: list[list[GameState]], case: tuple[Any, ...]) -> dict[str, Any]:
    game, index, leaf_name, knobs, seed, force_at = case
    states = positions[game]
    state = states[index] if index >= 0 else states[len(states) + index]
    leaves: dict[str, Any] = {
        "softmax": None,
        "constant": SoftmaxLeaf(temperature=6.0),
        "softmax_final_vp": SoftmaxLeaf(estimates=default_final_vp_model().predict),
        "win": WinLeaf(default_model()),
        "final_vp": default_final_vp_model().predict,
        "stake": StakeLeaf(default_final_vp_model(), default_model(), 50.0),
    }
    bot = SearchBot(simulations=SEARCH_SIMULATIONS, leaf=leaves[leaf_name], **knobs)
    spec = bot.core_spec()
    assert spec is not None
    models = sorted(spec.pop("models", {}))
    legal = legal_actions(state)
    force = [legal[i] for i in force_at]
    rng = random.Random(seed)
    r = bot.analyse(state, rng=random.Random(seed), force=force)
    return {
        "game": game,
        "edition": state.rules.edition,
        "state": encode_state(state),
        "spec": spec,
        "models": models,
        "seed": rng.getrandbits(64),  # what analyse drew from random.Random(seed)
        "force": [a.to_json() for a in force],
        "seat": r.seat,
        "best": r.best.to_json(),
        "actions": [
            {
                "action": s.action.to_json(),
                "visits": s.visits,
                "value": floats(s.value),
                "score": repr(s.score),
                "rank": s.rank,
            }
            for s in r.actions
        ],
        "simulations": r.simulations,
        "value": floats(r.value),
        "recovered": r.recovered,
    }


def bot(name: str) -> Any:
    makers: dict[str, Callable[[], Any]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "exploring": lambda: ExploringBot(0.3),
        "planner": TurnPlanner,
    }
    return makers[name]()


def played_entry(case: tuple[str, int, list[str], dict[str, Any]]) -> dict[str, Any]:
    edition, seed, names, options = case
    agents = [bot(n) for n in names]
    log = play_game(agents, seed, names=[f"p{i}" for i in range(len(agents))], edition=edition, options=options)
    state = new_game(log.players, SeededChance(seed), load_rules(edition), options)
    first = encode_state(state)
    for a in log.actions:
        state = apply_action(state, a)[0]
    assert state.game_over
    return {
        "edition": edition,
        "state": first,
        "bots": [a.core_spec() for a in agents],
        "seed": seed,
        "actions": len(log.actions),
        "digest": digest(canonical(a.to_json()) for a in log.actions),
        "vp": [p.vp for p in state.players],
        "money": [p.money for p in state.players],
        "final": state_digest([state]),
    }


def review_entry(positions: list[list[GameState]], game: int, index: int, samples: int) -> dict[str, Any]:
    """The review's readings of the legal actions' first three and last, in seeded samples (and whether
    the game ends before the mover moves again, which plays it out with the turn planner)."""
    states = positions[game]
    state = states[index] if index >= 0 else states[len(states) + index]
    seat = state.current_player
    assert seat is not None
    edition, players, seed, chooser, options = GAMES[game]
    log = play_game([RandomBot()] * players, seed, edition=edition, options=options)  # any log of the edition
    reviewer = Reviewer(log, STRICT, 4, 0, None)
    legal = legal_actions(state)
    actions = [*legal[:3], legal[-1]]
    rng = random.Random(index)
    worlds = [Sample(state, seat, rng.getrandbits(64), rng.getrandbits(64)) for _ in range(samples)]
    turn = (state.round, state.turn_pos)
    world, turn_seed = worlds[0]
    first = reviewer._finish_turn(attempt(world, actions[0], STRICT), seat, random.Random(turn_seed), turn)
    last = first.game_over or (first.era == "rail" and first.is_last_round_of_era)
    readings = reviewer.judge(state, seat, actions, worlds, last)
    return {
        "game": game,
        "edition": state.rules.edition,
        "state": encode_state(state),
        "seat": seat,
        "actions": [a.to_json() for a in actions],
        "samples": [list(w.seeds) for w in worlds],
        "turn": list(turn),
        "last": last,
        "readings": [[[floats(win), floats(vp)] for win, vp in per_action] for per_action in readings],
    }


def reference_fixture() -> dict[str, Any]:
    """Everything the Rust tests compare the core with, from the reference (see the module docstring)."""
    with python_path():
        rules = {edition: rules_table(load_rules(edition)) for edition in ("birmingham", "lancashire")}
        positions: list[list[GameState]] = []
        entries: list[dict[str, Any]] = []
        count = 0
        for game, (edition, players, seed, chooser, options) in enumerate(GAMES):
            states = game_positions(edition, players, seed, chooser, options)
            positions.append(states)
            rng = random.Random(seed)
            for state in held(states, seed):
                entries.append(position_entry(game, state.action_count, state, rng, count % FEATURES_EVERY == 0))
                count += 1
        return {
            "compensated_sum": COMPENSATED_SUM,
            "rules": rules,
            "games": [
                {"edition": g[0], "players": g[1], "seed": g[2], "chooser": g[3], "options": g[4]} for g in GAMES
            ],
            "positions": entries,
            "searches": [search_entry(positions, case) for case in SEARCHES],
            "played": [played_entry(case) for case in PLAYED],
            "reviews": [review_entry(positions, *case) for case in REVIEWS],
        }


def write_fixture(path: Path = FIXTURE) -> dict[str, Any]:
    fixture = reference_fixture()
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same fixture is the same bytes
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(json.dumps(fixture, separators=(",", ":")).encode("utf-8"))
    return fixture


def test_the_reference_fixture_is_what_the_reference_says_now() -> None:
    """The Rust tests of core/src/tests/ read this fixture: it must be the reference's answers today."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        stored = json.load(f)
    if stored["compensated_sum"] != COMPENSATED_SUM:
        pytest.skip("the fixture was written by a Python that sums floats otherwise (3.11 / 3.12)")
    fresh = json.loads(json.dumps(reference_fixture()))
    for key in ("rules", "games", "searches", "played", "reviews"):
        assert stored[key] == fresh[key], key
    assert len(stored["positions"]) == len(fresh["positions"])
    for old, new in zip(stored["positions"], fresh["positions"], strict=True):
        assert old == new, f"game {new['game']}, position {new['index']}"
    assert stored == fresh
    # what the fixture must hold to be worth its bytes
    held = fresh["positions"]
    assert len(held) >= 300
    assert {p["state"]["phase"] for p in held} >= {"actions", "shortfall"}
    assert sum("refused" in v for p in held for v in p.get("variants", ())) > 1000
    assert sum("after" in v for p in held for v in p.get("variants", ())) > 20
    assert sum(p["state"]["era"] == "rail" for p in held) > 100
    assert sum(1 for p in held if "legal" not in p) == len(GAMES)  # each game's end
    assert any(r["last"] for r in fresh["reviews"]) and not all(r["last"] for r in fresh["reviews"])


if __name__ == "__main__":
    written = write_fixture()
    print(f"wrote {FIXTURE} ({len(written['positions'])} positions, {FIXTURE.stat().st_size} bytes)")
