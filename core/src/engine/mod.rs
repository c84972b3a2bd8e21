//! Mirrors `brass_stats.engine` (the rules; held equal by tests/test_core_engine.py): one module
//! per action, as in the reference.
//!
//! [`apply_action`] applies a fully stated action (one that `legal::legal_actions` lists) in place;
//! the caller clones first. A refused action leaves the state half-changed (as the reference's
//! `in_place=True` does): throw it away.

pub mod build;
pub mod develop;
pub mod loan;
pub mod network;
pub mod policy;
pub mod resources;
pub mod scoring;
pub mod scout;
pub mod sell;
pub mod shortfall;
pub mod turn;

#[cfg(test)]
mod tests;

use crate::action::Action;
use crate::state::State;
use crate::CoreResult;

/// Apply one fully stated action (as `legal::legal_actions` lists it) to `state`, in place.
pub fn apply_action(state: &mut State, action: &Action) -> CoreResult<()> {
    turn::apply_action(state, action)
}
