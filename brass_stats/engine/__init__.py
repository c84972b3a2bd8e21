"""The rules engine: state, actions, legality, one module per action over a shared core.

>>> from brass_stats.engine import new_game, SeededChance, apply_action, Loan
>>> g = new_game(["Ann", "Bob"], SeededChance(1))
>>> seat = g.current_player
>>> g2, done = apply_action(g, Loan(seat, g.players[seat].hand[0]))
>>> g2.players[seat].money, g2.income_level(seat)
(47, -3)
"""

from .actions import (
    ACTION_TYPES,
    Action,
    Build,
    Develop,
    Loan,
    Network,
    Pass,
    Sale,
    Scout,
    Sell,
    Shortfall,
    action_from_json,
)
from .policy import AS_PLAYED, FIRST_OPTION, STRICT, ChoicePolicy
from .scoring import Standing, potential_vp, standings, win_shares
from .setup import ExplicitChance, SeededChance, SplitMix64, new_game
from .state import Effect, GameState, Player, Tile
from .turn import apply_action

__all__ = [
    "ACTION_TYPES",
    "AS_PLAYED",
    "Action",
    "Build",
    "ChoicePolicy",
    "Develop",
    "Effect",
    "ExplicitChance",
    "FIRST_OPTION",
    "GameState",
    "Loan",
    "Network",
    "Pass",
    "Player",
    "STRICT",
    "Sale",
    "Scout",
    "SeededChance",
    "Sell",
    "Shortfall",
    "SplitMix64",
    "Standing",
    "Tile",
    "action_from_json",
    "apply_action",
    "new_game",
    "potential_vp",
    "standings",
    "win_shares",
]
