"""What a review shows people agrees with itself: one figure per move, the cost, which the label reads.

The report's "Largest mistakes", the viewer and the CLI table show the cost (the label loss: the margin
the engine is sure of and the chance of winning given away), ordered by it, and no "±" (docs/analysis.md,
"What people are shown: the cost"). The case the issue quotes: a move whose first reading lost 15.3 VP
but of which the engine is sure of 2 VP carries no label and ranks below a blunder whose first reading
was 8.6 VP but which gave away the chance of winning.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from brass_stats.analysis.review import ActionReview, GameReview, Reviewer, margin_label
from brass_stats.bots import play_game
from brass_stats.bots.greedy import GreedyBot
from brass_stats.engine.policy import STRICT
from brass_stats.presentation.evaluation import largest_mistakes, viewer_review
from brass_stats.rules_data import load_rules


def judged(index: int, *, loss: float, se: float, sure: float, label_loss: float) -> ActionReview:
    return ActionReview(
        index=index,
        seat=index % 2,
        player=("ann", "bob")[index % 2],
        action=f"move {index}",
        win_after=(0.5, 0.5),
        judged=True,
        best=f"better {index}",
        best_value=loss,
        played_value=0.0,
        loss=loss,
        label=margin_label(label_loss),
        simulations=8,
        vp_after=(50.0, 50.0),
        loss_se=se,
        label_loss=label_loss,
        sure_loss=sure,
    )


@pytest.fixture
def quoted() -> GameReview:
    """The issue's rows: a noisy 15.3 VP first reading (sure of 2.0), a blunder read at 8.6 VP (sure of
    8.0, the rest of its 16.0 the chance of winning), a mistake of 9.0, a forced action."""
    actions = (
        judged(0, loss=15.3, se=13.3, sure=2.0, label_loss=2.0),
        judged(1, loss=8.6, se=0.6, sure=8.0, label_loss=16.0),
        judged(2, loss=9.5, se=0.5, sure=9.0, label_loss=9.0),
        ActionReview(index=3, seat=1, player="bob", action="pass", win_after=(0.5, 0.5), judged=False),
    )
    return GameReview("birmingham", ("ann", "bob"), actions, 8, 0, None)


def test_largest_mistakes_are_ordered_by_what_the_labels_count(quoted: GameReview) -> None:
    worst = largest_mistakes(quoted)
    assert [a.index for a in worst] == [1, 2, 0]
    assert [a.label for a in worst] == ["blunder", "mistake", None]
    assert [a.cost for a in worst] == [16.0, 9.0, 2.0]


def test_a_label_and_the_cost_shown_beside_it_always_agree(quoted: GameReview) -> None:
    for a in quoted.actions:
        assert margin_label(a.cost) == a.label
    assert quoted.actions[3].cost == 0.0  # a forced action costs nothing


def test_accuracy_counts_the_sure_margin_not_the_chance_of_winning(quoted: GameReview) -> None:
    assert [a.accuracy_loss for a in quoted.actions[:3]] == [2.0, 8.0, 9.0]


def test_a_review_stored_before_label_losses_shows_its_sure_loss_then_its_loss() -> None:
    a = judged(0, loss=12.0, se=1.0, sure=11.0, label_loss=11.0)
    assert replace(a, label_loss=None).cost == 11.0
    assert replace(a, label_loss=None, sure_loss=None).cost == 12.0
    assert replace(a, label_loss=None, sure_loss=None).accuracy_loss == 12.0


def test_the_viewer_explains_a_first_reading_only_where_more_samples_changed_its_label(quoted: GameReview) -> None:
    data = viewer_review(quoted, load_rules("birmingham"), 4)
    noisy, blunder, mistake, forced = data["acts"]
    assert (noisy["c"], noisy["s"], noisy["loss"], noisy["r"]) == (2.0, 2.0, 15.3, True)  # blunder read, none sure
    assert (blunder["c"], blunder["s"], blunder["r"]) == (16.0, 8.0, False)  # a mistake both ways; the chance
    assert (mistake["c"], mistake["r"]) == (9.0, False)
    assert forced == {"w": [0.5, 0.5], "j": False}
    assert "se" not in noisy  # no "±" to show


def test_a_real_review_labels_every_move_by_the_cost_it_shows() -> None:
    """The judge's own output: the last actions of a seeded greedy game (played out in the last round)."""
    log = play_game([GreedyBot(), GreedyBot()], seed=5)
    reviewer = Reviewer(log, STRICT, 8, 1, None)
    tail = [reviewer.review(i) for i in range(len(log.actions) - 6, len(log.actions))]
    assert any(a.judged for a in tail)
    for a in tail:
        assert a.label == margin_label(a.cost)
        assert a.cost >= a.accuracy_loss >= 0.0
