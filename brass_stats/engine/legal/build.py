"""Legal Build actions: card, location, slot, then what the build would take (coal, iron, money).

The card rules and slot rules are those of :mod:`brass_stats.engine.build` (``slot_options``,
the virtual link); what a build consumes is worked out by :class:`~.probe.Draw` once per
(industry, location, slot), whichever card builds it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ...rules_data import WILD_INDUSTRY, WILD_LOCATION, Location, card_industries, card_location
from ..actions import Action, Build
from ..build import slot_options, virtual_link_allows
from .probe import Draw, Position

Outcome = tuple[tuple[str, ...] | None, tuple[str, ...] | None]  # (coal sources, iron sources)


class _Builds:
    """Memoised slot options and outcomes for one position."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.slots: dict[tuple[str, str, int], tuple[list[int], list[int]]] = {}
        self.outcomes: dict[tuple[str, str, int, int], Outcome | None] = {}

    def slot_options(self, ind: str, level: int, loc: Location) -> tuple[list[int], list[int]]:
        key = (ind, loc.id, level)
        opts = self.slots.get(key)
        if opts is None:
            opts = self.slots[key] = slot_options(self.pos.state, self.pos.seat, ind, level, loc)
        return opts

    def outcome(self, ind: str, level: int, loc_id: str, slot: int) -> Outcome | None:
        """(coal, iron) the build takes, or None when it cannot be paid for or supplied."""
        key = (ind, loc_id, slot, level)
        if key in self.outcomes:
            return self.outcomes[key]
        pos = self.pos
        state = pos.state
        info = state.rules.level(ind, level)
        ref = f"{loc_id}:{slot}"
        draw = Draw(pos, ref if ref in state.tiles else None)
        coal = draw.coal((loc_id,), info.cost_coal) if info.cost_coal else ()
        result: Outcome | None = None
        if coal is not None:
            iron = draw.iron(info.cost_iron) if info.cost_iron else ()
            if info.cost_money + draw.cost <= pos.player.money:
                result = (coal if info.cost_coal else None, iron if info.cost_iron else None)
        self.outcomes[key] = result
        return result


def build_actions(pos: Position, cards: list[str]) -> list[Action]:
    """Every legal Build with one card, in the order of cards, locations, industries and slots."""
    state, seat, p = pos.state, pos.seat, pos.player
    rules = state.rules
    memo = _Builds(pos)
    net = pos.net
    anywhere = not pos.has_pieces
    levels: dict[str, int] = {}
    for ind in rules.industries:
        lvl = p.lowest_level(ind)
        if lvl is None:
            continue
        info = rules.level(ind, lvl)
        if info.buildable_in(state.era) and info.cost_money <= p.money:
            levels[ind] = lvl
    out: list[Action] = []
    if not levels:
        return out
    reachable: list[str] | None = None  # locations an industry card may build in
    towns: list[str] | None = None
    for card in cards:
        named = card_location(card)
        if named is not None:
            pairs: Iterator[tuple[str, str]] | list[tuple[str, str]] = [(named, ind) for ind in levels]
        elif card == WILD_LOCATION:
            if towns is None:
                towns = [loc for loc, L in rules.locations.items() if L.kind == "town"]
            pairs = [(loc, ind) for loc in towns for ind in levels]
        else:
            inds = list(levels) if card == WILD_INDUSTRY else [i for i in card_industries(card) if i in levels]
            if reachable is None:
                reachable = [
                    loc
                    for loc, L in rules.locations.items()
                    if L.slots and (anywhere or loc in net or virtual_link_allows(state, seat, loc))
                ]
            pairs = [(loc, ind) for loc in reachable for ind in inds]
        brewery_card = card == WILD_INDUSTRY or "brewery" in card_industries(card)
        shown = rules.location_industries
        industry_card = named is None and card != WILD_LOCATION
        for loc, ind in pairs:
            L = rules.locations[loc]
            if L.kind == "farm_brewery" and not brewery_card:
                continue
            if ind not in shown[loc]:
                continue
            level = levels[ind]
            empty, over = memo.slot_options(ind, level, L)
            if anywhere and industry_card and loc not in net:
                over = []  # "Building If You Have No Tiles on the Board": undeveloped spaces only
            for slot in itertools.chain(empty, over):
                done = memo.outcome(ind, level, loc, slot)
                if done is not None:
                    out.append(Build(seat, card, ind, loc, slot, done[0], done[1], None))
    return out


def double_action_builds(pos: Position) -> list[Action]:
    """Lancashire: any two cards as any location card. Which two cards are discarded cannot make a
    build legal or illegal, so each build is worked out once and then offered with every pair."""
    state, seat, p = pos.state, pos.seat, pos.player
    rules = state.rules
    if not rules.double_action_build or state.actions_this_turn or state.actions_per_turn() < 2:
        return []
    if len(p.hand) < 2:
        return []
    pairs = sorted(set(itertools.combinations(sorted(p.hand), 2)))
    first = pairs[0][0]
    memo = _Builds(pos)
    shown = rules.location_industries
    out: list[Action] = []
    for loc_id, loc in rules.locations.items():
        if loc.kind == "farm_brewery" and (
            first == WILD_LOCATION or not (first == WILD_INDUSTRY or "brewery" in card_industries(first))
        ):
            continue
        for ind in rules.industry_ids:
            lvl = p.lowest_level(ind)
            if lvl is None or ind not in shown[loc_id]:
                continue
            info = rules.level(ind, lvl)
            if not info.buildable_in(state.era):
                continue
            empty, over = memo.slot_options(ind, lvl, loc)
            for slot in itertools.chain(empty, over):
                done = memo.outcome(ind, lvl, loc_id, slot)
                if done is not None:
                    out.extend(Build(seat, a, ind, loc_id, slot, done[0], done[1], b) for a, b in pairs)
    return out
