"""Small builders for Brass: Lancashire rule tests: set up a position directly, then apply one explicit action.

Like ``tests/helpers.py`` (written for Birmingham), every helper edits the state in place (calling
``state.touch_board()`` after board edits) and returns it. Nothing here decides a rule: positions are
fed to the real engine through :func:`brass_stats.engine.apply_action`. The differences from the
Birmingham helpers: the Lancashire rules data, game options, and mats whose shipyards start at level 0.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

# Helpers that do not depend on the edition come from the Birmingham helpers.
# Helpers that do not depend on the edition come from the Birmingham helpers (re-exported).
from helpers import act as act
from helpers import give as give
from helpers import pass_turns as pass_turns
from helpers import pass_until_round_ends as pass_until_round_ends
from helpers import place_link as place_link
from helpers import rule_of as rule_of
from helpers import set_income_space as set_income_space
from helpers import set_markets as set_markets
from helpers import set_money as set_money
from helpers import two_actions as two_actions

from brass_stats.engine import Action, GameState, SeededChance, Tile, apply_action, new_game
from brass_stats.engine.legal import legal_actions
from brass_stats.rules_data import RulesData, load_rules

LANCASHIRE: RulesData = load_rules("lancashire")
NAMES = ("Ann", "Bob", "Cid", "Dee")


def fresh(
    players: int = 2,
    seed: int = 0,
    order: Iterable[int] | None = None,
    options: Mapping[str, Any] | None = None,
    rules: RulesData = LANCASHIRE,
) -> GameState:
    """A new Lancashire game at its first action; seat 0 moves first unless ``order`` says otherwise."""
    state = new_game(list(NAMES[:players]), SeededChance(seed), rules, dict(options or {}))
    state.turn_order = list(range(players)) if order is None else list(order)
    return state


def to_rail_era(state: GameState) -> GameState:
    """Switch to the Rail Era, second round (2 actions per turn). Board and mats are left as they are."""
    state.era = "rail"
    state.era_round = 2
    state.round = 12
    state.reserve = []
    state.touch_board()
    return state


def mat_count(state: GameState, seat: int, industry: str, level: int) -> int:
    p = state.players[seat]
    return p.mat[industry][level - p.first_level[industry]]


def place_tile(
    state: GameState,
    ref: str,
    owner: int,
    industry: str,
    level: int,
    resources: int | None = None,
    flipped: bool = False,
    from_mat: bool = True,
) -> Tile:
    """Put a tile on the board (taking it off its owner's mat unless ``from_mat`` is False).

    ``resources`` defaults to what the tile carries when built in the current era (0 when flipped).
    """
    info = state.rules.level(industry, level)
    if resources is None:
        resources = 0 if flipped else info.resources_on_build(state.era)
    if from_mat:
        p = state.players[owner]
        i = level - p.first_level[industry]
        assert p.mat[industry][i] > 0, f"player {owner} has no {industry} level {level} left on the mat"
        p.set_mat_count(industry, level, p.mat[industry][i] - 1)
    tile = Tile(owner, industry, level, resources, flipped)
    state.tiles[ref] = tile
    state.touch_board()
    return tile


def clear_mat_below(state: GameState, seat: int, industry: str, level: int) -> GameState:
    """Remove every tile below ``level`` of an industry from a mat, as if developed away."""
    p = state.players[seat]
    for lv in range(p.first_level[industry], level):
        p.set_mat_count(industry, lv, 0)
    return state


def set_dcm(state: GameState, pile: Iterable[int], position: int = 0) -> GameState:
    """Stack the Distant Cotton Market tiles (top first) and put the marker on a row."""
    state.dcm_pile = list(pile)
    state.dcm_position = position
    return state


def last_round(state: GameState, cards_each: int = 1) -> GameState:
    """Make this the era's final round: an empty deck, nothing beneath the deck tile, ``cards_each`` card(s) each."""
    state.deck = []
    state.reserve = []
    for p in state.players:
        p.hand = p.hand[:cards_each]
    if state.era == "canal" and state.era_round == 1:
        two_actions(state)
    return state


def all_cards(state: GameState) -> Counter[str]:
    """Every card still in play: hands, discard piles, draw deck and the cards beneath the deck tile."""
    cards: Counter[str] = Counter(state.deck) + Counter(state.reserve)
    for p in state.players:
        cards.update(p.hand)
        cards.update(p.discard)
    return cards


def random_action(state: GameState, rng: random.Random) -> Action:
    """A random legal action: an action type first (passing only when nothing else is legal), then an action."""
    by_type: dict[str, list[Action]] = {}
    for a in legal_actions(state):
        by_type.setdefault(a.TYPE, []).append(a)
    kinds = sorted(k for k in by_type if k != "pass") or ["pass"]
    return rng.choice(by_type[rng.choice(kinds)])


def play_random(state: GameState, seed: int, until: Any = None) -> tuple[GameState, list[Action]]:
    """Play random legal actions from ``state`` until the game is over (or ``until(state)`` is true)."""
    rng = random.Random(seed)
    resolved: list[Action] = []
    while not state.game_over and not (until is not None and until(state)):
        state, done = apply_action(state, random_action(state, rng))
        resolved.append(done)
    return state, resolved
