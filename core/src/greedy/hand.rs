//! Mirrors `card_values`, `hand_value` and `SCOUT_GAIN` of `brass_stats.bots.greedy.evaluation`
//! (held equal by tests/test_core_greedy.py): how useful the cards of a hand are.

use crate::rules::{Card, CardKind, Ind};
use crate::state::State;

const WILD_VALUE: f64 = 1.0;
/// What a scout adds to a hand's value: one wild location and one wild industry card.
pub const SCOUT_GAIN: f64 = 2.0 * WILD_VALUE;

/// `card_values(state, seat)`: how useful each card is to the seat now (0..1), by card id; the
/// wild cards and the seat's hand have a value, every other card 0.
#[derive(Clone, Debug)]
pub struct CardValues {
    values: [f64; 256],
}

impl CardValues {
    pub fn get(&self, card: Card) -> f64 {
        self.values[card as usize]
    }
}

/// `card_values(state, seat)`.
pub fn card_values(state: &State, seat: u8) -> CardValues {
    let rules = &*state.rules;
    let p = &state.players[seat as usize];
    let canal = state.canal();
    let mut buildable = 0u32;
    for ind in 0..rules.industries.len() as Ind {
        if let Some(lvl) = p.lowest_level(rules, ind) {
            if rules.level(ind, lvl).buildable_in(canal) {
                buildable |= 1 << ind;
            }
        }
    }
    let mut out = CardValues { values: [0.0; 256] };
    for wild in [rules.wild_location, rules.wild_industry]
        .into_iter()
        .flatten()
    {
        out.values[wild as usize] = WILD_VALUE;
    }
    for &card in &p.hand {
        out.values[card as usize] = match rules.cards[card as usize].kind {
            CardKind::WildLocation | CardKind::WildIndustry => WILD_VALUE,
            CardKind::Location(loc) => {
                let free = rules.locations[loc as usize].slots.iter().any(|&s| {
                    state.tile(s).is_none() && rules.slots[s as usize].mask & buildable != 0
                });
                if free {
                    0.8
                } else {
                    0.1
                }
            }
            CardKind::Industry(mask) => {
                if mask & buildable != 0 {
                    0.6
                } else {
                    0.1
                }
            }
        };
    }
    out
}

/// `hand_value(state, seat)`: the sum of the card values of the seat's hand.
pub fn hand_value(state: &State, seat: u8) -> f64 {
    let values = card_values(state, seat);
    crate::pysum::py_sum(
        state.players[seat as usize]
            .hand
            .iter()
            .map(|&c| values.get(c)),
    )
}
