"""The greedy player: :class:`GreedyBot` and what it does to compare few boards per decision.

Speed
-----

Actions that differ only in the discarded card lead to the same board, so the
board is evaluated once per such group and only the hand term is recomputed per
card (about 20-60 evaluations per decision instead of 150-500); the group key is
:func:`~brass_stats.bots.greedy.grouping.board_key`. When a turn offers more
than ``sell_cap`` different Sell actions, only the ``sell_cap`` that flip the
most tiles (then the most VP) are evaluated
(:func:`~brass_stats.bots.greedy.grouping.cap_sells`). The bot only ever returns an element of the ``legal_actions`` it
was given.

Two families of actions are scored without applying each of them:

* Develops with the same stated iron sources lead to states that differ only in
  the seat's mat (the engine reads a mat only to build and develop; the iron and
  its cost do not depend on the industries): one of them is applied and the
  others are scored from its result with their own mat
  (:meth:`Evaluator.develop_value`).
* Networks with as many links and the same stated coal and beer sources lead to
  states that differ only in which links were placed (the cubes, barrels and
  money they take do not depend on the links once their sources are stated),
  unless the action ends an era, whose scoring counts the links: one is applied
  and the others are scored from its result with their own links
  (``Evaluator.value(state, seat, links)``).

Of about 20 develop groups and up to 90 network groups in a decision, one to a
few of each are applied (the bot trusts the list it is given: legal actions
only). ``tests/test_greedy_evaluator.py`` checks every group's value against
:func:`evaluate` of ``apply_action``'s result on the sample games.

Card values are never negative, so a group whose board value with the whole hand
kept is below the best value by more than the tie margin cannot change the
choice: its per-card loop is skipped. In 4-player self-play about a third of the
time now goes to the evaluation, a quarter to
:func:`~brass_stats.engine.legal.legal_actions` and a fifth to ``apply_action``
(``benchmarks/README.md``).
"""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...engine.actions import Action, Develop, Network, Scout
from ...engine.compiled import enabled as core_enabled
from ...engine.state import GameState
from ...engine.turn import apply_action
from ..compiled import core_choose, overridden
from .evaluation import SCOUT_GAIN, card_values
from .fast_evaluation import Evaluator
from .grouping import cap_sells, group_by_board
from .weights import DEFAULT_WEIGHTS, Weights


class GreedyBot:
    """One-ply greedy player; see :mod:`~brass_stats.bots.greedy.evaluation` for the evaluation."""

    name = "greedy"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def core_spec(self) -> dict[str, Any] | None:
        """What the compiled core runs for this bot (see :mod:`brass_stats.bots.compiled`)."""
        if overridden(self, GreedyBot, "choose"):
            return None
        return {"kind": "greedy", "weights": dataclasses.asdict(self.weights)}

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if core_enabled():
            spec = self.core_spec()
            chosen = None if spec is None else core_choose(state, spec, legal_actions, rng)
            if chosen is not None:
                return chosen
        seat = state.current_player
        assert seat is not None
        w = self.weights
        groups = cap_sells(state, group_by_board(legal_actions), w.sell_cap)
        values = card_values(state, seat)
        kept = sum(values[c] for c in state.players[seat].hand)
        boards = board_values(state, seat, groups.values(), Evaluator(state, w))
        best: list[Action] = []
        best_value = float("-inf")
        hands: dict[tuple[bool, object], float] = {}  # the hand term, by cards discarded
        # card values are >= 0, so no action of a group scores above its board value with the hand
        # kept whole: a group whose bound is below the best by more than the tie margin changes nothing
        bounded = w.hand >= 0
        for variants, board in zip(groups.values(), boards, strict=True):
            first = variants[0]  # a group holds one type of action
            scout = isinstance(first, Scout)
            if bounded and board + w.hand * (kept + (SCOUT_GAIN if scout else 0.0)) <= best_value - 1e-9:
                continue
            cards_of = _cards_key(type(first))
            for a in variants:
                key = (scout, cards_of(a))
                hand = hands.get(key)
                if hand is None:
                    hand = hands[key] = kept - sum(values[c] for c in a.cards) + (SCOUT_GAIN if scout else 0.0)
                value = board + w.hand * hand
                if value > best_value + 1e-9:
                    best_value, best = value, [a]
                elif value > best_value - 1e-9:
                    best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)


def board_values(state: GameState, seat: int, groups: Iterable[Sequence[Action]], judge: Evaluator) -> list[float]:
    """:meth:`Evaluator.value` of the state each group's first action leads to, in order.

    Develops with the same stated iron sources, and Networks with as many links and the same
    stated coal and beer sources, are applied once each: the others are scored from that result
    (see the module docstring, "Speed").
    """
    out = []
    probes: dict[tuple[str, ...], GameState] = {}  # a Develop's result, by its stated iron sources
    networks: dict[tuple[Any, ...], GameState | None] = {}  # a Network's result, by its coal and beer
    aliases = state.rules.link_aliases
    for variants in groups:
        first = variants[0]
        if isinstance(first, Develop) and first.iron is not None:
            probe = probes.get(first.iron)
            if probe is None:
                probe = probes[first.iron] = apply_action(state, first)[0]
            out.append(judge.develop_value(probe, seat, first.industries))
            continue
        if isinstance(first, Network) and _sources_stated(state, first):
            key = (len(first.links), first.coal, first.beer)
            if key not in networks:
                result = apply_action(state, first)[0]
                # links are scored at the end of an era: then the links make the score, apply each
                networks[key] = result if result.era == state.era and result.phase != "over" else None
            network_probe = networks[key]
            if network_probe is not None:
                links = dict(state.links)
                for lid in first.links:
                    links[aliases.get(lid, lid)] = seat
                out.append(judge.value(network_probe, seat, links))
                continue
        out.append(judge.value(apply_action(state, first)[0], seat))
    return out


def _sources_stated(state: GameState, a: Network) -> bool:
    """Whether every coal and beer source of the Network is stated (as in every legal action)."""
    n = len(a.links)
    if state.era == "canal":
        return a.coal is None and a.beer is None
    beer_needed = n == 2 and bool(state.rules.double_rail_beer)
    return a.coal is not None and len(a.coal) == n and (a.beer is not None) == beer_needed


# -- the cards of a group's actions ---------------------------------------------------


_CARDS_KEYS: dict[type, Callable[[Action], object]] = {}


def _cards_key(cls: Any) -> Callable[[Action], object]:
    """A function of an action of class ``cls`` that is equal for two actions exactly when their
    ``cards`` are (cheaper than building the tuple of cards)."""
    get = _CARDS_KEYS.get(cls)
    if get is None:
        fields = {f.name for f in dataclasses.fields(cls)}
        if issubclass(cls, Scout):
            get = operator.attrgetter("discards")
        elif "second_card" in fields:
            get = operator.attrgetter("card", "second_card")
        elif "card" in fields:
            get = operator.attrgetter("card")
        else:
            get = operator.attrgetter("cards")
        _CARDS_KEYS[cls] = get
    return get
