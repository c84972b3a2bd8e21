"""A search bot: information-set Monte Carlo tree search guided by the greedy evaluation.

* :mod:`.candidates`: ranking legal actions with the greedy evaluation (the widening order).
* :mod:`.tree`: nodes with one value per seat (max^n), progressive widening, UCB selection.
* :mod:`.evaluation`: leaf evaluators (state -> one value per seat); the default from the greedy
  evaluation, a learned model can be given instead.
* :mod:`.bot`: :class:`SearchBot` (registered for self-play as ``mcts``) and :class:`SearchResult`.
"""

from __future__ import annotations

from .bot import ActionStats, SearchBot, SearchConfig, SearchResult
from .evaluation import LeafEvaluator, SoftmaxLeaf

__all__ = [
    "ActionStats",
    "LeafEvaluator",
    "SearchBot",
    "SearchConfig",
    "SearchResult",
    "SoftmaxLeaf",
]
