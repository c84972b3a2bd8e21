//! The core against the reference's answers in `testdata/reference.json.gz` (written by
//! `python3 tests/test_core_fixtures.py`, which says what each entry holds): the same positions read
//! back, the same legal actions in the same order, the same successors, the same verdicts on
//! changed actions, the same greedy floats bit for bit, the same scoring, features and model
//! predictions, the same searches, whole games and review readings.

use super::{assert_floats, at, fixture, float, float_digest, state_digest, wire, Lines};
use crate::action::{self, Action};
use crate::engine::apply_action;
use crate::engine::scoring::{
    potential_vp, score_cash, score_era, score_introductory, standings, win_shares,
};
use crate::greedy::bot::board_values;
use crate::greedy::grouping::{cap_sells, group_by_board};
use crate::greedy::{card_values, evaluate, explain, resource_demand, Weights};
use crate::legal::legal_actions;
use crate::play::{greedy_choice, play_game};
use crate::review::{ends_before_next_turn, Judge};
use crate::rng::PyRandom;
use crate::search::candidates::rank;
use crate::search::leaf::Models;
use crate::search::Searcher;
use crate::spec::BotSpec;
use crate::state::State;
use crate::value::features::position_features;
use crate::value::models::{FinalVpModel, WinProbabilityModel};
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

/// Both shipped models, read once.
pub(crate) fn models() -> &'static Models {
    static MODELS: OnceLock<Models> = OnceLock::new();
    MODELS.get_or_init(|| Models {
        win: Some(Arc::new(
            WinProbabilityModel::shipped().expect("the win model"),
        )),
        final_vp: Some(Arc::new(FinalVpModel::shipped().expect("the VP model"))),
        features_weights: Weights::default(),
    })
}

fn actions_of(state: &State, list: &Value) -> Vec<Action> {
    list.as_array()
        .expect("actions")
        .iter()
        .map(|v| action::from_json(&state.rules, v).expect("an action"))
        .collect()
}

#[test]
fn positions_read_back_as_the_reference_wrote_them() {
    let fx = fixture();
    for p in fx.positions() {
        let state = fx.state(p);
        assert_eq!(wire(&state), p["state"], "{}: read back", at(p));
        assert_eq!(
            state.game_over(),
            p.get("legal").is_none(),
            "{}: game over",
            at(p)
        );
    }
}

#[test]
fn legal_actions_are_the_references_in_order() {
    let fx = fixture();
    let mut total = 0;
    for (p, state) in fx.in_play() {
        let legal = legal_actions(&state);
        assert_eq!(json!(legal.len()), p["legal"], "{}: how many", at(p));
        let mut d = Lines::default();
        for a in &legal {
            let text = action::to_json(&state.rules, a);
            // the codec reads back what it writes
            assert_eq!(
                action::from_json(&state.rules, &text).as_ref(),
                Ok(a),
                "{}",
                at(p)
            );
            d.json(&text);
        }
        assert_eq!(d.hex(), p["legal_digest"], "{}: the list in order", at(p));
        total += legal.len();
    }
    assert!(total > 50_000, "{total} legal actions");
}

#[test]
fn every_successor_is_the_references() {
    let fx = fixture();
    for (p, state) in fx.in_play() {
        let mut d = Lines::default();
        for a in legal_actions(&state) {
            let mut next = state.clone();
            apply_action(&mut next, &a).unwrap_or_else(|e| panic!("{}: {a:?}: {e}", at(p)));
            d.state(&next);
        }
        assert_eq!(d.hex(), p["successors"], "{}: the successors", at(p));
    }
}

#[test]
fn changed_actions_get_the_references_verdict() {
    let fx = fixture();
    let (mut refused, mut applied) = (0, 0);
    for (p, state) in fx.in_play() {
        for v in p["variants"].as_array().expect("variants") {
            // an action that names a card, slot or link the edition lacks is refused when read
            let Ok(a) = action::from_json(&state.rules, &v["action"]) else {
                assert!(v.get("refused").is_some(), "{}: {}", at(p), v["action"]);
                refused += 1;
                continue;
            };
            let mut next = state.clone();
            match (apply_action(&mut next, &a), v.get("after")) {
                (Err(_), None) => refused += 1,
                (Ok(()), Some(after)) => {
                    assert_eq!(&state_digest(&next), after, "{}: {a:?}", at(p));
                    applied += 1;
                }
                (got, _) => panic!(
                    "{}: the core says {got:?} of {a:?}, the reference {v}",
                    at(p)
                ),
            }
        }
    }
    assert!(refused > 1000 && applied > 20, "{refused} / {applied}");
}

