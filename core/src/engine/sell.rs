//! Mirrors `brass_stats.engine.sell` and `brass_stats.engine.sell_cotton` (held equal by
//! tests/test_core_engine.py): the Sell action, to merchants with beer and bonuses (Birmingham),
//! or to Ports and the Distant Cotton Market (Lancashire).

use super::develop::{developable, remove_for_develop};
use super::policy::{decide, Policy};
use super::resources::{consume_beer, flip, slot_loc};
use crate::action::{Buyer, Sale, Src};
use crate::board::{bit, connected, connected_to_trade};
use crate::rules::{Bonus, Edition, Loc, SlotId};
use crate::state::State;
use crate::{invalid, CoreResult};
use arrayvec::ArrayVec;

/// Indices into `state.merchant_spaces`.
pub type Spaces = ArrayVec<usize, 16>;

/// `accepting_spaces`: the merchant's tiles that buy `industry`.
pub fn accepting_spaces(state: &State, merchant: Loc, industry: u8) -> Spaces {
    state
        .merchant_spaces
        .iter()
        .enumerate()
        .filter(|(_, ms)| ms.location == merchant && ms.accepts >> industry & 1 == 1)
        .map(|(i, _)| i)
        .collect()
}

/// `check_sellable`: an own unflipped tile that sells, to a merchant buying it, connected.
fn check_sellable(state: &State, seat: u8, tile: SlotId, merchant: Loc) -> CoreResult<Spaces> {
    let rules = &*state.rules;
    let t = match state.board.get(tile as usize).copied().flatten() {
        Some(t) if t.owner == seat && rules.is_sellable(t.industry) && !t.flipped => t,
        _ => {
            return invalid(
                "sell.tile: only your unflipped cotton mills, manufacturers and potteries sell",
            )
        }
    };
    if rules
        .merchant_at
        .get(merchant as usize)
        .copied()
        .flatten()
        .is_none()
    {
        return invalid("log.unknown_name: unknown merchant");
    }
    let spaces = accepting_spaces(state, merchant, t.industry);
    if spaces.is_empty() {
        return invalid("sell.merchant: the merchant does not buy this industry");
    }
    if !connected(state, slot_loc(state, tile), merchant) {
        return invalid("sell.merchant: the tile is not connected to the merchant");
    }
    Ok(spaces)
}

/// `_choose_space`: the merchant tile sold to.
fn choose_space(
    state: &State,
    sale: &Sale,
    spaces: &Spaces,
    beer_needed: u8,
    policy: Policy,
) -> CoreResult<usize> {
    if let Some(index) = sale.merchant_space {
        return match spaces
            .iter()
            .find(|&&i| state.merchant_spaces[i].index == index)
        {
            Some(&i) => Ok(i),
            None => invalid("sell.merchant: that merchant tile does not buy this good"),
        };
    }
    let with_barrel: Spaces = spaces
        .iter()
        .copied()
        .filter(|&i| state.merchant_spaces[i].beer)
        .collect();
    let possible = beer_needed > 0
        && sale
            .beer
            .as_ref()
            .is_none_or(|b| b.contains(&Src::Merchant));
    if !possible || with_barrel.len() <= 1 {
        return Ok(if possible && !with_barrel.is_empty() {
            with_barrel[0]
        } else {
            spaces[0]
        });
    }
    decide(policy, &with_barrel)
}

/// `apply_sale`: one sale to a merchant (Birmingham), its unstated choices filled by `policy`;
/// returns the sale as resolved.
pub fn apply_sale(state: &mut State, seat: u8, sale: &Sale, policy: Policy) -> CoreResult<Sale> {
    let Buyer::Merchant(merchant) = sale.buyer else {
        return invalid("log.unknown_name: a Birmingham sale goes to a merchant");
    };
    let spaces = check_sellable(state, seat, sale.tile, merchant)?;
    let t = state.board[sale.tile as usize].expect("checked: a tile is there");
    let beer_needed = state.rules.level(t.industry, t.level).beer_to_sell;
    let space = choose_space(state, sale, &spaces, beer_needed, policy)?;
    let drinks_merchant = |b: &crate::action::Srcs| b.contains(&Src::Merchant);
    if sale.beer.as_ref().is_some_and(drinks_merchant) && !state.merchant_spaces[space].beer {
        return invalid("sell.merchant_beer: no barrel is left beside that merchant tile");
    }
    let origins = bit(slot_loc(state, sale.tile));
    let stated = sale.beer.as_ref().map(|b| b.as_slice());
    let beer = consume_beer(
        state,
        seat,
        origins,
        beer_needed,
        stated,
        policy,
        Some(space),
    )?;
    flip(state, sale.tile);
    let bonus_develop = if drinks_merchant(&beer) {
        merchant_bonus(state, seat, merchant, sale, policy)?
    } else if sale.bonus_develop.is_some() {
        return invalid("sell.bonus_develop: a develop bonus needs the Gloucester merchant's beer");
    } else {
        None
    };
    Ok(Sale {
        tile: sale.tile,
        buyer: sale.buyer,
        merchant_space: Some(state.merchant_spaces[space].index),
        beer: (beer_needed > 0).then_some(beer),
        bonus_develop,
    })
}

