//! Mirrors `brass_stats.engine.network` (held equal by tests/test_core_engine.py): the Network
//! action: one canal link, one rail link, or two rail links with a brewery's beer.

use super::policy::Policy;
use super::resources::{consume_beer, consume_coal, spend};
use crate::action::{Src, Srcs};
use crate::rules::LinkId;
use crate::state::{Era, State};
use crate::{invalid, CoreResult};

/// `link_cost`: £3 per canal link; £5 for one rail link, £15 for two.
pub fn link_cost(era: Era, n: usize) -> i32 {
    match (era, n) {
        (Era::Canal, _) => 3,
        (Era::Rail, 1) => 5,
        (Era::Rail, _) => 15,
    }
}

/// `check_link_placeable`.
pub fn check_link_placeable(state: &State, seat: u8, link: LinkId) -> CoreResult<()> {
    let Some(l) = state.rules.links.get(link as usize) else {
        return invalid("log.unknown_name: unknown link");
    };
    if state.link(link).is_some() {
        return invalid("network.undeveloped: the link already has a link tile");
    }
    if !l.allowed_in(state.canal()) {
        return invalid("network.era: no line of this era there");
    }
    let net = state.network(seat);
    if (net != 0 || !state.rules.link_anywhere_without_pieces) && net & l.connects_set == 0 {
        return invalid("network.adjacent: the link is not adjacent to the player's network");
    }
    Ok(())
}

/// `apply_network`.
pub fn apply_network(
    state: &mut State,
    seat: u8,
    links: &[LinkId],
    coal: Option<&Srcs>,
    beer: Option<Src>,
) -> CoreResult<()> {
    let era = state.era;
    let n = links.len();
    let most = if era == Era::Canal { 1 } else { 2 };
    if n < 1 || n > most {
        return invalid(format!("network.count: {n} links in one Network action"));
    }
    let coal_needed = if era == Era::Rail { n } else { 0 };
    if coal.is_some_and(|c| c.len() != coal_needed) {
        return invalid("coal.count: the coal stated is not one per rail link");
    }
    let beer_needed = if n == 2 {
        state.rules.double_rail_beer
    } else {
        0
    };
    if beer.is_some() && beer_needed == 0 {
        return invalid("beer.count: no beer is consumed for these links");
    }
    let mut market_cost = 0;
    for (i, &link) in links.iter().enumerate() {
        check_link_placeable(state, seat, link)?;
        if state.players[seat as usize].link_tiles <= 0 {
            return invalid("network.link_tiles: no link tiles left");
        }
        state.add_link(link, seat);
        state.players[seat as usize].link_tiles -= 1;
        if era == Era::Rail {
            let stated = coal.map(|c| &c[i..i + 1]);
            let origins = state.rules.links[link as usize].connects_set;
            market_cost += consume_coal(state, origins, 1, stated, Policy::Strict)?.1;
        }
    }
    if beer_needed > 0 {
        let origins = state.rules.links[links[1] as usize].connects_set;
        let stated = beer.map(|b| [b]);
        consume_beer(
            state,
            seat,
            origins,
            1, // the reference drinks one barrel, whatever double_rail_beer says
            stated.as_ref().map(|b| b.as_slice()),
            Policy::Strict,
            None,
        )?;
    }
    spend(state, seat, link_cost(era, n) + market_cost)
}
