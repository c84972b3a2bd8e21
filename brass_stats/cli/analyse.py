"""``analyse``: a recorded game judged action by action, like a chess engine's analysis.

For each action: every player's win probability after it and, for the player who moved (unless the
action was forced), what it cost against the best action a search from that player's information
found, in VP of expected final margin (its VP minus its opponents' mean) and chance of winning, and a label;
then each player's accuracy and counts of inaccuracies, mistakes and blunders
(:mod:`brass_stats.analysis.review`; ``docs/analysis.md``). ``--store`` writes the rows into the
``analysis`` table of a DuckDB file and/or a Parquet dataset (:mod:`brass_stats.storage.analysis_table`).

Without GAME, ``--db FILE`` or ``--parquet DIR``: every stored game not yet reviewed (with the corpus
filters of ``stats``) is reviewed and stored, one game per task
(:func:`brass_stats.analysis.review.collection.review_collection`); a closing summary line.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path
from typing import Any, NoReturn

import click
import pandas as pd

from ..analysis.review import GameReview, review_rows
from ..analysis.statistics.filters import CorpusFilter
from ..exitcodes import BAD_INPUT, BUSY, FAILED, OK
from ..log.format import GameLog
from ..presentation.evaluation import MEASURE, vp
from ..replay import replay
from ..storage.analysis_table import analysis_table, replace_in_dataset
from ..storage.corpus import CorpusBusy, CorpusError, CorpusRef
from ..storage.duckdb_store import Store
from ..storage.lookup import GAME_HELP, resolve_game, stored_log_file
from ..storage.tables import game_id as log_game_id
from .common import connect_or_exit, corpus_filter_options, corpus_options, fail
from .output import emit, format_option, printable
from .review_options import STRICT_UNLESS_AS_PLAYED, ReviewOptions, review_options

COLLECTION_HELP = (
    "Without GAME: `analyse --db FILE` (or `--parquet DIR`) reviews every stored game not yet reviewed "
    "(the filters pick some; --redo also those already reviewed) and stores each game's rows as it is done; "
    "a closing line counts the games reviewed, skipped and failed (CSV, JSON: one row). Exit status: 0 no "
    "game failed; 1 some failed (each named on stderr; the others are stored); 2 neither GAME nor a store, "
    "or a missing store; 4 the store is in use."
)


@click.command(
    "analyse",
    short_help="Judge every action of a game: win probabilities, mistakes and the better action, accuracy.",
    epilog=GAME_HELP + " Exit status: 0 the game was analysed (a game whose log ends early too); 1 the game "
    "breaks a rule: it is analysed up to its first illegal action, which is named on stderr (and in JSON as "
    "`stopped`), and nothing is stored; 2 unreadable input or a missing store; 4 the store is in use."
    + "\n\n"
    + COLLECTION_HELP,
)
@click.argument("game", required=False)
@corpus_options(what="the game (where --store writes too)", together=True)
@review_options(STRICT_UNLESS_AS_PLAYED)
@format_option()
@click.option(
    "--store",
    is_flag=True,
    help="Also write the results into the `analysis` table of --db FILE and/or --parquet DIR (the game must be "
    "stored there); analysing a game again replaces its rows.",
)
@corpus_filter_options(min_games=False)
@click.option(
    "--redo",
    is_flag=True,
    help="Without GAME: review again the games already reviewed with the same --simulations and --seed too.",
)
def analyse_command(
    game: str | None,
    corpus: CorpusRef | None,
    review: ReviewOptions,
    fmt: str,
    store: bool,
    filters: CorpusFilter,
    redo: bool,
) -> None:
    """Analyse GAME like a chess engine: each player's win probability after every action; for the
    player who moved, the loss against the best action the search found (from what that player could
    know), labelled inaccuracy, mistake or blunder; each player's accuracy.

    The cost is in VP of expected final margin (the mover's expected VP minus its opponents' mean) lost
    against the best move found, as far as the engine is sure of it, with the chance of winning a move
    gave away (a whole win: 50 VP a player); labels from a cost of 4, 8 and 15 VP.

    The table numbers actions from 1 (action N is index N-1 in CSV and JSON); the better action is shown
    for labelled actions. CSV: one line per action, each seat's win probability in win_after_SEAT and
    expected final VP in vp_after_SEAT. JSON: the whole review (actions and per-player summary) with the
    game's id. Definitions and thresholds: docs/analysis.md.

    Without GAME, review a whole store: every game of --db FILE or --parquet DIR (one of the two)
    that passes the filters (--edition ... --until, as in `stats`) and is not yet in its `analysis`
    table with the same --simulations and --seed, one game per worker at a time (--workers N or
    --cluster), each game's rows stored as soon as it is reviewed: run it again after a stop to go
    on. Each game is replayed as it was stored (as played if it was stored with departures from the
    rules). Then `stats --by accuracy` covers them.
    """
    if game is None:
        _analyse_collection(corpus, review, filters, redo, fmt)
    if redo or filters != CorpusFilter():
        raise click.UsageError("--redo and the filters pick games of a store: give them without GAME")
    if store and corpus is None:
        raise click.UsageError("--store writes into a store: give --db FILE and/or --parquet DIR")
    log, gid = _load(game, corpus)
    partitions = _store_targets(corpus, gid) if store else {}
    r = replay(log, review.policy)  # the one replay in this process: the review judges its states
    result = review.run(r)
    _print(result, gid, fmt, log.file or game)
    if result.stopped is not None:
        s = result.stopped
        done = f"actions 1-{s['index']} analysed" if s["index"] else "no action analysed"
        click.echo(
            f"analysis stopped at action {s['index'] + 1} of {len(log.actions)}, which breaks a rule "
            f"[{s['rule']}]: {printable(str(s['message']), 300)} ({done}" + ("; nothing stored)" if store else ")"),
            err=True,
        )
        sys.exit(FAILED)
    if not r.finished:
        click.echo(f"note: the log ends before the game does ({len(r.steps)} actions analysed)", err=True)
    if store:
        assert corpus is not None
        rows = analysis_table(review_rows(result, gid, as_played=review.as_played))
        if corpus.db is not None:
            with Store(corpus.db) as db:
                db.replace_analysis(rows)
        if corpus.parquet is not None:
            replace_in_dataset(corpus.parquet, rows, partitions)
        click.echo(f"stored the analysis of game {gid} ({rows.num_rows} actions) in {_targets(corpus)}", err=True)
    sys.exit(OK)


def _analyse_collection(
    corpus: CorpusRef | None, review: ReviewOptions, filters: CorpusFilter, redo: bool, fmt: str
) -> NoReturn:
    """Review every stored game not yet reviewed (``analyse`` without GAME), then one summary line; exits."""
    from ..analysis.review.collection import review_collection

    if corpus is None:
        fail(
            BAD_INPUT,
            "error: give GAME (a log file or a stored game), or --db FILE or --parquet DIR to review every "
            "stored game not yet reviewed",
        )
    if corpus.db is not None and corpus.parquet is not None:
        raise click.UsageError("without GAME give one store to review: --db FILE or --parquet DIR")
    if review.as_played:
        raise click.UsageError(
            "without GAME each game is replayed as it was stored (as played if stored with departures): "
            "--as-played is for one GAME"
        )
    try:
        report = review_collection(
            corpus,
            filters,
            review.simulations,
            review.seed,
            workers=review.workers,
            cluster=review.cluster,
            redo=redo,
            progress=None if fmt == "table" else False,
        )
    except CorpusBusy as e:
        fail(BUSY, f"error: {e}")
    except CorpusError as e:
        fail(BAD_INPUT, f"error: {e}")
    for gid, message in report.failed:
        click.echo(f"game {gid}: FAILED: {printable(message, 500)}", err=True)
    if fmt == "table":
        click.echo(printable(report.summary(), 1000))
    else:
        first = report.failed[0] if report.failed else (None, None)
        row = {
            "reviewed": report.reviewed,
            "skipped": report.skipped,
            "failed": len(report.failed),
            "actions": report.actions,
            "simulations": report.simulations,
            "seed": report.seed,
            "first_failed_game": first[0],
            "first_failure": first[1],
            "seconds": round(report.seconds, 3),
        }
        emit([row], fmt)
    sys.exit(FAILED if report.failed else OK)


def _load(game: str, corpus: CorpusRef | None) -> tuple[GameLog, str]:
    """The log of GAME (a file, else a stored game) and the game's id."""
    path = Path(game)
    if path.exists() or corpus is None:
        if not path.exists():
            fail(BAD_INPUT, f"error: {game}: no such file (give --db or --parquet to look it up as a game id)")
        log = GameLog.load(path)
        return log, log_game_id(log)
    ref = _lookup_ref(corpus)
    con = connect_or_exit(ref)
    try:
        gid = resolve_game(con, game, str(ref))
        file = stored_log_file(con, game, str(ref))
    finally:
        con.close()
    log = GameLog.load(file)
    if log_game_id(log) != gid:
        fail(BAD_INPUT, f"error: game {gid} in {ref}: its log file {file} now holds another game")
    return log, gid


