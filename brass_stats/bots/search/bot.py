"""The search bot: information-set Monte Carlo tree search over the engine, max^n values.

One decision (:meth:`SearchBot.analyse`) runs simulations until its budget is spent. Each one:

1. samples the cards the deciding seat cannot see (:func:`~.determinize.determinize`);
2. walks down the tree from the root, at each node ranking the legal actions of this
   determinization with the greedy evaluation (:func:`~.candidates.rank`), keeping the first
   ``widen(visits)`` (progressive widening) and picking one by UCB for the player to move
   (:mod:`.tree`), applying it with :func:`~brass_stats.engine.turn.apply_action`; a turn of two
   actions is two levels;
3. at the first node never visited, plays ``rollout_depth`` more actions with the greedy choice
   and asks the leaf evaluator for one value per seat (a finished game gives its result);
4. adds that value vector to every node of the path.

The root's children are the ranked candidates (one action per group of actions that differ only
in the cards discarded, the greedy choice of card), plus any ``force``d actions. The decision is the
child visited most (ties: the better mean value for the mover, then the better greedy rank).
Only :func:`~brass_stats.engine.information.knowable` actions are ranked, at the root and below: the engine's legal
list itself would tell the order of Lancashire's face-down Distant Cotton Market tiles.

Randomness comes only from the ``rng`` given (one 64-bit seed drawn per decision); with a budget in
simulations (``seconds=None``) a decision is a function of the position as the mover sees it, the
budget and that seed. A budget in seconds stops on the clock and so is not reproducible.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.actions import Action
from ...engine.compiled import enabled as core_enabled
from ...engine.information import attempt, determinize, knowable
from ...engine.legal import legal_actions as all_legal_actions
from ...engine.scoring import win_shares
from ...engine.state import GameState
from ...engine.turn import apply_action
from ...errors import IllegalAction
from ..compiled import core_search, overridden
from ..greedy import GreedyBot, board_key
from .candidates import Candidate, rank
from .evaluation import LeafEvaluator, SoftmaxLeaf, leaf_spec
from .tree import Node, select, widen


@dataclass(frozen=True)
class ActionStats:
    """One root action: how often the search tried it and what it found, per seat."""

    action: Action
    visits: int
    value: tuple[float, ...]  # mean value per seat (empty when never visited)
    score: float  # the greedy ranking's score (estimated final VP of the mover)
    rank: int  # place in the greedy ranking (0: greedy's choice); forced actions come after

    def value_for(self, seat: int) -> float | None:
        return self.value[seat] if self.value else None


@dataclass(frozen=True)
class SearchResult:
    """What one decision's search found: the root actions (most visited first) and the choice."""

    seat: int
    best: Action
    actions: tuple[ActionStats, ...]
    simulations: int
    seconds: float
    value: tuple[float, ...]  # the root's mean value per seat (what the search expects of the position)
    recovered: int = 0  # cached rankings that did not fit a determinization and were redone (expect 0)

    def stats_of(self, action: Action) -> ActionStats | None:
        """The root statistics of ``action`` (or of an action that differs only in its cards, when the
        search tried that one instead); None when it was not a candidate."""
        for s in self.actions:
            if s.action == action:
                return s
        key = board_key(action)
        for s in self.actions:
            if board_key(s.action) == key:
                return s
        return None


@dataclass(frozen=True)
class SearchConfig:
    """The search's knobs (see the module docstring)."""

    simulations: int | None = 200  # per decision (None: only the clock)
    seconds: float | None = None  # per decision (None: only the simulation count)
    c_ucb: float = 1.4  # exploration constant (sibling values rescaled to [0, 1])
    pw_c: float = 1.0  # progressive widening: candidates = ceil(pw_c * (visits + 1) ** pw_alpha)
    pw_alpha: float = 0.5
    rollout_depth: int = 0  # greedy actions played past a new node before the leaf evaluation
    max_depth: int = 40  # tree depth limit (actions below the root)


