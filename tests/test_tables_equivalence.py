"""The column-built tables (issue 15) hold exactly the rows the row-by-row builders produced.

``reference_tables.py`` is the previous implementation, kept verbatim; every sample game shipped in
``replays/`` (both editions, real and generated) and a few RandomBot games are replayed and both
builders are compared table by table, row by row, over every column the reference produces.
"""

from __future__ import annotations

import hashlib
import json
import traceback
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_tables import reference_rows

from brass_stats.bots import RandomBot, play_game
from brass_stats.codegen import typed_json_writer
from brass_stats.engine.actions import Build, Develop, Loan, Network, Pass, Sale, Scout, Sell, Shortfall
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay, replay
from brass_stats.storage import SCHEMAS, game_id, game_tables
from brass_stats.storage.tables import batch_tables
from brass_stats.storage.tables.action_json import _ACTION_JSON, SORTED_JSON, _action_json
from brass_stats.storage.tables.assemble import Indexed, _column
from brass_stats.storage.tables.board_statistics import BoardStatistics, _location_link_values, count_board_statistics
from brass_stats.storage.tables.per_action import _detail_column

SAMPLES = sorted((Path(__file__).parents[1] / "replays").rglob("*.json"))


def _logs() -> list[tuple[str, GameLog]]:
    out = [(p.name, GameLog.load(p)) for p in SAMPLES]
    out += [(f"random-{n}p", play_game([RandomBot()] * n, 70 + n)) for n in (2, 3, 4)]
    return out


