//! Mirrors the shortfall part of `brass_stats.engine.turn` (held equal by
//! tests/test_core_engine.py): negative income paid by removing own tiles (half their cost each),
//! then 1 VP per £1 still short.

use super::turn::after_round;
use crate::rules::SlotId;
use crate::state::{Phase, State, Tile};
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// `tile_sale_value_of`: a tile removed for a shortfall is worth half its cost, rounded down.
pub fn tile_sale_value(state: &State, t: &Tile) -> i32 {
    state
        .rules
        .level(t.industry, t.level)
        .cost_money
        .div_euclid(2)
}

/// `sellable_for_shortfall`: the seat's tiles that raise money when removed, in slot order.
pub fn sellable_for_shortfall(state: &State, seat: u8) -> ArrayVec<SlotId, 64> {
    let mut own: ArrayVec<SlotId, 64> = state
        .tiles()
        .filter(|(_, t)| t.owner == seat && tile_sale_value(state, t) > 0)
        .map(|(s, _)| s)
        .collect();
    own.sort_unstable();
    own
}

/// `_lose_vp`: 1 VP per £1 short, never below 0 VP.
pub fn lose_vp(state: &mut State, seat: u8, short: i32) {
    let p = &mut state.players[seat as usize];
    p.vp -= i32::min(p.vp, short);
}

/// `apply_shortfall` with the tiles stated, in the order removed.
pub fn apply_shortfall(state: &mut State, seat: u8, tiles: &[SlotId]) -> CoreResult<()> {
    let Some(&(debtor, mut remaining)) = state.shortfalls.first() else {
        return invalid("shortfall.not_needed: no shortfall is being paid now");
    };
    if debtor != seat {
        return invalid("turn.order: another player pays a shortfall first");
    }
    let mut chosen = 0;
    while remaining > 0 {
        let own = sellable_for_shortfall(state, seat);
        if own.is_empty() {
            break;
        }
        let Some(&slot) = tiles.get(chosen) else {
            return invalid("shortfall.tiles: money is still owed and tiles are left on the board");
        };
        if !own.contains(&slot) {
            return invalid("shortfall.tiles: not one of the player's tiles that raise money");
        }
        let t = state.remove_tile(slot).expect("listed: a tile is there");
        let value = tile_sale_value(state, &t);
        let take = i32::min(value, remaining);
        remaining -= take;
        state.players[seat as usize].money += value - take;
        chosen += 1;
    }
    if chosen < tiles.len() {
        return invalid("shortfall.tiles: the shortfall was covered before the last tile stated");
    }
    if remaining > 0 {
        lose_vp(state, seat, remaining);
    }
    state.shortfalls.remove(0);
    if state.shortfalls.is_empty() {
        state.phase = Phase::Actions;
        after_round(state, state.era_ends_after_shortfall)?;
    }
    Ok(())
}
