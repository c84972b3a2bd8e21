"""The post-game report and its charts: key moments, VP breakdown layout, names shown safely (issues 11, 13)."""

from __future__ import annotations

import colorsys
import dataclasses
import html
import re
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import convert_golden
from matplotlib.colors import to_rgb
from matplotlib.container import BarContainer
from review_helpers import better_than_played, first_of, hand_review

from brass_stats.analysis.review import GameReview
from brass_stats.analysis.statistics import breakdowns as A
from brass_stats.cli import main
from brass_stats.engine.actions import Build
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.engine.scoring import potential_vp
from brass_stats.presentation import plots
from brass_stats.presentation.evaluation import MEASURE
from brass_stats.presentation.report import _table, build_report, era_boards_from_tables
from brass_stats.presentation.text import TEXT_LIMIT, display_text, plot_text
from brass_stats.replay import Replay, replay
from brass_stats.storage import ingest

REPLAYS = Path(__file__).parents[1] / "replays"
# VP per era published by the server for the 4-player golden game (setup file, vpBreakdown): links, tiles
PUBLISHED = {"canal": ([12, 19, 6, 19], [25, 26, 30, 25]), "rail": ([41, 13, 68, 43], [70, 77, 22, 40])}


@pytest.fixture(scope="module")
def game4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "gm7vza-4p.json"
    convert_golden("gm7vza-4p").save(path)
    return path


@pytest.fixture(scope="module")
def src4(game4: Path) -> A.GameSource:
    return A.open_game(str(game4))


def _renamed(path: Path, names: list[str], out: Path) -> Path:
    log = convert_golden(path.stem)
    dataclasses.replace(log, players=tuple(names)).save(out)
    return out


# -- key moments -------------------------------------------------------------------------------


def test_era_end_scoring_is_what_the_server_published(src4: A.GameSource) -> None:
    df = A.era_end_scoring(src4)
    for era, (links, tiles) in PUBLISHED.items():
        rows = df[df["era"] == era]
        assert rows["links"].tolist() == links and rows["tiles"].tolist() == tiles
        assert (rows["scored"] == rows["links"] + rows["tiles"]).all()
    # named: who took the era's last action
    log = convert_golden("gm7vza-4p")
    last_canal = int(df.loc[df["era"] == "canal", "after_action"].iloc[0])
    assert set(df.loc[df["era"] == "canal", "last_action_by"]) == {log.players[log.actions[last_canal].player]}


def test_the_action_ending_the_canal_era_is_not_credited_with_the_era_scoring(src4: A.GameSource) -> None:
    """Re-derived from the engine: the swing of the era's last action is the VP after scoring minus what the
    player had scored plus would have scored before that action, never the tiles' Rail Era value on top."""
    r = replay(convert_golden("gm7vza-4p"))
    last = max(s.index for s in r.steps if s.era == "canal")
    before, after = r.state_at(last - 1), r.state_at(last)
    assert after.era == "rail"
    swings = A.action_swings(src4)
    at_end = swings[swings["action_index"] == last].set_index("affected")
    for p in before.players:
        links, tiles = potential_vp(before, p.seat)
        expected = after.players[p.seat].vp - (p.vp + links + tiles)
        got = int(at_end.loc[p.name, "swing"]) if p.name in at_end.index else 0
        assert got == expected
        assert abs(got) < 20  # the old report showed the era's scoring (~40 VP) as a swing here


def test_swings_name_who_acted_and_who_was_affected(src4: A.GameSource) -> None:
    log = convert_golden("gm7vza-4p")
    swings = A.action_swings(src4)
    assert not swings.empty and (swings["swing"] != 0).all()
    for row in swings.itertuples():
        assert row.actor == log.players[log.actions[row.action_index].player]
        assert row.affected in log.players
    # some actions move an opponent's score (e.g. a flipped tile raising the value of their links)
    assert (swings["actor"] != swings["affected"]).any()
    top, _ = A.key_moments(src4, top=5)
    assert len(top) == 5 and top["swing"].abs().is_monotonic_decreasing


# -- charts ----------------------------------------------------------------------------------


def test_vp_breakdown_totals_fit_and_legend_follows_the_stack(src4: A.GameSource) -> None:
    by_source = A.vp_by_source(src4)
    fig = plots.vp_breakdown_chart(by_source)
    ax = fig.axes[0]
    assert ax.get_ylim()[1] > by_source["total"].max() * 1.05  # the total written above the bar stays inside
    fig.canvas.draw()
    axes_box = ax.get_window_extent()
    totals = [t for t in ax.texts if t.get_text() in {str(v) for v in by_source["total"]}]
    assert len(totals) == len(by_source)
    assert all(axes_box.contains(t.get_window_extent().x0, t.get_window_extent().y1 - 1) for t in totals)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    bottoms = [c.patches[0].get_y() for c in bars]
    assert bottoms == sorted(bottoms)  # drawn bottom to top in SOURCE_COLOURS order
    sources = [s.replace("_", " ") for s in plots.SOURCE_COLOURS if s in by_source and by_source[s].any()]
    assert legend == list(reversed(sources))


