"""The board as SVG (issue 12): every location, slot, tile, link, market and player, for both editions."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from brass_stats.cli import main
from brass_stats.engine.actions import Build, Network, Sell
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.presentation.svg_board import board_svg, changes_of, geometry
from brass_stats.replay import Replay, replay

REPLAYS = Path(__file__).parents[1] / "replays"
REAL_4P = REPLAYS / "real" / "gm7vza-4p.json"
LANCASHIRE = REPLAYS / "lancashire" / "game-5004-00000.json"
SVG = "{http://www.w3.org/2000/svg}"
ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII"}
NAMES = {
    "cotton_mill": "Cotton Mill",
    "coal_mine": "Coal Mine",
    "iron_works": "Iron Works",
    "manufacturer": "Manufacturer",
    "pottery": "Pottery",
    "brewery": "Brewery",
    "port": "Port",
    "shipyard": "Shipyard",
}


@pytest.fixture(scope="module")
def games() -> dict[str, Replay]:
    real = replay(GameLog.load(REAL_4P), AS_PLAYED)  # its server let a seat place 16 links (D1)
    return {"birmingham": real, "lancashire": replay(GameLog.load(LANCASHIRE))}


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(el.itertext()) for el in root.iter() if el.tag in (SVG + "text", SVG + "title")]


@pytest.mark.parametrize("edition", ["birmingham", "lancashire"])
@pytest.mark.parametrize("where", ["setup", "middle", "end"])
def test_board_shows_every_location_tile_link_market_and_player(
    games: dict[str, Replay], edition: str, where: str
) -> None:
    r = games[edition]
    at = {"setup": -1, "middle": len(r.steps) // 2, "end": len(r.steps) - 1}[where]
    state = r.state_at(at)
    svg = board_svg(state)
    words = texts(svg)  # also proves the document is well-formed XML
    joined = "\n".join(words)
    rules = state.rules
    for loc in rules.locations.values():
        shown = "Farm Brewery" if loc.kind == "farm_brewery" else loc.name
        assert shown in joined, loc.id
    # one square per slot: empty slots show their industry icons, built ones a tile with a title
    root = ET.fromstring(svg)
    squares = [el for el in root.iter(SVG + "rect") if el.get("width") in ("44", "41")]
    n_slots = sum(len(loc.slots) for loc in rules.locations.values())
    n_merchant_tiles = len(state.merchant_spaces)
    assert len(squares) == n_slots + n_merchant_tiles
    for ref, tile in state.tiles.items():
        owner = r.log.players[tile.owner]
        title = f"{NAMES[tile.industry]} {ROMAN[tile.level]}, {owner}, {'flipped' if tile.flipped else 'not flipped'}"
        assert any(w.startswith(title) for w in words), (ref, title)
        if tile.industry in ("coal_mine", "iron_works", "brewery"):
            assert any(w.startswith(title) and f"{tile.resources} " in w for w in words)
    # built links drawn 8 px wide in the owner's colour
    wide = [el for el in root.iter(SVG + "line") if el.get("stroke-width") == "8"]
    drawn_links = sum(len(rules.links[lid].connects) - 1 for lid in state.links)
    assert len(wide) == drawn_links + 2  # + the two samples in the legend
    for seat, p in enumerate(state.players):
        assert f"£{p.money} · income {state.income_level(seat)} · {p.vp} VP" in words
    assert f"Coal market: {state.coal_market} of {rules.markets['coal'].capacity}" in joined
    assert f"Iron market: {state.iron_market} of {rules.markets['iron'].capacity}" in joined


def test_legend_per_edition(games: dict[str, Replay]) -> None:
    b = "\n".join(texts(board_svg(games["birmingham"].state)))
    lanc = "\n".join(texts(board_svg(games["lancashire"].state)))
    assert "Merchant tiles" in b and "P Pottery" in b and "Port" not in b
    assert "Pt Port" in lanc and "S Shipyard" in lanc and "shipyards" in lanc and "Pottery" not in lanc
    assert "Distant Cotton Market" in lanc and "Distant Cotton Market" not in b


def test_merchant_tiles_show_goods_and_barrels(games: dict[str, Replay]) -> None:
    state = games["birmingham"].initial
    words = texts(board_svg(state))
    beer = sum(1 for w in words if w.startswith("merchant tile:") and w.endswith("barrel of beer"))
    assert beer == sum(ms.beer for ms in state.merchant_spaces) > 0
    after = games["birmingham"].state
    words = texts(board_svg(after))
    left = sum(1 for w in words if w.startswith("merchant tile:") and w.endswith("barrel of beer"))
    assert left == sum(ms.beer for ms in after.merchant_spaces) < beer


def test_text_is_escaped_and_xml_safe() -> None:
    log = GameLog.load(REPLAYS / "generated" / "game-2002-00000.json")
    nasty = ['<script>alert("x")</script>', "Ann & \x01Bob's"]
    r = replay(replace(log, players=nasty))
    svg = board_svg(r.state)
    assert "<script>" not in svg
    words = texts(svg)
    assert any('<script>alert("x")</script>' in w for w in words)
    assert any("Ann & \ufffdBob's" in w for w in words)


def test_highlight_marks_the_new_link_and_where_the_coal_came_from(games: dict[str, Replay]) -> None:
    r = games["birmingham"]
    # a rail link that took coal from a coal mine on the board
    step = next(
        s
        for s in r.steps
        if isinstance(s.action, Network)
        and any(e.kind == "coal_used" and e.detail["source"] != "market" for e in s.effects)
    )
    ch = changes_of(step)
    assert isinstance(step.action, Network) and ch.links == set(step.action.links)
    mine = next(e.detail["source"] for e in step.effects if e.kind == "coal_used" and e.detail["source"] != "market")
    assert mine in ch.taken and ch.taken[mine]["coal"] >= 1
    plain = board_svg(step.state)  # type: ignore[arg-type]
    marked = board_svg(step.state, highlight=step)  # type: ignore[arg-type]
    overlay = ET.fromstring(marked).find(f"{SVG}g[@data-part='overlay']")
    assert overlay is not None and len(overlay) > 0
    assert any("\u22121 coal" in t or "\u22122 coal" in t for t in texts(marked))
    empty = ET.fromstring(plain).find(f"{SVG}g[@data-part='overlay']")
    assert empty is not None and len(empty) == 0


def test_canal_era_end_highlights_removed_tiles(games: dict[str, Replay]) -> None:
    r = games["birmingham"]
    step = next(s for s in r.steps if any(e.cause == "canal_era_end" for e in s.effects))
    removed = {e.detail["tile"] for e in step.effects if e.kind == "tile_removed"}
    assert set(changes_of(step).removed) == removed
    words = texts(board_svg(step.state, highlight=step))  # type: ignore[arg-type]
    assert sum(w.startswith("removed: ") for w in words) == len(removed)


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_board_command_writes_svg_at_any_action(games: dict[str, Replay], tmp_path: Path) -> None:
    r = games["birmingham"]
    out = tmp_path / "b.svg"
    code, stdout, _ = run("board", str(REAL_4P), "--at", "41", "--out", str(out))  # counted from 1: index 40
    assert code == 0 and "after action 41 of 124" in stdout
    text = out.read_text("utf-8")
    p = r.state_at(40).players[0]
    assert f"£{p.money} · income {r.state_at(40).income_level(0)} · {p.vp} VP" in texts(text)
    code, _, _ = run("board", str(REAL_4P), "--at", "-1", "--out", str(out))
    assert code == 0 and "£17 · income 0 · 0 VP" in texts(out.read_text("utf-8"))
    code, stdout, _ = run("board", str(REAL_4P), "--out", str(out))
    assert code == 0 and "after action 124 of 124" in stdout


def test_board_command_counts_actions_from_1_and_0_is_the_setup(games: dict[str, Replay], tmp_path: Path) -> None:
    r = games["birmingham"]
    out = tmp_path / "b.svg"
    code, stdout, _ = run("board", str(REAL_4P), "--at", "0", "--out", str(out))
    assert code == 0 and "the setup, before action 1" in stdout
    assert "£17 · income 0 · 0 VP" in texts(out.read_text("utf-8"))
    code, stdout, _ = run("board", str(REAL_4P), "--at", "1", "--out", str(out))
    assert code == 0 and "after action 1 of 124" in stdout
    assert out.read_text("utf-8") == board_svg(r.state_at(0), highlight=r.steps[0])


def test_board_command_rejects_an_action_out_of_range(tmp_path: Path) -> None:
    code, _, err = run("board", str(REAL_4P), "--at", "500", "--out", str(tmp_path / "b.svg"))
    assert code == 2 and err.strip().count("\n") == 0 and "1..124" in err
    assert not (tmp_path / "b.svg").exists()


def test_board_command_writes_png_of_the_drawing_size(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    code, _, err = run("board", str(LANCASHIRE), "--at", "30", "--out", str(out))
    assert code == 0, err
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    geo = geometry("lancashire")
    assert (width, height) == (geo.width, geo.height)


def test_highlight_marks_a_built_tile(games: dict[str, Replay]) -> None:
    r = games["lancashire"]
    step = next(s for s in r.steps if isinstance(s.action, Build))
    built = next(e.detail["tile"] for e in step.effects if e.kind == "build")
    assert changes_of(step).placed == {built}


def test_each_barrel_points_to_the_tile_sold_with_it(games: dict[str, Replay]) -> None:
    # the real game's last action: three sales; the Shrewsbury merchant's barrel goes with the cotton mill
    # sold to Shrewsbury, the farm brewery's barrels with the sales to Nottingham and Oxford
    step = games["birmingham"].steps[-1]
    assert isinstance(step.action, Sell)
    flows = changes_of(step).flows
    to_shrewsbury = [s.tile for s in step.action.sales if s.merchant == "shrewsbury"]
    others = [s.tile for s in step.action.sales if s.merchant in ("nottingham", "oxford")]
    assert len(to_shrewsbury) == 1 and len(others) == 2
    assert ("merchant:shrewsbury", to_shrewsbury[0]) in flows
    assert all(("farm_brewery_north:0", t) in flows for t in others)
    assert not any(src == "merchant:shrewsbury" and dst in others for src, dst in flows)
