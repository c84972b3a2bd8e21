"""The replay viewer (issue 13), driven in headless Chromium through Playwright.

Debian's ``/usr/bin/chromium`` (installed by tests/setup.sh) is the browser; Playwright never downloads one.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, sync_playwright
from review_helpers import better_than_played, first_of, hand_review

from brass_stats.cli import main
from brass_stats.engine.actions import Build, Network
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.presentation.evaluation import MEASURE
from brass_stats.presentation.svg_board import board_svg, geometry
from brass_stats.presentation.viewer import viewer_html, write_viewer
from brass_stats.replay import Replay, replay

REPLAYS = Path(__file__).parents[1] / "replays"
REAL_4P = REPLAYS / "real" / "gm7vza-4p.json"
LANCASHIRE = REPLAYS / "lancashire" / "game-5004-00000.json"
# kept for a person to look at: $BRASS_SCREENSHOTS, or a folder in the temporary directory
SHOTS = Path(os.environ.get("BRASS_SCREENSHOTS") or Path(tempfile.gettempdir()) / "brass-screenshots")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    assert Path(chromium).exists(), "Chromium is installed by tests/setup.sh (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def real() -> Replay:
    return replay(GameLog.load(REAL_4P))


@pytest.fixture(scope="module")
def pages(real: Replay, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("viewer")
    out = {
        "real": write_viewer(real, d / "real.html"),
        "lanc": write_viewer(replay(GameLog.load(LANCASHIRE)), d / "l.html"),
    }
    return out


def open_page(browser: Browser, path: Path, action: int | None = None) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1900, "height": 1250})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"fetch {r.url}"))
    page.goto(path.as_uri() + (f"#action={action}" if action is not None else ""))
    page.wait_for_selector("body[data-ready]")
    return page, problems


def at(page: Page, fragment: str) -> bool:
    """Whether the page reached ``fragment`` (waiting for the key or click to be handled, up to 5 s)."""
    page.wait_for_function("f => location.hash === f", arg=fragment, timeout=5000)
    return page.url.endswith(fragment)


def shown(page: Page) -> dict[str, list[int]]:
    """Money, income level and VP per player, as the panel table shows them."""
    out: dict[str, list[int]] = {}
    for col in ("money", "income", "vp", "hand", "loans"):
        out[col] = [int(t) for t in page.locator(f"#players td.{col}").all_inner_texts()]
    return out


def expected(r: Replay, at: int) -> dict[str, list[int]]:
    st = r.state_at(at)
    return {
        "money": [p.money for p in st.players],
        "income": [st.income_level(i) for i in range(len(st.players))],
        "vp": [p.vp for p in st.players],
        "hand": [len(p.hand) for p in st.players],
        "loans": [p.loans for p in st.players],
    }


def board_says(page: Page, r: Replay, at: int) -> None:
    """The SVG board's own player panel shows the same numbers."""
    text = page.eval_on_selector("svg.bs-board", "s => s.textContent")
    st = r.state_at(at)
    for seat, p in enumerate(st.players):
        assert f"£{p.money} · income {st.income_level(seat)} · {p.vp} VP" in text


def test_deep_link_opens_the_state_after_that_action(browser: Browser, pages: dict[str, Path], real: Replay) -> None:
    page, problems = open_page(browser, pages["real"], 41)  # the 41st action: index 40 in the data
    count = len(real.steps)
    assert page.title().endswith(f"action 41 of {count}")
    assert shown(page) == expected(real, 40)
    board_says(page, real, 40)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-birmingham-40.png"))
    assert problems == []
    page.close()


def test_arrow_keys_buttons_and_clicks_step_through_the_game(
    browser: Browser, pages: dict[str, Path], real: Replay
) -> None:
    page, problems = open_page(browser, pages["real"], 41)
    page.keyboard.press("ArrowRight")
    assert at(page, "#action=42") and shown(page) == expected(real, 41)
    board_says(page, real, 41)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert at(page, "#action=40") and shown(page) == expected(real, 39)
    page.click('#moves li[data-i="70"]')  # data-i: the index in the data
    assert at(page, "#action=71") and shown(page) == expected(real, 70)
    board_says(page, real, 70)
    assert page.locator("#moves li.cur").get_attribute("data-i") == "70"
    page.click("#next")
    assert shown(page) == expected(real, 71)
    page.keyboard.press("Home")
    assert at(page, "#action=0") and shown(page) == expected(real, -1)
    page.click("#last")
    last = len(real.steps) - 1
    assert page.title().endswith(f"action {last + 1} of {last + 1}") and shown(page) == expected(real, last)
    page.click("#rail")
    first_rail = next(s.index for s in real.steps if s.era == "rail")
    assert shown(page) == expected(real, first_rail - 1)
    page.select_option("#round", label="Canal 3")
    first_r3 = next(s.index for s in real.steps if s.era == "canal" and s.era_round == 3)
    assert at(page, f"#action={first_r3}")
    page.eval_on_selector("#slider", "s => { s.value = 13; s.dispatchEvent(new Event('input')); }")
    assert shown(page) == expected(real, 12)
    assert problems == []
    page.close()


