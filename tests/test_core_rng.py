"""The core's random generators draw what the reference's draw (core/src/rng.rs).

CPython's ``random.Random`` (the bots' tie-breaks, the search's samples, the random bot) and the
engine's SplitMix64 (the seeded deal): the same numbers, the same shuffles, the same state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from brass_stats import _core
from brass_stats.engine.setup import SplitMix64

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_random_draws_the_floats_and_bits_cpython_draws(seed: int) -> None:
    ours, ref = _core.Random(seed), random.Random(seed)
    for k in (1, 5, 31, 32, 33, 48, 63, 64):
        assert ours.getrandbits(k) == ref.getrandbits(k)
    assert [ours.random() for _ in range(20)] == [ref.random() for _ in range(20)]


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, n=st.integers(min_value=1, max_value=130))
def test_random_shuffles_and_chooses_as_cpython_does(seed: int, n: int) -> None:
    ours, ref = _core.Random(seed), random.Random(seed)
    items = list(range(n))
    ref.shuffle(items)
    assert ours.shuffled(n) == items
    assert ours.choice_index(n) == ref.choice(range(n))


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, skip=st.integers(min_value=0, max_value=1500))
def test_a_state_taken_from_cpython_continues_its_stream_and_goes_back(seed: int, skip: int) -> None:
    ref = random.Random(seed)
    for _ in range(skip):
        ref.getrandbits(32)
    ours = _core.Random.from_state(list(ref.getstate()[1]))
    assert [ours.random() for _ in range(700)] == [ref.random() for _ in range(700)]
    assert tuple(ours.getstate()) == ref.getstate()[1]


def test_a_malformed_state_is_a_value_error() -> None:
    try:
        _core.Random.from_state([1, 2, 3])
    except ValueError as e:
        assert "624" in str(e)
    else:
        raise AssertionError("a three-word state was accepted")


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, n=st.integers(min_value=1, max_value=130))
def test_splitmix_shuffles_as_the_seeded_deal_does(seed: int, n: int) -> None:
    ours, ref = _core.SplitMix64(seed), SplitMix64(seed)
    items = list(range(n))
    ref.shuffle(items)
    assert ours.shuffled(n) == items
    assert ours.next() == ref.next()
