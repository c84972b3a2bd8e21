//! Mirrors `brass_stats.engine.build` (held equal by tests/test_core_engine.py): the Build action:
//! cards, network, slot, overbuilding, cost, and coal/iron moved to the markets.

use super::policy::Policy;
use super::resources::{consume_coal, consume_iron, flip, slot_loc, spend};
use crate::action::Srcs;
use crate::board::{bit, connected_to_trade};
use crate::rules::{Card, CardKind, Ind, Loc, LocationKind, SlotId};
use crate::state::{Era, State, Tile};
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// A Build action's stated fields.
pub struct BuildArgs<'a> {
    pub seat: u8,
    pub card: Card,
    pub industry: Ind,
    pub slot: SlotId,
    pub coal: Option<&'a Srcs>,
    pub iron: Option<&'a Srcs>,
    pub second_card: Option<Card>,
}

/// `virtual_link_allows`: the classic Lancashire rule, Liverpool in your network lets an industry
/// card build in Birkenhead.
pub fn virtual_link_allows(state: &State, seat: u8, location: Loc) -> bool {
    match state.rules.virtual_link {
        Some((from, to)) if state.options.virtual_link && location == to => {
            state.network(seat) >> from & 1 == 1
        }
        _ => false,
    }
}

/// `check_card`: true when only "Building If You Have No Tiles on the Board" allows the build.
fn check_card(state: &State, a: &BuildArgs, loc: Loc) -> CoreResult<bool> {
    let rules = &*state.rules;
    let farm = rules.locations[loc as usize].kind == LocationKind::FarmBrewery;
    if a.second_card.is_some() {
        if !rules.double_action_build {
            return invalid("build.card: a Build action discards one card");
        }
        if state.actions_this_turn != 0 || state.actions_per_turn() < 2 {
            return invalid(
                "build.double_action: the double-action build takes both actions of a turn",
            );
        }
        return Ok(false);
    }
    match rules.cards[a.card as usize].kind {
        CardKind::Location(named) if named == loc => Ok(false),
        CardKind::Location(_) => invalid("build.card: a location card builds only in its location"),
        CardKind::WildLocation if farm => {
            invalid("build.wild_location_farm: a Wild Location card cannot build on a Farm Brewery")
        }
        CardKind::WildLocation => Ok(false),
        CardKind::Industry(mask) if mask >> a.industry & 1 == 0 => {
            invalid("build.card: the industry card cannot build this industry")
        }
        CardKind::Industry(_) | CardKind::WildIndustry => {
            if state.network(a.seat) >> loc & 1 == 1 || virtual_link_allows(state, a.seat, loc) {
                Ok(false)
            } else if !state.has_pieces_on_board(a.seat) {
                Ok(true)
            } else {
                invalid("build.network: the location is not in the player's network")
            }
        }
    }
}

/// `resource_gone`: no cube of a mine's (works') resource on the board or in its market.
pub fn resource_gone(state: &State, industry: Ind) -> bool {
    let market = if Some(industry) == state.rules.coal_mine {
        state.coal_market
    } else {
        state.iron_market
    };
    market == 0
        && !state
            .tiles()
            .any(|(_, t)| t.industry == industry && t.resources > 0)
}

/// Slot indexes within a location (at most 8 per location).
pub type SlotIndexes = ArrayVec<u8, 16>;

/// `slot_options`: (empty slots the rules allow, slots whose tile may be overbuilt).
pub fn slot_options(
    state: &State,
    seat: u8,
    industry: Ind,
    level: u8,
    loc: Loc,
) -> (SlotIndexes, SlotIndexes) {
    let rules = &*state.rules;
    let mut empty = SlotIndexes::new();
    let mut singles = SlotIndexes::new();
    let mut own_here: Option<(SlotId, Tile)> = None;
    for &s in &rules.locations[loc as usize].slots {
        let slot = &rules.slots[s as usize];
        match state.board[s as usize] {
            None => {
                if slot.mask >> industry & 1 == 1 {
                    empty.push(slot.index);
                    if slot.industries.len() == 1 {
                        singles.push(slot.index);
                    }
                }
            }
            Some(t) => {
                if own_here.is_none() && t.owner == seat {
                    own_here = Some((s, t));
                }
            }
        }
    }
    if state.era == Era::Canal {
        if let Some((s, t)) = own_here {
            let slot = &rules.slots[s as usize];
            let can = t.industry == industry && t.level < level && slot.mask >> industry & 1 == 1;
            let mut over = SlotIndexes::new();
            if can {
                over.push(slot.index);
            }
            return (SlotIndexes::new(), over);
        }
    }
    let resource = Some(industry) == rules.coal_mine || Some(industry) == rules.iron_works;
    let mut over = SlotIndexes::new();
    for &s in &rules.locations[loc as usize].slots {
        let Some(t) = state.board[s as usize] else {
            continue;
        };
        if t.industry != industry || t.level >= level {
            continue;
        }
        if t.owner == seat || (resource && resource_gone(state, industry)) {
            over.push(rules.slots[s as usize].index);
        }
    }
    (if singles.is_empty() { empty } else { singles }, over)
}

/// `_canal_one_per_location`: in the Canal Era a player has one tile per location.
fn canal_one_per_location(
    state: &State,
    seat: u8,
    loc: Loc,
    replacing: Option<SlotId>,
) -> CoreResult<()> {
    if state.era != Era::Canal {
        return Ok(());
    }
    for &s in &state.rules.locations[loc as usize].slots {
        if let Some(t) = state.board[s as usize] {
            if t.owner == seat && Some(s) != replacing {
                return invalid(
                    "build.canal_one_per_location: the Canal Era allows one tile per location",
                );
            }
        }
    }
    Ok(())
}

