//! The bots' specs as the Python package sends them (docs/core.md): which bot, its knobs, its leaf.
//!
//! `brass_stats.bots.compiled` writes these from the Python bot objects (`GreedyBot`, `SearchBot`,
//! ...); a bot it cannot describe (a custom leaf callable, a subclass) stays on the Python path.

use crate::greedy::Weights;
use crate::play::Bot;
use crate::search::leaf::{Estimates, Leaf};
use crate::search::SearchConfig;
use crate::{CoreError, CoreResult};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LeafSpec {
    Softmax {
        start: f64,
        end: f64,
        estimates: String,
    },
    Win,
    FinalVp,
    Stake {
        per_player: f64,
    },
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BotSpec {
    Random,
    Greedy {
        weights: Weights,
    },
    Exploring {
        rate: f64,
        weights: Weights,
    },
    Search {
        config: SearchConfig,
        weights: Weights,
        leaf: LeafSpec,
    },
    Planner {
        weights: Weights,
        candidates: usize,
    },
}

impl LeafSpec {
    pub fn leaf(&self) -> CoreResult<Leaf> {
        Ok(match self {
            LeafSpec::Softmax {
                start,
                end,
                estimates,
            } => {
                if *start <= 0.0 || *end <= 0.0 {
                    return Err(CoreError::Invalid(
                        "the temperature must be positive".into(),
                    ));
                }
                let estimates = match estimates.as_str() {
                    "greedy" => Estimates::Greedy,
                    "final_vp" => Estimates::FinalVp,
                    other => {
                        return Err(CoreError::Invalid(format!("unknown estimates {other:?}")))
                    }
                };
                Leaf::Softmax {
                    start: *start,
                    end: *end,
                    estimates,
                }
            }
            LeafSpec::Win => Leaf::Win,
            LeafSpec::FinalVp => Leaf::FinalVp,
            LeafSpec::Stake { per_player } => Leaf::Stake {
                per_player: *per_player,
            },
        })
    }
}

/// A search's knobs checked as `SearchBot.__init__` checks them.
pub fn checked(config: SearchConfig) -> CoreResult<SearchConfig> {
    if config.simulations.is_none() && config.seconds.is_none() {
        return Err(CoreError::Invalid(
            "give a budget: simulations, seconds or both".into(),
        ));
    }
    if config.simulations == Some(0) {
        return Err(CoreError::Invalid("simulations must be at least 1".into()));
    }
    Ok(config)
}

impl BotSpec {
    pub fn bot(self) -> CoreResult<Bot> {
        Ok(match self {
            BotSpec::Random => Bot::Random,
            BotSpec::Greedy { weights } => Bot::Greedy(weights),
            BotSpec::Exploring { rate, weights } => Bot::Exploring { rate, weights },
            BotSpec::Search {
                config,
                weights,
                leaf,
            } => Bot::Search {
                config: checked(config)?,
                weights,
                leaf: leaf.leaf()?,
            },
            BotSpec::Planner {
                weights,
                candidates,
            } => Bot::Planner {
                weights,
                candidates,
            },
        })
    }
}

pub fn parse<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> CoreResult<T> {
    serde_json::from_str(text).map_err(|e| CoreError::Invalid(format!("{what}: {e}")))
}
