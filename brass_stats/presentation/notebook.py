"""What Jupyter shows for a game state or a replay: the board and a table of the players.

Jupyter shows these for a game state and a replay (registered with IPython by the package facade), so
a state or a replay left as the last expression of a cell draws itself.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.replay import replay
>>> r = replay(GameLog.new(["Ann", "<Bob>"], seed=1))
>>> player_table(r.state)[["name", "money", "income_level", "vp", "cards", "tiles_left"]]
    name  money  income_level  vp  cards  tiles_left
0    Ann     17             0   0      8          45
1  <Bob>     17             0   0      8          45
>>> html = state_html(r.state)
>>> "<svg" in html and "&lt;Bob&gt;" in html and "<Bob>" not in html
True
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..engine.scoring import potential_vp
from ..engine.state import GameState
from .text import display_number, display_text

if TYPE_CHECKING:
    from ..replay import Replay


def player_table(state: GameState) -> pd.DataFrame:
    """One row per player: money, income level, VP, VP if the era ended now, cards, tiles and links left, loans."""
    rows: list[dict[str, Any]] = []
    to_move = state.current_player
    for p in state.players:
        links, tiles = potential_vp(state, p.seat) if not state.game_over else (0, 0)
        rows.append(
            {
                "seat": p.seat,
                "name": p.name,
                "to_move": p.seat == to_move,
                "money": p.money,
                "income_level": state.income_level(p.seat),
                "income_space": p.income_space,
                "vp": p.vp,
                "vp_if_era_ended": p.vp + links + tiles,
                "cards": len(p.hand),
                "tiles_left": p.tiles_left,
                "links_left": p.link_tiles,
                "loans": p.loans,
                "spent_this_round": p.spent,
            }
        )
    return pd.DataFrame(rows)


HEADINGS = {
    "name": "player",
    "money": "£",
    "income_level": "income",
    "vp": "VP",
    "vp_if_era_ended": "VP if era ended",
    "cards": "cards",
    "tiles_left": "tiles left",
    "links_left": "links left",
    "loans": "loans",
    "spent_this_round": "£ spent this round",
}


def player_table_html(state: GameState) -> str:
    """The player table as HTML (names escaped and shortened; the player to move in bold)."""
    df = player_table(state)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADINGS.values())
    body = []
    for row in df.to_dict("records"):
        cells = []
        for col in HEADINGS:
            v = row[col]
            text = html.escape(display_text(v)) if col == "name" else display_number(v)
            align = "left" if col == "name" else "right"
            cells.append(f"<td style='text-align:{align}'>{text}</td>")
        style = " style='font-weight:bold'" if row["to_move"] else ""
        body.append(f"<tr{style}>" + "".join(cells) + "</tr>")
    return "<table class='bs-players'><thead><tr>" + head + "</tr></thead><tbody>" + "".join(body) + "</tbody></table>"


def board_svg(state: GameState) -> str:
    """The board of ``state`` as an SVG document (the drawing of ``brass-stats board`` and the viewer)."""
    from .svg_board import board_svg as draw

    return draw(state)


def _heading(state: GameState) -> str:
    return html.escape(display_text(repr(state).strip("<>"), 300))


def state_html(state: GameState) -> str:
    """The board and the player table."""
    return (
        f"<div class='bs-state'><p><b>{_heading(state)}</b></p>"
        f"{player_table_html(state)}<div style='max-width:1100px'>{board_svg(state)}</div></div>"
    )


def replay_html(replay: Replay) -> str:
    """A replay as a summary line, the final (or current) player table and board."""
    line = html.escape(display_text(repr(replay).strip("<>"), 500))
    return f"<div class='bs-replay'><p>{line}</p>{state_html(replay.state)}</div>"


def progress_frame(replay: Replay, upto: int | None = None) -> pd.DataFrame:
    """Income level, VP and VP if the era ended now per player after every action up to ``upto``.

    >>> from brass_stats.log.format import GameLog
    >>> from brass_stats.replay import replay
    >>> progress_frame(replay(GameLog.new(["Ann", "Bob"], seed=1))).empty
    True
    """
    last = len(replay.steps) - 1 if upto is None else min(upto, len(replay.steps) - 1)
    rows: list[dict[str, Any]] = []
    for step in replay.steps[: last + 1]:
        st = replay._state_at(step.index)
        for p in st.players:
            links, tiles = potential_vp(st, p.seat) if not st.game_over else (0, 0)
            rows.append(
                {
                    "action_index": step.index,
                    "round": step.round,
                    "era": step.era,
                    "seat": p.seat,
                    "name": p.name,
                    "income_level": st.income_level(p.seat),
                    "vp": p.vp,
                    "vp_if_era_ended": p.vp + links + tiles,
                }
            )
    return pd.DataFrame(rows)


def progress_chart(replay: Replay, upto: int | None = None) -> Any:
    """Two charts, one above the other: income level and VP per player, action by action up to ``upto``
    (dashed: VP if the era ended now), with the whole game's length on the x axis."""
    from .geometry import PLAYER_COLOURS
    from .plots import Chart, player_legend, player_line

    df = progress_frame(replay, upto)
    fig = Chart(figsize=(8, 5.5), layout="constrained")
    income, vp = fig.subplots(2, 1, sharex=True)
    for seat, g in df.groupby("seat"):
        c = PLAYER_COLOURS[int(seat)]
        player_line(income, g["action_index"], g["income_level"], g["name"].iloc[0], color=c, lw=2)
        vp.plot(g["action_index"], g["vp"], color=c, lw=2)
        vp.plot(g["action_index"], g["vp_if_era_ended"], color=c, lw=1, ls="--")
    total = max(len(replay.steps), 1)
    income.set_xlim(-1, total)
    if not df.empty:
        at = int(df["action_index"].max())
        for ax in (income, vp):
            ax.axvline(at, color="#555555", lw=1)
        st = replay._state_at(at)
        income.set_title(f"After action {at} of {total - 1}: {st.era.title()} Era, round {st.round}")
    income.set_ylabel("income level (£)")
    vp.set_ylabel("VP (dashed: if the era ended now)")
    vp.set_xlabel("action")
    player_legend(income, loc="upper left")
    return fig
