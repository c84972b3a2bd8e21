//! Mirrors `brass_stats.engine.turn` (held equal by tests/test_core_engine.py): turns, rounds and
//! eras: who acts, cards out of the hand, refilling, turn order, income, shortfalls, era ends and
//! the Rail Era's deal.

use super::build::{apply_build, BuildArgs};
use super::develop::apply_develop;
use super::loan::apply_loan;
use super::network::apply_network;
use super::scoring::{score_cash, score_era, score_introductory};
use super::scout::{apply_scout, check_scout};
use super::sell::apply_sell;
use super::shortfall::{apply_shortfall, lose_vp, sellable_for_shortfall};
use crate::action::Action;
use crate::rules::Card;
use crate::state::{Cards, Chance, Era, Phase, State};
use crate::{invalid, CoreError, CoreResult};
use arrayvec::ArrayVec;

/// `apply_action(state, action, in_place=True)` for a fully stated action.
pub fn apply_action(state: &mut State, action: &Action) -> CoreResult<()> {
    let Some(expected) = state.current_player() else {
        return invalid("turn.game_over: the game is over; no further actions may be taken");
    };
    let seat = action.player();
    if seat != expected {
        return invalid(format!(
            "turn.order: it is player {expected}'s turn, not player {seat}'s"
        ));
    }
    if state.phase == Phase::Shortfall {
        let Action::Shortfall { tiles, .. } = action else {
            return invalid("turn.shortfall_pending: a shortfall must be paid first");
        };
        apply_shortfall(state, seat, tiles)?;
        state.action_count += 1;
        return Ok(());
    }
    let cards = action.cards();
    if matches!(action, Action::Shortfall { .. }) {
        return invalid("shortfall.not_needed: no shortfall is being paid now");
    }
    if cards.is_empty() {
        return invalid("turn.card_in_hand: every action discards a card");
    }
    let rules = state.rules.clone();
    if cards.iter().any(|&c| c as usize >= rules.cards.len()) {
        return invalid("log.unknown_name: unknown card");
    }
    if let Action::Scout { discards, .. } = action {
        check_scout(state, seat, discards)?;
    }
    take_cards(state, seat, &cards)?;
    match action {
        Action::Build {
            card,
            industry,
            slot,
            coal,
            iron,
            second_card,
            ..
        } => apply_build(
            state,
            &BuildArgs {
                seat,
                card: *card,
                industry: *industry,
                slot: *slot,
                coal: coal.as_ref(),
                iron: iron.as_ref(),
                second_card: *second_card,
            },
        )?,
        Action::Network {
            links, coal, beer, ..
        } => apply_network(state, seat, links, coal.as_ref(), *beer)?,
        Action::Develop {
            industries, iron, ..
        } => apply_develop(state, seat, industries, iron.as_ref())?,
        Action::Sell { sales, .. } => apply_sell(state, seat, sales)?,
        Action::Loan { amount, .. } => apply_loan(state, seat, *amount)?,
        Action::Scout { .. } => apply_scout(state, seat)?,
        Action::Pass { .. } | Action::Shortfall { .. } => {}
    }
    for &card in &cards {
        if Some(card) == rules.wild_location {
            state.wild[0] += 1;
        } else if Some(card) == rules.wild_industry {
            state.wild[1] += 1;
        } else if state.players[seat as usize].discard.try_push(card).is_err() {
            return Err(CoreError::Unsupported(
                "a discard pile of more than 128 cards".into(),
            ));
        }
    }
    state.action_count += 1;
    state.actions_this_turn += if matches!(action, Action::Build { .. }) {
        cards.len() as u8 // a double-action build uses both actions
    } else {
        1
    };
    if state.actions_this_turn >= state.actions_per_turn()
        || state.players[seat as usize].hand.is_empty()
    {
        end_turn(state)?;
    }
    Ok(())
}

/// The action's cards out of the hand (`list.remove`: the first occurrence), after checking the
/// hand holds them all.
fn take_cards(state: &mut State, seat: u8, cards: &[Card]) -> CoreResult<()> {
    let hand = &mut state.players[seat as usize].hand;
    for &c in cards {
        let need = cards.iter().filter(|&&x| x == c).count();
        if hand.iter().filter(|&&x| x == c).count() < need {
            return invalid(format!(
                "turn.card_in_hand: player {seat} does not hold a card it plays"
            ));
        }
    }
    for &c in cards {
        if let Some(i) = hand.iter().position(|&x| x == c) {
            hand.remove(i);
        }
    }
    Ok(())
}

/// `_end_turn`: draw back to the hand size; the next seat, or the round's end.
fn end_turn(state: &mut State) -> CoreResult<()> {
    let seat = state.turn_order[state.turn_pos as usize];
    let hand_size = state.rules.hand_size;
    let p = &mut state.players[seat as usize];
    let draw = hand_size.saturating_sub(p.hand.len()).min(state.deck.len());
    if draw > 0 {
        if p.hand.len() + draw > p.hand.capacity() {
            return Err(CoreError::Unsupported(
                "a hand of more than 16 cards".into(),
            ));
        }
        p.hand.extend(state.deck[..draw].iter().copied());
        state.deck.remove_front(draw);
    }
    state.actions_this_turn = 0;
    state.turn_pos += 1;
    if state.turn_pos as usize == state.num_players() {
        end_round(state)?;
    }
    Ok(())
}

