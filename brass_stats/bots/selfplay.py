"""Self-play: generate a reproducible corpus of bot games, one log file per game.

Game ``i`` of a corpus made with ``seed`` uses the game seed :func:`game_seed`
(seed, i): the first 6 bytes, read big-endian, of the SHA-256 digest of the
ASCII text ``"brass-stats-selfplay:<seed>:<i>"``. That is a non-negative
integer below 2**48 (safe in any JSON reader), independent of the number of
games and of the order in which they are played, and easy to recompute in any
language. The game seed drives the deal (see ``docs/log-format.md``) and the
bots' random choices (:func:`~brass_stats.bots.play_game`).

Bots are given to seats in order and repeated as needed: ``bots=["greedy",
"random"]`` with 3 players seats ``greedy-0``, ``random-1``, ``greedy-2``. A bot is named by its
spec (:mod:`brass_stats.bots.specs`), knobs included: ``mcts:sims=25``, ``greedy:explore=0.1``.
Each log records its provenance in ``source`` and the final standings in
``result`` (checked again by ``brass-stats validate``). Files are named
``<edition>-<players>p-<seed>-<i:05d>.json`` (e.g. ``birmingham-4p-1-00000.json``); a
game's file depends only on (seed, i, players, bots, edition), so the corpus is byte-for-byte
the same whatever the number of workers. Existing files are never replaced unless asked
(``overwrite=True``).

>>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
True
>>> seat_bots(["greedy", "random"], 3)
['greedy', 'random', 'greedy']
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Sequence
from pathlib import Path

from ..engine.scoring import standings
from ..engine.setup import new_game
from ..engine.turn import apply_action
from ..log.format import GameLog
from ..tasks import ProgressBar, run_tasks
from . import play_game
from .specs import check_spec, make_bot

GENERATOR = "brass-stats selfplay"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a corpus (see the module docstring)."""
    digest = hashlib.sha256(f"brass-stats-selfplay:{seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:6], "big")


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """Bot names per seat: ``bots`` in order, repeated as needed."""
    if not bots:
        raise ValueError("at least one bot is needed")
    for b in bots:
        check_spec(b)
    if not 2 <= players <= 4:
        raise ValueError(f"a game has 2 to 4 players, not {players}")
    return [bots[i % len(bots)] for i in range(players)]


def game_path(out_dir: str | Path, seed: int, index: int, players: int, edition: str = "birmingham") -> Path:
    """Where game ``index`` of a corpus goes: edition, player count, corpus seed and index in the name.

    >>> game_path("corpus", 7, 3, 4).name
    'birmingham-4p-7-00003.json'
    """
    return Path(out_dir) / f"{edition}-{players}p-{seed}-{index:05d}.json"


def play_selfplay_game(seed: int, index: int, bots: Sequence[str], edition: str = "birmingham") -> GameLog:
    """Play game ``index`` of the corpus ``seed`` with one bot name per seat; the log carries source and result."""
    gseed = game_seed(seed, index)
    names = [f"{b}-{i}" for i, b in enumerate(bots)]
    log = play_game([make_bot(b) for b in bots], seed=gseed, names=names, edition=edition)
    state = new_game(names, log.chance_source(), log.rules(), log.options)
    for a in log.actions:
        state, _ = apply_action(state, a)
    log.source = {"generator": GENERATOR, "bots": list(bots), "corpus_seed": seed, "game_index": index}
    log.result = {
        "final": [
            {"seat": s.seat, "vp": s.vp, "income_level": s.income_level, "money": s.money, "rank": s.rank}
            for s in standings(state)
        ]
    }
    return log


class SelfPlayError(RuntimeError):
    """A self-play game could not be played to the end (an engine or bot error), named by index and seed."""


def _write_game(out_dir: str, seed: int, index: int, bots: tuple[str, ...], edition: str = "birmingham") -> str | None:
    """Play and save one game; returns None on success, else the error (raised again by :func:`generate`)."""
    path = game_path(out_dir, seed, index, len(bots), edition)
    tmp = path.with_name(f".{path.name}.tmp")  # a killed run never leaves a half-written game file
    try:
        play_selfplay_game(seed, index, bots, edition).save(tmp)
        os.replace(tmp, path)
    except Exception as e:  # reported with the game's identity by generate()
        return f"game {index} (game seed {game_seed(seed, index)}, seats {', '.join(bots)}): {type(e).__name__}: {e}"
    return None


def _write_indexed(out_dir: str, seed: int, index: int, bots: tuple[str, ...], edition: str) -> tuple[int, str | None]:
    return index, _write_game(out_dir, seed, index, bots, edition)


def generate(
    n_games: int,
    players: int,
    seed: int,
    bots: Sequence[str],
    out_dir: str | Path,
    workers: int | None = 1,
    progress: bool = True,
    skip_errors: bool = False,
    edition: str = "birmingham",
    overwrite: bool = False,
    cluster: str | None = None,
) -> list[Path]:
    """Play ``n_games`` seeded games and write one log each into ``out_dir``; returns the paths in game order.

    ``workers`` processes play in parallel (``None``: one per CPU; 1: in this
    process), through :func:`~brass_stats.tasks.run_tasks`. ``progress`` shows a rich progress bar
    (:class:`~brass_stats.tasks.ProgressBar`, on stderr). A game that cannot be
    played to the end raises :class:`SelfPlayError` once the others are done,
    or, with ``skip_errors``, is left out of the corpus (and of the returned
    paths) with a :class:`RuntimeWarning`. Files that already exist raise :class:`FileExistsError`
    before any game is played, unless ``overwrite``. With ``cluster`` (``local[:N]`` or a Dask scheduler
    address, see :mod:`brass_stats.tasks.cluster`) the games are played on the cluster's workers, which
    write the same files (``out_dir`` must be a folder they all see).
    """
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    seats = tuple(seat_bots(bots, players))
    out = Path(out_dir)
    if not overwrite:
        existing = [p for i in range(n_games) if (p := game_path(out, seed, i, players, edition)).exists()]
        if existing:
            raise FileExistsError(
                f"{len(existing)} game file(s) already exist in {out} (first: {existing[0].name}); "
                "choose another --out or --seed, or pass --overwrite"
            )
    out.mkdir(parents=True, exist_ok=True)
    errors: dict[int, str] = {}
    bar = ProgressBar(f"{players}-player games ({', '.join(seats)})", total=n_games, show=progress)
    calls = ((str(out), seed, i, seats, edition) for i in range(n_games))
    workers = 1 if n_games <= 1 else min(workers or os.cpu_count() or 1, n_games)
    for i, err in run_tasks(_write_indexed, calls, workers=workers, cluster=cluster, progress=bar):
        if err is not None:
            errors[i] = err
    if errors and not skip_errors:
        raise SelfPlayError(f"{len(errors)} of {n_games} games failed; first: {errors[min(errors)]}")
    for i in sorted(errors):
        warnings.warn(f"skipped {errors[i]}", RuntimeWarning, stacklevel=2)
    return [game_path(out, seed, i, players, edition) for i in range(n_games) if i not in errors]
