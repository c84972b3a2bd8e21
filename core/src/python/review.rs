//! The review's readings for Python (`brass_stats.analysis.review.judge`).

use super::bots::PyModels;
use super::engine::PyState;
use super::guard;
use crate::action;
use crate::greedy::Weights;
use crate::review::{ends_before_next_turn, judge};
use crate::spec::parse;
use crate::CoreError;
use pyo3::prelude::*;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct JudgeRequest {
    seat: u8,
    actions: Vec<Value>,
    samples: Vec<(u64, u64)>,
    last: bool,
    turn: (u32, u8),
    weights: Weights,
}

#[derive(Deserialize)]
struct EndsRequest {
    seat: u8,
    played: Value,
    sample: (u64, u64),
    turn: (u32, u8),
    weights: Weights,
}

/// `Reviewer.judge`: `[action][sample] -> [win probabilities, expected final VP]` as JSON.
#[pyfunction]
fn review_judge(py: Python<'_>, state: &PyState, request: &str, models: &PyModels) -> PyResult<String> {
    let state = &state.inner;
    let models = models.inner.clone();
    py.detach(|| {
        guard(|| {
            let req: JudgeRequest = parse(request, "judge request")?;
            let actions = req
                .actions
                .iter()
                .map(|v| action::from_json(&state.rules, v).map_err(CoreError::Invalid))
                .collect::<Result<Vec<_>, _>>()?;
            let readings =
                judge(state, req.seat, &actions, &req.samples, req.last, req.turn, &req.weights, &models)?;
            serde_json::to_string(&readings).map_err(|e| CoreError::Invalid(e.to_string()))
        })
    })
}

/// Whether the game ends before the mover moves again, read in the first sample (`Reviewer._worlds`).
#[pyfunction]
fn review_ends(py: Python<'_>, state: &PyState, request: &str) -> PyResult<bool> {
    let state = &state.inner;
    py.detach(|| {
        guard(|| {
            let req: EndsRequest = parse(request, "turn request")?;
            let played = action::from_json(&state.rules, &req.played).map_err(CoreError::Invalid)?;
            ends_before_next_turn(state, req.seat, &played, req.sample, req.turn, &req.weights)
        })
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(review_judge, m)?)?;
    m.add_function(wrap_pyfunction!(review_ends, m)?)?;
    Ok(())
}
