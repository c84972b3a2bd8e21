"""The tunable parameters of the greedy bot's evaluation: what each one weighs is told in
:mod:`brass_stats.bots.greedy.evaluation`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Weights:
    """Tunable parameters of :func:`evaluate` (see :mod:`.evaluation`): VP weights, probabilities, counts."""

    money: float = 0.35
    money_hoard: float = 0.1
    spend_per_action: float = 10.0
    near_actions: float = 4.0
    income: float = 1.0
    discount: float = 0.92
    carry: float = 1.0
    p_sell_ready: float = 0.9
    p_sell_connected: float = 0.7
    p_sell_unconnected: float = 0.35
    p_cube_canal: float = 0.45
    p_cube_rail: float = 0.95
    isolated_coal: float = 0.7
    income_delay: float = 0.5
    shortfall: float = 1.5
    risk: float = 1.0
    risk_rounds: int = 4
    negative_income: float = 0.25
    crowding: float = 0.75
    demand_ref: float = 0.55
    demand_prior: float = 6.0
    demand_min: float = 0.3
    p_rail_later: float = 0.8
    link_growth: float = 0.6
    reach: float = 0.3
    develop: float = 2.0
    hand: float = 0.3
    opponents: float = 0.0
    sell_cap: int = 40


DEFAULT_WEIGHTS = Weights()
