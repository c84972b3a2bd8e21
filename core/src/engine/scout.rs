//! Mirrors `brass_stats.engine.scout` (held equal by tests/test_core_engine.py): the Scout action,
//! three cards for one Wild Location and one Wild Industry card.

use crate::rules::Card;
use crate::state::State;
use crate::{invalid, CoreResult};

/// `check_scout`: checked before the discards leave the hand.
pub fn check_scout(state: &State, seat: u8, discards: &[Card]) -> CoreResult<()> {
    let rules = &*state.rules;
    if !rules.has_scout {
        return invalid("scout.edition: this edition has no Scout action");
    }
    let hand = &state.players[seat as usize].hand;
    if hand.iter().any(|&c| rules.cards[c as usize].is_wild()) {
        return invalid("scout.wild_in_hand: the player already holds a wild card");
    }
    if discards.len() != rules.scout_discards {
        return invalid("scout.cards: Scout discards 3 cards");
    }
    Ok(())
}

/// `apply_scout`: the two wild cards into the hand, each from its pile.
pub fn apply_scout(state: &mut State, seat: u8) -> CoreResult<()> {
    let wilds = [state.rules.wild_location, state.rules.wild_industry];
    for (pile, card) in wilds.into_iter().enumerate() {
        let Some(card) = card else {
            return invalid("scout.edition: this edition has no wild cards");
        };
        if state.wild[pile] == 0 {
            return invalid("scout.cards: no wild card is left in its pile");
        }
        state.wild[pile] -= 1;
        if state.players[seat as usize].hand.try_push(card).is_err() {
            return Err(crate::CoreError::Unsupported(
                "a hand of more than 16 cards".into(),
            ));
        }
    }
    Ok(())
}
