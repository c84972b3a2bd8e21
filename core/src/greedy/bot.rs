//! Mirrors `brass_stats.bots.greedy.bot.GreedyBot` (held equal by tests/test_core_greedy.py): a
//! one-ply greedy decision.
//!
//! The legal actions are grouped by the board they lead to (`grouping`); the first action of each
//! group is applied and its result evaluated without the hand term, with the resource demand of
//! the state to move; each action then adds the hand term of the cards it keeps.
//!
//! As in the reference's `board_values`, Develops with the same stated iron sources are applied
//! once: their results differ only in the seat's mat (the engine reads a mat only to build and
//! develop, and a Develop's iron and cost do not depend on the industries), so the others are
//! scored from that result with their own mat. Networks with as many links and the same stated
//! coal and beer sources lead to states that differ only in which links were placed (the cubes,
//! barrels and money they take do not depend on the links once their sources are stated): one is
//! applied and the others are scored from its result with their own links, unless it ends an era
//! (whose scoring counts the links: each one is applied then).

use super::evaluation::{
    best_opponent, card_values, evaluate, explain_with, horizon, mat_term, resource_demand,
    BoardView, CardValues, Horizon, SCOUT_GAIN,
};
use super::grouping::{cap_sells, group_by_board, Groups};
use super::{Terms, Weights};
use crate::action::{Action, Src, Srcs};
use crate::engine::apply_action;
use crate::pysum::py_sum;
use crate::rng::PyRandom;
use crate::rules::{Ind, LinkId, Rules};
use crate::state::{Mat, State, NO_OWNER};
use crate::CoreResult;

/// Two values closer than this are a tie.
const TIE: f64 = 1e-9;

/// The one-ply greedy player.
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    pub weights: Weights,
}

impl GreedyBot {
    pub fn new(weights: Weights) -> GreedyBot {
        GreedyBot { weights }
    }

    /// The best actions of `legal` (the legal actions of `state`, in their order), tied within the
    /// reference's margin, as indexes into `legal` in the order the reference collects them. The
    /// reference picks `best[0]` when there is one, else `rng.choice(best)`: see [`Self::choose`].
    pub fn tied_best(&self, state: &State, legal: &[Action]) -> CoreResult<Vec<usize>> {
        match legal.len() {
            0 => return crate::invalid("no legal action to choose from"),
            1 => return Ok(vec![0]),
            _ => {}
        }
        let Some(seat) = state.current_player() else {
            return crate::invalid("the game is over: nobody is to move");
        };
        let w = &self.weights;
        let groups = cap_sells(state, legal, group_by_board(legal), w.sell_cap);
        let values = card_values(state, seat);
        let kept = py_sum(
            state.players[seat as usize]
                .hand
                .iter()
                .map(|&c| values.get(c)),
        );
        let boards = board_values(state, seat, legal, &groups, w)?;
        let mut best: Vec<usize> = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        // card values are >= 0, so no action of a group scores above its board value with the hand
        // kept whole: a group whose bound is below the best by more than the tie margin changes nothing
        let bounded = w.hand >= 0.0;
        for (variants, &board) in groups.iter().zip(&boards) {
            let first = &legal[variants[0]];
            let scout = matches!(first, Action::Scout { .. });
            let gain = if scout { SCOUT_GAIN } else { 0.0 };
            if bounded && board + w.hand * (kept + gain) <= best_value - TIE {
                continue;
            }
            for &i in variants {
                let value = board + w.hand * hand_after(&values, kept, &legal[i], gain);
                if value > best_value + TIE {
                    best_value = value;
                    best.clear();
                    best.push(i);
                } else if value > best_value - TIE {
                    best.push(i);
                }
            }
        }
        Ok(best)
    }

    /// `GreedyBot.choose(state, legal, rng)`: the index in `legal` of the action chosen, drawing
    /// among ties with `rng` as the reference does.
    pub fn choose(&self, state: &State, legal: &[Action], rng: &mut PyRandom) -> CoreResult<usize> {
        let best = self.tied_best(state, legal)?;
        Ok(match best.len() {
            0 => return crate::invalid("no action has a value (the weights give NaN)"),
            1 => best[0],
            n => best[rng.choice(n)],
        })
    }
}

/// A Develop applied: the terms of its result for the seat (but the mat's), and the best
/// opponent's value there.
struct DevelopProbe {
    iron: Srcs,
    state: State,
    horizon: Horizon,
    terms: Terms,
    others: Option<f64>,
}

