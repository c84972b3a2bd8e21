"""The win-probability model: probabilities, fairness, lazy loading, deterministic training, scores."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import numpy as np
import pytest

import brass_stats as bs
from brass_stats.bots.selfplay import generate
from brass_stats.bots.value import (
    FEATURE_NAMES,
    WinProbabilityModel,
    default_model,
    position_features,
    win_probabilities,
)
from brass_stats.bots.value import training as T

GAMES = [
    (bs.SAMPLES / "real" / "gm7vza-4p.json", bs.AS_PLAYED),
    (bs.SAMPLES / "real" / "wq9gs6-2p.json", bs.STRICT),
    (sorted((bs.SAMPLES / "lancashire").glob("game-5003-*.json"))[0], bs.STRICT),
]


@pytest.mark.parametrize(("path", "policy"), GAMES, ids=lambda x: getattr(x, "name", ""))
def test_probabilities_are_positive_and_sum_to_one_at_every_action(path, policy) -> None:
    r = bs.replay(bs.load(path), policy)
    states = [r.state_at(i) for i in range(-1, len(r.steps) - 1)]
    for probs in default_model().predict_many(states):
        assert len(probs) == r.state.num_players
        assert all(p > 0 for p in probs)
        assert math.isclose(sum(probs), 1.0, abs_tol=1e-9)


def test_a_finished_game_gives_its_result_with_ties_shared() -> None:
    r = bs.replay(bs.load(GAMES[0][0]), bs.AS_PLAYED)
    assert win_probabilities(r.state) == [1.0, 0.0, 0.0, 0.0]  # Player1 wins with 152 VP
    tied = r.state.copy()
    for p in tied.players:
        p.vp, p.income_space, p.money = 100, 30, 5
    assert win_probabilities(tied) == [0.25] * 4  # engine.scoring.win_shares (tests/test_win_shares.py)


def test_the_probabilities_see_no_hidden_card() -> None:
    """Two positions that differ only in cards nobody at the table sees get the same probabilities."""
    r = bs.replay(bs.load(GAMES[0][0]), bs.AS_PLAYED)
    state = r.state_at(30)
    other = state.copy()
    pool = [c for p in other.players for c in p.hand] + other.deck
    random.Random(3).shuffle(pool)
    for p in other.players:
        p.hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
    other.deck = pool
    assert [p.hand for p in other.players] != [p.hand for p in state.players]
    assert np.array_equal(position_features(state), position_features(other))
    assert win_probabilities(state) == win_probabilities(other)


def test_importing_the_package_neither_imports_lightgbm_nor_loads_the_model() -> None:
    code = (
        "import sys, brass_stats, brass_stats.bots.value as w; "
        "print('lightgbm' in sys.modules, w.default_model.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "0"]


def test_a_model_with_other_features_is_refused() -> None:
    lightgbm = pytest.importorskip("lightgbm")
    x = np.random.default_rng(0).random((50, 2))
    booster = lightgbm.train(
        {"objective": "binary", "verbosity": -1}, lightgbm.Dataset(x, label=(x[:, 0] > 0.5)), num_boost_round=2
    )
    with pytest.raises(ValueError, match="features"):
        WinProbabilityModel(booster)


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory: pytest.TempPathFactory) -> list:
    out = tmp_path_factory.mktemp("corpus")
    return generate(6, 2, 3, ["greedy"], out, progress=False)


def test_training_is_deterministic_and_round_trips_through_its_file(tiny_corpus, tmp_path) -> None:
    positions = T.load_positions(tiny_corpus)
    assert len(positions.rows) > 400 and all(r.shape == (2, len(FEATURE_NAMES)) for r in positions.rows)
    a = T.train(positions, rounds=5)
    b = T.train(positions, rounds=5)
    assert a.booster.model_to_string() == b.booster.model_to_string()
    a.save(tmp_path / "m.txt.gz")
    c = WinProbabilityModel.load(tmp_path / "m.txt.gz")
    state = bs.replay(bs.load(tiny_corpus[0])).state_at(20)
    assert c.predict(state) == a.predict(state)
    b.save(tmp_path / "n.txt.gz")
    assert (tmp_path / "m.txt.gz").read_bytes() == (tmp_path / "n.txt.gz").read_bytes()


def test_held_out_games_are_split_by_game_and_stably() -> None:
    names = [f"birmingham-2p-11-{i:05d}.json" for i in range(1000)]
    held = [n for n in names if T.held_out(n)]
    assert 150 <= len(held) <= 250
    assert held == [n for n in names if T.held_out("/elsewhere/" + n)]


def test_scores_of_the_uniform_guess_are_the_baseline_and_calibration_is_measured() -> None:
    labels = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    s = T.score([[0.5, 0.5]] * 3, labels)
    assert s.log_loss == pytest.approx(math.log(2)) == pytest.approx(s.baseline_log_loss)
    assert s.brier == pytest.approx(s.baseline_brier) == pytest.approx((0.5 + 0.5 + 0) / 3)
    assert s.ece == pytest.approx(0.0)
    sure = T.score([[0.9, 0.1]] * 2, [[1.0, 0.0], [0.0, 1.0]])
    # pairs predicted 0.9 happen half the time, pairs predicted 0.1 half the time: 0.4 off each
    assert sure.ece == pytest.approx(0.4)
    assert sure.log_loss == pytest.approx(-(math.log(0.9) + math.log(0.1)) / 2)


def test_the_corpus_has_each_kind_of_game_in_its_own_folder_with_its_own_seeds(tmp_path) -> None:
    recipes = (T.Recipe("greedy", ("greedy",), 1.0, 0), T.Recipe("explore", ("greedy:explore=0.5",), 0.5, 1))
    paths = T.corpus_paths(tmp_path, games=2, seed=5, recipes=recipes)
    assert len(paths) == 6 * (2 + 1) and all(p.exists() for p in paths)
    assert paths[0].name == "birmingham-2p-5-00000.json" and paths[0].parent.name == "birmingham-2p"
    explore = [p for p in paths if p.parent.name.endswith("-explore")]
    assert [p.name for p in explore][:2] == ["birmingham-2p-6-00000.json", "birmingham-3p-6-00000.json"]
    assert bs.load(explore[0]).source["bots"] == ["greedy:explore=0.5"] * 2
    stamps = [p.stat().st_mtime_ns for p in paths]
    assert T.corpus_paths(tmp_path, games=2, seed=5, recipes=recipes) == paths  # made once, then found
    assert [p.stat().st_mtime_ns for p in paths] == stamps
    positions = T.load_positions([paths[0], explore[0]])
    assert set(positions.bots) == {"greedy", "greedy:explore=0.5"}
    assert T.RECIPES[0].folder("c", "lancashire", 3).name == "lancashire-3p"
    assert [r.games(150) for r in T.RECIPES] == [150, 150, 38]


def test_the_final_vp_model_trains_deterministically_and_learns_the_final_scores(tiny_corpus, tmp_path) -> None:
    from brass_stats.bots.value.final_vp import FinalVpModel, train_final_vp

    positions = T.load_positions(tiny_corpus)
    # the label of every position of a game is that game's final VP, seat by seat
    finals = {tuple(bs.replay(bs.load(p)).state.players[s].vp for s in range(2)) for p in tiny_corpus}
    assert {tuple(v) for v in positions.final_vp} == finals
    a = train_final_vp(positions.rows, positions.final_vp, rounds=30)
    b = train_final_vp(positions.rows, positions.final_vp, rounds=30)
    assert a.booster.model_to_string() == b.booster.model_to_string()
    a.save(tmp_path / "v.txt.gz")
    c = FinalVpModel.load(tmp_path / "v.txt.gz")
    r = bs.replay(bs.load(tiny_corpus[0]))
    assert c.predict(r.state_at(40)) == a.predict(r.state_at(40))
    # fitted on these games, it is closer to their final VP late in the game than at the start
    late = [abs(v - f) for v, f in zip(a.predict(r.state_at(len(r.steps) - 5)), finals_of(r), strict=True)]
    early = [abs(v - f) for v, f in zip(a.predict(r.state_at(0)), finals_of(r), strict=True)]
    assert sum(late) < sum(early)
    # a finished game: the VP it ended with
    assert a.predict(r.state) == [float(v) for v in finals_of(r)]


def finals_of(r: bs.Replay) -> list[int]:
    return [p.vp for p in r.state.players]


def test_the_shipped_final_vp_model_reads_a_real_game_and_is_picklable() -> None:
    import pickle

    from brass_stats.bots.value.final_vp import default_final_vp_model

    r = bs.replay(bs.load(GAMES[0][0]), bs.AS_PLAYED)
    model = default_final_vp_model()
    copy = pickle.loads(pickle.dumps(model))
    state = r.state_at(100)
    assert copy.predict(state) == model.predict(state)
    # late in the game the expected final VP of every seat is at least what it has scored
    assert all(e >= p.vp - 5 for e, p in zip(model.predict(state), state.players, strict=True))
