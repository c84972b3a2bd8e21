"""Hand-built corpora with known answers: a few rows per table, written straight into a DuckDB store.

Each game is described by the final VP of its seats; ranks follow the VP (equal VP share a rank).
Only the columns the corpus statistics read are filled; the others stay NULL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pandas as pd

from brass_stats.storage import Store


@dataclass
class Game:
    vp: list[int]
    edition: str = "birmingham"
    source_kind: str = "generated"
    kinds: list[str] | None = None  # player_kind per seat (default: bot for generated, human for real)
    played_at: datetime | None = None
    turn_order: list[int] | None = None  # seats in first-round turn order (default: by seat)
    # per seat: (canal era, rail era) VP scored, each {"link": VP, industry: tile VP, ...}
    scores: list[tuple[dict[str, int], dict[str, int]]] | None = None
    # per seat: the metric per round (income level; VP and money get the same values + 100 / + 0)
    income: list[list[int]] | None = None
    # per seat: (action_type, industry) in order
    actions: list[list[tuple[str, str | None]]] | None = None
    game_id: str = ""


INDUSTRIES = ("cotton_mill", "coal_mine", "iron_works", "manufacturer", "pottery", "brewery", "port", "shipyard")


def ranks(vp: list[int]) -> list[int]:
    return [1 + sum(1 for w in vp if w > v) for v in vp]


def build(path: Path, games: list[Game]) -> Path:
    """Write ``games`` into a new DuckDB store at ``path``."""
    rows: dict[str, list[dict[str, object]]] = {t: [] for t in ("games", "players", "era_scores", "turn_snapshots")}
    rows["actions"] = []
    for i, g in enumerate(games):
        gid = g.game_id or f"g{i:03d}"
        n = len(g.vp)
        kinds = g.kinds or ["bot" if g.source_kind == "generated" else "human"] * n
        order = g.turn_order or list(range(n))
        rows["games"].append(
            {
                "game_id": gid,
                "edition": g.edition,
                "player_count": n,
                "source_kind": g.source_kind,
                "played_at": g.played_at,
                "seed": "1",
                "winner": "",
                "n_actions": 0,
                "n_rounds": 0,
            }
        )
        for seat, (vp, rank) in enumerate(zip(g.vp, ranks(g.vp), strict=True)):
            rows["players"].append(
                {
                    "game_id": gid,
                    "seat": seat,
                    "name": f"P{seat}",
                    "player_kind": kinds[seat],
                    "final_vp": vp,
                    "final_income_level": 10,
                    "final_money": 0,
                    "rank": rank,
                    "start_turn_position": order.index(seat),
                    "loans": seat,
                }
            )
            if g.scores is not None:
                for era, vps in zip(("canal", "rail"), g.scores[seat], strict=True):
                    row: dict[str, object] = {"game_id": gid, "era": era, "seat": seat, "link_vp": vps.get("link", 0)}
                    for ind in INDUSTRIES:
                        row[f"tile_vp_{ind}"] = vps.get(ind, 0)
                    row["tile_vp"] = sum(vps.get(ind, 0) for ind in INDUSTRIES)
                    rows["era_scores"].append(row)
            if g.income is not None:
                for rnd, value in enumerate(g.income[seat], start=1):
                    rows["turn_snapshots"].append(
                        {
                            "game_id": gid,
                            "action_index": rnd * 10,
                            "era": "canal" if rnd <= len(g.income[seat]) // 2 else "rail",
                            "round": rnd,
                            "seat": seat,
                            "income_level": value,
                            "money": value,
                            "vp": value + 100,
                            "potential_link_vp": 1,
                            "potential_tile_vp": 2,
                        }
                    )
            if g.actions is not None:
                for k, (kind, industry) in enumerate(g.actions[seat]):
                    rows["actions"].append(
                        {
                            "game_id": gid,
                            "action_index": k * n + seat,
                            "seat": seat,
                            "action_type": kind,
                            "industry": industry,
                            "card": f"card-{k}",
                        }
                    )
    with Store(path) as store:
        for table, data in rows.items():
            if data:
                df = pd.DataFrame(data)
                store.con.register("_rows", df)
                store.con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _rows')
                store.con.unregister("_rows")
    return path
