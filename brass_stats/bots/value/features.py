"""What the win-probability model sees of a position: public facts, one row per seat.

Every feature is public (the board, the tracks, money, loans, cards *counts*): never a card in a hand
or the deck order, so two positions that differ only in hidden cards get the same probabilities. The
greedy bot's evaluation terms (:func:`brass_stats.bots.greedy.explain` without the hand) carry most of
the signal; the rest places the seat against its opponents and the game clock.

>>> import brass_stats as bs
>>> r = bs.replay(bs.load(bs.SAMPLES / "real" / "wq9gs6-2p.json"))
>>> rows = position_features(r.state_at(30))
>>> rows.shape == (2, len(FEATURE_NAMES))
True
"""

from __future__ import annotations

import numpy as np

from ...engine.state import GameState
from ..greedy import explain

TERMS = ("vp", "pending", "rescoring", "unflipped", "link_growth", "reach", "money", "income", "risk", "mat")
"""The greedy evaluation's terms (estimated final VP by source), in feature order."""

FEATURE_NAMES: tuple[str, ...] = (
    "players",
    "lancashire",
    "rail_era",
    "progress",  # GameState.progress()
    *(f"own_{t}" for t in TERMS),
    "own_estimate",
    "lead_estimate",  # own estimate minus the best opponent's
    "mean_gap_estimate",  # own estimate minus the opponents' mean
    "rank_estimate",  # 0: best estimate; ties share the better rank
    "lead_vp",
    "own_income_level",
    "lead_income_level",
    "own_money_raw",
    "own_loans",
    "own_tiles_left",
    "own_links_left",
    "own_cards",
    "seat_to_move",  # 1 when this seat moves next
)


def position_features(state: GameState) -> np.ndarray:
    """One row of :data:`FEATURE_NAMES` per seat (float64, seats in order)."""
    n = state.num_players
    terms = [explain(state, s, include_hand=False) for s in range(n)]
    estimates = [sum(t.values()) for t in terms]
    vps = [p.vp for p in state.players]
    incomes = [state.income_level(s) for s in range(n)]
    clock = state.progress()
    rail = 1.0 if state.era == "rail" else 0.0
    lanc = 1.0 if state.rules.edition == "lancashire" else 0.0
    mover = state.current_player
    rows = np.empty((n, len(FEATURE_NAMES)))
    for s in range(n):
        others = [estimates[o] for o in range(n) if o != s]
        p = state.players[s]
        rows[s] = (
            n,
            lanc,
            rail,
            clock,
            *(terms[s].get(t, 0.0) for t in TERMS),
            estimates[s],
            estimates[s] - max(others),
            estimates[s] - sum(others) / len(others),
            sum(1 for e in others if e > estimates[s]),
            vps[s] - max(vps[o] for o in range(n) if o != s),
            incomes[s],
            incomes[s] - max(incomes[o] for o in range(n) if o != s),
            p.money,
            p.loans,
            p.tiles_left,
            p.link_tiles,
            len(p.hand),
            1.0 if mover == s else 0.0,
        )
    return rows
