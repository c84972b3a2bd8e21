"""Brass: Lancashire through the whole pipeline: self-play, validation, storage, statistics, report."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from brass_stats.analysis.statistics import breakdowns as A
from brass_stats.analysis.statistics.win_rates import stats_by
from brass_stats.cli import main
from brass_stats.storage import ingest

SAMPLES = Path(__file__).parents[1] / "replays" / "lancashire"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lanc") / "games.duckdb"
    report = ingest([str(SAMPLES)], path, workers=1, progress=False)
    assert report.exit_status == 0 and report.stored == len(list(SAMPLES.glob("*.json")))
    return path


def test_lancashire_samples_validate() -> None:
    res = CliRunner().invoke(main, ["validate", str(SAMPLES), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert f"{len(list(SAMPLES.glob('*.json')))}/{len(list(SAMPLES.glob('*.json')))} games valid" in res.output


def test_lancashire_tables_sum_to_final_vp_with_cash_scoring(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        """
        SELECT p.final_vp,
               sum(e.link_vp + e.tile_vp + e.merchant_bonus_vp - e.shortfall_vp_lost + e.cash_vp + e.introductory_vp),
               sum(e.cash_vp), min(p.final_money)
        FROM players p JOIN era_scores e USING (game_id, seat) JOIN games g USING (game_id)
        WHERE g.edition = 'lancashire' GROUP BY p.game_id, p.seat, p.final_vp
        """
    ).fetchall()
    con.close()
    assert rows
    assert all(final == total for final, total, _, _ in rows)
    assert any(cash > 0 for _, _, cash, _ in rows)  # 1 VP per £10 at the end of the Rail Era


def test_lancashire_tile_vp_lands_in_port_and_shipyard_columns(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    manufacturing, cotton = con.execute(
        "SELECT sum(tile_vp_manufacturer + tile_vp_pottery + tile_vp_brewery), sum(tile_vp_cotton_mill) FROM era_scores"
    ).fetchone()  # type: ignore[misc]
    con.close()
    assert manufacturing == 0 and cotton > 0


def test_stats_by_edition_splits_wins_per_game(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    df = stats_by(con, "edition", min_games=10).set_index("edition")
    con.close()
    assert list(df.index) == ["lancashire"]
    assert df.loc["lancashire", "wins"] == pytest.approx(len(list(SAMPLES.glob("*.json"))))


def test_lancashire_report_draws_the_lancashire_board(db: Path, tmp_path: Path) -> None:
    game = sorted(SAMPLES.glob("*.json"))[-1]
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["report", str(game), "--out", str(out)])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert "Brass: Lancashire" in html and html.count("data:image/png;base64,") == 4  # charts
    assert html.count('aria-label="Brass: Lancashire board"') == 2  # the SVG board at each era's end
    src = A.open_game(str(game))
    assert set(A.vp_by_source(src)["total"]) == set(A.players(src)["final_vp"])
