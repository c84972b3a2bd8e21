//! The learned models for Python: a LightGBM booster read by the core, and the features of a core
//! position (mirrors `brass_stats.bots.value`; held equal by tests/test_core_value.py).

use super::guard;
use crate::value::lightgbm;
use pyo3::prelude::*;

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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBooster>()?;
    Ok(())
}
