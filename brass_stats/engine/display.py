"""How Jupyter draws a game state or a replay, without the engine importing the drawings.

``GameState._repr_html_``, ``GameState._repr_svg_`` and ``Replay._repr_html_`` ask this registry for a
drawing; the drawings live in :mod:`brass_stats.presentation.notebook`, layers above the engine and the
replay, which must not import them. The package's facade (``brass_stats/__init__.py``, above every
layer) registers them, importing the presentation layer only when Jupyter first draws something.
Nothing registered: the ``_repr_*_`` methods return ``None`` and Jupyter shows the plain ``repr``.

>>> draw("doctest", 3) is None
True
>>> register("doctest", lambda n: "<b>" * n)
>>> draw("doctest", 3)
'<b><b><b>'
>>> del DRAWINGS["doctest"]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DRAWINGS: dict[str, Callable[[Any], str]] = {}
"""Drawing kind (``"state_html"``, ``"state_svg"``, ``"replay_html"``) -> the function that draws it."""


def register(kind: str, drawing: Callable[[Any], str]) -> None:
    """Use ``drawing(obj)`` for the drawings of ``kind`` (replaces the one registered before)."""
    DRAWINGS[kind] = drawing


def draw(kind: str, obj: Any) -> str | None:
    """The drawing of ``obj`` of ``kind``, or ``None`` when no layer above registered one."""
    drawing = DRAWINGS.get(kind)
    return None if drawing is None else drawing(obj)
