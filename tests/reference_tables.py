"""The row-by-row table builders as they were before the column rewrite (issue 15), kept as the
reference the fast builders in ``brass_stats/storage/tables/`` are compared with
(``tests/test_tables_equivalence.py``): same rows, same values, for every sample game.

Only the tables the rewrite touched are here (actions, effects, turn snapshots, era scores, board).
"""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from brass_stats.engine.actions import Build, Develop, Network, Scout, Sell, Shortfall
from brass_stats.engine.state import Effect, GameState, Tile
from brass_stats.replay import Replay, Step
from brass_stats.rules_data import ALL_INDUSTRIES, RulesData
from brass_stats.storage.tables import ERAS

# -- helpers ---------------------------------------------------------------------------


def _json(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _loc(ref: str) -> str:
    return ref.split(":", 1)[0]


def _location_link_values(rules: RulesData, tiles: dict[str, Tile]) -> dict[str, int]:
    """Link icons per location on a board: printed (merchants) plus flipped tiles, as scoring.location_link_value."""
    extra: Counter[str] = Counter()
    for ref, t in tiles.items():
        if t.flipped:
            extra[_loc(ref)] += rules.level(t.industry, t.level).link_vp
    return {loc: info.printed_link_vp + extra[loc] for loc, info in rules.locations.items()}


def _link_value(rules: RulesData, values: dict[str, int], link_id: str) -> int:
    return sum(values[loc] for loc in rules.links[link_id].connects)


def _potential_link_vp(state: GameState) -> Counter[int]:
    """Per seat, the link VP scored if the era ended now (``potential_vp``'s first part, for every seat at once)."""
    if state.game_over:
        return Counter()
    values = _location_link_values(state.rules, state.tiles)
    out: Counter[int] = Counter()
    for link_id, owner in state.links.items():
        out[owner] += _link_value(state.rules, values, link_id)
    return out


def _ends_round(step: Step, state: GameState) -> bool:
    return state.game_over or state.round != step.round


def _states_before(replay: Replay) -> list[GameState]:
    return [replay.initial] + [s.state for s in replay.steps[:-1]]  # type: ignore[misc]


def reference_rows(replay: Replay, gid: str) -> dict[str, list[dict[str, Any]]]:
    """The rows of the tables the rewrite touched, built the old way."""
    return {
        "actions": _actions(replay, gid),
        "effects": _effects(replay, gid),
        "turn_snapshots": _snapshots(replay, gid),
        "era_scores": _era_scores(replay, gid),
        "board": _board(replay, gid),
    }


def _resource_sources(effects: Iterable[Effect], actor: int) -> list[dict[str, Any]]:
    out = []
    for e in effects:
        if e.kind in ("coal_used", "iron_used", "beer_used") and e.seat == actor:
            out.append({"resource": e.kind[:-5], "source": e.detail["source"], "owner": e.detail.get("owner")})
    return out


def _action_row(gid: str, step: Step, before: GameState, after: GameState) -> dict[str, Any]:
    a = step.action
    seat = a.player
    rules = after.rules
    card: str | None = getattr(a, "card", None) or None
    locations: list[str] = []
    industry: str | None = None
    level: int | None = None
    if isinstance(a, Scout):
        card = ",".join(a.discards)
    elif isinstance(a, Build):
        locations = [a.location]
        industry = a.industry
        level = next((e.detail["level"] for e in step.effects if e.kind == "build"), None)
    elif isinstance(a, Network):
        for link in a.links:
            locations.extend(rules.links[link].endpoints)
    elif isinstance(a, Develop):
        industry = "+".join(a.industries)
    elif isinstance(a, Sell):
        locations = [_loc(s.tile) for s in a.sales]
        industry = "+".join(before.tiles[s.tile].industry for s in a.sales)
    elif isinstance(a, Shortfall):
        locations = [_loc(t) for t in a.tiles or ()]
    locations = list(dict.fromkeys(locations))
    sources = _resource_sources(step.effects, seat)
    counts: Counter[str] = Counter()
    for s in sources:
        src = s["source"]
        where = src if src in ("market", "merchant") else "own" if s["owner"] == seat else "opponents"
        counts[f"{s['resource']}_from_{where}"] += 1
    spent = -sum(
        e.amount for e in step.effects if e.kind == "money" and e.seat == seat and e.amount < 0 and e.cause != "income"
    )
    row: dict[str, Any] = {
        "game_id": gid,
        "action_index": step.index,
        "era": step.era,
        "round": step.round,
        "era_round": step.era_round,
        "turn_position": step.turn_position,
        "seat": seat,
        "action_type": a.TYPE,
        "end_of_turn": after.actions_this_turn == 0,
        "card": card,
        "locations": locations,
        "industry": industry,
        "level": level,
        "money_spent": spent,
        "resource_sources": _json(sources),
        "action_json": json.dumps(a.to_json(), ensure_ascii=False, separators=(",", ":")),
    }
    for res, places in (("coal", ("own", "opponents", "market")), ("iron", ("own", "opponents", "market"))):
        for p in places:
            row[f"{res}_from_{p}"] = counts[f"{res}_from_{p}"]
    for p in ("own", "opponents", "merchant"):
        row[f"beer_from_{p}"] = counts[f"beer_from_{p}"]
    return row


def _actions(replay: Replay, gid: str) -> list[dict[str, Any]]:
    befores = _states_before(replay)
    return [_action_row(gid, s, b, s.state) for s, b in zip(replay.steps, befores, strict=True)]  # type: ignore[arg-type]


def _effects(replay: Replay, gid: str) -> list[dict[str, Any]]:
    return [
        {
            "game_id": gid,
            "action_index": s.index,
            "effect_index": i,
            "actor": s.action.player,
            "kind": e.kind,
            "seat": e.seat,
            "amount": e.amount,
            "cause": e.cause,
            "detail": _json(e.detail),
        }
        for s in replay.steps
        for i, e in enumerate(s.effects)
    ]


def _is_spending(e: Effect) -> bool:
    """Money paid to the bank by an action (the Character-tile amount): not income, never a gain."""
    return e.kind == "money" and e.amount < 0 and e.cause != "income"


def _board_stats(state: GameState) -> dict[int, dict[str, Any]]:
    """Per seat, the snapshot columns that depend only on the board."""
    rules = state.rules
    per_seat: dict[int, list[Tile]] = {p.seat: [] for p in state.players}
    for t in state.tiles.values():
        per_seat[t.owner].append(t)
    links = Counter(state.links.values())
    link_vp = _potential_link_vp(state)
    out = {}
    for seat, tiles in per_seat.items():
        by_ind = Counter(t.industry for t in tiles)
        by_level: dict[str, dict[str, int]] = {}
        for t in tiles:
            lv = by_level.setdefault(t.industry, {})
            lv[str(t.level)] = lv.get(str(t.level), 0) + 1
        flipped = [t for t in tiles if t.flipped]
        stats: dict[str, Any] = {
            "potential_link_vp": link_vp[seat],
            "potential_tile_vp": 0 if state.game_over else sum(rules.level(t.industry, t.level).vp for t in flipped),
            "tiles_on_board": len(tiles),
        }
        for ind in ALL_INDUSTRIES:
            stats[f"tiles_{ind}"] = by_ind[ind]
        stats["flipped_tiles"] = len(flipped)
        stats["tiles_by_level"] = _json(by_level)
        stats["links_on_board"] = links[seat]
        out[seat] = stats
    return out


def _snapshots(replay: Replay, gid: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    spent: dict[int, int] = defaultdict(int)
    spent_round = None
    befores = _states_before(replay)
    # every change to tiles or links goes through touch_board(), which bumps board_version
    board_cache: dict[tuple[int, bool], dict[int, dict[str, Any]]] = {}
    for step, before in zip(replay.steps, befores, strict=True):
        st = step.state
        assert st is not None
        if step.round != spent_round:
            spent.clear()
            spent_round = step.round
        for e in step.effects:
            if _is_spending(e):
                spent[e.seat] -= e.amount
        key = (st.board_version, st.game_over)
        board = board_cache.get(key)
        if board is None:
            board = board_cache[key] = _board_stats(st)
        end_of_turn = st.actions_this_turn == 0
        for p in st.players:
            row: dict[str, Any] = {
                "game_id": gid,
                "action_index": step.index,
                "era": step.era,
                "round": step.round,
                "era_round": step.era_round,
                "turn_position": step.turn_position,
                "actor": step.action.player,
                "end_of_turn": end_of_turn,
                "seat": p.seat,
                "order_position": before.turn_order.index(p.seat),
                "money": p.money,
                "income_space": p.income_space,
                "income_level": st.income_level(p.seat),
                "vp": p.vp,
                "loans": p.loans,
                "cards_in_hand": len(p.hand),
                "spent_this_round": spent[p.seat],
                **board[p.seat],
            }
            out.append(row)
    return out


def _era_scores(replay: Replay, gid: str) -> list[dict[str, Any]]:
    n = replay.initial.num_players
    acc: dict[tuple[str, int], Counter[str]] = {(era, seat): Counter() for era in ERAS for seat in range(n)}
    vp_end: dict[tuple[str, int], int] = {}
    for step in replay.steps:
        for e in step.effects:
            if e.kind != "vp":
                continue
            c = acc[(step.era, e.seat)]
            c["vp_gained_in_era"] += e.amount
            if e.cause.endswith("_era_scoring"):
                if e.detail.get("source") == "link":
                    c["link_vp"] += e.amount
                    c["links_scored"] += 1
                else:
                    c[f"tile_vp_{e.detail['industry']}"] += e.amount
                    c["tile_vp"] += e.amount
                    c["tiles_scored"] += 1
            elif e.cause.startswith("merchant_bonus:"):
                c["merchant_bonus_vp"] += e.amount
            elif e.cause == "shortfall":
                c["shortfall_vp_lost"] -= e.amount
            elif e.cause == "cash_scoring":
                c["cash_vp"] += e.amount
            elif e.cause == "introductory_scoring":
                c["introductory_vp"] += e.amount
        assert step.state is not None
        if step.state.era != step.era or step.state.game_over:
            for p in step.state.players:
                vp_end[(step.era, p.seat)] = p.vp
    keys = [
        "link_vp",
        *[f"tile_vp_{ind}" for ind in ALL_INDUSTRIES],
        "tile_vp",
        "merchant_bonus_vp",
        "shortfall_vp_lost",
        "cash_vp",
        "introductory_vp",
        "vp_gained_in_era",
        "links_scored",
        "tiles_scored",
    ]
    rows = []
    for (era, seat), c in acc.items():
        row: dict[str, Any] = {"game_id": gid, "era": era, "seat": seat, "vp_at_era_end": vp_end.get((era, seat))}
        row.update({k: c[k] for k in keys})
        rows.append(row)
    return rows


def _board(replay: Replay, gid: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for step in replay.steps:
        st = step.state
        assert st is not None
        if not _ends_round(step, st):
            continue
        era_end = st.game_over or st.era != step.era
        tiles, links = st.era_boards[step.era] if era_end else (st.tiles, st.links)
        rules = st.rules
        values = _location_link_values(rules, tiles)
        base = {
            "game_id": gid,
            "era": step.era,
            "round": step.round,
            "era_round": step.era_round,
            "action_index": step.index,
            "before_scoring": era_end,
        }
        for ref in sorted(tiles, key=lambda r: (_loc(r), int(r.split(":", 1)[1]))):
            t = tiles[ref]
            loc, _, slot = ref.partition(":")
            info = rules.level(t.industry, t.level)
            rows.append(
                base
                | {
                    "piece": "tile",
                    "location": loc,
                    "slot": int(slot),
                    "link_id": None,
                    "owner": t.owner,
                    "industry": t.industry,
                    "level": t.level,
                    "flipped": t.flipped,
                    "resources": t.resources,
                    "vp_if_scored": info.vp if t.flipped else 0,
                }
            )
        for link_id in sorted(links):
            rows.append(
                base
                | {
                    "piece": "link",
                    "location": None,
                    "slot": None,
                    "link_id": link_id,
                    "owner": links[link_id],
                    "industry": None,
                    "level": None,
                    "flipped": None,
                    "resources": None,
                    "vp_if_scored": _link_value(rules, values, link_id),
                }
            )
    return rows
