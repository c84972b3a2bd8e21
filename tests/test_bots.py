"""Bots and self-play: finished legal games, determinism, parallel corpora, user agents, strength."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from brass_stats.bots import Agent, RandomBot, play_game
from brass_stats.bots.greedy import GreedyBot, Weights, evaluate, explain
from brass_stats.bots.selfplay import (
    SelfPlayError,
    game_path,
    game_seed,
    generate,
    play_selfplay_game,
    seat_bots,
)
from brass_stats.bots.specs import BOTS
from brass_stats.cli import main
from brass_stats.cli.selfplay import selfplay_command
from brass_stats.engine import SeededChance, apply_action, new_game
from brass_stats.engine.actions import Action
from brass_stats.engine.legal import legal_actions
from brass_stats.engine.scoring import standings
from brass_stats.engine.state import GameState
from brass_stats.log.format import GameLog
from brass_stats.validation import validate_file, validate_log

# the bots' tests run on both paths: the compiled core and the pure-Python reference (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("bot_path")


def final_state(log: GameLog) -> GameState:
    state = new_game(list(log.players), log.chance_source(), log.rules())
    for a in log.actions:
        state, _ = apply_action(state, a)
    return state


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], list[Path]]:
    """One small corpus per player count and bot line-up (greedy only, random only, mixed)."""
    out: dict[tuple[int, str], list[Path]] = {}
    base = tmp_path_factory.mktemp("corpus")
    for players in (2, 3, 4):
        for bots in ("greedy", "random", "random,greedy"):
            d = base / f"{players}-{bots.replace(',', '_')}"
            out[players, bots] = generate(1, players, 11, bots.split(","), d, workers=1, progress=False)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", ["greedy", "random", "random,greedy"])
def test_selfplay_games_finish_and_validate(corpus: dict[tuple[int, str], list[Path]], players: int, bots: str) -> None:
    (path,) = corpus[players, bots]
    assert path.name == f"birmingham-{players}p-11-00000.json"
    v = validate_file(path)
    assert v.ok, v.error
    assert v.kind == "ok"  # the declared result agrees with the replay
    log = GameLog.load(path)
    assert log.players == tuple(f"{b}-{i}" for i, b in enumerate(seat_bots(bots.split(","), players)))
    assert log.seed == game_seed(11, 0)
    assert log.source == {
        "generator": "brass-stats selfplay",
        "bots": seat_bots(bots.split(","), players),
        "corpus_seed": 11,
        "game_index": 0,
    }
    assert log.result is not None and len(log.result["final"]) == players
    assert final_state(log).game_over


def test_same_seed_same_log_text() -> None:
    a = play_game([GreedyBot(), RandomBot()], seed=123)
    b = play_game([GreedyBot(), RandomBot()], seed=123)
    assert a.dumps() == b.dumps()
    c = play_game([GreedyBot(), RandomBot()], seed=124)
    assert c.dumps() != a.dumps()


def test_corpus_is_byte_identical_for_any_number_of_workers(tmp_path: Path) -> None:
    args = dict(n_games=2, players=2, seed=5, bots=["greedy", "random"], progress=False)
    one = generate(**args, out_dir=tmp_path / "w1", workers=1)  # type: ignore[arg-type]
    two = generate(**args, out_dir=tmp_path / "w2", workers=2)  # type: ignore[arg-type]
    assert [p.name for p in one] == [p.name for p in two] == [f"birmingham-2p-5-{i:05d}.json" for i in range(2)]
    for a, b in zip(one, two, strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert sorted(p.name for p in (tmp_path / "w2").iterdir()) == [p.name for p in two]  # no stray temp files


def test_game_seed_is_documented_derivation() -> None:
    digest = hashlib.sha256(b"brass-stats-selfplay:42:7").digest()
    assert game_seed(42, 7) == int.from_bytes(digest[:6], "big")
    seeds = {game_seed(42, i) for i in range(1000)}
    assert len(seeds) == 1000 and all(0 <= s < 2**48 for s in seeds)
    assert game_seed(43, 7) != game_seed(42, 7)


def test_seat_bots_and_registry() -> None:
    assert set(BOTS) == {"random", "greedy", "mcts"}
    assert seat_bots(["greedy", "random"], 4) == ["greedy", "random", "greedy", "random"]
    assert seat_bots(["random"], 3) == ["random"] * 3
    with pytest.raises(ValueError, match="unknown bot"):
        seat_bots(["alphazero"], 2)
    with pytest.raises(ValueError, match="2 to 4"):
        seat_bots(["random"], 5)
    assert game_path("x", 3, 12, 2).name == "birmingham-2p-3-00012.json"
    assert game_path("x", 3, 12, 4, "lancashire").name == "lancashire-4p-3-00012.json"


class Crashing:
    name = "crashing"

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if state.action_count >= 3:
            raise RuntimeError("bot bug")
        return legal_actions[0]


def test_failed_games_raise_or_are_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "crashing", Crashing)
    with pytest.raises(SelfPlayError, match=r"2 of 2 games failed; first: game 0 \(game seed \d+, seats crashing"):
        generate(2, 2, 1, ["crashing", "random"], tmp_path, progress=False)
    with pytest.warns(RuntimeWarning) as record:
        paths = generate(2, 2, 1, ["random", "crashing"], tmp_path / "skip", progress=False, skip_errors=True)
    assert [str(w.message).split(" (")[0] for w in record] == ["skipped game 0", "skipped game 1"]
    assert paths == [] and list((tmp_path / "skip").iterdir()) == []


class AlwaysLoan:
    """The Agent protocol's example: loans whenever it can, otherwise the first legal action."""

    name = "always-loan"

    def choose(self, state: GameState, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        loans = [a for a in legal_actions if a.TYPE == "loan"]
        return loans[0] if loans else legal_actions[0]


def test_user_agent_plays_through_play_game() -> None:
    agent: Agent = AlwaysLoan()
    log = play_game([agent, RandomBot()], seed=9)
    assert log.players == ("always-loan-0", "random-1")
    assert any(a.TYPE == "loan" and a.player == 0 for a in log.actions)
    v = validate_log(log)
    assert v.ok, v.error
    assert final_state(log).game_over


def test_greedy_only_picks_offered_actions_and_is_rng_deterministic() -> None:
    state = new_game(["a", "b", "c"], SeededChance(21))
    bot = GreedyBot()
    for _ in range(12):
        options = legal_actions(state)
        picks = {bot.choose(state, options, random.Random(s)) for s in range(3)}
        assert picks <= set(options)
        first = bot.choose(state, options, random.Random(0))
        assert first == bot.choose(state, options, random.Random(0))
        state, _ = apply_action(state, first)


def test_greedy_with_tiny_sell_cap_still_plays_legal_games() -> None:
    log = play_game([GreedyBot(Weights(sell_cap=1)), GreedyBot()], seed=31)
    v = validate_log(log)
    assert v.ok, v.error


def test_evaluation_terms_sum_and_final_value() -> None:
    log = play_game([GreedyBot(), RandomBot()], seed=17)
    state = new_game(list(log.players), log.chance_source(), log.rules())
    for a in log.actions[:40]:
        state, _ = apply_action(state, a)
    parts = explain(state, 0)
    assert sum(parts.values()) == pytest.approx(evaluate(state, 0))
    end = final_state(log)
    assert int(evaluate(end, 0)) == end.players[0].vp
    best = max(standings(end), key=lambda s: (s.vp, s.income_level, s.money))
    assert evaluate(end, best.seat) >= max(evaluate(end, s) for s in range(end.num_players))


def test_greedy_beats_random() -> None:
    """10 seeded two-player games, seats alternating: greedy must win at least 9."""
    wins = 0
    for i in range(10):
        g = i % 2
        bots: list[Agent] = [GreedyBot(), RandomBot()] if g == 0 else [RandomBot(), GreedyBot()]
        result = {s.seat: s for s in standings(final_state(play_game(bots, seed=700 + i)))}
        wins += result[g].rank == 1 and result[1 - g].rank == 2
    assert wins >= 9


def test_selfplay_command(tmp_path: Path) -> None:
    out = tmp_path / "games"
    res = CliRunner().invoke(
        selfplay_command, ["--games", "2", "--players", "3", "--seed", "4", "--bots", "random", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert f"wrote 2 games to {out}" in res.output
    assert "time:" in res.output
    files = sorted(out.iterdir())
    assert [p.name for p in files] == ["birmingham-3p-4-00000.json", "birmingham-3p-4-00001.json"]
    assert files[0].read_text() == play_selfplay_game(4, 0, ["random"] * 3).dumps()
    assert json.loads(files[1].read_text())["source"]["game_index"] == 1
    # issue 12: an existing game file is never replaced silently
    files[0].write_text("my own notes")
    again = ["--games", "2", "--players", "3", "--seed", "4", "--bots", "random", "--out", str(out)]
    res = CliRunner().invoke(main, ["selfplay", *again])
    assert res.exit_code == 2, res.output
    assert "already exist" in res.output and "--overwrite" in res.output
    assert files[0].read_text() == "my own notes"
    res = CliRunner().invoke(main, ["selfplay", *again, "--overwrite"])
    assert res.exit_code == 0, res.output
    assert files[0].read_text() == play_selfplay_game(4, 0, ["random"] * 3).dumps()
    bad = CliRunner().invoke(
        selfplay_command, ["--games", "1", "--players", "2", "--bots", "greedy,nope", "--out", str(out)]
    )
    assert bad.exit_code != 0 and "unknown bot" in bad.output
