"""The compiled core's view of the engine: rules, positions and actions across the boundary.

The core (``brass_stats._core``, built from ``core/`` in Rust) mirrors this package's engine and
bots; this module is the one place that speaks its wire formats (``docs/core.md``): a rules table
made once per :class:`~brass_stats.rules_data.RulesData`, a position as JSON with every field of a
:class:`~brass_stats.engine.state.GameState` but its caches and effects, and actions in the log
format's JSON.

The core is used wherever the bots run unless the environment variable ``BRASS_STATS_CORE`` is
``python`` (:data:`SWITCH`): the switch that forces the pure-Python path, for comparison and for
the tests that run the bots on both paths.

>>> from brass_stats.engine import SeededChance, new_game
>>> from brass_stats.engine.legal import legal_actions
>>> g = new_game(["Ann", "Bob"], SeededChance(3))
>>> core = to_core(g)
>>> actions_from_json(core.legal_actions()) == legal_actions(g)
True
>>> encode_state(g) == json.loads(core.to_json())
True
"""

from __future__ import annotations

import json
import os
import weakref
from typing import Any

from ..rules_data import WILD_INDUSTRY, WILD_LOCATION, RulesData, card_industries, card_location
from .actions import Action, action_from_json
from .setup import SeededChance
from .state import GameState, Tile

_core: Any
try:
    import brass_stats._core as _core  # the package's own extension module (built from core/)
except ImportError:  # a checkout run without `pip install -e .` (which builds the core)
    _core = None

SWITCH = "BRASS_STATS_CORE"
"""Environment variable: ``python`` makes every bot run on the pure-Python engine."""


class NotInCore(Exception):
    """A position the core does not model (the caller then takes the Python path)."""


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return _core is not None


def enabled() -> bool:
    """Whether the bots use the compiled core: built, and not switched off by :data:`SWITCH`."""
    return _core is not None and os.environ.get(SWITCH, "").strip().lower() != "python"


def core_module() -> Any:
    """The extension module itself (ImportError with what to do when it is not built)."""
    if _core is None:
        raise ImportError("the compiled core brass_stats._core is not built: run pip install -e . (needs Rust)")
    return _core


# -- rules ---------------------------------------------------------------------------------


def card_codes(rules: RulesData) -> list[str]:
    """Every card code of the edition, sorted (a card's id in the core is its index here)."""
    return sorted(rules.all_card_codes | set(rules.classic_deck_counts))


def slot_refs(rules: RulesData) -> list[str]:
    """Every slot reference, sorted as text (a slot's id in the core is its index here)."""
    refs = sorted(rules.slots)
    by_place = sorted(rules.slots, key=lambda r: (rules.slots[r].location, rules.slots[r].index))
    if refs != by_place:  # the engine sorts slots both ways; the core keeps one order
        raise NotInCore("the slot references do not sort as text the way they sort by (location, index)")
    return refs


