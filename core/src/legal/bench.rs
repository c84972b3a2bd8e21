//! The speed of `legal_actions` on positions the caller dumps (not a parity test: see
//! tests/test_core_legal.py). Run with
//! `BRASS_LEGAL_POSITIONS=file.json cargo test --release --manifest-path core/Cargo.toml legal_speed -- --ignored --nocapture`,
//! the file holding `{"rules": {edition: rules table}, "positions": [[edition, wire state], ...]}`
//! (`tests/test_core_legal.py::dump_positions` writes one).

use super::legal_actions_into;
use crate::rules::Rules;
use crate::state::State;
use crate::wire::StateWire;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

#[derive(serde::Deserialize)]
struct Dump {
    rules: HashMap<String, serde_json::Value>,
    positions: Vec<(String, StateWire)>,
}

#[test]
#[ignore = "a benchmark: needs BRASS_LEGAL_POSITIONS"]
fn legal_speed() {
    let Ok(path) = std::env::var("BRASS_LEGAL_POSITIONS") else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("the positions file");
    let dump: Dump = serde_json::from_str(&text).expect("a positions dump");
    let rules: HashMap<String, Arc<Rules>> = dump
        .rules
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                Arc::new(Rules::from_json(&v.to_string()).expect("rules")),
            )
        })
        .collect();
    let states: Vec<State> = dump
        .positions
        .iter()
        .map(|(ed, w)| State::from_wire(rules[ed].clone(), w).expect("a state"))
        .collect();
    let mut out = Vec::new();
    let mut best = f64::MAX;
    let mut total = 0;
    let reps: usize = std::env::var("BRASS_LEGAL_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    for _ in 0..reps {
        total = 0;
        let t = Instant::now();
        for s in &states {
            out.clear();
            legal_actions_into(s, &mut out);
            total += out.len();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    // a fresh Vec per call, as `legal_actions` returns
    let mut fresh = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        for s in &states {
            std::hint::black_box(super::legal_actions(s));
        }
        fresh = fresh.min(t.elapsed().as_secs_f64());
    }
    println!(
        "size of an Action: {} bytes",
        std::mem::size_of::<crate::action::Action>()
    );
    println!(
        "{} positions, {total} actions: {:.2} us/call reusing a buffer, {:.2} us/call with a new Vec",
        states.len(),
        best / states.len() as f64 * 1e6,
        fresh / states.len() as f64 * 1e6
    );
}
