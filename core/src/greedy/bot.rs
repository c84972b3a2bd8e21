//! Mirrors `brass_stats.bots.greedy.bot.GreedyBot` (held equal by tests/test_core_greedy.py): a
//! one-ply greedy decision.
//!
//! The legal actions are grouped by the board they lead to (`grouping`); the first action of each
//! group is applied and its result evaluated without the hand term, with the resource demand of
//! the state to move; each action then adds the hand term of the cards it keeps. The reference
//! scores some Develops and Networks from another group's result instead of applying them
//! (`board_values`); those shortcuts give the very floats applying each gives (the reference's
//! tests/test_greedy_evaluator.py holds them equal), and where a Network ends an era the
//! reference applies each one too, so applying every group's first action is the same decision.

use super::evaluation::{card_values, evaluate, resource_demand, CardValues, SCOUT_GAIN};
use super::grouping::{cap_sells, group_by_board};
use super::Weights;
use crate::action::Action;
use crate::engine::apply_action;
use crate::rng::PyRandom;
use crate::state::State;
use crate::CoreResult;

/// Two values closer than this are a tie.
const TIE: f64 = 1e-9;

/// The one-ply greedy player.
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    pub weights: Weights,
}

impl GreedyBot {
    pub fn new(weights: Weights) -> GreedyBot {
        GreedyBot { weights }
    }

    /// The best actions of `legal` (the legal actions of `state`, in their order), tied within the
    /// reference's margin, as indexes into `legal` in the order the reference collects them. The
    /// reference picks `best[0]` when there is one, else `rng.choice(best)`: see [`Self::choose`].
    pub fn tied_best(&self, state: &State, legal: &[Action]) -> CoreResult<Vec<usize>> {
        match legal.len() {
            0 => return crate::invalid("no legal action to choose from"),
            1 => return Ok(vec![0]),
            _ => {}
        }
        let Some(seat) = state.current_player() else {
            return crate::invalid("the game is over: nobody is to move");
        };
        let w = &self.weights;
        let groups = cap_sells(state, legal, group_by_board(legal), w.sell_cap);
        let values = card_values(state, seat);
        let kept = state.players[seat as usize]
            .hand
            .iter()
            .fold(0.0, |acc, &c| acc + values.get(c));
        let demand = resource_demand(state, w);
        let mut best: Vec<usize> = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        // card values are >= 0, so no action of a group scores above its board value with the hand
        // kept whole: a group whose bound is below the best by more than the tie margin changes nothing
        let bounded = w.hand >= 0.0;
        let mut after = state.clone();
        for variants in &groups {
            let first = &legal[variants[0]];
            after.clone_from(state);
            apply_action(&mut after, first)?;
            let board = evaluate(&after, seat, w, false, Some(demand));
            let scout = matches!(first, Action::Scout { .. });
            let gain = if scout { SCOUT_GAIN } else { 0.0 };
            if bounded && board + w.hand * (kept + gain) <= best_value - TIE {
                continue;
            }
            for &i in variants {
                let value = board + w.hand * hand_after(&values, kept, &legal[i], gain);
                if value > best_value + TIE {
                    best_value = value;
                    best.clear();
                    best.push(i);
                } else if value > best_value - TIE {
                    best.push(i);
                }
            }
        }
        Ok(best)
    }

    /// `GreedyBot.choose(state, legal, rng)`: the index in `legal` of the action chosen, drawing
    /// among ties with `rng` as the reference does.
    pub fn choose(&self, state: &State, legal: &[Action], rng: &mut PyRandom) -> CoreResult<usize> {
        let best = self.tied_best(state, legal)?;
        Ok(match best.len() {
            0 => return crate::invalid("no action has a value (the weights give NaN)"),
            1 => best[0],
            n => best[rng.choice(n)],
        })
    }
}

/// The hand term's card sum after an action: the hand kept less the cards it discards (plus a
/// scout's gain).
fn hand_after(values: &CardValues, kept: f64, a: &Action, gain: f64) -> f64 {
    kept - a.cards().iter().fold(0.0, |acc, &c| acc + values.get(c)) + gain
}
