//! Mirrors `brass_stats.engine.connectivity` (held equal by tests/test_core_parity.py): connectivity.
//!
//! "Connected" follows links of any owner; distance counts link tiles; a link that joins three
//! locations puts all three at distance 1 from each other. Location sets are bitsets; nothing is
//! cached (a breadth-first search over at most 64 locations costs less than a lookup would).

use crate::rules::{Loc, LocSet};
use crate::state::State;

/// Distance (link tiles) from the nearest origin to each location; UNREACHED where none.
pub type Distances = [u8; 64];
pub const UNREACHED: u8 = u8::MAX;

/// Each location's neighbours along the placed links.
pub fn adjacency(state: &State) -> [LocSet; 64] {
    let mut adj = [0u64; 64];
    for (l, _) in state.links() {
        let link = &state.rules.links[l as usize];
        for &a in &link.connects {
            adj[a as usize] |= link.connects_set & !(1u64 << a);
        }
    }
    adj
}

/// `distances_from(state, origins)`.
pub fn distances_from(state: &State, origins: LocSet) -> Distances {
    distances_with(&adjacency(state), origins)
}

/// Distances over a given adjacency.
pub fn distances_with(adj: &[LocSet; 64], origins: LocSet) -> Distances {
    reach_with(adj, origins).0
}

/// Distances over a given adjacency, and the set of locations reached (origins included).
pub fn reach_with(adj: &[LocSet; 64], origins: LocSet) -> (Distances, LocSet) {
    let mut dist = [UNREACHED; 64];
    let mut seen = origins;
    let mut frontier = origins;
    let mut d = 0u8;
    while frontier != 0 {
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            let here = f.trailing_zeros() as usize;
            f &= f - 1;
            dist[here] = d;
            next |= adj[here];
        }
        next &= !seen;
        seen |= next;
        frontier = next;
        d += 1;
    }
    (dist, seen)
}

/// Every location connected to `origins` (origins included).
pub fn reachable(adj: &[LocSet; 64], origins: LocSet) -> LocSet {
    reach_with(adj, origins).1
}

pub fn bit(loc: Loc) -> LocSet {
    1u64 << loc
}

/// `connected(state, a, b)`.
pub fn connected(state: &State, a: Loc, b: Loc) -> bool {
    reachable(&adjacency(state), bit(a)) & bit(b) != 0
}

/// Locations showing a trade icon: the printed ones, and (Lancashire) every location with a Port tile.
pub fn trade_locations(state: &State) -> LocSet {
    let rules = &state.rules;
    let mut locs = rules.trade_locations;
    if rules.trade_industries != 0 {
        for (slot, t) in state.tiles() {
            if rules.trade_industries >> t.industry & 1 == 1 {
                locs |= bit(rules.slots[slot as usize].location);
            }
        }
    }
    locs
}

/// `connected_to_trade(state, origins)`.
pub fn connected_to_trade(state: &State, origins: LocSet) -> bool {
    reachable(&adjacency(state), origins) & trade_locations(state) != 0
}
