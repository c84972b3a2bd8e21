"""The review judges on the compiled core exactly as on the reference (core/src/review.rs).

A judged action's whole review (its searches, its samples of the hidden cards, the rest of the turn,
the game played out in the last round, both models' readings, the loss and the label) is the same
on both paths, for games of bots and a real game replayed as played (whose actions that broke a rule
are read by the reference)."""

from __future__ import annotations

import pytest

import brass_stats as bs
from brass_stats.analysis.review.judge import Reviewer
from brass_stats.engine.compiled import SWITCH
from brass_stats.engine.policy import AS_PLAYED, STRICT

GAME = "generated/game-2012-00000.json"  # 2 players; a forced Shortfall at 62, a forced Pass at 76


def reviews(log: bs.GameLog, policy: object, indexes: list[int], monkeypatch: pytest.MonkeyPatch) -> list[object]:
    core = Reviewer(log, policy, 6, 3, None)  # type: ignore[arg-type]
    found = [core.review(i) for i in indexes]
    monkeypatch.setenv(SWITCH, "python")
    reference = Reviewer(log, policy, 6, 3, None)  # type: ignore[arg-type]
    expected = [reference.review(i) for i in indexes]
    monkeypatch.delenv(SWITCH)
    assert found == expected
    return found


def test_a_bot_games_reviews_are_the_reference_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    log = bs.load(bs.SAMPLES / GAME)
    # early, middle, the forced shortfall, the round before the last, a forced pass in the last round
    found = reviews(log, STRICT, [1, 30, 62, 63, 70, 75, 76], monkeypatch)
    assert any(r.judged for r in found) and any(not r.judged for r in found)  # type: ignore[attr-defined]


def test_a_real_games_reviews_as_played_are_the_reference_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    log = bs.load(bs.SAMPLES / "real" / "gm7vza-4p.json")
    r = bs.replay(log, AS_PLAYED)
    departing = [i for i, step in enumerate(r.steps) if any(e.kind == "deviation" for e in step.effects)]
    assert departing  # the game breaks a rule the policy tolerates: read by the reference
    reviews(log, AS_PLAYED, [2, 50, departing[0], len(r.steps) - 3], monkeypatch)


def test_the_core_reads_only_actions_it_applies_as_the_reference_does() -> None:
    """Checked once per action on the true position: an action the position does not allow (here, one
    of a later position, with cards the mover does not hold) is not read by the core."""
    log = bs.load(bs.SAMPLES / GAME)
    r = bs.replay(log)
    reviewer = Reviewer(log, STRICT, 4, 0, None)
    before, later = r.state_at(9), r.steps[40].action
    seat = before.current_player
    assert seat is not None
    played = r.steps[10].action
    assert reviewer.core.readings(before, seat, [played], [(1, 2)], False, (before.round, before.turn_pos))
    assert reviewer.core.readings(before, seat, [played, later], [(1, 2)], False, (before.round, 0)) is None
