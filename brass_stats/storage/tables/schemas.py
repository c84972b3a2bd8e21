"""The Arrow schemas of the eight tables: the single source of truth for their column types.

The Arrow tables, the DuckDB tables and the Parquet files are all made from :data:`SCHEMAS`; the
columns are documented in ``docs/storage-schema.md``.
"""

from __future__ import annotations

import pyarrow as pa

from ...rules_data import ALL_INDUSTRIES

I32 = pa.int32()
STR = pa.string()
BOOL = pa.bool_()

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("edition", STR),
        ("player_count", I32),
        ("source_file", STR),
        ("source_kind", STR),
        ("played_at", pa.timestamp("us", tz="UTC")),
        ("format_version", I32),
        ("seed", STR),
        ("declared_result", STR),
        ("replayed_result", STR),
        ("winner", STR),
        ("n_actions", I32),
        ("n_rounds", I32),
        ("imported_at", pa.timestamp("us", tz="UTC")),
        ("source_game_id", STR),
        ("declared_result_matches", BOOL),
        ("result_differences", STR),
        ("n_deviations", I32),
    ]
)

PLAYERS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("seat", I32),
        ("name", STR),
        ("player_kind", STR),
        ("final_vp", I32),
        ("final_income_level", I32),
        ("final_money", I32),
        ("rank", I32),
        ("start_turn_position", I32),
        ("canal_era_vp", I32),
        ("loans", I32),
    ]
)

ACTIONS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("turn_position", I32),
        ("seat", I32),
        ("action_type", STR),
        ("end_of_turn", BOOL),
        ("card", STR),
        ("locations", pa.list_(STR)),
        ("industry", STR),
        ("level", I32),
        ("money_spent", I32),
        ("coal_from_own", I32),
        ("coal_from_opponents", I32),
        ("coal_from_market", I32),
        ("iron_from_own", I32),
        ("iron_from_opponents", I32),
        ("iron_from_market", I32),
        ("beer_from_own", I32),
        ("beer_from_opponents", I32),
        ("beer_from_merchant", I32),
        ("resource_sources", STR),
        ("action_json", STR),
    ]
)

EFFECTS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("effect_index", I32),
        ("actor", I32),
        ("kind", STR),
        ("seat", I32),
        ("amount", I32),
        ("cause", STR),
        ("detail", STR),
    ]
)

TURN_SNAPSHOTS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("turn_position", I32),
        ("actor", I32),
        ("end_of_turn", BOOL),
        ("seat", I32),
        ("order_position", I32),
        ("money", I32),
        ("income_space", I32),
        ("income_level", I32),
        ("vp", I32),
        ("potential_link_vp", I32),
        ("potential_tile_vp", I32),
        ("loans", I32),
        ("cards_in_hand", I32),
        ("tiles_on_board", I32),
        *[(f"tiles_{ind}", I32) for ind in ALL_INDUSTRIES],
        ("flipped_tiles", I32),
        ("tiles_by_level", STR),
        ("links_on_board", I32),
        ("spent_this_round", I32),
    ]
)

ERA_SCORES_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("era", STR),
        ("seat", I32),
        ("link_vp", I32),
        *[(f"tile_vp_{ind}", I32) for ind in ALL_INDUSTRIES],
        ("tile_vp", I32),
        ("merchant_bonus_vp", I32),
        ("shortfall_vp_lost", I32),
        ("cash_vp", I32),
        ("introductory_vp", I32),
        ("vp_gained_in_era", I32),
        ("vp_at_era_end", I32),
        ("links_scored", I32),
        ("tiles_scored", I32),
    ]
)

BOARD_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("era", STR),
        ("round", I32),
        ("era_round", I32),
        ("action_index", I32),
        ("before_scoring", BOOL),
        ("piece", STR),
        ("location", STR),
        ("slot", I32),
        ("link_id", STR),
        ("owner", I32),
        ("industry", STR),
        ("level", I32),
        ("flipped", BOOL),
        ("resources", I32),
        ("vp_if_scored", I32),
    ]
)

DEVIATIONS_SCHEMA = pa.schema(
    [
        ("game_id", STR),
        ("action_index", I32),
        ("seat", I32),
        ("rule", STR),
        ("message", STR),
    ]
)

SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "players": PLAYERS_SCHEMA,
    "actions": ACTIONS_SCHEMA,
    "effects": EFFECTS_SCHEMA,
    "turn_snapshots": TURN_SNAPSHOTS_SCHEMA,
    "era_scores": ERA_SCORES_SCHEMA,
    "board": BOARD_SCHEMA,
    "deviations": DEVIATIONS_SCHEMA,
}
"""Table name -> Arrow schema, in the order the tables are written (``games`` first)."""

ERAS = ("canal", "rail")