def _lookup_ref(corpus: CorpusRef) -> CorpusRef:
    """The one store GAME is looked up in: the DuckDB file when both stores are given."""
    return CorpusRef(corpus.db) if corpus.db is not None else CorpusRef(parquet=corpus.parquet)


def _targets(corpus: CorpusRef) -> str:
    return " and ".join(str(p) for p in (corpus.db, corpus.parquet) if p is not None)


def _store_targets(corpus: CorpusRef | None, gid: str) -> dict[str, tuple[str, int]]:
    """Check, before the work, that every store --store writes into holds the game; its (edition, players)."""
    assert corpus is not None
    partitions: dict[str, tuple[str, int]] = {}
    for ref in (CorpusRef(corpus.db), CorpusRef(parquet=corpus.parquet)):
        if ref.db is None and ref.parquet is None:
            continue
        con = connect_or_exit(ref)
        try:
            row = con.execute("SELECT edition, player_count FROM games WHERE game_id = ?", [gid]).fetchone()
        finally:
            con.close()
        if row is None:
            fail(
                BAD_INPUT,
                f"error: game {gid} is not stored in {ref}: store it first (brass-stats ingest FILE "
                f"{'--db' if ref.db is not None else '--parquet'} {ref}), then analyse it with --store",
            )
        partitions[gid] = (str(row[0]), int(row[1]))
    return partitions


