//! Mirrors `brass_stats.engine.develop` (held equal by tests/test_core_engine.py): the Develop
//! action, the lowest tile of one or two industries off the mat, one iron each.

use super::policy::Policy;
use super::resources::{consume_iron, spend};
use crate::action::Srcs;
use crate::rules::{Ind, MAX_INDUSTRIES};
use crate::state::State;
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// `remove_for_develop`: the lowest tile of `industry` off the mat (Develop, Gloucester bonus);
/// returns its level.
pub fn remove_for_develop(state: &mut State, seat: u8, industry: Ind) -> CoreResult<u8> {
    let rules = state.rules.clone();
    if industry as usize >= rules.industries.len() {
        return invalid("log.unknown_name: unknown industry");
    }
    let p = &mut state.players[seat as usize];
    let Some(level) = p.lowest_level(&rules, industry) else {
        return invalid("develop.tiles_left: no tiles of this industry left to develop");
    };
    if !rules.level(industry, level).can_develop {
        return invalid("develop.lightbulb: this tile shows a lightbulb and cannot be developed");
    }
    p.take_from_mat(&rules, industry, level);
    Ok(level)
}

/// `developable`: industries whose lowest mat tile may be developed now, in the rules' order.
pub fn developable(state: &State, seat: u8) -> ArrayVec<Ind, MAX_INDUSTRIES> {
    let rules = &*state.rules;
    let p = &state.players[seat as usize];
    (0..rules.industries.len() as Ind)
        .filter(|&i| {
            p.lowest_level(rules, i)
                .is_some_and(|lvl| rules.level(i, lvl).can_develop)
        })
        .collect()
}

/// `apply_develop`.
pub fn apply_develop(
    state: &mut State,
    seat: u8,
    industries: &[Ind],
    iron: Option<&Srcs>,
) -> CoreResult<()> {
    let n = industries.len();
    if n != 1 && n != 2 {
        return invalid(format!(
            "develop.count: a Develop action removes 1 or 2 tiles, not {n}"
        ));
    }
    for &ind in industries {
        remove_for_develop(state, seat, ind)?;
    }
    let (_, cost) = consume_iron(state, n as u8, iron.map(|s| s.as_slice()), Policy::Strict)?;
    spend(state, seat, cost)
}
