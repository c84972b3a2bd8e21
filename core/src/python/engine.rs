//! `Rules` and `State` for Python: positions in, legal actions and successors out.

use super::guard;
use crate::action::{self, Action};
use crate::rules::Rules;
use crate::state::State;
use crate::wire::StateWire;
use crate::{engine, legal, CoreError};
use pyo3::prelude::*;
use std::sync::Arc;

/// One edition's rules, from the table `brass_stats.engine.compiled.rules_table` makes.
#[pyclass(name = "Rules", frozen, module = "brass_stats._core")]
pub struct PyRules {
    pub inner: Arc<Rules>,
}

#[pymethods]
impl PyRules {
    #[new]
    fn new(table: &str) -> PyResult<Self> {
        guard(|| {
            Ok(PyRules {
                inner: Arc::new(Rules::from_json(table).map_err(CoreError::Invalid)?),
            })
        })
    }
}

/// A position of the core (a value: applying an action gives a new one).
#[pyclass(name = "State", module = "brass_stats._core")]
#[derive(Clone)]
pub struct PyState {
    pub inner: State,
}

pub(crate) fn parse_state(rules: &PyRules, text: &str) -> Result<State, CoreError> {
    let wire: StateWire =
        serde_json::from_str(text).map_err(|e| CoreError::Invalid(format!("state: {e}")))?;
    State::from_wire(rules.inner.clone(), &wire)
        .map_err(|e| CoreError::Invalid(format!("state: {e}")))
}

pub(crate) fn parse_action(state: &State, text: &str) -> Result<Action, CoreError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| CoreError::Invalid(format!("action: {e}")))?;
    action::from_json(&state.rules, &value).map_err(|e| CoreError::Invalid(format!("action: {e}")))
}

pub(crate) fn actions_json(state: &State, actions: &[Action]) -> String {
    let list: Vec<serde_json::Value> = actions
        .iter()
        .map(|a| action::to_json(&state.rules, a))
        .collect();
    serde_json::Value::Array(list).to_string()
}

#[pymethods]
impl PyState {
    #[new]
    fn new(rules: &PyRules, wire: &str) -> PyResult<Self> {
        guard(|| {
            Ok(PyState {
                inner: parse_state(rules, wire)?,
            })
        })
    }

    /// The state's wire form (JSON text).
    fn to_json(&self) -> PyResult<String> {
        guard(|| {
            serde_json::to_string(&self.inner.to_wire())
                .map_err(|e| CoreError::Invalid(e.to_string()))
        })
    }

    /// The seat to move (None once the game is over).
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.inner.current_player()
    }

    #[getter]
    fn game_over(&self) -> bool {
        self.inner.game_over()
    }

    /// How many legal actions the player to move has (the bots' calls send a caller's list only
    /// when it is not the engine's own).
    fn legal_count(&self) -> PyResult<usize> {
        guard(|| Ok(legal::legal_actions(&self.inner).len()))
    }

    /// Every legal action of the player to move, as a JSON list of log-format actions.
    fn legal_actions(&self) -> PyResult<String> {
        guard(|| {
            Ok(actions_json(
                &self.inner,
                &legal::legal_actions(&self.inner),
            ))
        })
    }

    /// The state after a legal action (a log-format JSON object); ValueError when it is not legal here.
    fn apply(&self, action: &str) -> PyResult<PyState> {
        guard(|| {
            let a = parse_action(&self.inner, action)?;
            if !legal::legal_actions(&self.inner).contains(&a) {
                return Err(CoreError::Invalid(format!(
                    "not a legal action in this position (the core applies only the actions it lists): {action}"
                )));
            }
            let mut next = self.inner.clone();
            engine::apply_action(&mut next, &a)?;
            Ok(PyState { inner: next })
        })
    }

    /// The state after an action the caller knows to be legal, without listing the legal actions
    /// first (the parity tests apply the reference's own legal actions this way).
    fn apply_unchecked(&self, action: &str) -> PyResult<PyState> {
        guard(|| {
            let a = parse_action(&self.inner, action)?;
            let mut next = self.inner.clone();
            engine::apply_action(&mut next, &a)?;
            Ok(PyState { inner: next })
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_class::<PyState>()?;
    Ok(())
}
