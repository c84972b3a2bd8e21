"""The replay viewer: one self-contained HTML file that steps through a game in the browser.

The board is the SVG drawing of :mod:`.svg_board`, cut into parts; each distinct part is sent
once, and every position lists which version of each part it shows, so stepping swaps a few
fragments and a 4-player game stays well under a megabyte. Open it from disk; it needs no
network and no server. ``#action=N`` opens the state after the N-th action, counted from 1 as on
screen (``0``: the setup), which is action index N-1 in the data.

Given a :class:`~brass_stats.analysis.review.GameReview` (``review=``), the page adds an evaluation
strip (each player's win probability along the game), the mover's label, its loss in VP of expected
margin (its VP minus its opponents' mean) with its uncertainty, and the better action in words and
drawn on the board. A game replayed as played shows each departure from the rules at its
action, with the rule's words.

>>> from brass_stats.log.format import GameLog
>>> from brass_stats.replay import replay
>>> from brass_stats import SAMPLES
>>> page = viewer_html(replay(GameLog.load(SAMPLES / "real" / "wq9gs6-2p.json")))
>>> page.startswith("<!doctype html>") and "http://" not in page.replace("http://www.w3.org", "")
True
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.state import GameState
from ..replay import Replay
from ..replay.notation import move_list
from ..rulebook import rule_text
from .evaluation import viewer_review
from .geometry import PLAYER_COLOURS, industry_name
from .svg_board import board_parts, changes_of, esc, highlight_svg, join_parts, svg_open

if TYPE_CHECKING:
    from ..analysis.review import GameReview

EDITION = {"birmingham": "Brass: Birmingham", "lancashire": "Brass: Lancashire"}


def _panel(state: GameState) -> dict[str, Any]:
    players = []
    for seat, p in enumerate(state.players):
        mat = {industry_name(ind): sum(levels) for ind, levels in p.mat.items()}
        players.append([p.money, state.income_level(seat), p.vp, len(p.hand), sum(mat.values()), p.loans, p.spent, mat])
    merchants: dict[str, list[bool]] = {}
    for ms in state.merchant_spaces:
        merchants.setdefault(state.rules.locations[ms.location].name, []).append(ms.beer)
    return {
        "p": players,
        "coal": state.coal_market,
        "iron": state.iron_market,
        "beer": {k: sum(v) for k, v in merchants.items()},
        "turn": state.current_player if state.current_player is not None else -1,
        "era": state.era,
        "round": state.era_round,
        "over": state.game_over,
    }


def viewer_data(replay: Replay, review: GameReview | None = None) -> dict[str, Any]:
    """Everything the page needs, as JSON-ready data (parts of the board per position, moves, panels,
    departures from the rules, and the review when given)."""
    names = display_names(replay.log.players)
    frags: list[str] = [""]
    index: dict[str, int] = {"": 0}
    keys: list[str] | None = None
    positions: list[list[int]] = []
    overlays: list[str] = []
    underlays: list[str] = []
    panels: list[dict[str, Any]] = []
    states: list[GameState] = [replay.initial] + [replay._state_at(s.index) for s in replay.steps]
    for pos, state in enumerate(states):
        parts = board_parts(state, names=names)
        if keys is None:
            keys = [k for k, _ in parts]
        row = []
        for _, frag in parts:
            i = index.get(frag)
            if i is None:
                i = index[frag] = len(frags)
                frags.append(frag)
            row.append(i)
        positions.append(row)
        changes = changes_of(replay.steps[pos - 1]) if pos else None
        overlays.append(highlight_svg(state, changes))
        underlays.append(highlight_svg(state, changes, "under"))
        panels.append(_panel(state))
    moves = [
        {"i": m.index, "era": m.era, "r": m.era_round, "s": m.seat, "t": m.text, "bad": m.illegal}
        for m in move_list(replay, names)
    ]
    error = None
    if replay.error is not None:
        e = replay.error
        error = {"index": e.index, "rule": e.rule, "words": e.rule_text, "message": e.message}
    rules = replay.initial.rules
    departures = [
        {
            "i": d["action_index"],
            "rule": d["rule"],
            "message": d["message"],
            "words": rule_text(d["rule"], rules.edition),
        }
        for d in replay.deviations
    ]
    return {
        "edition": EDITION.get(rules.edition, rules.edition),
        "names": names,
        "colours": list(PLAYER_COLOURS),
        "keys": keys or [],
        "frags": frags,
        "pos": positions,
        "overlay": overlays,
        "underlay": underlays,
        "panel": panels,
        "moves": moves,
        "error": error,
        "departures": departures,
        "review": None if review is None else viewer_review(review, rules, len(replay.steps)),
        "coalCap": rules.markets["coal"].capacity,
        "ironCap": rules.markets["iron"].capacity,
    }


def display_names(names: Sequence[str]) -> list[str]:
    """Names as shown: NFKC folds full-width punctuation that common fonts lack (e.g. "AI（v2）")."""
    return [unicodedata.normalize("NFKC", n) for n in names]


def _json_for_script(data: Any) -> str:
    # inside <script>, "</" would end the element and "<!--" would change how it is parsed
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "<\\u0021--")
    )


def viewer_html(
    replay: Replay, *, title: str | None = None, start: int | None = None, review: GameReview | None = None
) -> str:
    """The viewer page for a replayed game (legal or not) as HTML text.

    ``start``: the action index (0-based, as in the data; ``-1``: the setup) the page opens at without
    an ``#action=`` in its address (default: the last action). ``review``: the game's review, shown
    along the game."""
    data = viewer_data(replay, review)
    last = len(replay.steps) - 1
    start = last if start is None else max(-1, min(start, last))
    state = replay._state_at(start)
    head = svg_open(state.rules, len(state.players), width=None)
    fragments: Sequence[str] = [data["frags"][i] for i in data["pos"][start + 1]]
    board = join_parts(head, fragments, data["overlay"][start + 1], data["underlay"][start + 1])
    names = ", ".join(display_names(replay.log.players))
    heading = title or f"{data['edition']}: {names}"
    return (
        PAGE.replace("%%TITLE%%", esc(heading))
        .replace("%%BOARD%%", board)
        .replace("%%START%%", str(start))
        .replace("%%DATA%%", _json_for_script(data))
    )


def write_viewer(replay: Replay, out: str | Path, **kwargs: Any) -> Path:
    """Write the viewer page atomically and return its path."""
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(viewer_html(replay, **kwargs), encoding="utf-8")
    tmp.replace(out)
    return out


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%%TITLE%%</title>
<style>
body{font-family:-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;margin:0;color:#222;background:#fff}
header{position:sticky;top:0;z-index:2;background:#f3e3b5;border-bottom:2px solid #8a6d1d;padding:6px 12px}
header h1{font-size:17px;margin:0 0 4px 0}
.nav{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.nav button{font-size:15px;min-width:38px;padding:3px 8px;cursor:pointer}
#slider{flex:1;min-width:200px}
#where{font-weight:bold;min-width:300px}
main{display:flex;gap:14px;padding:10px;align-items:flex-start}
#boardbox{flex:1 1 auto;min-width:0}
#boardbox svg{max-width:100%;height:auto;display:block;border:1px solid #ccc}
aside{flex:0 0 430px;max-width:430px}
#moves{height:420px;overflow-y:auto;border:1px solid #ccc;font-size:13px;margin:0;padding:0;list-style:none}
#moves li{padding:3px 6px;border-bottom:1px solid #eee;cursor:pointer}
#moves li:hover{background:#f7f2e0}
#moves li.cur{background:#ffe7a3;font-weight:bold}
#moves li.bad{background:#fbd5d5;color:#800}
#moves li.dev{border-left:4px solid #d97400}
#moves .rnd{color:#777;font-size:11px;margin-right:4px}
#moves .sw{display:inline-block;width:10px;height:10px;margin-right:4px}
.lab{display:inline-block;color:#fff;font-size:11px;font-weight:bold;padding:0 4px;border-radius:3px;margin-right:4px}
.devmark{color:#b35f00;font-weight:bold;margin-right:4px}
table{border-collapse:collapse;font-size:13px;margin:6px 0;width:100%}
th,td{border:1px solid #ddd;padding:2px 5px;text-align:right}
th{background:#f3e3b5}td:first-child,th:first-child{text-align:left}
tr.turn td:first-child{font-weight:bold}
#error{display:none;background:#fbd5d5;border:2px solid #a00;padding:8px;margin:10px;font-size:14px}
#error.on{display:block}
#departure{display:none;background:#ffe9cc;border:2px solid #d97400;padding:8px;margin:10px;font-size:14px}
#departure.on{display:block}
#devnote{display:none;margin:6px 10px 0;font-size:13px;color:#8a4b00}
#devnote.on{display:block}
#evalbox{display:none;margin:0 0 8px 0}
#evalbox.on{display:block}
#c-eval{width:100%;height:auto;display:block;border:1px solid #ccc;cursor:pointer}
#review{display:none;border:1px solid #ccc;background:#faf7ff;padding:6px 8px;font-size:13px;margin:6px 0}
#review.on{display:block}
.charts{display:flex;flex-wrap:wrap;gap:10px}
.charts figure{margin:0}
figcaption{font-size:13px;color:#555}
h2{font-size:15px;margin:10px 0 4px}
.meta{color:#555;font-size:13px}
</style></head>
<body>
<header><h1 id="h">%%TITLE%%</h1>
<div class="nav">
<button id="first" title="First (Home)">|&#x25C0;</button>
<button id="prev" title="Previous (Left arrow)">&#x25C0;</button>
<button id="next" title="Next (Right arrow)">&#x25B6;</button>
<button id="last" title="Last (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="action">
<span id="where"></span>
<label>round <select id="round"></select></label>
<button id="canal">Canal Era</button><button id="rail">Rail Era</button>
</div></header>
<div id="error"></div>
<p id="devnote"></p>
<div id="departure"></div>
<main>
<div id="boardbox">
<div id="evalbox"><div class="meta" id="evalcap"></div><svg id="c-eval" viewBox="0 0 1000 120"
 preserveAspectRatio="none" role="img" aria-label="win probability after each action"></svg></div>
%%BOARD%%
<div class="charts">
<figure><figcaption>Income level</figcaption><svg id="c-income" width="520" height="210"></svg></figure>
<figure><figcaption>VP</figcaption><svg id="c-vp" width="520" height="210"></svg></figure>
</div></div>
<aside>
<h2 id="turn"></h2>
<table id="players"></table>
<div id="review"></div>
<div id="markets" class="meta"></div>
<div id="accuracy"></div>
<h2>Moves</h2>
<ol id="moves"></ol>
<p class="meta">Keys: &larr; &rarr; step, Home/End, PageUp/PageDown by round. Links: add #action=N to the address
(N counts actions from 1; 0 is the setup).</p>
</aside></main>
<script type="application/json" id="bs-data">%%DATA%%</script>
<script>
"use strict";
(function(){
const D = JSON.parse(document.getElementById("bs-data").textContent);
const LAST = D.pos.length - 2;            // index of the last applied action (0-based, as in the data)
const COUNT = LAST + 1;                   // actions applied; on screen they are numbered 1..COUNT
const R = D.review;
const svg = document.querySelector("#boardbox svg.bs-board");
const parts = Array.from(svg.querySelectorAll("g[data-part]")).filter(g => /^\\d+$/.test(g.dataset.part));
const overlay = svg.querySelector('g[data-part="overlay"]');
const underlay = svg.querySelector('g[data-part="underlay"]');
const shown = D.pos[%%START%% + 1].slice();
const $ = id => document.getElementById(id);
const esc = s => String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c]));
const pct = v => Math.round(v * 100) + "%";
const vp = v => v.toFixed(1);                       // VP of expected margin
const signed = v => (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v).toFixed(1);
let cur = %%START%%;                      // index of the action shown (-1: the setup)
const slider = $("slider");
slider.min = 0; slider.max = COUNT; slider.value = cur + 1;

// departures from the rules (a game replayed as played), by action index
const DEV = {};
D.departures.forEach(d => { (DEV[d.i] = DEV[d.i] || []).push(d); });
const devAt = Object.keys(DEV).map(Number).sort((a, b) => a - b);
if (devAt.length) {
  $("devnote").innerHTML = "As played, this game departs from the rules at " + devAt.map(i =>
    '<a href="#action=' + (i + 1) + '">action ' + (i + 1) + "</a> [" + DEV[i].map(d => esc(d.rule))
      .filter((r, k, a) => a.indexOf(r) === k).join(", ") + "]").join(", ") +
    " (a strict check refuses it there).";
  $("devnote").classList.add("on");
}

// rounds: the position just before each round's first action
const rounds = [];
D.moves.forEach(m => {
  const key = m.era + " " + m.r;
  if (!rounds.length || rounds[rounds.length - 1].key !== key) rounds.push({key: key, era: m.era, r: m.r, at: m.i - 1});
});
$("round").innerHTML = rounds.map((r, k) =>
  '<option value="' + k + '">' + (r.era === "canal" ? "Canal" : "Rail") + " " + r.r + "</option>").join("");

function labelBadge(l) {
  return l ? '<span class="lab" style="background:' + R.colours[l] + '">' + esc(l) + "</span>" : "";
}
// move list: the screen number (from 1), the round, the player's colour, the move
$("moves").innerHTML = D.moves.map(m => {
  const a = R && !m.bad ? R.acts[m.i] : null;
  const cls = [m.bad ? "bad" : "", DEV[m.i] && !m.bad ? "dev" : ""].filter(Boolean).join(" ");
  return '<li data-i="' + m.i + '"' + (cls ? ' class="' + cls + '"' : "") + '><span class="rnd">' + (m.i + 1) +
    " \\u00b7 " + (m.era === "canal" ? "C" : "R") + m.r + '</span><span class="sw" style="background:' +
    (m.s >= 0 ? D.colours[m.s % D.colours.length] : "#999") + '"></span>' +
    (DEV[m.i] && !m.bad ? '<span class="devmark" title="departs from the rules">\\u26a0</span>' : "") +
    (a && a.l ? labelBadge(a.l) : "") + esc(m.t) + "</li>";
}).join("");
$("moves").addEventListener("click", ev => {
  const li = ev.target.closest("li"); if (!li) return;
  go(Math.min(parseInt(li.dataset.i, 10), LAST));
});

if (D.error) {
  $("error").innerHTML = "<b>Illegal action " + (D.error.index + 1) + " [" + esc(D.error.rule) + "]:</b> " +
    esc(D.error.message) + (D.error.words ? '<br><i>Rulebook: \\u201c' + esc(D.error.words) + "\\u201d</i>" : "") +
    "<br>The game is shown up to the action before it.";
  $("error").classList.add("on");
}

// charts, drawn once; only the marker moves
function chart(el, idx) {
  const W = 520, H = 210, L = 34, R = 8, T = 8, B = 24;
  let lo = Infinity, hi = -Infinity;
  D.panel.forEach(p => p.p.forEach(v => { lo = Math.min(lo, v[idx]); hi = Math.max(hi, v[idx]); }));
  if (lo === hi) { hi = lo + 1; }
  const n = D.panel.length;
  const x = k => L + (W - L - R) * (n > 1 ? k / (n - 1) : 0);
  const y = v => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  let s = '<rect width="' + W + '" height="' + H + '" fill="#fff"/>';
  s += '<line x1="' + L + '" y1="' + (H - B) + '" x2="' + (W - R) + '" y2="' + (H - B) + '" stroke="#999"/>';
  [lo, Math.round((lo + hi) / 2), hi].forEach(v => {
    s += '<text x="' + (L - 4) + '" y="' + (y(v) + 4) + '" font-size="11" text-anchor="end">' + v + "</text>" +
      '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#eee"/>';
  });
  const railAt = D.panel.findIndex(p => p.era === "rail");
  if (railAt > 0) s += '<line x1="' + x(railAt) + '" x2="' + x(railAt) + '" y1="' + T + '" y2="' + (H - B) +
    '" stroke="#bbb" stroke-dasharray="4 3"/><text x="' + (x(railAt) + 3) + '" y="' + (H - 8) +
    '" font-size="11">Rail Era</text>';
  s += '<text x="' + L + '" y="' + (H - 8) + '" font-size="11">setup</text>';
  D.names.forEach((nm, seat) => {
    const pts = D.panel.map((p, k) => x(k).toFixed(1) + "," + y(p.p[seat][idx]).toFixed(1)).join(" ");
    s += '<polyline fill="none" stroke-width="2" stroke="' + D.colours[seat % D.colours.length] + '" points="' + pts +
      '"><title>' + esc(nm) + "</title></polyline>";
  });
  s += '<line class="marker" y1="' + T + '" y2="' + (H - B) + '" stroke="#000" stroke-width="1.5"/>';
  el.innerHTML = s;
  return k => { const m = el.querySelector(".marker"); m.setAttribute("x1", x(k)); m.setAttribute("x2", x(k)); };
}
const markIncome = chart($("c-income"), 1), markVp = chart($("c-vp"), 2);

// the evaluation strip: each player's win probability after each reviewed action; click to go there
function evalStrip() {
  const el = $("c-eval");
  const W = 1000, H = 120, L = 40, RM = 8, T = 6, B = 16;
  const n = D.pos.length;                 // positions: the setup, then after each action
  const x = k => L + (W - L - RM) * (n > 1 ? k / (n - 1) : 0);
  const y = v => T + (H - T - B) * (1 - v);
  let s = '<rect width="' + W + '" height="' + H + '" fill="#fff"/>';
  [0, 0.5, 1].forEach(v => {
    s += '<text x="' + (L - 4) + '" y="' + (y(v) + 4) + '" font-size="11" text-anchor="end">' + pct(v) + "</text>" +
      '<line x1="' + L + '" x2="' + (W - RM) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#eee"/>';
  });
  const railAt = D.panel.findIndex(p => p.era === "rail");
  if (railAt > 0) s += '<line x1="' + x(railAt) + '" x2="' + x(railAt) + '" y1="' + T + '" y2="' + (H - B) +
    '" stroke="#bbb" stroke-dasharray="4 3"/><text x="' + (x(railAt) + 3) + '" y="' + (H - 4) +
    '" font-size="11">Rail Era</text>';
  D.names.forEach((nm, seat) => {
    // one polyline per run of reviewed actions (a gap where an action was not reviewed)
    let run = [];
    const flush = () => {
      if (run.length) s += '<polyline class="win" data-seat="' + seat + '" fill="none" stroke-width="2" stroke="' +
        D.colours[seat % D.colours.length] + '" points="' + run.join(" ") + '"><title>' + esc(nm) +
        "</title></polyline>";
      run = [];
    };
    R.acts.forEach((a, i) => { if (a) run.push(x(i + 1).toFixed(1) + "," + y(a.w[seat]).toFixed(1)); else flush(); });
    flush();
  });
  R.acts.forEach((a, i) => {
    if (!a || !a.l) return;
    const seat = D.moves[i].s;
    s += '<circle class="lab-dot" data-i="' + i + '" cx="' + x(i + 1).toFixed(1) + '" cy="' + y(a.w[seat]).toFixed(1) +
      '" r="5" fill="' + R.colours[a.l] + '" stroke="#fff"><title>action ' + (i + 1) + ": " + esc(a.l) + " by " +
      esc(D.names[seat]) + "</title></circle>";
  });
  s += '<line class="marker" y1="' + T + '" y2="' + (H - B) + '" stroke="#000" stroke-width="2"/>';
  el.innerHTML = s;
  el.addEventListener("click", ev => {
    const box = el.getBoundingClientRect();
    const px = (ev.clientX - box.left) / box.width * W;
    go(Math.round((px - L) / (W - L - RM) * (n - 1)) - 1);
  });
  const done = R.reviewed === COUNT ? "every action" : R.reviewed + " of " + COUNT + " actions";
  $("evalcap").textContent = "Win probability after each action (" + done + " reviewed, " + R.sims +
    " simulations per judged action, seed " + R.seed + "). Dots: inaccuracies, mistakes and blunders. " +
    "Click to go there.";
  $("evalbox").classList.add("on");
  return k => { const m = el.querySelector(".marker"); m.setAttribute("x1", x(k)); m.setAttribute("x2", x(k)); };
}
const markEval = R ? evalStrip() : null;
if (R) {
  let t = "<tr><th>player</th><th>accuracy</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>";
  R.summary.forEach((p, seat) => {
    t += "<tr><td>" + esc(D.names[seat]) + "</td><td>" + (p.a === null ? "" : p.a.toFixed(1)) + "</td><td>" + p.i +
      "</td><td>" + p.m + "</td><td>" + p.b + "</td></tr>";
  });
  $("accuracy").innerHTML = "<h2>Accuracy</h2><table>" + t + "</table><p class=\\"meta\\">" + esc(R.measure) +
    ". " + esc(R.labels) + "</p>";
}

function reviewText() {
  if (cur < 0) return "The setup: no action yet.";
  const a = R.acts[cur];
  if (!a) return "Action " + (cur + 1) + " was not reviewed.";
  const who = esc(D.names[D.moves[cur].s]);
  if (!a.j) return who + " had one legal action only (not judged).";
  if (!a.b) return who + "\\u2019s action " + (cur + 1) + ": the best action the search found.";
  const drawn = R.better[cur] ? " (dashed purple on the board)" : "";
  const head = a.l ? labelBadge(a.l) + "<b>" + who + "\\u2019s action " + (cur + 1) + " is " +
    (a.l === "inaccuracy" ? "an " : "a ") + esc(a.l) + "</b>: " : who + "\\u2019s action " + (cur + 1) + ": ";
  // the cost is what the label counts; how sure the margin is, only where more samples changed its label
  const chance = a.c - a.s >= 0.05 ? ", " + vp(a.c - a.s) + " of it the chance of winning given away" : "";
  const sure = a.r ? "; the engine is sure of " + vp(a.s) + " VP of its " + vp(a.loss) : "";
  const reading = " (expected margin " + signed(a.pv) + " VP after it, " + signed(a.bv) +
    " after the better one, on a first reading" + sure + ")";
  return head + vp(a.c) + " VP below the better action" + chance + reading + ".<br><b>Better:</b> " +
    "<span class=\\"better\\">" + esc(a.b) + "</span>" + drawn;
}

function render() {
  const row = D.pos[cur + 1];
  for (let k = 0; k < parts.length; k++) {
    if (shown[k] !== row[k]) { parts[k].innerHTML = D.frags[row[k]]; shown[k] = row[k]; }
  }
  overlay.innerHTML = D.overlay[cur + 1] + (R && cur >= 0 ? R.better[cur] : "");
  underlay.innerHTML = D.underlay[cur + 1];
  const P = D.panel[cur + 1];
  const win = R && cur >= 0 && R.acts[cur] ? R.acts[cur].w : null;
  let t = "<tr><th>player</th><th>£</th><th>income</th><th>VP</th><th>hand</th><th>tiles left</th>" +
    "<th>loans</th>" + (R ? '<th title="win probability after this action">win</th>' : "") + "</tr>";
  P.p.forEach((v, seat) => {
    const mat = Object.entries(v[7]).map(e => e[0] + ": " + e[1]).join(", ");
    t += '<tr data-seat="' + seat + '"' + (P.turn === seat ? ' class="turn"' : "") + '><td><span class="sw" ' +
      'style="display:inline-block;width:10px;height:10px;background:' + D.colours[seat % D.colours.length] +
      '"></span> ' + esc(D.names[seat]) + (P.turn === seat ? " \\u25c0" : "") + '</td><td class="money">' + v[0] +
      '</td><td class="income">' + v[1] + '</td><td class="vp">' + v[2] + '</td><td class="hand">' + v[3] +
      '</td><td class="tiles" title="' + esc(mat) + '">' + v[4] + '</td><td class="loans">' + v[5] + "</td>" +
      (R ? '<td class="win">' + (win ? pct(win[seat]) : "") + "</td>" : "") + "</tr>";
  });
  $("players").innerHTML = t;
  const beer = Object.entries(P.beer).map(e => esc(e[0]) + " " + e[1]).join(", ");
  $("markets").innerHTML = "Coal market: <b>" + P.coal + "</b>/" + D.coalCap + " cubes \\u00b7 Iron market: <b>" +
    P.iron + "</b>/" + D.ironCap + " cubes" + (beer ? "<br>Merchant barrels: " + beer : "");
  const era = P.era === "canal" ? "Canal Era" : "Rail Era";
  $("turn").textContent = P.over ? "Game over" : era + ", round " + P.round +
    (P.turn >= 0 ? " \\u2014 " + D.names[P.turn] + " to move" : "");
  const where = cur < 0 ? "the setup (before action 1)" : "action " + (cur + 1) + " of " + COUNT;
  $("where").textContent = cur < 0 ? where : "after " + where;
  document.title = D.edition + " \\u2014 " + where;
  slider.value = cur + 1;
  document.querySelectorAll("#moves li.cur").forEach(li => li.classList.remove("cur"));
  const li = document.querySelector('#moves li[data-i="' + cur + '"]');
  if (li) { li.classList.add("cur"); li.scrollIntoView({block: "nearest"}); }
  const rk = rounds.findIndex((r, k) => k + 1 === rounds.length || rounds[k + 1].at >= cur);
  if (rk >= 0) $("round").value = rk;
  markIncome(cur + 1); markVp(cur + 1);
  if (markEval) markEval(cur + 1);
  if (R) { $("review").innerHTML = reviewText(); $("review").classList.add("on"); }
  const devs = cur >= 0 ? DEV[cur] : null;
  if (devs) {
    $("departure").innerHTML = "<b>" + esc(D.names[D.moves[cur].s]) + "\u2019s action " + (cur + 1) +
      " departs from the rules</b> (accepted as played; a strict " +
      "check refuses it):" + devs.map(d => "<br><b>[" + esc(d.rule) + "]</b> " + esc(d.message) +
      (d.words ? '<br><i>Rulebook: \\u201c' + esc(d.words) + "\\u201d</i>" : "")).join("");
    $("departure").classList.add("on");
  } else {
    $("departure").classList.remove("on");
  }
  const want = "#action=" + (cur + 1);
  if (location.hash !== want) history.replaceState(null, "", want);
}
function go(n) {
  n = Math.max(-1, Math.min(LAST, n | 0));
  if (n === cur && document.body.dataset.ready) return;
  cur = n; render(); document.body.dataset.ready = "1"; document.body.dataset.action = String(cur + 1);
}
function fromHash() {
  // #action=N: the N-th action, counted from 1 as on screen (0, or below: the setup)
  const m = /action=(-?\\d+)/.exec(location.hash);
  return m ? Math.max(0, parseInt(m[1], 10)) - 1 : null;
}
function roundStep(dir) {
  const k = rounds.findIndex((r, j) => j + 1 === rounds.length || rounds[j + 1].at >= cur);
  const target = rounds[Math.max(0, Math.min(rounds.length - 1, k + dir))];
  if (target) go(dir < 0 && target.at === cur && k + dir - 1 >= 0 ? rounds[k + dir - 1].at : target.at);
}
$("first").onclick = () => go(-1);
$("prev").onclick = () => go(cur - 1);
$("next").onclick = () => go(cur + 1);
$("last").onclick = () => go(LAST);
slider.addEventListener("input", () => go(parseInt(slider.value, 10) - 1));
$("round").addEventListener("change", ev => go(rounds[parseInt(ev.target.value, 10)].at));
$("canal").onclick = () => go(-1);
const railStart = D.moves.find(m => m.era === "rail");
if (railStart) $("rail").onclick = () => go(railStart.i - 1); else $("rail").disabled = true;
document.addEventListener("keydown", ev => {
  if (ev.target === slider || ev.target.tagName === "SELECT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const k = ev.key;
  if (k === "ArrowRight" || k === "ArrowDown") go(cur + 1);
  else if (k === "ArrowLeft" || k === "ArrowUp") go(cur - 1);
  else if (k === "Home") go(-1);
  else if (k === "End") go(LAST);
  else if (k === "PageDown") roundStep(1);
  else if (k === "PageUp") roundStep(-1);
  else return;
  ev.preventDefault();
});
window.addEventListener("hashchange", () => { const h = fromHash(); if (h !== null && h !== cur) go(h); });
const h = fromHash();
go(h !== null ? h : cur);
document.body.dataset.ready = "1";
})();
</script>
</body></html>
"""
