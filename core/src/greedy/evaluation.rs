//! Mirrors `brass_stats.bots.greedy.evaluation` (with `potential_vp` / `link_vp` of
//! `brass_stats.engine.scoring`); held equal, float for float, by tests/test_core_greedy.py.
//!
//! Every float is computed with the reference's operations in the reference's order: tiles in the
//! dict order (`State::tiles()`), `powf` for `**`, Python's `min`/`max` (the first argument unless
//! the second is strictly smaller/greater), and `sum()` as left-to-right addition. The card
//! values (`card_values`, `hand_value`) are in `greedy::hand`, re-exported here.

use super::{Terms, Weights};
use crate::board;
use crate::rules::{Ind, Loc, LocSet, Rules, MAX_LEVELS};
use crate::state::{Era, State};

pub use super::hand::{card_values, hand_value, CardValues, SCOUT_GAIN};
/// A guess of the link icons an empty slot will bring.
pub const EMPTY_SLOT_ICONS: f64 = 0.5;

/// Python's `min(a, b)`: `a` unless `b < a`.
fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// Python's `max(a, b)`: `a` unless `b > a`.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// `Horizon`: how much of the game is left, from one seat's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Horizon {
    /// income payouts still to come
    pub payouts: i64,
    pub own_actions_era: f64,
    /// an int in the reference (exact as a float)
    pub all_actions_era: f64,
    pub own_actions_game: f64,
}

/// `horizon(state, seat)`.
pub fn horizon(state: &State, seat: usize) -> Horizon {
    let n = state.num_players();
    let per_era = state.rules.rounds(n) as i64;
    let rounds_left = per_era - state.era_round as i64 + 1;
    let canal = state.canal();
    let payouts = if canal {
        rounds_left + per_era - 1
    } else {
        rounds_left - 1
    };
    let own = state.players[seat].hand.len() as f64 + state.deck.len() as f64 / n as f64;
    let everyone: usize =
        state.players.iter().map(|p| p.hand.len()).sum::<usize>() + state.deck.len();
    let rail_actions = if canal { 2.0 * per_era as f64 } else { 0.0 };
    Horizon {
        payouts,
        own_actions_era: own,
        all_actions_era: everyone as f64,
        own_actions_game: own + rail_actions,
    }
}

fn is_resource_industry(rules: &Rules, industry: Ind) -> bool {
    Some(industry) == rules.coal_mine
        || Some(industry) == rules.iron_works
        || Some(industry) == rules.brewery
}

/// `resource_demand(state, w)`: how readily this game's players use coal, iron and beer, a factor
/// in [demand_min, 1] on P(flip).
pub fn resource_demand(state: &State, w: &Weights) -> f64 {
    let rules = &*state.rules;
    let canal = state.canal();
    let (mut produced, mut used) = (0i64, 0i64);
    for (_, t) in state.tiles() {
        if is_resource_industry(rules, t.industry) {
            let made = rules.resources_on_build(t.industry, t.level, canal) as i64;
            produced += made;
            used += if t.flipped {
                made
            } else {
                i64::max(0, made - t.resources as i64)
            };
        }
    }
    let share = (used as f64 + w.demand_prior * w.demand_ref) / (produced as f64 + w.demand_prior);
    py_max(w.demand_min, py_min(1.0, share / w.demand_ref))
}

// -- scoring ----------------------------------------------------------------------------------

/// The engine's (`brass_stats.engine.scoring`): the evaluation reads them as the reference does.
pub use crate::engine::scoring::{link_vp, potential_vp};

// -- explain ------------------------------------------------------------------------------------

/// `level_at(levels, space)`: the income level at a fractional track space.
pub fn level_at(levels: &[i32], space: f64) -> f64 {
    let top = levels.len() - 1;
    let space = py_min(py_max(space, 0.0), top as f64);
    let i = space as usize; // int(space): space is in [0, top]
    if i == top {
        return levels[top] as f64;
    }
    let frac = space - i as f64;
    levels[i] as f64 + frac * (levels[i + 1] - levels[i]) as f64
}

