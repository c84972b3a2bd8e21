"""What ``winprob train`` reports of the expected-final-VP model: held-out mean absolute errors per
(position, seat) pair, overall and per quarter of the game, recomputed here from the model's readings of
each position and the games' final VP.

A tiny model (a few boosting rounds on one game) is scored on two other games of two table sizes, so the
(position, seat) pairs are not a multiple of the positions: an error divided by anything but the pairs shows.
"""

from __future__ import annotations

import gzip
import re
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import brass_stats as bs
from brass_stats.bots.value import training as T
from brass_stats.bots.value.final_vp import FINAL_VP_PARAMS, FINAL_VP_ROUNDS, FinalVpModel, train_final_vp

TRAIN = bs.SAMPLES / "generated" / "game-2002-00001.json"  # 2 players
HELD = (
    bs.SAMPLES / "generated" / "game-2002-00000.json",  # 2 players
    sorted((bs.SAMPLES / "lancashire").glob("game-5003-*.json"))[0],  # 3 players
)


@pytest.fixture(scope="module")
def tiny_model() -> FinalVpModel:
    positions = T.load_positions([TRAIN])
    return train_final_vp(positions.rows, positions.final_vp, rounds=5)


def margin_of(vps: list[float], seat: int) -> float:
    """A seat's VP less the mean of its opponents' VP."""
    others = [v for s, v in enumerate(vps) if s != seat]
    return vps[seat] - statistics.fmean(others)


def expected_errors(model: FinalVpModel) -> dict[str, tuple[int, float, float]]:
    """Per group (all, and each quarter of the round clock): positions, mean absolute error of each seat's
    expected final VP, and of each seat's margin, over every (position, seat) pair of the held-out games,
    every position read on its own by the model."""
    vp_errors: dict[str, list[float]] = defaultdict(list)
    margin_errors: dict[str, list[float]] = defaultdict(list)
    positions: dict[str, int] = defaultdict(int)
    for path in HELD:
        r = bs.replay(bs.load(path))
        assert r.state.game_over
        final = [float(p.vp) for p in r.state.players]
        for i in range(len(r.steps)):
            state = r.state_at(i)
            if state.game_over:
                continue
            predicted = model.predict(state)
            quarter = min(int(state.progress() * 4), 3)
            for group in ("all", f"stage={quarter * 25}-{quarter * 25 + 25}%"):
                positions[group] += 1
                for seat in range(state.num_players):
                    vp_errors[group].append(abs(predicted[seat] - final[seat]))
                    margin_errors[group].append(abs(margin_of(predicted, seat) - margin_of(final, seat)))
    return {g: (positions[g], statistics.fmean(vp_errors[g]), statistics.fmean(margin_errors[g])) for g in positions}


def test_the_reported_margin_error_is_the_mean_over_position_seat_pairs(tiny_model: FinalVpModel) -> None:
    """``margin_mae`` (winprob train's ``margin_mae_vp``) and ``mae``: the mean absolute error per
    (position, seat) pair, overall and per quarter of the game."""
    report = T.final_vp_report(tiny_model, T.load_positions(HELD))
    expected = expected_errors(tiny_model)
    assert set(report) == set(expected) and len(report) == 5  # all, and the four quarters
    for group, (positions, mae, margin_mae) in expected.items():
        scores = report[group]
        assert scores.positions == positions, group
        assert scores.mae == pytest.approx(mae, rel=1e-9), group
        assert scores.margin_mae == pytest.approx(margin_mae, rel=1e-9), group
    # an error of a few VP per pair, not a sum over thousands of pairs
    assert 0.0 < report["all"].margin_mae < 100.0


