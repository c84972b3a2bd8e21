//! What a player (or a caller of the core) relies on, stated where the reference's digests cannot
//! say it: rules at stake only in positions no seeded game reaches, and the crate's own promises
//! (a refusal says why, positions compare as values, a rules table the core cannot hold is
//! refused). Each was written for a mutant of the cargo-mutants sample that the reference tests let
//! through (docs/testing.md, "The compiled core (cargo-mutants)"); the positions are the fixture's,
//! edited by hand where the rule needs it.

use super::fixture;
use crate::action::Action;
use crate::engine::apply_action;
use crate::engine::build::{slot_options, virtual_link_allows};
use crate::engine::scoring::{link_vp, potential_vp};
use crate::legal::legal_actions;
use crate::rules::{Rules, MAX_INDUSTRIES, MAX_LEVELS, MAX_LINKS, MAX_SLOTS};
use crate::state::{Era, State, Tile};
use crate::wire::StateWire;
use crate::CoreError;
use serde_json::Value;

/// The positions of one of the fixture's games (its index in `GAMES`), in play.
fn game(index: u64) -> impl Iterator<Item = (&'static Value, State)> {
    fixture()
        .in_play()
        .filter(move |(p, _)| p["game"].as_u64() == Some(index))
}

fn edition(name: &str) -> &'static Rules {
    &fixture().rules[name]
}

/// A player's pieces taken off the board: their tiles and links.
fn clear_pieces(state: &mut State, seat: u8) {
    let own: Vec<_> = state
        .tiles()
        .filter(|(_, t)| t.owner == seat)
        .map(|(s, _)| s)
        .collect();
    for s in own {
        state.remove_tile(s);
    }
    let links: Vec<_> = state.links().filter(|&(_, o)| o != seat).collect();
    state.clear_links();
    for (l, o) in links {
        state.add_link(l, o);
    }
}

fn tile(owner: u8, rules: &Rules, industry: &str, level: u8) -> Tile {
    Tile {
        owner,
        industry: rules.industry_id(industry).expect("an industry"),
        level,
        flipped: false,
        resources: 0,
    }
}

#[test]
fn a_refusal_says_what_is_wrong() {
    let (_, state) = game(0).next().expect("a position");
    let seat = state.current_player().expect("a player to move");
    let rules = &state.rules;
    // a Build with a card nobody holds: refused, and the message names the rule
    let legal = legal_actions(&state);
    let Some(Action::Build { card, .. }) = legal.iter().find(|a| matches!(a, Action::Build { .. }))
    else {
        panic!("no Build at the first position");
    };
    let held = &state.players[seat as usize].hand;
    let other = (0..rules.cards.len() as u8)
        .find(|c| !held.contains(c) && c != card)
        .expect("a card not in hand");
    let mut a = legal
        .iter()
        .find(|a| matches!(a, Action::Build { .. }))
        .cloned()
        .expect("a Build");
    if let Action::Build { card, .. } = &mut a {
        *card = other;
    }
    let mut next = state.clone();
    let err = apply_action(&mut next, &a).expect_err("a card not in hand is refused");
    let CoreError::Invalid(message) = &err else {
        panic!("refused as unsupported: {err:?}");
    };
    assert!(!message.is_empty());
    assert_eq!(err.to_string(), *message, "the error displays its message");
    let unsupported = CoreError::Unsupported("a written-out deal".into());
    assert_eq!(unsupported.to_string(), "a written-out deal");
}

#[test]
fn the_income_track_stops_at_its_last_space() {
    for name in ["birmingham", "lancashire"] {
        let rules = edition(name);
        let top = rules.income_levels.len() - 1;
        assert_eq!(rules.max_income_space() as usize, top, "{name}");
        let (_, mut state) = fixture()
            .in_play()
            .find(|(p, _)| p["edition"] == name)
            .expect("a position");
        state.players[0].income_space = top as u8 - 2;
        assert_eq!(
            state.advance_income(0, 5),
            2,
            "{name}: moved to the top only"
        );
        assert_eq!(state.players[0].income_space as usize, top);
        assert_eq!(state.advance_income(0, 1), 0, "{name}: no further");
        assert_eq!(state.players[0].income_space as usize, top);
    }
}

