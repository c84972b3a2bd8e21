//! Mirrors `brass_stats.engine.legal.shortfall` (held equal by tests/test_core_legal.py): which of
//! the player's tiles to remove for a shortfall, and in which order.

use crate::action::Action;
use crate::rules::{SlotId, MAX_SLOTS};
use crate::state::State;
use arrayvec::ArrayVec;

/// `tile_sale_value_of`: half the tile's cost, rounded down.
fn sale_value(state: &State, slot: SlotId) -> i32 {
    state.board[slot as usize].map_or(0, |t| {
        state
            .rules
            .level(t.industry, t.level)
            .cost_money
            .div_euclid(2)
    })
}

struct Search<'s> {
    seat: u8,
    owed: i32,
    own: &'s [(SlotId, i32)],
}

impl Search<'_> {
    /// A set is legal when it covers the debt and still falls short without its most valuable
    /// tile (removed last); sets are visited in board order, a set before its supersets.
    fn extend(
        &self,
        chosen: &mut ArrayVec<(SlotId, i32), MAX_SLOTS>,
        start: usize,
        total: i32,
        most: i32,
        out: &mut Vec<Action>,
    ) {
        for i in start..self.own.len() {
            let (slot, value) = self.own[i];
            let (now, top) = (total + value, most.max(value));
            if now - top >= self.owed {
                continue; // covered before its last tile, whatever the order: so are its supersets
            }
            chosen.push((slot, value));
            if now >= self.owed {
                let mut order: ArrayVec<(SlotId, i32), MAX_SLOTS> = chosen.clone();
                order.sort_by_key(|&(_, v)| v); // stable: ties stay in board order
                out.push(Action::Shortfall {
                    player: self.seat,
                    tiles: order.iter().map(|&(s, _)| s).collect(),
                });
            }
            self.extend(chosen, i + 1, now, top, out);
            chosen.pop();
        }
    }
}

/// Every set of own tiles that covers the debt, the most valuable removed last; or every tile
/// when even all of them do not cover it.
pub fn shortfall_actions(state: &State, seat: u8, out: &mut Vec<Action>) {
    let Some(&(_, owed)) = state.shortfalls.first() else {
        return;
    };
    // sellable_for_shortfall: own tiles worth more than £0, in board (slot) order
    let own: ArrayVec<(SlotId, i32), MAX_SLOTS> = (0..state.rules.slots.len() as SlotId)
        .filter(|&s| state.board[s as usize].is_some_and(|t| t.owner == seat))
        .map(|s| (s, sale_value(state, s)))
        .filter(|&(_, v)| v > 0)
        .collect();
    if own.iter().map(|&(_, v)| v).sum::<i32>() <= owed {
        out.push(Action::Shortfall {
            player: seat,
            tiles: own.iter().map(|&(s, _)| s).collect(),
        });
        return;
    }
    let search = Search {
        seat,
        owed,
        own: &own,
    };
    search.extend(&mut ArrayVec::new(), 0, 0, 0, out);
}
