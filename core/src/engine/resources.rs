//! Mirrors `brass_stats.engine.resources` (held equal by tests/test_core_engine.py): spending,
//! flipping, and consuming coal, iron and beer from stated sources.
//!
//! Every `consume_*` checks the stated sources cube by cube as the reference does (the options
//! change as mines run dry); an unstated source is filled as the reference's `decide` fills it
//! with the given [`Policy`].

use super::policy::{decide, Policy};
use crate::action::{Src, Srcs};
use crate::board::{connected_to_trade, distances_from, Distances, UNREACHED};
use crate::rules::{Ind, LocSet, SlotId};
use crate::state::State;
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// The location of a slot.
pub fn slot_loc(state: &State, slot: SlotId) -> u8 {
    state.rules.slots[slot as usize].location
}

/// `spend`: pay the bank through the Character tile (counts toward turn order).
pub fn spend(state: &mut State, seat: u8, amount: i32) -> CoreResult<()> {
    if amount <= 0 {
        return Ok(());
    }
    let p = &mut state.players[seat as usize];
    if p.money < amount {
        return invalid(format!(
            "money.afford: player {seat} must pay £{amount} but has £{}",
            p.money
        ));
    }
    p.money -= amount;
    p.spent += amount;
    Ok(())
}

/// `flip`: flip the tile on `slot` and move its owner's income marker.
pub fn flip(state: &mut State, slot: SlotId) {
    let Some(t) = state.board[slot as usize].as_mut() else {
        return;
    };
    t.flipped = true;
    let (owner, industry, level) = (t.owner, t.industry, t.level);
    let spaces = state.rules.level(industry, level).income_spaces;
    state.advance_income(owner, spaces);
}

/// `take_resource`: one cube or barrel off a tile; it flips when it empties.
pub fn take_resource(state: &mut State, slot: SlotId) {
    let Some(t) = state.board[slot as usize].as_mut() else {
        return;
    };
    t.resources = t.resources.wrapping_sub(1);
    if t.resources == 0 {
        flip(state, slot);
    }
}

fn check_count(stated: Option<&[Src]>, n: u8, what: &str) -> CoreResult<()> {
    match stated {
        Some(s) if s.len() != n as usize => invalid(format!(
            "{what}.count: {n} {what} needed but {} source(s) stated",
            s.len()
        )),
        _ => Ok(()),
    }
}

/// `_check_named_source`: a named source is a tile of `industry` with something left on it
/// (the market names coal or iron, never beer).
fn check_named_source(
    state: &State,
    src: Src,
    industry: Option<Ind>,
    beer: bool,
) -> CoreResult<()> {
    let slot = match src {
        Src::Market if !beer => return Ok(()),
        Src::Tile(slot) => slot,
        _ => return invalid(format!("source.unknown: {src:?} cannot provide this")),
    };
    match state.board.get(slot as usize).copied().flatten() {
        Some(t) if Some(t.industry) == industry && t.resources > 0 => Ok(()),
        _ => invalid(format!(
            "source.unknown: {} holds nothing to take",
            state
                .rules
                .slots
                .get(slot as usize)
                .map_or("?", |s| &s.reference)
        )),
    }
}

fn stated_at(stated: Option<&[Src]>, i: usize) -> Option<Src> {
    stated.map(|s| s[i])
}

/// `consume_coal`: `n` coal for something at `origins`; returns (sources, market cost to pay).
pub fn consume_coal(
    state: &mut State,
    origins: LocSet,
    n: u8,
    stated: Option<&[Src]>,
    policy: Policy,
) -> CoreResult<(Srcs, i32)> {
    check_count(stated, n, "coal")?;
    let mine = state.rules.coal_mine;
    let mut used = Srcs::new();
    let mut cost = 0;
    // the links do not change while coal is consumed: one set of distances serves every cube
    let mut dist: Option<Distances> = None;
    for i in 0..n as usize {
        let mut best = UNREACHED;
        let mut closest: ArrayVec<SlotId, 64> = ArrayVec::new();
        for &slot in &state.tile_order {
            let t = state.board[slot as usize]
                .as_ref()
                .expect("ordered slot holds a tile");
            if Some(t.industry) != mine || t.flipped || t.resources == 0 {
                continue;
            }
            let d = dist.get_or_insert_with(|| distances_from(state, origins))
                [slot_loc(state, slot) as usize];
            if d == UNREACHED {
                continue;
            }
            if d < best {
                best = d;
                closest.clear();
                closest.push(slot);
            } else if d == best {
                closest.push(slot);
            }
        }
        closest.sort_unstable();
        let src = match stated_at(stated, i) {
            Some(s) => s,
            None if !closest.is_empty() => Src::Tile(decide(policy, &closest)?),
            None => Src::Market,
        };
        let in_closest = matches!(src, Src::Tile(s) if closest.contains(&s));
        if !in_closest {
            check_named_source(state, src, mine, false)?;
            if let Src::Tile(s) = src {
                let d = dist.get_or_insert_with(|| distances_from(state, origins));
                if d[slot_loc(state, s) as usize] == UNREACHED {
                    return invalid("coal.connected: the coal mine is not connected");
                }
            }
            if !closest.is_empty() {
                return invalid(
                    "coal.closest_mine: coal must come from the closest connected mine",
                );
            }
        }
        match src {
            Src::Tile(s) => take_resource(state, s),
            _ => {
                if !connected_to_trade(state, origins) {
                    return invalid(
                        "coal.market: not connected to a merchant, so coal cannot be bought",
                    );
                }
                cost += state.rules.coal_market.buy_price(state.coal_market);
                state.coal_market = state.coal_market.saturating_sub(1);
            }
        }
        push(&mut used, src)?;
    }
    Ok((used, cost))
}

