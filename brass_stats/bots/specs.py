"""Bots named by a short text spec, as the command line and the benchmarks give them.

A spec is a bot's name, optionally followed by ``:KEY=VALUE`` knobs:

* ``random``: :class:`~brass_stats.bots.RandomBot`;
* ``greedy``: :class:`~brass_stats.bots.greedy.GreedyBot`; ``greedy:explore=P`` plays a random legal
  action (as ``random`` would) with probability ``P`` and greedy's otherwise
  (:class:`~brass_stats.bots.exploring.ExploringBot`: self-play that reaches positions greedy play
  never does);
* ``mcts``: :class:`~brass_stats.bots.search.SearchBot` at its default budget; knobs ``sims``
  (simulations per decision), ``seconds`` (a time budget: not reproducible), ``c_ucb``, ``pw_c``,
  ``pw_alpha``, ``rollout_depth``, ``max_depth``, ``temp`` (the leaf softmax temperature) and ``leaf``
  (``softmax``, or ``win``: the learned win-probability model at the leaves, :data:`LEAVES`).

>>> make_bot("mcts:sims=25").config.simulations
25
>>> make_bot("greedy:explore=0.1").rate
0.1
>>> make_bot("mcts:sims=25:leaf=win").leaf.__qualname__
'WinProbabilityModel.predict'
>>> check_spec("greedy:depth=2")
Traceback (most recent call last):
...
ValueError: bot 'greedy:depth=2': unknown knob 'depth' (greedy knows: explore)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import Agent, RandomBot
from .exploring import ExploringBot
from .greedy import GreedyBot
from .search import LeafEvaluator, SearchBot, SoftmaxLeaf
from .value import default_final_vp_model, default_model

BOTS: dict[str, Callable[[], Agent]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": SearchBot}
"""The bots by name, as made without knobs (a registry: add your own)."""


_SEARCH_KNOBS: dict[str, Callable[[str], Any]] = {
    "sims": int,
    "seconds": float,
    "c_ucb": float,
    "pw_c": float,
    "pw_alpha": float,
    "rollout_depth": int,
    "max_depth": int,
    "temp": float,
    "leaf": str,
}
LEAVES = ("softmax", "win", "vp")
"""The search's leaf evaluators by name: ``softmax`` of the greedy estimates of each seat's final VP (the
default), ``win``: the learned win-probability model, ``vp``: the softmax of the learned expected final VP
(:mod:`brass_stats.bots.value`)."""
_KNOBS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "greedy": {"explore": float},
    "mcts": _SEARCH_KNOBS,
}


def _parse(spec: str) -> tuple[str, dict[str, Any]]:
    name, *parts = spec.strip().split(":")
    if name not in BOTS:
        raise ValueError(f"unknown bot {spec!r}; known: {', '.join(sorted(BOTS))} (with :KEY=VALUE knobs)")
    knobs: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"bot {spec!r}: a knob is KEY=VALUE, not {part!r}")
        if key not in _KNOBS.get(name, {}):
            known = ", ".join(_KNOBS.get(name, {})) or "none"
            raise ValueError(f"bot {spec!r}: unknown knob {key!r} ({name} knows: {known})")
        try:
            knobs[key] = _KNOBS[name][key](value)
        except ValueError:
            raise ValueError(f"bot {spec!r}: {key} must be a number, not {value!r}") from None
    return name, knobs


def make_bot(spec: str) -> Agent:
    """A new bot from its spec (see the module docstring); :class:`ValueError` names what is wrong."""
    name, knobs = _parse(spec)
    if not knobs:
        return BOTS[name]()
    if name == "greedy":
        return ExploringBot(knobs["explore"])
    sims = knobs.pop("sims", None if "seconds" in knobs else 200)
    seconds = knobs.pop("seconds", None)
    greedy = GreedyBot()
    leaf_name = knobs.pop("leaf", "softmax")
    if leaf_name not in LEAVES:
        raise ValueError(f"bot {spec!r}: leaf must be one of {', '.join(LEAVES)}, not {leaf_name!r}")
    if leaf_name == "win":
        if "temp" in knobs:
            raise ValueError(f"bot {spec!r}: temp is the softmax leaf's knob, not the win model's")
        leaf: LeafEvaluator | None = default_model().predict
    elif leaf_name == "vp":
        temp = knobs.pop("temp", None)
        leaf = SoftmaxLeaf(temp, greedy, estimates=default_final_vp_model().predict)
    else:
        leaf = SoftmaxLeaf(knobs.pop("temp"), greedy) if "temp" in knobs else None
    return SearchBot(simulations=sims, seconds=seconds, leaf=leaf, greedy=greedy, **knobs)


def check_spec(spec: str) -> str:
    """``spec`` unchanged if it names a bot that can be made, else :class:`ValueError`."""
    make_bot(spec)
    return spec


__all__ = ["BOTS", "LEAVES", "check_spec", "make_bot"]
