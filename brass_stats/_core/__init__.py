"""The compiled core: the extension module ``_native`` built from ``core/`` (Rust) by maturin.

What the core is, what it mirrors and how the tests hold it equal to the Python reference:
``docs/core.md``. Only ``brass_stats.engine.compiled``, ``brass_stats.bots.compiled`` and
``brass_stats.analysis.review.compiled`` speak to it; the types are in ``_native.pyi``.
Importing this package fails with :class:`ImportError` when the extension is not built.
"""

from ._native import (
    Booster,
    CoreError,
    CoreUnsupported,
    Models,
    Random,
    Rules,
    SplitMix64,
    State,
    action_round_trip,
    card_values,
    choose,
    expected_final_vp,
    greedy_choose,
    greedy_default_weights,
    greedy_evaluate,
    greedy_explain,
    play,
    position_features,
    rank,
    resource_demand,
    review_ends,
    review_judge,
    search,
    time_apply,
    time_greedy,
    time_legal_actions,
    time_random_play,
    win_probabilities,
)

__all__ = [
    "Booster",
    "CoreError",
    "CoreUnsupported",
    "Models",
    "Random",
    "Rules",
    "SplitMix64",
    "State",
    "action_round_trip",
    "card_values",
    "choose",
    "expected_final_vp",
    "greedy_choose",
    "greedy_default_weights",
    "greedy_evaluate",
    "greedy_explain",
    "play",
    "position_features",
    "rank",
    "resource_demand",
    "review_ends",
    "review_judge",
    "search",
    "time_apply",
    "time_greedy",
    "time_legal_actions",
    "time_random_play",
    "win_probabilities",
]