def test_the_last_action_is_highlighted(browser: Browser, pages: dict[str, Path], real: Replay) -> None:
    i = next(s.index for s in real.steps if isinstance(s.action, Build))
    page, _ = open_page(browser, pages["real"], i + 1)
    assert page.locator('svg.bs-board g[data-part="overlay"] > *').count() > 0
    page.keyboard.press("Home")
    assert page.locator('svg.bs-board g[data-part="overlay"] > *').count() == 0
    page.close()


def test_charts_show_a_marker_at_the_current_action(browser: Browser, pages: dict[str, Path]) -> None:
    page, _ = open_page(browser, pages["real"], 0)
    x0 = float(page.get_attribute("#c-vp .marker", "x1") or 0)
    page.keyboard.press("End")
    x1 = float(page.get_attribute("#c-vp .marker", "x1") or 0)
    assert x1 > x0 and page.locator("#c-income polyline").count() == 4
    page.close()


def test_lancashire_viewer(browser: Browser, pages: dict[str, Path]) -> None:
    r = replay(GameLog.load(LANCASHIRE))
    page, problems = open_page(browser, pages["lanc"], 61)
    assert shown(page) == expected(r, 60)
    board_says(page, r, 60)
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert at(page, "#action=66") and shown(page) == expected(r, 65)
    text = page.eval_on_selector("svg.bs-board", "s => s.textContent")
    assert "Distant Cotton Market" in text and "Pt Port" in text
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-lancashire-65.png"))
    assert problems == []
    page.close()


def test_an_illegal_game_stops_before_the_illegal_action_with_the_rule(browser: Browser, tmp_path: Path) -> None:
    good = GameLog.load(REAL_4P)
    rules = good.rules()
    i, b = next(
        (k, a)
        for k, a in enumerate(good.actions)
        if isinstance(a, Build) and any(a.industry not in s.industries for s in rules.locations[a.location].slots)
    )
    wrong = next(s.index for s in rules.locations[b.location].slots if b.industry not in s.industries)
    r = replay(replace(good, actions=[*good.actions[:i], replace(b, slot=wrong), *good.actions[i + 1 :]]))
    assert r.error is not None and r.error.index == i
    path = write_viewer(r, tmp_path / "bad.html")
    page, problems = open_page(browser, path)
    banner = page.inner_text("#error")
    assert f"Illegal action {i + 1} [{r.error.rule}]" in banner and r.error.rule_text[:40] in banner
    assert page.title().endswith(f"action {i} of {i}")  # the action before it, the i-th, is the last shown
    assert page.locator("#moves li.bad").count() == 1
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-illegal.png"))
    assert problems == []
    page.close()


def test_view_command_writes_a_small_self_contained_page(tmp_path: Path, real: Replay) -> None:
    out = tmp_path / "game.html"
    res = CliRunner().invoke(main, ["view", str(REAL_4P), "--out", str(out)])
    assert res.exit_code == 0, res.output
    size = out.stat().st_size
    assert size < 2_000_000
    text = out.read_text("utf-8")
    assert "https://" not in text and "<script src" not in text and "<link" not in text


