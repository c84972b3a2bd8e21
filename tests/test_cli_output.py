"""Issue 12, command-line tidiness: one --format everywhere, integers stay integers, tables fit the
terminal, the vp table's layout, help texts."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from brass_stats.cli import main
from brass_stats.cli.output import emit

REPO = Path(__file__).parents[1]
REAL = REPO / "replays" / "real" / "gm7vza-4p.json"
LANCASHIRE = REPO / "replays" / "lancashire" / "game-5003-00000.json"


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    res = CliRunner().invoke(main, list(args), env=env)
    assert "Traceback" not in res.output
    return res


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "g.duckdb"
    # REAL (gm7vza-4p) as its server played it: one seat placed 16 links (D1)
    assert run("ingest", str(REAL), str(LANCASHIRE), "--db", str(path), "--workers", "1", "--as-played").exit_code == 0
    return path


def commands_with_results(db: Path, tmp: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", "--as-played", str(REAL)],
        "income": ["income", str(REAL)],
        "vp": ["vp", str(REAL)],
        "stats": ["stats", "--db", str(db), "--by", "seat", "--min-games", "1"],
        "ingest": ["ingest", str(REAL), "--db", str(tmp / "i.duckdb"), "--workers", "1", "--as-played"],
        "replay": ["replay", str(REAL), "--db", str(tmp / "r.duckdb"), "--as-played"],
        "selfplay": ["selfplay", "-n", "1", "-p", "2", "-b", "random", "--out", str(tmp / "sp"), "--overwrite"],
    }


@pytest.mark.parametrize("command", ["validate", "income", "vp", "stats", "ingest", "replay", "selfplay"])
def test_every_command_that_prints_results_has_one_format_option(db: Path, tmp_path: Path, command: str) -> None:
    args = commands_with_results(db, tmp_path)[command]
    help_text = run(*args[:1], "--help").output
    assert "--format [table|csv|json]" in help_text
    res = run(*args, "--format", "csv")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert rows
    # integers stay integers: counts, seats, levels and VP never come out as "12.0" (wins are split in ties)
    whole = {"games", "bucket", "actions", "files", "stored", "players", "seat", "total", "round", "Player1"}
    assert not any(v.endswith(".0") for row in rows for k, v in row.items() if k in whole and v), res.stdout
    res = run(*args, "--format", "json")
    assert res.exit_code == 0, res.output
    text = res.stdout.strip()
    records = json.loads(text) if text.startswith("[") else [json.loads(line) for line in text.splitlines()]
    assert records


def test_csv_and_json_keep_integers_even_with_gaps() -> None:
    df = pd.DataFrame({"round": [1, 2], "Ann": [3.0, None], "rate": [0.5, 0.25]})
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        emit(df, "json")
    assert json.loads(out.getvalue()) == [{"round": 1, "Ann": 3, "rate": 0.5}, {"round": 2, "Ann": None, "rate": 0.25}]
    assert '"Ann":3,' in out.getvalue()


def test_income_json_has_integer_levels() -> None:
    res = run("income", str(REAL), "--format", "json")
    rows = json.loads(res.stdout)
    assert all(isinstance(v, int) for row in rows for k, v in row.items() if k != "era")


@pytest.mark.parametrize("columns", [60, 100, 160])
def test_tables_fit_the_terminal_width(columns: int) -> None:
    res = run("vp", str(REAL), "--by-era", env={"COLUMNS": str(columns)})
    assert res.exit_code == 0
    assert max(len(line) for line in res.stdout.splitlines()) <= columns


def header_words_cut(text: str, columns: list[str]) -> list[str]:
    """The words of column names (split at underscores) that a table printed as ``text`` does not show whole."""
    shown = set(re.findall(r"[^\s_┃│…]+", text))
    return [word for name in columns for word in name.split("_") if word and word not in shown]


def test_headers_stay_whole_at_80_columns(db: Path) -> None:
    args = ["stats", "--db", str(db), "--by", "seat", "--min-games", "1"]
    columns = list(json.loads(run(*args, "--format", "json").stdout)[0])
    assert len(columns) >= 10  # wider than 80 columns with the names on one line
    res = run(*args, env={"COLUMNS": "80"})
    assert res.exit_code == 0
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    assert "…" not in res.stdout and header_words_cut(res.stdout, columns) == []
    wide = run(*args, env={"COLUMNS": "200"}).stdout  # a wide terminal: the names on one line, as before
    assert all(f" {name} " in wide for name in columns)


def test_vp_table_has_sources_as_rows_and_players_as_columns() -> None:
    res = run("vp", str(REAL), env={"COLUMNS": "200"})
    header = next(line for line in res.stdout.splitlines() if line.startswith("┃"))
    for name in ("Player1", "Player2"):
        assert name in header
    sources = [line.split("│")[1].strip() for line in res.stdout.splitlines() if line.startswith("│")]
    assert sources[:2] == ["canal_links", "rail_links"] and sources[-1] == "total"
    # Birmingham has no ports or shipyards, and no cash VP
    assert not {"port", "shipyard", "cash"} & set(sources)
    assert {"brewery", "pottery"} <= set(sources)


def test_vp_table_of_lancashire_drops_breweries_and_potteries() -> None:
    res = run("vp", str(LANCASHIRE), env={"COLUMNS": "200"})
    sources = [line.split("│")[1].strip() for line in res.stdout.splitlines() if line.startswith("│")]
    assert {"port", "shipyard", "cash"} <= set(sources)
    assert not {"brewery", "pottery", "manufacturer"} & set(sources)


def test_names_are_not_read_as_rich_markup(tmp_path: Path) -> None:
    data = json.loads(REAL.read_text("utf-8"))
    data["players"][0]["name"] = "[bold red]Ann[/]"
    (tmp_path / "g.json").write_text(json.dumps(data), encoding="utf-8")
    res = run("vp", str(tmp_path / "g.json"), env={"COLUMNS": "200"})
    assert "[bold red]Ann[/]" in res.stdout


def test_top_level_help_names_both_editions_and_why_replay_and_ingest() -> None:
    text = " ".join(run("--help").output.split())
    assert "Brass: Birmingham" in text and "Brass: Lancashire" in text
    assert "ingest Import game logs into a DuckDB file or a Parquet dataset, in parallel" in text
    assert "replay Import a few game logs in this process (ingest: whole collections, in parallel)" in text


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """The demo, run once on an 80-column terminal (its tables), in a folder that later runs reuse."""
    out = tmp_path_factory.mktemp("demo")
    return out, run("demo", "--out", str(out), "--workers", "1", env={"COLUMNS": "80"})


def test_demo_tables_keep_their_headers_at_80_columns(demo: tuple[Path, Result]) -> None:
    out, res = demo
    assert res.exit_code == 0, res.output
    assert "Games in the database" in res.stdout and "Post-game report" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines() if "│" in line or "─" in line) <= 80
    doc = json.loads(run("demo", "--out", str(out), "--workers", "1", "--format", "json").stdout)
    columns = [name for key in ("games", "real_game_winners", "wins_by_turn_position") for name in doc[key][0]]
    assert "…" not in res.stdout and header_words_cut(res.stdout, columns) == []


def test_demo_prints_its_tables_as_one_json_document_or_as_csv(demo: tuple[Path, Result]) -> None:
    out, _ = demo
    assert "--format [table|csv|json]" in run("demo", "--help").output
    res = run("demo", "--out", str(out), "--workers", "1", "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)  # one document: nothing else on stdout
    assert doc["database"] == str((out / "brass-demo.duckdb").resolve()) and Path(doc["report"]).exists()
    assert {r["player_count"] for r in doc["games"]} == {2, 3, 4}
    assert [w["vp"] for w in doc["real_game_winners"]] == [215, 152]
    assert all(0 <= r["win_rate"] <= 1 for r in doc["wins_by_turn_position"])  # fractions, as stats --format json
    res = run("demo", "--out", str(out), "--workers", "1", "--format", "csv")
    assert res.exit_code == 0, res.output
    blocks = res.stdout.strip().split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == [
        "# Games in the database",
        "# Winners of the real (imported) games",
        "# Wins by first-round turn position (ties share the win)",
    ]
    winners = list(csv.DictReader(io.StringIO(blocks[1].split("\n", 1)[1])))
    assert [w["vp"] for w in winners] == ["215", "152"]
