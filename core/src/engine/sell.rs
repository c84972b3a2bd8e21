//! Mirrors `brass_stats.engine.sell` and `brass_stats.engine.sell_cotton`: the Sell action.

use crate::action::{Buyer, Sale};
use crate::rules::SlotId;
use crate::state::State;
use crate::CoreResult;

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
    let _ = (state, seat, tile, merchant, merchant_beer);
    crate::invalid("apply_sale_resolving is not built yet")
}

/// `apply_cotton_sale(state, seat, sale)` (Lancashire): false when the Distant Cotton Market
/// closed on this sale (the Sell action ends there).
pub fn apply_cotton_sale(
    state: &mut State,
    seat: u8,
    tile: SlotId,
    buyer: Buyer,
) -> CoreResult<bool> {
    let _ = (state, seat, tile, buyer);
    crate::invalid("apply_cotton_sale is not built yet")
}
