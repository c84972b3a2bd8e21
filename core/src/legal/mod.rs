//! Mirrors `brass_stats.engine.legal.legal_actions`: every legal action of the player to move.

use crate::action::Action;
use crate::state::State;

/// Every legal action of the player to move, in the reference's order.
pub fn legal_actions(state: &State) -> Vec<Action> {
    let _ = state;
    Vec::new()
}
