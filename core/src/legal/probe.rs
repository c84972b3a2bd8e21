//! Mirrors `brass_stats.engine.legal.probe` (held equal by tests/test_core_legal.py).
//!
//! One [`Position`] per `legal_actions` call gathers the facts every action type asks for (coal
//! mines, iron works and breweries with something left, the player's network, the trade
//! locations, the link adjacency); a [`Draw`] follows one action's coal and iron cube by cube as
//! the engine would (closest mine then slot order, first iron works, market prices as cubes are
//! bought), on counters instead of a copy of the state.

use crate::action::{Src, Srcs};
use crate::board::{self, bit, reach_with, UNREACHED};
use crate::rules::{Loc, LocSet, Market, Rules, SlotId, MAX_SLOTS};
use crate::state::{Player, State};
use arrayvec::ArrayVec;

/// The reference's "no distance" (`INF = 1 << 30`).
pub const INF: u32 = 1 << 30;

/// A coal mine or iron works with cubes left (slot order).
#[derive(Clone, Copy, Debug)]
pub struct Source {
    pub slot: SlotId,
    pub loc: Loc,
    pub cubes: u8,
}

/// A brewery with barrels left.
#[derive(Clone, Copy, Debug)]
pub struct Brewery {
    pub slot: SlotId,
    pub loc: Loc,
    pub owner: u8,
}

/// Link distances from a set of origins (`distances_from`): `set` holds every location reached.
#[derive(Clone, Copy)]
pub struct Reach {
    dist: [u8; 64],
    pub set: LocSet,
}

impl Reach {
    /// `d.get(loc, INF)`.
    pub fn get(&self, loc: Loc) -> u32 {
        match self.dist[loc as usize] {
            UNREACHED => INF,
            d => d as u32,
        }
    }

    pub fn contains(&self, loc: Loc) -> bool {
        self.set & bit(loc) != 0
    }
}

/// Breadth-first distances over `adj` from `origins` (every origin at 0).
pub fn reach(adj: &[LocSet; 64], origins: LocSet) -> Reach {
    let (dist, set) = reach_with(adj, origins);
    Reach { dist, set }
}

/// Facts about the state that many candidate actions share (computed once per call).
pub struct Position<'a> {
    pub state: &'a State,
    pub rules: &'a Rules,
    pub seat: u8,
    pub player: &'a Player,
    /// coal mines with coal, in slot order
    pub mines: ArrayVec<Source, MAX_SLOTS>,
    /// iron works with iron, in slot order
    pub works: ArrayVec<Source, MAX_SLOTS>,
    /// breweries with beer: the player's own first, then slot order
    pub breweries: ArrayVec<Brewery, MAX_SLOTS>,
    pub net: LocSet,
    pub trade: LocSet,
    pub has_pieces: bool,
    pub adj: [LocSet; 64],
}

