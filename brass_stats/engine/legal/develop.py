"""Legal Develop actions: one or two industries whose lowest tile may be developed, and the iron.

Which card is discarded never matters, and the iron taken depends only on how many tiles are
developed, so each choice of industries is offered with every card.
"""

from __future__ import annotations

from ..actions import Action, Develop
from .probe import Draw, Position


def develop_actions(pos: Position, cards: list[str]) -> list[Action]:
    state, seat, p = pos.state, pos.seat, pos.player
    rules = state.rules

    def can_develop(ind: str, lvl: int | None) -> bool:
        return lvl is not None and rules.level(ind, lvl).can_develop

    lowest = {ind: p.lowest_level(ind) for ind in rules.industries}
    first = [ind for ind, lvl in lowest.items() if can_develop(ind, lvl)]
    combos: list[tuple[str, ...]] = [(i,) for i in first]
    pairs: set[frozenset[str]] = set()
    for a in first:
        for b in rules.industries:
            if b == a:
                # the tile above the one just developed (or the next of the same level)
                lvl = lowest[a]
                assert lvl is not None
                i = lvl - p.first_level[a]
                left = p.mat[a]
                nxt = (
                    lvl
                    if left[i] > 1
                    else next((j + p.first_level[a] for j in range(i + 1, len(left)) if left[j]), None)
                )
                ok = can_develop(a, nxt)
            else:
                ok = can_develop(b, lowest[b])
            if ok and frozenset((a, b)) not in pairs:
                pairs.add(frozenset((a, b)))
                combos.append((a, b))
    out: list[Action] = []
    iron: dict[int, tuple[str, ...] | None] = {}
    for combo in combos:
        n = len(combo)
        if n not in iron:
            draw = Draw(pos)
            taken = draw.iron(n)
            iron[n] = taken if draw.cost <= p.money else None
        sources = iron[n]
        if sources is not None:
            out.extend([Develop(seat, card, combo, sources) for card in cards])
    return out
