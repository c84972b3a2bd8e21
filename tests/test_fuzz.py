"""Issue 11: a fuzz test. Mutated valid logs (structure-aware, and at the text level) always get a verdict.

CI runs a few thousand cases with a fixed derivation (the same cases every run). For a long
campaign, set ``BRASS_FUZZ_EXAMPLES`` (cases are then drawn at random), e.g.::

    BRASS_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz.py -p no:randomly -x

or run ``python benchmarks/fuzz_campaign.py --cases 100000 --workers 8`` (several processes).
"""

from __future__ import annotations

import json
import os
import random

from fuzzing import check_verdict, mutate, mutate_text, seed_logs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CAMPAIGN = os.environ.get("BRASS_FUZZ_EXAMPLES")
SEEDS = seed_logs()
FUZZ = settings(
    max_examples=int(CAMPAIGN or 2000),
    derandomize=not CAMPAIGN,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@FUZZ
@given(st.sampled_from(range(len(SEEDS))), st.integers(1, 4), st.randoms(use_true_random=False))
def test_structure_aware_mutants_get_a_verdict(seed: int, rounds: int, rng: random.Random) -> None:
    check_verdict(json.dumps(mutate(SEEDS[seed], rng, rounds), ensure_ascii=rng.random() < 0.5))


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 4))
@given(st.sampled_from(range(len(SEEDS))), st.randoms(use_true_random=False))
def test_text_level_mutants_get_a_verdict(seed: int, rng: random.Random) -> None:
    doc = mutate(SEEDS[seed], rng, 0)
    check_verdict(mutate_text(json.dumps(doc, indent=rng.choice([None, 1])), rng))


def test_the_seed_logs_are_valid() -> None:
    # the mutants start from legal games, or they would test little beyond the first action
    assert len(SEEDS) >= 8
    assert {check_verdict(json.dumps(doc)) for doc in SEEDS} == {"ok"}