/// `_end_round`: turn order by money spent (a stable sort), income, then shortfalls or the next
/// round (or the era's end).
fn end_round(state: &mut State) -> CoreResult<()> {
    let era_ends = state.deck.is_empty() && state.players.iter().all(|p| p.hand.is_empty());
    let final_round = era_ends && (state.era == Era::Rail || state.options.introductory);
    let spent: ArrayVec<i32, 4> = state.players.iter().map(|p| p.spent).collect();
    state.turn_order.sort_by_key(|&s| spent[s as usize]);
    for p in state.players.iter_mut() {
        p.spent = 0;
    }
    state.turn_pos = 0;
    if !final_round {
        for i in 0..state.turn_order.len() {
            take_income(state, state.turn_order[i]);
        }
    }
    if !state.shortfalls.is_empty() {
        state.phase = Phase::Shortfall;
        state.era_ends_after_shortfall = era_ends;
        return Ok(());
    }
    after_round(state, era_ends)
}

/// `_take_income`: income paid, or owed; what cannot be paid is a shortfall (tiles to remove) or
/// lost VP.
fn take_income(state: &mut State, seat: u8) {
    let income = state.income_level(seat as usize);
    let p = &mut state.players[seat as usize];
    if income >= 0 {
        p.money += income;
        return;
    }
    let owed = -income;
    let paid = i32::min(owed, p.money);
    p.money -= paid;
    let short = owed - paid;
    if short == 0 {
        return;
    }
    if !sellable_for_shortfall(state, seat).is_empty() {
        state.shortfalls.push((seat, short));
    } else {
        lose_vp(state, seat, short);
    }
}

/// `_after_round`: the era's scoring and what follows it, or the next round.
pub fn after_round(state: &mut State, era_ends: bool) -> CoreResult<()> {
    if era_ends {
        score_era(state);
        if state.options.introductory {
            score_introductory(state);
            state.phase = Phase::Over;
            return Ok(());
        }
        if state.era == Era::Rail {
            score_cash(state);
            state.phase = Phase::Over;
            return Ok(());
        }
        return start_rail_era(state);
    }
    state.round += 1;
    state.era_round += 1;
    Ok(())
}

/// The hand size of the rail deal: `SeededChance.rail_deal` deals Birmingham's (8) in both editions.
const RAIL_HAND_SIZE: usize = 8;

/// `_start_rail_era`: level-1 tiles off, merchant beer back, the Distant Cotton Market reshuffled,
/// every discard (and the reserve) dealt again from the seeded chance.
fn start_rail_era(state: &mut State) -> CoreResult<()> {
    let Chance::Seeded { rng, .. } = &mut state.chance else {
        return Err(CoreError::Unsupported(
            "a deal written out in a log reaches the Rail Era: the core cannot deal it".into(),
        ));
    };
    let mut rng = rng.clone();
    let rules = state.rules.clone();
    let mut i = 0;
    while i < state.tile_order.len() {
        let slot = state.tile_order[i];
        if state.board[slot as usize].is_some_and(|t| t.level == 1) {
            state.remove_tile(slot);
        } else {
            i += 1;
        }
    }
    for ms in state.merchant_spaces.iter_mut() {
        ms.beer = ms.accepts != 0;
    }
    let n = state.num_players();
    if !rules.dcm_tiles.is_empty() {
        let key = if state.options.classic_deck {
            rules.dcm_tiles.keys().copied().max().unwrap_or(0)
        } else {
            n as u8
        };
        let mut pile: ArrayVec<u8, 16> = ArrayVec::new();
        for &t in rules.dcm_tiles.get(&key).map_or(&[][..], |v| v.as_slice()) {
            if pile.try_push(t).is_err() {
                return Err(CoreError::Unsupported("more than 16 market tiles".into()));
            }
        }
        pile.sort_unstable();
        rng.shuffle(&mut pile);
        state.dcm_position = 0;
        state.dcm_drawn.clear();
        state.dcm_pile = pile;
    }
    let mut cards = Cards::new();
    for p in state.players.iter_mut() {
        for &c in &p.discard {
            cards
                .try_push(c)
                .map_err(|_| CoreError::Unsupported("more than 128 cards".into()))?;
        }
        p.discard.clear();
    }
    for &c in &state.reserve {
        cards
            .try_push(c)
            .map_err(|_| CoreError::Unsupported("more than 128 cards".into()))?;
    }
    state.reserve.clear();
    let remove = if state.options.classic_deck {
        rules
            .classic_deck_removed_in_rail
            .get(&(n as u8))
            .copied()
            .unwrap_or(0)
    } else {
        0
    };
    cards.sort_unstable();
    rng.shuffle(&mut cards);
    let deck = &cards[remove.min(cards.len())..];
    for (seat, p) in state.players.iter_mut().enumerate() {
        let start = (seat * RAIL_HAND_SIZE).min(deck.len());
        let end = ((seat + 1) * RAIL_HAND_SIZE).min(deck.len());
        p.hand.clear();
        p.hand.extend(deck[start..end].iter().copied());
    }
    let dealt = (n * RAIL_HAND_SIZE).min(deck.len());
    state.deck = deck[dealt..].iter().copied().collect();
    if let Chance::Seeded { rng: r, .. } = &mut state.chance {
        *r = rng;
    }
    state.era = Era::Rail;
    state.round += 1;
    state.era_round = 1;
    Ok(())
}