def test_long_player_names_do_not_overlap_on_the_x_axis() -> None:
    names = ["Bartholomew Fitzgerald-Worthington III", "Maximiliana Oppenheimer-Rothschild", "Ann", "Z" * 60]
    df = pd.DataFrame({"seat": range(4), "name": names, "canal_links": [10] * 4, "total": [10] * 4})
    fig = plots.vp_breakdown_chart(df.assign(shortfall_lost=0))
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in fig.axes[0].get_xticklabels()]
    assert len(boxes) == 4
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert a.x1 < b.x0, "neighbouring names overlap"


def test_cotton_mill_and_brewery_colours_are_far_apart() -> None:
    def hue_light(c: str) -> tuple[float, float, float]:
        return colorsys.rgb_to_hls(*to_rgb(c))

    colours = plots.SOURCE_COLOURS
    for a in colours:
        for b in colours:
            if a < b:
                ra, rb = to_rgb(colours[a]), to_rgb(colours[b])
                assert sum((x - y) ** 2 for x, y in zip(ra, rb, strict=True)) ** 0.5 > 0.12, (a, b)
    cotton, brewery = hue_light(colours["cotton_mill"]), hue_light(colours["brewery"])
    assert abs(cotton[1] - brewery[1]) > 0.4  # lightness: one pale, one dark


def test_vp_progression_axis_counts_rounds(src4: A.GameSource) -> None:
    progression = A.vp_progression(src4)
    fig = plots.vp_progression_chart(progression)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0] == "1" and labels[-1] == str(progression["round"].max())
    assert "round" in ax.get_xlabel()
    x = plots.with_round_positions(progression)
    # every action sits inside its own round's span
    assert ((x["x"] > x["round"] - 1) & (x["x"] <= x["round"])).all()


# -- names ------------------------------------------------------------------------------------


