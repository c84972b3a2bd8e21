"""The results of a review: one :class:`ActionReview` per action, a :class:`GameReview` per game (with each
player's :class:`PlayerReview` summary), their JSON, and the game's rows for the ``analysis`` table.

>>> a = ActionReview(0, 0, "Ann", "Ann passes", (0.5, 0.5), judged=True, loss=0.0)
>>> review = GameReview("birmingham", ("Ann", "Bob"), (a,), 10, 0, None)
>>> [(p.player, p.judged, p.accuracy is not None) for p in review.summary]
[('Ann', 1, True), ('Bob', 0, False)]
>>> review.to_json()["actions"][0]["win_after"]
[0.5, 0.5]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ...storage.analysis_table import analysis_rows
from .judgement import margin_game_accuracy


@dataclass(frozen=True)
class ActionReview:
    """One action of a reviewed game (``docs/analysis.md`` defines each figure)."""

    index: int  # the action's index in the log (0-based; shown to people as index + 1)
    seat: int
    player: str
    action: str  # the action played, in the move list's notation
    win_after: tuple[float, ...]  # each seat's win probability after the action (the engine's opinion)
    judged: bool  # False: the action was forced (the only legal one)
    best: str | None = None  # the best action the judge found, in notation
    best_action: dict[str, Any] | None = None  # the same, as log JSON (for drawing it)
    best_value: float | None = None  # the mover's expected margin (VP) after the best action found (in
    # the last round plus its share of the win, valued at judge.WIN_VP_PER_PLAYER VP per player)
    played_value: float | None = None  # ... and after the action played
    loss: float | None = None  # VP of expected margin lost: best_value - played_value, never below 0
    label: str | None = None  # "inaccuracy", "mistake", "blunder" or None: by label_loss
    simulations: int = 0
    vp_after: tuple[float, ...] = ()  # each seat's expected final VP after the action
    loss_se: float | None = None  # the standard error of the sure loss's samples (loss: the first two only)
    win_loss: float | None = None  # the win probability the action lost against the best compared one
    win_label: str | None = None  # the label lichess's win-probability scale would give
    compared: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...] = ()  # (win, expected VP) per action
    # compared (the action played first, then the search's proposals), averaged over the samples
    search_rank: int | None = None  # the action played among the search's root actions (0: most visited)
    deep_loss: float | None = None  # the loss a search of twice the budget saw (asked before labelling)
    label_loss: float | None = None  # what the label counts: sure_loss and, unless that was measured on
    # games played out (the last rounds), win_loss valued at judge.WIN_VP_PER_PLAYER VP per player, at
    # most what a deeper search sees when that raises the label (docs/analysis.md)
    sure_loss: float | None = None  # the loss the engine is sure of, >= 0: the mean over all its samples
    # (the first two and, for a loss that would be labelled, four more) less loss_se, and at most deep_loss

    @property
    def cost(self) -> float:
        """What the action cost, in VP: what its label counts (``label_loss``), 0 for a forced action.

        A review stored before label losses existed: its sure loss, else its loss."""
        if not self.judged:
            return 0.0
        found = next((v for v in (self.label_loss, self.sure_loss, self.loss) if v is not None), 0.0)
        return max(0.0, found)

    @property
    def accuracy_loss(self) -> float:
        """The loss the mover's accuracy counts, in VP: the sure loss (a review stored before it: the loss)."""
        return self.sure_loss if self.sure_loss is not None else (self.loss or 0.0)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["win_after"] = list(self.win_after)
        d["vp_after"] = list(self.vp_after)
        d["compared"] = [{"win": list(w), "vp": list(v)} for w, v in self.compared]
        return d


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    player: str
    judged: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: every action (up to the first illegal one) and each player's summary."""

    edition: str
    players: tuple[str, ...]
    actions: tuple[ActionReview, ...]
    simulations: int
    seed: int
    stopped: dict[str, Any] | None  # the first illegal action (index, rule, message), if any

    @property
    def summary(self) -> tuple[PlayerReview, ...]:
        out = []
        for seat, name in enumerate(self.players):
            mine = [a for a in self.actions if a.seat == seat and a.judged]
            labels = [a.label for a in mine]
            out.append(
                PlayerReview(
                    seat,
                    name,
                    len(mine),
                    margin_game_accuracy([a.accuracy_loss for a in mine]),
                    labels.count("inaccuracy"),
                    labels.count("mistake"),
                    labels.count("blunder"),
                )
            )
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": list(self.players),
            "simulations": self.simulations,
            "seed": self.seed,
            "stopped": self.stopped,
            "summary": [asdict(p) for p in self.summary],
            "actions": [a.to_json() for a in self.actions],
        }


def review_rows(review: GameReview, game_id: str, as_played: bool = False) -> Iterable[dict[str, Any]]:
    """One row per reviewed action, for the ``analysis`` table (see ``docs/storage-schema.md``);
    ``as_played``: the game was replayed as played (:data:`~brass_stats.engine.policy.AS_PLAYED`).
    The storage layer makes the rows from the review's plain values
    (:func:`~brass_stats.storage.analysis_table.analysis_rows`)."""
    return analysis_rows(
        game_id, [a.to_json() for a in review.actions], review.simulations, review.seed, as_played=as_played
    )


__all__ = ["ActionReview", "GameReview", "PlayerReview", "review_rows"]
