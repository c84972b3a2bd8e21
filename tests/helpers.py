"""Small builders for rule tests: set up a position directly, then apply one explicit action.

Every helper edits the state in place (and calls ``state.touch_board()`` after board edits) and
returns it, so calls can be chained or used one per line. Nothing here decides a rule: the tests
feed the positions to the real engine through :func:`brass_stats.engine.apply_action`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from brass_stats.engine import STRICT, Action, GameState, Pass, SeededChance, apply_action, new_game
from brass_stats.engine.policy import AS_PLAYED, ChoicePolicy
from brass_stats.engine.setup import tile_face
from brass_stats.engine.state import MerchantSpace, Tile
from brass_stats.errors import IllegalAction
from brass_stats.log.format import GameLog

NAMES = ("Ann", "Bob", "Cid", "Dee")
FACES = {
    "all": frozenset({"cotton_mill", "manufacturer", "pottery"}),
    "blank": frozenset(),
    "cotton_mill": frozenset({"cotton_mill"}),
    "manufacturer": frozenset({"manufacturer"}),
    "pottery": frozenset({"pottery"}),
}


def fresh(players: int = 2, seed: int = 0, order: Iterable[int] | None = None) -> GameState:
    """A new game at its first action; seat 0 moves first unless ``order`` says otherwise."""
    state = new_game(list(NAMES[:players]), SeededChance(seed))
    state.turn_order = list(range(players)) if order is None else list(order)
    return state


def two_actions(state: GameState) -> GameState:
    """Move past the first Canal Era round, so each turn has 2 actions."""
    state.era_round = 2
    state.round = 2
    return state


def to_rail_era(state: GameState) -> GameState:
    """Switch to the Rail Era, second round (2 actions per turn). Board and mats are left as they are."""
    state.era = "rail"
    state.era_round = 2
    state.round = 12
    state.touch_board()
    return state


def give(state: GameState, seat: int, *cards: str) -> GameState:
    """Replace a player's hand with exactly these cards."""
    state.player_mut(seat).hand = list(cards)  # states from apply_action share unchanged players
    return state


def set_money(state: GameState, seat: int, money: int) -> GameState:
    state.player_mut(seat).money = money
    return state


def set_income_space(state: GameState, seat: int, space: int) -> GameState:
    state.player_mut(seat).income_space = space
    return state


def set_markets(state: GameState, coal: int | None = None, iron: int | None = None) -> GameState:
    if coal is not None:
        state.coal_market = coal
    if iron is not None:
        state.iron_market = iron
    return state


def place_tile(
    state: GameState,
    ref: str,
    owner: int,
    industry: str,
    level: int,
    resources: int | None = None,
    flipped: bool = False,
) -> Tile:
    """Put a tile on the board (taking it off its owner's mat).

    ``resources`` defaults to what the tile would carry when built in the current era (0 when flipped).
    """
    info = state.rules.level(industry, level)
    if resources is None:
        resources = 0 if flipped else info.resources_on_build(state.era)
    p = state.player_mut(owner)
    left = p.mat[industry][level - 1]
    assert left > 0, f"player {owner} has no {industry} level {level} left on the mat"
    p.set_mat_count(industry, level, left - 1)
    tile = Tile(owner, industry, level, resources, flipped)
    state.tiles[ref] = tile
    state.touch_board()
    return tile


def place_link(state: GameState, link_id: str, owner: int) -> GameState:
    assert link_id in state.rules.links, link_id
    state.links = {**state.links, link_id: owner}  # states from apply_action share their links
    state.player_mut(owner).link_tiles -= 1
    state.touch_board()
    return state


def clear_mat_below(state: GameState, seat: int, industry: str, level: int) -> GameState:
    """Remove every tile below ``level`` of an industry from a mat, as if developed away."""
    for lv in range(1, level):
        state.player_mut(seat).set_mat_count(industry, lv, 0)
    return state


def set_merchants(state: GameState, faces: dict[str, list[str]], beer: bool | None = None) -> GameState:
    """Set the merchant tile faces at locations (one face per merchant space there).

    Barrels follow setup (beside non-blank tiles) unless ``beer`` forces them.
    """
    state.merchant_spaces = list(state.merchant_spaces)  # states from apply_action share the list
    for loc, fs in faces.items():
        spaces = [i for i, ms in enumerate(state.merchant_spaces) if ms.location == loc]
        assert len(spaces) == len(fs), f"{loc} has {len(spaces)} merchant space(s) in this game"
        for i, face in zip(spaces, fs, strict=True):
            accepts = FACES[face]
            ms = state.merchant_spaces[i]
            has_beer = bool(accepts) if beer is None else beer
            state.merchant_spaces[i] = MerchantSpace(ms.location, ms.index, tile_face(accepts), accepts, has_beer)
    return state


def merchant(state: GameState, location: str, index: int = 0) -> MerchantSpace:
    for ms in state.merchant_spaces:
        if ms.location == location and ms.index == index:
            return ms
    raise KeyError(f"{location}:{index}")


def act(state: GameState, action: Action, policy: ChoicePolicy = STRICT) -> GameState:
    """Apply one action and return the new state."""
    new, _ = apply_action(state, action, policy)
    return new


def rule_of(state: GameState, action: Action, policy: ChoicePolicy = STRICT) -> str:
    """The rule id the engine raises for an illegal action (fails the test if the action is accepted)."""
    with pytest.raises(IllegalAction) as info:
        apply_action(state, action, policy)
    return info.value.rule


def pass_turns(state: GameState, count: int) -> GameState:
    """The players to move pass ``count`` times, each with the first card of their hand."""
    for _ in range(count):
        seat = state.current_player
        assert seat is not None
        state = act(state, Pass(seat, state.players[seat].hand[0]))
    return state


def pass_until_round_ends(state: GameState) -> GameState:
    """Everyone still to move this round passes until the round (or the game) is over."""
    start = state.round
    while state.phase == "actions" and state.round == start:
        state = pass_turns(state, 1)
    return state


def last_round(state: GameState, cards_each: int = 1) -> GameState:
    """Make this the era's final round: an empty deck and ``cards_each`` card(s) in every hand."""
    state.deck = []
    for seat in range(state.num_players):
        p = state.player_mut(seat)
        p.hand = p.hand[:cards_each]
    if state.era == "canal" and state.era_round == 1:
        two_actions(state)
    return state


def sampled_states(path: str | Path, every: int, final: bool = False) -> Iterator[GameState]:
    """Every ``every``-th position of the game at ``path`` (as played), where a player is to move; with
    ``final``, the finished game last."""
    log = GameLog.load(path)
    state = new_game(list(log.players), log.chance_source(), log.rules(), log.options)
    for i, action in enumerate(log.actions):
        if i % every == 0:
            yield state
        state, _ = apply_action(state, action, AS_PLAYED)
    if final:
        yield state


def dead_end(state: GameState) -> GameState:
    """``state`` with the mover's hand emptied: the engine lists no legal action for it."""
    from brass_stats.engine.legal import legal_actions

    edited = state.copy()
    seat = edited.current_player
    assert seat is not None
    edited.player_mut(seat).hand = []
    assert legal_actions(edited) == []
    return edited
