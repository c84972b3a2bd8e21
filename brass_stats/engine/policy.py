"""Choice policies: how the engine fills in a choice that an action leaves out.

Leniency is this one object, passed to the engine; nothing else in the code
branches on "strict" or "lenient".

* :data:`STRICT` accepts an omitted choice only when the rules leave exactly
  one option, and otherwise raises :class:`~brass_stats.errors.AmbiguousChoice`.
  (The log format's rule is that every way the rules allow ends in the same
  state: the engine fills in, without asking the policy, the order of a
  shortfall's tiles when every tile must go.)
* :data:`FIRST_OPTION` takes the first option in the engine's canonical order
  (closest first, then location and slot order). Useful for quick what-ifs.
* Importers of other formats subclass :class:`ChoicePolicy` to reproduce how
  that source chose (see :mod:`brass_stats.log.brassbirmingham.records`).
* :data:`AS_PLAYED` (``--as-played``) also accepts a *stated* choice that breaks
  only one of :data:`AS_PLAYED_RULES` (a source-priority rule, the link-tile
  limit, or a price the log states in ``options.played_costs``): the engine
  applies it as stated and records a ``deviation`` effect (rule id and message)
  instead of raising. Every other broken rule still raises. See docs/rules-decisions.md ("Games as played").

>>> STRICT.choose("coal source", ["dudley:0"], context={})
'dudley:0'
>>> sorted(AS_PLAYED.tolerates)
['build.cost', 'coal.closest_mine', 'iron.works_first', 'network.link_tiles']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from ..errors import AmbiguousChoice, IllegalAction

T = TypeVar("T")

# What a choice is about (the ``what`` argument of ChoicePolicy.choose).
SLOT = "slot"
COAL_MINE = "coal mine"
IRON_WORKS = "iron works"
BEER_SOURCE = "beer source"
MERCHANT_TILE = "merchant tile (for its barrel)"
BONUS_DEVELOP = "industry for the Gloucester develop bonus"
SHORTFALL_TILE = "tile to remove for the shortfall"
LOAN_AMOUNT = "loan amount"

AS_PLAYED_RULES: frozenset[str] = frozenset(
    {"coal.closest_mine", "iron.works_first", "network.link_tiles", "build.cost"}
)
"""Rules a game as played may break (the source-priority rules, the link-tile limit, and a tile price other
than the printed one that the log states in ``options.played_costs``), each break recorded."""


class ChoicePolicy:
    """Chooses among the legal options of a choice the action left out.

    ``tolerates`` names the rules a stated (or filled) choice may break: the engine then records the
    break as a ``deviation`` effect and goes on (see :func:`depart`). Empty: every break raises.
    """

    tolerates: frozenset[str] = frozenset()

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        raise AmbiguousChoice(what, list(options))

    def fill(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        """The engine's entry point for an omitted choice. A policy reproducing another server may
        override it to return a value outside ``options``; the engine then checks it like a stated one."""
        return decide(self, what, options, context)


class StrictPolicy(ChoicePolicy):
    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        if len(options) == 1:
            return options[0]
        raise AmbiguousChoice(what, list(options), player=context.get("player"))


class FirstOptionPolicy(ChoicePolicy):
    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        if not options:
            raise AmbiguousChoice(what, [], player=context.get("player"))
        return options[0]


class AsPlayedPolicy(ChoicePolicy):
    """Fills omitted choices as ``base`` does, and tolerates the breaks of :data:`AS_PLAYED_RULES`."""

    tolerates = AS_PLAYED_RULES

    def __init__(self, base: ChoicePolicy | None = None) -> None:
        self.base = base if base is not None else STRICT

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        return self.base.choose(what, options, context)

    def fill(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        return self.base.fill(what, options, context)


def depart(policy: ChoicePolicy, state: Any, error: IllegalAction, cause: str) -> None:
    """A choice breaks ``error.rule``: raise it, unless the policy tolerates that rule, in which case
    the break is recorded as a ``deviation`` effect (rule, message) and the action goes on as stated."""
    if error.rule not in policy.tolerates:
        raise error
    seat = error.details.get("player", -1)
    state.effect("deviation", seat if isinstance(seat, int) else -1, 0, cause, rule=error.rule, message=error.message)


def decide(policy: ChoicePolicy, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
    """The engine's way to fill an omitted choice: a single option needs no policy."""
    if len(options) == 1:
        return options[0]
    return policy.choose(what, options, context)


STRICT = StrictPolicy()
FIRST_OPTION = FirstOptionPolicy()
AS_PLAYED = AsPlayedPolicy(STRICT)
