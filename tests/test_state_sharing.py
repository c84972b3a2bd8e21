"""States share what the engine never changes in place: applying an action never changes an earlier state.

:func:`~brass_stats.engine.turn.apply_action` starts from :meth:`GameState.successor`, which shares the
players, the deck, the links and every other list or dict but the tiles with the state before; the
engine replaces those rather than changing them, and copies a shared player (``player_mut``) before
changing it. Every kept state of every sample game (both editions, every action type, shortfalls, both
eras' scoring, Distant Cotton Market draws) must read the same at the end of the replay as when it was
made; and :meth:`GameState.copy` is a copy one may edit by hand.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from brass_stats.engine import apply_action, new_game
from brass_stats.engine.actions import ACTION_TYPES, Loan
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.engine.setup import ExplicitChance, SeededChance
from brass_stats.engine.state import GameState, MerchantSpace, Player, Tile
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay

REPLAYS = Path(__file__).parents[1] / "replays"
SAMPLES = sorted(REPLAYS.rglob("*.json"))
DERIVED = {"cache", "place_cache", "link_cache", "effects", "_owned"}  # caches and bookkeeping, not the game


def snapshot(value: Any) -> Any:
    """Every value reachable from a state, as plain tuples (a field added to the state is covered too)."""
    if isinstance(value, GameState):
        names = sorted(f.name for f in fields(value))
        return tuple((k, snapshot(getattr(value, k))) for k in names if k not in DERIVED and k != "rules")
    if isinstance(value, Player | Tile):
        return tuple(snapshot(getattr(value, k)) for k in type(value).__slots__)
    if isinstance(value, MerchantSpace):
        return (value.location, value.index, value.face, value.accepts, value.beer)
    if isinstance(value, SeededChance):
        return ("seeded", value.seed, value.rng.state)
    if isinstance(value, ExplicitChance):
        return ("explicit", id(value.record))  # read-only: shared by every state
    if isinstance(value, dict):
        return tuple((k, snapshot(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(snapshot(v) for v in value)
    assert isinstance(value, int | str | bool | frozenset | type(None)), type(value)
    return value


def test_every_sample_game_is_covered_by_every_action_type() -> None:
    seen = {a.TYPE for path in SAMPLES for a in GameLog.load(path).actions}
    assert seen == set(ACTION_TYPES)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_no_action_changes_a_state_made_before_it(path: Path) -> None:
    log = GameLog.load(path)
    r = Replay(log, policy=AS_PLAYED)
    made = [snapshot(r.initial)]
    for action in log.actions:
        try:
            r.push(action)
        except Exception:  # a game as played may stop on a rule no policy tolerates
            break
        made.append(snapshot(r.state))
    assert snapshot(r.initial) == made[0]
    for i, step in enumerate(r.steps):
        assert snapshot(step.state) == made[i + 1], f"the state after action {i} changed later"
    # and the replay that changes one state in place ends in the same state
    in_place = Replay(log, policy=AS_PLAYED, keep_states=False)
    for step in r.steps:
        in_place.push(step.action)
    assert snapshot(in_place.state) == made[-1]


def test_a_copy_is_a_state_to_edit_by_hand() -> None:
    g = new_game(["Ann", "Bob"], SeededChance(3))
    seat = g.current_player
    assert seat is not None
    after, _ = apply_action(g, Loan(seat, g.players[seat].hand[0]))
    before = snapshot(after)
    edited = after.copy()
    for p in edited.players:
        p.money, p.vp = 999, 99
        p.hand.append("loc:dudley")
        p.discard.append("loc:dudley")
    edited.deck.append("loc:dudley")
    edited.links["birmingham-walsall"] = 0
    assert snapshot(after) == before


def test_a_shared_player_is_copied_before_it_changes() -> None:
    g = new_game(["Ann", "Bob"], SeededChance(3))
    seat = g.current_player
    assert seat is not None
    other = 1 - seat
    after = g.successor()
    assert after.players[other] is g.players[other]
    after.player_mut(other).money += 5
    assert after.players[other] is not g.players[other]
    assert after.players[other].money == g.players[other].money + 5
    assert after.player_mut(other) is after.players[other]  # copied once
    g.player_mut(seat).hand.clear()  # the earlier state copies its own on a change too
    assert after.players[seat].hand


def _change_everything(state: GameState) -> None:
    """Change by hand every part of ``state`` a user may reach: numbers, lists, dicts, players, tiles."""
    for p in state.players:
        p.money += 100
        p.hand.append("loc:dudley")
        p.discard.clear()
        p.mat["coal_mine"] = (9, 9, 9, 9)  # a dict of the player's, changed in place
        p.first_level["coal_mine"] = 7
    for tile in state.tiles.values():
        tile.level, tile.resources, tile.flipped = 9, 9, not tile.flipped
    state.tiles["nowhere:0"] = Tile(0, "coal_mine", 1)
    for ms in state.merchant_spaces:
        ms.beer = not ms.beer
    state.merchant_spaces.append(MerchantSpace("nowhere", 0, "all", frozenset(), True))
    for era, (tiles, links) in state.era_boards.items():
        tiles.clear()
        links[era] = 0
    state.links["nowhere"] = 0
    state.wild["wild:location"] = 9
    state.deck.insert(0, "loc:dudley")
    state.turn_order.reverse()
    state.options["changed"] = True
    state.coal_market = 99


def test_state_at_gives_a_state_to_change_without_touching_the_others() -> None:
    r = Replay(GameLog.load(REPLAYS / "real" / "gm7vza-4p.json"), policy=AS_PLAYED).run()
    last = len(r.steps) - 1
    watched = (-1, 9, 10, 11, last)
    before = {i: snapshot(r.state_at(i)) for i in watched}
    mine = r.state_at(10)
    assert mine.players[0].money == r.state_at(10).players[0].money  # the state after action 10, read
    _change_everything(mine)
    _change_everything(r.state_at(-1))
    _change_everything(r.state_at(last))  # has both eras' boards
    for i in watched:
        assert snapshot(r.state_at(i)) == before[i], f"the state after action {i} changed"
        assert snapshot(r.steps[i].state if i >= 0 else r.initial) == before[i]
    assert snapshot(r.state) == before[last]
    assert mine.cache is not r.steps[10].state.cache  # its board caches are its own too
    # the replay goes on from its own states, unchanged
    assert (
        r.standings() == Replay(GameLog.load(REPLAYS / "real" / "gm7vza-4p.json"), policy=AS_PLAYED).run().standings()
    )
