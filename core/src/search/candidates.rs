//! Mirrors `brass_stats.bots.search.candidates` (held equal by tests/test_core_search.py): legal
//! actions ranked by the greedy evaluation, one per group of actions that differ only in the cards.

use crate::action::Action;
use crate::engine::apply_action;
use crate::greedy::evaluation::{card_values, evaluate, resource_demand, CardValues, SCOUT_GAIN};
use crate::greedy::grouping::cap_sells;
use crate::greedy::Weights;
use crate::state::State;
use crate::CoreResult;
use std::collections::HashMap;

/// One group's representative action and its greedy score (estimated final VP of the mover).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub action: Action,
    pub score: f64,
}

/// The card values an action discards (greedy's hand term), summed as the reference sums them.
fn cost(action: &Action, values: &CardValues) -> f64 {
    match action {
        Action::Scout { discards, .. } => {
            // sum(values[c] for c in a.discards): from the integer 0, left to right
            let mut total = 0.0;
            for &c in discards {
                total += values.get(c);
            }
            total
        }
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

/// `board_values`: the greedy evaluation (no hand term, the demand of `state`) of the state each
/// action leads to. The reference scores some Develops and Networks from another's result; those
/// give the very floats applying each gives (see `greedy::bot`).
pub fn board_values(
    state: &State,
    seat: u8,
    actions: &[&Action],
    w: &Weights,
) -> CoreResult<Vec<f64>> {
    let demand = resource_demand(state, w);
    let mut after = state.clone();
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        after.clone_from(state);
        apply_action(&mut after, a)?;
        out.push(evaluate(&after, seat, w, false, Some(demand)));
    }
    Ok(out)
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
    // board key -> (the cheapest variant, its cost), in first-seen order
    let mut keys: Vec<Action> = Vec::new();
    let mut index: HashMap<Action, usize> = HashMap::new();
    let mut groups: Vec<(Action, f64)> = Vec::new();
    for a in legal {
        let k = a.board_key();
        let c = cost(a, &values);
        match index.get(&k) {
            None => {
                index.insert(k.clone(), groups.len());
                keys.push(k);
                groups.push((a.clone(), c));
            }
            Some(&i) => {
                if c < groups[i].1 {
                    groups[i] = (a.clone(), c);
                }
            }
        }
    }
    if groups.len() == 1 {
        return Ok(vec![Candidate {
            action: legal[0].clone(),
            score: 0.0,
        }]);
    }
    let firsts: Vec<Action> = groups.iter().map(|(a, _)| a.clone()).collect();
    let mut keep = vec![false; groups.len()];
    for g in cap_sells(
        state,
        &firsts,
        (0..groups.len()).map(|i| vec![i]).collect(),
        w.sell_cap,
    ) {
        keep[g[0]] = true;
    }
    let mut own = HashMap::new();
    let boards = boards.unwrap_or(&mut own);
    let missing: Vec<usize> = (0..groups.len())
        .filter(|&i| keep[i] && !boards.contains_key(&keys[i]))
        .collect();
    if !missing.is_empty() {
        let firsts: Vec<&Action> = missing.iter().map(|&i| &groups[i].0).collect();
        let found = board_values(state, seat, &firsts, w)?;
        for (&i, v) in missing.iter().zip(found) {
            boards.insert(keys[i].clone(), v);
        }
    }
    let mut kept = 0.0;
    for &c in &state.players[seat as usize].hand {
        kept += values.get(c);
    }
    let mut out: Vec<Candidate> = (0..groups.len())
        .filter(|&i| keep[i])
        .map(|i| {
            let (a, c) = &groups[i];
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
