"""What a player's game was built on: a strategy label from where their VP came from.

Two labels per player-game, both from the era scoring VP (``era_scores``: links and flipped tiles;
merchant bonuses, cash and shortfalls left out). See ``docs/statistics.md`` for why these rules and
thresholds were chosen and how they split the sample corpus.

``strategy`` (what the VP came from):

* ``network``: links brought at least :data:`NETWORK_SHARE` of the VP (the player scored mostly
  from the rail and canal network, not from their own tiles);
* otherwise the industry group with the most tile VP, if it brought at least
  :data:`FOCUS_SHARE` of the tile VP: ``cotton`` (cotton mills), ``manufacturer``, ``pottery``,
  ``coal_iron`` (coal mines and iron works: the player supplies coal and iron), ``brewery``, and
  in Lancashire ``shipping`` (ports and shipyards);
* ``mixed`` when no industry group reaches that share, or two groups tie for the lead;
  ``none`` for a player who scored nothing.

``era_focus`` (when the VP came): ``canal`` if the Canal Era brought at least
:data:`CANAL_HEAVY` of the VP, ``rail`` if it brought less than :data:`RAIL_HEAVY`, else ``even``.

>>> classify_strategy(links=60, tiles={"cotton": 30, "coal_iron": 10})
'network'
>>> classify_strategy(links=40, tiles={"cotton": 35, "coal_iron": 25})
'cotton'
>>> classify_strategy(links=40, tiles={"cotton": 20, "coal_iron": 20, "brewery": 20})
'mixed'
>>> classify_era(canal=45, total=100), classify_era(canal=25, total=100), classify_era(canal=35, total=100)
('canal', 'rail', 'even')
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import numpy as np
import pandas as pd

NETWORK_SHARE = 0.6
"""Share of link + tile VP from links at or above which a player is a ``network`` player."""
FOCUS_SHARE = 1 / 3
"""Share of tile VP the leading industry group needs for the player to be labelled by it."""
CANAL_HEAVY = 0.4
"""Share of link + tile VP scored in the Canal Era at or above which the era focus is ``canal``."""
RAIL_HEAVY = 0.3
"""Share of link + tile VP scored in the Canal Era below which the era focus is ``rail``."""

INDUSTRY_GROUPS: dict[str, tuple[str, ...]] = {
    "cotton": ("cotton_mill",),
    "manufacturer": ("manufacturer",),
    "pottery": ("pottery",),
    "coal_iron": ("coal_mine", "iron_works"),
    "brewery": ("brewery",),
    "shipping": ("port", "shipyard"),
}
"""Strategy name -> the industries whose tile VP count for it."""

STRATEGIES = ("network", *INDUSTRY_GROUPS, "mixed", "none")
ERA_FOCI = ("canal", "even", "rail", "none")


def classify_strategy(links: float, tiles: Mapping[str, float]) -> str:
    """The strategy label from link VP and tile VP per industry group (see the module docstring)."""
    tile_total = sum(tiles.values())
    total = links + tile_total
    if total <= 0:
        return "none"
    if links >= NETWORK_SHARE * total:
        return "network"
    ranked = sorted(INDUSTRY_GROUPS, key=lambda g: tiles.get(g, 0), reverse=True)
    best, runner_up = tiles.get(ranked[0], 0), tiles.get(ranked[1], 0)
    if tile_total > 0 and best >= FOCUS_SHARE * tile_total and best > runner_up:
        return ranked[0]
    return "mixed"  # no group leads clearly (a tie for the lead is mixed too)


def classify_era(canal: float, total: float) -> str:
    """The era focus from the link + tile VP scored in the Canal Era and in the whole game."""
    if total <= 0:
        return "none"
    share = canal / total
    if share >= CANAL_HEAVY:
        return "canal"
    if share < RAIL_HEAVY:
        return "rail"
    return "even"


def vp_sources(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """Per player-game: link VP, tile VP per industry group, and the Canal Era's link + tile VP."""
    groups = ", ".join(
        f"sum({' + '.join(f'tile_vp_{i}' for i in inds)}) AS {name}" for name, inds in INDUSTRY_GROUPS.items()
    )
    return con.execute(
        f"""
        SELECT game_id, seat, sum(link_vp) AS links, {groups},
               sum(link_vp + tile_vp) FILTER (WHERE era = 'canal') AS canal,
               sum(link_vp + tile_vp) AS total
        FROM era_scores GROUP BY game_id, seat
        """
    ).df()


def strategies(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """``game_id, seat, strategy, era_focus, link_share, canal_share`` for every stored player-game."""
    df = vp_sources(con)
    names = list(INDUSTRY_GROUPS)
    df["strategy"] = classify_strategies(df["links"], df[names])
    df["canal"] = df["canal"].fillna(0)
    df["era_focus"] = classify_eras(df["canal"], df["total"])
    total = df["total"].where(df["total"] > 0)
    df["link_share"] = df["links"] / total
    df["canal_share"] = df["canal"] / total
    return df[["game_id", "seat", "strategy", "era_focus", "link_share", "canal_share"]]


def classify_strategies(links: pd.Series, tiles: pd.DataFrame) -> np.ndarray:
    """:func:`classify_strategy` for many player-games at once (the columns of ``tiles`` in
    :data:`INDUSTRY_GROUPS` order), without a Python call per player-game: the same labels (a test
    compares them on every stored player-game)."""
    t = tiles[list(INDUSTRY_GROUPS)].to_numpy(dtype=float)
    lk = links.to_numpy(dtype=float)
    if len(t) == 0:
        return np.array([], dtype=object)
    tile_total = t.sum(axis=1)
    total = lk + tile_total
    ordered = np.sort(t, axis=1)
    best, runner_up = ordered[:, -1], ordered[:, -2]
    leader = np.array(list(INDUSTRY_GROUPS), dtype=object)[t.argmax(axis=1)]  # the first group at the best
    focused = (tile_total > 0) & (best >= FOCUS_SHARE * tile_total) & (best > runner_up)
    return np.select(
        [total <= 0, lk >= NETWORK_SHARE * total, focused], ["none", "network", leader], default="mixed"
    ).astype(object)


def classify_eras(canal: pd.Series, total: pd.Series) -> np.ndarray:
    """:func:`classify_era` for many player-games at once."""
    c, t = canal.to_numpy(dtype=float), total.to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = c / t
    return np.select(
        [t <= 0, share >= CANAL_HEAVY, share < RAIL_HEAVY], ["none", "canal", "rail"], default="even"
    ).astype(object)


__all__ = [
    "CANAL_HEAVY",
    "ERA_FOCI",
    "FOCUS_SHARE",
    "INDUSTRY_GROUPS",
    "NETWORK_SHARE",
    "RAIL_HEAVY",
    "STRATEGIES",
    "classify_era",
    "classify_eras",
    "classify_strategy",
    "classify_strategies",
    "strategies",
    "vp_sources",
]
