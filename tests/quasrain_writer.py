"""Write BrassBirmingham server records by hand (with a seeded chooser), for the importer's tests.

A record written here is what that server would export for the game: the deal
follows from the seed (``quasrain_setup``), every action names server card ids
that are in the seat's hand, and the choices a record may leave out are either
stated (the newer fields: ``slotIndex``, ``ironSources`` with ``count``,
``beerSources`` with ``tileIndex``, a double rail's ``beerSource``,
``bonusDevelop``) or left to the server's own order. Each action is pushed
through the converter's own mapping (:func:`map_action`), so the record means
exactly the game the writer played.

Records of a server version that departed from the rulebook (``Plan.options``, e.g. the £14
Manufacturer IV of ``options.played_costs``) go to ``handmade/as-played/``.

Regenerate the committed records (tests/golden/quasrain/handmade/ and its as-played/) with::

    PYTHONPATH=$PWD python tests/quasrain_writer.py tests/golden/quasrain/handmade
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from brass_stats.bots.greedy import GreedyBot
from brass_stats.engine.actions import Action, Build, Develop, Network, Scout, Sell, Shortfall
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.resources import MARKET, MERCHANT
from brass_stats.engine.turn import apply_action
from brass_stats.errors import IllegalAction
from brass_stats.log.brassbirmingham.deal import CardPlay, DealFollower, unshuffled_deck
from brass_stats.log.brassbirmingham.records import (
    OLDER_SERVER_PRICES,
    QuasrainPolicy,
    chance_from_reconstruction,
    map_action,
    tables,
)
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay


@dataclass
class Plan:
    """One hand-made record: who plays, the seed, how the chooser leans, where the record stops."""

    name: str
    players: int
    seed: int
    chooser_seed: int
    stop: int | None = None  # number of actions written (None: to the end of the game)
    explicit: Callable[[int], bool] = lambda i: i % 2 == 0  # which actions state their optional choices
    weights: dict[str, float] = field(default_factory=dict)
    prefer: Callable[[Action], float] = lambda a: 0.0  # bonus weight for particular actions
    scout_reversed: bool = False  # list a scout's cards against hand order (the importer must not care)
    p_prefer: float = 0.5  # how often a preferred action is taken when one is legal
    p_random: float = 0.15  # how often a random action is taken instead of the greedy bot's
    options: dict[str, Any] = field(default_factory=dict)  # the log options the server played by


GREEDY = GreedyBot()
OLDER_SERVER = {"played_costs": dict(OLDER_SERVER_PRICES)}  # the server version that charged £14 for Manufacturer IV
DEFAULT_WEIGHTS = {"sell": 6, "build": 4, "network": 3, "develop": 2, "loan": 1, "scout": 1, "pass": 0.2}


class _Reverse:
    def __init__(self) -> None:
        t = tables()
        self.loc = {v: k for k, v in t["locations"].items()}
        self.ind = {v: k for k, v in t["industries"].items()}
        self.link = {v: int(k) for k, v in t["links"].items()}
        self.slot = {ref: (loc, i) for loc, refs in t["slots"].items() for i, ref in enumerate(refs)}
        self.cards = t["cards"]

    def place(self, ref: str) -> dict[str, Any]:
        loc, i = self.slot[ref]
        return {"location": loc, "slotIndex": i}

    def iron(self, sources: tuple[str, ...] | None) -> list[dict[str, Any]] | None:
        if not sources or MARKET in sources:
            return None
        out: list[dict[str, Any]] = []
        for ref in sources:
            if out and out[-1]["ref"] == ref:
                out[-1]["count"] += 1
            else:
                out.append({"ref": ref, "count": 1})
        return [{**self.place(o["ref"]), "count": o["count"]} for o in out]


def _server_cards(codes: tuple[str, ...], hand: list[str], rev: _Reverse, reverse: bool) -> list[str]:
    picked: list[str] = []
    for code in codes:
        picked.append(next(c for c in hand if rev.cards[c] == code and c not in picked))
    if len(picked) > 1:
        picked.sort(key=hand.index, reverse=reverse)
    return picked


def _entry(
    seq: int, a: Action, hand: list[str], rev: _Reverse, filled: Action | None, scout_reversed: bool
) -> dict[str, Any]:
    """The record entry for project action ``a``; with ``filled``, its optional choices are stated."""
    if isinstance(a, Scout):
        return {
            "seq": seq,
            "player": a.player,
            "action": {"type": "scout", "cardIds": _server_cards(a.discards, hand, rev, scout_reversed)},
        }
    card = _server_cards((a.card,), hand, rev, False)[0]  # type: ignore[attr-defined]
    act: dict[str, Any] = {"type": a.TYPE, "cardId": card}
    if isinstance(a, Build):
        act |= {"industry": rev.ind[a.industry], "location": rev.loc[a.location]}
        if isinstance(filled, Build):
            act["slotIndex"] = filled.slot
            iron = rev.iron(filled.iron)
            if iron:
                act["ironSources"] = iron
    elif isinstance(a, Network):
        act["links"] = [rev.link[x] for x in a.links]
        if isinstance(filled, Network) and filled.beer is not None:
            act["beerSource"] = rev.place(filled.beer)
    elif isinstance(a, Develop):
        act["removals"] = [rev.ind[i] for i in a.industries]
        if isinstance(filled, Develop):
            iron = rev.iron(filled.iron)
            if iron:
                act["ironSources"] = iron
    elif isinstance(a, Sell):
        sales = []
        for k, s in enumerate(a.sales):
            loc, i = rev.slot[s.tile]
            sale: dict[str, Any] = {
                "location": loc,
                "slotIndex": i,
                "merchant": rev.loc[s.merchant],
                "useMerchantBeer": bool(s.beer and MERCHANT in s.beer),
            }
            if isinstance(filled, Sell):
                done = filled.sales[k]
                sale["beerSources"] = [
                    {"kind": "merchant", "tileIndex": done.merchant_space}
                    if b == MERCHANT
                    else {"kind": "brewery", **rev.place(b)}
                    for b in done.beer or ()
                ]
                if done.bonus_develop is not None:
                    act["bonusDevelop"] = rev.ind[done.bonus_develop]
            sales.append(sale)
        act["sales"] = sales
    return {"seq": seq, "player": a.player, "action": act}


def _settle(replay: Replay) -> None:
    while replay.state.phase == "shortfall":
        seat = replay.state.current_player
        assert seat is not None
        replay.push(Shortfall(seat))


def write(plan: Plan) -> tuple[dict[str, Any], GameLog]:
    """Play ``plan`` and return (the server record, the log the writer's replay holds)."""
    rev = _Reverse()
    rng = random.Random(plan.chooser_seed)
    follower = DealFollower(plan.players, plan.seed)
    names = [f"hand-{i}" for i in range(plan.players)]
    policy = QuasrainPolicy()

    def start(chance: dict[str, Any], steps: list[Action]) -> Replay:
        r = Replay(GameLog(players=tuple(names), chance=chance, options=plan.options), policy=policy, keep_states=False)
        for s in steps:
            r.push(s)
        return r

    replay = start(chance_from_reconstruction(follower.result()), [])
    has_rail = False
    entries: list[dict[str, Any]] = []
    weights = DEFAULT_WEIGHTS | plan.weights
    while not replay.finished and (plan.stop is None or len(entries) < plan.stop):
        seq = len(entries)
        state = replay.state
        if seq == follower.canal - 1:
            # the last Canal Era action ends the era inside legal_actions: any deal of the whole deck will do
            # there (legality does not depend on its order); the real deal is made per candidate below
            cards = [tables()["cards"][c] for c in unshuffled_deck(plan.players)]
            k = 8 * plan.players
            provisional = {"hands": [cards[i : i + 8] for i in range(0, k, 8)], "deck": cards[k:]}
            state = start(replay.log.chance | {"rail_era": provisional}, [s.action for s in replay.steps]).state
        options = legal_actions(state)
        rng.shuffle(options)
        options.sort(key=lambda a: -(weights.get(a.TYPE, 1) + plan.prefer(a)) * rng.random())
        preferred = [a for a in options if plan.prefer(a) > 0]
        if preferred and rng.random() < plan.p_prefer:
            options.insert(0, preferred[0])
        elif rng.random() >= plan.p_random:
            options.insert(0, GREEDY.choose(state, options, rng))  # mostly sensible play, so the game goes on
        for a in options:
            hand = follower.hands[a.player]
            entry = _entry(seq, a, hand, rev, None, plan.scout_reversed)
            f2 = copy.deepcopy(follower)
            f2.play(CardPlay(seq, a.player, entry["action"].get("cardIds") or [entry["action"]["cardId"]], "cardId"))
            trial = replay
            if f2.rail is not None and not has_rail:
                trial = start(chance_from_reconstruction(f2.result()), [s.action for s in replay.steps])
            try:
                filled = apply_action(trial.state, map_action(entry, "hand", policy, seq), policy)[1]
            except IllegalAction:
                continue
            if plan.explicit(seq):
                entry = _entry(seq, a, hand, rev, filled, plan.scout_reversed)
            trial.push(map_action(entry, "hand", policy, seq))
            _settle(trial)
            replay, follower, has_rail = trial, f2, has_rail or f2.rail is not None
            entries.append(entry)
            break
        else:
            raise RuntimeError(f"{plan.name}: no action of {len(options)} could be written at seq {seq}")
    record = {
        "description": f"hand-made record {plan.name} (tests/quasrain_writer.py)",
        "roomCode": plan.name.upper()[:6],
        "playerCount": plan.players,
        "seed": plan.seed,
        "seats": [{"seat": i, "nickname": n, "isAI": False} for i, n in enumerate(names)],
        "actions": entries,
    }
    log = GameLog(
        players=tuple(names), chance=replay.log.chance, actions=[s.action for s in replay.steps], options=plan.options
    )
    return record, log


def _is_manufacturer(a: Action) -> float:
    if isinstance(a, Build) and a.industry == "manufacturer":
        return 30.0
    if isinstance(a, Develop) and "manufacturer" in a.industries:
        return 12.0
    return 0.0


def _doubles(a: Action) -> float:
    if isinstance(a, Network) and len(a.links) == 2:
        return 20.0
    if isinstance(a, Sell) and any(s.beer and MERCHANT in s.beer for s in a.sales):
        return 6.0
    return 0.0


def _develop_two(a: Action) -> float:
    return 8.0 if isinstance(a, Develop) and len(a.industries) == 2 else 0.0


PLANS = [
    Plan("hand2m", 2, 8, 4, prefer=_is_manufacturer, explicit=lambda i: False),  # Manufacturer IV; server order
    Plan("hand3m", 3, 9, 4, prefer=_is_manufacturer),  # Manufacturer IV; double rail beerSource
    Plan("hand4x", 4, 99, 1, prefer=_doubles, p_prefer=0.3, explicit=lambda i: True),  # every newer field
    Plan("hand3d", 3, 314159, 2, prefer=_develop_two, p_prefer=0.15, scout_reversed=True),
    Plan("hand2c", 2, 20261126, 1, prefer=_doubles, stop=38),  # stops exactly at the end of the Canal Era
    Plan("hand3s", 3, 77, 5, stop=30),  # stops in the Canal Era
    Plan("hand4s", 4, 123456, 6, stop=70, prefer=_doubles),  # stops in the Rail Era
]


# Records of a server that departed from the rulebook (in as-played/): the older version that charged £14
# for Manufacturer IV; its later turn order follows the £14 (at £8 the record fails at seq 26).
AS_PLAYED_PLANS = [
    Plan("hand2m14", 2, 8, 1, prefer=_is_manufacturer, explicit=lambda i: False, options=OLDER_SERVER),
]


def main(out: str) -> None:
    for plans, out_dir in ((PLANS, Path(out)), (AS_PLAYED_PLANS, Path(out) / "as-played")):
        out_dir.mkdir(parents=True, exist_ok=True)
        for plan in plans:
            record, _ = write(plan)
            path = out_dir / f"{plan.name}.record.json"
            path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            print(path, len(record["actions"]), "actions")


if __name__ == "__main__":
    main(sys.argv[1])


def features(record: dict[str, Any], log: GameLog) -> set[str]:
    """What a record exercises: action types, the newer fields, and a Manufacturer IV built."""
    out: set[str] = set()
    for e in record["actions"]:
        a = e["action"]
        out.add(a["type"])
        if a["type"] == "network" and len(a["links"]) == 2:
            out.add("double rail" + (" with beerSource" if "beerSource" in a else ""))
        if a["type"] == "develop" and len(a["removals"]) == 2:
            out.add("two-tile develop" + (" with ironSources" if "ironSources" in a else ""))
        if any(s.get("count", 1) > 1 for s in a.get("ironSources", [])):
            out.add("ironSources count > 1")
        for s in a.get("sales", []):
            if any("tileIndex" in b for b in s.get("beerSources", [])):
                out.add("merchant beer tileIndex")
        if "bonusDevelop" in a:
            out.add("bonusDevelop")
        if "slotIndex" in a:
            out.add("slotIndex")
    from brass_stats.replay import replay

    r = replay(log)
    for i, step in enumerate(r.steps):
        if step.action.TYPE == "shortfall":
            out.add("shortfall")
        if isinstance(step.action, Build) and step.action.industry == "manufacturer":
            tile = r.state_at(i).tiles[f"{step.action.location}:{step.action.slot}"]
            if tile.level == 4:
                out.add("Manufacturer IV")
    return out
