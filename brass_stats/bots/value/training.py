"""Rebuild the win-probability model from scratch: self-play corpus, positions, LightGBM, held-out report.

The corpus is made of self-play games with fixed seeds, both editions and 2-4 players, in three kinds
(:data:`RECIPES`): greedy bots; greedy bots that play a random action one time in ten (positions greedy
play never reaches, as a review must judge); and search bots. Every position after every action of a
game becomes one training row per seat, labelled with that seat's share of the game's win. Games (never
positions) are split into training and held-out sets by a hash of the file name, so no game is on both
sides.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...engine.scoring import win_shares
from ...errors import BrassError
from ...log.format import GameLog
from ...replay import replay
from ..selfplay import game_path, generate
from .booster import BASE_PARAMS
from .features import FEATURE_NAMES, position_features
from .final_vp import FinalVpModel, margins, train_final_vp
from .model import WinProbabilityModel

EDITIONS = ("birmingham", "lancashire")
PLAYER_COUNTS = (2, 3, 4)
PARAMS: dict[str, Any] = {**BASE_PARAMS, "objective": "cross_entropy", "num_leaves": 15}
"""The win model's settings: cross-entropy, as the labels are win shares in [0, 1] (ties shared)."""
ROUNDS = 150


@dataclass(frozen=True)
class Recipe:
    """One kind of corpus game: the bots (specs, every seat), the share of ``games`` per edition and
    player count, and the corpus seed's offset (so each kind has its own seeds)."""

    name: str
    bots: tuple[str, ...]
    share: float
    seed_offset: int

    def games(self, games: int) -> int:
        return max(1, round(games * self.share))

    def folder(self, corpus_dir: str | Path, edition: str, players: int) -> Path:
        suffix = "" if self.name == "greedy" else f"-{self.name}"
        return Path(corpus_dir) / f"{edition}-{players}p{suffix}"


RECIPES: tuple[Recipe, ...] = (
    Recipe("greedy", ("greedy",), 1.0, 0),
    Recipe("explore", ("greedy:explore=0.1",), 1.0, 1),
    Recipe("search", ("mcts:sims=25",), 0.25, 2),
)
"""The shipped model's corpus: with ``games=150`` and ``seed=11``, 150 greedy games (seed 11), 150
exploring greedy games (seed 12) and 38 search-bot games at 25 simulations a decision (seed 13) per
edition and player count."""


def corpus_paths(
    corpus_dir: str | Path,
    games: int = 150,
    seed: int = 11,
    workers: int | None = 1,
    recipes: Sequence[Recipe] | None = None,
) -> list[Path]:
    """The corpus's game files, made in ``corpus_dir`` where missing (each kind of game in its own
    folder, ``<edition>-<n>p[-<kind>]``); byte for byte the same whoever makes them. ``recipes``:
    :data:`RECIPES` unless given."""
    paths: list[Path] = []
    for recipe in RECIPES if recipes is None else recipes:
        for edition in EDITIONS:
            for n in PLAYER_COUNTS:
                sub = recipe.folder(corpus_dir, edition, n)
                count, corpus_seed = recipe.games(games), seed + recipe.seed_offset
                wanted = [game_path(sub, corpus_seed, i, n, edition) for i in range(count)]
                if not all(p.exists() for p in wanted):
                    generate(
                        count,
                        n,
                        corpus_seed,
                        list(recipe.bots),
                        sub,
                        workers=workers,
                        progress=False,
                        edition=edition,
                        overwrite=True,
                    )
                paths += wanted
    return paths


