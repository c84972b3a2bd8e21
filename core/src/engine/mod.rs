//! Mirrors `brass_stats.engine.turn.apply_action` and the action modules it calls.

use crate::action::Action;
use crate::state::State;
use crate::CoreResult;

/// Apply one fully stated action (as `legal::legal_actions` lists it) to `state`, in place.
pub fn apply_action(state: &mut State, action: &Action) -> CoreResult<()> {
    let _ = (state, action);
    crate::invalid("apply_action is not built yet")
}