#[test]
fn the_greedy_evaluation_is_the_references_bit_for_bit() {
    let fx = fixture();
    let w = Weights::default();
    for (p, state) in fx.in_play() {
        let seats = 0..state.num_players() as u8;
        let with_hand: Vec<f64> = seats
            .clone()
            .map(|s| evaluate(&state, s, &w, true, None))
            .collect();
        assert_floats(&with_hand, &p["evaluate"][0], &at(p));
        let without: Vec<f64> = seats
            .clone()
            .map(|s| evaluate(&state, s, &w, false, None))
            .collect();
        assert_floats(&without, &p["evaluate"][1], &at(p));
        for s in seats {
            let terms = explain(&state, s, &w, true, None);
            let want = p["explain"][s as usize].as_object().expect("terms");
            let names: Vec<&str> = terms.items().iter().map(|(n, _)| *n).collect();
            let mut names_sorted = names.clone();
            names_sorted.sort_unstable();
            let want_names: Vec<&str> = want.keys().map(String::as_str).collect();
            assert_eq!(names_sorted, want_names, "{}: the terms", at(p));
            for (name, value) in terms.items() {
                assert_eq!(
                    value.to_bits(),
                    float(&want[name]).to_bits(),
                    "{}: seat {s}, term {name}",
                    at(p)
                );
            }
        }
        assert_eq!(
            resource_demand(&state, &w).to_bits(),
            float(&p["demand"]).to_bits(),
            "{}: the demand",
            at(p)
        );
    }
}

#[test]
fn the_greedy_decision_is_the_references() {
    let fx = fixture();
    let w = Weights::default();
    let mut decisions = 0;
    for (p, state) in fx.in_play() {
        let Some(g) = p.get("greedy") else { continue };
        let legal = legal_actions(&state);
        let seat = state.current_player().expect("a player to move");
        let mut rng = PyRandom::new(g["seed"].as_u64().expect("a seed"));
        let chosen = greedy_choice(&state, &legal, &w, &mut rng).expect("a choice");
        let i = g["choice"].as_u64().expect("an index") as usize;
        assert_eq!(chosen, legal[i], "{}: the choice", at(p));
        assert_eq!(
            json!(rng.getrandbits(32)),
            g["draw_after"],
            "{}: the draws",
            at(p)
        );
        let groups = cap_sells(&state, &legal, group_by_board(&legal), w.sell_cap);
        assert_eq!(json!(groups.len()), g["groups"], "{}: groups", at(p));
        let mut firsts = Lines::default();
        for group in &groups {
            firsts.action(&state.rules, &legal[group[0]]);
        }
        assert_eq!(firsts.hex(), g["firsts"], "{}: the groups", at(p));
        let boards = board_values(&state, seat, &legal, &groups, &w).expect("board values");
        assert_eq!(
            float_digest(boards),
            g["board_values"],
            "{}: board values",
            at(p)
        );
        let mut ranked = Lines::default();
        for c in rank(&state, &legal, &w, None).expect("a ranking") {
            let line = action::to_json(&state.rules, &c.action).to_string();
            ranked.line(&format!("{line} {}", super::hex(&c.score.to_le_bytes())));
        }
        assert_eq!(ranked.hex(), g["rank"], "{}: the ranking", at(p));
        let values = card_values(&state, seat);
        for (code, want) in g["card_values"].as_object().expect("card values") {
            let card = state.rules.card_id(code).expect("a card");
            assert_eq!(
                values.get(card).to_bits(),
                float(want).to_bits(),
                "{}: {code}",
                at(p)
            );
        }
        decisions += 1;
    }
    assert!(decisions > 300, "{decisions} decisions");
}

#[test]
fn scoring_is_the_references() {
    let fx = fixture();
    let mut scored = 0;
    for p in fx.positions() {
        let state = fx.state(p);
        let sc = &p["scoring"];
        let n = state.num_players() as u8;
        let vp: Vec<(i32, i32)> = (0..n).map(|s| potential_vp(&state, s)).collect();
        let want: Vec<(i32, i32)> = serde_json::from_value(sc["potential_vp"].clone()).unwrap();
        assert_eq!(vp, want, "{}: potential VP", at(p));
        let ranks: Vec<u8> = standings(&state).iter().map(|s| s.rank).collect();
        assert_eq!(json!(ranks), sc["ranks"], "{}: standings", at(p));
        assert_floats(&win_shares(&state), &sc["win_shares"], &at(p));
        let scorings: [(_, fn(&mut State)); 3] = [
            ("era", score_era),
            ("cash", score_cash),
            ("introductory", score_introductory),
        ];
        for (name, score) in scorings {
            let Some(want) = sc.get(name) else { continue };
            let mut copy = state.clone();
            score(&mut copy);
            let vp: Vec<i32> = copy.players.iter().map(|p| p.vp).collect();
            assert_eq!(json!(vp), want["vp"], "{}: {name} scoring", at(p));
            assert_eq!(
                state_digest(&copy),
                want["after"],
                "{}: after {name} scoring",
                at(p)
            );
            scored += 1;
        }
    }
    assert!(scored > 900, "{scored} scorings");
}

#[test]
fn features_and_both_models_are_the_references() {
    let fx = fixture();
    let w = Weights::default();
    let m = models();
    let mut rows = 0;
    for p in fx.positions() {
        let Some(features) = p.get("features") else {
            continue;
        };
        let state = fx.state(p);
        let got = position_features(&state, &w);
        assert_eq!(got.len(), state.num_players(), "{}", at(p));
        for (row, want) in got.iter().zip(features.as_array().expect("rows")) {
            assert_floats(row, want, &format!("{}: features", at(p)));
            rows += 1;
        }
        assert_floats(&m.win(&state).unwrap(), &p["win"], &at(p));
        assert_floats(&m.final_vp(&state).unwrap(), &p["final_vp"], &at(p));
    }
    assert!(rows > 300, "{rows} rows");
}