class SearchBot:
    """Information-set MCTS (max^n) guided by the greedy evaluation; implements the Agent protocol.

    ``simulations`` and/or ``seconds``: the budget per decision (the first reproducible, the second
    not). ``leaf``: state -> one value per seat (default: :class:`~.evaluation.SoftmaxLeaf`), e.g.
    a learned win-probability model. ``greedy``: the bot whose evaluation ranks the candidates.
    ``knobs``: the other fields of :class:`SearchConfig` (``c_ucb``, ``pw_c``, ``pw_alpha``,
    ``rollout_depth``, ``max_depth``).

    >>> import random
    >>> from brass_stats.engine import SeededChance, new_game
    >>> from brass_stats.engine.legal import legal_actions
    >>> g = new_game(["Ann", "Bob"], SeededChance(3))
    >>> result = SearchBot(simulations=8).analyse(g, legal_actions(g), random.Random(1))
    >>> result.simulations, sum(s.visits for s in result.actions), len(result.value)
    (8, 8, 2)
    >>> result.best == result.actions[0].action
    True
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int | None = 200,
        seconds: float | None = None,
        leaf: LeafEvaluator | None = None,
        greedy: GreedyBot | None = None,
        **knobs: Any,
    ) -> None:
        if simulations is None and seconds is None:
            raise ValueError("give a budget: simulations, seconds or both")
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        self.config = dataclasses.replace(SearchConfig(), simulations=simulations, seconds=seconds, **knobs)
        self.greedy = greedy or GreedyBot()
        self.leaf: LeafEvaluator = leaf or SoftmaxLeaf(greedy=self.greedy)

    def __repr__(self) -> str:
        return f"SearchBot({self.config})"

    def core_spec(self) -> dict[str, Any] | None:
        """What the compiled core runs for this bot (see :mod:`brass_stats.bots.compiled`): None when
        its leaf is a Python callable the core cannot run."""
        leaf = leaf_spec(self.leaf)
        if leaf is None or overridden(self, SearchBot, "choose", "analyse") or self.greedy.core_spec() is None:
            return None
        leaf = dict(leaf)
        models = leaf.pop("models", {})
        if leaf.pop("weights", None) not in (None, dataclasses.asdict(self.greedy.weights)):
            return None  # a softmax leaf on other weights than the ranking's
        config = dataclasses.asdict(self.config)
        return {
            "kind": "search",
            "config": config,
            "weights": dataclasses.asdict(self.greedy.weights),
            "leaf": leaf,
            "models": models,
        }

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.analyse(state, legal_actions, rng).best

    def analyse(
        self,
        state: GameState,
        legal_actions: Sequence[Action] | None = None,
        rng: random.Random | None = None,
        force: Sequence[Action] = (),
    ) -> SearchResult:
        """Search the decision of the player to move; ``force``: actions to search at the root even if
        the ranking would not widen to them (e.g. the action a player took, to judge it).

        ``legal_actions`` defaults to the engine's list; ``rng`` to ``random.Random(0)``.
        """
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over: nobody is to move")
        if legal_actions is not None and not legal_actions:
            raise ValueError("no legal action to search")
        seed = (rng or random.Random(0)).getrandbits(64)
        if core_enabled():
            found = self._core_analyse(state, legal_actions, seed, force)
            if found is not None:
                return found
        legal = list(all_legal_actions(state) if legal_actions is None else legal_actions)
        if not legal:
            raise ValueError("no legal action to search")
        return _Search(self, state, seat, legal, random.Random(seed), force).run()

    def _core_analyse(
        self, state: GameState, legal: Sequence[Action] | None, seed: int, force: Sequence[Action]
    ) -> SearchResult | None:
        """The same search run by the compiled core (None: not a search the core runs)."""
        spec = self.core_spec()
        found = None if spec is None else core_search(state, spec, seed, legal, force)
        if found is None:
            return None
        stats = tuple(
            ActionStats(
                s["action"],
                s["visits"],
                tuple(s["value"]),
                float("-inf") if s["score"] is None else s["score"],
                s["rank"],
            )
            for s in found["actions"]
        )
        return SearchResult(
            found["seat"],
            stats[0].action,
            stats,
            found["simulations"],
            found["seconds"],
            tuple(found["value"]),
            found["recovered"],
        )


class _Search:
    """One decision's search (the tree and the budget)."""

    def __init__(
        self,
        bot: SearchBot,
        state: GameState,
        seat: int,
        legal: list[Action],
        rng: random.Random,
        force: Sequence[Action],
    ) -> None:
        self.bot = bot
        self.config = bot.config
        self.greedy = bot.greedy
        self.leaf = bot.leaf
        self.state = state
        self.seat = seat
        self.seats = state.num_players
        self.rng = rng
        self.root = Node(seat, self.seats)
        self.recovered = 0
        # the root ranking depends only on the board and the mover's hand: made once, in a determinization
        first = determinize(state, seat, random.Random(rng.getrandbits(64)))
        ranked = rank(first, knowable(state, legal), self.greedy)
        keys: list[object] = [c.action for c in ranked]
        extra = [a for a in dict.fromkeys(force) if a not in keys]
        self.root_candidates: list[Candidate] = ranked + [Candidate(a, float("-inf")) for a in extra]
        self.root_keys: list[object] = [*keys, *extra]
        self.ranked_count = len(ranked)
        # forced actions (ranked or not) are available at every visit of the root
        forced = set(force)
        self.forced = [i for i, k in enumerate(self.root_keys) if k in forced]

    def run(self) -> SearchResult:
        cfg = self.config
        start = time.perf_counter()
        deadline = None if cfg.seconds is None else start + cfg.seconds
        limit = cfg.simulations
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self.simulate(determinize(self.state, self.seat, self.rng))
            done += 1
        return self.result(done, time.perf_counter() - start)

    def simulate(self, state: GameState) -> None:
        cfg = self.config
        node = self.root
        path = [node]
        depth = 0
        chance: tuple[object, ...] = ()  # the chance outcomes drawn since the root (see .tree)
        while True:
            if state.game_over:
                value: Sequence[float] = win_shares(state)
                break
            if node.visits == 0 and node is not self.root or depth >= cfg.max_depth:
                value = self.rollout(state)
                break
            if node.player is None:
                node.player = state.current_player
            n = widen(node.visits, cfg.pw_c, cfg.pw_alpha)
            if node is self.root:
                pick = [*range(min(n, self.ranked_count)), *(i for i in self.forced if i >= n)]
                candidates = [self.root_candidates[i] for i in pick]
                keys = [self.root_keys[i] for i in pick]
            else:
                candidates, keys = self.ranking(node, state, chance, n)
            _, child, action = select(node, candidates, keys, self.seats, cfg.c_ucb)
            before = state.dcm_drawn
            if node is self.root:
                after = attempt(state, action)
            else:
                try:
                    after = apply_action(state, action)[0]
                except IllegalAction:
                    # a cached ranking that does not fit this determinization (the caches' key misses
                    # something that differs): rank this one's own legal actions
                    self.recovered += 1
                    ranked = rank(state, knowable(state, all_legal_actions(state)), self.greedy)
                    keys = [board_key(c.action) for c in ranked[:n]]
                    _, child, action = select(node, ranked[:n], keys, self.seats, cfg.c_ucb)
                    after = apply_action(state, action)[0]
            node, state = child, after
            if state.dcm_drawn is not before:  # a Distant Cotton Market tile drawn (or reshuffled)
                chance = (*chance, tuple(state.dcm_drawn))
            path.append(node)
            depth += 1
        for n_ in path:
            n_.backup(value)

    def ranking(
        self, node: Node, state: GameState, chance: tuple[object, ...], n: int
    ) -> tuple[list[Candidate], list[object]]:
        """The first ``n`` ranked candidates at ``node`` in this determinization, and their keys.

        Cached per node by what the legal actions depend on besides the line of play: the chance
        drawn since the root, the wild-card piles (a wild card discarded goes back to its pile, and
        a board key does not say which card was discarded) and the hand of the player to move.
        """
        player = node.player
        assert player is not None
        key = (chance, tuple(state.wild.values()), tuple(sorted(state.players[player].hand)))
        found = node.ranked.get(key)
        if found is None:
            boards = node.boards.get(key[:2])
            if boards is None:
                boards = node.boards[key[:2]] = {}
            ranked = rank(state, knowable(state, all_legal_actions(state)), self.greedy, boards)
            found = node.ranked[key] = (ranked, [board_key(c.action) for c in ranked])
        return found[0][:n], found[1][:n]

    def rollout(self, state: GameState) -> Sequence[float]:
        for _ in range(self.config.rollout_depth):
            if state.game_over:
                break
            legal = knowable(state, all_legal_actions(state))
            action = legal[0] if len(legal) == 1 else rank(state, legal, self.greedy)[0].action
            state = apply_action(state, action)[0]
        if state.game_over:
            return win_shares(state)
        value = tuple(self.leaf(state))
        if len(value) != self.seats:
            raise ValueError(f"the leaf evaluator gave {len(value)} values for {self.seats} seats")
        return value

    def result(self, simulations: int, seconds: float) -> SearchResult:
        seat = self.seat
        children = self.root.children
        stats = []
        for i, (cand, key) in enumerate(zip(self.root_candidates, self.root_keys, strict=True)):
            child = children.get(key)
            visits = child.visits if child is not None else 0
            value = child.means() if child is not None else ()
            stats.append(ActionStats(cand.action, visits, value, cand.score, i))
        order = sorted(stats, key=lambda s: (-s.visits, -(s.value[seat] if s.value else -1.0), s.rank))
        best = order[0].action
        return SearchResult(seat, best, tuple(order), simulations, seconds, self.root.means(), self.recovered)