def test_names_cannot_break_out_of_the_page(browser: Browser, tmp_path: Path) -> None:
    log = GameLog.load(REPLAYS / "generated" / "game-2002-00000.json")
    nasty = ["</script><script>window.pwned=1</script>", "<img src=x onerror=window.pwned=2>"]
    r = replay(replace(log, players=nasty))
    path = tmp_path / "nasty.html"
    path.write_text(viewer_html(r), encoding="utf-8")
    page, problems = open_page(browser, path, 3)
    assert page.evaluate("window.pwned === undefined")
    assert nasty[0] in page.inner_text("#players")
    assert problems == []
    page.close()


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
def test_board_at_100_percent_zoom(browser: Browser, edition: str, real: Replay, tmp_path: Path) -> None:
    r = real if edition == "birmingham" else replay(GameLog.load(LANCASHIRE))
    at = len(r.steps) * 2 // 3
    svg = tmp_path / "board.svg"
    svg.write_text(board_svg(r.state_at(at), highlight=r.steps[at]), encoding="utf-8")
    geo = geometry(edition)
    page = browser.new_page(viewport={"width": geo.width, "height": geo.height}, device_scale_factor=1)
    page.goto(svg.as_uri())
    box = page.locator("svg").bounding_box()
    assert box is not None and (box["width"], box["height"]) == (geo.width, geo.height)
    # the smallest text on the board is 11 px at 100% zoom
    sizes = page.eval_on_selector_all("text", "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize))")
    assert min(sizes) >= 11
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"board-{edition}-{at}-100pct.png"))
    page.close()


# -- numbers on screen, games as played, reviews ----------------------------------------------------


@pytest.fixture(scope="module")
def as_played() -> Replay:
    """The real 4-player game as played: 124 actions, two link tiles beyond the 14 at index 117."""
    r = replay(GameLog.load(REAL_4P), AS_PLAYED)
    assert len(r.steps) == 124 and {d["action_index"] for d in r.deviations} == {117}
    return r


def test_actions_are_numbered_from_1_on_screen(browser: Browser, as_played: Replay, tmp_path: Path) -> None:
    path = write_viewer(as_played, tmp_path / "g.html")
    page, problems = open_page(browser, path, 1)
    assert page.inner_text("#where") == "after action 1 of 124" and page.title().endswith("action 1 of 124")
    assert shown(page) == expected(as_played, 0)
    assert page.inner_text('#moves li[data-i="0"] .rnd').startswith("1 ")
    page.keyboard.press("End")
    assert at(page, "#action=124") and page.inner_text("#where") == "after action 124 of 124"
    page.keyboard.press("Home")
    assert at(page, "#action=0") and page.inner_text("#where") == "the setup (before action 1)"
    assert shown(page) == expected(as_played, -1)
    page.close()
    page, _ = open_page(browser, path, -1)  # the old address of the setup still opens it
    assert page.inner_text("#where") == "the setup (before action 1)"
    assert problems == []
    page.close()


def test_a_game_as_played_marks_each_departure_at_its_action(
    browser: Browser, as_played: Replay, tmp_path: Path
) -> None:
    path = write_viewer(as_played, tmp_path / "g.html")
    page, problems = open_page(browser, path, 118)
    banner = page.locator("#departure")
    assert banner.is_visible()
    text = banner.inner_text()
    assert "action 118 departs from the rules" in text and text.count("[network.link_tiles]") == 2
    assert "14 per colour" in text  # the rulebook's words for the rule
    assert "beyond its 14" in text  # the replay's message
    assert page.locator('#moves li.dev[data-i="117"]').count() == 1 and page.locator("#moves li.dev").count() == 1
    assert "action 118" in page.inner_text("#devnote")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-as-played-118.png"))
    page.keyboard.press("ArrowLeft")
    assert at(page, "#action=117") and not banner.is_visible()
    page.click("#devnote a")
    assert at(page, "#action=118") and banner.is_visible()
    assert problems == []
    page.close()
    clean = write_viewer(replay(GameLog.load(REPLAYS / "real" / "wq9gs6-2p.json")), tmp_path / "clean.html")
    page, _ = open_page(browser, clean)
    assert not page.locator("#devnote").is_visible() and page.locator("#moves li.dev").count() == 0
    page.close()


