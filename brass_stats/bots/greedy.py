"""A one-ply greedy player: try every legal action, keep the one whose result looks best.

:class:`GreedyBot` applies each legal action to a copy of the state
(:func:`~brass_stats.engine.turn.apply_action` never changes its input) and
scores the resulting position for the acting seat with :func:`evaluate`. It
picks the highest score; exact ties are broken with the ``rng`` it is given, so
a game is fully determined by its seed. :func:`explain` returns the terms.

The evaluation (every term in victory points)
----------------------------------------------

``evaluate(state, seat)`` estimates the VP the seat will finish with if play
went on "normally" from here. The weights are the fields of :class:`Weights`.

* **banked VP**: the VP track.
* **pending era score**: :func:`~brass_stats.engine.scoring.potential_vp`, the
  link and flipped-tile VP the seat would score if the era ended now (weight 1:
  a lower bound of this era's scoring).
* **Rail-Era rescoring**: in the Canal Era, flipped tiles of level 2 or more stay
  on the board and score again at the end of the Rail Era (``carry`` × VP).
* **unflipped tiles**: each own unflipped tile is worth P(flip) × (its VP plus its
  link icons times the own links touching its town); a level-2+ tile in the
  Canal Era also counts its rescoring, or its Rail-Era VP if it only flips then
  (``p_rail_later``). P(flip):

  - cotton mill, manufacturer, pottery: ``p_sell_ready`` when connected to a
    merchant that buys it with beer in reach, ``p_sell_connected`` when connected
    without beer, ``p_sell_unconnected`` otherwise; times the share of the
    seat's own actions left in the era (full from 3 actions up).
  - coal mine, iron works, brewery: ``p_cube_canal`` (or ``p_cube_rail``) to the
    power of the cubes/barrels left, times the share of everyone's actions left
    in the era (full from 8 up), times ``isolated_coal`` for a mine no link
    reaches, times ``crowding`` for each other own unflipped tile of the same
    industry counted before it (they compete for the same buyers), times
    :func:`resource_demand`: how much of the coal, iron and beer put on the
    board this game has been used, relative to ``demand_ref`` (so mines and
    breweries stop looking like income against players who never use them).

* **link growth**: own links gain VP when tiles next to them flip:
  ``link_growth`` × (link icons of unflipped tiles, ``0.5`` per empty slot) in
  the towns they touch, scaled like the resource tiles by the era's actions left.
* **reach**: ``reach`` × locations in the seat's network (where industry cards
  can build).
* **money**: ``money`` VP per £ for what the next ``near_actions`` actions could
  spend (``spend_per_action`` £ each), ``money_hoard`` VP per £ above that
  (falling to 0 as the seat's last actions run out). Money only counts for what
  it buys; at the end of the game it is worth nothing but a tie-break.
* **income**: ``money`` × ``income`` × the expected income level (the marker
  moved by ``income_delay`` × P(flip) × the income spaces of each unflipped tile)
  × the income payouts still to come, discounted by ``discount`` per round. The
  discount makes £30 now worth more than 3 income levels for the rest of the
  game early on, which is what makes a loan attractive.
* **risk**: ``risk`` × £ short if the next ``risk_rounds`` incomes at the
  current level cannot be paid, ``shortfall`` × £ short for the very next one,
  and ``negative_income`` × level² for a negative level (less near the end):
  a deep negative income is the death spiral of loans.
* **mat**: ``develop`` × tiles blocking the mat in front of better ones (a
  level-1 tile in the Rail Era, a 1-VP pottery): developing them away is
  rewarded, building through them is not penalised.
* **hand**: ``hand`` × a usefulness score of the cards kept (wild 1, a location
  card with a free slot the seat can use 0.8, an industry card it can build 0.6,
  else 0.1). It mostly decides which card to discard, and whether to scout.
* **opponents**: ``opponents`` × the best opponent's evaluation is subtracted
  (0 by default: the bot plays for its own score).

At the end of the game the evaluation is the final VP, then income level and
money as tie-breaks (the official ranking).

Tuning
------

The defaults were tuned by hand, a few dozen seeded games per change: mean VP
per player in 4-player greedy self-play, head-to-head 4-player games (a variant
in two seats, the defaults in the other two, then seats swapped), and 2-player
games against :class:`~brass_stats.bots.RandomBot`, an opponent that never uses
coal or beer and so must not lure the bot into a loan death spiral.
``benchmarks/bench_bots.py`` measures strength and speed.

Speed
-----

Actions that differ only in the discarded card lead to the same board, so the
board is evaluated once per such group and only the hand term is recomputed per
card (about 20-60 evaluations per decision instead of 150-500); the group key is
the action's fields but its cards (``operator.attrgetter``, not
``dataclasses.replace``). When a turn offers more than ``sell_cap`` different
Sell actions, only the ``sell_cap`` that flip the most tiles (then the most VP)
are evaluated. The bot only ever returns an element of the ``legal_actions`` it
was given.

Each group's representative is applied with
:func:`~brass_stats.engine.turn.apply_action` and scored by an :class:`Evaluator`
made once per decision. It gives exactly the float :func:`evaluate` gives, but
reads everything that depends on the board alone (pending VP, rescoring, link
growth, reach, and per own unflipped tile: its worth, its crowding, whether a
link reaches it, which merchants it is connected to) from :class:`BoardFacts`.
Those of the state to move are computed once per seat; a loan, a pass, a scout,
and a develop or a sale that flips no tile leave the board version unchanged and
reuse them; any other result derives its own from them, looking only at the
tiles that are not the same objects any more (the engine replaces a tile it
changes) and at the links added (:class:`TileFacts`, :class:`LinkFacts`).
Connectivity is one labelling of the link components rather than one
breadth-first search per tile.

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
import itertools
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Develop, Network, Scout, Sell
from ..engine.board import distances_from, network, trade_locations
from ..engine.scoring import potential_vp
from ..engine.sell_cotton import market_closed
from ..engine.state import GameState, Tile
from ..engine.turn import apply_action
from ..rules_data import WILD_CARDS, IndustryLevel, Location, RulesData, card_industries, card_location


@dataclass(frozen=True)
class Weights:
    """Tunable parameters of :func:`evaluate` (see the module docstring): VP weights, probabilities, counts."""

    money: float = 0.35
    money_hoard: float = 0.1
    spend_per_action: float = 10.0
    near_actions: float = 4.0
    income: float = 1.0
    discount: float = 0.92
    carry: float = 1.0
    p_sell_ready: float = 0.9
    p_sell_connected: float = 0.7
    p_sell_unconnected: float = 0.35
    p_cube_canal: float = 0.45
    p_cube_rail: float = 0.95
    isolated_coal: float = 0.7
    income_delay: float = 0.5
    shortfall: float = 1.5
    risk: float = 1.0
    risk_rounds: int = 4
    negative_income: float = 0.25
    crowding: float = 0.75
    demand_ref: float = 0.55
    demand_prior: float = 6.0
    demand_min: float = 0.3
    p_rail_later: float = 0.8
    link_growth: float = 0.6
    reach: float = 0.3
    develop: float = 2.0
    hand: float = 0.3
    opponents: float = 0.0
    sell_cap: int = 40


DEFAULT_WEIGHTS = Weights()
_WILD_VALUE = 1.0
_SCOUT_GAIN = 2 * _WILD_VALUE  # a scout brings one wild location and one wild industry card
_CARD_FIELDS = ("card", "second_card")
_RESOURCE_INDUSTRIES = frozenset({"coal_mine", "iron_works", "brewery"})
# a guess of the link icons an empty slot will bring (a half: sums of halves and whole numbers are
# exact in any order, which BoardFacts relies on)
_EMPTY_SLOT_ICONS = 0.5


class GreedyBot:
    """One-ply greedy player; see the module docstring for the evaluation."""

    name = "greedy"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = state.current_player
        assert seat is not None
        w = self.weights
        groups = _group_by_board(legal_actions)
        groups = _cap_sells(state, seat, groups, w.sell_cap)
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
            if bounded and board + w.hand * (kept + (_SCOUT_GAIN if scout else 0.0)) <= best_value - 1e-9:
                continue
            cards_of = _cards_key(type(first))
            for a in variants:
                key = (scout, cards_of(a))
                hand = hands.get(key)
                if hand is None:
                    hand = hands[key] = kept - sum(values[c] for c in a.cards) + (_SCOUT_GAIN if scout else 0.0)
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


# -- grouping ---------------------------------------------------------------------


_BOARD_KEYS: dict[type, Callable[[Action], object]] = {}


def _board_key(a: Action) -> object:
    """What an action does to the board, ignoring which card(s) it discards (but not how many).

    Two actions share a key exactly when they are of the same type, discard as many cards and agree
    on every field but the cards (every Scout shares one key).
    """
    key = _BOARD_KEYS.get(type(a))
    if key is None:
        key = _BOARD_KEYS[type(a)] = _key_function(type(a))
    return key(a)


def _key_function(cls: Any) -> Callable[[Action], object]:
    """The board key of one class of action, as ``len(a.cards)`` and the other fields, without
    building the tuple of cards."""
    if issubclass(cls, Scout):
        return lambda a: ("scout",)
    fields = [f.name for f in dataclasses.fields(cls)]
    names = [n for n in fields if n not in _CARD_FIELDS]
    get = operator.attrgetter(*names)
    one = len(names) == 1
    if "second_card" in fields:  # Build: (card,) or, for a Lancashire double-action build, (card, second_card)
        second = operator.attrgetter("second_card")
        return lambda a: (cls, 1 if second(a) is None else 2, (get(a),) if one else get(a))
    if "card" in fields:
        card = operator.attrgetter("card")
        return lambda a: (cls, 1 if card(a) else 0, (get(a),) if one else get(a))
    return lambda a: (cls, 0, (get(a),) if one else get(a))  # a Shortfall discards nothing


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


def _group_by_board(actions: Sequence[Action]) -> dict[object, list[Action]]:
    groups: dict[object, list[Action]] = {}
    for a in actions:
        key = _board_key(a)
        group = groups.get(key)
        if group is None:
            groups[key] = [a]
        else:
            group.append(a)
    return groups


def _cap_sells(state: GameState, seat: int, groups: dict[object, list[Action]], cap: int) -> dict[object, list[Action]]:
    sells = [k for k, v in groups.items() if isinstance(v[0], Sell)]
    if len(sells) <= cap:
        return groups

    def merit(k: object) -> tuple[int, int]:
        a = groups[k][0]
        assert isinstance(a, Sell)
        vp = sum(state.level_info(state.tiles[s.tile]).vp for s in a.sales)
        return len(a.sales), vp

    keep = set(sorted(sells, key=merit, reverse=True)[:cap])  # sorted() is stable: ties keep list order
    return {k: v for k, v in groups.items() if not isinstance(v[0], Sell) or k in keep}


# -- evaluation -------------------------------------------------------------------


@dataclass(frozen=True)
class Horizon:
    """How much of the game is left, from one seat's point of view."""

    payouts: int  # income payouts still to come
    own_actions_era: float  # actions the seat still takes this era
    all_actions_era: float  # actions everyone still takes this era
    own_actions_game: float


