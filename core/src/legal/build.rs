//! Mirrors `brass_stats.engine.legal.build` (held equal by tests/test_core_legal.py): Build
//! actions in the order of cards, locations, industries and slots, and Lancashire's double-action
//! builds with every pair of cards.
//!
//! What a build consumes is worked out by a [`Draw`] once per (slot, industry), whichever card
//! builds it (the reference's `_Builds` memo).

use super::probe::{Draw, Position};
use super::slots::{bits, slot_options, virtual_link_allows};
use crate::action::{Action, Srcs};
use crate::board::bit;
use crate::rules::{Card, CardKind, Ind, Loc, LocationKind, SlotId, MAX_INDUSTRIES, MAX_SLOTS};
use arrayvec::ArrayVec;

/// `(coal sources, iron sources)` a build takes (None where it takes none).
#[derive(Clone)]
struct Outcome {
    coal: Option<Srcs>,
    iron: Option<Srcs>,
}

const UNKNOWN: u8 = 0;
const REFUSED: u8 = 1;

/// Outcomes per (slot, industry), worked out on first use.
struct Builds<'p, 'a> {
    pos: &'p Position<'a>,
    /// UNKNOWN, REFUSED, or 2 + the index in `found`
    index: [[u8; MAX_INDUSTRIES]; MAX_SLOTS],
    found: ArrayVec<Outcome, 200>,
}

impl<'p, 'a> Builds<'p, 'a> {
    fn new(pos: &'p Position<'a>) -> Self {
        Builds {
            pos,
            index: [[UNKNOWN; MAX_INDUSTRIES]; MAX_SLOTS],
            found: ArrayVec::new(),
        }
    }

    /// `(coal, iron)` the build takes, or None when it cannot be paid for or supplied.
    fn outcome(&mut self, ind: Ind, level: u8, slot: SlotId) -> Option<Outcome> {
        match self.index[slot as usize][ind as usize] {
            UNKNOWN => {}
            REFUSED => return None,
            i => return Some(self.found[(i - 2) as usize].clone()),
        }
        let result = self.work_out(ind, level, slot);
        let code = match &result {
            None => REFUSED,
            Some(o) => match self.found.try_push(o.clone()) {
                Ok(()) => (self.found.len() + 1) as u8,
                Err(_) => UNKNOWN, // memo full: worked out again next time
            },
        };
        self.index[slot as usize][ind as usize] = code;
        result
    }

    fn work_out(&self, ind: Ind, level: u8, slot: SlotId) -> Option<Outcome> {
        let pos = self.pos;
        let state = pos.state;
        let info = pos.rules.level(ind, level);
        let removed = state.board[slot as usize].is_some().then_some(slot);
        let mut draw = Draw::new(pos, removed);
        let coal = if info.cost_coal > 0 {
            let loc = pos.rules.slots[slot as usize].location;
            Some(draw.coal(&pos.reach(bit(loc)), info.cost_coal)?)
        } else {
            None
        };
        let iron = if info.cost_iron > 0 {
            Some(draw.iron(info.cost_iron)?)
        } else {
            None
        };
        (info.cost_money + draw.cost <= pos.player.money).then_some(Outcome { coal, iron })
    }
}

fn build(
    player: u8,
    card: Card,
    ind: Ind,
    slot: SlotId,
    o: &Outcome,
    second: Option<Card>,
) -> Action {
    Action::Build {
        player,
        card,
        industry: ind,
        slot,
        coal: o.coal.clone(),
        iron: o.iron.clone(),
        second_card: second,
    }
}

fn is_brewery_card(pos: &Position, card: Card) -> bool {
    match pos.rules.cards[card as usize].kind {
        CardKind::WildIndustry => true,
        CardKind::Industry(mask) => pos.rules.brewery.is_some_and(|b| mask >> b & 1 == 1),
        _ => false,
    }
}