@pytest.fixture(scope="module")
def reviewed(as_played: Replay, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int, dict[str, str]]:
    """The viewer of the real game with a review made by hand: a blunder whose better action is a build,
    an inaccuracy whose better action is a network; the first 100 actions reviewed."""
    b = first_of(as_played, Build, 10)
    n = next(
        s.index
        for s in as_played.steps
        if s.index > b + 1 and any(isinstance(a, Network) for a in legal_actions(as_played.state_at(s.index - 1)))
    )
    better_build = better_than_played(as_played, b, Build)
    better_link = better_than_played(as_played, n, Network)
    review = hand_review(as_played, {b: (20.0, better_build), n: (5.0, better_link)}, upto=100)  # VP of margin
    path = write_viewer(as_played, tmp_path_factory.mktemp("rv") / "reviewed.html", review=review)
    # shown as the viewer shows names (NFKC: "AI-1（v2）" reads "AI-1(v2)")
    words = {a.index: unicodedata.normalize("NFKC", str(a.best)) for a in review.actions if a.index in (b, n)}
    blunder = review.actions[b]
    assert blunder.index == b and blunder.played_value is not None and blunder.best_value is not None

    def signed(v: float) -> str:  # as the page writes a margin
        return ("+" if v > 0 else "\u2212" if v < 0 else "") + f"{abs(v):.1f}"

    margins = f"margin {signed(blunder.played_value)} VP after it, {signed(blunder.best_value)} after the better one"
    return path, b, n, {"build": words[b], "network": words[n], "margins": margins}


def test_the_evaluation_strip_follows_the_action(
    browser: Browser, reviewed: tuple[Path, int, int, dict[str, str]]
) -> None:
    path, b, _, _ = reviewed
    page, problems = open_page(browser, path, 10)
    assert page.locator("#evalbox").is_visible()
    assert page.locator("#c-eval polyline.win").count() == 4  # one line per player
    assert "100 of 124 actions reviewed" in page.inner_text("#evalcap")
    x10 = float(page.get_attribute("#c-eval .marker", "x1") or 0)
    page.keyboard.press("ArrowRight")
    x11 = float(page.get_attribute("#c-eval .marker", "x1") or 0)
    page.keyboard.press("End")
    x_end = float(page.get_attribute("#c-eval .marker", "x1") or 0)
    assert 0 < x10 < x11 < x_end
    # labelled actions are dots on the strip; clicking one opens that action
    page.click(f'#c-eval .lab-dot[data-i="{b}"]')
    assert at(page, f"#action={b + 1}")
    assert page.locator("#players td.win").count() == 4
    assert problems == []
    page.close()


def test_a_labelled_action_shows_its_label_and_the_better_action(
    browser: Browser, reviewed: tuple[Path, int, int, dict[str, str]]
) -> None:
    path, b, n, words = reviewed
    page, problems = open_page(browser, path, b + 1)
    text = page.inner_text("#review")
    assert "blunder" in text and f"action {b + 1}" in text and "18.0 VP below the better action" in text
    assert "points of win probability" not in text and words["margins"] in text
    assert words["build"] in text
    assert MEASURE in page.inner_text("#accuracy")  # what the loss is, in one line
    better = page.locator('svg.bs-board g[data-part="overlay"] .bs-better')
    assert better.count() == 1 and better.locator("rect").count() == 1  # the slot it would build in
    assert page.locator(f'#moves li[data-i="{b}"] .lab').inner_text() == "blunder"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-review-blunder.png"))
    page.keyboard.press("ArrowRight")  # the best action found: nothing better to draw
    assert "the best action the search found" in page.inner_text("#review")
    assert page.locator("svg.bs-board .bs-better").count() == 0
    page.goto(path.as_uri() + f"#action={n + 1}")
    page.wait_for_function("f => location.hash === f", arg=f"#action={n + 1}")
    text = page.inner_text("#review")
    assert "inaccuracy" in text and words["network"] in text
    assert page.locator("svg.bs-board .bs-better line").count() >= 1  # the link it would build
    page.goto(path.as_uri() + "#action=110")
    page.wait_for_function("f => location.hash === f", arg="#action=110")
    assert "was not reviewed" in page.inner_text("#review")
    assert problems == []
    page.close()


def test_view_analyse_writes_the_review_into_the_page(tmp_path: Path) -> None:
    log = GameLog.load(REPLAYS / "real" / "wq9gs6-2p.json")
    short = tmp_path / "short.json"
    replace(log, actions=log.actions[:6], result=None).save(short)
    out = tmp_path / "v.html"
    res = CliRunner().invoke(
        main, ["view", str(short), "--out", str(out), "--analyse", "--simulations", "2", "--seed", "3", "--at", "0"]
    )
    assert res.exit_code == 0, res.output
    text = out.read_text("utf-8")
    data = json.loads(text.split('id="bs-data">', 1)[1].split("</script>", 1)[0])
    assert data["review"]["sims"] == 2 and data["review"]["seed"] == 3
    assert len(data["review"]["acts"]) == 6 and all(a is not None for a in data["review"]["acts"])
    assert "let cur = -1;" in text  # --at 0: the page opens at the setup