/// The seat's links: per location, in the order the reference's `own_links_at` dict meets them,
/// their ends, and their VP if the era ended now.
struct OwnLinks {
    count: [i32; 64],
    order: arrayvec::ArrayVec<Loc, 64>,
    ends: LocSet,
    vp: i32,
}

impl OwnLinks {
    fn of(state: &State, view: &BoardView, seat: u8) -> OwnLinks {
        let rules = &*state.rules;
        let mut out = OwnLinks {
            count: [0; 64],
            order: arrayvec::ArrayVec::new(),
            ends: 0,
            vp: 0,
        };
        for (l, owner) in state.links() {
            if owner == seat {
                let link = &rules.links[l as usize];
                out.ends |= link.connects_set;
                for &loc in &link.connects {
                    if out.count[loc as usize] == 0 {
                        out.order.push(loc);
                    }
                    out.count[loc as usize] += 1;
                    // scoring.link_vp: the printed icons and the flipped tiles' at each end
                    out.vp +=
                        rules.locations[loc as usize].printed_link_vp + view.icons[loc as usize];
                }
            }
        }
        out
    }
}

fn market_closed(state: &State) -> bool {
    let track = &state.rules.dcm_track;
    !matches!(track.get(state.dcm_position as usize), Some(Some(_)))
}

/// What `explain` reads from the board for any seat, gathered once per state.
pub struct BoardView {
    /// each location's neighbours along the links
    adj: [LocSet; 64],
    /// link icons of flipped tiles, per location
    icons: [i32; 64],
    /// unflipped breweries with a barrel left: (owner, location)
    beer: arrayvec::ArrayVec<(u8, Loc), 64>,
    /// Lancashire: locations of unflipped ports, and of trade icons
    ports: LocSet,
    trade: LocSet,
    market_closed: bool,
}

impl BoardView {
    pub fn of(state: &State) -> BoardView {
        let rules = &*state.rules;
        let mut view = BoardView {
            adj: board::adjacency(state),
            icons: [0; 64],
            beer: arrayvec::ArrayVec::new(),
            ports: 0,
            trade: 0,
            market_closed: market_closed(state),
        };
        for (slot, t) in state.tiles() {
            let loc = rules.slots[slot as usize].location;
            if t.flipped {
                view.icons[loc as usize] += rules.level(t.industry, t.level).link_vp;
            } else if Some(t.industry) == rules.brewery && t.resources > 0 {
                view.beer.push((t.owner, loc));
            } else if Some(t.industry) == rules.port {
                view.ports |= board::bit(loc);
            }
        }
        if !rules.dcm_track.is_empty() {
            view.trade = board::trade_locations(state);
        }
        view
    }
}

/// `_p_sell`: the chance that an unflipped cotton mill / manufacturer / pottery at `loc` is sold
/// this era.
fn p_sell(state: &State, view: &BoardView, seat: u8, loc: Loc, industry: Ind, w: &Weights) -> f64 {
    let reach = board::reachable(&view.adj, board::bit(loc)); // `dist`'s locations
    if !state.rules.dcm_track.is_empty() {
        // Lancashire: an unflipped port, or the Distant Cotton Market via a trade icon
        if view.ports & reach != 0 {
            return w.p_sell_ready;
        }
        if view.trade & reach != 0 && !view.market_closed {
            return w.p_sell_connected;
        }
        return w.p_sell_unconnected;
    }
    let mut buyers = state
        .merchant_spaces
        .iter()
        .filter(|ms| ms.accepts >> industry & 1 == 1 && reach >> ms.location & 1 == 1)
        .peekable();
    if buyers.peek().is_none() {
        return w.p_sell_unconnected;
    }
    if buyers.any(|ms| ms.beer) {
        return w.p_sell_ready;
    }
    if view
        .beer
        .iter()
        .any(|&(owner, at)| owner == seat || reach >> at & 1 == 1)
    {
        w.p_sell_ready
    } else {
        w.p_sell_connected
    }
}

