//! Mirrors `brass_stats.bots.search.bot` (held equal by tests/test_core_search.py): information-set
//! Monte Carlo tree search over the engine, max^n values, candidates ranked by the greedy evaluation.
//!
//! The same algorithm, knobs and random draws as the reference: a decision seeded with the same
//! 64-bit seed and budget in simulations chooses the same action, with the same statistics.

pub mod candidates;
pub mod leaf;
pub mod tree;

use crate::action::Action;
use crate::engine::apply_action;
use crate::engine::scoring::win_shares;
use crate::greedy::Weights;
use crate::information::{attempt, determinize, knowable};
use crate::legal::legal_actions;
use crate::rng::PyRandom;
use crate::state::State;
use crate::{CoreError, CoreResult};
use candidates::{rank, Candidate};
use leaf::{Leaf, Models};
use std::time::Instant;
use tree::{widen, Tree};

/// `SearchConfig`: the search's knobs (as the Python package sends them: docs/core.md).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)] // a knob the core does not know would change the search unseen
pub struct SearchConfig {
    pub simulations: Option<u32>,
    pub seconds: Option<f64>,
    pub c_ucb: f64,
    pub pw_c: f64,
    pub pw_alpha: f64,
    pub rollout_depth: u32,
    pub max_depth: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            simulations: Some(200),
            seconds: None,
            c_ucb: 1.4,
            pw_c: 1.0,
            pw_alpha: 0.5,
            rollout_depth: 0,
            max_depth: 40,
        }
    }
}

/// One root action: how often the search tried it and what it found, per seat.
#[derive(Clone, Debug)]
pub struct ActionStats {
    pub action: Action,
    pub visits: u32,
    pub value: Vec<f64>,
    pub score: f64,
    pub rank: usize,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub seat: u8,
    pub best: Action,
    pub actions: Vec<ActionStats>,
    pub simulations: u32,
    pub seconds: f64,
    pub value: Vec<f64>,
    pub recovered: u32,
}

/// What a search reads besides the position: its knobs, the greedy weights, the leaf and the models.
pub struct Searcher<'a> {
    pub config: &'a SearchConfig,
    pub weights: &'a Weights,
    pub leaf: &'a Leaf,
    pub models: &'a Models,
}

struct Search<'a> {
    s: &'a Searcher<'a>,
    state: &'a State,
    seat: u8,
    rng: PyRandom,
    tree: Tree,
    root_candidates: Vec<Candidate>,
    root_keys: Vec<Action>,
    ranked_count: usize,
    forced: Vec<usize>,
    recovered: u32,
}

impl Searcher<'_> {
    /// `SearchBot.analyse(state, legal, rng, force)` with the seed the reference draws from `rng`
    /// (`rng.getrandbits(64)`): `legal` is the list the caller gives (the engine's by default).
    pub fn analyse(
        &self,
        state: &State,
        legal: &[Action],
        seed: u64,
        force: &[Action],
    ) -> CoreResult<SearchResult> {
        let seat = state
            .current_player()
            .ok_or_else(|| CoreError::Invalid("the game is over: nobody is to move".into()))?;
        if legal.is_empty() {
            return Err(CoreError::Invalid("no legal action to search".into()));
        }
        let mut rng = PyRandom::new(seed);
        let mut first_rng = PyRandom::new(rng.getrandbits(64));
        let first = determinize(state, seat, &mut first_rng);
        let ranked = rank(&first, &knowable(state, legal.to_vec()), self.weights, None)?;
        let mut root_keys: Vec<Action> = ranked.iter().map(|c| c.action.clone()).collect();
        let mut extra: Vec<Action> = Vec::new();
        for a in force {
            if !extra.contains(a) && !root_keys.contains(a) {
                extra.push(a.clone());
            }
        }
        let ranked_count = ranked.len();
        let mut root_candidates = ranked;
        for a in &extra {
            root_candidates.push(Candidate {
                action: a.clone(),
                score: f64::NEG_INFINITY,
            });
        }
        root_keys.extend(extra);
        let forced = (0..root_keys.len())
            .filter(|&i| force.contains(&root_keys[i]))
            .collect();
        let mut search = Search {
            s: self,
            state,
            seat,
            rng,
            tree: Tree::new(state.num_players(), seat),
            root_candidates,
            root_keys,
            ranked_count,
            forced,
            recovered: 0,
        };
        search.run()
    }
}

