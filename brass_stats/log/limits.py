"""Limits on what the game-log reader accepts, so that an untrusted upload cannot exhaust memory or time.

The defaults are far above any real game (a 4-player game is about 20 KB and 200 actions). Change
them per call (``GameLog.load(path, limits=Limits(max_actions=50_000))``) or for a whole run with
environment variables (they reach worker processes too), e.g.
``BRASS_STATS_MAX_FILE_BYTES=100000000 brass-stats validate big/``.

| limit | environment variable | default |
|---|---|---|
| file size in bytes | ``BRASS_STATS_MAX_FILE_BYTES`` | 8 MiB |
| actions per log | ``BRASS_STATS_MAX_ACTIONS`` | 5,000 |
| characters per string (names, card codes, keys, ``source`` text) | ``BRASS_STATS_MAX_STRING_LENGTH`` | 500 |
| nesting depth of ``source`` | ``BRASS_STATS_MAX_DEPTH`` | 16 |
| digits per number in ``source`` (elsewhere the schema's ranges are stricter) | ``BRASS_STATS_MAX_INT_DIGITS`` | 20 |

Integer ranges (seats, slots, VP, money, income, tile overrides) are not limits of this kind:
the schema and the rules data fix them (see docs/log-format.md, "Limits").

>>> Limits().max_actions
5000
>>> Limits.from_env({"BRASS_STATS_MAX_ACTIONS": "10"}).max_actions
10
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 8 * 2**20
    max_actions: int = 5_000
    max_string_length: int = 500
    max_depth: int = 16
    max_int_digits: int = 20

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The defaults, changed by any ``BRASS_STATS_MAX_*`` variable that is set."""
        env = os.environ if env is None else env
        values = {}
        for f in fields(cls):
            name = env_name(f.name)
            raw = env.get(name)
            if raw is None:
                continue
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{name} must be a positive integer, not {raw!r}") from None
            if value < 1:
                raise ValueError(f"{name} must be a positive integer, not {raw!r}")
            values[f.name] = value
        return cls(**values)


def env_name(field_name: str) -> str:
    """``max_actions`` -> ``BRASS_STATS_MAX_ACTIONS``."""
    return "BRASS_STATS_" + field_name.upper()
