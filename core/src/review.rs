//! Mirrors `brass_stats.analysis.review.judge.Reviewer` (held equal by tests/test_core_review.py):
//! the readings the review takes of an action, in samples of the hidden cards.
//!
//! A reading is each seat's win probability and expected final VP after the action and the rest of
//! its mover's turn (played by the greedy bot), and, when the game ends before the mover moves
//! again, after the game played out by the turn planner. Every random draw is the reference's: a
//! sample comes from `random.Random(sample_seed)`, the rest of its turn from
//! `random.Random(turn_seed)`, the two 64-bit seeds the reference draws from the action's generator.

use crate::action::Action;
use crate::engine::apply_action;
use crate::greedy::Weights;
use crate::information::{attempt, determinize};
use crate::legal::legal_actions;
use crate::play::{greedy_choice, planner_choice};
use crate::rng::PyRandom;
use crate::search::leaf::Models;
use crate::state::{Era, State};
use crate::CoreResult;

/// `turn_planner.CANDIDATES`: first actions the turn planner tries.
pub const PLANNER_CANDIDATES: usize = 10;

/// One reading: (each seat's win probability, each seat's expected final VP).
pub type Reading = (Vec<f64>, Vec<f64>);

/// `Reviewer._finish_turn`: the rest of the mover's turn `turn` (its round and place in the turn
/// order, read before the action), played by the greedy bot.
pub fn finish_turn(mut state: State, seat: u8, rng: &mut PyRandom, turn: (u32, u8), w: &Weights) -> CoreResult<State> {
    while !state.game_over() && state.current_player() == Some(seat) && (state.round, state.turn_pos) == turn {
        let legal = legal_actions(&state);
        let a = greedy_choice(&state, &legal, w, rng)?;
        apply_action(&mut state, &a)?;
    }
    Ok(state)
}

/// `Reviewer._play_out`: the rest of the game, every seat played by the turn planner.
pub fn play_out(mut state: State, rng: &mut PyRandom, w: &Weights) -> CoreResult<State> {
    while !state.game_over() {
        let legal = legal_actions(&state);
        let a = planner_choice(&state, &legal, w, PLANNER_CANDIDATES, rng)?;
        apply_action(&mut state, &a)?;
    }
    Ok(state)
}

/// `Reviewer._world` from the two seeds it draws: the sample of the hidden cards.
pub fn world(state: &State, seat: u8, sample_seed: u64) -> State {
    determinize(state, seat, &mut PyRandom::new(sample_seed))
}

/// Whether the game ends before the mover moves again, read in the first sample (`_worlds`).
pub fn ends_before_next_turn(
    state: &State,
    seat: u8,
    played: &Action,
    sample: (u64, u64),
    turn: (u32, u8),
    w: &Weights,
) -> CoreResult<bool> {
    let after = attempt(&world(state, seat, sample.0), played)?;
    let first = finish_turn(after, seat, &mut PyRandom::new(sample.1), turn, w)?;
    Ok(first.game_over() || (first.era == Era::Rail && first.is_last_round_of_era()))
}

/// `Reviewer.judge`: each action's readings in each sample (paired: the same samples and seeds).
pub fn judge(
    state: &State,
    seat: u8,
    actions: &[Action],
    samples: &[(u64, u64)],
    last: bool,
    turn: (u32, u8),
    w: &Weights,
    models: &Models,
) -> CoreResult<Vec<Vec<Reading>>> {
    let worlds: Vec<State> = samples.iter().map(|&(s, _)| world(state, seat, s)).collect();
    let mut out = Vec::with_capacity(actions.len());
    for action in actions {
        let mut readings = Vec::with_capacity(samples.len());
        for (world, &(_, turn_seed)) in worlds.iter().zip(samples) {
            let mut rng = PyRandom::new(turn_seed);
            let mut after = finish_turn(attempt(world, action)?, seat, &mut rng, turn, w)?;
            if last {
                after = play_out(after, &mut rng, w)?;
            }
            readings.push((models.win(&after)?, models.final_vp(&after)?));
        }
        out.push(readings);
    }
    Ok(out)
}
