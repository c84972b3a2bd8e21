"""Legal Sell actions: every set of sales (tiles in board order), each with or without merchant beer.

A sale changes what the next one may drink (barrels, the merchant's barrel) and, with the
Gloucester bonus, the player mat; each sale is therefore applied through the engine's own sale
rules (:func:`~brass_stats.engine.sell.apply_sale`, :func:`~brass_stats.engine.sell_cotton.apply_cotton_sale`)
on a copy of the state after the sales before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from ...errors import IllegalAction
from ..actions import Action, Sale, Sell
from ..connectivity import connected, connected_to_trade
from ..policy import BEER_SOURCE, FIRST_OPTION, ChoicePolicy
from ..resources import MERCHANT
from ..sell import apply_sale
from ..sell_cotton import DISTANT_MARKET, apply_cotton_sale, market_closed
from ..state import GameState
from ..turn import apply_action

T = TypeVar("T")


class _BeerPreference(ChoicePolicy):
    """First option everywhere, but drinks the merchant's barrel only when asked to."""

    def __init__(self, merchant: bool) -> None:
        self.merchant = merchant

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        opts = list(options)
        if what == BEER_SOURCE:
            if self.merchant and MERCHANT in opts:
                return opts[opts.index(MERCHANT)]
            rest = [o for o in opts if o != MERCHANT]
            if rest:
                return rest[0]
        return FIRST_OPTION.choose(what, opts, context)


WITH_MERCHANT_BEER = _BeerPreference(True)
WITHOUT_MERCHANT_BEER = _BeerPreference(False)


def try_action(state: GameState, action: Action, policy: ChoicePolicy = FIRST_OPTION) -> Action | None:
    """The action with its choices filled in, or None if the engine rejects it."""
    try:
        return apply_action(state, action, policy)[1]
    except IllegalAction:
        return None


def sale_options(state: GameState, seat: int) -> list[tuple[Sale, bool]]:
    """(sale skeleton, drink the merchant's barrel?) for every tile/buyer pair that may connect."""
    if state.rules.dcm_track:
        return _cotton_sale_options(state, seat)
    out = []
    for ref, t in sorted(state.tiles.items()):
        if t.owner != seat or t.flipped or t.industry not in state.rules.sellable:
            continue
        loc = ref.split(":", 1)[0]
        for m in state.rules.merchants:
            if not any(ms.location == m and t.industry in ms.accepts for ms in state.merchant_spaces):
                continue
            if not connected(state, loc, m):
                continue
            out.append((Sale(ref, m), False))
            if state.level_info(t).beer_to_sell and any(
                ms.location == m and t.industry in ms.accepts and ms.beer for ms in state.merchant_spaces
            ):
                out.append((Sale(ref, m), True))
    return out


def _cotton_sale_options(state: GameState, seat: int) -> list[tuple[Sale, bool]]:
    """Lancashire: each own unflipped cotton mill to each connected unflipped port, or the Distant Market."""
    out: list[tuple[Sale, bool]] = []
    ports = [ref for ref, t in sorted(state.tiles.items()) if t.industry == "port" and not t.flipped]
    for ref, t in sorted(state.tiles.items()):
        if t.owner != seat or t.flipped or t.industry not in state.rules.sellable:
            continue
        loc = ref.split(":", 1)[0]
        out.extend((Sale(ref, port), False) for port in ports if connected(state, loc, port.split(":", 1)[0]))
        if not market_closed(state) and connected_to_trade(state, (loc,)):
            out.append((Sale(ref, DISTANT_MARKET), False))
    return out


def sell_actions(state: GameState, seat: int, cards: list[str]) -> list[Action]:
    """Every sequence of sales (tiles in board order), each with or without merchant beer.

    A sequence is extended from the state after its last sale (one sale applied per candidate, on a
    copy), as the engine would apply the whole sequence: sales are applied one after the other."""
    options = sale_options(state, seat)
    if not options:
        return []
    cotton = bool(state.rules.dcm_track)
    found: list[tuple[Sale, ...]] = []

    def extend(base: GameState, prefix: tuple[Sale, ...], start: int) -> None:
        used = {s.tile for s in prefix}
        for i in range(start, len(options)):
            sale, with_beer = options[i]
            if sale.tile in used:
                continue
            after = base.copy()
            try:
                if cotton:
                    done, more = sale, apply_cotton_sale(after, seat, sale)  # False: the market closed
                else:
                    policy = WITH_MERCHANT_BEER if with_beer else WITHOUT_MERCHANT_BEER
                    done, more = apply_sale(after, seat, sale, policy), True
            except IllegalAction:
                continue
            if with_beer != (done.beer is not None and MERCHANT in done.beer):
                continue  # the variant asked for is not what happened: another entry covers it
            sales = (*prefix, done)
            found.append(sales)
            if more:
                extend(after, sales, i + 1)

    extend(state, (), 0)
    # the same sales with any other card in hand
    result: list[Action] = []
    seen: set[tuple[Sale, ...]] = set()
    for sales in found:
        if sales in seen:
            continue
        seen.add(sales)
        result.extend([Sell(seat, c, sales) for c in cards])
    return result
