"""Contracts of the game-log format (docs/log-format.md) and the importer (docs/importing.md) that
users rely on, written to kill mutants of the log wing's mutation campaign (issue 38)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from brass_stats.engine import SeededChance, new_game
from brass_stats.engine import policy as choice
from brass_stats.log.brassbirmingham.deal import AUDITED_SCORES, brief, declared_result
from brass_stats.log.brassbirmingham.records import ConversionError, QuasrainPolicy, card_play, convert, map_action
from brass_stats.log.format import GameLog, LogFormatError, _clip

REAL_LOG = Path(__file__).resolve().parents[1] / "replays" / "real" / "wq9gs6-2p.json"


def _real_log() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REAL_LOG.read_text("utf-8"))
    return data


@pytest.mark.parametrize("where", ["entry", "action"])
def test_importer_unknown_fields_error_names_the_first_field_it_lists(where: str) -> None:
    """docs/importing.md section 1: a field the importer does not know fails with the record, seq and
    field. With several unknown fields the message lists them all, and the field the error names is
    the first one that message lists (so the two never disagree)."""
    action: dict[str, Any] = {"type": "loan", "cardId": "no_such_card"}
    entry: dict[str, Any] = {"seq": 5, "player": 0, "action": action}
    target = entry if where == "entry" else action
    target["zulu"] = 1
    target["alpha"] = 2
    with pytest.raises(ConversionError) as e:
        card_play(entry, "r.record.json", 0)
    message = str(e.value)
    assert "'alpha', 'zulu'" in message
    assert e.value.field == "alpha"
    assert e.value.seq == 5


@pytest.mark.parametrize("faces", ["all", [1], {"0": "blank"}])
def test_reader_words_a_bad_merchant_tiles_entry_itself(faces: Any) -> None:
    """docs/log-format.md sections 8 and 12: a ``merchant_tiles`` entry is an array of faces; when it
    is not, ``GameLog.loads`` raises ``LogFormatError`` at ``chance.merchant_tiles.<location>`` in the
    reader's own words (a list of tile faces), not only the schema's generic "does not match"."""
    data = _real_log()
    tiles = data["chance"]["merchant_tiles"]
    loc = sorted(tiles)[0]
    tiles[loc] = faces
    with pytest.raises(LogFormatError) as e:
        GameLog.loads(json.dumps(data))
    assert e.value.where == f"chance.merchant_tiles.{loc}"
    assert "list of tile faces" in str(e.value)
    assert "does not match the log schema" not in str(e.value)


@pytest.mark.parametrize("bad", [True, "40", 40.5, None])
def test_importer_published_final_scores_must_be_whole_numbers(bad: Any) -> None:
    """docs/importing.md section 4: the setup file's audited ``finalScores`` become the declared result
    (VP are whole numbers); a published score that is not a JSON integer (a boolean, a string, a
    fraction, null) is a ConversionError naming that field, never a declared VP."""
    setup = {"scores": {AUDITED_SCORES: {"finalScores": [52, bad]}}}
    with pytest.raises(ConversionError) as e:
        declared_result(setup, "x.setup.json", 2)
    assert e.value.field == f"setup.scores.{AUDITED_SCORES}.finalScores"
    assert "whole numbers" in str(e.value)


def test_importer_published_whole_number_scores_are_declared() -> None:
    """docs/importing.md section 4: integer published final scores are declared per seat."""
    result, not_kept = declared_result({"scores": {AUDITED_SCORES: {"finalScores": [52, 0]}}}, "x", 2)
    assert result == {"final": [{"seat": 0, "vp": 52}, {"seat": 1, "vp": 0}]}
    assert not_kept == []


@pytest.mark.parametrize("most", [40, 80, 120, 300])
def test_reader_quotes_input_whole_up_to_the_bound_and_clips_past_it(most: int) -> None:
    """docs/log-format.md section 13: the reader answers in one bounded line. A quoted value (or a
    schema message, bound 300 by default) of at most ``most`` characters is shown whole; one
    character more is cut to at most ``most`` characters that say how long the whole was."""
    fits = "x" * most
    assert _clip(fits, most) == fits
    longer = "y" * (most + 1)
    clipped = _clip(longer, most)
    assert len(clipped) <= most
    assert clipped.startswith("y") and clipped.endswith(f"... ({most + 1} chars)")


def test_reader_schema_message_bound_is_300_characters() -> None:
    """docs/log-format.md section 12: a schema mismatch reads ``does not match the log schema: ...``;
    such a message is clipped at 300 characters (the default bound), and not before."""
    assert _clip("z" * 300) == "z" * 300
    assert len(_clip("z" * 301)) <= 300


def test_importer_unknown_card_error_names_one_card() -> None:
    """docs/importing.md section 5: every problem is one ConversionError line naming the field and
    why; a card id the server's deck does not have reads ``unknown card '<id>'`` at ``cardId``."""
    entry = {"seq": 3, "player": 1, "action": {"type": "loan", "cardId": "no_such_card"}}
    with pytest.raises(ConversionError) as e:
        card_play(entry, "r.record.json", 0)
    assert e.value.field == "cardId"
    assert "unknown card 'no_such_card'" in str(e.value)