/// `apply_build` for a Build with its slot stated.
pub fn apply_build(state: &mut State, a: &BuildArgs) -> CoreResult<()> {
    let rules = state.rules.clone();
    let (seat, industry, slot) = (a.seat, a.industry, a.slot);
    if slot as usize >= rules.slots.len()
        || industry as usize >= rules.industries.len()
        || a.card as usize >= rules.cards.len()
    {
        return invalid("log.unknown_name: no such slot, industry or card");
    }
    let loc = rules.slots[slot as usize].location;
    let farm = rules.locations[loc as usize].kind == LocationKind::FarmBrewery;
    let kind = rules.cards[a.card as usize].kind;
    if farm && kind == CardKind::WildLocation {
        return invalid(
            "build.wild_location_farm: a Wild Location card cannot build on a Farm Brewery",
        );
    }
    if farm {
        let brewery_card = match (kind, rules.brewery) {
            (CardKind::WildIndustry, _) => true,
            (CardKind::Industry(mask), Some(b)) => mask >> b & 1 == 1,
            _ => false,
        };
        if !brewery_card {
            return invalid(
                "build.farm_brewery: a Farm Brewery needs a Brewery or Wild Industry card",
            );
        }
    }
    let anywhere = check_card(state, a, loc)?;
    let Some(level) = state.players[seat as usize].lowest_level(&rules, industry) else {
        return invalid("build.tiles_left: no tiles of this industry left");
    };
    let info = rules.level(industry, level);
    if !info.canal_ok && !info.rail_ok {
        return invalid("build.locked: this level may only be developed away");
    }
    if !info.buildable_in(state.canal()) {
        return invalid("build.era: this level cannot be built in this era");
    }
    if rules.locations[loc as usize].industries >> industry & 1 == 0 {
        return invalid("build.slot_icon: no space here displays the industry");
    }
    let (empty, mut over) = slot_options(state, seat, industry, level, loc);
    let target = state.board[slot as usize];
    if anywhere {
        if target.is_some() {
            return invalid(
                "build.no_tiles_on_board: with no tiles on the board, only an undeveloped space",
            );
        }
        over.clear();
    }
    let index = rules.slots[slot as usize].index;
    let mut checked = false;
    if target.is_none_or(|t| t.owner != seat) {
        canal_one_per_location(state, seat, loc, None)?;
        checked = true;
    }
    if rules.slots[slot as usize].mask >> industry & 1 == 0 {
        return invalid("build.slot_icon: the slot does not display the industry");
    }
    if !empty.contains(&index) && !over.contains(&index) {
        return invalid("build.overbuild: the slot is not open to this tile");
    }
    let replacing = target.map(|_| slot);
    if !checked {
        canal_one_per_location(state, seat, loc, replacing)?;
    }
    if replacing.is_some() {
        state.remove_tile(slot);
    }
    let mut coal_cost = 0;
    let mut iron_cost = 0;
    if info.cost_coal > 0 || a.coal.is_some() {
        let stated = a.coal.map(|s| s.as_slice());
        coal_cost = consume_coal(state, bit(loc), info.cost_coal, stated, Policy::Strict)?.1;
    }
    if info.cost_iron > 0 || a.iron.is_some() {
        let stated = a.iron.map(|s| s.as_slice());
        iron_cost = consume_iron(state, info.cost_iron, stated, Policy::Strict)?.1;
    }
    spend(state, seat, info.cost_money + coal_cost + iron_cost)?;
    state.players[seat as usize].take_from_mat(&rules, industry, level);
    let resources = rules.resources_on_build(industry, level, state.canal());
    state.place_tile(
        slot,
        Tile {
            owner: seat,
            industry,
            level,
            flipped: false,
            resources,
        },
    );
    if rules.flips_on_build >> industry & 1 == 1 {
        flip(state, slot);
    }
    sell_to_market(state, slot);
    Ok(())
}

/// `_sell_to_market`: a new coal mine (connected to trade) or iron works sells its cubes to the
/// market, most expensive spaces first; an emptied tile flips.
fn sell_to_market(state: &mut State, slot: SlotId) {
    let rules = state.rules.clone();
    let Some(tile) = state.board[slot as usize] else {
        return;
    };
    let coal = Some(tile.industry) == rules.coal_mine;
    if coal {
        if !connected_to_trade(state, bit(slot_loc(state, slot))) {
            return;
        }
    } else if Some(tile.industry) != rules.iron_works {
        return;
    }
    let market = if coal {
        &rules.coal_market
    } else {
        &rules.iron_market
    };
    let mut resources = tile.resources;
    let mut cubes = if coal {
        state.coal_market
    } else {
        state.iron_market
    };
    let mut income = 0;
    while resources > 0 {
        let Some(price) = market.sell_price(cubes) else {
            break;
        };
        cubes += 1;
        resources -= 1;
        income += price;
    }
    if coal {
        state.coal_market = cubes;
    } else {
        state.iron_market = cubes;
    }
    state.players[tile.owner as usize].money += income;
    if let Some(t) = state.board[slot as usize].as_mut() {
        t.resources = resources;
    }
    if resources == 0 {
        flip(state, slot);
    }
}
