//! Mirrors `slot_options`, `resource_gone` and `virtual_link_allows` of `brass_stats.engine.build`
//! (held equal by tests/test_core_legal.py): where a tile may go, as the engine decides it.
//!
//! Slot lists are bitsets of slot ids: a location's slot ids ascend in its slot index order, so
//! iterating the bits gives the reference's lists in their order.

use crate::board::bit;
use crate::rules::{Ind, Loc};
use crate::state::{Era, State};

/// `(empty slots the rules allow, slots whose tile may be overbuilt)`, as bitsets of slot ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotOptions {
    pub empty: u64,
    pub over: u64,
}

/// The members of a bitset (slot, location, industry or link ids), lowest first.
pub fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let s = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(s)
    })
}

/// `slot_options(state, seat, industry, level, loc)`. In the Canal Era a player who already has a
/// tile in the location may only replace that tile (one tile per location per player).
pub fn slot_options(state: &State, seat: u8, industry: Ind, level: u8, loc: Loc) -> SlotOptions {
    let rules = &*state.rules;
    let mut empty = 0u64;
    let mut singles = 0u64;
    let mut own_here = None; // the player's first tile here
    for &s in &rules.locations[loc as usize].slots {
        let info = &rules.slots[s as usize];
        match &state.board[s as usize] {
            None => {
                if info.mask >> industry & 1 == 1 {
                    empty |= 1 << s;
                    if info.industries.len() == 1 {
                        singles |= 1 << s;
                    }
                }
            }
            Some(t) => {
                if own_here.is_none() && t.owner == seat {
                    own_here = Some((s, *t));
                }
            }
        }
    }
    if let (Era::Canal, Some((s, t))) = (state.era, own_here) {
        let can = t.industry == industry
            && t.level < level
            && rules.slots[s as usize].mask >> industry & 1 == 1;
        return SlotOptions {
            empty: 0,
            over: if can { 1 << s } else { 0 },
        };
    }
    let mut over = 0u64;
    for &s in &rules.locations[loc as usize].slots {
        let Some(t) = state.board[s as usize] else {
            continue;
        };
        if t.industry != industry || t.level >= level {
            continue;
        }
        let mine_or_works = Some(industry) == rules.coal_mine || Some(industry) == rules.iron_works;
        if t.owner == seat || (mine_or_works && resource_gone(state, industry)) {
            over |= 1 << s;
        }
    }
    SlotOptions {
        empty: if singles != 0 { singles } else { empty },
        over,
    }
}

/// `resource_gone(state, industry)`: no cube of the industry's resource on the board or its market.
pub fn resource_gone(state: &State, industry: Ind) -> bool {
    let market = if Some(industry) == state.rules.coal_mine {
        state.coal_market
    } else {
        state.iron_market
    };
    if market != 0 {
        return false;
    }
    !state
        .tiles()
        .any(|(_, t)| t.industry == industry && t.resources > 0)
}

/// `virtual_link_allows(state, seat, location)`: the classic Lancashire rule, Liverpool in your
/// network lets an industry card build in Birkenhead. `net` is the player's network.
pub fn virtual_link_allows(state: &State, net: u64, loc: Loc) -> bool {
    match state.rules.virtual_link {
        Some((from, to)) => state.options.virtual_link && loc == to && net & bit(from) != 0,
        None => false,
    }
}
