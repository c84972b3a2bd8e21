"""The core's learned models against the reference's (brass_stats.bots.value and LightGBM itself).

Held equal, with ``==`` on floats:

* the core's ``Booster`` (its own reader of LightGBM's text format) and ``lightgbm.Booster.predict``
  (``num_threads=1``, and ``raw_score=True``), on both shipped models: every seat's row of positions
  from played games (both editions, 2-4 players, random and greedy play), the same rows with a third
  of their values moved onto a split threshold of the model or the float beside it (about 30,000
  rows), then Hypothesis-drawn rows (each feature at or beside a threshold, zeros of both signs,
  values inside LightGBM's zero threshold, huge values, infinities, any float; never NaN, which no
  feature can be);
* the same on small models trained here with what the shipped ones lack: NaN and zero missing
  values (NaN rows then), a binary objective with a sigmoid parameter; models the core does not
  implement (categorical splits) are refused;
* the core's ``position_features`` and ``position_features(state)`` at every position of those games
  (the progress column against ``GameState.progress()``), and the core's win probabilities and
  expected final VP against ``WinProbabilityModel.predict`` and ``FinalVpModel.predict``, finished
  games included.
"""

from __future__ import annotations

import gzip
import math
import sys
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from core_parity import play_positions, random_chooser  # noqa: E402

from brass_stats.bots.greedy import GreedyBot  # noqa: E402
from brass_stats.bots.value import default_final_vp_model, default_model  # noqa: E402
from brass_stats.bots.value.features import FEATURE_NAMES, position_features  # noqa: E402
from brass_stats.engine.compiled import available, core_module, to_core  # noqa: E402

pytestmark = pytest.mark.skipif(not available(), reason="the compiled core is not built")
lightgbm = pytest.importorskip("lightgbm")

SHIPPED = ("model.txt.gz", "final_vp.txt.gz")
ZERO_THRESHOLD = float(np.float32(1e-35))  # LightGBM's kZeroThreshold


@cache
def model_text(name: str) -> str:
    return gzip.decompress(resources.files("brass_stats.bots.value").joinpath(name).read_bytes()).decode("utf-8")


@cache
def boosters(name: str) -> tuple[object, object]:
    """(LightGBM's booster, the core's) for one model text."""
    text = model_text(name)
    return lightgbm.Booster(model_str=text), core_module().Booster(text)


def exploring_greedy(state, legal, rng):  # type: ignore[no-untyped-def]
    """Greedy play with a random move one time in five (positions greedy play alone never reaches)."""
    return random_chooser(state, legal, rng) if rng.random() < 0.2 else GreedyBot().choose(state, legal, rng)


GAMES = [
    (edition, players, seed, chooser, options)
    for edition in ("birmingham", "lancashire")
    for players in (2, 3, 4)
    for seed, chooser, options in (
        (11, random_chooser, None),
        (12, random_chooser, None),
        (13, GreedyBot().choose, None),
        (14, exploring_greedy, None),
    )
] + [("birmingham", 3, 15, random_chooser, {"introductory": True})]


@cache
def positions() -> list:
    """Every position of the sample games (reference states; the last of each is finished)."""
    return [s for e, n, seed, chooser, opts in GAMES for s in play_positions(e, n, seed, chooser, opts)]


@cache
def position_rows() -> np.ndarray:
    """The reference's feature rows of every unfinished position, stacked."""
    return np.vstack([position_features(s) for s in positions() if not s.game_over])


def assert_same_predictions(name: str, rows: np.ndarray) -> None:
    reference, core = boosters(name)
    listed = rows.tolist()
    want = reference.predict(rows, num_threads=1)
    got = np.array(core.predict(listed))
    assert np.array_equal(got, want), f"{name}: {np.sum(got != want)} of {len(rows)} predictions differ"
    want_raw = reference.predict(rows, num_threads=1, raw_score=True)
    got_raw = np.array(core.predict_raw(listed))
    assert np.array_equal(got_raw, want_raw), f"{name}: {np.sum(got_raw != want_raw)} raw scores differ"