def horizon(state: GameState, seat: int) -> Horizon:
    n = state.num_players
    per_era = state.rules.rounds_per_era[n]
    rounds_left = per_era - state.era_round + 1  # including the current one
    canal = state.era == "canal"
    payouts = rounds_left + per_era - 1 if canal else rounds_left - 1
    own = len(state.players[seat].hand) + len(state.deck) / n
    everyone = sum(len(p.hand) for p in state.players) + len(state.deck)
    rail_actions = 2.0 * per_era if canal else 0.0
    return Horizon(payouts, own, everyone, own + rail_actions)


def resource_demand(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> float:
    """How readily this game's players use coal, iron and beer: a factor in [demand_min, 1] on P(flip).

    The share of the cubes and barrels put on the board's tiles that have been
    used so far (with a prior of ``demand_prior`` cubes at the reference share
    ``demand_ref``), relative to ``demand_ref``, the share typical of greedy
    self-play. Against players who never use resources, mines and breweries
    stop looking like income.
    """
    produced = used = 0
    for t in state.tiles.values():
        if t.industry in _RESOURCE_INDUSTRIES:
            made = state.level_info(t).resources_on_build(state.era)
            produced += made
            used += made if t.flipped else max(0, made - t.resources)
    share = (used + w.demand_prior * w.demand_ref) / (produced + w.demand_prior)
    return max(w.demand_min, min(1.0, share / w.demand_ref))


def evaluate(
    state: GameState,
    seat: int,
    w: Weights = DEFAULT_WEIGHTS,
    include_hand: bool = True,
    demand: float | None = None,
) -> float:
    """Estimated final VP of ``seat`` from this position (see the module docstring); minus opponents if weighted.

    ``demand`` is :func:`resource_demand` (computed from ``state`` when not given).
    """
    if demand is None:
        demand = resource_demand(state, w)
    own = _evaluate_seat(state, seat, w, include_hand, demand)
    if w.opponents and not state.game_over:
        others = [_evaluate_seat(state, s, w, include_hand, demand) for s in range(state.num_players) if s != seat]
        own -= w.opponents * max(others)
    return own


def _evaluate_seat(state: GameState, seat: int, w: Weights, include_hand: bool, demand: float) -> float:
    return sum(explain(state, seat, w, include_hand, demand).values())


def explain(
    state: GameState,
    seat: int,
    w: Weights = DEFAULT_WEIGHTS,
    include_hand: bool = True,
    demand: float | None = None,
) -> dict[str, float]:
    """The terms of the evaluation of ``seat`` (without the opponents term), by name; they sum to the value."""
    p = state.players[seat]
    level = state.income_level(seat)
    if state.game_over:
        return {"vp": float(p.vp), "tie_break": 0.01 * level + 0.0001 * p.money}
    if demand is None:
        demand = resource_demand(state, w)
    rules = state.rules
    canal = state.era == "canal"
    h = horizon(state, seat)
    link_vp, tile_vp = potential_vp(state, seat)
    parts = {"vp": float(p.vp), "pending": float(link_vp + tile_vp)}

    # tiles
    own_era = min(1.0, h.own_actions_era / 3.0)
    all_era = min(1.0, h.all_actions_era / 8.0)
    expected_space = float(p.income_space)
    own_links_at: dict[str, int] = {}
    for lid, owner in state.links.items():
        if owner == seat:
            for loc in rules.links[lid].connects:
                own_links_at[loc] = own_links_at.get(loc, 0) + 1
    rescoring = unflipped = 0.0
    seen: dict[str, int] = {}  # own unflipped mines / works / breweries met so far, per industry
    for ref, t in state.tiles.items():
        if t.owner != seat:
            continue
        info = state.level_info(t)
        rescored = canal and t.level >= 2
        if t.flipped:
            if rescored:
                rescoring += w.carry * info.vp
            continue
        loc = ref.split(":", 1)[0]
        if t.industry in state.rules.sellable:
            p_flip = _p_sell(state, seat, loc, t.industry, w) * own_era
        else:
            p_flip = (w.p_cube_canal if canal else w.p_cube_rail) ** t.resources * all_era * demand
            p_flip *= w.crowding ** seen.get(t.industry, 0)  # each extra one competes for the same buyers
            seen[t.industry] = seen.get(t.industry, 0) + 1
            if t.industry == "coal_mine" and len(distances_from(state, (loc,))) == 1:  # no link reaches it
                p_flip *= w.isolated_coal
        unflipped += p_flip * (info.vp + info.link_vp * own_links_at.get(loc, 0))
        p_income = p_flip
        if rescored:  # flipped this era: scores again in the Rail Era; else it may still flip then
            later = (1.0 - p_flip) * w.p_rail_later
            unflipped += p_flip * w.carry * info.vp + later * info.vp
            p_income += 0.5 * later
        expected_space += p_income * w.income_delay * info.income_spaces
    parts["rescoring"] = rescoring
    parts["unflipped"] = unflipped

    # links: growth and reach
    growth = 0.0
    for loc, n in own_links_at.items():
        L = rules.locations[loc]
        if L.is_merchant:
            continue
        pending = 0.0
        for slot in L.slots:
            there = state.tiles.get(slot.ref)
            if there is None:
                pending += _EMPTY_SLOT_ICONS
            elif not there.flipped:
                pending += state.level_info(there).link_vp
        growth += n * pending
    parts["link_growth"] = w.link_growth * all_era * growth
    parts["reach"] = w.reach * len(network(state, seat))

    # money: what the next few actions can spend is worth more than a hoard; income is discounted
    near = w.spend_per_action * min(h.own_actions_game, w.near_actions)
    hoard = w.money_hoard * min(1.0, h.own_actions_game / w.near_actions)
    parts["money"] = w.money * min(p.money, near) + hoard * max(0.0, p.money - near)
    discounted = w.discount * (1.0 - w.discount**h.payouts) / (1.0 - w.discount)  # sum of discount**k, k=1..payouts
    parts["income"] = w.money * w.income * _level_at(rules.income_levels, expected_space) * discounted
    risk = 0.0
    soon = p.money + level * min(h.payouts, w.risk_rounds)
    if soon < 0:  # income soon cannot be paid without tiles flipping: tiles or VP will be lost
        risk += w.risk * soon
    if h.payouts and p.money + level < 0:  # the very next income cannot be paid
        risk += w.shortfall * (p.money + level)
    if level < 0:  # deep negative income is hard to climb out of
        risk -= w.negative_income * level * level * min(1.0, h.payouts / 6.0)
    parts["risk"] = risk
    parts["mat"] = -w.develop * _blocked_tiles(state, seat) * min(1.0, h.own_actions_game / 8.0)
    if include_hand:
        parts["hand"] = w.hand * hand_value(state, seat)
    return parts


# -- the same evaluation, from quantities computed once per board ----------------------------------

# kinds of own unflipped tiles in :class:`BoardFacts`
_SELL_FIXED = 0  # P(sale) is known from the board alone
_SELL_MERCHANT = 1  # Birmingham: connected to a buyer; ready if it or a brewery in reach has beer
_SELL_MARKET = 2  # Lancashire: connected to a trade location; the Distant Cotton Market may close
_RESOURCE = 3  # coal mine, iron works, brewery (and Lancashire's port): cubes / barrels left


class TileFacts:
    """What the evaluation of one seat takes from the tiles alone: placed, owned, flipped (not cubes).

    Made from scratch with one pass over the tiles, or derived from the facts of a state this one
    was reached from (:meth:`derive`) by looking only at the tiles that changed: tiles are shared
    between copies of a state and replaced, never changed, by the engine (copy on write), so a
    changed tile is one that is not the same object any more.
    """

    __slots__ = (
        "era",
        "tiles",
        "icons",
        "tile_vp",
        "rescoring",
        "own_unflipped",
        "own_locs",
        "breweries",
        "ports",
        "unflipped_icons",
        "placed",
    )

    def __init__(self, state: GameState, seat: int, w: Weights) -> None:
        rules = state.rules
        canal = state.era == "canal"
        level = rules.level
        icons: dict[str, int] = {}
        tile_vp = 0
        rescoring = 0.0
        own_unflipped: list[tuple[str, str, IndustryLevel]] = []
        own_locs: set[str] = set()
        breweries: list[tuple[str, int, str]] = []  # unflipped breweries, any owner: ref, owner, location
        ports: list[str] = []  # locations of unflipped ports (Lancashire), any owner
        unflipped_icons: dict[str, int] = {}  # link icons of unflipped tiles, per location
        placed: dict[str, int] = {}  # tiles per location
        for ref, t in state.tiles.items():
            loc = _location_of(ref)
            info = level(t.industry, t.level)
            placed[loc] = placed.get(loc, 0) + 1
            if t.flipped:
                icons[loc] = icons.get(loc, 0) + info.link_vp
                if t.owner == seat:
                    tile_vp += info.vp
                    if canal and t.level >= 2:
                        rescoring += w.carry * info.vp
            else:
                unflipped_icons[loc] = unflipped_icons.get(loc, 0) + info.link_vp
                if t.industry == "brewery":
                    breweries.append((ref, t.owner, loc))
                elif t.industry == "port":
                    ports.append(loc)
                if t.owner == seat:
                    own_unflipped.append((ref, loc, info))
            if t.owner == seat:
                own_locs.add(loc)
        self.era = state.era
        self.tiles = state.tiles
        self.icons = icons
        self.tile_vp = tile_vp
        self.rescoring = rescoring
        self.own_unflipped = own_unflipped
        self.own_locs = own_locs
        self.breweries = breweries
        self.ports = ports
        self.unflipped_icons = unflipped_icons
        self.placed = placed

    def derive(self, state: GameState, seat: int, w: Weights) -> TileFacts | None:
        """These facts updated to ``state``, reached from the state they describe by adding tiles,
        flipping tiles or taking cubes; None when it got there otherwise (a tile removed, overbuilt
        or moved, or a new era): make them from scratch then."""
        old = self.tiles
        new = state.tiles
        if state.era != self.era:
            return None
        if new is old:
            return self
        old_refs = list(old)
        new_refs = list(new)
        n = len(old_refs)
        if new_refs[:n] != old_refs:  # a tile left, or one moved to the end
            return None
        old_tiles = list(old.values())
        new_tiles = list(new.values())
        # tiles are replaced, never changed: compare identities (at C speed: most are the same)
        changed: list[tuple[str, Tile | None, Tile]] = [
            (new_refs[i], old_tiles[i], new_tiles[i])
            for i in itertools.compress(range(n), map(operator.is_not, old_tiles, new_tiles))
        ]
        for i in range(n, len(new_refs)):
            changed.append((new_refs[i], None, new_tiles[i]))
        for _, o, t in changed:
            if o is not None and (
                o.owner != t.owner or o.industry != t.industry or o.level != t.level or (o.flipped and not t.flipped)
            ):
                return None  # overbuilt (or unflipped)
        out = TileFacts.__new__(TileFacts)
        out.era = self.era
        out.tiles = new
        out.icons = self.icons
        out.tile_vp = self.tile_vp
        out.rescoring = self.rescoring
        out.own_unflipped = self.own_unflipped
        out.own_locs = self.own_locs
        out.breweries = self.breweries
        out.ports = self.ports
        out.unflipped_icons = self.unflipped_icons
        out.placed = self.placed
        rules = state.rules
        canal = state.era == "canal"
        rescored = False
        for ref, o, t in changed:
            flips = t.flipped and (o is None or not o.flipped)
            if o is not None and not flips:
                continue  # cubes or barrels taken, nothing else
            loc = _location_of(ref)
            info = rules.level(t.industry, t.level)
            if out.unflipped_icons is self.unflipped_icons:
                out.unflipped_icons = dict(self.unflipped_icons)
            if o is None:
                if out.placed is self.placed:
                    out.placed = dict(self.placed)
                out.placed[loc] = out.placed.get(loc, 0) + 1
                if not flips:
                    out.unflipped_icons[loc] = out.unflipped_icons.get(loc, 0) + info.link_vp
            else:  # flipped in place: its icons now count as flipped
                out.unflipped_icons[loc] -= info.link_vp
            own = t.owner == seat
            if flips:
                if out.icons is self.icons:
                    out.icons = dict(self.icons)
                out.icons[loc] = out.icons.get(loc, 0) + info.link_vp
                if own:
                    out.tile_vp += info.vp
                    rescored = rescored or (canal and t.level >= 2)
            if o is None:  # a new tile
                if own and loc not in out.own_locs:
                    out.own_locs = out.own_locs | {loc}
                if not flips:
                    if t.industry == "brewery":
                        out.breweries = [*out.breweries, (ref, t.owner, loc)]
                    elif t.industry == "port":
                        out.ports = [*out.ports, loc]
                    if own:
                        out.own_unflipped = [*out.own_unflipped, (ref, loc, info)]
            else:  # flipped in place
                if t.industry == "brewery":
                    out.breweries = [b for b in out.breweries if b[0] != ref]
                elif t.industry == "port":
                    out.ports = list(out.ports)
                    out.ports.remove(loc)
                if own:
                    out.own_unflipped = [u for u in out.own_unflipped if u[0] != ref]
        if rescored:  # in the board's order, like explain()
            out.rescoring = 0.0
            for t in new.values():
                if t.owner == seat and t.flipped and t.level >= 2:
                    out.rescoring += w.carry * rules.level(t.industry, t.level).vp
        return out

    def slot_icons(self, location: Location) -> float:
        """Link icons still to come at a town: unflipped tiles' icons, and a guess per empty slot
        (the slots of ``explain()`` summed in another order: halves and integers, so exactly)."""
        loc = location.id
        empty = len(location.slots) - self.placed.get(loc, 0)
        return self.unflipped_icons.get(loc, 0) + _EMPTY_SLOT_ICONS * empty


class LinkFacts:
    """What the evaluation of one seat takes from the links alone: connectivity and own links.

    ``component`` maps every linked location to a representative of its connected component (an
    unlinked location is alone in its own), so "connected" is one comparison; :meth:`derive` merges
    the components of links added since.
    """

    __slots__ = ("links", "own_links_at", "own_ends", "component")

    def __init__(self, links: dict[str, int], rules: RulesData, seat: int) -> None:
        defs = rules.links
        own_links_at: dict[str, int] = {}
        linked: list[tuple[str, ...]] = []
        for lid, owner in links.items():
            ends = defs[lid].connects
            linked.append(ends)
            if owner == seat:
                for loc in ends:
                    own_links_at[loc] = own_links_at.get(loc, 0) + 1
        self.links = links
        self.own_links_at = own_links_at
        self.own_ends = set(own_links_at)
        self.component = _components(linked) if linked else {}

    def derive(self, new: dict[str, int], rules: RulesData, seat: int) -> LinkFacts | None:
        """These facts updated to the links ``new``: these links plus new ones (else None)."""
        old = self.links
        if new is old:
            return self
        n = len(old)
        new_ids = list(new)
        if new_ids[:n] != list(old) or list(new.values())[:n] != list(old.values()):
            return None  # links are only ever added (until an era ends)
        if len(new_ids) == n:
            return self
        added = [(lid, new[lid]) for lid in new_ids[n:]]
        defs = rules.links
        out = LinkFacts.__new__(LinkFacts)
        out.links = new
        out.own_links_at = self.own_links_at
        out.own_ends = self.own_ends
        component = dict(self.component)
        for lid, owner in added:
            ends = defs[lid].connects
            if owner == seat:
                if out.own_links_at is self.own_links_at:
                    out.own_links_at = dict(self.own_links_at)
                    out.own_ends = set(self.own_ends)
                for loc in ends:
                    out.own_links_at[loc] = out.own_links_at.get(loc, 0) + 1
                out.own_ends.update(ends)
            roots = {component.get(loc, loc) for loc in ends}
            root = component.get(ends[0], ends[0])
            roots.discard(root)
            if roots:
                for loc, r in component.items():
                    if r in roots:
                        component[loc] = root
            for loc in ends:
                component[loc] = root
        out.component = component
        return out


class BoardFacts:
    """What :func:`explain` takes from the board alone (links, tiles placed and flipped), for one seat.

    A board changes only through :meth:`~brass_stats.engine.state.GameState.touch_board`, which
    bumps ``board_version``; two states with the same ``board_version``, one copied from the
    other, hold the same links and the same tiles, flipped alike (the cubes and barrels on the
    tiles, the merchants' beer and everything off the board may differ: those are read from the
    state each time). It combines :class:`TileFacts` and :class:`LinkFacts`. Every float is
    accumulated in the order :func:`explain` uses (or is a sum of halves, exact in any order), so
    :meth:`Evaluator.value` gives exactly the same number.
    """

    __slots__ = ("pending", "rescoring", "growth", "reach", "tiles", "breweries", "tile_facts", "link_facts")

    def __init__(
        self,
        state: GameState,
        seat: int,
        w: Weights,
        tile_facts: TileFacts | None = None,
        link_facts: LinkFacts | None = None,
    ) -> None:
        rules = state.rules
        tf = self.tile_facts = tile_facts or TileFacts(state, seat, w)
        lf = self.link_facts = link_facts or LinkFacts(state.links, rules, seat)
        component = lf.component
        own_links_at = lf.own_links_at
        locations = rules.locations
        icons = tf.icons
        link_vp = 0
        growth = 0.0  # a sum of halves: exact in any order
        for loc, n in own_links_at.items():
            L = locations[loc]
            link_vp += n * (L.printed_link_vp + icons.get(loc, 0))
            if L.kind != "merchant":
                growth += n * tf.slot_icons(L)
        self.growth = growth
        self.pending = float(link_vp + tf.tile_vp)
        self.rescoring = tf.rescoring
        self.reach = len(tf.own_locs | lf.own_ends)
        self.breweries = [(ref, owner, component.get(loc, loc)) for ref, owner, loc in tf.breweries]

        dcm = bool(rules.dcm_track)
        if dcm:
            ports = {component.get(loc, loc) for loc in tf.ports}
            trade_components = {component.get(x, x) for x in trade_locations(state)}
        seen: dict[str, int] = {}
        tiles: list[tuple[Any, ...]] = []
        canal = state.era == "canal"
        for ref, loc, info in tf.own_unflipped:
            industry = info.industry
            here = component.get(loc, loc)
            kind: int
            data: Any
            if industry in rules.sellable:
                if dcm:
                    if here in ports:
                        kind, data = _SELL_FIXED, w.p_sell_ready
                    elif here in trade_components:
                        kind, data = _SELL_MARKET, None
                    else:
                        kind, data = _SELL_FIXED, w.p_sell_unconnected
                else:
                    buyers = tuple(
                        i
                        for i, ms in enumerate(state.merchant_spaces)
                        if industry in ms.accepts and component.get(ms.location, ms.location) == here
                    )
                    if buyers:
                        kind, data = _SELL_MERCHANT, (buyers, here)
                    else:
                        kind, data = _SELL_FIXED, w.p_sell_unconnected
            else:
                crowd = w.crowding ** seen.get(industry, 0)
                seen[industry] = seen.get(industry, 0) + 1
                isolated = industry == "coal_mine" and loc not in component  # no link reaches it
                kind, data = _RESOURCE, (crowd, isolated)
            worth = info.vp + info.link_vp * own_links_at.get(loc, 0)
            tiles.append((ref, kind, data, worth, canal and info.level >= 2, info.vp, info.income_spaces))
        self.tiles = tiles

    def derive(
        self,
        state: GameState,
        seat: int,
        w: Weights,
        links: dict[str, int] | None = None,
        tile_facts: TileFacts | None = None,
    ) -> BoardFacts:
        """The facts of ``state`` (with ``links`` instead of its own, if given), reached from the state
        these describe: derived where it can be (``tile_facts``: those of ``state``, if known)."""
        tf = tile_facts or self.tile_facts.derive(state, seat, w)
        if links is None:
            links = state.links
        lf = self.link_facts.derive(links, state.rules, seat) or LinkFacts(links, state.rules, seat)
        return BoardFacts(state, seat, w, tf, lf)


_LOCATION_OF: dict[str, str] = {}


def _location_of(ref: str) -> str:
    """The location of a slot reference ``"<location>:<slot>"`` (memoised: there are few)."""
    loc = _LOCATION_OF.get(ref)
    if loc is None:
        loc = _LOCATION_OF[ref] = ref.split(":", 1)[0]
    return loc


def _components(linked: Sequence[tuple[str, ...]]) -> dict[str, str]:
    """Every linked location -> one representative location of its connected component."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for ends in linked:
        for loc in ends:
            parent.setdefault(loc, loc)
        first = root(ends[0])
        for loc in ends[1:]:
            other = root(loc)
            if other != first:
                parent[other] = first
    return {loc: root(loc) for loc in parent}


class Evaluator:
    """:func:`evaluate` (without the hand term) of ``base`` and of states reached from it by
    :func:`~brass_stats.engine.turn.apply_action`: the states one decision compares.

    One is made per decision: :func:`resource_demand` is taken from ``base`` (as
    :meth:`GreedyBot.choose` always did), and a state whose ``board_version`` is still the base's
    (a develop, a loan, a pass, a scout, a sale that flips nothing...) reuses the base's
    :class:`BoardFacts`, computed once per seat; any other state gets its own. Only states reached
    from ``base`` may be given (the board version is a counter, comparable within one line of
    play). ``value(s, seat)`` equals ``evaluate(s, seat, w, include_hand=False,
    demand=resource_demand(base, w))`` exactly (``tests/test_bots.py`` checks it on the sample games).
    """

    def __init__(self, base: GameState, w: Weights = DEFAULT_WEIGHTS) -> None:
        self.base = base
        self.w = w
        self.demand = resource_demand(base, w)
        self._base_facts: dict[int, BoardFacts] = {}
        self._blocked: dict[int, int] = {}  # per seat, for the base's mat
        self._probe_tiles: dict[int, tuple[GameState, int, TileFacts]] = {}
        self._runs: dict[tuple[int, str], dict[str, int]] = {}  # blocked tiles per industry of a base mat
        self._probes: dict[int, tuple[GameState, int, list[float], float | None, float | None]] = {}

    def facts(self, state: GameState, seat: int, links: dict[str, int] | None = None) -> BoardFacts:
        """The seat's board facts, shared with the base state's when the board has not changed since."""
        if links is None and state.board_version == self.base.board_version:
            facts = self._base_facts.get(seat)
            if facts is None:
                facts = self._base_facts[seat] = BoardFacts(self.base, seat, self.w)
            return facts
        base = self._base_facts.get(seat)
        if base is None:
            base = self._base_facts[seat] = BoardFacts(self.base, seat, self.w)
        if links is None:
            return base.derive(state, seat, self.w)
        # Networks scored from one result share its tiles: derive them once
        entry = self._probe_tiles.get(id(state))
        if entry is None or entry[0] is not state or entry[1] != seat:
            tf = base.tile_facts.derive(state, seat, self.w) or TileFacts(state, seat, self.w)
            entry = self._probe_tiles[id(state)] = (state, seat, tf)
        return base.derive(state, seat, self.w, links, entry[2])

    def value(self, state: GameState, seat: int, links: dict[str, int] | None = None) -> float:
        """``evaluate(state, seat, w, include_hand=False, demand=resource_demand(base, w))``.

        With ``links``: the value of ``state`` with these links instead of its own (see
        :func:`board_values`: a Network with the same coal and beer sources as the one that led to
        ``state``, but other links).
        """
        w = self.w
        own = self._seat_value(state, seat, links)
        if w.opponents and not state.game_over:
            others = [self._seat_value(state, s, links) for s in range(state.num_players) if s != seat]
            own -= w.opponents * max(others)
        return own

    def develop_value(self, probe: GameState, seat: int, industries: Sequence[str]) -> float:
        """:meth:`value` of the state a Develop of ``industries`` by ``seat`` leads to from ``base``.

        ``probe`` is the state another Develop by the seat with the same stated iron sources led
        to. The engine reads a player's mat only to build and develop, and a Develop's iron and
        cost do not depend on the industries, so the two states differ only in the seat's mat,
        which only the mat term reads: the other terms are computed once per probe, and the mat
        is the base seat's less the lowest tile of each industry (what
        :meth:`~brass_stats.engine.state.Player.take_from_mat` does).
        """
        w = self.w
        entry = self._probes.get(id(probe))
        if entry is None or entry[0] is not probe or entry[1] != seat:
            head, factor = self._seat_parts(probe, seat)
            others = None
            if w.opponents and not probe.game_over:
                others = max(self._seat_value(probe, s) for s in range(probe.num_players) if s != seat)
            entry = self._probes[id(probe)] = (probe, seat, head, factor, others)
        _, _, head, factor, others = entry
        if factor is None:  # the game is over: the mat counts for nothing
            own = sum(head)
        else:
            # the blocked tiles of the other industries are the base's: recount the developed ones
            base_mat = self.base.players[seat].mat
            runs = self._runs.get((seat, probe.era))
            if runs is None:
                runs = self._runs[seat, probe.era] = {
                    ind: _blocked_run(probe.rules, probe.era, ind, counts) for ind, counts in base_mat.items()
                }
            developed: dict[str, list[int]] = {}
            for industry in industries:
                counts = developed.get(industry) or list(base_mat[industry])
                counts[next(i for i, n in enumerate(counts) if n)] -= 1
                developed[industry] = counts
            blocked = sum(runs.values())
            for industry, counts in developed.items():
                blocked += _blocked_run(probe.rules, probe.era, industry, counts) - runs[industry]
            own = sum([*head, -w.develop * blocked * factor])
        if others is not None:
            own -= w.opponents * others
        return own

    def _seat_value(self, state: GameState, seat: int, links: dict[str, int] | None = None) -> float:
        head, factor = self._seat_parts(state, seat, links)
        if factor is None:
            return sum(head)
        mat = -self.w.develop * self._blocked_count(state, seat) * factor
        # a list summed once, like sum(explain(...).values()): the same result on every Python
        return sum([*head, mat])

    def _blocked_count(self, state: GameState, seat: int) -> int:
        """_blocked_tiles(state, seat), computed once per seat for a mat and an era unchanged since base."""
        mat = state.players[seat].mat
        if state.era != self.base.era or mat != self.base.players[seat].mat:
            return _blocked_in_mat(state.rules, state.era, mat)
        blocked = self._blocked.get(seat)
        if blocked is None:
            blocked = self._blocked[seat] = _blocked_in_mat(state.rules, state.era, mat)
        return blocked

    def _seat_parts(
        self, state: GameState, seat: int, links: dict[str, int] | None = None
    ) -> tuple[list[float], float | None]:
        """The terms of :func:`explain` but the mat's, in its order, and the factor of the mat term
        (None once the game is over: the terms are then the VP and the tie-break)."""
        w = self.w
        rules = state.rules
        p = state.players[seat]
        level = rules.income_levels[p.income_space]
        if state.phase == "over":
            return [float(p.vp), 0.01 * level + 0.0001 * p.money], None
        facts = self.facts(state, seat, links)
        # horizon(): the same arithmetic
        n = len(state.players)
        per_era = rules.rounds_per_era[n]
        rounds_left = per_era - state.era_round + 1
        canal = state.era == "canal"
        payouts = rounds_left + per_era - 1 if canal else rounds_left - 1
        own_actions = len(p.hand) + len(state.deck) / n
        everyone = sum(len(q.hand) for q in state.players) + len(state.deck)
        own_game = own_actions + (2.0 * per_era if canal else 0.0)
        own_era = min(1.0, own_actions / 3.0)
        all_era = min(1.0, everyone / 8.0)

        expected_space = float(p.income_space)
        unflipped = 0.0
        cube = w.p_cube_canal if canal else w.p_cube_rail
        tiles = state.tiles
        for ref, kind, data, worth, rescored, vp, income_spaces in facts.tiles:
            if kind == _RESOURCE:
                crowd, isolated = data
                p_flip = cube ** tiles[ref].resources * all_era * self.demand
                p_flip *= crowd
                if isolated:
                    p_flip *= w.isolated_coal
            else:
                if kind == _SELL_FIXED:
                    p_sell = data
                elif kind == _SELL_MERCHANT:
                    p_sell = self._p_sell_merchant(state, seat, facts, data)
                else:  # _SELL_MARKET
                    p_sell = w.p_sell_unconnected if market_closed(state) else w.p_sell_connected
                p_flip = p_sell * own_era
            unflipped += p_flip * worth
            p_income = p_flip
            if rescored:
                later = (1.0 - p_flip) * w.p_rail_later
                unflipped += p_flip * w.carry * vp + later * vp
                p_income += 0.5 * later
            expected_space += p_income * w.income_delay * income_spaces

        near = w.spend_per_action * min(own_game, w.near_actions)
        hoard = w.money_hoard * min(1.0, own_game / w.near_actions)
        money = w.money * min(p.money, near) + hoard * max(0.0, p.money - near)
        discounted = w.discount * (1.0 - w.discount**payouts) / (1.0 - w.discount)
        income = w.money * w.income * _level_at(rules.income_levels, expected_space) * discounted
        risk = 0.0
        soon = p.money + level * min(payouts, w.risk_rounds)
        if soon < 0:
            risk += w.risk * soon
        if payouts and p.money + level < 0:
            risk += w.shortfall * (p.money + level)
        if level < 0:
            risk -= w.negative_income * level * level * min(1.0, payouts / 6.0)
        head = [
            float(p.vp),
            facts.pending,
            facts.rescoring,
            unflipped,
            w.link_growth * all_era * facts.growth,
            w.reach * facts.reach,
            money,
            income,
            risk,
        ]
        return head, min(1.0, own_game / 8.0)

    def _p_sell_merchant(self, state: GameState, seat: int, facts: BoardFacts, data: Any) -> float:
        """_p_sell() for a Birmingham tile connected to a buyer: ready with beer in reach."""
        w = self.w
        buyers, here = data
        spaces = state.merchant_spaces
        if any(spaces[i].beer for i in buyers):
            return w.p_sell_ready
        tiles = state.tiles
        for ref, owner, where in facts.breweries:
            if (owner == seat or where == here) and tiles[ref].resources > 0:
                return w.p_sell_ready
        return w.p_sell_connected


def _level_at(levels: Sequence[int], space: float) -> float:
    """Income level at a fractional track space (linear between spaces)."""
    top = len(levels) - 1
    space = min(max(space, 0.0), float(top))
    i = int(space)
    if i == top:
        return float(levels[top])
    frac = space - i
    return levels[i] + frac * (levels[i + 1] - levels[i])


def _p_sell(state: GameState, seat: int, loc: str, industry: str, w: Weights) -> float:
    """Chance that an unflipped cotton mill / manufacturer / pottery at ``loc`` gets sold this era."""
    dist = distances_from(state, (loc,))
    if state.rules.dcm_track:  # Lancashire: an unflipped port, or the Distant Cotton Market via a trade icon
        ports = any(
            t.industry == "port" and not t.flipped and ref.split(":", 1)[0] in dist for ref, t in state.tiles.items()
        )
        if ports:
            return w.p_sell_ready
        if any(loc_id in dist for loc_id in trade_locations(state)) and not market_closed(state):
            return w.p_sell_connected
        return w.p_sell_unconnected
    buyers = [ms for ms in state.merchant_spaces if industry in ms.accepts and ms.location in dist]
    if not buyers:
        return w.p_sell_unconnected
    if any(ms.beer for ms in buyers):
        return w.p_sell_ready
    for ref, t in state.tiles.items():
        if (
            t.industry == "brewery"
            and not t.flipped
            and t.resources > 0
            and (t.owner == seat or ref.split(":", 1)[0] in dist)
        ):
            return w.p_sell_ready
    return w.p_sell_connected


def _blocked_tiles(state: GameState, seat: int) -> int:
    """Mat tiles in front of better ones that are worth developing away."""
    return _blocked_in_mat(state.rules, state.era, state.players[seat].mat)


def _blocked_in_mat(rules: RulesData, era: str, mat: dict[str, tuple[int, ...]]) -> int:
    return sum(_blocked_run(rules, era, ind, counts) for ind, counts in mat.items())


def _blocked_run(rules: RulesData, era: str, ind: str, counts: Sequence[int]) -> int:
    """Tiles of one industry in front of a better one on the mat (0 if nothing better is behind)."""
    levels = rules.industries[ind]
    run = 0
    for i, n in enumerate(counts):
        if not n:
            continue
        info = levels[i]
        junk = (era == "rail" and not info.rail_ok) or (ind == "pottery" and info.vp <= 1)
        if not junk:
            return run
        run += n
    return 0  # nothing better behind: no reason to develop


def card_values(state: GameState, seat: int) -> dict[str, float]:
    """How useful each card is to ``seat`` now (0..1): wilds 1, others by whether they can still build something."""
    p = state.players[seat]
    rules = state.rules
    buildable = {
        ind
        for ind in rules.industries
        if (lvl := p.lowest_level(ind)) is not None and rules.level(ind, lvl).buildable_in(state.era)
    }
    out: dict[str, float] = {c: _WILD_VALUE for c in WILD_CARDS}
    for card in p.hand:
        if card in out:
            continue
        named = card_location(card)
        if named is not None:
            L = rules.locations[named]
            free = any(s.ref not in state.tiles and buildable.intersection(s.industries) for s in L.slots)
            out[card] = 0.8 if free else 0.1
        else:
            out[card] = 0.6 if buildable.intersection(card_industries(card)) else 0.1
    return out


def hand_value(state: GameState, seat: int, hand: Sequence[str] | None = None) -> float:
    """Sum of :func:`card_values` over ``hand`` (default: the seat's hand)."""
    values = card_values(state, seat)
    cards = state.players[seat].hand if hand is None else hand
    return sum(values.get(c, 0.0) for c in cards)
