"""The replay pauses the cyclic garbage collector and hands back a collector that is on, with the
replay's objects in the oldest generation and whatever the application froze still frozen; and a
replay that keeps no states changes one state in place yet reads exactly like one that keeps them."""

from __future__ import annotations

import gc
import importlib
from pathlib import Path

import pytest

from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, gc_paused

GAME = Path(__file__).parents[1] / "replays" / "real" / "wq9gs6-2p.json"


def test_the_collector_is_off_during_a_replay_and_on_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_replays_objects_go_to_the_oldest_generation() -> None:
    """Not rescanned by every young collection while the replay is kept."""
    r = Replay(GameLog.load(GAME)).run()
    assert r.finished
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(r.state) in oldest and id(r.steps) in oldest


def test_objects_frozen_before_the_import_do_not_keep_the_replays_objects_young(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CPython 3.12 starts with objects of its own frozen (its static types' tuples): a freeze count
    that is not 0 but the one found at import must not stop the hand-over to the oldest generation
    (on 3.12 every replay's objects were rescanned by the young collections, 8 to 40 ms per corpus)."""
    replay_module = importlib.import_module("brass_stats.replay")  # (the package's name, not its replay())

    gc.freeze()  # stands for the interpreter's own frozen objects
    try:
        monkeypatch.setattr(replay_module, "_FROZEN_AT_START", [gc.get_freeze_count()])
        r = Replay(GameLog.load(GAME)).run()
        assert r.finished
        oldest = {id(o) for o in gc.get_objects(generation=2)}
        assert id(r.state) in oldest and id(r.steps) in oldest
        # thawed once; from then on a freeze count that is not 0 is the application's
        assert gc.get_freeze_count() == 0 and replay_module._FROZEN_AT_START == [0]
        gc.freeze()
        frozen = gc.get_freeze_count()
        Replay(GameLog.load(GAME)).run()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_objects_the_application_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        Replay(GameLog.load(GAME)).run()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


# -- a replay without kept states changes one state in place ------------------------------------


def _fingerprint(state: GameState) -> tuple[object, ...]:
    return (
        [(p.money, p.vp, p.income_space, sorted(p.hand), p.mat, p.link_tiles) for p in state.players],
        {ref: (t.owner, t.industry, t.level, t.resources, t.flipped) for ref, t in state.tiles.items()},
        dict(state.links),
        list(state.deck),
        (state.coal_market, state.iron_market, state.era, state.round, state.turn_pos, state.action_count),
        [ms.beer for ms in state.merchant_spaces],
    )


def test_an_illegal_action_leaves_the_in_place_replay_after_the_last_legal_one() -> None:
    """gm7vza breaks the link-tile limit at action 117 (D1): the state is the one after action 116."""
    log = GameLog.load(GAME.parent / "gm7vza-4p.json")
    kept = Replay(log).run()
    in_place = Replay(log, keep_states=False).run()
    assert kept.error is not None and in_place.error is not None
    assert in_place.error.index == kept.error.index == 117
    assert _fingerprint(in_place.state) == _fingerprint(kept.state_at(116))
    assert _fingerprint(in_place.initial) == _fingerprint(kept.initial)  # the start is never changed
    assert in_place.checkpoints["rail_era_start"] is not in_place.state
    assert _fingerprint(in_place.checkpoints["rail_era_start"]) == _fingerprint(kept.checkpoints["rail_era_start"])


def test_a_finished_in_place_replay_ends_where_the_kept_one_does() -> None:
    kept = Replay(GameLog.load(GAME)).run()
    in_place = Replay(GameLog.load(GAME), keep_states=False).run()
    assert _fingerprint(in_place.state) == _fingerprint(kept.state)
    assert [s.effects for s in in_place.steps] == [s.effects for s in kept.steps]
