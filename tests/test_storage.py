"""The storage layer: per-game tables, the DuckDB store, Parquet export, bulk import and its commands.

Values are checked against facts computable by hand: the published scores of the two golden games,
the starting money plus every money change, the printed income track, and sums that must agree
between tables.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from click.testing import CliRunner
from conftest import GOLDEN_GAMES, convert_golden

from brass_stats.bots import RandomBot, play_game
from brass_stats.cli.store import ingest_command, replay_command
from brass_stats.engine.actions import Loan
from brass_stats.engine.policy import AS_PLAYED, ChoicePolicy
from brass_stats.engine.scoring import potential_vp
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, replay
from brass_stats.rules_data import INDUSTRIES
from brass_stats.storage import SCHEMAS, Store, frames, game_id, game_tables, ingest, replay_files
from brass_stats.storage.duckdb_store import PARTITION_COLUMNS
from brass_stats.storage.ingest import Outcome
from brass_stats.validation import validate_file

PUBLISHED = {
    # game: (canal-era end VP by seat, final VP by seat): the published results
    "wq9gs6-2p": ([41, 48], [215, 180]),
    "gm7vza-4p": ([37, 45, 39, 47], [152, 141, 129, 130]),
}
RANDOM_GAMES = ((2, 11), (3, 12), (4, 13))  # (players, seed)
STARTING_MONEY = 17


def _random_log(players: int, seed: int) -> GameLog:
    return play_game([RandomBot()] * players, seed)


@pytest.fixture(scope="module")
def replays() -> dict[str, Replay]:
    # as played: gm7vza-4p's server let seat 2 place 16 rail links (D1)
    out = {name: replay(convert_golden(name), AS_PLAYED) for name in GOLDEN_GAMES}
    for n, seed in RANDOM_GAMES:
        out[f"random-{n}p-{seed}"] = replay(_random_log(n, seed))
    for r in out.values():
        assert r.error is None and r.finished
    return out


@pytest.fixture(scope="module")
def tables(replays: dict[str, Replay]) -> dict[str, dict[str, pa.Table]]:
    return {name: game_tables(r, f"{name}.json") for name, r in replays.items()}


@pytest.fixture(scope="module")
def logs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    for name in GOLDEN_GAMES:
        convert_golden(name).save(d / f"{name}.json")
    for n, seed in RANDOM_GAMES:
        _random_log(n, seed).save(d / f"random-{n}p-{seed}.json")
    return d


def rows(t: pa.Table) -> list[dict]:
    return t.to_pylist()


def all_games(names: list[str] | None = None) -> Iterator[str]:
    yield from names or [*GOLDEN_GAMES, *(f"random-{n}p-{s}" for n, s in RANDOM_GAMES)]


# -- per-game tables ----------------------------------------------------------------------


def test_tables_follow_the_declared_schemas(tables: dict[str, dict[str, pa.Table]]) -> None:
    for t in tables.values():
        assert list(t) == list(SCHEMAS)
        for name, schema in SCHEMAS.items():
            assert t[name].schema.equals(schema), name
            assert t[name].num_rows > 0 or name == "deviations", name  # most games break no rule


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_golden_era_scores_match_the_published_scores(tables: dict[str, dict[str, pa.Table]], name: str) -> None:
    canal, final = PUBLISHED[name]
    es = rows(tables[name]["era_scores"])
    by = {(r["era"], r["seat"]): r for r in es}
    assert [by[("canal", s)]["vp_gained_in_era"] for s in range(len(canal))] == canal
    assert [by[("canal", s)]["vp_at_era_end"] for s in range(len(canal))] == canal
    assert [by[("rail", s)]["vp_at_era_end"] for s in range(len(final))] == final
    players = sorted(rows(tables[name]["players"]), key=lambda r: r["seat"])
    assert [p["final_vp"] for p in players] == final
    assert [p["canal_era_vp"] for p in players] == canal


def test_era_score_parts_add_up_to_final_vp(tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in all_games():
        t = tables[name]
        total: Counter[int] = Counter()
        for r in rows(t["era_scores"]):
            assert r["tile_vp"] == sum(r[f"tile_vp_{ind}"] for ind in INDUSTRIES)
            parts = r["link_vp"] + r["tile_vp"] + r["merchant_bonus_vp"] - r["shortfall_vp_lost"]
            assert parts == r["vp_gained_in_era"], (name, r)
            assert r["shortfall_vp_lost"] >= 0
            total[r["seat"]] += parts
        for p in rows(t["players"]):
            assert total[p["seat"]] == p["final_vp"], name


def test_era_end_board_scores_what_era_scores_says(tables: dict[str, dict[str, pa.Table]]) -> None:
    """The board kept for the end of an era is the one scored: its pieces' VP add up to the era's scoring."""
    for name in all_games():
        t = tables[name]
        board: Counter[tuple[str, int, str]] = Counter()
        for r in rows(t["board"]):
            if r["before_scoring"]:
                board[(r["era"], r["owner"], r["piece"])] += r["vp_if_scored"]
        for r in rows(t["era_scores"]):
            assert board[(r["era"], r["seat"], "link")] == r["link_vp"], (name, r["era"], r["seat"])
            assert board[(r["era"], r["seat"], "tile")] == r["tile_vp"], (name, r["era"], r["seat"])


def test_canal_era_board_is_taken_before_level_one_tiles_leave(
    replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]
) -> None:
    for name in all_games():
        removed = sum(1 for s in replays[name].steps for e in s.effects if e.cause == "canal_era_end")
        canal_end = [r for r in rows(tables[name]["board"]) if r["before_scoring"] and r["era"] == "canal"]
        assert sum(1 for r in canal_end if r["piece"] == "tile" and r["level"] == 1) == removed
        assert {r["round"] for r in canal_end} == {max(r["round"] for r in canal_end)}


def test_board_rows_are_at_round_ends(replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in all_games():
        r = replays[name]
        ends = {s.index for s in r.steps if s.state.game_over or s.state.round != s.round}  # type: ignore[union-attr]
        got = rows(tables[name]["board"])
        assert {b["action_index"] for b in got} <= ends
        last = r.steps[-1].index
        final_board = [b for b in got if b["action_index"] == last]
        assert all(b["before_scoring"] and b["era"] == "rail" for b in final_board)
        rail_links = {lid for lid in r.state.era_boards["rail"][1]}
        assert {b["link_id"] for b in final_board if b["piece"] == "link"} == rail_links


def test_snapshot_money_is_starting_money_plus_money_effects(
    replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]
) -> None:
    for name in all_games():
        money: defaultdict[int, int] = defaultdict(lambda: STARTING_MONEY)
        vp: defaultdict[int, int] = defaultdict(int)
        effects_by_action: defaultdict[int, list[dict]] = defaultdict(list)
        for e in rows(tables[name]["effects"]):
            effects_by_action[e["action_index"]].append(e)
        snaps = defaultdict(list)
        for s in rows(tables[name]["turn_snapshots"]):
            snaps[s["action_index"]].append(s)
        n = replays[name].initial.num_players
        for i in range(len(replays[name].steps)):
            for e in effects_by_action[i]:
                if e["kind"] == "money":
                    money[e["seat"]] += e["amount"]
                elif e["kind"] == "vp":
                    vp[e["seat"]] += e["amount"]
            assert sorted(s["seat"] for s in snaps[i]) == list(range(n))
            for s in snaps[i]:
                assert s["money"] == money[s["seat"]], (name, i, s["seat"])
                assert s["vp"] == vp[s["seat"]], (name, i, s["seat"])


def test_snapshot_income_level_is_read_off_the_income_track(
    replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]
) -> None:
    for name in all_games():
        rules = replays[name].initial.rules
        for s in rows(tables[name]["turn_snapshots"]):
            assert s["income_level"] == rules.income_level(s["income_space"])


def test_snapshots_agree_with_the_replayed_states(
    replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]
) -> None:
    for name in all_games():
        r = replays[name]
        for s in rows(tables[name]["turn_snapshots"]):
            step = r.steps[s["action_index"]]
            st = step.state
            assert st is not None
            p = st.players[s["seat"]]
            assert (s["potential_link_vp"], s["potential_tile_vp"]) == potential_vp(st, s["seat"])
            own = [t for t in st.tiles.values() if t.owner == s["seat"]]
            assert s["tiles_on_board"] == len(own) == sum(s[f"tiles_{ind}"] for ind in INDUSTRIES)
            assert s["flipped_tiles"] == sum(t.flipped for t in own)
            by_level = json.loads(s["tiles_by_level"])
            assert sum(n for lv in by_level.values() for n in lv.values()) == len(own)
            assert s["links_on_board"] == sum(1 for o in st.links.values() if o == s["seat"])
            assert s["cards_in_hand"] == len(p.hand)
            assert s["loans"] == p.loans
            ends_round = st.game_over or st.round != step.round or st.phase == "shortfall"
            ends_round = ends_round or step.action.TYPE == "shortfall"
            if not ends_round:  # at a round's end the Character tiles are reset; the column keeps the round's sum
                assert s["spent_this_round"] == p.spent
            assert s["actor"] == step.action.player


def test_end_of_turn_marks_one_turn_per_player_per_round(
    replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]
) -> None:
    for name in all_games():
        r = replays[name]
        acts = rows(tables[name]["actions"])
        turns = Counter((a["round"], a["seat"]) for a in acts if a["end_of_turn"] and a["action_type"] != "shortfall")
        n = r.initial.num_players
        assert set(turns.values()) == {1}
        assert len(turns) == r.state.round * n
        assert acts[-1]["end_of_turn"]
        snaps = rows(tables[name]["turn_snapshots"])
        flags = {a["action_index"]: a["end_of_turn"] for a in acts}
        assert all(s["end_of_turn"] == flags[s["action_index"]] for s in snaps)
        # the first canal round has one action per turn
        assert all(a["end_of_turn"] for a in acts if a["round"] == 1)


def test_actions_table(replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in all_games():
        r = replays[name]
        acts = rows(tables[name]["actions"])
        assert [a["action_index"] for a in acts] == list(range(len(r.log.actions)))
        for a, step in zip(acts, r.steps, strict=True):
            assert json.loads(a["action_json"]) == step.action.to_json()
            assert a["seat"] == step.action.player and a["action_type"] == step.action.TYPE
            sources = json.loads(a["resource_sources"])
            for res in ("coal", "iron", "beer"):
                used = [e for e in step.effects if e.kind == f"{res}_used"]
                places = ("own", "opponents", "merchant" if res == "beer" else "market")
                assert sum(a[f"{res}_from_{p}"] for p in places) == len(used)
                assert sum(1 for s in sources if s["resource"] == res) == len(used)
            paid = [e.amount for e in step.effects if e.kind == "money" and e.cause not in ("income",) and e.amount < 0]
            assert a["money_spent"] == -sum(paid) >= 0
            if a["action_type"] == "build":
                assert a["locations"] == [step.action.location]  # type: ignore[attr-defined]
                assert a["level"] is not None and a["industry"] == step.action.industry  # type: ignore[attr-defined]
            if a["action_type"] == "scout":
                assert a["card"].count(",") == 2
        first = r.initial.turn_order
        assert {p["seat"]: p["start_turn_position"] for p in rows(tables[name]["players"])} == {
            s: first.index(s) for s in first
        }


def test_effects_table_holds_every_effect(replays: dict[str, Replay], tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in all_games():
        r = replays[name]
        eff = rows(tables[name]["effects"])
        assert len(eff) == sum(len(s.effects) for s in r.steps)
        for e in eff:
            src = r.steps[e["action_index"]].effects[e["effect_index"]]
            assert (e["kind"], e["seat"], e["amount"], e["cause"]) == (src.kind, src.seat, src.amount, src.cause)
            assert json.loads(e["detail"]) == src.detail


def test_players_rank_and_winner_are_consistent(tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in all_games():
        players = rows(tables[name]["players"])
        game = rows(tables[name]["games"])[0]
        key = {p["seat"]: (p["final_vp"], p["final_income_level"], p["final_money"]) for p in players}
        for p in players:
            assert p["rank"] == 1 + sum(1 for k in key.values() if k > key[p["seat"]])
        top = max(p["final_vp"] for p in players)
        winners = [p["name"] for p in sorted(players, key=lambda p: p["seat"]) if p["rank"] == 1]
        assert winners and all(p["final_vp"] == top for p in players if p["rank"] == 1)
        assert game["winner"] == " & ".join(winners)
        assert game["player_count"] == len(players)
        assert game["n_actions"] == tables[name]["actions"].num_rows
        final = json.loads(game["replayed_result"])["final"]
        assert [(f["seat"], f["vp"], f["rank"]) for f in final] == [
            (p["seat"], p["final_vp"], p["rank"]) for p in players
        ]


def test_golden_games_record_their_declared_result(tables: dict[str, dict[str, pa.Table]]) -> None:
    for name in GOLDEN_GAMES:
        game = rows(tables[name]["games"])[0]
        assert game["seed"] == "explicit"
        declared, replayed = json.loads(game["declared_result"]), json.loads(game["replayed_result"])
        assert [d["vp"] for d in declared["final"]] == [f["vp"] for f in replayed["final"]]
        assert declared["rail_era_start"]["vp"] == replayed["rail_era_start"]["vp"]
    for n, seed in RANDOM_GAMES:
        game = rows(tables[f"random-{n}p-{seed}"]["games"])[0]
        assert game["seed"] == str(seed) and game["declared_result"] is None


def test_game_id_is_stable_and_content_based() -> None:
    a, b = convert_golden(GOLDEN_GAMES[0]), convert_golden(GOLDEN_GAMES[0])
    assert game_id(a) == game_id(b)
    assert len(game_id(a)) == 16
    b.source, b.result, b.file = None, None, "elsewhere.json"
    assert game_id(b) == game_id(a)
    assert game_id(convert_golden(GOLDEN_GAMES[1])) != game_id(a)
    assert game_id(_random_log(2, 1)) != game_id(_random_log(2, 2))


def test_game_tables_needs_a_finished_replay_with_states() -> None:
    log = _random_log(2, 11)
    with pytest.raises(ValueError, match="keep_states"):
        game_tables(replay(log, keep_states=False), None)
    short = GameLog(log.players, log.chance, log.actions[:10])
    with pytest.raises(ValueError, match="end of the game"):
        game_tables(replay(short), None)


@pytest.mark.parametrize("backend", ["pandas", "polars"])
def test_frames_without_a_database(replays: dict[str, Replay], backend: str) -> None:
    f = frames(replays[GOLDEN_GAMES[1]], backend)  # type: ignore[arg-type]
    assert list(f) == list(SCHEMAS)
    for name, schema in SCHEMAS.items():
        assert list(f[name].columns) == schema.names
    kind = pd.DataFrame if backend == "pandas" else pl.DataFrame
    assert isinstance(f["actions"], kind)
    assert len(f["turn_snapshots"]) == 124 * 4
    with pytest.raises(ValueError):
        frames(replays[GOLDEN_GAMES[1]], "spark")  # type: ignore[arg-type]


# -- the store ------------------------------------------------------------------------------


def _rows_of_game(store: Store, gid: str) -> dict[str, int]:
    return {
        name: store.con.execute(f'SELECT count(*) FROM "{name}" WHERE game_id = ?', [gid]).fetchall()[0][0]
        for name in SCHEMAS
    }


def test_store_writes_each_table_once(tmp_path: Path, tables: dict[str, dict[str, pa.Table]]) -> None:
    t = tables[GOLDEN_GAMES[0]]
    gid = t["games"]["game_id"][0].as_py()
    with Store(tmp_path / "g.duckdb") as s:
        assert not s.has_game(gid)
        assert s.write_game(t)
        assert s.has_game(gid)
        assert not s.write_game(t)
        assert _rows_of_game(s, gid) == {name: t[name].num_rows for name in SCHEMAS}
    with Store(tmp_path / "g.duckdb", read_only=True) as s:  # the file keeps it
        assert s.has_game(gid)
        got = s.con.sql("SELECT * FROM turn_snapshots ORDER BY action_index, seat").to_arrow_table()
        want = t["turn_snapshots"].sort_by([("action_index", "ascending"), ("seat", "ascending")])
        assert got.to_pylist() == want.to_pylist()


def test_write_game_is_atomic(
    tmp_path: Path, tables: dict[str, dict[str, pa.Table]], monkeypatch: pytest.MonkeyPatch
) -> None:
    t = tables[GOLDEN_GAMES[1]]
    gid = t["games"]["game_id"][0].as_py()
    with Store(tmp_path / "g.duckdb") as s:
        s.write_game(tables[GOLDEN_GAMES[0]])
        before = s.counts()
        real = Store._insert
        calls = []

        def failing(self: Store, name: str, table: pa.Table) -> None:
            calls.append(name)
            if len(calls) > 1:
                raise RuntimeError("disk full")
            real(self, name, table)

        monkeypatch.setattr(Store, "_insert", failing)
        with pytest.raises(RuntimeError, match="disk full"):
            s.write_game(t)
        assert calls == ["games", "players"]
        assert _rows_of_game(s, gid) == dict.fromkeys(SCHEMAS, 0)
        assert s.counts() == before
        monkeypatch.setattr(Store, "_insert", real)
        assert s.write_game(t)  # the connection is usable and the game can still be stored
        assert _rows_of_game(s, gid)["games"] == 1


def test_a_failed_commit_of_write_game_keeps_its_error(tmp_path: Path, tables: dict[str, dict[str, pa.Table]]) -> None:
    """A COMMIT that fails (a full disk) has rolled back already: its error reaches the caller, not the
    'no transaction is active' of the ROLLBACK after it; nothing of the game is stored."""
    t = tables[GOLDEN_GAMES[1]]
    with Store(tmp_path / "g.duckdb") as s:
        real = s.con

        class FailingCommit:  # what DuckDB does when a commit fails: the transaction is gone, then the error
            def execute(self, sql: str, *args: object) -> object:
                if sql == "COMMIT":
                    real.execute("ROLLBACK")
                    raise duckdb.IOException("Could not write file (simulated): No space left on device")
                return real.execute(sql, *args)

            def __getattr__(self, name: str) -> object:
                return getattr(real, name)

        s.con = FailingCommit()  # type: ignore[assignment]
        with pytest.raises(duckdb.IOException, match="simulated"):
            s.write_game(t)
        s.con = real
        assert s.counts() == dict.fromkeys(s.counts(), 0)
        assert s.write_game(t)


def test_write_games_stores_a_batch_and_skips_known_games(
    tmp_path: Path, tables: dict[str, dict[str, pa.Table]]
) -> None:
    names = list(all_games())
    with Store(tmp_path / "g.duckdb") as s:
        s.record_failure("x.json", "result", "log.result", None, "differs", game_id(convert_golden(GOLDEN_GAMES[0])))
        assert s.write_game(tables[names[0]])
        assert s.count("failures") == 0  # a stored game clears the failures recorded for its id
        batch = [tables[n] for n in names] + [tables[names[1]]]
        assert s.write_games(batch) == len(names) - 1
        assert s.write_games(batch) == 0
        assert s.count("games") == len(names)
        assert s.count("actions") == sum(tables[n]["actions"].num_rows for n in names)


def test_record_failure_keeps_one_row_per_file(tmp_path: Path) -> None:
    with Store(tmp_path / "g.duckdb") as s:
        s.record_failure("a.json", "illegal", "coal.closest_mine", 12, "no", "abc")
        s.record_failure("a.json", "format", "log.truncated", 40, "short", "abc")
        s.record_failure("b.json", "format", "log.format", None, "bad JSON")
        f = s.query("SELECT * FROM failures ORDER BY file")
        assert list(f["file"]) == ["a.json", "b.json"]
        assert list(f["rule"]) == ["log.truncated", "log.format"]
        assert f["recorded_at"].notna().all()


# -- ingest ---------------------------------------------------------------------------------


def test_ingest_stores_every_game_and_reingest_stores_nothing(tmp_path: Path, logs_dir: Path) -> None:
    db = tmp_path / "g.duckdb"
    n = len(GOLDEN_GAMES) + len(RANDOM_GAMES)
    first = ingest([logs_dir], db, workers=1, progress=False, policy=AS_PLAYED)
    assert (first.stored, first.skipped, first.failed) == (n, 0, 0)
    with Store(db) as s:
        counts = s.counts()
        assert counts["games"] == n and counts["failures"] == 0
        ids = s.game_ids()
    again = ingest([str(logs_dir / "*.json")], db, workers=1, progress=False, policy=AS_PLAYED)
    assert (again.stored, again.skipped, again.failed) == (0, n, 0)
    assert again.actions == 0  # skipped before replaying
    with Store(db) as s:
        assert s.counts() == counts
    # a fresh conversion of a golden game is the same game
    convert_golden(GOLDEN_GAMES[1]).save(tmp_path / "again.json")
    third = replay_files([tmp_path / "again.json"], db, policy=AS_PLAYED)
    assert (third.stored, third.skipped) == (0, 1)
    assert game_id(convert_golden(GOLDEN_GAMES[1])) in ids


def _corrupted_logs(d: Path) -> dict[str, Path]:
    log = convert_golden(GOLDEN_GAMES[0])
    out = {}
    truncated = GameLog(log.players, log.chance, log.actions[:30], log.edition, log.options)
    out["truncated"] = d / "truncated.json"
    truncated.save(out["truncated"])
    bad = list(log.actions)
    i = 20
    bad[i] = Loan(bad[i].player, "loc:nowhere")  # a card nobody holds
    out["illegal"] = d / "illegal.json"
    GameLog(log.players, log.chance, bad, log.edition, log.options).save(out["illegal"])
    wrong = GameLog(
        log.players, log.chance, list(log.actions), log.edition, log.options, {"final": [{"seat": 0, "vp": 1}]}
    )
    out["result"] = d / "result.json"
    wrong.save(out["result"])
    out["json"] = d / "json.json"
    out["json"].write_text('{"format": "brass-stats-log", ', encoding="utf-8")
    return out


def test_failing_games_go_to_failures_only(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    bad = _corrupted_logs(tmp_path / "in")
    db = tmp_path / "g.duckdb"
    report = ingest([tmp_path / "in"], db, workers=1, progress=False)
    # the log whose declared result disagrees is legal: it is stored, flagged (see the next test)
    assert (report.stored, report.failed) == (1, 3)
    assert report.exit_status == 1
    with Store(db) as s:
        counts = s.counts()
        assert counts["games"] == 1 and counts["players"] == 2
        f = s.query("SELECT file, error_kind, rule, action_index, game_id FROM failures")
    got = {Path(r.file).stem: r for r in f.itertuples()}
    assert set(got) == set(bad) - {"result"}
    assert (got["truncated"].error_kind, got["truncated"].rule, got["truncated"].action_index) == (
        "format",
        "log.truncated",
        30,
    )
    assert (got["illegal"].error_kind, got["illegal"].action_index) == ("illegal", 20)
    assert got["illegal"].rule in ("turn.card_in_hand", "log.unknown_name")
    assert (got["json"].error_kind, got["json"].rule) == ("format", "log.format")
    assert pd.isna(got["json"].game_id) and isinstance(got["illegal"].game_id, str)


def test_a_declared_result_that_differs_is_stored_with_the_differences(tmp_path: Path) -> None:
    """The replay is the truth: the game is stored, its row says the declaration disagreed and how."""
    (tmp_path / "in").mkdir()
    bad = _corrupted_logs(tmp_path / "in")
    right = tmp_path / "right.json"
    convert_golden(GOLDEN_GAMES[0]).save(right)
    report = ingest([bad["result"], right], tmp_path / "g.duckdb", workers=1, progress=False)
    assert (report.stored, report.skipped, report.failed) == (1, 1, 0)  # the same game (the id ignores results)
    assert [Path(o.file).name for o in report.result_differs] == ["result.json"]
    with Store(tmp_path / "g.duckdb") as s:
        row = s.query("SELECT declared_result_matches, result_differences, replayed_result FROM games").iloc[0]
    assert not row.declared_result_matches
    replayed = json.loads(row.replayed_result)["final"][0]["vp"]
    assert json.loads(row.result_differences) == [f"seat 0 vp: declared 1, replayed {replayed}"]
    assert PUBLISHED[GOLDEN_GAMES[0]][1][0] == replayed
    # validate still fails it
    assert validate_file(bad["result"]).exit_status == 1
    ok = ingest([right], tmp_path / "ok.duckdb", workers=1, progress=False)
    with Store(tmp_path / "ok.duckdb") as s:
        row = s.query("SELECT declared_result_matches, result_differences FROM games").iloc[0]
    assert ok.stored == 1 and row.declared_result_matches and pd.isna(row.result_differences)


def test_an_interrupted_ingest_leaves_only_whole_games(
    tmp_path: Path, logs_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest_module = importlib.import_module("brass_stats.storage.ingest.worker")  # where the name is used

    real = ingest_module.process_file
    seen: list[str] = []

    def interrupted(path: str, known: frozenset[str] = frozenset(), policy: ChoicePolicy = AS_PLAYED) -> Outcome:
        seen.append(path)
        if len(seen) == 4:
            raise KeyboardInterrupt
        return real(path, known, policy)

    monkeypatch.setattr(ingest_module, "process_file", interrupted)
    db = tmp_path / "g.duckdb"
    with pytest.raises(KeyboardInterrupt):
        ingest([logs_dir], db, workers=1, progress=False, policy=AS_PLAYED, batch_size=2)
    monkeypatch.setattr(ingest_module, "process_file", real)
    with Store(db) as s:
        assert s.count("games") == 2  # the first batch; the game of the unfinished batch is absent
        for name in SCHEMAS:
            orphans = s.con.execute(f'SELECT count(*) FROM "{name}" WHERE game_id NOT IN (SELECT game_id FROM games)')
            assert orphans.fetchall()[0][0] == 0, name
        whole = s.con.execute(
            "SELECT count(*) FROM games g "
            "WHERE n_actions = (SELECT count(*) FROM actions a WHERE a.game_id = g.game_id)"
        )
        assert whole.fetchall()[0][0] == 2
    # running again completes the import
    again = ingest([logs_dir], db, workers=1, progress=False, policy=AS_PLAYED)
    assert (again.stored, again.skipped) == (len(GOLDEN_GAMES) + len(RANDOM_GAMES) - 2, 2)


def test_ingest_with_two_workers_matches_one(tmp_path: Path, logs_dir: Path) -> None:
    one = ingest([logs_dir], tmp_path / "one.duckdb", workers=1, progress=False, policy=AS_PLAYED)
    two = ingest([logs_dir], tmp_path / "two.duckdb", workers=2, progress=False, policy=AS_PLAYED, batch_size=1)
    assert (one.stored, one.failed) == (two.stored, two.failed)
    for r in (one, two):  # the final flush (the run's tail) is timed, as part of the parent's commit time
        assert 0 < r.flush_seconds <= r.commit_seconds < r.seconds
    with Store(tmp_path / "one.duckdb") as a, Store(tmp_path / "two.duckdb") as b:
        assert a.counts() == b.counts()
        q = "SELECT game_id, sum(money), sum(vp), count(*) FROM turn_snapshots GROUP BY game_id ORDER BY game_id"
        assert a.con.execute(q).fetchall() == b.con.execute(q).fetchall()


def test_parquet_export_is_readable_by_duckdb_polars_and_pandas(tmp_path: Path, logs_dir: Path) -> None:
    db, out = tmp_path / "g.duckdb", tmp_path / "pq"
    ingest([logs_dir], db, parquet_dir=out, workers=1, progress=False, policy=AS_PLAYED)
    with Store(db) as s:
        counts = s.counts()
        per_count = dict(s.con.execute("SELECT player_count, count(*) FROM games GROUP BY 1").fetchall())
    for name, schema in SCHEMAS.items():
        files = list((out / name).glob("edition=*/player_count=*/*.parquet"))
        expected = per_count if name != "deviations" else {4: 1}  # only gm7vza-4p broke a rule, as played
        assert {f.parent.name for f in files} == {f"player_count={n}" for n in expected}, name
        glob = str(out / name / "**" / "*.parquet")
        d = duckdb.sql(f"SELECT * FROM read_parquet('{glob}', hive_partitioning = true)").df()
        p = pl.read_parquet(glob, hive_partitioning=True)
        pdf = pd.read_parquet(out / name)
        for frame in (d, p, pdf):
            assert len(frame) == counts[name], name
            assert set(schema.names) | set(PARTITION_COLUMNS) == set(frame.columns), name
        assert set(p["edition"].to_list()) == {"birmingham"}
        assert sorted(set(p["player_count"].cast(pl.Int64).to_list())) == sorted(expected)
        assert sorted(set(pdf["player_count"].astype(int))) == sorted(expected)
    games = pl.read_parquet(str(out / "games" / "**" / "*.parquet"), hive_partitioning=True)
    assert games.filter(pl.col("player_count") == 4).height == per_count[4]
    # exporting again replaces the dataset instead of adding files
    ingest([logs_dir], db, parquet_dir=out, workers=1, progress=False, policy=AS_PLAYED)
    assert len(pd.read_parquet(out / "actions")) == counts["actions"]
    assert not [p for p in out.rglob(".*")], "no temporary files or folders are left"


# -- commands -------------------------------------------------------------------------------


def test_commands_report_and_exit(tmp_path: Path, logs_dir: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "g.duckdb")
    golden = str(logs_dir / f"{GOLDEN_GAMES[0]}.json")
    res = runner.invoke(replay_command, [golden, "--db", db])
    assert res.exit_code == 0, res.output
    assert "1 stored" in res.output
    args = [str(logs_dir), "--db", db, "--workers", "1", "--parquet", str(tmp_path / "p"), "--as-played"]
    res = runner.invoke(ingest_command, args)
    assert res.exit_code == 0, res.output
    assert f"{len(GOLDEN_GAMES) + len(RANDOM_GAMES) - 1} stored, 1 skipped" in res.output
    assert (tmp_path / "p" / "games").is_dir()
    (tmp_path / "bad").mkdir()
    _corrupted_logs(tmp_path / "bad")
    res = runner.invoke(ingest_command, [str(tmp_path / "bad"), "--db", db, "--workers", "2"])
    assert res.exit_code == 1
    # the log declaring a wrong result is the stored golden game (the id leaves the result out): skipped unread
    assert "1 skipped (already stored), 3 failed" in res.output
    # strict (no --as-played): the golden game whose server went past the link tiles fails, naming the rule
    res = runner.invoke(replay_command, [str(logs_dir / "gm7vza-4p.json"), "--db", str(tmp_path / "strict.duckdb")])
    assert res.exit_code == 1 and "network.link_tiles" in res.output
    res = runner.invoke(ingest_command, [str(tmp_path / "nothing-*.json"), "--db", db])
    assert res.exit_code == 2
    res = runner.invoke(replay_command, [str(tmp_path / "missing.json"), "--db", db])
    assert res.exit_code == 2


def test_every_column_is_documented() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "storage-schema.md").read_text(encoding="utf-8")
    from brass_stats.storage.duckdb_store import FAILURES_SCHEMA

    for name, schema in [*SCHEMAS.items(), ("failures", FAILURES_SCHEMA)]:
        section = doc.split(f"\n## {name}", 1)[1].split("\n## ", 1)[0]
        documented = {line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")}
        missing = set(schema.names) - documented
        assert not missing, (name, missing)
