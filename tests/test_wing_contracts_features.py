"""What the win-probability model sees of a position (``position_features``), stated column by column.

Each column is checked against a computation of its own from the rules' public facts (the state's
money, VP, income, hands' sizes, who moves) or from the other columns of the same rows (a seat's lead
is its estimate minus its best opponent's), on positions of recorded games with 2, 3 and 4 players.
"""

from __future__ import annotations

import numpy as np
import pytest

import brass_stats as bs
from brass_stats.bots.greedy import explain
from brass_stats.bots.value import FEATURE_NAMES, position_features, win_probabilities

# calibration_bins is not exported by the package: module-level import (as tests/test_win_probability.py)
from brass_stats.bots.value.training import calibration_bins
from brass_stats.engine.state import GameState

COL = {name: i for i, name in enumerate(FEATURE_NAMES)}
TERMS = ("vp", "pending", "rescoring", "unflipped", "link_growth", "reach", "money", "income", "risk", "mat")

GAMES = (
    "real/wq9gs6-2p.json",
    "generated/game-3003-00000.json",
    "real/gm7vza-4p.json",
    "lancashire/game-5003-00000.json",
)


def positions(path: str, every: int = 17) -> list[GameState]:
    """Every ``every``-th position of a sample game before its end (both eras)."""
    r = bs.replay(bs.load(bs.SAMPLES / path))
    states = [r.state_at(i) for i in range(-1, len(r.steps), every)]
    return [s for s in states if not s.game_over]


@pytest.fixture(scope="module", params=GAMES)
def game_positions(request: pytest.FixtureRequest) -> list[GameState]:
    return positions(request.param)


def column(rows: np.ndarray, name: str) -> np.ndarray:
    return rows[:, COL[name]]


def test_each_seat_gets_one_row_of_every_feature(game_positions: list[GameState]) -> None:
    for state in game_positions:
        rows = position_features(state)
        assert rows.shape == (state.num_players, len(FEATURE_NAMES))
        assert np.isfinite(rows).all()


def test_the_own_terms_are_the_seats_greedy_terms_without_the_hand(game_positions: list[GameState]) -> None:
    for state in game_positions:
        rows = position_features(state)
        for s in range(state.num_players):
            terms = explain(state, s, include_hand=False)
            assert set(terms) == set(TERMS)  # every term of the evaluation is a feature
            for t in TERMS:
                assert rows[s, COL[f"own_{t}"]] == pytest.approx(terms[t])
            # the estimate is the sum of the terms (the seat's estimated final VP)
            assert rows[s, COL["own_estimate"]] == pytest.approx(sum(rows[s, COL[f"own_{t}"]] for t in TERMS))


def test_a_seat_is_compared_with_its_opponents_never_with_itself(game_positions: list[GameState]) -> None:
    """lead = own minus the best opponent's; mean gap = own minus the opponents' mean; rank = how many
    opponents are estimated strictly higher. Each seat's opponents are the other seats."""
    for state in game_positions:
        rows = position_features(state)
        n = state.num_players
        est = column(rows, "own_estimate")
        vps = [p.vp for p in state.players]
        incomes = [state.income_level(s) for s in range(n)]
        for s in range(n):
            opp = [o for o in range(n) if o != s]
            assert rows[s, COL["lead_estimate"]] == pytest.approx(est[s] - max(est[o] for o in opp))
            assert rows[s, COL["mean_gap_estimate"]] == pytest.approx(est[s] - np.mean([est[o] for o in opp]))
            assert rows[s, COL["rank_estimate"]] == sum(1 for o in opp if est[o] > est[s])
            assert rows[s, COL["lead_vp"]] == vps[s] - max(vps[o] for o in opp)
            assert rows[s, COL["own_income_level"]] == incomes[s]
            assert rows[s, COL["lead_income_level"]] == incomes[s] - max(incomes[o] for o in opp)
        # the best estimate leads (by 0 when tied), every other seat trails
        leads = column(rows, "lead_estimate")
        assert (leads >= 0).sum() >= 1 and (leads > 0).sum() <= 1
        assert sorted(column(rows, "rank_estimate"))[0] == 0  # someone is ranked first


