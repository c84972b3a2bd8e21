//! Mirrors `brass_stats.bots.search.candidates` (held equal by tests/test_core_search.py): legal
//! actions ranked by the greedy evaluation, one per group of actions that differ only in the cards.

use crate::action::Action;
use crate::greedy::bot::board_values;
use crate::greedy::evaluation::SCOUT_GAIN;
use crate::greedy::grouping::{cap_sells, Groups};
use crate::greedy::hand::{card_values, CardValues};
use crate::greedy::Weights;
use crate::pysum::py_sum;
use crate::state::State;
use crate::CoreResult;
use rustc_hash::FxHashMap as HashMap;

/// One group's representative action and its greedy score (estimated final VP of the mover).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub action: Action,
    pub score: f64,
}

/// The card values an action discards (greedy's hand term), summed as the reference sums them.
fn cost(action: &Action, values: &CardValues) -> f64 {
    match action {
        // sum(values[c] for c in a.discards)
        Action::Scout { discards, .. } => py_sum(discards.iter().map(|&c| values.get(c))),
        Action::Build {
            card, second_card, ..
        } => values.get(*card) + second_card.map_or(0.0, |c| values.get(c)),
        Action::Shortfall { .. } => 0.0,
        Action::Network { card, .. }
        | Action::Develop { card, .. }
        | Action::Sell { card, .. }
        | Action::Loan { card, .. }
        | Action::Pass { card, .. } => values.get(*card),
    }
}

/// `rank(state, legal, greedy, boards)`: one candidate per board group of `legal`, best greedy
/// score first (ties: list order). `boards` (board key -> board value) is read and filled.
pub fn rank(
    state: &State,
    legal: &[Action],
    w: &Weights,
    boards: Option<&mut HashMap<Action, f64>>,
) -> CoreResult<Vec<Candidate>> {
    let Some(seat) = state.current_player() else {
        return Ok(Vec::new());
    };
    if legal.len() == 1 {
        return Ok(vec![Candidate {
            action: legal[0].clone(),
            score: 0.0,
        }]);
    }
    let values = card_values(state, seat);
    // per group, in first-seen order: (the cheapest variant's index in `legal`, its cost); groups
    // are found by the board key's hash, checked against the group's first action
    let mut groups: Vec<(usize, f64)> = Vec::new();
    let mut first_of: Vec<usize> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::default();
    let mut chain: Vec<Option<usize>> = Vec::new(); // the next group whose key has the same hash
    for (ai, a) in legal.iter().enumerate() {
        let c = cost(a, &values);
        let h = a.board_hash();
        let mut found = index.get(&h).copied();
        while let Some(g) = found {
            if legal[first_of[g]].same_board(a) {
                break;
            }
            found = chain[g];
        }
        match found {
            Some(g) => {
                if c < groups[g].1 {
                    groups[g] = (ai, c);
                }
            }
            None => {
                chain.push(index.insert(h, groups.len()));
                first_of.push(ai);
                groups.push((ai, c));
            }
        }
    }
    if groups.len() == 1 {
        return Ok(vec![Candidate {
            action: legal[0].clone(),
            score: 0.0,
        }]);
    }
    let mut keep = vec![true; groups.len()];
    let sells = groups
        .iter()
        .filter(|(ai, _)| matches!(legal[*ai], Action::Sell { .. }))
        .count();
    if sells > w.sell_cap {
        let firsts: Vec<Action> = groups.iter().map(|(ai, _)| legal[*ai].clone()).collect();
        keep = vec![false; groups.len()];
        for g in cap_sells(
            state,
            &firsts,
            (0..groups.len()).map(|i| vec![i]).collect(),
            w.sell_cap,
        ) {
            keep[g[0]] = true;
        }
    }
    let keys: Vec<Action> = first_of.iter().map(|&ai| legal[ai].board_key()).collect();
    let mut own = HashMap::default();
    let boards = boards.unwrap_or(&mut own);
    let missing: Vec<usize> = (0..groups.len())
        .filter(|&i| keep[i] && !boards.contains_key(&keys[i]))
        .collect();
    if !missing.is_empty() {
        // each missing group's cheapest variant, as the reference's `board_values` is given them
        let firsts: Groups = missing.iter().map(|&i| vec![groups[i].0]).collect();
        let found = board_values(state, seat, legal, &firsts, w)?;
        for (&i, v) in missing.iter().zip(found) {
            boards.insert(keys[i].clone(), v);
        }
    }
    let kept = py_sum(
        state.players[seat as usize]
            .hand
            .iter()
            .map(|&c| values.get(c)),
    );
    let mut out: Vec<Candidate> = (0..groups.len())
        .filter(|&i| keep[i])
        .map(|i| {
            let (ai, c) = &groups[i];
            let a = &legal[*ai];
            let gain = if matches!(a, Action::Scout { .. }) {
                SCOUT_GAIN
            } else {
                0.0
            };
            Candidate {
                action: a.clone(),
                score: boards[&keys[i]] + w.hand * (kept - c + gain),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(out)
}
