//! Mirrors `brass_stats.bots.greedy`: the greedy evaluation of a position and the greedy bot.

use crate::state::State;

/// Mirrors `brass_stats.bots.greedy.weights.Weights` (the defaults are the reference's).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Weights {
    pub money: f64,
    pub money_hoard: f64,
    pub spend_per_action: f64,
    pub near_actions: f64,
    pub income: f64,
    pub discount: f64,
    pub carry: f64,
    pub p_sell_ready: f64,
    pub p_sell_connected: f64,
    pub p_sell_unconnected: f64,
    pub p_cube_canal: f64,
    pub p_cube_rail: f64,
    pub isolated_coal: f64,
    pub income_delay: f64,
    pub shortfall: f64,
    pub risk: f64,
    pub risk_rounds: i64,
    pub negative_income: f64,
    pub crowding: f64,
    pub demand_ref: f64,
    pub demand_prior: f64,
    pub demand_min: f64,
    pub p_rail_later: f64,
    pub link_growth: f64,
    pub reach: f64,
    pub develop: f64,
    pub hand: f64,
    pub opponents: f64,
    pub sell_cap: usize,
}

/// The terms of `explain(state, seat)`, in its order (the hand term only when asked for).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Terms {
    pub vp: f64,
    pub pending: f64,
    pub rescoring: f64,
    pub unflipped: f64,
    pub link_growth: f64,
    pub reach: f64,
    pub money: f64,
    pub income: f64,
    pub risk: f64,
    pub mat: f64,
    pub hand: Option<f64>,
    /// the game is over: the terms are the VP and the tie-break
    pub tie_break: Option<f64>,
}

/// `explain(state, seat, w, include_hand, demand)` (demand: `resource_demand(state)` when None).
pub fn explain(
    state: &State,
    seat: u8,
    w: &Weights,
    include_hand: bool,
    demand: Option<f64>,
) -> Terms {
    let _ = (state, seat, w, include_hand, demand);
    Terms::default()
}
