"""Legal Sell actions: every set of sales (tiles in board order), each with or without merchant beer.

A sale changes what the next one may drink (barrels, the merchant's barrel) and, with the
Gloucester bonus, the player mat; the sales are therefore tried through the engine in sequence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from ...errors import IllegalAction
from ..actions import Action, Sale, Sell
from ..board import connected, connected_to_trade
from ..policy import BEER_SOURCE, FIRST_OPTION, ChoicePolicy
from ..resources import MERCHANT
from ..sell_cotton import DISTANT_MARKET, market_closed
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
    """Every sequence of sales (tiles in board order), each with or without merchant beer."""
    options = sale_options(state, seat)
    if not options:
        return []
    out: list[Sell] = []

    def extend(prefix: tuple[Sale, ...], start: int) -> None:
        used = {s.tile for s in prefix}
        for i in range(start, len(options)):
            sale, with_beer = options[i]
            if sale.tile in used:
                continue
            policy = WITH_MERCHANT_BEER if with_beer else WITHOUT_MERCHANT_BEER
            done = try_action(state, Sell(seat, cards[0], (*prefix, sale)), policy)
            if done is None:
                continue
            assert isinstance(done, Sell)
            last = done.sales[-1]
            if with_beer != (last.beer is not None and MERCHANT in last.beer):
                continue  # the variant asked for is not what happened: another entry covers it
            out.append(done)
            extend(done.sales, i + 1)

    extend((), 0)
    # the same sales with any other card in hand
    result: list[Action] = []
    seen: set[tuple[Sale, ...]] = set()
    for a in out:
        if a.sales in seen:
            continue
        seen.add(a.sales)
        result.extend(Sell(seat, c, a.sales) for c in cards)
    return result
