//! Mirrors `brass_stats.bots.value`: the learned models' inference (held equal by
//! tests/test_core_value.py): LightGBM boosters read from their text format, the features they
//! see of a position, and the win-probability and final-VP models over them.

pub mod features;
mod forest;
pub mod lightgbm;
pub mod models;
