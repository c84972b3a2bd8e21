"""Content-hash ids: :func:`game_id`, the same for the same game whatever its file is called.

The id hashes the game's JSON text, written piece by piece (the actions by :mod:`.action_json`);
the actions' texts are kept for the actions table of the same game (:func:`action_json_column`).
"""

from __future__ import annotations

import hashlib
from dataclasses import fields
from operator import attrgetter
from typing import Any

from ...engine.actions import Action, Build, Develop, Loan, Network, Pass, Scout, Sell, Shortfall
from ...log.format import GameLog
from .action_json import ACTION_WRITERS, SORTED_JSON, action_texts

# the last game_id's actions and their field-order JSON: the actions table of the same game reuses them
_LAST_ACTIONS: list[Any] = [(), []]


def game_id(log: GameLog) -> str:
    """Stable id from the log's content: the same game (same header, chance and actions) always gets the same id.

    ``source``, ``result`` and the file name are left out, so re-exporting or renaming a log keeps its id.
    The id hashes the JSON text of ``{"actions", "chance", "edition", "options", "players"}`` (keys
    sorted, compact), written piece by piece: the same text ``json.dumps`` writes for the whole.
    """
    actions = tuple(log.actions)
    writers = ACTION_WRITERS.get
    texts = [(write(a) if (write := writers(type(a))) else None) or action_texts(a) for a in actions]
    # the actions table writes the same actions in field order: kept for the next game_tables
    _LAST_ACTIONS[:] = [actions, [t[0] for t in texts]]
    text = "".join(
        [
            '{"actions":[',
            ",".join([t[1] for t in texts]),
            '],"chance":',
            SORTED_JSON(log.chance),
            ',"edition":',
            SORTED_JSON(log.edition),
            ',"options":',
            SORTED_JSON(log.options),
            ',"players":',
            SORTED_JSON(list(log.players)),
            "}",
        ]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def action_json_column(actions: list[Action]) -> list[str]:
    """Each action's field-order JSON, reusing the texts of the last :func:`game_id` for equal actions."""
    known, texts = _LAST_ACTIONS
    if len(known) != len(actions):
        return [action_texts(a)[0] for a in actions]
    # equal actions: the same class and field values, compared as one tuple each (what the dataclass's
    # __eq__ does, without its Python-level call)
    return [
        t if a is k or (type(a) is type(k) and _fields_of(a) == _fields_of(k)) else action_texts(a)[0]
        for a, k, t in zip(actions, known, texts, strict=True)
    ]


_FIELD_GETTERS: dict[type, Any] = {}


def _fields_of(a: Action) -> Any:
    """An action's field values, as the dataclass's ``__eq__`` compares them (the eight action classes;
    any other class: the action itself, compared by its own ``__eq__``)."""
    cls = type(a)
    get = _FIELD_GETTERS.get(cls)
    if get is None:
        get = _FIELD_GETTERS[cls] = (
            attrgetter(*[f.name for f in fields(cls) if f.compare]) if cls in _ACTION_CLASSES else _itself
        )
    return get(a)


def _itself(a: Action) -> Action:
    return a


_ACTION_CLASSES = frozenset({Build, Network, Develop, Sell, Loan, Scout, Pass, Shortfall})