fn push(used: &mut Srcs, src: Src) -> CoreResult<()> {
    used.try_push(src)
        .map_err(|_| crate::CoreError::Unsupported("more than 4 cubes at once".into()))
}

/// `consume_iron`: `n` iron (no connection needed); returns (sources, market cost to pay).
pub fn consume_iron(
    state: &mut State,
    n: u8,
    stated: Option<&[Src]>,
    policy: Policy,
) -> CoreResult<(Srcs, i32)> {
    check_count(stated, n, "iron")?;
    let works_ind = state.rules.iron_works;
    let mut used = Srcs::new();
    let mut cost = 0;
    for i in 0..n as usize {
        let mut works: ArrayVec<SlotId, 64> = state
            .tiles()
            .filter(|(_, t)| Some(t.industry) == works_ind && !t.flipped && t.resources > 0)
            .map(|(s, _)| s)
            .collect();
        works.sort_unstable();
        let src = if !works.is_empty() {
            let src = match stated_at(stated, i) {
                Some(s) => s,
                None => Src::Tile(decide(policy, &works)?),
            };
            if !matches!(src, Src::Tile(s) if works.contains(&s)) {
                check_named_source(state, src, works_ind, false)?;
                return invalid("iron.works_first: iron must come from an unflipped iron works");
            }
            src
        } else {
            if let Some(s) = stated_at(stated, i) {
                if s != Src::Market {
                    check_named_source(state, s, works_ind, false)?;
                    return invalid("source.unknown: no iron works has iron");
                }
            }
            Src::Market
        };
        match src {
            Src::Tile(s) => take_resource(state, s),
            _ => {
                cost += state.rules.iron_market.buy_price(state.iron_market);
                state.iron_market = state.iron_market.saturating_sub(1);
            }
        }
        push(&mut used, src)?;
    }
    Ok((used, cost))
}

/// Barrels a beer choice may take: every brewery, and the merchant's barrel.
pub type BeerOptions = ArrayVec<Src, 65>;

/// `beer_options`: own breweries anywhere, connected opponents' breweries (own first, then slot
/// order), and the barrel beside the merchant tile sold to (first) when it is there.
pub fn beer_options(
    state: &State,
    seat: u8,
    origins: LocSet,
    merchant_space: Option<usize>,
) -> BeerOptions {
    let brewery = state.rules.brewery;
    let mut dist: Option<Distances> = None;
    let mut own: ArrayVec<SlotId, 64> = ArrayVec::new();
    let mut others: ArrayVec<SlotId, 64> = ArrayVec::new();
    for (slot, t) in state.tiles() {
        if Some(t.industry) != brewery || t.flipped || t.resources == 0 {
            continue;
        }
        if t.owner == seat {
            own.push(slot);
        } else if dist.get_or_insert_with(|| distances_from(state, origins))
            [slot_loc(state, slot) as usize]
            != UNREACHED
        {
            others.push(slot);
        }
    }
    own.sort_unstable();
    others.sort_unstable();
    let mut opts = BeerOptions::new();
    if let Some(ms) = merchant_space {
        if state.merchant_spaces.get(ms).is_some_and(|m| m.beer) {
            opts.push(Src::Merchant);
        }
    }
    opts.extend(own.into_iter().map(Src::Tile));
    opts.extend(others.into_iter().map(Src::Tile));
    opts
}

/// `consume_beer`: `n` barrels for something at `origins` (`merchant_space`: the index into
/// `state.merchant_spaces` sold to, if any).
pub fn consume_beer(
    state: &mut State,
    seat: u8,
    origins: LocSet,
    n: u8,
    stated: Option<&[Src]>,
    policy: Policy,
    merchant_space: Option<usize>,
) -> CoreResult<Srcs> {
    check_count(stated, n, "beer")?;
    let brewery = state.rules.brewery;
    let mut used = Srcs::new();
    for i in 0..n as usize {
        let opts = beer_options(state, seat, origins, merchant_space);
        if let Some(s) = stated_at(stated, i) {
            if !opts.contains(&s) && s != Src::Merchant {
                check_named_source(state, s, brewery, true)?;
            }
        }
        if opts.is_empty() {
            return invalid("beer.source: no beer is available");
        }
        let src = match stated_at(stated, i) {
            Some(s) => s,
            None => policy.beer(&opts)?,
        };
        if !opts.contains(&src) {
            return invalid(format!("beer.source: beer cannot come from {src:?}"));
        }
        match src {
            Src::Merchant => {
                if let Some(ms) = merchant_space {
                    state.merchant_spaces[ms].beer = false;
                }
            }
            Src::Tile(s) => take_resource(state, s),
            Src::Market => return invalid("beer.source: the market sells no beer"),
        }
        push(&mut used, src)?;
    }
    Ok(used)
}