impl Search<'_> {
    fn run(&mut self) -> CoreResult<SearchResult> {
        let cfg = self.s.config;
        let start = Instant::now();
        let mut done = 0u32;
        loop {
            if let Some(limit) = cfg.simulations {
                if done >= limit {
                    break;
                }
            }
            if let Some(seconds) = cfg.seconds {
                if done > 0 && start.elapsed().as_secs_f64() >= seconds {
                    break;
                }
            }
            let world = determinize(self.state, self.seat, &mut self.rng);
            self.simulate(world)?;
            done += 1;
        }
        Ok(self.result(done, start.elapsed().as_secs_f64()))
    }

    fn simulate(&mut self, mut state: State) -> CoreResult<()> {
        let cfg = self.s.config;
        let mut node = 0usize;
        let mut path = vec![0usize];
        let mut depth = 0u32;
        let mut chance: Vec<Vec<u8>> = Vec::new();
        let value: Vec<f64>;
        loop {
            if state.game_over() {
                value = win_shares(&state).to_vec();
                break;
            }
            if (self.tree.nodes[node].visits == 0 && node != 0) || depth >= cfg.max_depth {
                value = self.rollout(state)?;
                break;
            }
            if self.tree.nodes[node].player.is_none() {
                self.tree.nodes[node].player = state.current_player();
            }
            let n = widen(self.tree.nodes[node].visits, cfg.pw_c, cfg.pw_alpha);
            let (candidates, keys) = if node == 0 {
                let mut pick: Vec<usize> = (0..n.min(self.ranked_count)).collect();
                pick.extend(self.forced.iter().copied().filter(|&i| i >= n));
                (
                    pick.iter()
                        .map(|&i| self.root_candidates[i].clone())
                        .collect::<Vec<_>>(),
                    pick.iter()
                        .map(|&i| self.root_keys[i].clone())
                        .collect::<Vec<_>>(),
                )
            } else {
                self.ranking(node, &state, &chance, n)?
            };
            let (mut child, mut action) = self.tree.select(node, &candidates, &keys, cfg.c_ucb);
            let before_drawn = state.dcm_drawn.clone();
            let before_era = state.era;
            let after = if node == 0 {
                attempt(&state, &action)?
            } else {
                let mut next = state.clone();
                match apply_action(&mut next, &action) {
                    Ok(()) => next,
                    Err(_) => {
                        // a cached ranking that does not fit this determinization: rank its own legal actions
                        self.recovered += 1;
                        let legal = knowable(&state, legal_actions(&state));
                        let ranked = rank(&state, &legal, self.s.weights, None)?;
                        let top: Vec<Candidate> = ranked.into_iter().take(n).collect();
                        let keys: Vec<Action> = top.iter().map(|c| c.action.board_key()).collect();
                        (child, action) = self.tree.select(node, &top, &keys, cfg.c_ucb);
                        let mut next = state.clone();
                        apply_action(&mut next, &action)?;
                        next
                    }
                }
            };
            node = child;
            // a Distant Cotton Market tile drawn, or the pile reshuffled for the Rail Era (the
            // reference sees a new list object in either case)
            let reshuffled = !state.rules.dcm_tiles.is_empty() && after.era != before_era;
            state = after;
            if state.dcm_drawn != before_drawn || reshuffled {
                chance.push(state.dcm_drawn.to_vec());
            }
            path.push(node);
            depth += 1;
        }
        for &n in &path {
            self.tree.nodes[n].backup(&value);
        }
        Ok(())
    }

    /// The first `n` ranked candidates at `node` in this determinization, and their keys (cached).
    fn ranking(
        &mut self,
        node: usize,
        state: &State,
        chance: &[Vec<u8>],
        n: usize,
    ) -> CoreResult<(Vec<Candidate>, Vec<Action>)> {
        let player = self.tree.nodes[node].player.unwrap_or(0);
        let mut hand: Vec<u8> = state.players[player as usize].hand.to_vec();
        hand.sort_unstable();
        let key = (chance.to_vec(), state.wild, hand);
        if !self.tree.nodes[node].ranked.contains_key(&key) {
            let boards_key = (key.0.clone(), key.1);
            let legal = knowable(state, legal_actions(state));
            let weights = self.s.weights;
            let boards = self.tree.nodes[node].boards.entry(boards_key).or_default();
            let ranked = rank(state, &legal, weights, Some(boards))?;
            let keys = ranked.iter().map(|c| c.action.board_key()).collect();
            self.tree.nodes[node]
                .ranked
                .insert(key.clone(), (ranked, keys));
        }
        let (ranked, keys) = &self.tree.nodes[node].ranked[&key];
        let m = n.min(ranked.len());
        Ok((ranked[..m].to_vec(), keys[..m].to_vec()))
    }

    fn rollout(&mut self, mut state: State) -> CoreResult<Vec<f64>> {
        for _ in 0..self.s.config.rollout_depth {
            if state.game_over() {
                break;
            }
            let legal = knowable(&state, legal_actions(&state));
            let action = if legal.len() == 1 {
                legal[0].clone()
            } else {
                rank(&state, &legal, self.s.weights, None)?
                    .into_iter()
                    .next()
                    .map(|c| c.action)
                    .ok_or_else(|| CoreError::Invalid("no legal action in a rollout".into()))?
            };
            apply_action(&mut state, &action)?;
        }
        if state.game_over() {
            return Ok(win_shares(&state).to_vec());
        }
        let value = self.s.leaf.value(&state, self.s.weights, self.s.models)?;
        if value.len() != self.tree.seats {
            return Err(CoreError::Invalid(format!(
                "the leaf evaluator gave {} values for {} seats",
                value.len(),
                self.tree.seats
            )));
        }
        Ok(value)
    }

    fn result(&self, simulations: u32, seconds: f64) -> SearchResult {
        let root = &self.tree.nodes[0];
        let mut stats: Vec<ActionStats> = self
            .root_candidates
            .iter()
            .zip(&self.root_keys)
            .enumerate()
            .map(|(i, (cand, key))| {
                let child = root.child(key).map(|id| &self.tree.nodes[id]);
                ActionStats {
                    action: cand.action.clone(),
                    visits: child.map_or(0, |c| c.visits),
                    value: child.map_or_else(Vec::new, |c| c.means()),
                    score: cand.score,
                    rank: i,
                }
            })
            .collect();
        let seat = self.seat as usize;
        let mover = |s: &ActionStats| {
            if s.value.is_empty() {
                -1.0
            } else {
                s.value[seat]
            }
        };
        stats.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(
                    mover(b)
                        .partial_cmp(&mover(a))
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
                .then(a.rank.cmp(&b.rank))
        });
        SearchResult {
            seat: self.seat,
            best: stats[0].action.clone(),
            actions: stats,
            simulations,
            seconds,
            value: root.means(),
            recovered: self.recovered,
        }
    }
}
