//! Mirrors `brass_stats.engine.legal.network` (held equal by tests/test_core_legal.py): one canal
//! link, one rail link with its coal, or two rail links with their coal and a barrel.
//!
//! Which card is discarded never matters, so each link (or pair) is worked out once and offered
//! with every card. Two rail links are listed once, in the first order found legal (the
//! reference's `done` pair set), with the second link's coal and barrel worked out from its ends
//! with the first link in place, as the reference does.

use super::probe::{Position, Reach, INF};
use super::slots::bits;
use crate::action::{Action, Src, Srcs};
use crate::rules::{Card, LinkId, MAX_LINKS};
use crate::state::NO_OWNER;
use arrayvec::ArrayVec;

/// `link_cost(era, n)`: £3 per canal link; £5 for one rail link, £15 for two.
pub fn link_cost(canal: bool, n: usize) -> i32 {
    if canal {
        3
    } else if n == 1 {
        5
    } else {
        15
    }
}

/// Distances from each link's ends, worked out on first use.
struct LinkReach<'p, 'a> {
    pos: &'p Position<'a>,
    cache: [Option<Reach>; MAX_LINKS],
}

impl LinkReach<'_, '_> {
    fn get(&mut self, link: LinkId) -> Reach {
        if let Some(r) = self.cache[link as usize] {
            return r;
        }
        let ends = self.pos.rules.links[link as usize].connects_set;
        let r = self.pos.reach(ends);
        self.cache[link as usize] = Some(r);
        r
    }
}

/// `_Coal.closest`: (distance, mine index) of the closest connected mine with a cube left once
/// mine `taken` gave one (closest, then slot order).
fn closest(pos: &Position, r: &Reach, taken: Option<usize>) -> Option<(u32, usize)> {
    let mut best: Option<(u32, usize)> = None;
    for (i, m) in pos.mines.iter().enumerate() {
        if !r.contains(m.loc) || m.cubes <= u8::from(Some(i) == taken) {
            continue;
        }
        let d = r.get(m.loc);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, i));
        }
    }
    best
}

/// `_Coal.first_opponent_brewery`: index of the first connected opponent brewery (None: none).
fn first_opponent_brewery(pos: &Position, r: &Reach) -> Option<usize> {
    pos.breweries
        .iter()
        .position(|b| b.owner != pos.seat && r.contains(b.loc))
}

fn push_all(
    out: &mut Vec<Action>,
    seat: u8,
    cards: &[Card],
    links: &[LinkId],
    coal: Option<Srcs>,
    beer: Option<Src>,
) {
    let links: ArrayVec<LinkId, 2> = links.iter().copied().collect();
    out.extend(cards.iter().map(|&card| Action::Network {
        player: seat,
        card,
        links: links.clone(),
        coal: coal.clone(),
        beer,
    }));
}

/// The first rail link's coal: (mine index, None for the market), its source, its cost.
#[derive(Clone, Copy)]
struct First {
    taken: Option<usize>,
    src: Src,
    cost: i32,
}

pub fn network_actions(pos: &Position, cards: &[Card], out: &mut Vec<Action>) {
    let (state, seat, p, rules) = (pos.state, pos.seat, pos.player, pos.rules);
    let canal = state.canal();
    if p.link_tiles <= 0 || p.money < link_cost(canal, 1) {
        return;
    }
    // unbuilt lines of the era, and those the player may place now (rules order)
    let anywhere = !pos.has_pieces && rules.link_anywhere_without_pieces;
    let mut unbuilt = 0u64;
    let mut singles = 0u64;
    for (i, link) in rules.links.iter().enumerate() {
        if state.link_owner[i] != NO_OWNER || !link.allowed_in(canal) {
            continue;
        }
        unbuilt |= 1 << i;
        if anywhere || pos.net & link.connects_set != 0 {
            singles |= 1 << i;
        }
    }
    if canal {
        for lid in bits(singles) {
            push_all(out, seat, cards, &[lid], None, None);
        }
        return;
    }
    let money = p.money;
    let market = &rules.coal_market;
    let cm = state.coal_market;
    let price = market.buy_price(cm); // a first cube from the market
    let price2 = market.buy_price(cm.saturating_sub(1)); // a second one after it
    let mut reach = LinkReach {
        pos,
        cache: [None; MAX_LINKS],
    };
    let mut first: [Option<First>; MAX_LINKS] = [None; MAX_LINKS];
    for lid in bits(singles) {
        let r = reach.get(lid);
        let start = if let Some((_, i)) = closest(pos, &r, None) {
            First {
                taken: Some(i),
                src: Src::Tile(pos.mines[i].slot),
                cost: 0,
            }
        } else if r.set & pos.trade != 0 {
            First {
                taken: None,
                src: Src::Market,
                cost: price,
            }
        } else {
            continue;
        };
        first[lid as usize] = Some(start);
        if 5 + start.cost <= money {
            push_all(out, seat, cards, &[lid], Some(one(start.src)), None);
        }
    }
    if money < link_cost(false, 2) || p.link_tiles < 2 {
        return;
    }
    double_links(
        pos,
        cards,
        out,
        &mut reach,
        &first,
        unbuilt,
        singles,
        (price, price2),
    );
}

