"""The greedy bot's evaluation of a position, written to be read: every term in victory points.

Its fast twin is :class:`~brass_stats.bots.greedy.fast_evaluation.Evaluator` (with
:mod:`~brass_stats.bots.greedy.board_facts`), held equal by ``tests/test_greedy_evaluator.py``:
a change here is made there too.

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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.connectivity import distances_from, network, trade_locations
from ...engine.scoring import potential_vp
from ...engine.sell_cotton import market_closed
from ...engine.state import GameState
from ...rules_data import WILD_CARDS, RulesData, card_industries, card_location
from .weights import DEFAULT_WEIGHTS, Weights

_WILD_VALUE = 1.0
SCOUT_GAIN = 2 * _WILD_VALUE
"""What a scout adds to a hand's value: one wild location and one wild industry card."""
_RESOURCE_INDUSTRIES = frozenset({"coal_mine", "iron_works", "brewery"})
# a guess of the link icons an empty slot will bring (a half: sums of halves and whole numbers are
# exact in any order, which BoardFacts relies on)
EMPTY_SLOT_ICONS = 0.5


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
                pending += EMPTY_SLOT_ICONS
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
    parts["income"] = w.money * w.income * level_at(rules.income_levels, expected_space) * discounted
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


def level_at(levels: Sequence[int], space: float) -> float:
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
    return blocked_in_mat(state.rules, state.era, state.players[seat].mat)


def blocked_in_mat(rules: RulesData, era: str, mat: dict[str, tuple[int, ...]]) -> int:
    """Mat tiles in front of better ones, over every industry of a player mat (see :func:`blocked_run`)."""
    return sum(blocked_run(rules, era, ind, counts) for ind, counts in mat.items())


def blocked_run(rules: RulesData, era: str, ind: str, counts: Sequence[int]) -> int:
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
