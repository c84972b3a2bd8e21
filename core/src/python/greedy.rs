//! The greedy evaluation and the greedy bot for Python (`brass_stats.bots.greedy` in the core).
//!
//! Weights cross as `json.dumps(dataclasses.asdict(weights))`; positions as core `State`s.

use super::engine::{actions_json, PyState};
use super::guard;
use crate::greedy::{self, bot, grouping, GreedyBot, Weights};
use crate::state::State;
use crate::{legal, CoreResult};
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn checked_seat(state: &State, seat: usize) -> CoreResult<u8> {
    if seat < state.num_players() {
        Ok(seat as u8)
    } else {
        crate::invalid(format!(
            "no seat {seat} in a {}-player game",
            state.num_players()
        ))
    }
}

/// `explain(state, seat, w, include_hand, demand)`: the evaluation's terms by name, in the
/// reference's order.
#[pyfunction]
#[pyo3(signature = (state, seat, weights_json, include_hand = true, demand = None))]
fn greedy_explain<'py>(
    py: Python<'py>,
    state: &PyState,
    seat: usize,
    weights_json: &str,
    include_hand: bool,
    demand: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let terms = guard(|| {
        let s = checked_seat(&state.inner, seat)?;
        let w = Weights::from_json(weights_json)?;
        Ok(greedy::explain(&state.inner, s, &w, include_hand, demand))
    })?;
    let out = PyDict::new(py);
    for (name, value) in terms.items() {
        out.set_item(name, value)?;
    }
    Ok(out)
}

/// `evaluate(state, seat, w, include_hand, demand)`.
#[pyfunction]
#[pyo3(signature = (state, seat, weights_json, include_hand = true, demand = None))]
fn greedy_evaluate(
    state: &PyState,
    seat: usize,
    weights_json: &str,
    include_hand: bool,
    demand: Option<f64>,
) -> PyResult<f64> {
    guard(|| {
        let s = checked_seat(&state.inner, seat)?;
        let w = Weights::from_json(weights_json)?;
        Ok(greedy::evaluate(&state.inner, s, &w, include_hand, demand))
    })
}

/// `resource_demand(state, w)`.
#[pyfunction]
fn resource_demand(state: &PyState, weights_json: &str) -> PyResult<f64> {
    guard(|| {
        let w = Weights::from_json(weights_json)?;
        Ok(greedy::resource_demand(&state.inner, &w))
    })
}

/// `card_values(state, seat)`: the wild cards (the reference lists both in every edition) and the
/// cards of the seat's hand, by card code.
#[pyfunction]
fn card_values<'py>(py: Python<'py>, state: &PyState, seat: usize) -> PyResult<Bound<'py, PyDict>> {
    let codes = guard(|| {
        let s = checked_seat(&state.inner, seat)?;
        let rules = &state.inner.rules;
        let values = greedy::card_values(&state.inner, s);
        let codes: Vec<(String, f64)> = state.inner.players[seat]
            .hand
            .iter()
            .map(|&c| (rules.cards[c as usize].code.clone(), values.get(c)))
            .collect();
        Ok(codes)
    })?;
    let out = PyDict::new(py);
    for wild in ["wild:location", "wild:industry"] {
        out.set_item(wild, 1.0)?;
    }
    for (code, value) in codes {
        out.set_item(code, value)?;
    }
    Ok(out)
}

/// `GreedyBot(weights).choose` up to the draw among ties: the tied best legal actions (a JSON
/// list of log-format actions, in the reference's order). The reference returns the one action
/// when there is one, else `rng.choice(best)`.
#[pyfunction]
fn greedy_choose(state: &PyState, weights_json: &str) -> PyResult<String> {
    guard(|| {
        let bot = GreedyBot::new(Weights::from_json(weights_json)?);
        let legal = legal::legal_actions(&state.inner);
        let best = bot.tied_best(&state.inner, &legal)?;
        let chosen: Vec<_> = best.into_iter().map(|i| legal[i].clone()).collect();
        Ok(actions_json(&state.inner, &chosen))
    })
}

/// `board_values(state, seat, cap_sells(state, group_by_board(legal), w.sell_cap), Evaluator(state, w))`
/// for the seat to move: the first action of each group (a JSON list of log-format actions) and
/// the value of the state it leads to, in the groups' order.
#[pyfunction]
fn greedy_board_values(state: &PyState, weights_json: &str) -> PyResult<(String, Vec<f64>)> {
    guard(|| {
        let w = Weights::from_json(weights_json)?;
        let s = &state.inner;
        let Some(seat) = s.current_player() else {
            return crate::invalid("the game is over: nobody is to move");
        };
        let legal = legal::legal_actions(s);
        let groups = grouping::cap_sells(s, &legal, grouping::group_by_board(&legal), w.sell_cap);
        let values = bot::board_values(s, seat, &legal, &groups, &w)?;
        let firsts: Vec<_> = groups.iter().map(|g| legal[g[0]].clone()).collect();
        Ok((actions_json(s, &firsts), values))
    })
}

/// `DEFAULT_WEIGHTS` as the core has them (JSON: the fields of `dataclasses.asdict`).
#[pyfunction]
fn greedy_default_weights() -> PyResult<String> {
    guard(|| {
        serde_json::to_string(&Weights::default())
            .map_err(|e| crate::CoreError::Invalid(e.to_string()))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(greedy_explain, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(resource_demand, m)?)?;
    m.add_function(wrap_pyfunction!(card_values, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_choose, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_default_weights, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_board_values, m)?)?;
    Ok(())
}