impl<'a> Position<'a> {
    pub fn new(state: &'a State, seat: u8) -> Position<'a> {
        let rules = &*state.rules;
        let mut mines = ArrayVec::new();
        let mut works = ArrayVec::new();
        let mut own = ArrayVec::<Brewery, MAX_SLOTS>::new();
        let mut others = ArrayVec::<Brewery, MAX_SLOTS>::new();
        // slot ids ascend in (location, index) order: the reference's sort of each list
        for (slot, info) in rules.slots.iter().enumerate() {
            let Some(t) = state.board[slot] else { continue };
            if t.flipped || t.resources == 0 {
                continue;
            }
            let slot = slot as SlotId;
            let loc = info.location;
            let ind = Some(t.industry);
            if ind == rules.coal_mine {
                mines.push(Source {
                    slot,
                    loc,
                    cubes: t.resources,
                });
            } else if ind == rules.iron_works {
                works.push(Source {
                    slot,
                    loc,
                    cubes: t.resources,
                });
            } else if ind == rules.brewery {
                let b = Brewery {
                    slot,
                    loc,
                    owner: t.owner,
                };
                if t.owner == seat {
                    own.push(b);
                } else {
                    others.push(b);
                }
            }
        }
        let mut breweries = own;
        for b in others {
            breweries.push(b); // at most one brewery per slot: the two lists fit together
        }
        let net = state.network(seat);
        Position {
            state,
            rules,
            seat,
            player: &state.players[seat as usize],
            mines,
            works,
            breweries,
            net,
            trade: board::trade_locations(state),
            // every tile and link puts a location in the network
            has_pieces: net != 0,
            adj: board::adjacency(state),
        }
    }

    /// `pos.dist(origins)`.
    pub fn reach(&self, origins: LocSet) -> Reach {
        reach(&self.adj, origins)
    }
}

/// Cubes taken so far by one action (counters over a [`Position`]).
pub struct Draw<'p, 'a> {
    pos: &'p Position<'a>,
    /// cubes taken per slot
    taken: [u8; MAX_SLOTS],
    pub coal_market: u8,
    pub iron_market: u8,
    pub cost: i32,
    /// a tile taken off the board first (overbuilt): its cubes are gone
    removed: Option<SlotId>,
}

impl<'p, 'a> Draw<'p, 'a> {
    pub fn new(pos: &'p Position<'a>, removed: Option<SlotId>) -> Self {
        Draw {
            pos,
            taken: [0; MAX_SLOTS],
            coal_market: pos.state.coal_market,
            iron_market: pos.state.iron_market,
            cost: 0,
            removed,
        }
    }

    fn left(&self, s: &Source) -> bool {
        s.cubes > self.taken[s.slot as usize] && Some(s.slot) != self.removed
    }

    /// Trade locations once the overbuilt tile (a Port, Lancashire) is gone.
    fn trade(&self) -> LocSet {
        let pos = self.pos;
        let mut trade = pos.trade;
        let Some(removed) = self.removed else {
            return trade;
        };
        let state = pos.state;
        let rules = pos.rules;
        let Some(t) = state.board[removed as usize] else {
            return trade;
        };
        let icons = rules.trade_industries;
        if icons >> t.industry & 1 == 1 {
            let loc = rules.slots[removed as usize].location;
            let others = state.tiles().any(|(r, x)| {
                r != removed
                    && rules.slots[r as usize].location == loc
                    && icons >> x.industry & 1 == 1
            });
            if !others && rules.trade_locations & bit(loc) == 0 {
                trade &= !bit(loc);
            }
        }
        trade
    }

    /// Sources of `n` coal for something whose origins reach `d` (None: the engine would refuse).
    pub fn coal(&mut self, d: &Reach, n: u8) -> Option<Srcs> {
        let mut used = Srcs::new();
        for _ in 0..n {
            let mut best = INF;
            let mut src = None;
            for m in &self.pos.mines {
                if !self.left(m) {
                    continue;
                }
                let k = d.get(m.loc);
                if k < best {
                    best = k;
                    src = Some(m.slot);
                }
            }
            let next = match src {
                Some(s) => {
                    self.taken[s as usize] += 1;
                    Src::Tile(s)
                }
                None => {
                    if self.trade() & d.set == 0 {
                        return None;
                    }
                    self.coal_market = self.buy(&self.pos.rules.coal_market, self.coal_market);
                    Src::Market
                }
            };
            used.try_push(next).ok()?;
        }
        Some(used)
    }

    /// Sources of `n` iron (no connection needed; the market always sells). None: more than an
    /// action can state.
    pub fn iron(&mut self, n: u8) -> Option<Srcs> {
        let mut used = Srcs::new();
        for _ in 0..n {
            let found = self.pos.works.iter().find(|w| self.left(w)).map(|w| w.slot);
            let next = match found {
                Some(s) => {
                    self.taken[s as usize] += 1;
                    Src::Tile(s)
                }
                None => {
                    self.iron_market = self.buy(&self.pos.rules.iron_market, self.iron_market);
                    Src::Market
                }
            };
            used.try_push(next).ok()?;
        }
        Some(used)
    }

    /// Pay for one cube from a market holding `cubes`; returns the cubes left.
    fn buy(&mut self, market: &Market, cubes: u8) -> u8 {
        self.cost += market.buy_price(cubes);
        cubes.saturating_sub(1)
    }
}