def test_canonical_text_header_lines_then_one_action_per_line() -> None:
    """docs/log-format.md section 6: the header comes first, indented by one space, then
    ``"actions"`` with one compact action per line: no line of the header is a bare comma, and the
    line before ``"actions"`` ends the header's last field with a comma."""
    log = GameLog.loads(REAL_LOG.read_text("utf-8"))
    lines = log.dumps().split("\n")
    start = lines.index(' "actions": [')
    assert lines[0] == "{"
    header = lines[1:start]
    assert all(line.startswith(" ") and line.strip() not in ("", ",") for line in header)
    assert header[-1].endswith(",")
    end = next(i for i in range(start, len(lines)) if lines[i] in (" ]", " ],"))
    body = lines[start + 1 : end]
    assert len(body) == len(log.actions)
    for line, action in zip(body, log.actions, strict=True):
        assert line.startswith("  {")
        assert json.loads(line.strip().rstrip(",")) == action.to_json()


@pytest.mark.parametrize("scores", [[52], [52, 40, 33]])
def test_importer_published_final_scores_one_per_seat(scores: list[int]) -> None:
    """docs/importing.md section 4: ``finalScores`` are the declared result, one VP per seat; a list
    of another length than the player count is a ConversionError naming that field."""
    setup = {"scores": {AUDITED_SCORES: {"finalScores": scores}}}
    with pytest.raises(ConversionError) as e:
        declared_result(setup, "x.setup.json", 2)
    assert e.value.field == f"setup.scores.{AUDITED_SCORES}.finalScores"


def test_reader_accepts_seed_zero() -> None:
    """docs/log-format.md section 12: a seed is an integer from 0 to 2**64 - 1, so 0 itself is a
    valid seed and a seeded log with it loads back equal."""
    log = GameLog.new(["Ann", "Bob"], seed=0)
    again = GameLog.loads(log.dumps())
    assert again.chance == {"seed": 0}
    with pytest.raises(LogFormatError):
        GameLog.loads(log.dumps().replace('"seed": 0', '"seed": -1'))


def test_importer_quoted_values_stay_within_the_limit() -> None:
    """docs/importing.md section 5: every problem is one ConversionError line; a value the record
    holds is quoted in at most 120 characters (a huge value is cut, marked with "...")."""
    assert brief("short") == "'short'"
    quoted = brief("x" * 1000)
    assert len(quoted) <= 120
    assert quoted.endswith("...")
    entry = {"seq": 1, "player": 0, "action": {"type": "loan", "cardId": "c" * 1000}}
    with pytest.raises(ConversionError) as e:
        card_play(entry, "r.record.json", 0)
    assert "c" * 200 not in str(e.value)


def test_importer_omitted_build_slot_prefers_an_empty_single_icon_slot() -> None:
    """docs/importing.md "Choices a record leaves out": with no ``slotIndex`` the server builds in an
    empty single-icon slot before an empty two-icon slot, whatever the slot order. Stoke-on-Trent's
    Manufacturer fits slot 0 (cotton mill or manufacturer) and slot 2 (manufacturer only): slot 2."""
    state = new_game(["Ann", "Bob"], SeededChance(0))
    context = {"state": state, "player": 0, "location": "stoke_on_trent"}
    assert QuasrainPolicy().choose(choice.SLOT, [0, 2], context) == 2


def test_reader_refuses_a_file_that_is_not_utf8_naming_the_byte(tmp_path: Path) -> None:
    """docs/log-format.md section 13: files must be UTF-8; a file that is not is a LogFormatError
    naming the offset and the offending byte."""
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(LogFormatError) as e:
        GameLog.load(path)
    assert "not UTF-8 text: byte 12 (b'\\xff')" in str(e.value)


def test_reader_names_a_duplicate_key_whole_up_to_80_characters() -> None:
    """docs/log-format.md section 13: a duplicate key is refused as ``duplicate key '<key>' in one
    object``; a key quoted in up to 80 characters is named whole."""
    key = "k" * 78  # repr() adds the two quotes: 80 characters
    with pytest.raises(LogFormatError) as e:
        GameLog.loads("{" + f'"{key}": 1, "{key}": 2' + "}")
    assert f"duplicate key {key!r} in one object" in str(e.value)


@pytest.mark.parametrize(
    ("action", "field", "words"),
    [
        ({"type": "develop", "cardId": "loc-birmingham-0", "removals": [99]}, "removals", "unknown industry 99"),
        ({"type": "network", "cardId": "loc-birmingham-0", "links": [999]}, "links", "unknown link 999"),
        ({"type": "loan", "cardId": "no_such_card"}, "cardId", "unknown card 'no_such_card'"),
    ],
)
def test_importer_names_an_unknown_entry_by_its_kind(action: dict[str, Any], field: str, words: str) -> None:
    """docs/importing.md section 5: an id the server's tables do not have is named by what it is
    (an industry, a link, a card) at the field that holds it."""
    with pytest.raises(ConversionError) as e:
        map_action({"seq": 4, "player": 0, "action": action}, "r.record.json", QuasrainPolicy())
    assert e.value.field == field
    assert words in str(e.value)


def test_importer_a_published_score_the_format_cannot_declare_is_refused_naming_its_place() -> None:
    """docs/log-format.md section 13: declared VP lie from 0 to 9999. A published final score above that
    converts to a log the strict reader refuses, so the importer refuses the record: one ConversionError
    naming the setup's scores and, in its message, the place in the log that is out of range."""
    golden = Path(__file__).resolve().parent / "golden" / "quasrain"
    record = json.loads((golden / "wq9gs6-2p.record.json").read_text("utf-8"))
    setup = json.loads((golden / "wq9gs6-2p.setup.json").read_text("utf-8"))
    setup["scores"][AUDITED_SCORES]["finalScores"] = [10_000, 180]
    with pytest.raises(ConversionError) as e:
        convert(record, setup, "r.record.json", "r.setup.json")
    assert e.value.field == "setup.scores"
    assert "the converted log would not be a valid log: result.final[0].vp: " in str(e.value)
    assert "9999" in str(e.value)