/// Every legal Build with one card, in the order of cards, locations, industries and slots.
pub fn build_actions(pos: &Position, cards: &[Card], out: &mut Vec<Action>) {
    let (state, seat, p, rules) = (pos.state, pos.seat, pos.player, pos.rules);
    let canal = state.canal();
    let anywhere = !pos.has_pieces;
    // the level each industry would build at (None: none buildable now)
    let mut levels: [Option<u8>; MAX_INDUSTRIES] = [None; MAX_INDUSTRIES];
    let mut inds_all = 0u32; // the industries with a level
    for (ind, slot) in levels.iter_mut().enumerate().take(rules.industries.len()) {
        let Some(lvl) = p.lowest_level(rules, ind as Ind) else {
            continue;
        };
        let info = rules.level(ind as Ind, lvl);
        if info.buildable_in(canal) && info.cost_money <= p.money {
            *slot = Some(lvl);
            inds_all |= 1 << ind;
        }
    }
    if inds_all == 0 {
        return;
    }
    let mut memo = Builds::new(pos);
    // locations an industry card may build in, and the towns, in the rules' order
    let mut reachable: u64 = 0;
    let mut towns: u64 = 0;
    for (i, l) in rules.locations.iter().enumerate() {
        let loc = i as Loc;
        if !l.slots.is_empty()
            && (anywhere || pos.net & bit(loc) != 0 || virtual_link_allows(state, pos.net, loc))
        {
            reachable |= bit(loc);
        }
        if l.kind == LocationKind::Town {
            towns |= bit(loc);
        }
    }
    for &card in cards {
        let kind = rules.cards[card as usize].kind;
        let brewery_card = is_brewery_card(pos, card);
        let industry_card = matches!(kind, CardKind::Industry(_) | CardKind::WildIndustry);
        let (locs, inds) = match kind {
            CardKind::Location(named) => (bit(named), inds_all),
            CardKind::WildLocation => (towns, inds_all),
            CardKind::WildIndustry => (reachable, inds_all),
            CardKind::Industry(mask) => (reachable, mask & inds_all),
        };
        for loc in bits(locs) {
            let l = &rules.locations[loc as usize];
            if l.kind == LocationKind::FarmBrewery && !brewery_card {
                continue;
            }
            for ind in bits((inds & l.industries) as u64) {
                let Some(level) = levels[ind as usize] else {
                    continue;
                };
                let mut opts = slot_options(state, seat, ind, level, loc);
                if anywhere && industry_card && pos.net & bit(loc) == 0 {
                    opts.over = 0; // "Building If You Have No Tiles on the Board": undeveloped only
                }
                for slot in bits(opts.empty).chain(bits(opts.over)) {
                    if let Some(o) = memo.outcome(ind, level, slot) {
                        out.push(build(seat, card, ind, slot, &o, None));
                    }
                }
            }
        }
    }
}

/// Lancashire: any two cards as any location card, each build offered with every pair of cards.
pub fn double_action_builds(pos: &Position, out: &mut Vec<Action>) {
    let (state, seat, p, rules) = (pos.state, pos.seat, pos.player, pos.rules);
    if !rules.double_action_build || state.actions_this_turn != 0 || state.actions_per_turn() < 2 {
        return;
    }
    if p.hand.len() < 2 {
        return;
    }
    let mut hand: ArrayVec<Card, 16> = p.hand.iter().copied().collect();
    hand.sort_unstable();
    // sorted(set(combinations(sorted(hand), 2)))
    let mut pairs: ArrayVec<(Card, Card), 120> = ArrayVec::new(); // C(16, 2)
    for i in 0..hand.len() {
        for j in i + 1..hand.len() {
            pairs.push((hand[i], hand[j]));
        }
    }
    pairs.sort_unstable();
    dedup(&mut pairs);
    let first = pairs[0].0;
    let first_kind = rules.cards[first as usize].kind;
    let farm_refused = first_kind == CardKind::WildLocation || !is_brewery_card(pos, first);
    let canal = state.canal();
    let mut memo = Builds::new(pos);
    for (i, l) in rules.locations.iter().enumerate() {
        let loc = i as Loc;
        if l.kind == LocationKind::FarmBrewery && farm_refused {
            continue;
        }
        for ind in 0..rules.industries.len() as Ind {
            let Some(lvl) = p.lowest_level(rules, ind) else {
                continue;
            };
            if l.industries >> ind & 1 == 0 || !rules.level(ind, lvl).buildable_in(canal) {
                continue;
            }
            let opts = slot_options(state, seat, ind, lvl, loc);
            for slot in bits(opts.empty).chain(bits(opts.over)) {
                if let Some(o) = memo.outcome(ind, lvl, slot) {
                    out.extend(
                        pairs
                            .iter()
                            .map(|&(a, b)| build(seat, a, ind, slot, &o, Some(b))),
                    );
                }
            }
        }
    }
}

/// Drop the repeats of a sorted list.
pub(crate) fn dedup<T: PartialEq + Copy, const N: usize>(v: &mut ArrayVec<T, N>) {
    let mut kept = 0;
    for i in 0..v.len() {
        if kept == 0 || v[i] != v[kept - 1] {
            v[kept] = v[i];
            kept += 1;
        }
    }
    v.truncate(kept);
}
