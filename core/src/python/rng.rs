//! The core's random generators for Python, so the tests hold them equal to the reference's.

use crate::rng::{PyRandom, SplitMix64};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// CPython's `random.Random`, reproduced (see core/src/rng.rs).
#[pyclass(name = "Random", module = "brass_stats._core._native")]
pub struct PyRng {
    inner: PyRandom,
}

#[pymethods]
impl PyRng {
    #[new]
    fn new(seed: u64) -> Self {
        PyRng {
            inner: PyRandom::new(seed),
        }
    }

    /// From `random.Random.getstate()[1]` (624 words and the position).
    #[staticmethod]
    fn from_state(state: Vec<u32>) -> PyResult<Self> {
        let (words, index) = state.split_at(state.len().saturating_sub(1));
        let index = index.first().copied().unwrap_or(u32::MAX) as usize;
        PyRandom::from_state(words, index)
            .map(|inner| PyRng { inner })
            .ok_or_else(|| {
                PyValueError::new_err(
                    "a Mersenne Twister state is 624 words and a position up to 624",
                )
            })
    }

    /// As `random.Random.getstate()[1]`.
    fn getstate(&self) -> Vec<u32> {
        let (mut words, index) = self.inner.state();
        words.push(index as u32);
        words
    }

    fn random(&mut self) -> f64 {
        self.inner.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err("at most 64 bits"));
        }
        Ok(self.inner.getrandbits(k))
    }

    /// `random.Random.choice` of a sequence of `n` items: the index chosen.
    fn choice_index(&mut self, n: usize) -> PyResult<usize> {
        if n == 0 {
            return Err(PyValueError::new_err(
                "cannot choose from an empty sequence",
            ));
        }
        Ok(self.inner.choice(n))
    }

    /// `random.Random.shuffle` of `range(n)`.
    fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        self.inner.shuffle(&mut items);
        items
    }
}

/// `brass_stats.engine.setup.SplitMix64`, reproduced.
#[pyclass(name = "SplitMix64", module = "brass_stats._core._native")]
pub struct PySplitMix {
    inner: SplitMix64,
}

#[pymethods]
impl PySplitMix {
    #[new]
    fn new(seed: u64) -> Self {
        PySplitMix {
            inner: SplitMix64::new(seed),
        }
    }

    fn next(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Fisher-Yates of `range(n)` as the reference shuffles.
    fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        self.inner.shuffle(&mut items);
        items
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRng>()?;
    m.add_class::<PySplitMix>()?;
    Ok(())
}
