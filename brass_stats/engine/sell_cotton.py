"""Lancashire's Sell action: cotton to a connected unflipped Port, or to the Distant Cotton Market.

A sale names its buyer in ``Sale.merchant``: a Port tile ``"location:slot"`` (flipped for its
owner), or ``"distant_market"``. A Distant Cotton Market sale draws the next tile (chance) and moves
the marker down; when the marker reaches the X the sale fails and the whole Sell action ends.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import Sale, Sell
from .connectivity import connected, connected_to_trade, slot_location
from .policy import ChoicePolicy
from .resources import flip
from .state import GameState

DISTANT_MARKET = "distant_market"


def market_closed(state: GameState) -> bool:
    return state.dcm_track_value(state.dcm_position) is None


def _check_mill(state: GameState, seat: int, sale: Sale) -> None:
    t = state.tiles.get(sale.tile)
    if t is None or t.owner != seat or t.industry not in state.rules.sellable or t.flipped:
        what = "no tile" if t is None else f"{'a flipped ' if t.flipped else ''}{t.industry} of player {t.owner}"
        raise IllegalAction(
            "sell.tile", f"{sale.tile} holds {what}: only your unflipped cotton mills sell", player=seat
        )
    if sale.merchant_space is not None or sale.beer is not None or sale.bonus_develop is not None:
        raise IllegalAction("sell.tile", "a Lancashire sale names only the tile and its buyer", player=seat)


def apply_cotton_sale(state: GameState, seat: int, sale: Sale) -> bool:
    """Sell one cotton mill; returns False when the Distant Cotton Market closed on it (the action ends)."""
    _check_mill(state, seat, sale)
    mill_loc = slot_location(sale.tile)
    if sale.merchant == DISTANT_MARKET:
        if market_closed(state):
            raise IllegalAction("sell.market_closed", "the Distant Cotton Market is closed for this era", player=seat)
        if not connected_to_trade(state, (mill_loc,)):
            raise IllegalAction(
                "sell.distant_market",
                f"{sale.tile} is not connected to a trade icon (a port or an external market)",
                player=seat,
            )
        if not state.dcm_pile:
            raise IllegalAction("sell.market_closed", "no Distant Cotton Market tile is left to draw", player=seat)
        move = state.dcm_pile[0]
        state.dcm_pile = state.dcm_pile[1:]  # new lists: states share them
        state.dcm_drawn = [*state.dcm_drawn, move]
        last = len(state.rules.dcm_track) - 1
        state.dcm_position = min(state.dcm_position + move, last)
        income = state.dcm_track_value(state.dcm_position)
        state.effect("distant_market", seat, move, "sell", tile=sale.tile, position=state.dcm_position)
        if income is None:
            return False  # the marker reached X: no flip, and the Sell action ends
        moved = state.advance_income(seat, income)
        state.effect("income_spaces", seat, moved, "distant_market", tile=sale.tile)
    else:
        port = state.tiles.get(sale.merchant)
        if port is None or port.industry != "port" or port.flipped:
            raise IllegalAction("sell.port", f"{sale.merchant} is not an unflipped Port tile", player=seat)
        if not connected(state, mill_loc, slot_location(sale.merchant)):
            raise IllegalAction(
                "sell.port", f"{sale.tile} is not connected to the port at {sale.merchant}", player=seat
            )
        flip(state, sale.merchant, "sell")  # the port's owner gains its income
    flip(state, sale.tile, "sell")
    return True


def apply_sell_cotton(state: GameState, a: Sell, policy: ChoicePolicy) -> Sell:
    if not a.sales:
        raise IllegalAction("sell.at_least_one", "a Sell action must sell at least one tile", player=a.player)
    for i, sale in enumerate(a.sales):
        if not apply_cotton_sale(state, a.player, sale) and i < len(a.sales) - 1:
            raise IllegalAction(
                "sell.market_closed",
                "the Distant Cotton Market reached X on this sale, which ends the Sell action; "
                f"{len(a.sales) - i - 1} later sale(s) cannot happen",
                player=a.player,
            )
    return a
