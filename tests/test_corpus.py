"""Analysis over a DuckDB file or a Parquet dataset: same tables, same output; stores in use; atomic export."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import GOLDEN_GAMES, convert_golden

from brass_stats.analysis.statistics.win_rates import DIMENSIONS
from brass_stats.bots import RandomBot, play_game
from brass_stats.cli import main
from brass_stats.cli.report import report_command
from brass_stats.cli.stats import curves_command, income_command, openings_command, stats_command, vp_command
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.exitcodes import BUSY
from brass_stats.storage import SCHEMAS, Store, ingest
from brass_stats.storage.corpus import all_schemas, open_corpus
from brass_stats.storage.dataset import DatasetBusy, DatasetWriter, dataset_files, read_commits

RANDOM_GAMES = ((2, 21), (3, 22), (4, 23))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    d = tmp_path_factory.mktemp("corpus")
    logs = d / "logs"
    logs.mkdir()
    for name in GOLDEN_GAMES:
        convert_golden(name).save(logs / f"{name}.json")
    for n, seed in RANDOM_GAMES:
        play_game([RandomBot()] * n, seed).save(logs / f"random-{n}-{seed}.json")
    (logs / "broken.json").write_text("{not json", encoding="utf-8")
    db, pq = d / "g.duckdb", d / "pq"
    # as played: gm7vza-4p's server let a seat place 16 links (D1)
    report = ingest([logs], db, parquet_dir=pq, workers=1, progress=False, policy=AS_PLAYED)
    assert report.stored == len(GOLDEN_GAMES) + len(RANDOM_GAMES) and report.failed == 1
    with Store(db) as s:
        ids = sorted(r[0] for r in s.con.execute("SELECT game_id FROM games").fetchall())
    return db, pq, ids


def _both(command: object, args: list[str], db: Path, pq: Path) -> tuple[str, str]:
    runner = CliRunner()
    a = runner.invoke(command, [*args, "--db", str(db)])  # type: ignore[arg-type]
    b = runner.invoke(command, [*args, "--parquet", str(pq)])  # type: ignore[arg-type]
    assert a.exit_code == 0, a.output
    assert b.exit_code == 0, b.output
    return a.output, b.output


def test_every_table_has_the_same_columns_and_rows_in_both_stores(stores: tuple[Path, Path, list[str]]) -> None:
    db, pq, _ = stores
    a, b = open_corpus(db=db), open_corpus(parquet=pq)
    for name in all_schemas():
        types = [r[:2] for r in a.execute(f"DESCRIBE {name}").fetchall()]
        assert types == [r[:2] for r in b.execute(f"DESCRIBE {name}").fetchall()], name
        cols = [r[0] for r in a.execute(f"DESCRIBE {name}").fetchall() if r[0] != "recorded_at"]
        q = f"SELECT {', '.join(cols)} FROM {name} ORDER BY ALL"
        rows = a.execute(q).fetchall()
        assert rows, name
        assert rows == b.execute(q).fetchall(), name


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_stats_output_is_the_same_from_duckdb_and_parquet(stores: tuple[Path, Path, list[str]], dimension: str) -> None:
    db, pq, _ = stores
    a, b = _both(stats_command, ["--by", dimension, "--min-games", "1", "--format", "csv"], db, pq)
    assert a.count("\n") > 1
    assert a == b


@pytest.mark.parametrize(
    "command, args",
    [
        (openings_command, ["--actions", "2", "--min-games", "1", "--format", "csv"]),
        (curves_command, ["--metric", "potential_vp", "--by", "final_rank", "--min-games", "1", "--format", "csv"]),
    ],
    ids=["openings", "curves"],
)
def test_corpus_commands_are_the_same_from_duckdb_and_parquet(
    stores: tuple[Path, Path, list[str]], command: object, args: list[str]
) -> None:
    db, pq, _ = stores
    a, b = _both(command, args, db, pq)
    assert a.count("\n") > 2 and a == b


def test_per_game_commands_are_the_same_from_duckdb_and_parquet(
    stores: tuple[Path, Path, list[str]], tmp_path: Path
) -> None:
    db, pq, ids = stores
    for gid in ids[:2]:
        for command, args in [
            (income_command, [gid[:10], "--format", "json"]),
            (vp_command, [gid[:10], "--format", "csv"]),
            (vp_command, [gid[:10], "--by-era", "--format", "csv"]),
        ]:
            a, b = _both(command, args, db, pq)
            assert len(a) > 50 and a == b
    from brass_stats.cli.report import log_command

    a, b = _both(log_command, [ids[0][:10], "--format", "csv"], db, pq)  # replays the game's source file
    assert len(a) > 50 and a == b
    gid, runner = ids[0], CliRunner()
    (tmp_path / "db").mkdir()
    (tmp_path / "pq").mkdir()  # same file names: the report links its viewer by name
    assert (
        runner.invoke(report_command, [gid, "--db", str(db), "--out", str(tmp_path / "db" / "r.html")]).exit_code == 0
    )
    assert (
        runner.invoke(report_command, [gid, "--parquet", str(pq), "--out", str(tmp_path / "pq" / "r.html")]).exit_code
        == 0
    )
    assert (tmp_path / "db" / "r.html").read_bytes() == (tmp_path / "pq" / "r.html").read_bytes()


def test_db_and_parquet_are_mutually_exclusive_and_stats_needs_one(stores: tuple[Path, Path, list[str]]) -> None:
    db, pq, ids = stores
    runner = CliRunner()
    res = runner.invoke(stats_command, ["--by", "seat", "--db", str(db), "--parquet", str(pq)])
    assert res.exit_code == 2 and "cannot be used together" in res.output
    res = runner.invoke(stats_command, ["--by", "seat"])
    assert res.exit_code == 2 and "--db FILE or --parquet DIR" in res.output
    res = runner.invoke(vp_command, [ids[0], "--parquet", str(db.parent / "nowhere")])
    assert res.exit_code == 2 and "does not exist" in res.output


@pytest.fixture
def writer_holding(tmp_path: Path) -> Iterator[Path]:
    """A DuckDB file held open for writing by another process (as a running ingest holds it)."""
    db = tmp_path / "busy.duckdb"
    Store(db).close()
    code = "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); sys.stdin.read()"
    p = subprocess.Popen(
        [sys.executable, "-c", code, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        yield db
    finally:
        assert p.stdin is not None
        p.stdin.close()
        p.wait(timeout=30)


def test_a_store_in_use_gives_one_clear_line_and_the_busy_status(writer_holding: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for args in (
        ["stats", "--db", str(writer_holding), "--by", "seat"],
        ["vp", "0123", "--db", str(writer_holding)],
        ["ingest", str(tmp_path / "nothing.json"), "--db", str(writer_holding)],
    ):
        if args[0] == "ingest":
            play_game([RandomBot()] * 2, 5).save(tmp_path / "nothing.json")
        res = runner.invoke(main, args)
        assert res.exit_code == BUSY, (args, res.output)
        assert "in use by another process" in res.output
        assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_a_second_writer_of_a_dataset_is_refused(tmp_path: Path) -> None:
    with DatasetWriter(tmp_path / "pq"), pytest.raises(DatasetBusy, match="another process"):
        DatasetWriter(tmp_path / "pq")
    with DatasetWriter(tmp_path / "pq"):  # released when the first writer is done
        pass


def test_an_interrupted_export_leaves_the_previous_version_whole(
    stores: tuple[Path, Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _, ids = stores
    pq = tmp_path / "pq"
    small = tmp_path / "small.duckdb"
    with Store(small) as s, Store(db, read_only=True) as full:
        tables = {
            name: full.con.sql(f"SELECT * FROM {name} WHERE game_id = '{ids[0]}'").to_arrow_table() for name in SCHEMAS
        }
        assert tables["games"].num_rows == 1
        s.write_game(tables)
        s.to_parquet(pq)
    before = sorted(p.relative_to(pq) for p in pq.rglob("*.parquet"))

    def killed(self: DatasetWriter, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies after writing the new files, before committing them

    monkeypatch.setattr(DatasetWriter, "commit", killed)
    with Store(db, read_only=True) as full, pytest.raises(KeyboardInterrupt):
        full.to_parquet(pq)
    monkeypatch.undo()
    assert len(list(pq.rglob("*.parquet"))) > len(before)  # the new version's files are there ...
    con = open_corpus(parquet=pq)
    assert con.execute("SELECT game_id FROM games").fetchall() == [(ids[0],)]  # ... and invisible
    # one file per table that has rows (this game broke no rule: no deviations)
    assert {n: len(f) for n, f in dataset_files(pq).items()} == {n: 1 for n in SCHEMAS if tables[n].num_rows}
    with Store(db, read_only=True) as full:
        full.to_parquet(pq)  # the next export replaces the whole dataset and removes the leftovers
    con = open_corpus(parquet=pq)
    assert sorted(r[0] for r in con.execute("SELECT game_id FROM games").fetchall()) == ids
    assert len(read_commits(pq)) == 1
    assert not [p for p in pq.rglob(".*")]
    live = {str(f) for fs in dataset_files(pq).values() for f in fs}
    assert {str(p) for p in pq.rglob("*.parquet")} == live


def test_a_dataset_written_before_commit_records_is_still_readable(
    stores: tuple[Path, Path, list[str]], tmp_path: Path
) -> None:
    db, _, ids = stores
    old = tmp_path / "old"
    old.mkdir()
    con = duckdb.connect(str(db), read_only=True)
    for name in SCHEMAS:
        select = f"SELECT t.*, g.edition, g.player_count FROM {name} t JOIN games g USING (game_id)"
        if name == "games":
            select = "SELECT * FROM games"
        con.execute(f"COPY ({select}) TO '{old / name}' (FORMAT PARQUET, PARTITION_BY (edition, player_count))")
    con.execute(f"COPY failures TO '{old / 'failures.parquet'}' (FORMAT PARQUET)")
    c = open_corpus(parquet=old)
    assert sorted(r[0] for r in c.execute("SELECT game_id FROM games").fetchall()) == ids
    assert c.execute("SELECT count(*) FROM failures").fetchone() == (1,)