def rules_table(rules: RulesData) -> dict[str, Any]:
    """The rules data as the core reads it: names become indexes (see ``docs/core.md``)."""
    industries = list(rules.industries)
    ind = {name: i for i, name in enumerate(industries)}
    locations = list(rules.locations)
    loc = {name: i for i, name in enumerate(locations)}
    links = list(rules.links)
    c = rules.constants
    codes = card_codes(rules)

    def card(code: str) -> dict[str, Any]:
        wild = {WILD_LOCATION: "location", WILD_INDUSTRY: "industry"}.get(code)
        place = card_location(code)
        return {
            "code": code,
            "location": None if place is None else loc[place],
            "industries": [ind[i] for i in card_industries(code) if i in ind],
            "wild": wild,
        }

    return {
        "edition": rules.edition,
        "industries": industries,
        "levels": [
            [
                {
                    "level": lv.level,
                    "tiles": lv.tiles,
                    "cost_money": lv.cost_money,
                    "cost_coal": lv.cost_coal,
                    "cost_iron": lv.cost_iron,
                    "beer_to_sell": lv.beer_to_sell,
                    "vp": lv.vp,
                    "income_spaces": lv.income_spaces,
                    "link_vp": lv.link_vp,
                    "coal_produced": lv.coal_produced,
                    "iron_produced": lv.iron_produced,
                    "beer_canal": lv.beer_canal,
                    "beer_rail": lv.beer_rail,
                    "canal_ok": lv.canal_ok,
                    "rail_ok": lv.rail_ok,
                    "can_develop": lv.can_develop,
                }
                for lv in rules.industries[name]
            ]
            for name in industries
        ],
        "locations": [
            {
                "id": L.id,
                "kind": L.kind,
                "printed_link_vp": L.printed_link_vp,
                "slots": [[ind[i] for i in s.industries] for s in L.slots],
            }
            for L in rules.locations.values()
        ],
        "links": [
            {
                "id": ln.id,
                "endpoints": [loc[e] for e in ln.endpoints],
                "connects": [loc[e] for e in ln.connects],
                "canal": ln.canal,
                "rail": ln.rail,
            }
            for ln in rules.links.values()
        ],
        "merchants": [
            {"location": loc[m.id], "spaces": m.spaces, "bonus_type": m.bonus_type, "bonus_amount": m.bonus_amount}
            for m in rules.merchants.values()
        ],
        "coal_market": _market(rules, "coal"),
        "iron_market": _market(rules, "iron"),
        "income_levels": list(rules.income_levels),
        "hand_size": c["hand_size"],
        "actions_first_round": c["actions_first_round_canal_era"],
        "actions_per_turn": c["actions_per_turn"],
        "loan_floor": c["loan"]["min_income_level"],
        "loan_options": [list(o) for o in rules.loan_options],
        "scout_discards": c["scout"]["cards_discarded"] if "scout" in c else 0,
        "rounds_per_era": {str(k): v for k, v in rules.rounds_per_era.items()},
        "face_down_discards": rules.face_down_discards,
        "has_deck_tile": bool(rules.deck_tile),
        "cash_vp_per": rules.cash_vp_per,
        "dcm_track": list(rules.dcm_track),
        "dcm_tiles": {str(k): list(v) for k, v in rules.dcm_tiles.items()},
        "flips_on_build": [ind[i] for i in sorted(rules.flips_on_build)],
        "double_rail_beer": rules.double_rail_beer,
        "double_action_build": rules.double_action_build,
        "link_anywhere_without_pieces": rules.link_anywhere_without_pieces,
        "classic_deck_removed_in_rail": {str(k): v for k, v in rules.classic_deck_removed_in_rail.items()},
        "virtual_link": None if rules.virtual_link is None else [loc[x] for x in rules.virtual_link],
        "sellable": [ind[i] for i in sorted(rules.sellable)],
        "trade_locations": [loc[x] for x in sorted(rules.trade_locations)],
        "trade_industries": [ind[i] for i in sorted(rules.trade_industries)],
        "cards": [card(code) for code in codes],
        "slots": [{"location": loc[rules.slots[r].location], "index": rules.slots[r].index} for r in slot_refs(rules)],
        "has_scout": bool(rules.wild_cards),
        "link_aliases": {name: links.index(lid) for name, lid in rules.link_aliases.items()},
        "link_tiles": c["per_player_components"]["link_tiles"],
    }


def _market(rules: RulesData, name: str) -> dict[str, Any]:
    m = rules.markets[name]
    return {"prices": list(m.prices), "price_when_empty": m.price_when_empty}


class _Ids:
    """The indexes of one rules data's names (made once per rules data)."""

    def __init__(self, rules: RulesData) -> None:
        self.card = {code: i for i, code in enumerate(card_codes(rules))}
        self.slot = {ref: i for i, ref in enumerate(slot_refs(rules))}
        self.industry = {name: i for i, name in enumerate(rules.industries)}
        self.location = {name: i for i, name in enumerate(rules.locations)}
        self.link = {lid: i for i, lid in enumerate(rules.links)}
        self.industries = list(rules.industries)


_RULES: weakref.WeakKeyDictionary[RulesData, tuple[Any, _Ids]] = weakref.WeakKeyDictionary()


