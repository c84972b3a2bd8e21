"""The post-game report: one self-contained HTML file (plots embedded as PNG)."""

from __future__ import annotations

import base64
import html
import io
import unicodedata
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from ..analysis import games as A
from ..engine.setup import new_game
from . import plots
from .board import draw_board

CSS = """
body { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1000px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #8a6d1d; padding-bottom: 0.2em; margin-top: 2em; }
.meta { color: #666; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
th { background: #f3e3b5; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0; }
.boards figure { margin: 0 0 1.5em 0; max-width: 860px; }
figcaption { text-align: center; color: #555; font-size: 0.9em; }
"""


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return '<img alt="chart" src="data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode() + '">'


def _table(df: pd.DataFrame) -> str:
    df = df.copy()
    for col in df.columns:
        if df[col].dtype == object:
            df[col] = df[col].map(lambda v: unicodedata.normalize("NFKC", v) if isinstance(v, str) else v)
    return df.to_html(index=False, border=0, na_rep="", float_format=lambda v: f"{v:g}")


def build_report(src: A.GameSource) -> str:
    """The report of one game as HTML text."""
    game = A.game_row(src)
    result = A.result_table(src).rename(
        columns={"final_vp": "VP", "final_income_level": "income", "final_money": "money", "loans": "loans taken"}
    )
    summary = A.round_summary(src)
    by_source = A.vp_by_source(src)
    breakdown = A.vp_breakdown(src)
    progression = A.vp_progression(src)
    money = A.money_and_order(src)
    swings, leads = A.key_moments(src)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Brass report: {html.escape(str(game['winner']))} wins</title><style>{CSS}</style></head><body>",
        f"<h1>Brass: {html.escape(str(game['edition']).title())}: {html.escape(str(game['winner']))} wins</h1>",
        f"<p class='meta'>game {html.escape(src.game_id)} &middot; {game['player_count']} players &middot; "
        f"{game['n_actions']} actions &middot; source {html.escape(str(game['source_file']))}</p>",
        "<h2>Result</h2>",
        _table(result),
        "<h2>Income</h2>",
        _png(plots.income_chart(summary)),
        "<h2>VP progression</h2>",
        _png(plots.vp_progression_chart(progression)),
        "<h2>VP breakdown</h2>",
        _png(plots.vp_breakdown_chart(by_source)),
        _table(by_source.drop(columns=["seat"])),
        "<details><summary>By era</summary>",
        _table(breakdown.drop(columns=["seat"])),
        "</details>",
        "<h2>Money, spending and turn order</h2>",
        _png(plots.money_chart(money)),
        _turn_order_table(money),
        "<h2>Loans</h2>",
        _loans(src),
        "<h2>Key moments</h2>",
        "<h3>Largest single-action swings</h3><p class='meta'>change in VP if the era ended now</p>",
        _table(swings) if not swings.empty else "<p>none</p>",
        "<h3>Lead changes</h3>",
        _table(leads) if not leads.empty else "<p>none</p>",
        "<h2>The board at the end of each era</h2>",
        _boards(src),
        "</body></html>",
    ]
    return "\n".join(parts)


def _turn_order_table(money: pd.DataFrame) -> str:
    wide = money.pivot_table(index="round", columns="name", values="spent_this_round", sort=False)
    order = money.pivot_table(index="round", columns="name", values="order_position", sort=False) + 1
    cells = wide.astype(int).astype(str) + " (#" + order.astype(int).astype(str) + ")"
    cells.columns.name = None
    cells = cells.reset_index()
    return "<p class='meta'>£ spent in the round (turn position in that round)</p>" + _table(cells)


def _loans(src: A.GameSource) -> str:
    df = src.con.execute(
        """
        SELECT p.name, a.era, a.round FROM actions a JOIN players p ON p.game_id = a.game_id AND p.seat = a.seat
        WHERE a.game_id = $g AND a.action_type = 'loan' ORDER BY a.action_index
        """,
        {"g": src.game_id},
    ).df()
    if df.empty:
        return "<p>No loans were taken.</p>"
    counts = df.groupby("name").size().rename("loans").reset_index()
    rounds = df.groupby("name")["round"].apply(lambda r: ", ".join(map(str, r))).rename("rounds").reset_index()
    return _table(counts.merge(rounds, on="name"))


def _boards(src: A.GameSource) -> str:
    replay = src.replay
    if replay is None:
        return _boards_from_tables(src)
    final = replay.state
    figs = []
    for era in ("canal", "rail"):
        if era in final.era_boards:
            tiles, links = final.era_boards[era]
            fig = draw_board(final, tiles, links, title=f"End of the {era.title()} Era (before scoring)")
            figs.append(f"<figure>{_png(fig)}<figcaption>{era.title()} Era</figcaption></figure>")
    return "<div class='boards'>" + "".join(figs) + "</div>"


def _boards_from_tables(src: A.GameSource) -> str:
    """Rebuild the era-end boards from the ``board`` table (games read from a database)."""
    from ..engine.state import Tile
    from ..log.format import GameLog

    players = A.players(src)
    g = A.game_row(src)
    rows = src.con.execute("SELECT * FROM board WHERE game_id = $g AND before_scoring", {"g": src.game_id}).df()
    names = list(players["name"])
    base = new_game(names, GameLog.new(names, seed=0).chance_source())
    figs = []
    for era, b in rows.groupby("era", sort=False):
        tiles = {
            f"{r.location}:{int(r.slot)}": Tile(
                int(r.owner), r.industry, int(r.level), int(r.resources), bool(r.flipped)
            )
            for r in b[b["piece"] == "tile"].itertuples()
        }
        links = {r.link_id: int(r.owner) for r in b[b["piece"] == "link"].itertuples()}
        base.merchant_spaces = []
        fig = draw_board(base, tiles, links, title=f"End of the {str(era).title()} Era (before scoring)")
        figs.append(f"<figure>{_png(fig)}<figcaption>{str(era).title()} Era</figcaption></figure>")
    del g
    return "<div class='boards'>" + "".join(figs) + "</div>"


def write_report(src: A.GameSource, out: str | Path) -> Path:
    """Write the report atomically and return its path."""
    out = Path(out)
    text = build_report(src)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out
