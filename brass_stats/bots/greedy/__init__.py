"""A one-ply greedy player: try every legal action, keep the one whose result looks best.

:class:`GreedyBot` applies each legal action to a copy of the state
(:func:`~brass_stats.engine.turn.apply_action` never changes its input) and
scores the resulting position for the acting seat with :func:`evaluate`. It
picks the highest score; exact ties are broken with the ``rng`` it is given, so
a game is fully determined by its seed. :func:`explain` returns the terms.

Modules
-------

* :mod:`~brass_stats.bots.greedy.weights`: :class:`Weights`, the tunable
  parameters, and :data:`DEFAULT_WEIGHTS`.
* :mod:`~brass_stats.bots.greedy.evaluation`: the evaluation as written to be
  read (:func:`evaluate`, :func:`explain`, :func:`horizon`,
  :func:`resource_demand`, :func:`card_values`, :func:`hand_value`); its
  docstring describes every term.
* :mod:`~brass_stats.bots.greedy.board_facts` and
  :mod:`~brass_stats.bots.greedy.fast_evaluation`: the same evaluation, from
  quantities computed once per board (:class:`BoardFacts`, :class:`Evaluator`);
  ``tests/test_greedy_evaluator.py`` holds it equal to :func:`evaluate`.
* :mod:`~brass_stats.bots.greedy.grouping`: actions that differ only in their
  discarded cards, one group per board (:func:`board_key`,
  :func:`group_by_board`), and the cap on Sell groups (:func:`cap_sells`); the
  search bot groups with them too.
* :mod:`~brass_stats.bots.greedy.bot`: :class:`GreedyBot` and
  :func:`board_values`.

Tuning
------

The defaults were tuned by hand, a few dozen seeded games per change: mean VP
per player in 4-player greedy self-play, head-to-head 4-player games (a variant
in two seats, the defaults in the other two, then seats swapped), and 2-player
games against :class:`~brass_stats.bots.RandomBot`, an opponent that never uses
coal or beer and so must not lure the bot into a loan death spiral.
``benchmarks/bench_bots.py`` measures strength and speed.
"""

from __future__ import annotations

from .board_facts import BoardFacts, LinkFacts, TileFacts
from .bot import GreedyBot, board_values
from .evaluation import SCOUT_GAIN, Horizon, card_values, evaluate, explain, hand_value, horizon, resource_demand
from .fast_evaluation import Evaluator
from .grouping import board_key, board_key_function, cap_sells, group_by_board
from .weights import DEFAULT_WEIGHTS, Weights

__all__ = [
    "SCOUT_GAIN",
    "DEFAULT_WEIGHTS",
    "BoardFacts",
    "Evaluator",
    "GreedyBot",
    "Horizon",
    "LinkFacts",
    "TileFacts",
    "Weights",
    "board_key",
    "board_key_function",
    "board_values",
    "cap_sells",
    "card_values",
    "evaluate",
    "explain",
    "group_by_board",
    "hand_value",
    "horizon",
    "resource_demand",
]
