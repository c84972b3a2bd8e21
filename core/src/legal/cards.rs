//! Mirrors `brass_stats.engine.legal.cards` and `loan_allowed` of `brass_stats.engine.loan` (held
//! equal by tests/test_core_legal.py): Pass, Loan and Scout, which depend on the hand, the income
//! level and the wild piles.

use super::probe::Position;
use crate::action::Action;
use crate::rules::Card;
use crate::state::{Era, State};
use arrayvec::ArrayVec;

pub fn pass_actions(pos: &Position, cards: &[Card], out: &mut Vec<Action>) {
    out.extend(cards.iter().map(|&card| Action::Pass {
        player: pos.seat,
        card,
    }));
}

/// `loan_allowed(state)`: Lancashire has no loans in the Rail Era once the draw deck is empty.
pub fn loan_allowed(state: &State) -> bool {
    !(state.rules.has_deck_tile && state.era == Era::Rail && state.deck.is_empty())
}

/// A loan (each amount the edition offers) that keeps the income level at or above the floor.
pub fn loan_actions(pos: &Position, cards: &[Card], out: &mut Vec<Action>) {
    let (state, seat, rules) = (pos.state, pos.seat, pos.rules);
    if !loan_allowed(state) {
        return;
    }
    let level = state.income_level(seat as usize);
    let several = rules.loan_options.len() > 1;
    for &(amount, levels) in &rules.loan_options {
        if level - levels >= rules.loan_floor {
            let amount = several.then_some(amount);
            out.extend(cards.iter().map(|&card| Action::Loan {
                player: seat,
                card,
                amount,
            }));
        }
    }
}

/// Every set of three cards to discard, when the player holds no wild card and both piles have one.
pub fn scout_actions(pos: &Position, out: &mut Vec<Action>) {
    let (state, seat, p, rules) = (pos.state, pos.seat, pos.player, pos.rules);
    if !rules.has_scout
        || p.hand.len() < 3
        || p.hand.iter().any(|&c| rules.cards[c as usize].is_wild())
    {
        return;
    }
    if state.wild[0] == 0 || state.wild[1] == 0 || rules.scout_discards != 3 {
        return;
    }
    let mut hand: ArrayVec<Card, 16> = p.hand.iter().copied().collect();
    hand.sort_unstable();
    // sorted(set(combinations(sorted(hand), 3)))
    let n = hand.len();
    let mut combos: ArrayVec<[Card; 3], 560> = ArrayVec::new(); // C(16, 3)
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                combos.push([hand[i], hand[j], hand[k]]);
            }
        }
    }
    combos.sort_unstable();
    let mut last = None;
    for combo in combos {
        if last != Some(combo) {
            last = Some(combo);
            out.push(Action::Scout {
                player: seat,
                discards: combo,
            });
        }
    }
}