def test_names_with_dollar_signs_are_plain_text_in_every_chart(game4: Path, tmp_path: Path) -> None:
    names = ["$x^$", "$\\frac{1}{0}$", "_hidden", "Ann"]
    log = _renamed(game4, names, tmp_path / "gm7vza-4p.json")
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["report", str(log), "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["income", str(log), "--plot", str(tmp_path / "i.png")])
    assert res.exit_code == 0, res.output
    src = A.open_game(str(log))
    fig = plots.income_chart(A.round_summary(src))
    fig.canvas.draw()
    shown = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert len(shown) == 4  # "_hidden" is not dropped as a matplotlib "no legend" label
    assert all(not t._preprocess_math(t.get_text())[1] for t in fig.axes[0].get_legend().get_texts())
    text = out.read_text(encoding="utf-8")
    assert "$x^$" in text and "_hidden" in text


def test_a_huge_name_is_shortened_and_the_report_stays_quick(game4: Path, tmp_path: Path) -> None:
    huge = "Ann" + "n" * 1_000_000
    log = _renamed(game4, [huge, "Bob", "Cy", "Di"], tmp_path / "gm7vza-4p.json")
    out = tmp_path / "r.html"
    start = time.perf_counter()
    # the reader refuses such a name by default (issue 11's string limit); raised, the report shortens it
    refused = CliRunner().invoke(main, ["report", str(log), "--out", str(out)])
    assert refused.exit_code == 2 and "over the limit" in refused.output, refused.output
    start = time.perf_counter()
    res = CliRunner().invoke(
        main, ["report", str(log), "--out", str(out)], env={"BRASS_STATS_MAX_STRING_LENGTH": "2000000"}
    )
    assert res.exit_code == 0, res.output
    assert time.perf_counter() - start < 120
    text = out.read_text(encoding="utf-8")
    assert "Annnnnn" in text and "n" * 1000 not in text and len(text) < 2_000_000


def test_tables_convert_names_of_every_string_dtype() -> None:
    for dtype in (object, "string", pd.StringDtype("pyarrow"), "str"):
        df = pd.DataFrame({"name": pd.Series(["AI-1（jsb）", "<b>x</b>"], dtype=dtype), "vp": [1, 2]})
        html = _table(df)
        assert "AI-1(jsb)" in html and "（" not in html, dtype
        assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x" not in html


def test_importing_the_charts_selects_no_backend() -> None:
    code = (
        "import sys, matplotlib\n"
        "import brass_stats.presentation.report, brass_stats.presentation.plots, brass_stats.presentation.notebook\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'\n"
        "assert matplotlib.rcParams._get_backend_or_none() is None, matplotlib.rcParams._get_backend_or_none()\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "MPLBACKEND"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr


# -- boards from the database ------------------------------------------------------------------


def test_boards_from_the_database_keep_the_merchant_tiles(game4: Path, tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    assert ingest([str(game4)], db, workers=1, progress=False, policy=AS_PLAYED).exit_status == 0
    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games").fetchone()[0]  # type: ignore[index]
    con.close()
    r = replay(convert_golden("gm7vza-4p"), AS_PLAYED)
    boards = dict(era_boards_from_tables(A.open_game(gid, db)))
    last_canal = max(s.index for s in r.steps if s.era == "canal")
    for era, state in (("canal", r.state_at(last_canal)), ("rail", r.state)):
        want = sorted((m.location, m.index, m.face, m.beer) for m in state.merchant_spaces)
        got = sorted((m.location, m.index, m.face, m.beer) for m in boards[era].merchant_spaces)
        assert got == want and {f for _, _, f, _ in got} - {"blank"}
    # the players' money, income and VP after the era's scoring, and the markets
    for era, state in (("canal", r.state_at(last_canal)), ("rail", r.state)):
        got_players = [(p.money, p.income_space, p.vp) for p in boards[era].players]
        assert got_players == [(p.money, p.income_space, p.vp) for p in state.players]
        assert (boards[era].coal_market, boards[era].iron_market) == (state.coal_market, state.iron_market)
    html = build_report(A.open_game(gid, db))
    assert html.count("<svg") == 2 and html.count('class="bs-board"') == 2


# -- in a real browser ---------------------------------------------------------------------------


def test_report_writes_the_viewer_and_links_each_key_moment(game4: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["report", str(game4), "--out", str(out)])
    assert res.exit_code == 0, res.output
    viewer = tmp_path / "r-viewer.html"
    assert viewer.exists() and "replay viewer" in res.output
    text = out.read_text(encoding="utf-8")
    swings, _ = A.key_moments(A.open_game(str(game4)))
    for i in swings["action_index"]:  # the viewer's #action=N counts from 1, as on screen
        assert f"href='r-viewer.html#action={int(i) + 1}'" in text
    # the viewer opens at action N from its URL fragment (see tests/test_viewer.py); here: it is that game
    assert "Player1" in viewer.read_text(encoding="utf-8")
    res = CliRunner().invoke(main, ["report", str(game4), "--out", str(tmp_path / "n.html"), "--no-viewer"])
    assert res.exit_code == 0 and not (tmp_path / "n-viewer.html").exists()
    assert "#action=" not in (tmp_path / "n.html").read_text(encoding="utf-8")


def test_report_fits_the_page_in_headless_chromium(game4: Path, tmp_path: Path) -> None:
    """Laid out by Chromium at a laptop width: nothing overflows the page, the VP table fits without
    scrolling, the key moments link to the viewer, and long non-ASCII names come out as text."""
    import shutil

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is installed by tests/setup.sh (apt-get install chromium)"
    names = ["Zoë Ångström-Weißmüller (très long nom)", "AI-1（jsb-v20260910）", "Łukasz Żółć", "Ann"]
    log = _renamed(game4, names, tmp_path / "gm7vza-4p.json")
    out = tmp_path / "report.html"
    html = build_report(A.open_game(str(log)), viewer_href="game-viewer.html")
    out.write_text(html, encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            page.goto(out.as_uri())
            assert page.evaluate("document.documentElement.scrollWidth") <= 1000
            tables = page.evaluate(
                """[...document.querySelectorAll('div.scroll')].map(d => ({
                       head: d.querySelector('th').textContent, overflow: d.scrollWidth > d.clientWidth}))"""
            )
            vp = [t for t in tables if t["head"] == "VP from"]
            assert vp and not any(t["overflow"] for t in vp)
            body = page.inner_text("body")
            assert "Zoë Ångström-Weißmüller" in body and "AI-1(jsb-v20260910)" in body and "Łukasz Żółć" in body
            links = page.eval_on_selector_all("a[href*='#action=']", "els => els.map(e => e.getAttribute('href'))")
            assert "game-viewer.html#action=124" in links  # the last of 124 actions
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()
    assert (tmp_path / "report.png").stat().st_size > 100_000


# -- the analysis section and the departures from the rules -------------------------------------


@pytest.fixture(scope="module")
def reviewed4(src4: A.GameSource) -> tuple[GameReview, list[int]]:
    """A review of the 4-player game made by hand: ten slips of growing loss (as the search would find
    them), each with a legal build as the better action."""
    r = src4.replay
    assert isinstance(r, Replay)
    slips: list[int] = []
    for _ in range(10):
        slips.append(first_of(r, Build, slips[-1] + 1 if slips else 5))
    losses = {i: (2.0 * (k + 1), better_than_played(r, i, Build)) for k, i in enumerate(slips)}  # 2 to 20 VP
    return hand_review(r, losses), slips


def test_the_report_shows_the_analysis_with_links_to_the_viewer(
    src4: A.GameSource, reviewed4: tuple[GameReview, list[int]]
) -> None:
    review, slips = reviewed4
    plain = build_report(src4, viewer_href="v.html")
    assert "Analysis" not in plain
    page = build_report(src4, viewer_href="v.html", review=review)
    assert page.count("<img") == plain.count("<img") + 1  # the win-probability chart
    section = page.split("<h2 id='analysis'>", 1)[1].split("<h2", 1)[0]
    assert "Accuracy" in section and "Largest mistakes" in section
    for p in review.summary:  # the accuracy table: each player's figure and counts
        name = display_text(p.player)
        assert f"<td class='text'>{name}</td><td class='num'>{round(p.accuracy or 0, 1):g}</td>" in section
    mistakes = section.split("Largest mistakes", 1)[1]
    # the 8 largest of the 10 slips, largest first, each linked to the viewer at that action
    shown = [int(x) for x in re.findall(r"href='v\.html#action=(\d+)'", mistakes)]
    assert shown == [i + 1 for i in reversed(slips)][:8]
    worst = next(a for a in review.actions if a.index == slips[-1])
    assert html.escape(display_text(worst.best, TEXT_LIMIT), quote=False) in mistakes
    # its cost (what its label counts) and the sure margin lost (what accuracy counts): 20 VP less 2
    assert "<th class='num'>cost (VP)</th><th class='num'>sure margin lost (VP)</th>" in mistakes
    assert "<td class='num'>18</td><td class='num'>18</td>" in mistakes and "±" not in section
    assert "blunder" in mistakes and "mistake" in mistakes and "inaccuracy" in mistakes
    # what the loss is, in one line, and the labels' thresholds
    assert html.escape(MEASURE) in section and "from 4 VP, mistake from 8, blunder from 15" in section
    assert "points of win probability" not in section


def test_win_probability_chart_has_a_line_per_player_and_marks_slips(reviewed4: tuple[GameReview, list[int]]) -> None:
    review, slips = reviewed4
    fig = plots.win_probability_chart(review, rail_from=60)
    ax = fig.axes[0]
    lines = [h for h in ax.get_lines() if getattr(h, "_brass_label", None) is not None]
    assert [h._brass_label for h in lines] == [plot_text(n) for n in review.players]  # type: ignore[attr-defined]
    assert list(lines[0].get_xdata())[0] == 1  # actions numbered from 1
    marked = sum(len(c.get_offsets()) for c in ax.collections)
    assert marked == sum(1 for a in review.actions if a.label)
    assert fig.to_png()[:4] == b"\x89PNG"


def test_the_report_lists_each_departure_from_the_rules(src4: A.GameSource) -> None:
    page = build_report(src4, viewer_href="v.html")
    assert "played with 2 departures from the rules" in page
    section = page.split("<h2 id='departures'>", 1)[1].split("<h2", 1)[0]
    assert section.count("href='v.html#action=118'") == 2 and section.count("network.link_tiles") == 2
    assert "14 per colour" in section and "beyond its 14" in section
    clean = build_report(A.open_game(str(REPLAYS / "real" / "wq9gs6-2p.json")))
    assert "departures" not in clean


def test_report_analyse_reviews_the_game_with_the_budget_given(
    game4: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reviewed4: tuple[GameReview, list[int]]
) -> None:
    from brass_stats.analysis import review as review_module

    calls: list[dict[str, object]] = []

    def fake_review(log: object, policy: object, **kw: object) -> GameReview:
        calls.append({"policy": policy, **{k: v for k, v in kw.items() if k != "progress"}})
        return reviewed4[0]

    monkeypatch.setattr(review_module, "review_game", fake_review)
    out = tmp_path / "r.html"
    args = ["report", str(game4), "--out", str(out), "--analyse", "--simulations", "7", "--seed", "5"]
    res = CliRunner().invoke(main, [*args, "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert calls == [{"policy": AS_PLAYED, "simulations": 7, "seed": 5, "workers": 2}]
    assert "<h2 id='analysis'>" in out.read_text("utf-8")
    assert '"review":{' in (tmp_path / "r-viewer.html").read_text("utf-8")
