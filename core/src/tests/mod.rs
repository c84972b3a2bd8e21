//! Tests of the core that hold it to the reference's answers without Python (`cargo test`, and so
//! cargo-mutants, which runs `cargo test` once per mutant of the crate).
//!
//! * [`reference`]: perft-style checks against `testdata/reference.json.gz`, the reference's own
//!   answers on positions of seeded games, seeded searches, whole games and the review's readings.
//!   `python3 tests/test_core_fixtures.py` writes the fixture from the pure-Python reference, and
//!   `tests/test_core_fixtures.py` fails when it is no longer what the reference says.
//! * [`contracts`]: what a player relies on, stated on positions of the fixture (each one kills
//!   mutants the perft checks let through: docs/testing.md).

mod contracts;
mod reference;

use crate::action::{self, Action};
use crate::rules::Rules;
use crate::state::State;
use crate::wire::StateWire;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::sync::{Arc, OnceLock};

/// The reference's answers, read once per test binary.
pub(crate) struct Fixture {
    pub json: Value,
    pub rules: HashMap<String, Arc<Rules>>,
}

pub(crate) fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    let fx = FIXTURE.get_or_init(|| {
        let gz = include_bytes!("testdata/reference.json.gz");
        let mut text = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut text)
            .expect("the fixture is gzip'd text");
        let json: Value = serde_json::from_str(&text).expect("the fixture is JSON");
        let rules = json["rules"]
            .as_object()
            .expect("rules by edition")
            .iter()
            .map(|(edition, table)| {
                let r = Rules::from_json(&table.to_string()).expect("a rules table");
                (edition.clone(), Arc::new(r))
            })
            .collect();
        Fixture { json, rules }
    });
    // the floats of the evaluation are summed as the Python that wrote the fixture sums them
    crate::pysum::set_compensated(fx.json["compensated_sum"].as_bool() == Some(true));
    fx
}

impl Fixture {
    /// The position an entry holds (`state`), in the edition of its rules table.
    pub fn state(&self, entry: &Value) -> State {
        let wire: StateWire = serde_json::from_value(entry["state"].clone()).expect("a wire state");
        let edition = entry["edition"].as_str().expect("an edition");
        State::from_wire(self.rules[edition].clone(), &wire).expect("a valid state")
    }

    pub fn positions(&self) -> &[Value] {
        self.json["positions"].as_array().expect("positions")
    }

    /// The positions where a player is to move (the games' ends left out).
    pub fn in_play(&self) -> impl Iterator<Item = (&Value, State)> + '_ {
        self.positions()
            .iter()
            .filter(|p| p.get("legal").is_some())
            .map(|p| (p, self.state(p)))
    }

    pub fn list(&self, key: &str) -> &[Value] {
        self.json[key].as_array().expect("a list")
    }
}

/// Where an entry is, for the messages.
pub(crate) fn at(entry: &Value) -> String {
    format!("game {}, position {}", entry["game"], entry["index"])
}

/// SHA-256 of lines (the fixture's digests: see tests/test_core_fixtures.py).
#[derive(Default)]
pub(crate) struct Lines {
    hash: Sha256,
    buf: Vec<u8>,
}

impl Lines {
    pub fn line(&mut self, text: &str) {
        self.hash.update(text.as_bytes());
        self.hash.update(b"\n");
    }

    /// A JSON value as a line of canonical JSON (serde_json's maps are sorted by key).
    pub fn json(&mut self, value: &Value) {
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, value).expect("JSON");
        self.buf.push(b'\n');
        self.hash.update(&self.buf);
    }

    pub fn action(&mut self, rules: &Rules, a: &Action) {
        self.json(&action::to_json(rules, a));
    }

    pub fn state(&mut self, state: &State) {
        self.json(&wire(state));
    }

    pub fn hex(self) -> String {
        hex(&self.hash.finalize())
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of floats' IEEE-754 bytes, little-endian.
pub(crate) fn float_digest(values: impl IntoIterator<Item = f64>) -> String {
    let mut h = Sha256::new();
    for x in values {
        h.update(x.to_le_bytes());
    }
    hex(&h.finalize())
}

pub(crate) fn wire(state: &State) -> Value {
    serde_json::to_value(state.to_wire()).expect("a wire state")
}

pub(crate) fn state_digest(state: &State) -> String {
    let mut d = Lines::default();
    d.state(state);
    d.hex()
}

/// A float the fixture holds as Python's `repr` (read exactly: Rust's parse rounds correctly).
pub(crate) fn float(v: &Value) -> f64 {
    let text = v.as_str().expect("a float's repr");
    text.parse()
        .unwrap_or_else(|_| panic!("not a float: {text}"))
}

/// Floats equal to the fixture's, bit for bit.
#[track_caller]
pub(crate) fn assert_floats(got: &[f64], want: &Value, what: &str) {
    let want: Vec<f64> = want.as_array().expect("floats").iter().map(float).collect();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(got), bits(&want), "{what}: {got:?} against {want:?}");
}
