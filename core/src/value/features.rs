//! Mirrors `brass_stats.bots.value.features` (`position_features`: one row of `FEATURE_NAMES`
//! per seat; held equal by tests/test_core_value.py, float for float).
//!
//! Every value is computed with the reference's operations in its order: the estimate is the
//! greedy terms added onto 0.0 in the order `explain`'s dict holds them (`Terms::total`), the opponents' mean is
//! their estimates added left to right then divided, and a maximum keeps the first of equal values.

use crate::greedy::{explain, resource_demand, Terms, Weights};
use crate::rules::Edition;
use crate::state::{Era, State};
use arrayvec::ArrayVec;

/// The model's columns, in order (`FEATURE_NAMES`).
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "players",
    "lancashire",
    "rail_era",
    "progress",
    "own_vp",
    "own_pending",
    "own_rescoring",
    "own_unflipped",
    "own_link_growth",
    "own_reach",
    "own_money",
    "own_income",
    "own_risk",
    "own_mat",
    "own_estimate",
    "lead_estimate",
    "mean_gap_estimate",
    "rank_estimate",
    "lead_vp",
    "own_income_level",
    "lead_income_level",
    "own_money_raw",
    "own_loans",
    "own_tiles_left",
    "own_links_left",
    "own_cards",
    "seat_to_move",
];

pub const NUM_FEATURES: usize = 27;

/// One seat's features.
pub type Row = [f64; NUM_FEATURES];

/// One row per seat, seats in order.
pub type Rows = ArrayVec<Row, 4>;

/// The `TERMS` columns: `terms.get(t, 0.0)` for each (a finished game has only `vp`).
fn term_columns(t: &Terms) -> [f64; 10] {
    if t.tie_break.is_some() {
        return [t.vp, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    }
    [
        t.vp,
        t.pending,
        t.rescoring,
        t.unflipped,
        t.link_growth,
        t.reach,
        t.money,
        t.income,
        t.risk,
        t.mat,
    ]
}

/// Python's `max` over the values but `skip`: the first of the largest.
fn max_but<T: Copy + PartialOrd>(values: &[T], skip: usize) -> T {
    let mut others = values
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != skip)
        .map(|(_, &v)| v);
    let first = others.next().unwrap_or(values[skip]);
    others.fold(first, |best, v| if v > best { v } else { best })
}

/// `position_features(state)`: one row of [`FEATURE_NAMES`] per seat (the greedy terms with the
/// weights `w`, the reference's `DEFAULT_WEIGHTS` for the shipped models).
pub fn position_features(state: &State, w: &Weights) -> Rows {
    let n = state.num_players();
    // the reference lets each seat's explain compute it: the same value from the same position
    let demand = (!state.game_over()).then(|| resource_demand(state, w));
    let terms: ArrayVec<Terms, 4> = (0..n)
        .map(|s| explain(state, s as u8, w, false, demand))
        .collect();
    // `sum(t.values())`: the terms added onto 0.0 in the dict's order
    let estimates: ArrayVec<f64, 4> = terms.iter().map(Terms::total).collect();
    let vps: ArrayVec<i32, 4> = state.players.iter().map(|p| p.vp).collect();
    let incomes: ArrayVec<i32, 4> = (0..n).map(|s| state.income_level(s)).collect();
    let clock = state.progress();
    let rail = if state.era == Era::Rail { 1.0 } else { 0.0 };
    let lanc = if state.rules.edition == Edition::Lancashire {
        1.0
    } else {
        0.0
    };
    let mover = state.current_player();
    let mut rows = Rows::new();
    for s in 0..n {
        let own = estimates[s];
        let mut better = 0;
        for (o, &e) in estimates.iter().enumerate() {
            if o != s {
                better += i32::from(e > own);
            }
        }
        // sum(others): the opponents' estimates in seat order
        let others_sum = crate::pysum::py_sum(
            estimates
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != s)
                .map(|(_, &e)| e),
        );
        let p = &state.players[s];
        let t = term_columns(&terms[s]);
        rows.push([
            n as f64,
            lanc,
            rail,
            clock,
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            t[5],
            t[6],
            t[7],
            t[8],
            t[9],
            own,
            own - max_but(&estimates, s),
            own - others_sum / (n - 1) as f64,
            better as f64,
            (vps[s] - max_but(&vps, s)) as f64,
            incomes[s] as f64,
            (incomes[s] - max_but(&incomes, s)) as f64,
            p.money as f64,
            p.loans as f64,
            p.tiles_left() as f64,
            p.link_tiles as f64,
            p.hand.len() as f64,
            if mover == Some(s as u8) { 1.0 } else { 0.0 },
        ]);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_maximum_skips_the_seat_and_keeps_the_first() {
        assert_eq!(max_but(&[5, 1, 3], 0), 3);
        assert_eq!(max_but(&[5, 1, 3], 2), 5);
        // equal values: the first is kept (0.0 before -0.0)
        assert!(max_but(&[1.0f64, 0.0, -0.0], 0).is_sign_positive());
        assert!(max_but(&[1.0f64, -0.0, 0.0], 0).is_sign_negative());
    }

    #[test]
    fn a_finished_game_has_only_the_vp_column() {
        let over = Terms {
            vp: 3.0,
            tie_break: Some(0.25),
            ..Terms::default()
        };
        assert_eq!(
            term_columns(&over),
            [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
    }
}
