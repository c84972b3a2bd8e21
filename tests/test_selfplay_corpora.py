"""The shipped self-play samples are reproducible: the same seed gives byte-identical files.

``replays/README.md`` lists the ``brass-stats selfplay`` commands that made ``replays/generated`` and
``replays/lancashire``. Making the engine, ``legal_actions`` or the greedy bot faster must not change
a single game: the first game of every command is played again here and compared byte for byte
(``benchmarks/bench_speed.py --check-corpora`` replays every game of every command).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from brass_stats.bots.selfplay import generate
from brass_stats.engine.policy import AS_PLAYED
from brass_stats.log.format import GameLog
from brass_stats.replay import Replay

REPLAYS = Path(__file__).parents[1] / "replays"
# (folder, players, corpus seed, bots, edition): the commands of replays/README.md
CORPORA = (
    ("generated", 2, 2002, "greedy", "birmingham"),
    ("generated", 2, 2012, "greedy,random", "birmingham"),
    ("generated", 2, 2022, "random,greedy", "birmingham"),
    ("generated", 3, 3003, "greedy", "birmingham"),
    ("generated", 3, 3013, "greedy,random", "birmingham"),
    ("generated", 4, 4004, "greedy", "birmingham"),
    ("generated", 4, 4014, "greedy,random", "birmingham"),
    ("lancashire", 2, 5002, "greedy", "lancashire"),
    ("lancashire", 3, 5003, "greedy,random", "lancashire"),
    ("lancashire", 4, 5004, "greedy", "lancashire"),
)


def test_the_readme_lists_these_commands() -> None:
    readme = (REPLAYS / "README.md").read_text(encoding="utf-8")
    for folder, players, seed, bots, edition in CORPORA:
        cmd = f"--players {players} --seed {seed} --bots {bots} --out replays/{folder}"
        assert cmd in readme, cmd
        assert (edition == "lancashire") == (f"{cmd} --edition lancashire" in readme)


@pytest.mark.parametrize(("folder", "players", "seed", "bots", "edition"), CORPORA, ids=lambda v: str(v))
def test_first_game_of_each_sample_corpus_is_regenerated_byte_for_byte(
    tmp_path: Path, folder: str, players: int, seed: int, bots: str, edition: str
) -> None:
    (path,) = generate(1, players, seed, bots.split(","), tmp_path, workers=1, progress=False, edition=edition)
    # the samples keep their first names, game-<seed>-<index>.json (the command now adds edition and players)
    assert path.read_bytes() == (REPLAYS / folder / f"game-{seed}-00000.json").read_bytes()


@pytest.mark.parametrize("folder", ["generated", "lancashire"])
def test_every_sample_game_is_legal_under_the_rulebook(folder: str) -> None:
    """Strict validation, every file: a sample corpus made before a rule was added must be regenerated."""
    failures = []
    for path in sorted((REPLAYS / folder).glob("*.json")):
        r = Replay(GameLog.load(path), keep_states=False).run()
        if r.error is not None or not r.finished:
            failures.append(f"{path.name}: {r.error}")
    assert failures == []


def test_the_real_samples_break_only_the_documented_rule() -> None:
    """wq9gs6 is legal; gm7vza breaks D1 (16 rail links) at action 117 and nothing before it."""
    legal = Replay(GameLog.load(REPLAYS / "real" / "wq9gs6-2p.json"), keep_states=False).run()
    assert legal.error is None and legal.finished
    broken = Replay(GameLog.load(REPLAYS / "real" / "gm7vza-4p.json"), keep_states=False).run()
    assert broken.error is not None
    assert (broken.error.index, broken.error.rule) == (117, "network.link_tiles")
    as_played = Replay(GameLog.load(REPLAYS / "real" / "gm7vza-4p.json"), policy=AS_PLAYED, keep_states=False).run()
    assert as_played.error is None and as_played.finished
