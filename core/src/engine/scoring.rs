//! Mirrors `brass_stats.engine.scoring` (held equal by tests/test_core_engine.py): end-of-era
//! scoring, the introductory and cash scoring, the final ranking and each seat's share of a win.

use crate::rules::{LinkId, Loc};
use crate::state::{EraBoard, State};
use arrayvec::ArrayVec;
use std::sync::Arc;

/// Link icons of flipped tiles per location (`_flipped_link_icons`).
pub fn flipped_link_icons(state: &State) -> [i32; 64] {
    let rules = &*state.rules;
    let mut icons = [0i32; 64];
    for (slot, t) in state.tiles() {
        if t.flipped {
            icons[rules.slots[slot as usize].location as usize] +=
                rules.level(t.industry, t.level).link_vp;
        }
    }
    icons
}

/// `location_link_value`: link icons printed at a location and on its flipped tiles.
pub fn location_link_value(state: &State, loc: Loc) -> i32 {
    state.rules.locations[loc as usize].printed_link_vp + flipped_link_icons(state)[loc as usize]
}

fn link_value(state: &State, icons: &[i32; 64], link: LinkId) -> i32 {
    let rules = &*state.rules;
    rules.links[link as usize]
        .connects
        .iter()
        .map(|&l| rules.locations[l as usize].printed_link_vp + icons[l as usize])
        .sum()
}

/// `link_vp`: what a link scores now.
pub fn link_vp(state: &State, link: LinkId) -> i32 {
    link_value(state, &flipped_link_icons(state), link)
}

/// `score_era`: the board saved in `era_boards`, links scored (and removed, their tiles back to
/// their owners), then flipped tiles.
pub fn score_era(state: &mut State) {
    let board = EraBoard {
        era: state.era,
        tiles: state.tiles().map(|(s, t)| (s, *t)).collect(),
        links: state.links().collect(),
    };
    let boards = Arc::make_mut(&mut state.era_boards);
    match boards.iter_mut().find(|b| b.era == board.era) {
        Some(b) => *b = board, // `{**era_boards, era: ...}` keeps a key's place
        None => boards.push(board),
    }
    let icons = flipped_link_icons(state);
    for i in 0..state.link_order.len() {
        let link = state.link_order[i];
        let owner = state.link_owner[link as usize] as usize;
        let vp = link_value(state, &icons, link);
        let p = &mut state.players[owner];
        p.vp += vp;
        p.link_tiles += 1;
    }
    state.clear_links();
    let rules = state.rules.clone();
    for i in 0..state.tile_order.len() {
        let t = state.board[state.tile_order[i] as usize].expect("ordered slot holds a tile");
        if t.flipped {
            state.players[t.owner as usize].vp += rules.level(t.industry, t.level).vp;
        }
    }
}

/// `score_cash`: Lancashire, end of the Rail Era, 1 VP for every £10.
pub fn score_cash(state: &mut State) {
    let Some(per) = state.rules.cash_vp_per.filter(|&p| p != 0) else {
        return;
    };
    for p in state.players.iter_mut() {
        p.vp += p.money.div_euclid(per);
    }
}

/// `score_introductory`: 1 VP per £4 (at most 15), VP equal to the income level (never below 0 VP
/// in total), and flipped level-2+ tiles scored a second time.
pub fn score_introductory(state: &mut State) {
    let rules = state.rules.clone();
    for p in state.players.iter_mut() {
        p.vp += i32::min(15, p.money.div_euclid(4));
        let income = rules.income_level(p.income_space);
        p.vp += i32::max(income, -p.vp);
    }
    for i in 0..state.tile_order.len() {
        let t = state.board[state.tile_order[i] as usize].expect("ordered slot holds a tile");
        if t.flipped && t.level >= 2 {
            state.players[t.owner as usize].vp += rules.level(t.industry, t.level).vp;
        }
    }
}

/// `potential_vp`: (link VP, flipped-tile VP) the seat would score if the era ended now.
pub fn potential_vp(state: &State, seat: u8) -> (i32, i32) {
    if state.game_over() {
        return (0, 0);
    }
    let icons = flipped_link_icons(state);
    let links = state
        .links()
        .filter(|&(_, o)| o == seat)
        .map(|(l, _)| link_value(state, &icons, l))
        .sum();
    let tiles = state
        .tiles()
        .filter(|(_, t)| t.owner == seat && t.flipped)
        .map(|(_, t)| state.rules.level(t.industry, t.level).vp)
        .sum();
    (links, tiles)
}

/// One seat's place in the final ranking (`Standing`, less the name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub seat: u8,
    pub vp: i32,
    pub income_level: i32,
    pub money: i32,
    pub rank: u8,
    pub income_space: u8,
}

/// `standings`: rank by VP, then the income marker's space, then money; ties share a rank.
pub fn standings(state: &State) -> ArrayVec<Standing, 4> {
    let key = |seat: usize| {
        let p = &state.players[seat];
        (p.vp, p.income_space, p.money)
    };
    let n = state.num_players();
    (0..n)
        .map(|seat| {
            let p = &state.players[seat];
            let better = (0..n).filter(|&o| key(o) > key(seat)).count();
            Standing {
                seat: seat as u8,
                vp: p.vp,
                income_level: state.income_level(seat),
                money: p.money,
                rank: 1 + better as u8,
                income_space: p.income_space,
            }
        })
        .collect()
}

/// `win_shares`: 1 for the seat ranked first, `1/k` each for `k` seats tied first, 0 for the others.
pub fn win_shares(state: &State) -> ArrayVec<f64, 4> {
    let ranks = standings(state);
    let firsts = ranks.iter().filter(|s| s.rank == 1).count();
    let share = 1.0 / firsts as f64;
    ranks
        .iter()
        .map(|s| if s.rank == 1 { share } else { 0.0 })
        .collect()
}