# -- the booster -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_predictions_of_played_positions_equal_lightgbm(name: str) -> None:
    rows = position_rows()
    assert len(rows) > 5000
    assert_same_predictions(name, rows)


@cache
def thresholds(name: str) -> list[list[float]]:
    """Each feature's split thresholds in the model."""
    out: list[set[float]] = [set() for _ in FEATURE_NAMES]

    def walk(node: dict) -> None:
        if "split_feature" in node:
            out[node["split_feature"]].add(float(node["threshold"]))
            walk(node["left_child"])
            walk(node["right_child"])

    for tree in boosters(name)[0].dump_model()["tree_info"]:
        walk(tree["tree_structure"])
    return [sorted(s) for s in out]


SPECIAL = [0.0, -0.0, ZERO_THRESHOLD, -ZERO_THRESHOLD, 1e-36, -1e-36, math.nextafter(ZERO_THRESHOLD, 1.0)]
SPECIAL += [1e300, -1e300, math.inf, -math.inf, 2.0**53, 0.5, 1.0, 2.0, 3.0, 4.0]


def feature_value(near: list[float]) -> st.SearchStrategy[float]:
    """A threshold or a float beside it, a special value, or any finite float."""
    choices = [st.sampled_from(SPECIAL), st.floats(allow_nan=False, allow_infinity=False)]
    if near:
        choices.insert(
            0,
            st.tuples(st.sampled_from(near), st.sampled_from([-math.inf, 0.0, math.inf])).map(
                lambda tv: tv[0] if tv[1] == 0.0 else math.nextafter(tv[0], tv[1])
            ),
        )
    return st.one_of(*choices)


def drawn_rows(name: str) -> st.SearchStrategy[list[tuple[float, ...]]]:
    return st.lists(st.tuples(*(feature_value(t) for t in thresholds(name))), min_size=1, max_size=30)