def _compiled(rules: RulesData) -> tuple[Any, _Ids]:
    found = _RULES.get(rules)
    if found is None:
        found = _RULES[rules] = (core_module().Rules(json.dumps(rules_table(rules))), _Ids(rules))
    return found


def core_rules(rules: RulesData) -> Any:
    """The core's ``Rules`` for a rules data (made once per rules data)."""
    return _compiled(rules)[0]


# -- positions -------------------------------------------------------------------------------


def _tiles(ids: _Ids, tiles: dict[str, Tile]) -> list[list[Any]]:
    slot, industry = ids.slot, ids.industry
    return [[slot[r], t.owner, industry[t.industry], t.level, t.flipped, t.resources] for r, t in tiles.items()]


def encode_state(state: GameState) -> dict[str, Any]:
    """The position in the core's wire format: every field of the state but its caches and effects.

    Raises :class:`NotInCore` for what the core does not model: a game as played at another
    server's prices (``options.played_costs``).
    """
    if "played_costs" in state.options:
        raise NotInCore("a game played at another server's prices (options.played_costs)")
    ids = _compiled(state.rules)[1]
    card = ids.card
    chance = state.chance
    return {
        "players": [
            {
                "money": p.money,
                "income_space": p.income_space,
                "vp": p.vp,
                "hand": [card[c] for c in p.hand],
                "discard": [card[c] for c in p.discard],
                "mat": [list(p.mat[name]) for name in ids.industries],
                "spent": p.spent,
                "loans": p.loans,
                "link_tiles": p.link_tiles,
            }
            for p in state.players
        ],
        "era": state.era,
        "round": state.round,
        "era_round": state.era_round,
        "turn_order": list(state.turn_order),
        "turn_pos": state.turn_pos,
        "actions_this_turn": state.actions_this_turn,
        "deck": [card[c] for c in state.deck],
        "wild": [state.wild[WILD_LOCATION], state.wild[WILD_INDUSTRY]] if state.wild else None,
        "tiles": _tiles(ids, state.tiles),
        "links": [[ids.link[lid], owner] for lid, owner in state.links.items()],
        "coal_market": state.coal_market,
        "iron_market": state.iron_market,
        "merchant_spaces": [
            {
                "location": ids.location[ms.location],
                "index": ms.index,
                "face": ms.face,
                "accepts": sorted(ids.industry[i] for i in ms.accepts),
                "beer": ms.beer,
            }
            for ms in state.merchant_spaces
        ],
        "phase": state.phase,
        "shortfalls": [list(s) for s in state.shortfalls],
        "era_ends_after_shortfall": state.era_ends_after_shortfall,
        "reserve": [card[c] for c in state.reserve],
        "dcm_pile": list(state.dcm_pile),
        "dcm_drawn": list(state.dcm_drawn),
        "dcm_position": state.dcm_position,
        "options": {
            "introductory": bool(state.options.get("introductory")),
            "virtual_link": bool(state.options.get("virtual_link")),
            "classic_deck": bool(state.options.get("classic_deck")),
        },
        "era_boards": [
            {"era": era, "tiles": _tiles(ids, tiles), "links": [[ids.link[lid], o] for lid, o in links.items()]}
            for era, (tiles, links) in state.era_boards.items()
        ],
        "action_count": state.action_count,
        "chance": ({"seed": chance.seed, "state": chance.rng.state} if isinstance(chance, SeededChance) else None),
    }


def to_core(state: GameState) -> Any:
    """The position as a core ``State`` (:class:`NotInCore` when the core does not model it)."""
    return core_module().State(core_rules(state.rules), json.dumps(encode_state(state)))


# -- actions ---------------------------------------------------------------------------------


def actions_from_json(text: str) -> list[Action]:
    """Actions from the core: a JSON list of log-format actions."""
    return [action_from_json(d) for d in json.loads(text)]


def action_to_json(action: Action) -> str:
    """An action for the core: its log-format JSON."""
    return json.dumps(action.to_json())
