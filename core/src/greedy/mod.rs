//! Mirrors `brass_stats.bots.greedy` (held equal by tests/test_core_greedy.py): the greedy evaluation and bot.
//! (held equal by tests/test_core_greedy.py).
//!
//! * [`evaluation`]: `evaluate`, `explain`, `resource_demand`, `card_values`, ... float for float.
//! * [`hand`]: `card_values`, `hand_value`: the usefulness of the cards kept.
//! * [`grouping`]: the legal actions grouped by the board they lead to, and the cap on Sells.
//! * [`bot`]: [`GreedyBot`], one decision: the tied best actions.

pub mod bot;
pub mod evaluation;
pub mod grouping;
pub mod hand;

pub use bot::GreedyBot;
pub use evaluation::{
    card_values, evaluate, explain, hand_value, horizon, resource_demand, CardValues, Horizon,
    SCOUT_GAIN,
};

/// Mirrors `brass_stats.bots.greedy.weights.Weights` (the defaults are the reference's).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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

impl Default for Weights {
    /// `DEFAULT_WEIGHTS`.
    fn default() -> Weights {
        Weights {
            money: 0.35,
            money_hoard: 0.1,
            spend_per_action: 10.0,
            near_actions: 4.0,
            income: 1.0,
            discount: 0.92,
            carry: 1.0,
            p_sell_ready: 0.9,
            p_sell_connected: 0.7,
            p_sell_unconnected: 0.35,
            p_cube_canal: 0.45,
            p_cube_rail: 0.95,
            isolated_coal: 0.7,
            income_delay: 0.5,
            shortfall: 1.5,
            risk: 1.0,
            risk_rounds: 4,
            negative_income: 0.25,
            crowding: 0.75,
            demand_ref: 0.55,
            demand_prior: 6.0,
            demand_min: 0.3,
            p_rail_later: 0.8,
            link_growth: 0.6,
            reach: 0.3,
            develop: 2.0,
            hand: 0.3,
            opponents: 0.0,
            sell_cap: 40,
        }
    }
}

impl Weights {
    /// The weights from `json.dumps(dataclasses.asdict(weights))`.
    pub fn from_json(text: &str) -> crate::CoreResult<Weights> {
        serde_json::from_str(text).or_else(|e| crate::invalid(format!("weights: {e}")))
    }
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