/// `board_values(state, seat, groups, Evaluator(state, w))`: the value (without the hand term,
/// with the demand of `state`) of the state each group's first action leads to, in order.
pub fn board_values(
    state: &State,
    seat: u8,
    legal: &[Action],
    groups: &Groups,
    w: &Weights,
) -> CoreResult<Vec<f64>> {
    let demand = resource_demand(state, w);
    let mut out = Vec::with_capacity(groups.len());
    let mut probes: Vec<DevelopProbe> = Vec::new(); // by stated iron sources, few
    let mut networks: Vec<NetworkProbe> = Vec::new(); // by links, coal and beer, few
    let mut after = state.clone();
    for variants in groups {
        let first = &legal[variants[0]];
        if let Action::Network {
            links, coal, beer, ..
        } = first
        {
            if sources_stated(state, links.len(), coal, beer) {
                let key = (links.len(), coal.clone(), *beer);
                let i = match networks.iter().position(|p| p.key == key) {
                    Some(i) => i,
                    None => {
                        let mut probe = state.clone();
                        apply_action(&mut probe, first)?;
                        // links are scored at the end of an era: then the links make the score
                        let scored = probe.era != state.era || probe.game_over();
                        networks.push(NetworkProbe {
                            key,
                            state: (!scored).then_some(probe),
                        });
                        networks.len() - 1
                    }
                };
                if let Some(probe) = &mut networks[i].state {
                    relink(probe, state.link_order.len(), links, seat);
                    out.push(evaluate(probe, seat, w, false, Some(demand)));
                    continue;
                }
            }
        }
        if let Action::Develop {
            industries,
            iron: Some(iron),
            ..
        } = first
        {
            let i = match probes.iter().position(|p| &p.iron == iron) {
                Some(i) => i,
                None => {
                    let mut probe = state.clone();
                    apply_action(&mut probe, first)?;
                    let view = BoardView::of(&probe);
                    probes.push(DevelopProbe {
                        iron: iron.clone(),
                        horizon: horizon(&probe, seat as usize),
                        terms: explain_with(&probe, &view, seat, w, false, Some(demand)),
                        others: best_opponent(&probe, &view, seat, w, false, demand),
                        state: probe,
                    });
                    probes.len() - 1
                }
            };
            let base_mat = &state.players[seat as usize].mat;
            out.push(develop_value(&probes[i], base_mat, industries, w));
            continue;
        }
        after.clone_from(state);
        apply_action(&mut after, first)?;
        out.push(evaluate(&after, seat, w, false, Some(demand)));
    }
    Ok(out)
}

/// A Network applied, whose result takes the links of the others with the same key instead
/// (None: it ends an era or the game, and each one is applied).
struct NetworkProbe {
    key: (usize, Option<Srcs>, Option<Src>),
    state: Option<State>,
}

/// `_sources_stated`: whether every coal and beer source of a Network of `n` links is stated (as
/// in every legal action).
fn sources_stated(state: &State, n: usize, coal: &Option<Srcs>, beer: &Option<Src>) -> bool {
    if state.canal() {
        return coal.is_none() && beer.is_none();
    }
    let beer_needed = n == 2 && state.rules.double_rail_beer != 0;
    coal.as_ref().is_some_and(|c| c.len() == n) && beer.is_some() == beer_needed
}

/// The links placed after the first `keep` replaced by `links` of `seat`, placed in their order.
fn relink(state: &mut State, keep: usize, links: &[LinkId], seat: u8) {
    while state.link_order.len() > keep {
        if let Some(l) = state.link_order.pop() {
            state.link_owner[l as usize] = NO_OWNER;
        }
    }
    for &l in links {
        state.add_link(l, seat);
    }
}

/// `Evaluator.develop_value`: the value of the result of a Develop of `industries` from a probe
/// (another Develop with the same iron): the probe's terms with the mat the base's less the
/// lowest tile of each industry developed.
fn develop_value(probe: &DevelopProbe, base_mat: &Mat, industries: &[Ind], w: &Weights) -> f64 {
    let mut own = if probe.state.game_over() {
        probe.terms.total() // the mat counts for nothing
    } else {
        let mut mat = *base_mat;
        for &industry in industries {
            take_lowest(&probe.state.rules, &mut mat, industry);
        }
        let terms = Terms {
            mat: mat_term(&probe.state, &probe.horizon, w, &mat),
            ..probe.terms.clone()
        };
        terms.total()
    };
    if let Some(others) = probe.others {
        own -= w.opponents * others;
    }
    own
}

/// `Player.take_from_mat(industry)` on a mat: the lowest tile of the industry off it.
fn take_lowest(rules: &Rules, mat: &mut Mat, industry: Ind) {
    let n = rules.levels[industry as usize].len();
    if let Some(count) = mat[industry as usize][..n].iter_mut().find(|c| **c > 0) {
        *count -= 1;
    }
}

/// The hand term's card sum after an action: the hand kept less the cards it discards (plus a
/// scout's gain).
fn hand_after(values: &CardValues, kept: f64, a: &Action, gain: f64) -> f64 {
    kept - py_sum(a.cards().iter().map(|&c| values.get(c))) + gain
}