def held_out(path: str | Path, share: float = 0.2) -> bool:
    """Whether a game file belongs to the held-out set (a stable hash of its file name)."""
    digest = hashlib.sha256(Path(path).name.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") < share * 2**32


@dataclass
class Positions:
    """Positions of many games: feature rows (one per seat), win shares and final VP, and where each
    position is."""

    rows: list[np.ndarray] = field(default_factory=list)
    labels: list[list[float]] = field(default_factory=list)
    final_vp: list[list[float]] = field(default_factory=list)
    era: list[str] = field(default_factory=list)
    stage: list[float] = field(default_factory=list)
    game: list[int] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)  # the game's seats, e.g. "greedy" or "greedy, mcts"

    def add_game(self, log: GameLog, game: int) -> None:
        r = replay(log)
        if r.error is not None or not r.state.game_over:
            raise ValueError(f"game {game}: not a finished legal game")
        shares = list(win_shares(r.state))
        final_vp = [float(p.vp) for p in r.state.players]
        bots = ", ".join(dict.fromkeys((log.source or {}).get("bots", ["unknown"])))
        for i in range(len(r.steps)):
            state = r.state_at(i)
            if state.game_over:
                continue
            self.rows.append(position_features(state))
            self.labels.append(shares)
            self.final_vp.append(final_vp)
            self.era.append(state.era)
            self.stage.append(state.progress())
            self.game.append(game)
            self.bots.append(bots)

    @property
    def sizes(self) -> list[int]:
        return [len(r) for r in self.rows]

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        return np.vstack(self.rows), np.concatenate([np.asarray(x, dtype=float) for x in self.labels])


def load_positions(paths: Iterable[str | Path]) -> Positions:
    out = Positions()
    for i, p in enumerate(paths):
        out.add_game(GameLog.load(p), i)
    return out


def train(positions: Positions, rounds: int = ROUNDS, params: dict[str, Any] | None = None) -> WinProbabilityModel:
    """Fit the booster on ``positions`` (deterministic: one thread, fixed seed)."""
    import lightgbm

    x, y = positions.matrix()
    data = lightgbm.Dataset(x, label=y, feature_name=list(FEATURE_NAMES), free_raw_data=True)
    booster = lightgbm.train({**PARAMS, **(params or {})}, data, num_boost_round=rounds)
    return WinProbabilityModel(booster)


@dataclass(frozen=True)
class Scores:
    """Held-out quality of probabilities: per position, then averaged."""

    positions: int
    log_loss: float
    baseline_log_loss: float  # every seat 1/N
    brier: float
    baseline_brier: float
    ece: float  # expected calibration error over (position, seat) pairs, 10 equal-width bins
    bins: tuple[tuple[float, float, int], ...]  # (mean predicted, mean observed, pairs) per non-empty bin


def score(probs: Sequence[Sequence[float]], labels: Sequence[Sequence[float]], n_bins: int = 10) -> Scores:
    """Log loss (cross-entropy against the win shares), Brier score and calibration of ``probs``."""
    ll = bll = br = bbr = 0.0
    pred: list[float] = []
    seen: list[float] = []
    for p, y in zip(probs, labels, strict=True):
        n = len(p)
        ll -= sum(yi * math.log(max(pi, 1e-12)) for pi, yi in zip(p, y, strict=True))
        bll -= sum(yi * math.log(1 / n) for yi in y)
        br += sum((pi - yi) ** 2 for pi, yi in zip(p, y, strict=True))
        bbr += sum((1 / n - yi) ** 2 for yi in y)
        pred += p
        seen += y
    m = max(len(probs), 1)
    bins, ece = calibration_bins(pred, seen, n_bins)
    return Scores(len(probs), ll / m, bll / m, br / m, bbr / m, ece, bins)


def calibration_bins(
    pred: Sequence[float], seen: Sequence[float], n_bins: int = 10
) -> tuple[tuple[tuple[float, float, int], ...], float]:
    """Reliability bins (mean predicted, mean observed, count) and the expected calibration error."""
    p = np.asarray(pred, dtype=float)
    y = np.asarray(seen, dtype=float)
    which = np.minimum((p * n_bins).astype(int), n_bins - 1)
    out = []
    ece = 0.0
    for b in range(n_bins):
        mask = which == b
        k = int(mask.sum())
        if k:
            mp, my = float(p[mask].mean()), float(y[mask].mean())
            out.append((mp, my, k))
            ece += k / len(p) * abs(mp - my)
    return tuple(out), ece


