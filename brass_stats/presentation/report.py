"""The post-game report: one self-contained HTML file (charts embedded as PNG).

Every name and piece of free text is escaped and shortened for display
(:mod:`brass_stats.presentation.text`); nothing from the log is read as HTML,
mathtext or a template.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pandas as pd
from matplotlib.figure import Figure

from ..analysis.statistics import breakdowns as A
from ..engine.policy import AS_PLAYED
from ..engine.setup import new_game
from ..engine.state import GameState, MerchantSpace
from ..errors import BrassError
from ..replay import Replay
from ..rulebook import rule_text
from ..rules_data import load_rules
from . import plots
from .evaluation import LABEL_COLOURS, MEASURE, labels_line, largest_mistakes
from .text import TEXT_LIMIT, display_number, display_text

if TYPE_CHECKING:
    from ..analysis.review import GameReview

CSS = """
body { font-family: "DejaVu Sans", "Noto Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1000px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { margin-bottom: 0.2em; overflow-wrap: anywhere; }
h2 { border-bottom: 2px solid #8a6d1d; padding-bottom: 0.2em; margin-top: 2em; }
.meta { color: #666; font-size: 0.9em; overflow-wrap: anywhere; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.5em; }
th { background: #f3e3b5; max-width: 12em; overflow-wrap: anywhere; }
.num { text-align: right; } .text { text-align: left; }
td.text { max-width: 22em; overflow-wrap: anywhere; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0; }
.boards figure { margin: 0 0 1.5em 0; }
.boards svg { display: block; max-width: 100%; height: auto; }
figcaption { text-align: center; color: #555; font-size: 0.9em; }
.label { color: #fff; font-weight: bold; padding: 0 0.3em; border-radius: 3px; }
"""


def _png(fig: Figure, dpi: int = 110) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return '<img alt="chart" src="data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode() + '">'


def _is_number(v: object) -> bool:
    return pd.api.types.is_number(v) and not pd.api.types.is_bool(v)


def _cell(v: object) -> str:
    """One table cell as escaped HTML text."""
    if v is None or v is pd.NA or (_is_number(v) and pd.isna(v)):
        return ""
    if pd.api.types.is_float(v):
        f = float(v)  # type: ignore[arg-type]
        return f"{f:g}" if abs(f) < 1e15 else f"{f:.1e}"
    if pd.api.types.is_integer(v):
        return display_number(int(v))  # type: ignore[call-overload]
    return html.escape(display_text(v, TEXT_LIMIT))


def _table(df: pd.DataFrame, raw: frozenset[str] = frozenset()) -> str:
    """A DataFrame as an HTML table that never overflows the page (it scrolls inside its box).

    Every cell is escaped text, whatever the column's dtype (object, pandas' ``str``, Arrow strings);
    the columns in ``raw`` hold HTML built by this module.
    """
    numeric = [c not in raw and pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    head = "".join(
        f"<th class='{'num' if n else 'text'}'>{html.escape(display_text(c, TEXT_LIMIT))}</th>"
        for c, n in zip(df.columns, numeric, strict=True)
    )
    rows = []
    for values in df.itertuples(index=False, name=None):
        cells = []
        for col, n, v in zip(df.columns, numeric, values, strict=True):
            text = str(v) if col in raw else _cell(v)
            cells.append(f"<td class='{'num' if n or _is_number(v) else 'text'}'>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        "<div class='scroll'><table><thead><tr>"
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def _players_as_columns(df: pd.DataFrame, label: str, names: list[str]) -> pd.DataFrame:
    """Sources as rows, players as columns: as many columns as players, so the table fits the page."""
    wide = df.T
    wide.columns = names
    wide.index.name = label
    return wide.reset_index()


def _unique_names(names: list[object]) -> list[str]:
    """Display names, made unique (two players may share a name)."""
    shown = [display_text(n) for n in names]
    return [f"{n} (seat {i})" if shown.count(n) > 1 else n for i, n in enumerate(shown)]


def vp_sources_table(by_source: pd.DataFrame) -> pd.DataFrame:
    """The VP breakdown with one row per source that scored for anyone, one column per player."""
    names = _unique_names(list(by_source["name"]))
    values = by_source.drop(columns=["seat", "name"])
    values = values.loc[:, [c for c in values.columns if c == "total" or values[c].astype(float).abs().sum() > 0]]
    values.columns = [str(c).replace("_", " ") for c in values.columns]
    return _players_as_columns(values, "VP from", names)


def vp_by_era_table(breakdown: pd.DataFrame) -> pd.DataFrame:
    """:func:`~brass_stats.analysis.statistics.breakdowns.vp_breakdown`: a row per source, a column per seat and era."""
    names = _unique_names(list(breakdown.drop_duplicates("seat")["name"]))
    seats = list(breakdown.drop_duplicates("seat")["seat"])
    by_seat = dict(zip(seats, names, strict=True))
    labels = [f"{by_seat[r.seat]}, {r.era}" for r in breakdown.itertuples()]
    values = breakdown.drop(columns=["seat", "name", "era"])
    values = values.loc[:, [c for c in values.columns if values[c].astype(float).abs().sum() > 0]]
    values.columns = [str(c).replace("tile_vp_", "tiles: ").replace("_", " ") for c in values.columns]
    return _players_as_columns(values.reset_index(drop=True), "VP from", labels)


def _action_link(index: object, viewer_href: str | None) -> str:
    """An action named by its index in the data (0-based), shown as people count it (from 1), linked to
    the viewer at that action (whose ``#action=N`` counts the same way)."""
    n = int(index) + 1  # type: ignore[call-overload]
    if viewer_href is None:
        return str(n)
    href = html.escape(f"{viewer_href}#action={n}", quote=True)
    return f"<a href='{href}' title='open the replay viewer at this action'>{n}</a>"


def _what_happened(replay: Replay, index: int) -> str:
    """The move-list sentence of one action, without what followed at the end of the round or era."""
    from ..replay.notation import describe_step

    text = describe_step(replay.steps[index], replay.state.rules, replay.log.players)
    return text.split(". End of ", 1)[0]


def build_report(
    src: A.GameSource,
    viewer_href: str | None = None,
    replay: Replay | None = None,
    review: GameReview | None = None,
) -> str:
    """The report of one game as HTML text.

    ``viewer_href``: the replay viewer's file (relative to the report); every action number then links
    to the viewer at that action (``viewer.html#action=N``, N counted from 1). ``replay`` (default: the
    one kept in ``src``) describes the key moments in the move list's words. ``review`` (a
    :class:`~brass_stats.analysis.review.GameReview` of the game, however it was made) adds the
    Analysis section: the win-probability chart, the accuracy table and the largest mistakes.
    """
    replay = replay or src.replay
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
    era_ends = A.era_end_scoring(src)
    departures = departures_table(src)
    winner = html.escape(display_text(game["winner"]))
    edition = html.escape(display_text(game["edition"]).title())
    raw = frozenset({"action"}) if viewer_href else frozenset()
    if not swings.empty:
        if replay is not None:
            swings["action"] = [_what_happened(replay, int(i)) for i in swings["action_index"]]
        swings = swings.rename(columns={"action_index": "#", "action": "what"})
        swings["#"] = [_action_link(i, viewer_href) for i in swings["#"]]
        swings = swings.rename(columns={"#": "action"})
    if not leads.empty:
        leads["action_index"] = [_action_link(i, viewer_href) for i in leads["action_index"]]
        leads = leads.rename(columns={"action_index": "action"})
    if not era_ends.empty:
        era_ends["after_action"] = [_action_link(i, viewer_href) for i in era_ends["after_action"]]
    viewer_note = (
        f"<p class='meta'>Actions are numbered from 1; each number opens the "
        f"<a href='{html.escape(viewer_href, quote=True)}'>replay viewer</a> at that action.</p>"
        if viewer_href
        else ""
    )
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Brass report: {winner} wins</title><style>{CSS}</style></head><body>",
        f"<h1>Brass: {edition}: {winner} wins</h1>",
        f"<p class='meta'>game {html.escape(src.game_id)} &middot; {game['player_count']} players &middot; "
        f"{game['n_actions']} actions &middot; source {html.escape(display_text(game['source_file'], TEXT_LIMIT))}"
        + (
            f" &middot; <a href='#departures'>played with {len(departures)} departure"
            f"{'' if len(departures) == 1 else 's'} from the rules</a>"
            if len(departures)
            else ""
        )
        + "</p>",
        "<h2>Result</h2>",
        _table(result),
        _departures_section(departures, str(game["edition"]), viewer_href),
        _analysis_section(review, viewer_href, _rail_start(src)) if review is not None else "",
        "<h2>Income</h2>",
        _png(plots.income_chart(summary)),
        "<h2>VP progression</h2>",
        _png(plots.vp_progression_chart(progression)),
        "<h2>VP breakdown</h2>",
        _png(plots.vp_breakdown_chart(by_source)),
        _table(vp_sources_table(by_source)),
        "<details><summary>By era</summary>",
        _table(vp_by_era_table(breakdown)),
        "</details>",
        "<h2>Money, spending and turn order</h2>",
        _png(plots.money_chart(money)),
        _turn_order_table(money),
        "<h2>Loans</h2>",
        _loans(src),
        "<h2>Key moments</h2>",
        viewer_note,
        "<h3>Largest single-action swings</h3>",
        "<p class='meta'>Change in VP scored plus VP if the era ended now, for each player an action moved "
        "(the actor or an opponent). Era-end scoring is not counted here; it is listed below.</p>",
        _table(swings, raw) if not swings.empty else "<p>none</p>",
        "<h3>Era-end scoring</h3>",
        "<p class='meta'>VP scored for links and flipped tiles when each era ended (after the era's last action).</p>",
        _table(era_ends, frozenset({"after_action"}) if viewer_href else frozenset())
        if not era_ends.empty
        else "<p>none</p>",
        "<h3>Lead changes</h3>",
        _table(leads, raw) if not leads.empty else "<p>none</p>",
        "<h2>The board at the end of each era</h2>",
        _boards(src),
        "</body></html>",
    ]
    return "\n".join(parts)


def departures_table(src: A.GameSource) -> pd.DataFrame:
    """The rules the game broke as played (the ``deviations`` table; empty for a game stored strictly,
    or in a store made before that table existed), with the player's name, in action order."""
    try:
        return src.con.execute(
            """
            SELECT d.action_index, d.seat, p.name, d.rule, d.message FROM deviations d
            LEFT JOIN players p ON p.game_id = d.game_id AND p.seat = d.seat
            WHERE d.game_id = $g ORDER BY d.action_index
            """,
            {"g": src.game_id},
        ).df()
    except duckdb.CatalogException:
        return pd.DataFrame(columns=["action_index", "seat", "name", "rule", "message"])


def _departures_section(departures: pd.DataFrame, edition: str, viewer_href: str | None) -> str:
    """Every departure from the rules, at its action, with the rule's words."""
    if departures.empty:
        return ""
    words = [rule_text(str(r), edition) for r in departures["rule"]]
    table = pd.DataFrame(
        {
            "action": [_action_link(i, viewer_href) for i in departures["action_index"]],
            "player": [display_text(n) for n in departures["name"]],
            "rule": list(departures["rule"]),
            "what happened": list(departures["message"]),
            "the rulebook says": words,
        }
    )
    return (
        "<h2 id='departures'>Departures from the rules</h2>"
        "<p class='meta'>This game is shown as it was played: these actions break a rule of the rulebook and "
        "were applied as stated (a strict check, <code>brass-stats validate</code>, refuses the game at the "
        "first of them).</p>" + _table(table, frozenset({"action"}) if viewer_href else frozenset())
    )


def _rail_start(src: A.GameSource) -> int | None:
    row = src.con.execute(
        "SELECT min(action_index) FROM actions WHERE game_id = $g AND era = 'rail'", {"g": src.game_id}
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def _label_html(label: str | None) -> str:
    if not label:
        return ""
    colour = LABEL_COLOURS.get(label, "#555")
    return f"<span class='label' style='background:{colour}'>{html.escape(label)}</span>"


def _analysis_section(review: GameReview, viewer_href: str | None, rail_from: int | None) -> str:
    """The win-probability chart, the accuracy table and the largest mistakes of a reviewed game."""
    names = _unique_names(list(review.players))
    accuracy = pd.DataFrame(
        {
            "player": names,
            "accuracy": [None if p.accuracy is None else round(p.accuracy, 1) for p in review.summary],
            "judged actions": [p.judged for p in review.summary],
            "inaccuracies": [p.inaccuracies for p in review.summary],
            "mistakes": [p.mistakes for p in review.summary],
            "blunders": [p.blunders for p in review.summary],
        }
    )
    worst = largest_mistakes(review)
    mistakes = pd.DataFrame(
        {
            "action": [_action_link(a.index, viewer_href) for a in worst],
            "player": [names[a.seat] for a in worst],
            "label": [_label_html(a.label) for a in worst],
            "cost (VP)": [round(a.cost, 1) for a in worst],
            "sure margin lost (VP)": [round(a.accuracy_loss, 1) for a in worst],
            "played": [a.action for a in worst],
            "better": [a.best or "" for a in worst],
        }
    )
    raw = frozenset({"action", "label"}) if viewer_href else frozenset({"label"})
    n = len(review.actions)
    notes = []
    if review.stopped is not None and review.stopped.get("index") is not None:
        notes.append(f"The review stops before the first illegal action (action {int(review.stopped['index']) + 1}).")
    elif n and review.actions[-1].index + 1 != n:
        notes.append(f"{n} actions reviewed.")
    return "\n".join(
        [
            "<h2 id='analysis'>Analysis</h2>",
            "<p class='meta'>Each player's chance of winning after each action and the rest of the mover's turn (a "
            "model trained on games between bots, from public facts only). Each action with a choice is judged by "
            f"a search from what its player could know then ({review.simulations} simulations per action, seed "
            f"{review.seed}), its best moves compared with the one played on samples of the hidden cards.</p>",
            f"<p class='meta'><b>{html.escape(MEASURE)}</b>. {html.escape(labels_line())}</p>",
            *(f"<p class='meta'>{html.escape(t)}</p>" for t in notes),
            _png(plots.win_probability_chart(review, rail_from)),
            "<h3>Accuracy</h3>",
            _table(accuracy),
            "<h3>Largest mistakes</h3>",
            _table(mistakes, raw) if not mistakes.empty else "<p>none: every judged action was the best found</p>",
        ]
    )


def _turn_order_table(money: pd.DataFrame) -> str:
    wide = money.pivot_table(index="round", columns="seat", values="spent_this_round", sort=True)
    order = money.pivot_table(index="round", columns="seat", values="order_position", sort=True) + 1
    cells = wide.astype(int).astype(str) + " (#" + order.astype(int).astype(str) + ")"
    names = money.drop_duplicates("seat").set_index("seat")["name"]
    cells.columns = _unique_names([names[s] for s in cells.columns])
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
    by = df.groupby("name", sort=False)["round"]
    return _table(
        pd.DataFrame(
            {"name": list(by.groups), "loans": by.size().tolist(), "rounds": [", ".join(map(str, r)) for _, r in by]}
        )
    )


def _boards(src: A.GameSource) -> str:
    """The board at each era's end, as the SVG drawing of ``brass-stats board`` and the viewer."""
    from .svg_board import board_svg

    figs = []
    for era, state in era_boards_from_tables(src):
        title = f"End of the {era.title()} Era: the board before scoring, VP after"
        names = [display_text(p.name) for p in state.players]  # the drawing's tooltips hold whole names
        svg = board_svg(state, title=title, names=names).replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
        figs.append(f"<figure>{svg}<figcaption>{era.title()} Era</figcaption></figure>")
    return "<div class='boards'>" + "".join(figs) + "</div>"


def era_boards_from_tables(src: A.GameSource) -> list[tuple[str, GameState]]:
    """The board just before each era's scoring, rebuilt from the ``board`` table (so games read from a
    database and from a log file look the same): tiles, links, merchant tiles, markets, and each
    player's money, income and VP after the era's scoring (from ``turn_snapshots``). Databases written
    before merchant tiles and markets were stored show blank merchants and the markets as set up."""
    from ..engine.state import Tile
    from ..log.format import GameLog

    g = A.game_row(src)
    rows = src.con.execute("SELECT * FROM board WHERE game_id = $g AND before_scoring", {"g": src.game_id}).df()
    names = [str(n) for n in A.players(src)["name"]]
    out = []
    for era, b in rows.groupby("era", sort=False):
        state = new_game(names, GameLog.new(names, seed=0).chance_source(), load_rules(str(g["edition"])))
        state.dcm_pile, state.dcm_drawn = [], []
        state.tiles = {
            f"{r.location}:{int(r.slot)}": Tile(
                int(r.owner), r.industry, int(r.level), int(r.resources), bool(r.flipped)
            )
            for r in b[b["piece"] == "tile"].itertuples()
        }
        state.links = {r.link_id: int(r.owner) for r in b[b["piece"] == "link"].itertuples()}
        state.merchant_spaces = [
            MerchantSpace(str(r.location), int(r.slot), str(r.industry), frozenset(), bool(r.resources))
            for r in b[b["piece"] == "merchant"].itertuples()
        ]
        for r in b[b["piece"] == "market"].itertuples():
            setattr(state, f"{r.location}_market", int(r.resources))
        snaps = src.con.execute(
            "SELECT seat, money, income_space, vp FROM turn_snapshots WHERE game_id = $g AND action_index = $a",
            {"g": src.game_id, "a": int(b["action_index"].iloc[0])},
        ).fetchall()
        for seat, money, income_space, vp in snaps:
            p = state.players[int(seat)]
            p.money, p.income_space, p.vp = int(money), int(income_space), int(vp)
        state.era = str(era)
        state.phase = "over"  # a picture of the era's end: nobody is to move
        out.append((str(era), state))
    return out


def replay_of(src: A.GameSource) -> Replay | None:
    """The replay of the game: kept when it came from a log file, else replayed from the file it was
    imported from when that file is still there and holds the same game (None otherwise)."""
    if src.replay is not None:
        return src.replay
    from ..log.format import GameLog
    from ..replay import replay
    from ..storage import game_id

    source = A.game_row(src).get("source_file")
    if not isinstance(source, str) or not Path(source).is_file():
        return None
    try:
        log = GameLog.load(source)
    except BrassError:
        return None
    if game_id(log) != src.game_id:
        return None
    r = replay(log, AS_PLAYED)  # as stored: a game stored as played keeps its viewer
    return r if r.error is None else None


def write_report(src: A.GameSource, out: str | Path, viewer: bool = True, review: GameReview | None = None) -> Path:
    """Write the report atomically and return its path.

    With ``viewer``, the replay viewer (``brass-stats view``) is written beside it as
    ``<report>-viewer.html`` and every action number links to it at that action (when the game's log is
    at hand: a log file, or the file a stored game was imported from). ``review``: the game's review,
    shown in the report's Analysis section and along the game in the viewer.
    """
    out = Path(out)
    href = None
    r = replay_of(src) if viewer else None
    if r is not None:
        from .viewer import write_viewer

        page = out.with_name(out.stem + "-viewer.html")
        write_viewer(r, page, review=review)
        href = page.name
    text = build_report(src, href, r, review)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out