#[test]
fn seeded_searches_are_the_references() {
    let fx = fixture();
    for (i, s) in fx.list("searches").iter().enumerate() {
        let state = fx.state(s);
        let spec: BotSpec = serde_json::from_value(s["spec"].clone()).expect("a search spec");
        let crate::play::Bot::Search {
            config,
            weights,
            leaf,
        } = spec.bot().expect("a bot")
        else {
            panic!("search {i}: not a search");
        };
        let searcher = Searcher {
            config: &config,
            weights: &weights,
            leaf: &leaf,
            models: models(),
        };
        let force = actions_of(&state, &s["force"]);
        let seed = s["seed"].as_u64().expect("a seed");
        let r = searcher
            .analyse(&state, &legal_actions(&state), seed, &force)
            .expect("a search");
        let rules = &state.rules;
        assert_eq!(json!(r.seat), s["seat"], "search {i}");
        assert_eq!(action::to_json(rules, &r.best), s["best"], "search {i}");
        let want = s["actions"].as_array().expect("root actions");
        assert_eq!(r.actions.len(), want.len(), "search {i}: root actions");
        for (got, want) in r.actions.iter().zip(want) {
            let what = format!("search {i}: {:?}", got.action);
            assert_eq!(
                action::to_json(rules, &got.action),
                want["action"],
                "{what}"
            );
            assert_eq!(json!(got.visits), want["visits"], "{what}");
            assert_floats(&got.value, &want["value"], &what);
            assert_floats(&[got.score], &json!([want["score"]]), &what);
            assert_eq!(json!(got.rank), want["rank"], "{what}");
        }
        assert_eq!(json!(r.simulations), s["simulations"], "search {i}");
        assert_floats(&r.value, &s["value"], &format!("search {i}"));
        assert_eq!(json!(r.recovered), s["recovered"], "search {i}");
    }
}

#[test]
fn whole_seeded_games_are_the_references() {
    let fx = fixture();
    for (i, g) in fx.list("played").iter().enumerate() {
        let state = fx.state(g);
        let bots = g["bots"]
            .as_array()
            .expect("bots")
            .iter()
            .map(|spec| {
                let spec: BotSpec = serde_json::from_value(spec.clone()).expect("a bot spec");
                spec.bot().expect("a bot")
            })
            .collect::<Vec<_>>();
        let seed = g["seed"].as_u64().expect("a seed");
        let played = play_game(state.clone(), &bots, seed, models()).expect("a game");
        assert_eq!(json!(played.len()), g["actions"], "game {i}: its length");
        let mut d = Lines::default();
        let mut end = state;
        for a in &played {
            d.action(&end.rules, a);
            apply_action(&mut end, a).expect("a legal action");
        }
        assert_eq!(d.hex(), g["digest"], "game {i}: the actions");
        assert!(end.game_over(), "game {i}");
        let vp: Vec<i32> = end.players.iter().map(|p| p.vp).collect();
        let money: Vec<i32> = end.players.iter().map(|p| p.money).collect();
        assert_eq!(json!(vp), g["vp"], "game {i}: the final VP");
        assert_eq!(json!(money), g["money"], "game {i}: the final money");
        assert_eq!(
            state_digest(&end),
            g["final"],
            "game {i}: the final position"
        );
    }
}

#[test]
fn the_reviews_readings_are_the_references() {
    let fx = fixture();
    let w = Weights::default();
    for (i, r) in fx.list("reviews").iter().enumerate() {
        let state = fx.state(r);
        let seat = r["seat"].as_u64().expect("a seat") as u8;
        let actions = actions_of(&state, &r["actions"]);
        let samples: Vec<(u64, u64)> =
            serde_json::from_value(r["samples"].clone()).expect("samples");
        let turn: (u32, u8) = serde_json::from_value(r["turn"].clone()).expect("a turn");
        let last = r["last"].as_bool().expect("a flag");
        let ends = ends_before_next_turn(&state, seat, &actions[0], samples[0], turn, &w);
        assert_eq!(
            ends,
            Ok(last),
            "review {i}: the game ends before the next turn"
        );
        let judge = Judge {
            seat,
            turn,
            last,
            weights: &w,
            models: models(),
        };
        let readings = judge
            .readings(&state, &actions, &samples)
            .expect("readings");
        let want = r["readings"].as_array().expect("readings");
        assert_eq!(readings.len(), want.len(), "review {i}");
        for (per_action, want) in readings.iter().zip(want) {
            for ((win, vp), want) in per_action.iter().zip(want.as_array().expect("samples")) {
                assert_floats(win, &want[0], &format!("review {i}: win"));
                assert_floats(vp, &want[1], &format!("review {i}: VP"));
            }
        }
    }
}
