//! Mirrors `brass_stats.engine.legal.sell` (held equal by tests/test_core_legal.py): every set of
//! sales (tiles in board order), each with or without the merchant's beer.
//!
//! A sale changes what the next one may drink (barrels, the merchant's barrel) and, with the
//! Gloucester bonus, the player mat; each sale is therefore applied with the engine's own sale
//! rules (`engine::sell`) on a copy of the state after the sales before it, as the reference does.

use crate::action::{Action, Buyer, Sale, Src};
use crate::board::{adjacency, bit, reachable, trade_locations};
use crate::engine::sell::{apply_cotton_sale, apply_sale_resolving};
use crate::rules::{Card, LocSet, SlotId};
use crate::state::State;
use std::collections::HashSet;

/// A sale skeleton and whether it drinks the merchant's barrel.
type SaleOption = (SlotId, Buyer, bool);

/// `market_closed(state)`: the Distant Cotton Market marker is on the X.
fn market_closed(state: &State) -> bool {
    state
        .rules
        .dcm_track
        .get(state.dcm_position as usize)
        .is_none_or(|row| row.is_none())
}

/// `sale_options(state, seat)`: every tile/buyer pair that may connect, in board order.
fn sale_options(state: &State, seat: u8) -> Vec<SaleOption> {
    let rules = &*state.rules;
    let adj = adjacency(state);
    let mut out = Vec::new();
    let own = (0..rules.slots.len() as SlotId).filter_map(|s| {
        let t = state.board[s as usize]?;
        (t.owner == seat && !t.flipped && rules.is_sellable(t.industry)).then_some((s, t))
    });
    if !rules.dcm_track.is_empty() {
        let ports: Vec<SlotId> = (0..rules.slots.len() as SlotId)
            .filter(|&s| {
                state.board[s as usize]
                    .is_some_and(|t| Some(t.industry) == rules.port && !t.flipped)
            })
            .collect();
        let trade = trade_locations(state);
        let closed = market_closed(state);
        for (s, _) in own {
            let net: LocSet = reachable(&adj, bit(rules.slots[s as usize].location));
            for &port in &ports {
                if net & bit(rules.slots[port as usize].location) != 0 {
                    out.push((s, Buyer::Port(port), false));
                }
            }
            if !closed && net & trade != 0 {
                out.push((s, Buyer::DistantMarket, false));
            }
        }
        return out;
    }
    for (s, t) in own {
        let net = reachable(&adj, bit(rules.slots[s as usize].location));
        let beer = rules.level(t.industry, t.level).beer_to_sell > 0;
        for m in &rules.merchants {
            let accepting = state
                .merchant_spaces
                .iter()
                .filter(|ms| ms.location == m.location && ms.accepts >> t.industry & 1 == 1);
            let (mut any, mut barrel) = (false, false);
            for ms in accepting {
                any = true;
                barrel |= ms.beer;
            }
            if !any || net & bit(m.location) == 0 {
                continue;
            }
            out.push((s, Buyer::Merchant(m.location), false));
            if beer && barrel {
                out.push((s, Buyer::Merchant(m.location), true));
            }
        }
    }
    out
}

struct Sales<'o> {
    seat: u8,
    cotton: bool,
    options: &'o [SaleOption],
    found: Vec<Vec<Sale>>,
}

impl Sales<'_> {
    /// Extend `prefix` (applied to get `base`) with each later option, one sale applied per
    /// candidate on a copy of `base`.
    fn extend(&mut self, base: &State, prefix: &mut Vec<Sale>, start: usize) {
        for i in start..self.options.len() {
            let (tile, buyer, with_beer) = self.options[i];
            if prefix.iter().any(|s| s.tile == tile) {
                continue;
            }
            let mut after = base.clone();
            let (done, more) = if self.cotton {
                match apply_cotton_sale(&mut after, self.seat, tile, buyer) {
                    Ok(more) => (skeleton(tile, buyer), more), // false: the market closed
                    Err(_) => continue,
                }
            } else {
                let Buyer::Merchant(m) = buyer else { continue };
                match apply_sale_resolving(&mut after, self.seat, tile, m, with_beer) {
                    Ok(done) => (done, true),
                    Err(_) => continue,
                }
            };
            let drank = done
                .beer
                .as_ref()
                .is_some_and(|b| b.contains(&Src::Merchant));
            if with_beer != drank {
                continue; // the variant asked for is not what happened: another entry covers it
            }
            prefix.push(done);
            self.found.push(prefix.clone());
            if more {
                self.extend(&after, prefix, i + 1);
            }
            prefix.pop();
        }
    }
}

fn skeleton(tile: SlotId, buyer: Buyer) -> Sale {
    Sale {
        tile,
        buyer,
        merchant_space: None,
        beer: None,
        bonus_develop: None,
    }
}

/// Every sequence of sales (tiles in board order), each with every card in hand.
pub fn sell_actions(state: &State, seat: u8, cards: &[Card], out: &mut Vec<Action>) {
    let options = sale_options(state, seat);
    if options.is_empty() {
        return;
    }
    let mut sales = Sales {
        seat,
        cotton: !state.rules.dcm_track.is_empty(),
        options: &options,
        found: Vec::new(),
    };
    sales.extend(state, &mut Vec::new(), 0);
    let mut seen: HashSet<&[Sale]> = HashSet::with_capacity(sales.found.len());
    for list in &sales.found {
        if !seen.insert(list.as_slice()) {
            continue;
        }
        out.extend(cards.iter().map(|&card| Action::Sell {
            player: seat,
            card,
            sales: list.clone(),
        }));
    }
}
