"""Each analysed player-game's accuracy, and the accuracy bands that ``stats --by accuracy`` splits by.

A player's accuracy in a game is the review's figure (:func:`~brass_stats.analysis.review.margin_game_accuracy`,
lichess's formula over the VP of expected margin each judged action surely lost), read from the ``analysis`` table
that ``brass-stats analyse GAME --store`` fills. Only analysed games have one.

>>> [accuracy_band(x) for x in (12.5, 70.0, 89.99, 90.0, 100.0)]
['0-70', '70-80', '80-90', '90-100', '90-100']
"""

from __future__ import annotations

from collections import defaultdict

import duckdb
import pandas as pd

ACCURACY_BANDS = ((0.0, "0-70"), (70.0, "70-80"), (80.0, "80-90"), (90.0, "90-100"))
"""(lower bound, label) of each band, in order; a band holds its lower bound."""


def accuracy_band(accuracy: float) -> str:
    """The band of an accuracy figure (0-100)."""
    found = ACCURACY_BANDS[0][1]
    for low, name in ACCURACY_BANDS:
        if accuracy >= low:
            found = name
    return found


def has_analysis(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` has an ``analysis`` table (a DuckDB file written before it existed has none)."""
    try:
        con.execute("SELECT 1 FROM analysis LIMIT 0")
    except duckdb.CatalogException:
        return False
    return True


def player_accuracy(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """``game_id, seat, accuracy, accuracy_band``: one row per player-game of every analysed game in which the
    player had at least one judged action (a player whose actions were all forced has no accuracy)."""
    from ..review import margin_game_accuracy

    columns = ["game_id", "seat", "accuracy", "accuracy_band"]
    if not has_analysis(con):
        rows = []
    else:
        rows = con.execute(
            """SELECT a.game_id, a.seat, coalesce(a.sure_loss, a.loss) FROM analysis a
               WHERE a.judged ORDER BY a.game_id, a.seat, a.action_index"""
        ).fetchall()
    losses: dict[tuple[str, int], list[float]] = defaultdict(list)
    for gid, seat, loss in rows:
        losses[(gid, seat)].append(float(loss or 0.0))
    out = []
    for (gid, seat), lost in losses.items():
        acc = margin_game_accuracy(lost)
        assert acc is not None  # at least one judged action
        out.append((gid, int(seat), acc, accuracy_band(acc)))
    return pd.DataFrame(out, columns=columns).astype({"game_id": str, "seat": "int32", "accuracy": float})


__all__ = ["ACCURACY_BANDS", "accuracy_band", "has_analysis", "player_accuracy"]
