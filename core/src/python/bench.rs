//! Timing the core from inside (no boundary in the loop), for `benchmarks/bench_core.py`.

use super::engine::PyState;
use super::guard;
use crate::engine::apply_action;
use crate::greedy::Weights;
use crate::legal::legal_actions;
use crate::play::{greedy_choice, random_choice};
use crate::rng::PyRandom;
use crate::spec::parse;
use pyo3::prelude::*;
use std::time::Instant;

/// `legal_actions` of the position `repeat` times: (actions listed, seconds in all).
#[pyfunction]
fn time_legal_actions(py: Python<'_>, state: &PyState, repeat: usize) -> PyResult<(usize, f64)> {
    let state = &state.inner;
    py.detach(|| {
        guard(|| {
            let start = Instant::now();
            let mut n = 0;
            for _ in 0..repeat {
                n = std::hint::black_box(legal_actions(state)).len();
            }
            Ok((n, start.elapsed().as_secs_f64()))
        })
    })
}

/// Every legal action of the position applied to a copy of it, `repeat` times: (applications, seconds).
#[pyfunction]
fn time_apply(py: Python<'_>, state: &PyState, repeat: usize) -> PyResult<(usize, f64)> {
    let state = &state.inner;
    py.detach(|| {
        guard(|| {
            let legal = legal_actions(state);
            let start = Instant::now();
            for _ in 0..repeat {
                for a in &legal {
                    let mut next = state.clone();
                    apply_action(&mut next, a)?;
                    std::hint::black_box(&next);
                }
            }
            Ok((legal.len() * repeat, start.elapsed().as_secs_f64()))
        })
    })
}

/// Random games from the position (the random bot's choices, one generator per seed): (steps, seconds).
#[pyfunction]
fn time_random_play(py: Python<'_>, state: &PyState, seeds: Vec<u64>) -> PyResult<(usize, f64)> {
    let state = &state.inner;
    py.detach(|| {
        guard(|| {
            let start = Instant::now();
            let mut steps = 0;
            for seed in seeds {
                let mut rng = PyRandom::new(seed);
                let mut s = state.clone();
                while !s.game_over() {
                    let legal = legal_actions(&s);
                    let a = random_choice(&legal, &mut rng);
                    apply_action(&mut s, &a)?;
                    steps += 1;
                }
            }
            Ok((steps, start.elapsed().as_secs_f64()))
        })
    })
}

/// The greedy bot's decision at the position, `repeat` times: (decisions, seconds).
#[pyfunction]
fn time_greedy(
    py: Python<'_>,
    state: &PyState,
    weights: &str,
    repeat: usize,
) -> PyResult<(usize, f64)> {
    let state = &state.inner;
    py.detach(|| {
        guard(|| {
            let w: Weights = parse(weights, "weights")?;
            let legal = legal_actions(state);
            let start = Instant::now();
            for i in 0..repeat {
                let mut rng = PyRandom::new(i as u64);
                std::hint::black_box(greedy_choice(state, &legal, &w, &mut rng)?);
            }
            Ok((repeat, start.elapsed().as_secs_f64()))
        })
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(time_legal_actions, m)?)?;
    m.add_function(wrap_pyfunction!(time_apply, m)?)?;
    m.add_function(wrap_pyfunction!(time_random_play, m)?)?;
    m.add_function(wrap_pyfunction!(time_greedy, m)?)?;
    Ok(())
}
