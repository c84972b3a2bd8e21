"""Fast twin of :func:`~brass_stats.bots.greedy.evaluation.evaluate` (held equal by tests/test_greedy_evaluator.py).

The bot (:mod:`~brass_stats.bots.greedy.bot`) applies each group's representative
with :func:`~brass_stats.engine.turn.apply_action` and scores it with an
:class:`Evaluator` made once per decision. It gives exactly the float
:func:`~brass_stats.bots.greedy.evaluation.evaluate` gives, but
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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.sell_cotton import market_closed
from ...engine.state import GameState
from .board_facts import RESOURCE, SELL_FIXED, SELL_MERCHANT, BoardFacts, TileFacts
from .evaluation import blocked_in_mat, blocked_run, level_at, resource_demand
from .weights import DEFAULT_WEIGHTS, Weights


class Evaluator:
    """:func:`evaluate` (without the hand term) of ``base`` and of states reached from it by
    :func:`~brass_stats.engine.turn.apply_action`: the states one decision compares.

    One is made per decision: :func:`resource_demand` is taken from ``base`` (as
    :meth:`GreedyBot.choose` always did), and a state whose ``board_version`` is still the base's
    (a develop, a loan, a pass, a scout, a sale that flips nothing...) reuses the base's
    :class:`BoardFacts`, computed once per seat; any other state gets its own. Only states reached
    from ``base`` may be given (the board version is a counter, comparable within one line of
    play). ``value(s, seat)`` equals ``evaluate(s, seat, w, include_hand=False,
    demand=resource_demand(base, w))`` exactly (``tests/test_greedy_evaluator.py`` checks it on the sample games).
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
                    ind: blocked_run(probe.rules, probe.era, ind, counts) for ind, counts in base_mat.items()
                }
            developed: dict[str, list[int]] = {}
            for industry in industries:
                counts = developed.get(industry) or list(base_mat[industry])
                counts[next(i for i, n in enumerate(counts) if n)] -= 1
                developed[industry] = counts
            blocked = sum(runs.values())
            for industry, counts in developed.items():
                blocked += blocked_run(probe.rules, probe.era, industry, counts) - runs[industry]
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
            return blocked_in_mat(state.rules, state.era, mat)
        blocked = self._blocked.get(seat)
        if blocked is None:
            blocked = self._blocked[seat] = blocked_in_mat(state.rules, state.era, mat)
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
            if kind == RESOURCE:
                crowd, isolated = data
                p_flip = cube ** tiles[ref].resources * all_era * self.demand
                p_flip *= crowd
                if isolated:
                    p_flip *= w.isolated_coal
            else:
                if kind == SELL_FIXED:
                    p_sell = data
                elif kind == SELL_MERCHANT:
                    p_sell = self._p_sell_merchant(state, seat, facts, data)
                else:  # SELL_MARKET
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
        income = w.money * w.income * level_at(rules.income_levels, expected_space) * discounted
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