/// `base ** n` for small whole `n`, each computed once (with `powf`, as the reference's `**`).
struct Powers {
    base: f64,
    known: [f64; 16],
}

impl Powers {
    fn new(base: f64) -> Powers {
        Powers {
            base,
            known: [f64::NAN; 16],
        }
    }

    fn get(&mut self, n: u8) -> f64 {
        match self.known.get_mut(n as usize) {
            Some(k) if !k.is_nan() => *k,
            Some(k) => {
                *k = self.base.powf(n as f64);
                *k
            }
            None => self.base.powf(n as f64),
        }
    }
}

/// The rescoring and unflipped terms, the expected income space they lead to, and what the seat's
/// tiles add to the pending VP and the network.
struct TileTerms {
    rescoring: f64,
    unflipped: f64,
    expected_space: f64,
    flipped_vp: i32,
    locations: LocSet,
}

#[allow(clippy::too_many_arguments)]
fn tile_terms(
    state: &State,
    view: &BoardView,
    seat: u8,
    w: &Weights,
    h: &Horizon,
    demand: f64,
    own_links: &OwnLinks,
) -> TileTerms {
    let rules = &*state.rules;
    let canal = state.canal();
    let own_era = py_min(1.0, h.own_actions_era / 3.0);
    let all_era = py_min(1.0, h.all_actions_era / 8.0);
    let mut out = TileTerms {
        rescoring: 0.0,
        unflipped: 0.0,
        expected_space: state.players[seat as usize].income_space as f64,
        flipped_vp: 0,
        locations: 0,
    };
    let mut cube_powers = Powers::new(if canal { w.p_cube_canal } else { w.p_cube_rail });
    let mut seen = [0i32; crate::rules::MAX_INDUSTRIES]; // own unflipped non-sellable tiles met, per industry
    for (slot, t) in state.tiles() {
        if t.owner != seat {
            continue;
        }
        let info = rules.level(t.industry, t.level);
        let loc = rules.slots[slot as usize].location;
        out.locations |= board::bit(loc);
        let rescored = canal && t.level >= 2;
        if t.flipped {
            out.flipped_vp += info.vp;
            if rescored {
                out.rescoring += w.carry * info.vp as f64;
            }
            continue;
        }
        let mut p_flip;
        if rules.is_sellable(t.industry) {
            p_flip = p_sell(state, view, seat, loc, t.industry, w) * own_era;
        } else {
            p_flip = cube_powers.get(t.resources) * all_era * demand;
            let crowd = &mut seen[t.industry as usize];
            if *crowd > 0 {
                // each extra one competes for the same buyers (crowding ** 0 is 1: p_flip as is)
                p_flip *= w.crowding.powf(*crowd as f64);
            }
            *crowd += 1;
            if Some(t.industry) == rules.coal_mine && view.adj[loc as usize] == 0 {
                p_flip *= w.isolated_coal; // no link reaches it
            }
        }
        let worth = info.vp + info.link_vp * own_links.count[loc as usize];
        out.unflipped += p_flip * worth as f64;
        let mut p_income = p_flip;
        if rescored {
            // flipped this era: scores again in the Rail Era; else it may still flip then
            let later = (1.0 - p_flip) * w.p_rail_later;
            out.unflipped += p_flip * w.carry * info.vp as f64 + later * info.vp as f64;
            p_income += 0.5 * later;
        }
        out.expected_space += p_income * w.income_delay * info.income_spaces as f64;
    }
    out
}

/// The link-growth sum: own links times the link icons still to come in the towns they touch.
fn growth(state: &State, own_links: &OwnLinks) -> f64 {
    let rules = &*state.rules;
    let mut growth = 0.0;
    for &loc in &own_links.order {
        if rules.is_merchant(loc) {
            continue;
        }
        let mut pending = 0.0;
        for &slot in &rules.locations[loc as usize].slots {
            match state.tile(slot) {
                None => pending += EMPTY_SLOT_ICONS,
                Some(t) if !t.flipped => pending += rules.level(t.industry, t.level).link_vp as f64,
                Some(_) => {}
            }
        }
        growth += own_links.count[loc as usize] as f64 * pending;
    }
    growth
}

