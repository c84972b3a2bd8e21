//! The compiled core of brass_stats: the rules, the bots and the search of Brass (Birmingham and
//! Lancashire, 2-4 players) in Rust, under the Python package as `brass_stats._core`.
//!
//! Every module mirrors a module of the Python reference (its first line says which) and is held
//! equal to it by the parity tests (`tests/test_core_*.py`, docs/core.md): the same legal actions
//! in the same order, the same successor states field by field, the same decisions of the bots.
//! The Python engine stays the reference and the validator's voice; the core applies only actions
//! it lists itself.

pub mod action;
pub mod board;
pub mod engine;
pub mod greedy;
pub mod information;
pub mod legal;
pub mod play;
pub mod pysum;
pub mod review;
pub mod rng;
pub mod rules;
pub mod search;
pub mod spec;
pub mod state;
pub mod value;
pub mod wire;

#[cfg(feature = "python")]
mod python;

#[cfg(test)]
mod tests;

/// Why the core refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// the state or the action handed in is malformed, or the action is not legal there
    Invalid(String),
    /// something the core does not model (a written-out deal reaching the Rail Era, ...)
    Unsupported(String),
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoreError::Invalid(m) | CoreError::Unsupported(m) => f.write_str(m),
        }
    }
}

pub type CoreResult<T> = Result<T, CoreError>;

pub fn invalid<T>(msg: impl Into<String>) -> CoreResult<T> {
    Err(CoreError::Invalid(msg.into()))
}