def test_the_seat_facts_are_the_states_public_counts(game_positions: list[GameState]) -> None:
    for state in game_positions:
        rows = position_features(state)
        for s, p in enumerate(state.players):
            assert rows[s, COL["own_money_raw"]] == p.money
            assert rows[s, COL["own_loans"]] == p.loans
            assert rows[s, COL["own_tiles_left"]] == p.tiles_left
            assert rows[s, COL["own_links_left"]] == p.link_tiles
            assert rows[s, COL["own_cards"]] == len(p.hand)


def test_only_the_seat_to_move_is_flagged_as_moving(game_positions: list[GameState]) -> None:
    for state in game_positions:
        flags = column(position_features(state), "seat_to_move")
        expected = [1.0 if s == state.current_player else 0.0 for s in range(state.num_players)]
        assert list(flags) == expected


def test_the_table_columns_say_players_edition_and_era(game_positions: list[GameState]) -> None:
    for state in game_positions:
        rows = position_features(state)
        assert set(column(rows, "players")) == {state.num_players}
        assert set(column(rows, "lancashire")) == {1.0 if state.rules.edition == "lancashire" else 0.0}
        assert set(column(rows, "rail_era")) == {1.0 if state.era == "rail" else 0.0}


def test_the_clock_runs_from_zero_through_one_half_at_the_rail_era_to_the_last_round() -> None:
    """The progress feature: 0 before the first action, exactly 1/2 when the Rail Era begins (two eras
    of equal rounds), never falling, and in the game's last round (above 1 - 1/rounds) before its end."""
    for path in ("real/wq9gs6-2p.json", "generated/game-3003-00000.json"):
        r = bs.replay(bs.load(bs.SAMPLES / path))
        states = [r.state_at(i) for i in range(-1, len(r.steps))]
        live = [s for s in states if not s.game_over]
        clocks = [float(position_features(s)[0, COL["progress"]]) for s in live]
        assert clocks[0] == 0.0
        assert all(a <= b for a, b in zip(clocks, clocks[1:], strict=False))
        first_rail = next(i for i, s in enumerate(live) if s.era == "rail")
        assert clocks[first_rail] == 0.5 and clocks[first_rail - 1] < 0.5
        rounds = 2 * live[0].rules.rounds_per_era[live[0].num_players]
        assert 1 - 1 / rounds <= clocks[-1] < 1.0
        for s, c in zip(live, clocks, strict=True):  # every seat's row reads the same clock
            assert set(position_features(s)[:, COL["progress"]]) == {c}


def test_probabilities_follow_the_seats_not_their_order() -> None:
    """The model scores each seat's row on its own: probabilities are in seat order, and the seat whose
    features look better (here: far ahead at the end of the game) gets the larger share."""
    r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
    state = r.state_at(len(r.steps) - 3)
    assert not state.game_over
    p = win_probabilities(state)
    est = column(position_features(state), "own_estimate")
    leader = int(np.argmax(est))
    assert abs(est[0] - est[1]) > 10  # a clear lead near the end
    assert p[leader] > 0.8 and sum(p) == pytest.approx(1.0)


def test_calibration_bins_are_tenths_and_a_certain_prediction_is_in_the_top_one() -> None:
    """Reliability bins: [0, 0.1), ..., [0.9, 1.0]; 1.0 belongs to the last bin, not past it."""
    pred = [0.05, 0.15, 0.85, 0.95, 1.0]
    seen = [0.0, 0.0, 1.0, 1.0, 0.0]
    bins, ece = calibration_bins(pred, seen, 10)
    expected = [(0.05, 0.0, 1), (0.15, 0.0, 1), (0.85, 1.0, 1), ((0.95 + 1.0) / 2, 0.5, 2)]
    assert [b[2] for b in bins] == [e[2] for e in expected]
    for b, e in zip(bins, expected, strict=True):
        assert b[0] == pytest.approx(e[0]) and b[1] == pytest.approx(e[1])
    assert ece == pytest.approx(sum(k / len(pred) * abs(mp - my) for mp, my, k in expected))
