"""Analysis commands on the golden games, checked against the numbers their server published."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import convert_golden

from brass_stats.analysis.statistics import breakdowns as A
from brass_stats.analysis.statistics.win_rates import DIMENSIONS, stats_by, wilson
from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest

# VP per era from the setup files (vpBreakdown_engine0823_plusMerchantLinkFix): links and industry tiles
BREAKDOWN = {
    "wq9gs6-2p": {"canal": ([8, 21], [33, 27]), "rail": ([48, 51], [122, 81])},
    "gm7vza-4p": {"canal": ([12, 19, 6, 19], [25, 26, 30, 25]), "rail": ([41, 13, 68, 43], [70, 77, 22, 40])},
}
FINAL_VP = {"wq9gs6-2p": [215, 180], "gm7vza-4p": [152, 141, 129, 130]}
FINAL_INCOME = {"wq9gs6-2p": [21, 16], "gm7vza-4p": [22, 16, 4, 23]}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("logs")
    out = {}
    for name in BREAKDOWN:
        out[name] = d / f"{name}.json"
        convert_golden(name).save(out[name])
    return out


@pytest.fixture(scope="module")
def db(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "games.duckdb"
    # as played: gm7vza-4p's server let seat 2 place 16 rail links (D1)
    report = ingest([str(p) for p in logs.values()], path, workers=1, progress=False, policy=AS_PLAYED)
    assert report.exit_status == 0 and report.stored == 2
    return path


@pytest.mark.parametrize("name", sorted(BREAKDOWN))
def test_vp_breakdown_matches_published_link_and_industry_vp(logs: dict[str, Path], name: str) -> None:
    src = A.open_game(str(logs[name]))
    df = A.vp_breakdown(src)
    for era, (links, industry) in BREAKDOWN[name].items():
        rows = df[df["era"] == era].sort_values("seat")
        assert rows["link_vp"].tolist() == links
        assert rows["tile_vp"].tolist() == industry


@pytest.mark.parametrize("name", sorted(BREAKDOWN))
def test_vp_by_source_sums_to_final_vp(logs: dict[str, Path], name: str) -> None:
    df = A.vp_by_source(A.open_game(str(logs[name])))
    parts = [
        "canal_links",
        "rail_links",
        "cotton_mill",
        "coal_mine",
        "iron_works",
        "manufacturer",
        "pottery",
        "brewery",
        "merchant_bonus",
        "shortfall_lost",
    ]
    assert df[parts].sum(axis=1).tolist() == df["total"].tolist() == FINAL_VP[name]


def test_tile_vp_by_level_adds_up_to_tile_vp(logs: dict[str, Path]) -> None:
    src = A.open_game(str(logs["gm7vza-4p"]))
    by_level = A.tile_vp_by_level(src).groupby("seat")["vp"].sum().tolist()
    tiles = A.vp_breakdown(src).groupby("seat")["tile_vp"].sum().tolist()
    assert by_level == tiles


@pytest.mark.parametrize("name", sorted(BREAKDOWN))
def test_income_curve_ends_at_the_final_income_levels(logs: dict[str, Path], name: str) -> None:
    src = A.open_game(str(logs[name]))
    wide = A.income_by_round(src)
    names = list(A.players(src)["name"])
    assert [int(wide[n].iloc[-1]) for n in names] == FINAL_INCOME[name]
    assert wide["round"].tolist() == list(range(1, len(wide) + 1))
    assert len(wide) == {"wq9gs6-2p": 20, "gm7vza-4p": 16}[name]


def test_game_id_lookup_in_the_database(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games WHERE player_count = 2").fetchone()[0]  # type: ignore[index]
    con.close()
    src = A.open_game(gid[:8], db)
    assert A.vp_by_source(src)["total"].tolist() == FINAL_VP["wq9gs6-2p"]


def test_key_moments_lead_changes_end_with_the_winner(logs: dict[str, Path]) -> None:
    swings, leads = A.key_moments(A.open_game(str(logs["gm7vza-4p"])))
    assert leads["new_leader"].iloc[-1] == "Player1"
    assert len(swings) == 8 and swings["swing"].abs().is_monotonic_decreasing


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert round(lo, 4) == 0.4038 and round(hi, 4) == 0.5962
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_stats_share_out_exactly_one_win_per_game(db: Path, dimension: str) -> None:
    con = duckdb.connect(str(db), read_only=True)
    df = stats_by(con, dimension)
    con.close()
    assert not df.empty
    if dimension != "industry":  # a player counts once per industry built there
        assert df["wins"].sum() == pytest.approx(2.0)
        assert df["player_games"].sum() == 6
    assert (df["ci_low"] <= df["win_rate"]).all() and (df["win_rate"] <= df["ci_high"]).all()
    assert (df["games"] <= df["player_games"]).all()


def test_stats_by_player_count_expectations(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    df = stats_by(con, "player_count").set_index("player_count")
    con.close()
    assert df.loc[2, "expected_win_rate"] == 0.5 and df.loc[4, "expected_win_rate"] == 0.25
    assert df.loc[4, "mean_vp"] == pytest.approx((152 + 141 + 129 + 130) / 4)
    assert df.loc[4, "games"] == 1 and df.loc[4, "player_games"] == 4


def _cli(*args: str) -> str:
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_income_command_formats_and_plot(logs: dict[str, Path], tmp_path: Path) -> None:
    out = _cli("income", str(logs["wq9gs6-2p"]), "--format", "csv", "--plot", str(tmp_path / "inc.svg"))
    df = pd.read_csv(io.StringIO(out.split("wrote")[0]))
    assert df[["jsb", "111"]].iloc[-1].tolist() == FINAL_INCOME["wq9gs6-2p"]
    assert (tmp_path / "inc.svg").read_text().startswith("<?xml")
    assert "Income level" in _cli("income", str(logs["wq9gs6-2p"]))


def test_vp_command_json_totals(logs: dict[str, Path], tmp_path: Path) -> None:
    out = _cli("vp", str(logs["gm7vza-4p"]), "--format", "json", "--plot", str(tmp_path / "vp.png"))
    rows = json.loads(out.splitlines()[0])
    assert [r["total"] for r in rows] == FINAL_VP["gm7vza-4p"]
    assert (tmp_path / "vp.png").stat().st_size > 1000


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_stats_command_formats(db: Path, fmt: str) -> None:
    out = _cli("stats", "--db", str(db), "--by", "seat", "--min-games", "1", "--format", fmt)
    assert "win_rate" in out or "Wins by seat" in out


def test_unknown_game_is_a_clear_error(db: Path) -> None:
    res = CliRunner().invoke(main, ["vp", "nosuchgame", "--db", str(db)])
    assert res.exit_code == 2 and "no game with id 'nosuchgame'" in res.output


def test_report_is_self_contained_html(logs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    _cli("report", str(logs["gm7vza-4p"]), "--out", str(out))
    html = out.read_text()
    for section in (
        "Result",
        "Income",
        "VP progression",
        "VP breakdown",
        "Money, spending and turn order",
        "Loans",
        "Key moments",
        "The board at the end of each era",
    ):
        assert f">{section}<" in html
    assert html.count("data:image/png;base64,") == 4  # charts
    assert html.count("<svg") == 2  # the board (the drawing of `brass-stats board`) at each era's end
    assert "http://" not in html and "https://" not in html  # nothing loaded from outside


def test_report_from_the_database_draws_the_boards(db: Path, tmp_path: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    gid = con.execute("SELECT game_id FROM games WHERE player_count = 4").fetchone()[0]  # type: ignore[index]
    con.close()
    out = tmp_path / "r.html"
    _cli("report", gid, "--db", str(db), "--out", str(out))
    assert out.read_text().count("<svg") == 2


def test_report_renders_in_headless_chromium(logs: dict[str, Path], tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is installed by tests/setup.sh (apt-get install chromium)"
    out = tmp_path / "report.html"
    _cli("report", str(logs["wq9gs6-2p"]), "--out", str(out))
    shot = tmp_path / "shot.png"
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run([chromium, *flags, "--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0 and "jsb wins" in dom.stdout
    subprocess.run(
        [chromium, *flags, "--window-size=1100,3000", f"--screenshot={shot}", out.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 50_000


def test_demo_builds_a_database_and_a_report(tmp_path: Path) -> None:
    out = _cli("demo", "--out", str(tmp_path), "--workers", "1")
    assert (tmp_path / "brass-demo.duckdb").exists() and (tmp_path / "report.html").exists()
    assert "Post-game report" in out and "Games in the database" in out
    con = duckdb.connect(str(tmp_path / "brass-demo.duckdb"), read_only=True)
    n = con.execute("SELECT count(*) FROM games WHERE seed = 'explicit'").fetchone()[0]  # type: ignore[index]
    con.close()
    assert n == 2


def test_shipped_samples_match_replays_dir() -> None:
    root = Path(__file__).parents[1]
    shipped = {
        p.relative_to(root / "brass_stats" / "replays_data"): p.read_bytes()
        for p in (root / "brass_stats" / "replays_data").rglob("*.json")
    }
    top = {p.relative_to(root / "replays"): p.read_bytes() for p in (root / "replays").rglob("*.json")}
    assert shipped == top and len(top) >= 2
