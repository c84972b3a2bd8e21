"""brass-stats: replay, validate and analyse games of Brass: Birmingham and Brass: Lancashire.

The library in a few lines (the sample games ship with the package, under :data:`SAMPLES`):

>>> import brass_stats as bs
>>> log = bs.load(bs.SAMPLES / "real" / "gm7vza-4p.json")
>>> log  # doctest: +ELLIPSIS
<GameLog birmingham, 4 players ('Player1', 'Player2', ...), 124 actions, explicit chance, file 'gm7vza-4p.json'>
>>> r = bs.replay(log, bs.AS_PLAYED)  # as its server played it: seat 2 placed 16 links (a departure)
>>> r.deviations[0]["rule"]
'network.link_tiles'
>>> r  # doctest: +ELLIPSIS
<Replay birmingham, 4 players ('Player1', ...): 124 of 124 actions, finished: 'Player1' wins with 152 VP>
>>> r.steps[40]
<Step 40: Canal Era round 6: Player2 scouts (discards Brewery, Stoke-on-Trent and Leek; takes a wild ...)>
>>> r.state_at(40)  # doctest: +ELLIPSIS
<GameState birmingham, 4 players: Canal Era round 6 of 8 (round 6), 'Player2' (seat 1) to move (1 action left); ...>
>>> r.state_at(40).players[0]
<Player 0 'Player1': £27, 0 VP, income space 20, 4 cards, 2 loans, 36 tiles left>
>>> r.state
<GameState birmingham, 4 players: game over after 124 actions ('Player1' has most VP, 152)>

Legal moves, a fresh game, and validation:

>>> new = bs.replay(bs.GameLog.new(["Ann", "Bob"], seed=7))
>>> moves = bs.legal_actions(new.state)
>>> len(moves) > 10, {m.TYPE for m in moves} >= {"build", "loan", "pass"}
(True, True)
>>> v = bs.validate(bs.SAMPLES / "real" / "gm7vza-4p.json")  # strict: names the rule the server broke
>>> v.ok, v.error["index"], v.error["rule"]
(False, 117, 'network.link_tiles')
>>> bs.validate(bs.SAMPLES / "real" / "gm7vza-4p.json", bs.AS_PLAYED).ok
True

Tables of a game, as pandas DataFrames (or polars, ``backend="polars"``), and a database of games:

>>> t = bs.frames(r)
>>> sorted(t)[:3], len(t["actions"])
(['actions', 'board', 'deviations'], 124)
>>> store = bs.Store(":memory:")

In Jupyter, a state or a replay left at the end of a cell draws the board and a player table.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from .engine.actions import Action
from .engine.policy import AS_PLAYED, STRICT, ChoicePolicy
from .engine.state import GameState, Player
from .errors import BrassError, IllegalAction, LogFormatError
from .log.format import GameLog
from .replay import Replay, Step
from .samples import SAMPLES
from .validation import Validation, validate

# Jupyter draws a state (the board and a player table) and a replay (the final board and a move list)
# with the presentation layer's drawings, registered with IPython's own display formatters for those
# classes: the engine and the replay know nothing of drawing, and the presentation layer is imported
# only when Jupyter first draws something.
_DRAWINGS = (
    ("text/html", "brass_stats.engine.state", "GameState", "state_html"),
    ("image/svg+xml", "brass_stats.engine.state", "GameState", "board_svg"),
    ("text/html", "brass_stats.replay", "Replay", "replay_html"),
)


def _notebook_drawing(name: str) -> Callable[[Any], str]:
    def drawing(obj: Any) -> str:
        from .presentation import notebook

        out: str = getattr(notebook, name)(obj)
        return out

    return drawing


def _register_jupyter_drawings() -> None:
    """Register the drawings with the running IPython shell, if there is one (nothing otherwise)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    formatters = shell.display_formatter.formatters
    for mime, module, cls, name in _DRAWINGS:
        formatters[mime].for_type_by_name(module, cls, _notebook_drawing(name))


_register_jupyter_drawings()

try:
    __version__: str = metadata.version("brass-stats")
except metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.0.0+unknown"


def load(source: str | Path | dict[str, Any] | GameLog) -> GameLog:
    """A game log from a file path, JSON text, or an already-parsed JSON object.

    >>> load('{"format": "brass-stats-log", "format_version": 1, "edition": "birmingham",'
    ...      ' "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],'
    ...      ' "chance": {"seed": 1}, "actions": []}')
    <GameLog birmingham, 2 players ('Ann', 'Bob'), 0 actions, seed 1>

    Bad input raises :class:`LogFormatError` with one clear message (file, where, why).
    """
    if isinstance(source, GameLog):
        return source
    if isinstance(source, dict):
        return GameLog.from_json(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return GameLog.loads(source)
    return GameLog.load(source)


def replay(
    source: str | Path | dict[str, Any] | GameLog,
    policy: ChoicePolicy = STRICT,
    keep_states: bool = True,
) -> Replay:
    """Replay a game (a :class:`GameLog`, or anything :func:`load` reads) through the rules engine.

    The replay stops at the first illegal action, kept in ``.error``; ``.steps`` lists the actions applied
    and ``.state_at(i)`` gives the state after action ``i`` (``-1``: the setup).
    """
    from .replay import replay as run

    return run(load(source), policy, keep_states)


def legal_actions(state: GameState, types: list[str] | None = None) -> list[Action]:
    """Every legal action of the player to move in ``state`` (optionally only some action types)."""
    from .engine.legal import legal_actions as legal

    return legal(state, types)


def __getattr__(name: str) -> Any:
    # storage pulls in DuckDB and Arrow: imported when first used
    if name in ("Store", "frames", "game_tables", "ingest"):
        from . import storage

        return getattr(storage, name)
    raise AttributeError(f"module 'brass_stats' has no attribute {name!r}")


__all__ = [
    "AS_PLAYED",
    "SAMPLES",
    "STRICT",
    "Action",
    "BrassError",
    "ChoicePolicy",
    "GameLog",
    "GameState",
    "IllegalAction",
    "LogFormatError",
    "Player",
    "Replay",
    "Step",
    "Store",
    "Validation",
    "__version__",
    "frames",
    "game_tables",
    "ingest",
    "legal_actions",
    "load",
    "replay",
    "validate",
]
