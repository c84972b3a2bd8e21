//! Mirrors `brass_stats.bots.search.tree` (held equal by tests/test_core_search.py): nodes with
//! one value per seat (max^n), progressive widening, UCB selection counting availability.

use crate::action::Action;
use crate::search::candidates::Candidate;
use rustc_hash::FxHashMap as HashMap;

/// What a node's ranking caches are keyed by: the chance drawn since the root, the wild piles.
pub type BoardsKey = (Vec<Vec<u8>>, [u8; 2]);
/// ... and the sorted hand of the player to move.
pub type RankKey = (Vec<Vec<u8>>, [u8; 2], Vec<u8>);

pub struct Node {
    /// the seat to move here (None until first expanded; None also once the game is over)
    pub player: Option<u8>,
    pub visits: u32,
    pub value_sum: Vec<f64>,
    /// children by key (board key below the root, the action itself at the root), in creation order
    pub children: Vec<(Action, usize)>,
    /// how often this node was available when its parent chose (ISMCTS)
    pub avail: u32,
    /// the greedy score of the action that led here when it was first tried
    pub score: f64,
    pub boards: HashMap<BoardsKey, HashMap<Action, f64>>,
    pub ranked: HashMap<RankKey, (Vec<Candidate>, Vec<Action>)>,
}

impl Node {
    pub fn new(seats: usize, score: f64) -> Node {
        Node {
            player: None,
            visits: 0,
            value_sum: vec![0.0; seats],
            children: Vec::new(),
            avail: 0,
            score,
            boards: HashMap::default(),
            ranked: HashMap::default(),
        }
    }

    pub fn means(&self) -> Vec<f64> {
        let n = self.visits as f64;
        if self.visits == 0 {
            return Vec::new();
        }
        self.value_sum.iter().map(|v| v / n).collect()
    }

    pub fn backup(&mut self, value: &[f64]) {
        self.visits += 1;
        for (s, v) in self.value_sum.iter_mut().zip(value) {
            *s += v;
        }
    }

    pub fn child(&self, key: &Action) -> Option<usize> {
        self.children
            .iter()
            .find(|(k, _)| k == key)
            .map(|&(_, i)| i)
    }
}

/// `widen(visits, pw_c, pw_alpha)`: how many ranked candidates a node visited `visits` times considers.
pub fn widen(visits: u32, pw_c: f64, pw_alpha: f64) -> usize {
    let x = (pw_c * ((visits + 1) as f64).powf(pw_alpha) - 1e-9).ceil();
    if x < 1.0 {
        1
    } else {
        x as usize
    }
}

/// The tree: an arena of nodes (0 is the root).
pub struct Tree {
    pub nodes: Vec<Node>,
    pub seats: usize,
}

impl Tree {
    pub fn new(seats: usize, root_player: u8) -> Tree {
        let mut root = Node::new(seats, 0.0);
        root.player = Some(root_player);
        Tree {
            nodes: vec![root],
            seats,
        }
    }

    /// `select(node, candidates, keys, seats, c_ucb)`: (child index, the action to play).
    pub fn select(
        &mut self,
        node: usize,
        candidates: &[Candidate],
        keys: &[Action],
        c_ucb: f64,
    ) -> (usize, Action) {
        let mut ids = Vec::with_capacity(keys.len());
        for (cand, key) in candidates.iter().zip(keys) {
            let id = match self.nodes[node].child(key) {
                Some(id) => id,
                None => {
                    let id = self.nodes.len();
                    self.nodes.push(Node::new(self.seats, cand.score));
                    self.nodes[node].children.push((key.clone(), id));
                    id
                }
            };
            self.nodes[id].avail += 1;
            ids.push(id);
        }
        let player = self.nodes[node].player.unwrap_or(0) as usize;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (i, &id) in ids.iter().enumerate() {
            let child = &self.nodes[id];
            if child.visits == 0 {
                // the reference takes the first unvisited key, and plays the first candidate with that key
                let first = keys.iter().position(|k| k == &keys[i]).unwrap_or(i);
                return (id, candidates[first].action.clone());
            }
            let q = child.value_sum[player] / child.visits as f64;
            lo = lo.min(q);
            hi = hi.max(q);
        }
        let scale = if hi - lo > 1e-12 {
            1.0 / (hi - lo)
        } else {
            0.0
        };
        let mut best = (ids[0], 0usize);
        let mut best_ucb = f64::NEG_INFINITY;
        for (i, &id) in ids.iter().enumerate() {
            let child = &self.nodes[id];
            let visits = child.visits as f64;
            let q = (child.value_sum[player] / visits - lo) * scale;
            let ucb = q + c_ucb * ((child.avail as f64).ln() / visits).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = (id, i);
            }
        }
        (best.0, candidates[best.1].action.clone())
    }
}
