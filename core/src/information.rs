//! Mirrors `brass_stats.engine.information` (held equal by tests/test_core_search.py): what a seat
//! cannot see, and a sample of it.

use crate::action::{Action, Buyer};
use crate::engine::apply_action;
use crate::rng::{PyRandom, SplitMix64};
use crate::state::{Chance, Era, State};
use crate::CoreResult;

/// How many cards at the bottom of each discard pile are face down now.
pub fn face_down_count(state: &State) -> usize {
    if state.era == Era::Canal {
        state.rules.face_down_discards
    } else {
        0
    }
}

/// The cards `seat` cannot see, sorted: other hands, the deck, face-down discards, the reserve.
pub fn unseen_cards(state: &State, seat: u8) -> Vec<u8> {
    let k = face_down_count(state);
    let mut pool = Vec::with_capacity(96);
    for (s, p) in state.players.iter().enumerate() {
        if s != seat as usize {
            pool.extend_from_slice(&p.hand);
        }
    }
    pool.extend_from_slice(&state.deck);
    if k > 0 {
        for p in &state.players {
            pool.extend_from_slice(&p.discard[..k.min(p.discard.len())]);
        }
    }
    pool.extend_from_slice(&state.reserve);
    pool.sort_unstable();
    pool
}

/// `determinize(state, seat, rng)`: the hidden cards (for `seat`) drawn at random from the unseen
/// ones, the Distant Cotton Market pile reshuffled, and a fresh chance source drawn from `rng`.
pub fn determinize(state: &State, seat: u8, rng: &mut PyRandom) -> State {
    let mut new = state.clone();
    let mut pool = unseen_cards(state, seat);
    rng.shuffle(&mut pool);
    let mut at = 0;
    for (s, p) in new.players.iter_mut().enumerate() {
        if s != seat as usize {
            let n = p.hand.len();
            p.hand.clear();
            p.hand.extend(pool[at..at + n].iter().copied());
            at += n;
        }
    }
    let k = face_down_count(state);
    if k > 0 {
        for p in new.players.iter_mut() {
            let n = k.min(p.discard.len());
            for i in 0..n {
                p.discard[i] = pool[at + i];
            }
            at += n;
        }
    }
    let n = new.deck.len();
    new.deck.clear();
    new.deck.extend(pool[at..at + n].iter().copied());
    at += n;
    new.reserve.clear();
    new.reserve.extend(pool[at..].iter().copied());
    if !new.dcm_pile.is_empty() {
        new.dcm_pile.sort_unstable();
        rng.shuffle(&mut new.dcm_pile);
    }
    let seed = rng.getrandbits(48);
    new.chance = Chance::Seeded {
        seed,
        rng: SplitMix64::new(seed),
    };
    new
}

/// Whether the legality of an action is public (a Lancashire Sell with a Distant Cotton Market
/// sale before another sale depends on the face-down tiles: not knowable).
pub fn is_knowable(state: &State, action: &Action) -> bool {
    if state.rules.dcm_track.is_empty() {
        return true;
    }
    match action {
        Action::Sell { sales, .. } => !sales[..sales.len().saturating_sub(1)]
            .iter()
            .any(|s| s.buyer == Buyer::DistantMarket),
        _ => true,
    }
}

/// `knowable(state, legal)`: the actions whose legality the player to move can know.
pub fn knowable(state: &State, legal: Vec<Action>) -> Vec<Action> {
    if state.rules.dcm_track.is_empty() {
        return legal;
    }
    legal
        .into_iter()
        .filter(|a| is_knowable(state, a))
        .collect()
}

/// `attempt(state, action)`: the action applied as the player would attempt it at the table (a
/// Lancashire Sell whose Distant Cotton Market sale closes the market stops there).
pub fn attempt(state: &State, action: &Action) -> CoreResult<State> {
    let mut next = state.clone();
    let first = apply_action(&mut next, action);
    if first.is_ok() {
        return Ok(next);
    }
    if let Action::Sell {
        player,
        card,
        sales,
    } = action
    {
        if sales.len() >= 2 {
            for k in (1..sales.len()).rev() {
                let shorter = Action::Sell {
                    player: *player,
                    card: *card,
                    sales: sales[..k].to_vec(),
                };
                let mut next = state.clone();
                if apply_action(&mut next, &shorter).is_ok() {
                    return Ok(next);
                }
            }
        }
    }
    first.map(|_| next)
}