fn risk(w: &Weights, money: i64, level: i64, payouts: i64) -> f64 {
    let mut risk = 0.0;
    let soon = money + level * i64::min(payouts, w.risk_rounds);
    if soon < 0 {
        // income soon cannot be paid without tiles flipping: tiles or VP will be lost
        risk += w.risk * soon as f64;
    }
    if payouts != 0 && money + level < 0 {
        risk += w.shortfall * (money + level) as f64;
    }
    if level < 0 {
        risk -= w.negative_income * level as f64 * level as f64 * py_min(1.0, payouts as f64 / 6.0);
    }
    risk
}

/// `explain(state, seat, w, include_hand, demand)`: the terms of the evaluation of `seat` (without
/// the opponents term), in the reference's order; `demand` is `resource_demand(state, w)` when None.
/// `seat` must be a seat of the state.
pub fn explain(
    state: &State,
    seat: u8,
    w: &Weights,
    include_hand: bool,
    demand: Option<f64>,
) -> Terms {
    if state.game_over() {
        return game_over_terms(state, seat);
    }
    explain_with(state, &BoardView::of(state), seat, w, include_hand, demand)
}

/// The terms of a finished game: the VP, then income level and money as tie-breaks.
fn game_over_terms(state: &State, seat: u8) -> Terms {
    let p = &state.players[seat as usize];
    let level = state.income_level(seat as usize);
    Terms {
        vp: p.vp as f64,
        tie_break: Some(0.01 * level as f64 + 0.0001 * p.money as f64),
        ..Terms::default()
    }
}

/// `explain` with the board's view gathered already.
pub fn explain_with(
    state: &State,
    view: &BoardView,
    seat: u8,
    w: &Weights,
    include_hand: bool,
    demand: Option<f64>,
) -> Terms {
    if state.game_over() {
        return game_over_terms(state, seat);
    }
    let s = seat as usize;
    let p = &state.players[s];
    let level = state.income_level(s) as i64;
    let demand = demand.unwrap_or_else(|| resource_demand(state, w));
    let rules = &*state.rules;
    let h = horizon(state, s);
    let own_links = OwnLinks::of(state, view, seat);
    let tiles = tile_terms(state, view, seat, w, &h, demand, &own_links);
    let all_era = py_min(1.0, h.all_actions_era / 8.0);

    // money: what the next few actions can spend is worth more than a hoard; income is discounted
    let money = p.money as f64;
    let near = w.spend_per_action * py_min(h.own_actions_game, w.near_actions);
    let hoard = w.money_hoard * py_min(1.0, h.own_actions_game / w.near_actions);
    let discounted = w.discount * (1.0 - w.discount.powf(h.payouts as f64)) / (1.0 - w.discount);
    Terms {
        vp: p.vp as f64,
        pending: (own_links.vp + tiles.flipped_vp) as f64, // potential_vp
        rescoring: tiles.rescoring,
        unflipped: tiles.unflipped,
        link_growth: w.link_growth * all_era * growth(state, &own_links),
        reach: w.reach * (tiles.locations | own_links.ends).count_ones() as f64, // network()
        money: w.money * py_min(money, near) + hoard * py_max(0.0, money - near),
        income: w.money
            * w.income
            * level_at(&rules.income_levels, tiles.expected_space)
            * discounted,
        risk: risk(w, p.money as i64, level, h.payouts),
        mat: mat_term(state, &h, w, &p.mat),
        hand: include_hand.then(|| w.hand * hand_value(state, seat)),
        tie_break: None,
    }
}