def _normalise(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


@pytest.mark.parametrize(("name", "log"), _logs(), ids=lambda x: x if isinstance(x, str) else "")
def test_tables_match_the_row_by_row_builders(name: str, log: GameLog) -> None:
    r = replay(log, AS_PLAYED)  # gm7vza-4p as its server played it (16 links for one seat)
    assert r.error is None and r.finished
    new = game_tables(r, None)
    assert {k: t.schema for k, t in new.items()} == SCHEMAS
    for table, rows in reference_rows(r, game_id(log)).items():
        got = new[table].to_pylist()
        if table == "board":  # pieces added to the table since (merchant faces) are not the reference's
            got = [row for row in got if row["piece"] in {"tile", "link"}]
        assert len(got) == len(rows), table
        for i, (mine, ref) in enumerate(zip(got, rows, strict=True)):
            diff = {k: (mine[k], v) for k, v in ref.items() if _normalise(mine[k]) != _normalise(v)}
            assert not diff, f"{name} {table} row {i}: (new, old) {diff}"


def test_the_comparison_covers_both_editions_and_every_table() -> None:
    editions = {GameLog.load(p).edition for p in SAMPLES}
    assert editions == {"birmingham", "lancashire"}
    assert len(SAMPLES) >= 40


# -- the incremental board statistics, the direct JSON and the game id -------------------------------


@pytest.fixture(scope="module")
def sample_replays() -> list[tuple[str, Replay]]:
    return [(name, replay(log, AS_PLAYED)) for name, log in _logs()]


def test_a_batch_of_games_converted_together_equals_each_game_converted_alone(
    sample_replays: list[tuple[str, Replay]],
) -> None:
    """An import converts its batch's columns to Arrow once (:func:`batch_tables`): row for row and type for
    type what :func:`game_tables` gives game by game, concatenated (the import time aside). Every sample
    game, both editions, in batches of 1, 7 and all of them."""
    games = [(r, f"{name}.json", None) for name, r in sample_replays]
    alone = [game_tables(r, f, g) for r, f, g in games]
    for size in (1, 7, len(games)):
        for start in range(0, len(games), size):
            batch = batch_tables(games[start : start + size])
            assert {k: t.schema for k, t in batch.items()} == SCHEMAS
            for name, table in batch.items():
                want = pa.concat_tables([a[name] for a in alone[start : start + size]])
                if name == "games":  # (the time each was converted)
                    table, want = table.drop_columns("imported_at"), want.drop_columns("imported_at")
                assert table.equals(want), (name, start, size)


def test_a_column_of_indexed_parts_takes_each_games_values_at_its_positions() -> None:
    """A game's few distinct values given as :class:`Indexed` (values, positions) become the column they
    stand for, the games in order; beside a game's plain list (never a tuple of its fields)."""
    import numpy as np

    first = Indexed(("g1",), np.zeros(3, dtype=np.intp))
    second = Indexed(("canal", "rail"), np.array([0, 1, 1], dtype=np.intp))
    assert _column([first, second], pa.string()).to_pylist() == ["g1"] * 3 + ["canal", "rail", "rail"]
    numbers = Indexed((7, 9), np.array([1, 0, 1], dtype=np.intp))
    assert _column([numbers, numbers], pa.int32()).to_pylist() == [9, 7, 9] * 2
    with_null = Indexed((None, 4), np.array([1, 0], dtype=np.intp))
    assert _column([with_null], pa.int32()).to_pylist() == [4, None]
    mixed = _column([first, ["a", "b"]], pa.string())
    assert mixed.to_pylist() == ["g1"] * 3 + ["a", "b"] and mixed.type == pa.string()


def test_board_statistics_kept_from_board_to_board_equal_the_counts_from_scratch(
    sample_replays: list[tuple[str, Replay]],
) -> None:
    """On every board of every sample game (both editions, both eras, era ends and game end), the
    statistics updated from the previous board equal the ones counted on the whole board."""
    boards = 0
    for name, r in sample_replays:
        tracker = BoardStatistics(r.initial.rules, r.initial.num_players)
        for step in r.steps:
            st = step.state
            assert st is not None
            tracker.update(st.tiles, st.links)
            assert tracker.rows(st.game_over) == count_board_statistics(st), (name, step.index)
            assert tracker.location_link_values() == _location_link_values(st.rules, st.tiles), (name, step.index)
            boards += 1
    assert boards > 4000


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_incremental_statistics_on_random_games(players: int, seed: int) -> None:
    r = replay(play_game([RandomBot()] * players, seed))
    tracker = BoardStatistics(r.initial.rules, r.initial.num_players)
    for step in r.steps:
        st = step.state
        assert st is not None
        tracker.update(st.tiles, st.links)
        assert tracker.rows(st.game_over) == count_board_statistics(st), step.index


def test_a_miscount_in_the_incremental_statistics_stops_the_tables(
    sample_replays: list[tuple[str, Replay]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game's last board is also counted from scratch: statistics that drifted (here: flips not
    counted) stop the tables with an error instead of being stored."""
    monkeypatch.setattr(BoardStatistics, "_flip", lambda self, ref, t, sign: None)
    _, r = sample_replays[0]
    with pytest.raises(ValueError, match="counted from scratch"):
        game_tables(r, None)


_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    card=_TEXT,
    location=_TEXT,
    slot=st.none() | st.integers(-5, 10**12),
    coal=st.none() | st.lists(_TEXT, max_size=3).map(tuple),
    industries=st.lists(_TEXT, max_size=2).map(tuple),
    discards=st.lists(_TEXT, max_size=3).map(tuple),
    amount=st.none() | st.integers(0, 100),
)
def test_actions_written_directly_as_json_match_the_encoder(
    card: str,
    location: str,
    slot: int | None,
    coal: tuple[str, ...] | None,
    industries: tuple[str, ...],
    discards: tuple[str, ...],
    amount: int | None,
) -> None:
    """Quotes, backslashes, control characters, non-ASCII: the direct writer (sales too) equals json.dumps."""
    actions = [
        Build(1, card, "coal_mine", location, slot, coal, None, None),
        Network(2, card, (location, card)),
        Develop(0, card, industries),
        Scout(3, discards),
        Loan(0, card, amount),
        Pass(1, card),
        Shortfall(2, discards or None),
        Sell(0, card, (Sale(location, card, slot, coal),)),
        Sell(1, card, (Sale(card, location), Sale(location, location, None, coal, card or None))),
    ]
    for a in actions:
        assert _action_json(a) == json.dumps(a.to_json(), ensure_ascii=False, separators=(",", ":"))
        assert _action_json(a, sort_keys=True) == json.dumps(
            a.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )


def test_a_traceback_through_a_generated_json_writer_shows_its_source() -> None:
    """The actions' JSON writers are generated code (brass_stats.codegen): a traceback through one names
    what it writes and shows its lines, not ``<string>``."""

    class Fake:
        TYPE = "fake"

    in_order = (("type", '"type":'), ("card", '"card":'), ("coal", '"coal":'))
    write = typed_json_writer(Fake, in_order, (1, 2, 0), (str, tuple), string=json.encoder.encode_basestring)
    assert write is not None
    assert write("c", ("a",)) == ('{"type":"fake","card":"c","coal":["a"]}', '{"card":"c","coal":["a"],"type":"fake"}')
    with pytest.raises(TypeError) as info:
        write("c", (1,))  # (not strings: the caller falls back to the writer for any values)
    text = "".join(traceback.format_exception(info.value))
    assert "<generated: storage.tables: JSON writer for Fake(str, tuple)" in text
    assert "','.join(map(S, v1))" in text


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(value=_JSON_VALUES, details=st.lists(st.dictionaries(_TEXT, _JSON_VALUES, max_size=3), max_size=6))
def test_the_json_writers_built_once_match_json_dumps(value: Any, details: list[dict[str, Any]]) -> None:
    """The writers built once (and the memoised detail column, keyed by ``repr``: ``True``, ``1``,
    ``1.0`` and ``"1"`` stay apart) write what ``json.dumps`` writes."""
    assert SORTED_JSON(value) == json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert _ACTION_JSON(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    look_alike: list[dict[str, Any]] = [{"n": True}, {"n": 1}, {"n": 1.0}, {"n": "1"}, {"n": 1}]
    for got, d in zip(_detail_column(details + look_alike), details + look_alike, strict=True):
        assert got == json.dumps(d, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def test_the_game_id_hashes_the_whole_log_as_json(sample_replays: list[tuple[str, Replay]]) -> None:
    """The id written piece by piece is the hash of ``json.dumps`` of the whole body, as before."""
    for _, r in sample_replays:
        log = r.log
        body = {
            "edition": log.edition,
            "players": list(log.players),
            "options": log.options,
            "chance": log.chance,
            "actions": [a.to_json() for a in log.actions],
        }
        text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        assert game_id(log) == hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
