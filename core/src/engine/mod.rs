//! Mirrors `brass_stats.engine` (the rules): one module per action, as in the reference.
//!
//! [`apply_action`] applies a fully stated action (one that `legal::legal_actions` lists) in place.

pub mod sell;

use crate::action::Action;
use crate::state::State;
use crate::CoreResult;

/// Apply one fully stated action (as `legal::legal_actions` lists it) to `state`, in place.
pub fn apply_action(state: &mut State, action: &Action) -> CoreResult<()> {
    let _ = (state, action);
    crate::invalid("apply_action is not built yet")
}