fn one(src: Src) -> Srcs {
    let mut s = Srcs::new();
    s.push(src);
    s
}

/// Two rail links: the second must touch the network with the first in place; its coal and the
/// barrel come from its ends, with the first link in place (a shortest path crosses it at most
/// once: d'(x) = min(d(S, x), d(S, E) + 1 + d(E, x)), E the first link's ends).
#[allow(clippy::too_many_arguments)]
fn double_links(
    pos: &Position,
    cards: &[Card],
    out: &mut Vec<Action>,
    reach: &mut LinkReach,
    first: &[Option<First>; MAX_LINKS],
    unbuilt: u64,
    singles: u64,
    (price, price2): (i32, i32),
) {
    let (seat, rules) = (pos.seat, pos.rules);
    let money = pos.player.money;
    // the unbuilt links touching each location
    let mut touching = [0u64; 64];
    let mut near = 0u64; // touching the network
    for lid in bits(unbuilt) {
        let link = &rules.links[lid as usize];
        for &x in &link.connects {
            touching[x as usize] |= 1 << lid;
        }
        if pos.net & link.connects_set != 0 {
            near |= 1 << lid;
        }
    }
    let beer_needed = rules.double_rail_beer > 0;
    let own_beer = pos.breweries.iter().position(|b| b.owner == seat);
    let mut done = [0u64; MAX_LINKS]; // pairs in link order
    for lid1 in bits(singles) {
        let Some(start) = first[lid1 as usize] else {
            continue;
        };
        let ends1 = &rules.links[lid1 as usize].connects;
        let mut seconds = near;
        for &x in ends1 {
            seconds |= touching[x as usize];
        }
        seconds &= !(1u64 << lid1);
        let r1 = reach.get(lid1);
        let other1 = closest(pos, &r1, start.taken); // lid1's own ends, reached through lid1
        for lid2 in bits(seconds) {
            let (a, b) = if lid1 < lid2 {
                (lid1, lid2)
            } else {
                (lid2, lid1)
            };
            if done[a as usize] >> b & 1 == 1 {
                continue;
            }
            let r2 = reach.get(lid2);
            let to_via = ends1.iter().map(|&e| r2.get(e)).min().unwrap_or(INF);
            let mut best = closest(pos, &r2, start.taken);
            if let (true, Some((d, i))) = (to_via < INF, other1) {
                let via = (to_via + 1 + d, i);
                if best.is_none_or(|b| via < b) {
                    best = Some(via);
                }
            }
            let (src2, cost2) = if let Some((_, i)) = best {
                (Src::Tile(pos.mines[i].slot), 0)
            } else if reaches_trade(pos, &r2) || (to_via < INF && reaches_trade(pos, &r1)) {
                (
                    Src::Market,
                    if start.taken.is_none() { price2 } else { price },
                )
            } else {
                continue;
            };
            let mut beer = None;
            if beer_needed {
                let mut i = own_beer;
                if i.is_none() {
                    i = first_opponent_brewery(pos, &r2);
                    if to_via < INF {
                        i = min_index(i, first_opponent_brewery(pos, &r1));
                    }
                }
                let Some(i) = i else {
                    continue;
                };
                beer = Some(Src::Tile(pos.breweries[i].slot));
            }
            if link_cost(false, 2) + start.cost + cost2 > money {
                continue;
            }
            done[a as usize] |= 1 << b;
            let mut coal = Srcs::new();
            coal.push(start.src);
            coal.push(src2);
            push_all(out, seat, cards, &[lid1, lid2], Some(coal), beer);
        }
    }
}

fn reaches_trade(pos: &Position, r: &Reach) -> bool {
    r.set & pos.trade != 0
}

/// `min(i, j)` with None as the reference's INF.
fn min_index(i: Option<usize>, j: Option<usize>) -> Option<usize> {
    match (i, j) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}
