"""The replay pauses the cyclic garbage collector and hands back a collector that is on, with the
replay's objects in the oldest generation and whatever the application froze still frozen."""

from __future__ import annotations

import gc
from pathlib import Path

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


def test_objects_the_application_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        Replay(GameLog.load(GAME)).run()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
