"""The bots' compiled path: a decision, a search or a whole game run by the core (``brass_stats._core``).

Each bot class describes itself to the core with ``core_spec()`` (``None``: not something the core
can run, e.g. a leaf evaluator written in Python, and the bot then runs in Python). A decision made
by the core draws from the caller's ``random.Random`` exactly as the Python bot would (the generator's
state goes to the core and comes back), so a game is the same game on either path, action for
action; ``tests/test_core_bots.py`` and ``tests/test_selfplay_corpora.py`` hold them equal.

``BRASS_STATS_CORE=python`` (:data:`brass_stats.engine.compiled.SWITCH`) keeps every bot in Python.
"""

from __future__ import annotations

import json
import random
import weakref
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action, action_from_json
from ..engine.compiled import NotInCore, core_module, enabled, to_core
from ..engine.state import GameState

__all__ = ["core_choose", "core_models", "core_play", "core_rank", "core_search", "enabled", "overridden"]


def overridden(bot: Any, base: type, *methods: str) -> bool:
    """Whether ``bot``'s class replaces any of ``base``'s ``methods``: the core runs ``base``'s own
    behaviour only, so a subclass that plays otherwise must keep to Python."""
    return any(getattr(type(bot), m) is not getattr(base, m) for m in methods)


_BOOSTERS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_MODELS: dict[tuple[int, int], tuple[Any, Any, Any]] = {}


def _text(model: Any) -> str:
    """A learned model's LightGBM text (read once per model object)."""
    found = _BOOSTERS.get(model)
    if found is None:
        found = _BOOSTERS[model] = model.booster.model_to_string()
    return found


def core_models(win: Any = None, final_vp: Any = None) -> Any:
    """The core's ``Models`` for these learned models (either may be None), made once per pair."""
    key = (id(win), id(final_vp))
    found = _MODELS.get(key)
    if found is None or found[0] is not win or found[1] is not final_vp:
        made = core_module().Models(None if win is None else _text(win), None if final_vp is None else _text(final_vp))
        found = _MODELS[key] = (win, final_vp, made)
    return found[2]


def split_models(spec: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A spec without its ``"models"`` entry (Python model objects), and the core's models for them."""
    spec = dict(spec)
    models = spec.pop("models", {})
    return spec, core_models(models.get("win"), models.get("final_vp"))


def _state(state: GameState) -> Any | None:
    try:
        return to_core(state)
    except NotInCore:
        return None


def _legal_field(legal: Sequence[Action] | None) -> list[dict[str, Any]] | None:
    """The caller's legal actions for a request, in the caller's order (a bot's tie-break depends on
    it); None: the engine's own list, which the core makes itself."""
    return None if legal is None else [a.to_json() for a in legal]


def _member(action: Action, legal: Sequence[Action]) -> Action:
    """The element of ``legal`` equal to ``action`` (bots return an element of the list given)."""
    for a in legal:
        if a == action:
            return a
    raise RuntimeError(f"the compiled core chose {action}, which is not among the legal actions given")


def core_choose(state: GameState, spec: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action | None:
    """The decision of the bot ``spec`` (see the module docstring), drawing from ``rng``; None when
    the core does not model the position."""
    core_state = _state(state)
    if core_state is None:
        return None
    bot, models = split_models(spec)
    request = json.dumps({"bot": bot, "legal": _legal_field(legal)})
    version, words, gauss = rng.getstate()
    try:
        text, after = core_module().choose(core_state, request, list(words), models)
    except core_module().CoreUnsupported:  # e.g. the Rail Era dealt from a written-out deal
        return None
    rng.setstate((version, tuple(after), gauss))
    return _member(action_from_json(json.loads(text)), legal)


def core_search(
    state: GameState,
    spec: dict[str, Any],
    seed: int,
    legal: Sequence[Action] | None,
    force: Sequence[Action],
) -> dict[str, Any] | None:
    """A search's result as JSON data (``SearchResult``'s fields, actions decoded); None when the core
    does not model the position."""
    core_state = _state(state)
    if core_state is None:
        return None
    search, models = split_models(spec)
    request = {
        "config": search["config"],
        "weights": search["weights"],
        "leaf": search["leaf"],
        "seed": seed,
        "legal": _legal_field(legal),
        "force": [a.to_json() for a in force],
    }
    try:
        result: dict[str, Any] = json.loads(core_module().search(core_state, json.dumps(request), models))
    except core_module().CoreUnsupported:
        return None
    result["best"] = action_from_json(result["best"])
    for s in result["actions"]:
        s["action"] = action_from_json(s["action"])
    return result


def core_rank(state: GameState, weights: dict[str, Any], legal: Sequence[Action]) -> list[tuple[Action, float]] | None:
    """``rank``'s candidates (action, score), best first; None when the core does not model the position."""
    core_state = _state(state)
    if core_state is None:
        return None
    listed = _legal_field(legal)
    try:
        text = core_module().rank(core_state, json.dumps(weights), None if listed is None else json.dumps(listed))
    except core_module().CoreUnsupported:
        return None
    return [(_member(action_from_json(a), legal), score) for a, score in json.loads(text)]


def core_play(state: GameState, specs: Sequence[dict[str, Any]], seed: int) -> list[Action] | None:
    """The actions of a whole game played from ``state`` by the bots ``specs`` (one per seat) with
    ``random.Random(seed)``; None when the core does not model the game."""
    core_state = _state(state)
    if core_state is None:
        return None
    models: dict[str, Any] = {}
    bots = []
    for spec in specs:
        bot = dict(spec)
        for name, model in bot.pop("models", {}).items():
            if models.setdefault(name, model) is not model:
                return None  # two seats reading different models of one kind: not in one request
        bots.append(bot)
    try:
        text = core_module().play(
            core_state, json.dumps(bots), seed, core_models(models.get("win"), models.get("final_vp"))
        )
    except core_module().CoreUnsupported:
        return None
    return [action_from_json(d) for d in json.loads(text)]