ROWS = settings(
    max_examples=200, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.parametrize("name", SHIPPED)
def test_predictions_of_drawn_rows_equal_lightgbm(name: str) -> None:
    assert sum(len(t) for t in thresholds(name)) > 100

    @ROWS
    @given(drawn_rows(name))
    def check(rows: list[tuple[float, ...]]) -> None:
        assert_same_predictions(name, np.array(rows, dtype=np.float64))

    check()


@pytest.mark.parametrize("name", SHIPPED)
def test_predictions_of_rows_beside_the_thresholds_equal_lightgbm(name: str) -> None:
    # the played rows four times over, about a third of their values moved onto a split threshold
    # of the model, the float below it or the float above it, or a special value
    rng = np.random.default_rng(11)
    rows = np.repeat(position_rows(), 4, axis=0)
    for f, near in enumerate(thresholds(name)):
        at = np.nonzero(rng.random(len(rows)) < 0.35)[0]
        if near and len(at):
            picked = np.array(near)[rng.integers(0, len(near), len(at))]
            side = rng.choice([-math.inf, 0.0, math.inf], len(at))
            rows[at, f] = np.where(side == 0.0, picked, np.nextafter(picked, side))
        at = np.nonzero(rng.random(len(rows)) < 0.03)[0]
        rows[at, f] = rng.choice(SPECIAL, len(at))
    assert len(rows) > 25000
    assert_same_predictions(name, rows)


def small_model(missing: str, objective: dict, categorical: bool = False) -> str:
    """A small model trained here: NaN or zero missing values, or a categorical feature."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(3000, 3))
    x[rng.random(3000) < 0.2, 0] = np.nan if missing == "nan" else 0.0
    x[rng.random(3000) < 0.3, 1] = 0.0
    x[:, 2] = rng.integers(0, 5, 3000)
    y = (np.nan_to_num(x[:, 0], nan=2.0) + x[:, 1] + (x[:, 2] == 3) > 0.5).astype(float)
    params = {"verbosity": -1, "num_threads": 1, "deterministic": True, "seed": 0, "min_data_in_leaf": 20}
    params |= objective | ({"zero_as_missing": True} if missing == "zero" else {})
    data = lightgbm.Dataset(x, y, categorical_feature=[2] if categorical else "auto")
    return lightgbm.train(params, data, num_boost_round=20).model_to_string()


@pytest.mark.parametrize(
    ("missing", "objective"),
    [
        ("nan", {"objective": "binary", "sigmoid": 0.7}),
        ("zero", {"objective": "binary"}),
        ("nan", {"objective": "regression"}),
        ("zero", {"objective": "cross_entropy"}),
    ],
)
def test_missing_values_and_objectives_equal_lightgbm(missing: str, objective: dict) -> None:
    text = small_model(missing, objective)
    decisions = {int(d) for line in text.splitlines() if line.startswith("decision_type=") for d in line[14:].split()}
    assert decisions & ({8, 10} if missing == "nan" else {4, 6})  # the missing type is in the model
    reference, core = lightgbm.Booster(model_str=text), core_module().Booster(text)
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(5000, 3)) * rng.choice([0.0, 1e-36, 1.0, 1e3], size=(5000, 3))
    rows[rng.random(5000) < 0.2, 0] = np.nan
    rows[rng.random(5000) < 0.1, 1] = np.nan
    assert np.array_equal(np.array(core.predict(rows.tolist())), reference.predict(rows, num_threads=1))
    raw = reference.predict(rows, num_threads=1, raw_score=True)
    assert np.array_equal(np.array(core.predict_raw(rows.tolist())), raw)


def test_models_the_core_does_not_implement_are_refused() -> None:
    booster = core_module().Booster
    with pytest.raises(ValueError, match="categorical"):
        booster(small_model("nan", {"objective": "binary"}, categorical=True))
    with pytest.raises(ValueError, match="num_class"):
        booster(small_model("nan", {"objective": "multiclass", "num_class": 2}))
    with pytest.raises(ValueError, match="not supported"):
        booster(small_model("nan", {"objective": "regression", "reg_sqrt": True}))
    with pytest.raises(ValueError):
        booster("tree\nversion=v4\n")
    with pytest.raises(ValueError, match="features"):
        boosters(SHIPPED[0])[1].predict([[0.0] * (len(FEATURE_NAMES) - 1)])


def test_the_shipped_models_read_whole() -> None:
    for name, trees in zip(SHIPPED, (150, 200), strict=True):
        core = boosters(name)[1]
        assert core.num_trees == boosters(name)[0].num_trees() == trees
        assert tuple(core.feature_names) == FEATURE_NAMES


# -- features and models of positions ------------------------------------------------------------


def test_features_equal_the_reference_at_every_position() -> None:
    core = core_module()
    compared = 0
    for state in positions():
        want = position_features(state)
        got = np.array(core.position_features(to_core(state)))
        assert got.shape == want.shape
        assert float(got[0, FEATURE_NAMES.index("progress")]) == state.progress(), state.action_count
        bad = [(s, FEATURE_NAMES[f]) for s, f in zip(*np.nonzero(got != want), strict=True)]
        assert not bad, f"action {state.action_count}: {bad[:5]}: {got[bad[0][0]]} / {want[bad[0][0]]}"
        # bit for bit: the zeros' signs too
        assert got.tobytes() == want.tobytes(), f"action {state.action_count}: a zero's sign differs"
        compared += 1
    assert compared > 2000


def test_model_predictions_equal_the_reference_at_every_position() -> None:
    core = core_module()
    win, final_vp = default_model(), default_final_vp_model()
    finished = 0
    for state in positions():
        c = to_core(state)
        assert core.win_probabilities(c) == win.predict(state), state.action_count
        assert core.expected_final_vp(c) == final_vp.predict(state), state.action_count
        finished += state.game_over
    assert finished == len(GAMES)


def test_a_tied_finish_shares_the_win() -> None:
    core = core_module()
    state = next(s for s in positions() if s.game_over).copy()
    for p in state.players:
        p.vp, p.income_space, p.money = 60, 30, 5
    shares = default_model().predict(state)
    assert len(set(shares)) == 1
    assert core.win_probabilities(to_core(state)) == shares
