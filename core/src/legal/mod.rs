//! Mirrors `brass_stats.engine.legal.legal_actions` (held equal by tests/test_core_legal.py):
//! every legal action of the player to move, each with its resource choices filled in canonically.
//!
//! One module per action type, as in the reference, in the order the reference lists the types:
//! pass, build, network, develop, sell, loan, scout (shortfall payments while a shortfall is
//! paid). The facts many candidates share are gathered once ([`probe::Position`]) and what an
//! action would take from the board is followed on counters ([`probe::Draw`]).

pub mod build;
pub mod cards;
pub mod develop;
pub mod network;
pub mod probe;
pub mod sell;
pub mod shortfall;
pub mod slots;

use crate::action::Action;
use crate::rules::Card;
use crate::state::{Phase, State};
use arrayvec::ArrayVec;

/// Every legal action of the player to move, in the reference's order.
pub fn legal_actions(state: &State) -> Vec<Action> {
    let mut out = Vec::new();
    legal_actions_into(state, &mut out);
    out
}

/// [`legal_actions`] appended to `out` (a caller listing many positions keeps one buffer).
pub fn legal_actions_into(state: &State, out: &mut Vec<Action>) {
    let Some(seat) = state.current_player() else {
        return;
    };
    if state.phase == Phase::Shortfall {
        shortfall::shortfall_actions(state, seat, out);
        return;
    }
    let pos = probe::Position::new(state, seat);
    // sorted(set(hand)): card ids sort as their codes
    let mut cards: ArrayVec<Card, 16> = pos.player.hand.iter().copied().collect();
    cards.sort_unstable();
    cards.dedup_in_place();
    cards::pass_actions(&pos, &cards, out);
    build::build_actions(&pos, &cards, out);
    build::double_action_builds(&pos, out);
    network::network_actions(&pos, &cards, out);
    develop::develop_actions(&pos, &cards, out);
    sell::sell_actions(state, seat, &cards, out);
    cards::loan_actions(&pos, &cards, out);
    cards::scout_actions(&pos, out);
}

trait DedupInPlace {
    fn dedup_in_place(&mut self);
}

impl<const N: usize> DedupInPlace for ArrayVec<Card, N> {
    fn dedup_in_place(&mut self) {
        let mut kept = 0;
        for i in 0..self.len() {
            if i == 0 || self[i] != self[kept - 1] {
                self[kept] = self[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }
}

#[cfg(test)]
mod tests;
