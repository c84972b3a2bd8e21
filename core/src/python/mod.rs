//! The extension module `brass_stats._core._native` (re-exported by `brass_stats._core`): the core's Python API, one file per area.
//!
//! Everything crosses the boundary as JSON text in the wire formats of docs/core.md (a rules table,
//! a state, log-format actions), once per request: a request is a whole decision or a whole game,
//! never one engine step at a time. No panic crosses into Python: every entry point runs under
//! [`guard`], which turns a refusal into `ValueError` (a malformed or illegal input) or
//! `CoreUnsupported`, and a panic into `CoreError` with its message.

use crate::CoreError as Refusal;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

mod bench;
mod bots;
mod engine;
mod greedy;
mod review;
mod rng;
mod value;

create_exception!(
    _native,
    CoreError,
    PyException,
    "An internal error of the compiled core (a bug: please report it)."
);
create_exception!(
    _native,
    CoreUnsupported,
    PyException,
    "A request the compiled core does not model."
);

/// Run `f`, turning its refusal or its panic into a Python exception.
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, Refusal>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(Refusal::Invalid(msg))) => Err(PyValueError::new_err(msg)),
        Ok(Err(Refusal::Unsupported(msg))) => Err(CoreUnsupported::new_err(msg)),
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(CoreError::new_err(format!(
                "internal error in the compiled core: {msg}"
            )))
        }
    }
}

/// A deliberate panic under the guard, for the test that a panic reaches Python as `CoreError`.
#[pyfunction]
fn _panic_for_tests(message: &str) -> PyResult<()> {
    guard(|| -> Result<(), Refusal> { panic!("{message}") })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CoreError", m.py().get_type::<CoreError>())?;
    m.add("CoreUnsupported", m.py().get_type::<CoreUnsupported>())?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    // the reference's sum() of floats is compensated from Python 3.12 on: sum as it does
    crate::pysum::set_compensated(m.py().version_info() >= (3, 12));
    engine::register(m)?;
    bots::register(m)?;
    bench::register(m)?;
    review::register(m)?;
    greedy::register(m)?;
    rng::register(m)?;
    value::register(m)?;
    Ok(())
}
