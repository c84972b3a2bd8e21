"""Where the BrassBirmingham server chose against the rulebook: its coal for a rail link, and the
game stepped through the engine, which collects the departures a converted log carries in
``source.departures``.

The server measured "closest coal mine" for a new rail link from one end of the link only (its
``a`` end, or ``b`` when ``a`` is a merchant), with the link already placed, so a mine at the other
end counts as 1 link away; ties go to the alphabetically first server location id, then slot
(docs/importing.md, "Where the server departed from the rulebook"). The rulebook counts from the
link itself. What the server did is what happened in the game, so the converter fills the server's
mine, writes it in the log, and lists the place where it breaks ``coal.closest_mine`` (and any other
rule of :data:`~brass_stats.engine.policy.AS_PLAYED_RULES`, such as the link-tile limit or the
server's own Manufacturer IV price) in ``source.departures``.

>>> server_coal_end("birmingham--coventry")
'birmingham'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from ...engine.actions import Action
from ...engine.connectivity import distances_from, slot_location
from ...engine.policy import COAL_MINE, ChoicePolicy
from ...engine.setup import new_game
from ...engine.state import Effect, GameState
from ...engine.turn import apply_action
from ..format import GameLog


@cache
def _coal_ends() -> dict[str, str]:
    text = resources.files(__package__).joinpath("link_ends.json").read_text("utf-8")
    ends: dict[str, str] = json.loads(text)["coal_measured_from"]
    return ends


def server_coal_end(link_id: str) -> str:
    """The location the server measured coal distance from, for a rail link (project ids)."""
    return _coal_ends()[link_id]


def _link_of(state: GameState, origins: tuple[str, ...]) -> str | None:
    for link_id, link in state.rules.links.items():
        if link.connects == origins:
            return link_id
    return None


def server_rail_coal(
    state: GameState, origins: tuple[str, ...], sort_key: Callable[[str], tuple[str, int]]
) -> str | None:
    """The coal mine the server took for the rail link at ``origins`` (already placed), or None when
    no connected mine has coal. ``sort_key`` orders refs as the server did (its location ids)."""
    link_id = _link_of(state, origins)
    if link_id is None or link_id not in _coal_ends():
        return None
    dist = distances_from(state, (server_coal_end(link_id),))
    mines = [
        (dist[slot_location(ref)], sort_key(ref), ref)
        for ref, t in state.tiles.items()
        if t.industry == "coal_mine" and not t.flipped and t.resources > 0 and slot_location(ref) in dist
    ]
    return min(mines)[2] if mines else None


class PlayedGame:
    """The converted game stepped through the engine, one action at a time, changing one state in place
    (the converter keeps no earlier state): the actions as resolved, and every broken rule the policy
    tolerated, as ``source.departures`` entries. Raises what the engine raises (``LogFormatError`` for
    the setup, ``IllegalAction`` for an action); after an illegal action the state is half-changed."""

    def __init__(self, log: GameLog, policy: ChoicePolicy) -> None:
        self.state = new_game(list(log.players), log.chance_source(), log.rules(), log.options).copy()
        self.policy = policy
        self.actions: list[Action] = []
        self.departures: list[dict[str, Any]] = []
        self.built: set[tuple[str, int]] = set()  # (industry, level) of every tile built so far

    def push(self, action: Action) -> None:
        """Apply one more action (every choice it leaves out filled by the policy)."""
        state = self.state
        effects: list[Effect] = []
        state.effects = effects
        try:
            self.state, resolved = apply_action(state, action, self.policy, in_place=True)
        finally:
            state.effects = None
        for e in effects:
            if e.kind == "deviation":
                self.departures.append(
                    {"action_index": len(self.actions), "rule": e.detail["rule"], "message": e.detail["message"]}
                )
            elif e.kind == "build":
                self.built.add((e.detail["industry"], e.detail["level"]))
        self.actions.append(resolved)


def rail_coal_choice(what: str, context: Mapping[str, Any], sort_key: Callable[[str], tuple[str, int]]) -> str | None:
    """For :meth:`QuasrainPolicy.fill`: the server's mine when the choice is coal for a rail link, else None."""
    if what != COAL_MINE or context.get("cause") != "network":
        return None
    return server_rail_coal(context["state"], tuple(context["origins"]), sort_key)
