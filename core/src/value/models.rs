//! Mirrors `brass_stats.bots.value.model.WinProbabilityModel` and
//! `brass_stats.bots.value.final_vp.FinalVpModel` (held equal by tests/test_core_value.py).
//!
//! Both are a [`Booster`] over [`FEATURE_NAMES`]; the shipped models (`model.txt.gz`,
//! `final_vp.txt.gz` beside the Python modules) are compiled into the core, so the search needs no
//! file at run time (a rebuilt model needs a rebuilt core).

use super::features::{position_features, Rows, FEATURE_NAMES};
use super::lightgbm::Booster;
use crate::engine::scoring::win_shares;
use crate::greedy::Weights;
use crate::state::State;
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// The shipped win-probability model's gzip-compressed text.
pub const SHIPPED_WIN_MODEL: &[u8] = include_bytes!("../../../brass_stats/bots/value/model.txt.gz");
/// The shipped final-VP model's gzip-compressed text.
pub const SHIPPED_FINAL_VP: &[u8] =
    include_bytes!("../../../brass_stats/bots/value/final_vp.txt.gz");

/// One value per seat, seats in order.
pub type PerSeat = ArrayVec<f64, 4>;

/// `BoosterModel.__init__`: refuse a booster trained on other features than [`FEATURE_NAMES`].
fn check_features(booster: &Booster) -> CoreResult<()> {
    let names = booster.feature_names();
    if names.len() != FEATURE_NAMES.len() || names.iter().zip(FEATURE_NAMES).any(|(a, b)| a != b) {
        return invalid(format!(
            "the model's features {names:?} are not this version's {FEATURE_NAMES:?}"
        ));
    }
    Ok(())
}

/// Each seat's booster output (the seats walk the trees together).
fn outputs(booster: &Booster, rows: &Rows) -> PerSeat {
    let mut out = PerSeat::new();
    booster
        .predict_into(rows, &mut out)
        .expect("rows have the model's width (checked when it was made)");
    out
}

/// Each seat's probability of winning a position (ties shared), summing to 1.
#[derive(Clone, Debug)]
pub struct WinProbabilityModel {
    booster: Booster,
}

impl WinProbabilityModel {
    pub fn new(booster: Booster) -> CoreResult<Self> {
        check_features(&booster)?;
        Ok(WinProbabilityModel { booster })
    }

    /// The model shipped with this version (`model.txt.gz`).
    pub fn shipped() -> CoreResult<Self> {
        Self::new(Booster::from_gzip(SHIPPED_WIN_MODEL)?)
    }

    pub fn booster(&self) -> &Booster {
        &self.booster
    }

    /// `predict_rows` for one position: the scores clipped at 1e-6, divided by their sum.
    pub fn predict_rows(&self, rows: &Rows) -> PerSeat {
        let scores: PerSeat = outputs(&self.booster, rows)
            .into_iter()
            .map(|x| x.max(1e-6))
            .collect();
        // numpy's s.sum() over at most 4 values: left to right from the first (pairwise summation
        // only splits blocks of 8 or more)
        let total = scores[1..].iter().fold(scores[0], |a, &x| a + x);
        scores.iter().map(|&x| x / total).collect()
    }

    /// Each seat's probability of winning from `state` (a finished game: its result).
    pub fn predict(&self, state: &State, w: &Weights) -> PerSeat {
        if state.game_over() {
            return win_shares(state);
        }
        self.predict_rows(&position_features(state, w))
    }
}

/// Each seat's expected final VP from a position.
#[derive(Clone, Debug)]
pub struct FinalVpModel {
    booster: Booster,
}

impl FinalVpModel {
    pub fn new(booster: Booster) -> CoreResult<Self> {
        check_features(&booster)?;
        Ok(FinalVpModel { booster })
    }

    /// The model shipped with this version (`final_vp.txt.gz`).
    pub fn shipped() -> CoreResult<Self> {
        Self::new(Booster::from_gzip(SHIPPED_FINAL_VP)?)
    }

    pub fn booster(&self) -> &Booster {
        &self.booster
    }

    pub fn predict_rows(&self, rows: &Rows) -> PerSeat {
        outputs(&self.booster, rows)
    }

    /// Each seat's expected final VP from `state` (a finished game: the VP it ended with).
    pub fn predict(&self, state: &State, w: &Weights) -> PerSeat {
        if state.game_over() {
            return state.players.iter().map(|p| p.vp as f64).collect();
        }
        self.predict_rows(&position_features(state, w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_models_load() {
        let win = WinProbabilityModel::shipped().unwrap();
        assert_eq!(win.booster().num_trees(), 150);
        let vp = FinalVpModel::shipped().unwrap();
        assert_eq!(vp.booster().num_trees(), 200);
    }
}
