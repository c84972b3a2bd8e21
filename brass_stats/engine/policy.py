"""Choice policies: how the engine fills in a choice that an action leaves out.

Leniency is this one object, passed to the engine; nothing else in the code
branches on "strict" or "lenient".

* :data:`STRICT` accepts an omitted choice only when the rules leave exactly
  one option (the log format's rule), and otherwise raises
  :class:`~brass_stats.errors.AmbiguousChoice`.
* :data:`FIRST_OPTION` takes the first option in the engine's canonical order
  (closest first, then location and slot order). Useful for quick what-ifs.
* Importers of other formats subclass :class:`ChoicePolicy` to reproduce how
  that source chose (see :mod:`brass_stats.log.quasrain`).

>>> STRICT.choose("coal source", ["dudley:0"], context={})
'dudley:0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from ..errors import AmbiguousChoice

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


class ChoicePolicy:
    """Chooses among the legal options of a choice the action left out."""

    def choose(self, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
        raise AmbiguousChoice(what, list(options))


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


def decide(policy: ChoicePolicy, what: str, options: Sequence[T], context: Mapping[str, Any]) -> T:
    """The engine's way to fill an omitted choice: a single option needs no policy."""
    if len(options) == 1:
        return options[0]
    return policy.choose(what, options, context)


STRICT = StrictPolicy()
FIRST_OPTION = FirstOptionPolicy()
