//! Unit tests of the engine that need no Python: the choice policies, the link costs, and the sales
//! the legal Sell enumeration resolves (held equal to the reference's `apply_sale` and
//! `apply_cotton_sale` by `testdata/sales.json.gz`, which `python3 tests/test_core_engine.py` writes
//! from the reference and `tests/test_core_engine.py` keeps current).

use super::network::link_cost;
use super::policy::{decide, Policy};
use super::scoring::{potential_vp, standings, win_shares};
use super::sell::{apply_cotton_sale, apply_sale_resolving};
use crate::action::{self, Action, Buyer, Src};
use crate::rules::Rules;
use crate::state::{Era, State};
use crate::wire::StateWire;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Read;
use std::sync::Arc;

#[test]
fn strict_fills_only_a_choice_with_one_option() {
    assert_eq!(decide(Policy::Strict, &[7u8]), Ok(7));
    assert!(decide(Policy::Strict, &[1u8, 2]).is_err());
    assert!(decide::<u8>(Policy::Strict, &[]).is_err());
}

#[test]
fn the_beer_preference_drinks_the_merchants_barrel_only_when_asked() {
    let opts = [Src::Merchant, Src::Tile(3), Src::Tile(1)];
    assert_eq!(
        Policy::Beer { merchant: true }.beer(&opts),
        Ok(Src::Merchant)
    );
    assert_eq!(
        Policy::Beer { merchant: false }.beer(&opts),
        Ok(Src::Tile(3))
    );
    // a single option is taken whatever the policy (the reference's `decide`)
    let only = [Src::Merchant];
    assert_eq!(
        Policy::Beer { merchant: false }.beer(&only),
        Ok(Src::Merchant)
    );
    // elsewhere the first option
    assert_eq!(decide(Policy::Beer { merchant: true }, &[4u8, 2]), Ok(4));
}

#[test]
fn links_cost_three_a_canal_five_a_rail_fifteen_two_rails() {
    assert_eq!(link_cost(Era::Canal, 1), 3);
    assert_eq!(link_cost(Era::Rail, 1), 5);
    assert_eq!(link_cost(Era::Rail, 2), 15);
}

fn fixture() -> Value {
    let gz = include_bytes!("testdata/sales.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("the fixture is gzip'd text");
    serde_json::from_str(&text).expect("the fixture is JSON")
}

fn text(v: &Value) -> &str {
    v.as_str().expect("a string")
}

#[test]
fn sales_resolve_as_the_reference_resolves_them() {
    let fx = fixture();
    let mut rules: HashMap<String, Arc<Rules>> = HashMap::new();
    for (edition, table) in fx["rules"].as_object().expect("rules by edition") {
        let r = Rules::from_json(&table.to_string()).expect("a rules table");
        rules.insert(edition.clone(), Arc::new(r));
    }
    let states = fx["states"].as_array().expect("states");
    let cases = fx["cases"].as_array().expect("cases");
    let (mut applied, mut refused) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let entry = &states[case["state"].as_u64().expect("a state index") as usize];
        let r = rules[text(&entry["edition"])].clone();
        let wire: StateWire = serde_json::from_value(entry["state"].clone()).expect("a state");
        let mut state = State::from_wire(r.clone(), &wire).expect("a valid state");
        let seat = case["seat"].as_u64().expect("a seat") as u8;
        let tile = r.slot_id(text(&case["tile"])).expect("a slot");
        let buyer = text(&case["buyer"]);
        let beer = case["merchant_beer"].as_bool().expect("a flag");
        let outcome = if state.rules.dcm_track.is_empty() {
            let merchant = r.location_id(buyer).expect("a merchant");
            apply_sale_resolving(&mut state, seat, tile, merchant, beer)
                .map(|s| json!(s_json(&r, seat, s)))
        } else {
            let buyer = match buyer {
                "distant_market" => Buyer::DistantMarket,
                port => Buyer::Port(r.slot_id(port).expect("a port slot")),
            };
            apply_cotton_sale(&mut state, seat, tile, buyer).map(|more| json!(more))
        };
        match (outcome, case.get("refused")) {
            (Err(_), Some(_)) => refused += 1,
            (Ok(got), None) => {
                let want = case.get("sale").map_or_else(
                    || case["more"].clone(),
                    |s| json!(s_json(&r, seat, parse_sale(&r, seat, s))),
                );
                assert_eq!(got, want, "case {i}: the sale resolved differently");
                let after = serde_json::to_value(state.to_wire()).expect("a wire state");
                assert_eq!(
                    after, case["after"],
                    "case {i}: the state after the sale differs"
                );
                applied += 1;
            }
            (got, want) => panic!("case {i}: the core says {got:?}, the reference {want:?}"),
        }
    }
    assert!(
        applied > 50 && refused > 50,
        "{applied} applied, {refused} refused"
    );
}

#[test]
fn potential_vp_standings_and_win_shares_are_the_references() {
    let fx = fixture();
    let mut rules: HashMap<String, Arc<Rules>> = HashMap::new();
    for (edition, table) in fx["rules"].as_object().expect("rules by edition") {
        let r = Rules::from_json(&table.to_string()).expect("a rules table");
        rules.insert(edition.clone(), Arc::new(r));
    }
    let mut over = 0;
    for (i, entry) in fx["states"].as_array().expect("states").iter().enumerate() {
        let r = rules[text(&entry["edition"])].clone();
        let wire: StateWire = serde_json::from_value(entry["state"].clone()).expect("a state");
        let state = State::from_wire(r, &wire).expect("a valid state");
        let seats = 0..state.num_players() as u8;
        let vp: Vec<Value> = seats.map(|s| json!(potential_vp(&state, s))).collect();
        assert_eq!(
            Value::from(vp),
            entry["potential_vp"],
            "state {i}: potential_vp"
        );
        let ranks: Vec<u8> = standings(&state).iter().map(|s| s.rank).collect();
        assert_eq!(json!(ranks), entry["ranks"], "state {i}: standings");
        let shares: Vec<String> = win_shares(&state)
            .iter()
            .map(|x| format!("{x:?}"))
            .collect();
        assert_eq!(json!(shares), entry["win_shares"], "state {i}: win_shares");
        over += state.game_over() as usize;
    }
    assert!(over >= 6, "the games' final positions are in the fixture");
}

/// A sale read from its log-format JSON (through a Sell action, the codec's unit).
fn parse_sale(rules: &Rules, seat: u8, sale: &Value) -> action::Sale {
    let sell =
        json!({"type": "sell", "player": seat, "card": rules.cards[0].code, "sales": [sale]});
    match action::from_json(rules, &sell).expect("a sale") {
        Action::Sell { mut sales, .. } => sales.remove(0),
        other => panic!("not a sale: {other:?}"),
    }
}

/// A sale as log-format JSON.
fn s_json(rules: &Rules, seat: u8, sale: action::Sale) -> Value {
    let sell = Action::Sell {
        player: seat,
        card: 0,
        sales: vec![sale],
    };
    action::to_json(rules, &sell)["sales"][0].clone()
}
