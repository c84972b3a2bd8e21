//! Mirrors `brass_stats.bots.search.evaluation` and the review's leaves (held equal by
//! tests/test_core_search.py): a position -> one value per seat.

use crate::engine::scoring::win_shares;
use crate::greedy::evaluation::{evaluate, resource_demand};
use crate::greedy::Weights;
use crate::state::State;
use crate::value::models::{FinalVpModel, WinProbabilityModel};
use crate::{CoreError, CoreResult};
use std::sync::Arc;

/// The learned models a leaf may read (the models see the position through the default weights'
/// evaluation terms, as `position_features` does).
#[derive(Clone, Debug, Default)]
pub struct Models {
    pub win: Option<Arc<WinProbabilityModel>>,
    pub final_vp: Option<Arc<FinalVpModel>>,
    pub features_weights: Weights,
}

impl Models {
    /// `WinProbabilityModel.predict(state)`.
    pub fn win(&self, state: &State) -> CoreResult<Vec<f64>> {
        let m = self.win.as_ref().ok_or_else(|| {
            CoreError::Invalid("this leaf needs the win-probability model".into())
        })?;
        Ok(m.predict(state, &self.features_weights).to_vec())
    }

    /// `FinalVpModel.predict(state)`.
    pub fn final_vp(&self, state: &State) -> CoreResult<Vec<f64>> {
        let m = self.final_vp.as_ref().ok_or_else(|| {
            CoreError::Invalid("this leaf needs the expected-final-VP model".into())
        })?;
        Ok(m.predict(state, &self.features_weights).to_vec())
    }
}

/// Where a softmax leaf's estimates of each seat's final VP come from.
#[derive(Clone, Debug)]
pub enum Estimates {
    /// the greedy evaluation (with the hand term)
    Greedy,
    /// the learned expected-final-VP model
    FinalVp,
}

/// A leaf evaluator the core runs (each a twin of a Python leaf: see `brass_stats.bots.search.evaluation`).
#[derive(Clone, Debug)]
pub enum Leaf {
    /// `SoftmaxLeaf(start, end, estimates)`: a softmax of estimated final VP, cooling with the game
    Softmax {
        start: f64,
        end: f64,
        estimates: Estimates,
    },
    /// `WinLeaf`: the win-probability model
    Win,
    /// `FinalVpLeaf`: the expected final VP itself
    FinalVp,
    /// `StakeLeaf`: expected final VP plus the chance of winning at `per_player` VP a player
    Stake { per_player: f64 },
}

/// `softmax(scores, temperature)`.
pub fn softmax(scores: &[f64], temperature: f64) -> Vec<f64> {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = scores
        .iter()
        .map(|s| ((s - top) / temperature).exp())
        .collect();
    let total = crate::pysum::py_sum(e.iter().copied());
    e.iter().map(|x| x / total).collect()
}

impl Leaf {
    /// One value per seat of `state` (a finished game: its win shares, for every leaf but the VP ones).
    pub fn value(&self, state: &State, w: &Weights, models: &Models) -> CoreResult<Vec<f64>> {
        Ok(match self {
            Leaf::Softmax {
                start,
                end,
                estimates,
            } => {
                if state.game_over() {
                    return Ok(win_shares(state).to_vec());
                }
                let est = match estimates {
                    Estimates::Greedy => {
                        let demand = resource_demand(state, w);
                        (0..state.num_players() as u8)
                            .map(|s| evaluate(state, s, w, true, Some(demand)))
                            .collect::<Vec<_>>()
                    }
                    Estimates::FinalVp => models.final_vp(state)?,
                };
                let temperature = start + (end - start) * state.progress();
                softmax(&est, temperature)
            }
            Leaf::Win => models.win(state)?,
            Leaf::FinalVp => models.final_vp(state)?,
            Leaf::Stake { per_player } => {
                let stake = per_player * state.num_players() as f64;
                let vp = models.final_vp(state)?;
                let win = models.win(state)?;
                vp.iter().zip(&win).map(|(v, p)| v + stake * p).collect()
            }
        })
    }
}
