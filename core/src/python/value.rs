//! The learned models for Python: a LightGBM booster read by the core, the features of a core
//! position, and the shipped models' predictions (mirrors `brass_stats.bots.value`; held equal by
//! tests/test_core_value.py).

use super::engine::PyState;
use super::guard;
use crate::greedy::Weights;
use crate::value::features;
use crate::value::lightgbm;
use crate::value::models::{FinalVpModel, WinProbabilityModel};
use crate::{CoreError, CoreResult};
use pyo3::prelude::*;
use std::sync::OnceLock;

/// A LightGBM model read from its text format (`lightgbm.Booster.model_to_string()`).
#[pyclass(name = "Booster", frozen, module = "brass_stats._core")]
pub struct PyBooster {
    inner: lightgbm::Booster,
}

#[pymethods]
impl PyBooster {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        guard(|| {
            Ok(PyBooster {
                inner: lightgbm::Booster::from_text(text)?,
            })
        })
    }

    /// `booster.predict(rows)`: the objective's transform of each row's raw score.
    fn predict(&self, py: Python<'_>, rows: Vec<Vec<f64>>) -> PyResult<Vec<f64>> {
        py.detach(|| {
            guard(|| {
                let mut out = Vec::with_capacity(rows.len());
                self.inner.predict_into(&rows, &mut out)?;
                Ok(out)
            })
        })
    }

    /// `booster.predict(rows, raw_score=True)`: each row's sum of the trees' outputs.
    fn predict_raw(&self, py: Python<'_>, rows: Vec<Vec<f64>>) -> PyResult<Vec<f64>> {
        py.detach(|| {
            guard(|| {
                let mut out = Vec::with_capacity(rows.len());
                self.inner.predict_raw_into(&rows, &mut out)?;
                Ok(out)
            })
        })
    }

    /// The features the model was trained on, in column order.
    #[getter]
    fn feature_names(&self) -> Vec<String> {
        self.inner.feature_names().to_vec()
    }

    #[getter]
    fn num_trees(&self) -> usize {
        self.inner.num_trees()
    }
}

/// `position_features(state)`: one row of `FEATURE_NAMES` per seat (the default weights' terms).
#[pyfunction]
fn position_features(state: &PyState) -> Vec<Vec<f64>> {
    features::position_features(&state.inner, &Weights::default())
        .iter()
        .map(|row| row.to_vec())
        .collect()
}

/// A shipped model, read once (the models compiled into the core).
fn shipped<M>(
    cell: &'static OnceLock<CoreResult<M>>,
    read: fn() -> CoreResult<M>,
) -> CoreResult<&'static M> {
    cell.get_or_init(read).as_ref().map_err(CoreError::clone)
}

static WIN: OnceLock<CoreResult<WinProbabilityModel>> = OnceLock::new();
static FINAL_VP: OnceLock<CoreResult<FinalVpModel>> = OnceLock::new();

/// `default_model().predict(state)`: each seat's probability of winning (the shipped model).
#[pyfunction]
fn win_probabilities(state: &PyState) -> PyResult<Vec<f64>> {
    guard(|| {
        let model = shipped(&WIN, WinProbabilityModel::shipped)?;
        Ok(model.predict(&state.inner, &Weights::default()).to_vec())
    })
}

/// `default_final_vp_model().predict(state)`: each seat's expected final VP (the shipped model).
#[pyfunction]
fn expected_final_vp(state: &PyState) -> PyResult<Vec<f64>> {
    guard(|| {
        let model = shipped(&FINAL_VP, FinalVpModel::shipped)?;
        Ok(model.predict(&state.inner, &Weights::default()).to_vec())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBooster>()?;
    m.add_function(wrap_pyfunction!(position_features, m)?)?;
    m.add_function(wrap_pyfunction!(win_probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(expected_final_vp, m)?)?;
    Ok(())
}