def test_the_greedy_margin_error_beside_it_is_a_mean_over_the_same_pairs(tiny_model: FinalVpModel) -> None:
    """The greedy estimate's margin error (the baseline printed beside the model's) is a per-pair mean too:
    two games whose seats' estimates are each off by the same amount report that amount, however many
    positions and seats they have."""
    positions = T.load_positions(HELD)
    estimate = T.FEATURE_NAMES.index("own_estimate")
    shift = 7.0
    # every seat's greedy estimate set to its final VP, seat 0's plus ``shift``
    for rows, final in zip(positions.rows, positions.final_vp, strict=True):
        for seat in range(len(final)):
            rows[seat, estimate] = final[seat] + (shift if seat == 0 else 0.0)
    report = T.final_vp_report(tiny_model, positions)["all"]
    # seat 0's margin is off by shift; each opponent's by shift / (players - 1)
    pairs = [
        (shift if seat == 0 else shift / (len(final) - 1)) for final in positions.final_vp for seat in range(len(final))
    ]
    assert report.greedy_margin_mae == pytest.approx(statistics.fmean(pairs), rel=1e-9)
    assert report.greedy_mae == pytest.approx(shift * len(positions.final_vp) / len(pairs), rel=1e-9)


def test_the_win_models_report_holds_each_position_in_its_era_quarter_table_size_and_bots() -> None:
    """``winprob train``'s held-out report of the win model: besides "all", one group per era, per
    quarter of the round clock (stage=0-25% ... stage=75-100%), per table size and per bots; each group
    is scored on exactly its positions, counted here from the games replayed."""
    positions = T.load_positions(HELD)
    model = T.train(T.load_positions([TRAIN]), rounds=5)
    expected: dict[str, int] = defaultdict(int)
    for path in HELD:
        log = bs.load(path)
        r = bs.replay(log)
        bots = ", ".join(dict.fromkeys((log.source or {}).get("bots", ["unknown"])))
        for i in range(len(r.steps)):
            state = r.state_at(i)
            if state.game_over:
                continue
            quarter = min(int(state.progress() * 4), 3)
            for group in ("all", f"era={state.era}", f"stage={25 * quarter}-{25 * quarter + 25}%"):
                expected[group] += 1
            expected[f"players={state.num_players}"] += 1
            expected[f"bots={bots}"] += 1
    report = T.report(model, positions)
    assert {"stage=0-25%", "stage=25-50%", "stage=50-75%", "stage=75-100%"} <= set(report)
    assert {name: scores.positions for name, scores in report.items()} == dict(expected)


@pytest.mark.parametrize(
    ("name", "params", "rounds"),
    [("model", T.PARAMS, T.ROUNDS), ("final_vp", FINAL_VP_PARAMS, FINAL_VP_ROUNDS)],
)
def test_the_shipped_models_are_what_their_recipes_train(name: str, params: dict[str, Any], rounds: int) -> None:
    """``winprob train`` rebuilds the shipped models from their recipes (docs/analysis.md): each shipped
    file records the rounds and the LightGBM settings the recipe gives today, so a changed recipe cannot
    pass for the model the package ships."""
    text = gzip.decompress((Path(T.__file__).parent / f"{name}.txt.gz").read_bytes()).decode()
    recorded = dict(re.findall(r"^\[(\w+): (.*)\]$", text, re.M))
    assert len(re.findall(r"^Tree=", text, re.M)) == rounds == int(recorded["num_iterations"])
    for key, value in params.items():
        if isinstance(value, str):
            assert recorded[key] == value, key
        else:  # LightGBM writes True as 1 and 1.0 as 1
            assert float(recorded[key]) == pytest.approx(float(value)), key


def test_a_position_at_the_end_of_the_clock_is_in_the_last_quarter(tiny_model: FinalVpModel) -> None:
    """The clock reads 1 before the game is over when an era runs longer than its rounds
    (``GameState.progress`` caps it): both held-out reports count such a position in stage=75-100%,
    never in a fifth quarter."""
    positions = T.load_positions(HELD)
    positions.stage = [1.0] * len(positions.stage)
    win_model = T.train(T.load_positions([TRAIN]), rounds=5)
    for report in (T.report(win_model, positions), T.final_vp_report(tiny_model, positions)):
        stages = {name: scores.positions for name, scores in report.items() if name.startswith("stage=")}
        assert stages == {"stage=75-100%": len(positions.stage)}