/// `_merchant_bonus`: the bonus for drinking the merchant's barrel.
fn merchant_bonus(
    state: &mut State,
    seat: u8,
    merchant: Loc,
    sale: &Sale,
    policy: Policy,
) -> CoreResult<Option<u8>> {
    let rules = state.rules.clone();
    let Some(m) = rules.merchant_at[merchant as usize].map(|i| &rules.merchants[i as usize]) else {
        return invalid("log.unknown_name: unknown merchant");
    };
    match m.bonus {
        Bonus::Money => state.players[seat as usize].money += m.amount,
        Bonus::Vp => state.players[seat as usize].vp += m.amount,
        Bonus::Income => {
            state.advance_income(seat, m.amount);
        }
        Bonus::Develop => {
            if let Some(ind) = sale.bonus_develop {
                remove_for_develop(state, seat, ind)?;
                return Ok(Some(ind));
            }
            let options = developable(state, seat);
            if options.is_empty() {
                return Ok(None);
            }
            let choice = decide(policy, &options)?;
            remove_for_develop(state, seat, choice)?;
            return Ok(Some(choice));
        }
    }
    if sale.bonus_develop.is_some() {
        return invalid("sell.bonus_develop: this merchant's bonus is not a develop");
    }
    Ok(None)
}

/// `apply_sale(state, seat, Sale(tile, merchant), policy)` with the legal enumeration's policy
/// (`WITH_MERCHANT_BEER` when `merchant_beer`, else `WITHOUT_MERCHANT_BEER`): the sale applied
/// in place with every choice filled in, and returned as resolved (Birmingham).
pub fn apply_sale_resolving(
    state: &mut State,
    seat: u8,
    tile: SlotId,
    merchant: crate::rules::Loc,
    merchant_beer: bool,
) -> CoreResult<Sale> {
    let sale = Sale {
        tile,
        buyer: Buyer::Merchant(merchant),
        merchant_space: None,
        beer: None,
        bonus_develop: None,
    };
    apply_sale(
        state,
        seat,
        &sale,
        Policy::Beer {
            merchant: merchant_beer,
        },
    )
}

/// `market_closed`: the Distant Cotton Market's marker is on the X.
pub fn market_closed(state: &State) -> bool {
    state
        .rules
        .dcm_track
        .get(state.dcm_position as usize)
        .is_none_or(|v| v.is_none())
}

/// `apply_cotton_sale(state, seat, sale)` (Lancashire): false when the Distant Cotton Market
/// closed on this sale (the Sell action ends there).
pub fn apply_cotton_sale(
    state: &mut State,
    seat: u8,
    tile: SlotId,
    buyer: Buyer,
) -> CoreResult<bool> {
    let rules = state.rules.clone();
    match state.board.get(tile as usize).copied().flatten() {
        Some(t) if t.owner == seat && rules.is_sellable(t.industry) && !t.flipped => {}
        _ => return invalid("sell.tile: only your unflipped cotton mills sell"),
    }
    let mill_loc = slot_loc(state, tile);
    match buyer {
        Buyer::DistantMarket => {
            if market_closed(state) {
                return invalid(
                    "sell.market_closed: the Distant Cotton Market is closed for this era",
                );
            }
            if !connected_to_trade(state, bit(mill_loc)) {
                return invalid("sell.distant_market: the mill is not connected to a trade icon");
            }
            if state.dcm_pile.is_empty() {
                return invalid(
                    "sell.market_closed: no Distant Cotton Market tile is left to draw",
                );
            }
            let step = state.dcm_pile.remove(0);
            if state.dcm_drawn.try_push(step).is_err() {
                return Err(crate::CoreError::Unsupported(
                    "more than 16 market tiles drawn".into(),
                ));
            }
            let last = rules.dcm_track.len().saturating_sub(1);
            let position = usize::min(state.dcm_position as usize + step as usize, last);
            state.dcm_position = position as u8;
            match rules.dcm_track[position] {
                None => return Ok(false), // the marker reached X: no flip, and the Sell action ends
                Some(income) => {
                    state.advance_income(seat, income);
                }
            }
        }
        Buyer::Port(port) => {
            let port_ok = state
                .board
                .get(port as usize)
                .copied()
                .flatten()
                .is_some_and(|p| Some(p.industry) == rules.port && !p.flipped);
            if !port_ok {
                return invalid("sell.port: not an unflipped Port tile");
            }
            if !connected(state, mill_loc, slot_loc(state, port)) {
                return invalid("sell.port: the mill is not connected to the port");
            }
            flip(state, port); // the port's owner gains its income
        }
        Buyer::Merchant(_) => {
            return invalid("sell.port: a Lancashire sale goes to a Port or the Distant Market")
        }
    }
    flip(state, tile);
    Ok(true)
}

/// `apply_sell` / `apply_sell_cotton`: a whole stated Sell action, by edition.
pub fn apply_sell(state: &mut State, seat: u8, sales: &[Sale]) -> CoreResult<()> {
    if sales.is_empty() {
        return invalid("sell.at_least_one: a Sell action must sell at least one tile");
    }
    match state.rules.edition {
        Edition::Birmingham => {
            for sale in sales {
                apply_sale(state, seat, sale, Policy::Strict)?;
            }
        }
        Edition::Lancashire => {
            for (i, sale) in sales.iter().enumerate() {
                if sale.merchant_space.is_some()
                    || sale.beer.is_some()
                    || sale.bonus_develop.is_some()
                {
                    return invalid(
                        "sell.tile: a Lancashire sale names only the tile and its buyer",
                    );
                }
                if !apply_cotton_sale(state, seat, sale.tile, sale.buyer)? && i + 1 < sales.len() {
                    return invalid("sell.market_closed: the Distant Cotton Market reached X; later sales cannot happen");
                }
            }
        }
    }
    Ok(())
}
