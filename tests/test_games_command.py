"""`brass-stats games` (issue 10, part 5): the stored games, with the names GAME accepts and the flags."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from brass_stats.cli import main
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.storage import ingest

REPLAYS = Path(__file__).resolve().parents[1] / "replays"


def _store(tmp_path: Path) -> tuple[Path, Path]:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(REPLAYS / "real" / "gm7vza-4p.json", logs)
    shutil.copy(REPLAYS / "real" / "wq9gs6-2p.json", logs)
    shutil.copy(REPLAYS / "lancashire" / "game-5003-00000.json", logs)
    db, pq = tmp_path / "g.duckdb", tmp_path / "pq"
    report = ingest([logs], db, parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert report.stored == 3 and report.failed == 0
    return db, pq


def _games(*args: str) -> list[dict]:
    r = CliRunner().invoke(main, ["games", *args, "--format", "json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_games_lists_ids_source_ids_players_winner_and_flags(tmp_path: Path) -> None:
    db, _ = _store(tmp_path)
    rows = {Path(g["source_file"]).name: g for g in _games("--db", str(db))}
    assert set(rows) == {"gm7vza-4p.json", "wq9gs6-2p.json", "game-5003-00000.json"}
    gm = rows["gm7vza-4p.json"]
    assert gm["source_game_id"].lower() == "gm7vza"
    assert gm["edition"] == "birmingham" and gm["players"].startswith("Player1, Player2")
    # stored as played: the 15th and 16th rail links of one seat break the 14-link limit (D1)
    assert gm["deviations"] == 2
    assert gm["declared_result_disagrees"] is False
    assert rows["game-5003-00000.json"]["edition"] == "lancashire"
    assert rows["game-5003-00000.json"]["deviations"] == 0
    # every name the list shows finds the same game in a GAME-taking command
    for name in (gm["game_id"], gm["game_id"][:6], gm["source_game_id"], "gm7vza-4p.json", "gm7vza-4p"):
        r = CliRunner().invoke(main, ["vp", name, "--db", str(db), "--format", "json"])
        assert r.exit_code == 0, (name, r.output)


def test_games_from_parquet_equals_duckdb(tmp_path: Path) -> None:
    db, pq = _store(tmp_path)
    assert _games("--parquet", str(pq)) == _games("--db", str(db))


def test_games_needs_a_store(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["games"])
    assert r.exit_code == 2 and "--db" in r.output
    r = CliRunner().invoke(main, ["games", "--db", str(tmp_path / "missing.duckdb")])
    assert r.exit_code == 2 and "does not exist" in r.output
