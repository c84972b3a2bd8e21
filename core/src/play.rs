//! Mirrors `brass_stats.bots` (the random bot, `play_game`), `bots.exploring`, `bots.turn_planner`
//! and the bots' `choose` (held equal by tests/test_core_bots.py): whole games played in the core,
//! every random draw from one CPython `random.Random(seed)` in the reference's order, so a game
//! played here is the game the reference plays, action for action.

use crate::action::{Action, Kind};
use crate::engine::apply_action;
use crate::greedy::{self, Weights};
use crate::information::knowable;
use crate::legal::legal_actions;
use crate::rng::PyRandom;
use crate::search::candidates::rank;
use crate::search::leaf::Leaf;
use crate::search::leaf::Models;
use crate::search::{SearchConfig, Searcher};
use crate::state::{Phase, State};
use crate::{CoreError, CoreResult};

/// A player the core can run (each the twin of a Python bot).
#[derive(Clone, Debug)]
pub enum Bot {
    /// `RandomBot`
    Random,
    /// `GreedyBot(weights)`
    Greedy(Weights),
    /// `ExploringBot(rate)`: a random action with probability `rate`, greedy's otherwise
    Exploring { rate: f64, weights: Weights },
    /// `SearchBot(config, leaf, greedy)`
    Search {
        config: SearchConfig,
        weights: Weights,
        leaf: Leaf,
    },
    /// `TurnPlanner(greedy, candidates)`
    Planner { weights: Weights, candidates: usize },
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Pass => "pass",
        Kind::Build => "build",
        Kind::Network => "network",
        Kind::Develop => "develop",
        Kind::Sell => "sell",
        Kind::Loan => "loan",
        Kind::Scout => "scout",
        Kind::Shortfall => "shortfall",
    }
}

/// `RandomBot.choose`: uniform over action types (sorted by name), then over that type's actions.
pub fn random_choice(legal: &[Action], rng: &mut PyRandom) -> Action {
    let mut names: Vec<&'static str> = Vec::new();
    for a in legal {
        let n = type_name(a.kind());
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names.sort_unstable();
    let kind = names[rng.choice(names.len())];
    let of_kind: Vec<&Action> = legal
        .iter()
        .filter(|a| type_name(a.kind()) == kind)
        .collect();
    of_kind[rng.choice(of_kind.len())].clone()
}

/// `GreedyBot.choose`.
pub fn greedy_choice(
    state: &State,
    legal: &[Action],
    w: &Weights,
    rng: &mut PyRandom,
) -> CoreResult<Action> {
    if legal.len() == 1 {
        return Ok(legal[0].clone());
    }
    let i = greedy::GreedyBot::new(w.clone()).choose(state, legal, rng)?;
    Ok(legal[i].clone())
}

/// `TurnPlanner.choose`.
pub fn planner_choice(
    state: &State,
    legal: &[Action],
    w: &Weights,
    candidates: usize,
    rng: &mut PyRandom,
) -> CoreResult<Action> {
    let seat = state
        .current_player()
        .ok_or_else(|| CoreError::Invalid("the game is over".into()))?;
    if state.phase != Phase::Actions
        || state.actions_per_turn() - state.actions_this_turn < 2
        || legal.len() < 2
    {
        return greedy_choice(state, legal, w, rng);
    }
    let ranked = rank(state, &knowable(state, legal.to_vec()), w, None)?;
    if ranked.is_empty() {
        return greedy_choice(state, legal, w, rng);
    }
    let mut best = ranked[0].action.clone();
    let mut best_value = f64::NEG_INFINITY;
    for candidate in ranked.iter().take(candidates) {
        let mut after = state.clone();
        apply_action(&mut after, &candidate.action)?;
        if !after.game_over() && after.current_player() == Some(seat) {
            let second = greedy_choice(&after, &legal_actions(&after), w, rng)?;
            apply_action(&mut after, &second)?;
        }
        let value = greedy::evaluation::evaluate(&after, seat, w, true, None);
        if value > best_value + 1e-9 {
            best = candidate.action.clone();
            best_value = value;
        }
    }
    Ok(best)
}

impl Bot {
    /// The bot's choice among `legal` (the engine's list of the position), drawing from `rng`.
    pub fn choose(
        &self,
        state: &State,
        legal: &[Action],
        rng: &mut PyRandom,
        models: &Models,
    ) -> CoreResult<Action> {
        match self {
            Bot::Random => Ok(random_choice(legal, rng)),
            Bot::Greedy(w) => greedy_choice(state, legal, w, rng),
            Bot::Exploring { rate, weights } => {
                if rng.random() < *rate {
                    Ok(random_choice(legal, rng))
                } else {
                    greedy_choice(state, legal, weights, rng)
                }
            }
            Bot::Search {
                config,
                weights,
                leaf,
            } => {
                if legal.len() == 1 {
                    return Ok(legal[0].clone());
                }
                let seed = rng.getrandbits(64);
                let searcher = Searcher {
                    config,
                    weights,
                    leaf,
                    models,
                };
                Ok(searcher.analyse(state, legal, seed, &[])?.best)
            }
            Bot::Planner {
                weights,
                candidates,
            } => planner_choice(state, legal, weights, *candidates, rng),
        }
    }
}

/// `play_game(agents, seed)` from its first position: the actions played, in order.
pub fn play_game(
    mut state: State,
    bots: &[Bot],
    seed: u64,
    models: &Models,
) -> CoreResult<Vec<Action>> {
    if bots.len() != state.num_players() {
        return Err(CoreError::Invalid(format!(
            "{} bots for {} seats",
            bots.len(),
            state.num_players()
        )));
    }
    let mut rng = PyRandom::new(seed);
    let mut played = Vec::new();
    while let Some(seat) = state.current_player() {
        let legal = legal_actions(&state);
        if legal.is_empty() {
            return Err(CoreError::Invalid(format!(
                "seat {seat} has no legal action"
            )));
        }
        let action = bots[seat as usize].choose(&state, &legal, &mut rng, models)?;
        apply_action(&mut state, &action)?;
        played.push(action);
    }
    Ok(played)
}
