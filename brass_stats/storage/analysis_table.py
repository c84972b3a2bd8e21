"""The ``analysis`` table: a stored game's review, one row per action, in a DuckDB file or a Parquet dataset.

This module owns the rows' schema (:data:`ANALYSIS_SCHEMA`, documented in ``docs/storage-schema.md``),
how a review's plain values become rows (:func:`analysis_rows`, which the analysis layer's
``brass_stats.analysis.review.review_rows`` calls with a review's actions as JSON) and how they are
written. The table is keyed by game: storing a game's analysis replaces the rows stored for that game
before, all at once (one transaction in DuckDB, one commit record in a dataset), so a game is never
analysed twice over in the table and never half replaced.

>>> import tempfile, os
>>> from brass_stats.storage import Store
>>> row = {"game_id": "00ff", "action_index": 0, "seat": 0, "judged": False, "win_after": [0.5, 0.5],
...        "simulations": 10, "seed": 0, "as_played": False}
>>> with tempfile.TemporaryDirectory() as d, Store(os.path.join(d, "g.duckdb")) as s:
...     s.replace_analysis(analysis_table([row])), s.replace_analysis(analysis_table([row])), s.count("analysis")
(1, 1, 1)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .dataset import (
    PARTITION_COLUMNS,
    DatasetWriter,
    live_files,
    new_batch_id,
    read_commits,
    table_of,
    write_batch_files,
    write_parquet_file,
)

ANALYSIS = "analysis"
ANALYSIS_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("action_index", pa.int32()),
        ("seat", pa.int32()),
        ("judged", pa.bool_()),
        ("win_after", pa.list_(pa.float64())),
        ("best", pa.string()),
        ("best_action", pa.string()),
        ("best_value", pa.float64()),
        ("played_value", pa.float64()),
        ("loss", pa.float64()),
        ("label", pa.string()),
        ("simulations", pa.int32()),
        ("seed", pa.int64()),
        ("as_played", pa.bool_()),
        ("analysed_at", pa.timestamp("us", tz="UTC")),
        ("vp_after", pa.list_(pa.float64())),
        ("loss_se", pa.float64()),
        ("win_loss", pa.float64()),
        ("sure_loss", pa.float64()),
        ("deep_loss", pa.float64()),
        ("label_loss", pa.float64()),
    ]
)
"""The columns of the ``analysis`` table (see ``docs/storage-schema.md``)."""


def analysis_rows(
    game_id: str,
    actions: Iterable[Mapping[str, Any]],
    simulations: int,
    seed: int,
    as_played: bool = False,
) -> Iterator[dict[str, Any]]:
    """One row per reviewed action of game ``game_id``: ``actions`` are the review's actions as JSON (each an
    ``ActionReview.to_json()``: ``index``, ``seat``, ``judged``, ``win_after``, ``best``, ``best_action``,
    ``best_value``, ``played_value``, ``loss``, ``label``, ``vp_after``, ``loss_se``, ``win_loss``,
    ``sure_loss``, ``deep_loss``, ``label_loss``), made
    with ``simulations`` per judged action and ``seed``; ``as_played``: the game was replayed as played.

    >>> a = {"index": 0, "seat": 1, "judged": False, "win_after": [0.4, 0.6]}
    >>> row = next(analysis_rows("00ff", [a], 10, 7))
    >>> row["action_index"], row["win_after"], row["best_action"], row["seed"]
    (0, [0.4, 0.6], None, 7)
    """
    for a in actions:
        best = a.get("best_action")
        yield {
            "game_id": game_id,
            "action_index": a["index"],
            "seat": a["seat"],
            "judged": a["judged"],
            "win_after": list(a["win_after"]),
            "best": a.get("best"),
            "best_action": None if best is None else json.dumps(best, sort_keys=True, separators=(",", ":")),
            "best_value": a.get("best_value"),
            "played_value": a.get("played_value"),
            "loss": a.get("loss"),
            "label": a.get("label"),
            "vp_after": list(a.get("vp_after") or []),
            "loss_se": a.get("loss_se"),
            "win_loss": a.get("win_loss"),
            "sure_loss": a.get("sure_loss"),
            "deep_loss": a.get("deep_loss"),
            "label_loss": a.get("label_loss"),
            "simulations": simulations,
            "seed": seed,
            "as_played": as_played,
        }


def analysis_table(rows: Iterable[Mapping[str, Any]], analysed_at: datetime | None = None) -> pa.Table:
    """Rows (dicts with the columns of :data:`ANALYSIS_SCHEMA`; ``analysed_at`` may be left out) as an Arrow
    table; a missing ``analysed_at`` is ``analysed_at`` or now."""
    when = analysed_at or datetime.now(UTC)
    names = ANALYSIS_SCHEMA.names
    filled = [{name: row.get(name) for name in names} | {"analysed_at": row.get("analysed_at") or when} for row in rows]
    return pa.Table.from_pylist(filled, schema=ANALYSIS_SCHEMA)


def game_ids(table: pa.Table) -> list[str]:
    """The games whose analysis ``table`` holds, sorted."""
    return sorted({str(g) for g in table.column("game_id").to_pylist()})


def replace_in_dataset(directory: str | Path, table: pa.Table, partitions: Mapping[str, tuple[str, int]]) -> int:
    """Store ``table`` (the analysis of some games) in the Parquet dataset ``directory``, replacing the rows
    stored there before for those games; returns how many rows were written.

    ``partitions`` gives each game's ``(edition, player_count)`` (its ``games`` row), the Hive partition of
    its rows. Files that held other games' rows too are rewritten without the replaced games; the new
    files and the old files' removal are one commit record (see :mod:`.dataset`).
    """
    root = Path(directory)
    replaced = set(game_ids(table))
    missing = sorted(replaced - set(partitions))
    if missing:
        raise ValueError(f"no edition and player count given for game(s) {', '.join(missing)}")
    with DatasetWriter(root) as writer:
        batch = new_batch_id()
        removes: list[str] = []
        files: list[str] = []
        old = [rel for rel in live_files(read_commits(root)) if table_of(rel) == ANALYSIS]
        wanted = pa.array(sorted(replaced), pa.string())
        for k, rel in enumerate(old):
            # the game ids first: a file without the replaced games (most of them, when games are
            # added batch after batch) is not read whole
            ids_held = pq.read_table(root / rel, columns=["game_id"]).column("game_id")
            if not pc.any(pc.is_in(ids_held, value_set=wanted)).as_py():
                continue
            held = pq.read_table(root / rel)
            hit = pc.is_in(held.column("game_id"), value_set=wanted)
            removes.append(rel)
            kept = held.filter(pc.invert(hit))
            if kept.num_rows:
                path = (root / rel).with_name(f"part-{batch}-kept{k}.parquet")
                write_parquet_file(kept, path)
                files.append(path.relative_to(root).as_posix())
        ids = table.column("game_id").to_pylist()
        edition = pa.array([partitions[g][0] for g in ids], pa.string())
        count = pa.array([partitions[g][1] for g in ids], pa.int32())
        with_keys = table.append_column(PARTITION_COLUMNS[0], edition).append_column(PARTITION_COLUMNS[1], count)
        files += write_batch_files(root, batch, {ANALYSIS: with_keys})
        writer.commit(batch, files, games=len(replaced), removes=removes)
    return table.num_rows


__all__ = ["ANALYSIS", "ANALYSIS_SCHEMA", "analysis_rows", "analysis_table", "game_ids", "replace_in_dataset"]
