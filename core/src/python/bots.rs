//! The bots for Python: a decision, a search, a whole game, each one request.

use super::engine::{actions_json, parse_action, PyState};
use super::guard;
use crate::action::{self, Action};
use crate::legal::legal_actions;
use crate::play::{play_game, Bot};
use crate::rng::PyRandom;
use crate::search::leaf::Models;
use crate::search::SearchConfig;
use crate::search::{SearchResult, Searcher};
use crate::spec::{checked, parse, BotSpec, LeafSpec};
use crate::state::State;
use crate::value::lightgbm::Booster;
use crate::value::models::{FinalVpModel, WinProbabilityModel};
use crate::CoreError;
use pyo3::prelude::*;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The learned models a leaf may read (either may be missing: a leaf that needs it is refused).
#[pyclass(name = "Models", frozen, module = "brass_stats._core._native")]
pub struct PyModels {
    pub(crate) inner: Arc<Models>,
}

#[pymethods]
impl PyModels {
    /// From the LightGBM text of the win-probability and the expected-final-VP models.
    #[new]
    #[pyo3(signature = (win=None, final_vp=None))]
    fn new(win: Option<&str>, final_vp: Option<&str>) -> PyResult<Self> {
        guard(|| {
            let win = win
                .map(|t| {
                    Booster::from_text(t)
                        .and_then(WinProbabilityModel::new)
                        .map(Arc::new)
                })
                .transpose()?;
            let final_vp = final_vp
                .map(|t| {
                    Booster::from_text(t)
                        .and_then(FinalVpModel::new)
                        .map(Arc::new)
                })
                .transpose()?;
            Ok(PyModels {
                inner: Arc::new(Models {
                    win,
                    final_vp,
                    features_weights: Default::default(),
                }),
            })
        })
    }
}

fn actions_of(state: &State, list: &[Value]) -> Result<Vec<Action>, CoreError> {
    list.iter()
        .map(|v| action::from_json(&state.rules, v).map_err(CoreError::Invalid))
        .collect()
}

#[derive(Deserialize)]
struct SearchRequest {
    config: SearchConfig,
    weights: crate::greedy::Weights,
    leaf: LeafSpec,
    seed: u64,
    legal: Option<Vec<Value>>,
    force: Vec<Value>,
}

fn result_json(state: &State, r: &SearchResult) -> String {
    let rules = &state.rules;
    json!({
        "seat": r.seat,
        "best": action::to_json(rules, &r.best),
        "actions": r.actions.iter().map(|s| json!({
            "action": action::to_json(rules, &s.action),
            "visits": s.visits,
            "value": s.value,
            "score": s.score,
            "rank": s.rank,
        })).collect::<Vec<_>>(),
        "simulations": r.simulations,
        "seconds": r.seconds,
        "value": r.value,
        "recovered": r.recovered,
    })
    .to_string()
}

/// `SearchBot.analyse`: the request is JSON (docs/core.md); the result JSON has `SearchResult`'s fields.
#[pyfunction]
fn search(py: Python<'_>, state: &PyState, request: &str, models: &PyModels) -> PyResult<String> {
    let state = &state.inner;
    let models = models.inner.clone();
    py.detach(|| {
        guard(|| {
            let req: SearchRequest = parse(request, "search request")?;
            let config = checked(req.config)?;
            let leaf = req.leaf.leaf()?;
            let legal = match &req.legal {
                Some(list) => actions_of(state, list)?,
                None => legal_actions(state),
            };
            let force = actions_of(state, &req.force)?;
            let searcher = Searcher {
                config: &config,
                weights: &req.weights,
                leaf: &leaf,
                models: &models,
            };
            let result = searcher.analyse(state, &legal, req.seed, &force)?;
            Ok(result_json(state, &result))
        })
    })
}

#[derive(Deserialize)]
struct ChooseRequest {
    bot: BotSpec,
    legal: Option<Vec<Value>>,
}

/// One bot's decision, drawing from the caller's `random.Random` (its `getstate()[1]`): the action
/// chosen (JSON) and the generator's state after the draws, for `setstate`.
#[pyfunction]
fn choose(
    py: Python<'_>,
    state: &PyState,
    request: &str,
    rng_state: Vec<u32>,
    models: &PyModels,
) -> PyResult<(String, Vec<u32>)> {
    let state = &state.inner;
    let models = models.inner.clone();
    py.detach(|| {
        guard(|| {
            let req: ChooseRequest = parse(request, "choose request")?;
            let bot: Bot = req.bot.bot()?;
            let (words, index) = rng_state.split_at(rng_state.len().saturating_sub(1));
            let index = index.first().copied().unwrap_or(u32::MAX) as usize;
            let mut rng = PyRandom::from_state(words, index).ok_or_else(|| {
                CoreError::Invalid("a random state is 624 words and a position".into())
            })?;
            let legal = match &req.legal {
                Some(list) => actions_of(state, list)?,
                None => legal_actions(state),
            };
            if legal.is_empty() {
                return Err(CoreError::Invalid("no legal action to choose from".into()));
            }
            let action = bot.choose(state, &legal, &mut rng, &models)?;
            let (mut words, index) = rng.state();
            words.push(index as u32);
            Ok((action::to_json(&state.rules, &action).to_string(), words))
        })
    })
}

/// `play_game(agents, seed)` from this position: the actions played (JSON list).
#[pyfunction]
fn play(
    py: Python<'_>,
    state: &PyState,
    bots: &str,
    seed: u64,
    models: &PyModels,
) -> PyResult<String> {
    let state = state.inner.clone();
    let models = models.inner.clone();
    py.detach(|| {
        guard(|| {
            let specs: Vec<BotSpec> = parse(bots, "bots")?;
            let bots = specs
                .into_iter()
                .map(BotSpec::bot)
                .collect::<Result<Vec<_>, _>>()?;
            let played = play_game(state.clone(), &bots, seed, &models)?;
            Ok(actions_json(&state, &played))
        })
    })
}

/// `rank(state, legal, greedy)`: (action JSON, score) per candidate, best first.
#[pyfunction]
#[pyo3(signature = (state, weights, legal=None))]
fn rank(state: &PyState, weights: &str, legal: Option<&str>) -> PyResult<String> {
    let state = &state.inner;
    guard(|| {
        let w: crate::greedy::Weights = parse(weights, "weights")?;
        let legal = match legal {
            Some(text) => actions_of(state, &parse::<Vec<Value>>(text, "legal actions")?)?,
            None => legal_actions(state),
        };
        let ranked = crate::search::candidates::rank(state, &legal, &w, None)?;
        let list: Vec<Value> = ranked
            .iter()
            .map(|c| json!([action::to_json(&state.rules, &c.action), c.score]))
            .collect();
        Ok(Value::Array(list).to_string())
    })
}

/// An action's JSON parsed and written back by the core (for the codec's tests).
#[pyfunction]
fn action_round_trip(state: &PyState, action: &str) -> PyResult<String> {
    guard(|| {
        Ok(action::to_json(&state.inner.rules, &parse_action(&state.inner, action)?).to_string())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyModels>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(choose, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(action_round_trip, m)?)?;
    Ok(())
}