def report(model: WinProbabilityModel, positions: Positions) -> dict[str, Scores]:
    """Held-out scores overall, per era, and per stage of the game (quarters of the round clock)."""
    probs = model.predict_rows(np.vstack(positions.rows), positions.sizes)
    groups: dict[str, list[int]] = {"all": list(range(len(probs)))}
    for i, (era, stage) in enumerate(zip(positions.era, positions.stage, strict=True)):
        groups.setdefault(f"era={era}", []).append(i)
        quarter = min(int(stage * 4), 3)
        groups.setdefault(f"stage={quarter * 25}-{quarter * 25 + 25}%", []).append(i)
        groups.setdefault(f"players={len(probs[i])}", []).append(i)
        groups.setdefault(f"bots={positions.bots[i]}", []).append(i)
    return {
        name: score([probs[i] for i in idx], [positions.labels[i] for i in idx]) for name, idx in sorted(groups.items())
    }


class TooFewGames(BrassError):
    """The corpus is too small to split into training and held-out games."""


@dataclass(frozen=True)
class Rebuilt:
    """What :func:`rebuild` made: the model, its held-out scores, and how many games went where."""

    model: WinProbabilityModel
    scores: dict[str, Scores]
    training_games: int
    held_out_games: int
    final_vp_model: FinalVpModel
    final_vp_scores: dict[str, FinalVpScores]


def rebuild(
    corpus_dir: str | Path,
    games: int = 150,
    seed: int = 11,
    workers: int | None = 1,
    rounds: int = ROUNDS,
) -> Rebuilt:
    """The shipped model from scratch: the self-play corpus (:func:`corpus_paths`: made in ``corpus_dir``
    unless its games are already there), positions, training on the training games, scores on the
    held-out games. ``games`` is the number of greedy games per edition and player count; the other
    kinds of game scale with it (:data:`RECIPES`)."""
    paths = corpus_paths(corpus_dir, games, seed, workers)
    train_paths = [p for p in paths if not held_out(p)]
    test_paths = [p for p in paths if held_out(p)]
    if not train_paths or not test_paths:
        raise TooFewGames(
            f"{len(paths)} games leave no {'training' if not train_paths else 'held-out'} game "
            "(about 1 game in 5 is held out): make more games"
        )
    trained_on = load_positions(train_paths)
    model = train(trained_on, rounds=rounds)
    vp_model = train_final_vp(trained_on.rows, trained_on.final_vp)
    held = load_positions(test_paths)
    return Rebuilt(
        model, report(model, held), len(train_paths), len(test_paths), vp_model, final_vp_report(vp_model, held)
    )


@dataclass(frozen=True)
class FinalVpScores:
    """Held-out error of the expected final VP (mean absolute, in VP) beside the greedy estimate's."""

    positions: int
    mae: float
    greedy_mae: float  # the greedy evaluation's estimate of each seat's final VP (a feature of the model)
    margin_mae: float  # each seat's margin over its opponents' mean
    greedy_margin_mae: float


def final_vp_report(model: FinalVpModel, positions: Positions) -> dict[str, FinalVpScores]:
    """Held-out error of ``model`` overall and per stage of the game (quarters of the round clock)."""
    predicted = model.predict_rows(np.vstack(positions.rows), positions.sizes)
    estimate = FEATURE_NAMES.index("own_estimate")
    groups: dict[str, list[int]] = {"all": list(range(len(predicted)))}
    for i, stage in enumerate(positions.stage):
        quarter = min(int(stage * 4), 3)
        groups.setdefault(f"stage={quarter * 25}-{quarter * 25 + 25}%", []).append(i)
    out = {}
    for name, idx in sorted(groups.items()):
        err = greedy = merr = mgreedy = 0.0
        pairs = 0
        for i in idx:
            truth = positions.final_vp[i]
            guess = [float(x) for x in positions.rows[i][:, estimate]]
            for s in range(len(truth)):
                err += abs(predicted[i][s] - truth[s])
                greedy += abs(guess[s] - truth[s])
                merr += abs(margins(predicted[i])[s] - margins(truth)[s])
                mgreedy += abs(margins(guess)[s] - margins(truth)[s])
                pairs += 1
        m = max(pairs, 1)
        out[name] = FinalVpScores(len(idx), err / m, greedy / m, merr / m, mgreedy / m)
    return out
