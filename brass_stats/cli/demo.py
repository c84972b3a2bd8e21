"""The ``demo`` command: a database of the shipped sample games, a summary of it, and a post-game report."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
import duckdb

from ..analysis.statistics.breakdowns import open_game
from ..analysis.statistics.database import DEMO_DB, build_demo_database, demo_game, real_game_winners, sample_games_dir
from ..analysis.statistics.win_rates import as_percentages, corpus_summary, stats_by
from ..exitcodes import FAILED
from .common import fail
from .output import emit, format_option, records


@click.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
@click.option("--workers", type=int, default=None, help="Parallel processes for the import (default: all cores).")
@format_option()
def demo_command(out: Path, workers: int | None, fmt: str) -> None:
    """Build a DuckDB file from the shipped sample games, print a summary and write a post-game report.

    --format csv prints each table after a "# title" line, the tables apart by a blank line; json prints
    one JSON document (the database, the import, the tables, the report). Other lines then go to stderr.
    """
    from ..presentation.report import write_report

    def say(line: str) -> None:  # lines for people: on stdout beside a table, out of the way of csv and json
        click.echo(line, err=fmt != "table")

    out.mkdir(parents=True, exist_ok=True)
    db = out / DEMO_DB
    start = time.perf_counter()
    rep = build_demo_database(db, workers=workers, progress=sys.stderr.isatty())
    say(f"Imported the sample games from {sample_games_dir()} into {db}: {rep.summary()}")
    con = duckdb.connect(str(db), read_only=True)
    winners = real_game_winners(con)
    tables = {
        "games": ("Games in the database", corpus_summary(con)),
        "real_game_winners": ("Winners of the real (imported) games", winners),
        "wins_by_turn_position": (
            "Wins by first-round turn position (ties share the win)",
            stats_by(con, "turn_position"),
        ),
    }
    for n, (title, df) in enumerate(tables.values()):
        if fmt == "table":
            emit(as_percentages(df), "table", title)
        elif fmt == "csv":
            click.echo(("\n" if n else "") + f"# {title}")
            emit(df, "csv")
    real = demo_game(con, winners)
    if real is None:
        fail(FAILED, "no sample game could be imported")
    con.close()
    src = open_game(str(real), db)
    try:
        report = write_report(src, out / "report.html")
    finally:
        src.con.close()  # the file is free again for the next import (the same process, in tests)
    if fmt == "json":
        doc = {
            "database": str(db.resolve()),
            "import": {k: getattr(rep, k) for k in ("files", "stored", "skipped", "failed", "actions")},
            **{key: records(df) for key, (_, df) in tables.items()},
            "report": str(report.resolve()),
            "report_game": real,
        }
        click.echo(json.dumps(doc, ensure_ascii=False))
    say("")
    say(f"Database:        {db.resolve()}")
    say(f"Post-game report: {report.resolve()} (game {real})")
    say("Try:             brass-stats stats --db " + str(db) + " --by strategy --min-games 5")
    say(f"Done in {time.perf_counter() - start:.1f} s.")
