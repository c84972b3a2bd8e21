"""Legal shortfall payments: which of the player's tiles to remove, and in which order."""

from __future__ import annotations

from collections.abc import Iterator

from ..actions import Action, Shortfall
from ..state import GameState
from ..turn import sellable_for_shortfall, tile_sale_value


def shortfall_actions(state: GameState, seat: int) -> Iterator[Action]:
    """Every set of own tiles that covers the debt, the most valuable removed last (so none is removed
    after the debt is covered); or every tile when even all of them do not cover it.

    Each set is legal by construction: removed cheapest first, it is still short before its last tile.
    """
    owed = state.shortfalls[0][1]
    own = sellable_for_shortfall(state, seat)
    value = {ref: tile_sale_value(state, ref) for ref in own}
    if sum(value.values()) <= owed:
        yield Shortfall(seat, tuple(own))
        return

    def extend(chosen: list[str], start: int, total: int, most: int) -> Iterator[Action]:
        # a set is legal when it covers the debt and still falls short without its most valuable tile
        # (removed last); sets are visited in board order, a set before its supersets
        for i in range(start, len(own)):
            ref = own[i]
            now, top = total + value[ref], max(most, value[ref])
            if now - top >= owed:
                continue  # covered before its last tile, whatever the order: so are its supersets
            if now >= owed:
                order = sorted((*chosen, ref), key=lambda r: value[r])
                yield Shortfall(seat, tuple(order))
            yield from extend([*chosen, ref], i + 1, now, top)

    yield from extend([], 0, 0, 0)