def _print(review: GameReview, gid: str, fmt: str, name: str) -> None:
    if fmt == "json":
        click.echo(json.dumps({"game_id": gid, **review.to_json()}, ensure_ascii=False))
        return
    if fmt == "csv":
        _print_csv(review)
    else:
        _print_table(review, name)


def _print_csv(review: GameReview) -> None:
    seats = range(len(review.players))
    rows = []
    for a in review.actions:
        row: dict[str, Any] = {"action_index": a.index, "seat": a.seat, "player": a.player, "action": a.action}
        row |= {f"win_after_{s}": a.win_after[s] for s in seats}
        row |= {f"vp_after_{s}": a.vp_after[s] if a.vp_after else None for s in seats}
        row |= {
            "judged": a.judged,
            "best": a.best,
            "best_value": a.best_value,
            "played_value": a.played_value,
            "loss": a.loss,
            "loss_se": a.loss_se,
            "label": a.label,
            "win_loss": a.win_loss,
            "win_label": a.win_label,
        }
        rows.append(row)
    emit(pd.DataFrame(rows), "csv")


def _print_table(review: GameReview, name: str) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    title = (
        f"{printable(name, 60)}: each player's win % after every action; {MEASURE} "
        f"({review.simulations} simulations per judged action, seed {review.seed})"
    )
    # no vertical lines: a 4-player game's columns fit 80 characters with room for the actions
    table = Table(title=title, header_style="bold", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("player", no_wrap=True, max_width=10, overflow="ellipsis")
    table.add_column("action", overflow="fold", ratio=1, min_width=16)
    for head in _win_headers(review.players):
        table.add_column(head, justify="right", no_wrap=True, overflow="ellipsis")
    table.add_column("cost (VP)", justify="right", no_wrap=True)
    for a in review.actions:
        words = Text(_text(_short(a.action, a.player), 300))
        if a.label:
            words.append(f"\n{a.label}", style="bold")
            if a.best:
                words.append(f"; better: {_text(_short(a.best, a.player), 300)}")
        table.add_row(
            str(a.index + 1),
            Text(_text(a.player, 60)),
            words,
            *(f"{100 * p:.1f}" for p in a.win_after),
            vp(a.cost) if a.judged else "",
        )
    console = Console(soft_wrap=False)
    console.print(table)
    summary = Table(
        title="Accuracy (0-100, over each player's judged actions; lichess's formula, 1 VP of margin for 1 point)",
        header_style="bold",
    )
    summary.add_column("player", overflow="fold")
    for head in ("judged", "accuracy", "inaccuracies", "mistakes", "blunders"):
        summary.add_column(head, justify="right", no_wrap=True)
    for p in review.summary:
        accuracy = "" if p.accuracy is None else f"{p.accuracy:.1f}"
        counts = (p.judged, p.inaccuracies, p.mistakes, p.blunders)
        summary.add_row(Text(_text(p.player, 60)), str(counts[0]), accuracy, *map(str, counts[1:]))
    console.print(summary)


def _text(value: str, most: int) -> str:
    return printable(unicodedata.normalize("NFKC", value), most)


def _short(text: str, player: str) -> str:
    """An action in words without the mover's name in front (the player column has it)."""
    return text[len(player) + 1 :] if text.startswith(player + " ") else text


def _win_headers(players: tuple[str, ...]) -> list[str]:
    """One win % column per seat, headed by the players' names cut to the fewest characters (4 to 8) that
    tell them apart, else by seat number."""
    names = [_text(p, 200) for p in players]
    for most in range(4, 9):
        short = [n[:most] for n in names]
        if len(set(short)) == len(short):
            return short
    return [f"seat {s + 1}" for s in range(len(names))]


COMMANDS = (analyse_command,)