#[test]
fn a_rules_table_larger_than_the_core_holds_is_refused() {
    // one more industry, slot, link or location than the core's fixed-size sets hold, a level
    // more than it holds, or an industry without levels: refused by name, never misread
    let table = &fixture().json["rules"]["birmingham"];
    let limits = [
        ("industries", MAX_INDUSTRIES),
        ("slots", MAX_SLOTS),
        ("links", MAX_LINKS),
        ("locations", 64),
    ];
    for (key, limit) in limits {
        let mut t = table.clone();
        let list = t[key].as_array_mut().expect("a list");
        let first = list[0].clone();
        list.resize(limit + 1, first);
        let err = Rules::from_json(&t.to_string()).expect_err(key);
        assert!(err.contains("than the core holds"), "{key}: {err}");
    }
    for levels in [vec![], vec![table["levels"][0][0].clone(); MAX_LEVELS + 1]] {
        let mut t = table.clone();
        t["levels"][0] = Value::from(levels);
        let err = Rules::from_json(&t.to_string()).expect_err("levels");
        assert!(err.contains("than the core holds"), "levels: {err}");
    }
    assert!(Rules::from_json(&table.to_string()).is_ok());
}

#[test]
fn a_position_equals_its_copy_and_no_successor_of_it() {
    let mut compared = 0;
    for (p, state) in fixture().in_play().step_by(7) {
        assert!(state == state.clone(), "{}", super::at(p));
        // one thing changed by hand, nothing else: another position
        let mut richer = state.clone();
        richer.players[0].money += 1;
        assert!(richer != state, "{}: the money", super::at(p));
        let mut market = state.clone();
        market.coal_market ^= 1;
        assert!(market != state, "{}: the coal market", super::at(p));
        let mut later = state.clone();
        later.action_count += 1;
        assert!(later != state, "{}: the action count", super::at(p));
        for a in legal_actions(&state).iter().step_by(11) {
            let mut next = state.clone();
            apply_action(&mut next, a).expect("a legal action");
            assert!(next != state, "{}: {a:?} changed nothing", super::at(p));
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared}");
}

#[test]
fn a_merchants_goods_are_read_as_a_set() {
    // an industry named twice on a merchant tile is still bought there
    let (p, state) = game(1).next().expect("a Birmingham position");
    let mut wire = p["state"].clone();
    let spaces = wire["merchant_spaces"].as_array_mut().expect("spaces");
    let (i, space) = spaces
        .iter_mut()
        .enumerate()
        .find(|(_, s)| s["accepts"].as_array().is_some_and(|a| !a.is_empty()))
        .expect("a merchant that buys");
    let first = space["accepts"][0].clone();
    space["accepts"]
        .as_array_mut()
        .expect("goods")
        .push(first.clone());
    let wire: StateWire = serde_json::from_value(wire).expect("a wire state");
    let twice = State::from_wire(state.rules.clone(), &wire).expect("a valid state");
    let ind = first.as_u64().expect("an industry") as u32;
    assert_eq!(
        twice.merchant_spaces[i].accepts,
        state.merchant_spaces[i].accepts
    );
    assert_eq!(twice.merchant_spaces[i].accepts >> ind & 1, 1);
}

#[test]
fn the_virtual_link_opens_birkenhead_only_to_a_network_through_liverpool() {
    let (_, mut state) = game(9).next().expect("a virtual-link game");
    assert!(state.options.virtual_link);
    let rules = state.rules.clone();
    let (liverpool, birkenhead) = rules.virtual_link.expect("Lancashire's virtual link");
    let seat = 0;
    clear_pieces(&mut state, seat);
    let blackburn = rules.slot_id("blackburn:0").expect("a slot");
    state.place_tile(blackburn, tile(seat, &rules, "cotton_mill", 1));
    assert_eq!(state.network(seat) >> liverpool & 1, 0);
    assert!(!virtual_link_allows(&state, seat, birkenhead));
    let port = rules.slot_id("liverpool:0").expect("a slot");
    state.remove_tile(port);
    state.place_tile(port, tile(seat, &rules, "port", 1));
    assert!(virtual_link_allows(&state, seat, birkenhead));
    assert!(
        !virtual_link_allows(&state, seat, liverpool),
        "Birkenhead only"
    );
    state.options.virtual_link = false;
    assert!(
        !virtual_link_allows(&state, seat, birkenhead),
        "the option is off"
    );
}

#[test]
fn in_the_canal_era_a_players_tile_is_overbuilt_only_by_its_own_industry() {
    let (_, mut state) = game(1).next().expect("a Birmingham position");
    assert_eq!(state.era, Era::Canal);
    let rules = state.rules.clone();
    let seat = state.current_player().expect("a player to move");
    let leek = rules.location_id("leek").expect("a location");
    for s in rules.locations[leek as usize].slots.clone() {
        state.remove_tile(s);
    }
    // Leek's first slot shows the cotton mill and the manufacturer: the player's manufacturer there
    let slot = rules.slot_id("leek:0").expect("a slot");
    state.place_tile(slot, tile(seat, &rules, "manufacturer", 1));
    let cotton = rules.industry_id("cotton_mill").expect("an industry");
    let manufacturer = rules.industry_id("manufacturer").expect("an industry");
    let (empty, over) = slot_options(&state, seat, cotton, 1, leek);
    assert!(empty.is_empty(), "one tile a location in the Canal Era");
    assert!(
        over.is_empty(),
        "a cotton mill never replaces a manufacturer"
    );
    let (empty, over) = slot_options(&state, seat, manufacturer, 2, leek);
    assert!(empty.is_empty());
    assert_eq!(over.as_slice(), &[0], "a higher manufacturer replaces it");
    let (_, over) = slot_options(&state, seat, manufacturer, 1, leek);
    assert!(over.is_empty(), "only a higher level");
}

#[test]
fn a_location_card_overbuilds_an_exhausted_mine_with_no_pieces_on_the_board() {
    // an opponent's coal mine may be overbuilt once no coal is left on the board or in the market,
    // and a player with no pieces may build with a location card anywhere it names: the two
    // together (the "no tiles on the board" rule restricts industry cards only)
    let mut found = 0;
    for (p, mut state) in game(5) {
        let seat = state.current_player().expect("a player to move");
        let rules = state.rules.clone();
        let coal = rules.coal_mine.expect("a coal mine");
        let Some((slot, _)) = state
            .tiles()
            .find(|(_, t)| t.industry == coal && t.owner != seat && t.level == 1)
        else {
            continue;
        };
        clear_pieces(&mut state, seat);
        state.coal_market = 0;
        let mines: Vec<_> = state
            .tiles()
            .filter(|(_, t)| t.industry == coal)
            .map(|(s, t)| (s, *t))
            .collect();
        for (s, mut t) in mines {
            t.resources = 0;
            state.place_tile(s, t);
        }
        let loc = rules.slots[slot as usize].location;
        let card = rules
            .card_id(&format!("loc:{}", rules.locations[loc as usize].id))
            .expect("a location card");
        let player = &mut state.players[seat as usize];
        player.mat[coal as usize][0] = 0; // the next mine is a level 2
        player.money = 50;
        let hand = &mut player.hand;
        hand.remove(0);
        hand.push(card);
        let overbuild = legal_actions(&state).into_iter().find(|a| {
            matches!(a, Action::Build { card: c, slot: s, industry, .. }
                if *c == card && *s == slot && *industry == coal)
        });
        let Some(a) = overbuild else {
            panic!(
                "{}: the location card does not overbuild the exhausted mine",
                super::at(p)
            );
        };
        let mut next = state.clone();
        apply_action(&mut next, &a).expect("the overbuild is applied");
        let placed = next.tile(slot).expect("a tile");
        assert_eq!((placed.owner, placed.level), (seat, 2), "{}", super::at(p));
        found += 1;
        if found == 3 {
            break;
        }
    }
    assert!(found > 0, "no position with an opponent's level-1 mine");
}

#[test]
fn a_link_scores_the_link_icons_at_its_ends() {
    let mut links = 0;
    for p in fixture().positions() {
        let state = fixture().state(p);
        if state.game_over() {
            continue;
        }
        for seat in 0..state.num_players() as u8 {
            let own: i32 = state
                .links()
                .filter(|&(_, o)| o == seat)
                .map(|(l, _)| link_vp(&state, l))
                .sum();
            assert_eq!(own, potential_vp(&state, seat).0, "{}", super::at(p));
            links += state.links().filter(|&(_, o)| o == seat).count();
        }
        for (l, _) in state.links() {
            let ends = state.rules.links[l as usize].connects.clone();
            let printed: i32 = ends
                .iter()
                .map(|&e| state.rules.locations[e as usize].printed_link_vp)
                .sum();
            assert!(link_vp(&state, l) >= printed, "{}", super::at(p));
        }
    }
    assert!(links > 500, "{links}");
}

#[test]
fn lancashire_lends_nothing_in_the_rail_era_once_the_deck_is_empty() {
    let mut refused = 0;
    for (p, mut state) in fixture().in_play() {
        if p["edition"] != "lancashire" || state.era != Era::Rail || state.deck.is_empty() {
            continue;
        }
        let Some(loan) = legal_actions(&state)
            .into_iter()
            .find(|a| matches!(a, Action::Loan { .. }))
        else {
            continue;
        };
        state.deck.clear();
        assert!(
            !legal_actions(&state)
                .iter()
                .any(|a| matches!(a, Action::Loan { .. })),
            "{}: a loan listed with the deck empty",
            super::at(p)
        );
        let err = apply_action(&mut state.clone(), &loan).expect_err("no loan");
        assert!(err.to_string().contains("loan.deck_exhausted"), "{err}");
        refused += 1;
    }
    assert!(refused > 5, "{refused}");
}