impl Terms {
    /// The terms by name, in the reference's dict order.
    pub fn items(&self) -> arrayvec::ArrayVec<(&'static str, f64), 11> {
        let mut out = arrayvec::ArrayVec::new();
        out.push(("vp", self.vp));
        if let Some(tb) = self.tie_break {
            out.push(("tie_break", tb));
            return out;
        }
        out.push(("pending", self.pending));
        out.push(("rescoring", self.rescoring));
        out.push(("unflipped", self.unflipped));
        out.push(("link_growth", self.link_growth));
        out.push(("reach", self.reach));
        out.push(("money", self.money));
        out.push(("income", self.income));
        out.push(("risk", self.risk));
        out.push(("mat", self.mat));
        if let Some(hand) = self.hand {
            out.push(("hand", hand));
        }
        out
    }

    /// `sum(explain(...).values())`: left-to-right addition in the dict's order.
    pub fn total(&self) -> f64 {
        crate::pysum::py_sum(self.items().iter().map(|&(_, v)| v))
    }
}

/// `evaluate(state, seat, w, include_hand, demand)`: the estimated final VP of `seat`, minus
/// `w.opponents` times the best opponent's. `seat` must be a seat of the state.
pub fn evaluate(
    state: &State,
    seat: u8,
    w: &Weights,
    include_hand: bool,
    demand: Option<f64>,
) -> f64 {
    let demand = demand.unwrap_or_else(|| resource_demand(state, w));
    let view = BoardView::of(state);
    let mut own = explain_with(state, &view, seat, w, include_hand, Some(demand)).total();
    if let Some(best) = best_opponent(state, &view, seat, w, include_hand, demand) {
        own -= w.opponents * best;
    }
    own
}

/// The best opponent's value, which `evaluate` weighs by `w.opponents` (None when it weighs
/// nothing: no weight, or the game is over).
pub fn best_opponent(
    state: &State,
    view: &BoardView,
    seat: u8,
    w: &Weights,
    include_hand: bool,
    demand: f64,
) -> Option<f64> {
    if w.opponents == 0.0 || state.game_over() {
        return None;
    }
    let mut best: Option<f64> = None;
    for other in 0..state.num_players() as u8 {
        if other != seat {
            let v = explain_with(state, view, other, w, include_hand, Some(demand)).total();
            // max(): the first of equal values, a later one only when greater
            best = Some(match best {
                Some(b) => py_max(b, v),
                None => v,
            });
        }
    }
    best
}

// -- the mat ------------------------------------------------------------------------------------

/// The mat term of `explain` for a seat whose horizon is `h`, with the mat `mat`.
pub fn mat_term(state: &State, h: &Horizon, w: &Weights, mat: &crate::state::Mat) -> f64 {
    let blocked = blocked_in_mat(&state.rules, state.era, mat);
    -w.develop * blocked as f64 * py_min(1.0, h.own_actions_game / 8.0)
}

/// `blocked_in_mat(rules, era, mat)`: mat tiles in front of better ones, over every industry.
pub fn blocked_in_mat(rules: &Rules, era: Era, mat: &crate::state::Mat) -> i32 {
    (0..rules.industries.len())
        .map(|ind| {
            let n = rules.levels[ind].len();
            blocked_run(rules, era, ind as Ind, &mat[ind][..n.min(MAX_LEVELS)])
        })
        .sum()
}

/// `blocked_run(rules, era, ind, counts)`: tiles of one industry in front of a better one on the
/// mat (0 if nothing better is behind).
pub fn blocked_run(rules: &Rules, era: Era, ind: Ind, counts: &[u8]) -> i32 {
    let levels = &rules.levels[ind as usize];
    let mut run = 0;
    for (info, &n) in levels.iter().zip(counts) {
        if n == 0 {
            continue;
        }
        let junk =
            (era == Era::Rail && !info.rail_ok) || (Some(ind) == rules.pottery && info.vp <= 1);
        if !junk {
            return run;
        }
        run += n as i32;
    }
    0 // nothing better behind: no reason to develop
}
