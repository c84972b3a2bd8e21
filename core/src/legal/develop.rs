//! Mirrors `brass_stats.engine.legal.develop` (held equal by tests/test_core_legal.py): one or two
//! industries whose lowest tile may be developed, and the iron it takes.
//!
//! Which card is discarded never matters, and the iron taken depends only on how many tiles are
//! developed, so each choice of industries is offered with every card.

use super::probe::{Draw, Position};
use crate::action::{Action, Srcs};
use crate::rules::{Card, Ind, Rules, MAX_INDUSTRIES};
use crate::state::Player;
use arrayvec::ArrayVec;

fn can_develop(rules: &Rules, ind: Ind, lvl: Option<u8>) -> bool {
    lvl.is_some_and(|l| rules.level(ind, l).can_develop)
}

/// The level developed after `ind`'s lowest tile `lvl` (the next of the same level, or the one above).
fn next_level(rules: &Rules, p: &Player, ind: Ind, lvl: u8) -> Option<u8> {
    let first = rules.first_level(ind);
    let left = &p.mat[ind as usize][..rules.levels[ind as usize].len()];
    let i = (lvl - first) as usize;
    if left[i] > 1 {
        return Some(lvl);
    }
    (i + 1..left.len())
        .find(|&j| left[j] > 0)
        .map(|j| j as u8 + first)
}

pub fn develop_actions(pos: &Position, cards: &[Card], out: &mut Vec<Action>) {
    let (seat, p, rules) = (pos.seat, pos.player, pos.rules);
    let n = rules.industries.len();
    let mut lowest = [None; MAX_INDUSTRIES];
    for (ind, l) in lowest.iter_mut().enumerate().take(n) {
        *l = p.lowest_level(rules, ind as Ind);
    }
    let first: ArrayVec<Ind, MAX_INDUSTRIES> = (0..n as Ind)
        .filter(|&i| can_develop(rules, i, lowest[i as usize]))
        .collect();
    let mut combos: ArrayVec<ArrayVec<Ind, 2>, 80> = first.iter().map(|&i| one(i)).collect();
    let mut pairs = 0u64; // frozenset({a, b}) as the bit a * 8 + b, a <= b
    for &a in &first {
        for b in 0..n as Ind {
            let ok = if b == a {
                let lvl = lowest[a as usize].unwrap_or_default();
                can_develop(rules, a, next_level(rules, p, a, lvl))
            } else {
                can_develop(rules, b, lowest[b as usize])
            };
            let key = 1u64 << (a.min(b) * 8 + a.max(b));
            if ok && pairs & key == 0 {
                pairs |= key;
                let mut c = one(a);
                c.push(b);
                combos.push(c);
            }
        }
    }
    let mut iron: [Option<Option<Srcs>>; 3] = Default::default();
    for combo in combos {
        let k = combo.len();
        let sources = iron[k].get_or_insert_with(|| {
            let mut draw = Draw::new(pos, None);
            let taken = draw.iron(k as u8);
            taken.filter(|_| draw.cost <= p.money)
        });
        if let Some(src) = sources.as_ref() {
            out.extend(cards.iter().map(|&card| Action::Develop {
                player: seat,
                card,
                industries: combo.clone(),
                iron: Some(src.clone()),
            }));
        }
    }
}

fn one(i: Ind) -> ArrayVec<Ind, 2> {
    let mut c = ArrayVec::new();
    c.push(i);
    c
}
