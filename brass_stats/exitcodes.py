"""Exit statuses of every ``brass-stats`` command (documented in README.md and ``brass-stats --help``).

>>> OK, FAILED, BAD_INPUT, INTERNAL
(0, 1, 2, 3)
"""

from __future__ import annotations

#: Everything was read and every game is legal (and agrees with any declared result).
OK = 0
#: A game breaks a rule or differs from its declared result (the input was readable).
FAILED = 1
#: An input cannot be read as a whole game or is out of range (bad JSON, unknown names, over a limit,
#: a missing file, a bad option, a log that ends before the game does): one line says which file,
#: where and why.
BAD_INPUT = 2
#: A bug in brass-stats: the message asks you to report it, with the input that caused it.
INTERNAL = 3
#: The database is in use by another brass-stats process (try again when it has finished).
BUSY = 4

DESCRIPTIONS: dict[int, str] = {
    OK: "success: every game legal",
    FAILED: "a game breaks a rule or differs from its declared result",
    BAD_INPUT: "unreadable, out-of-range or unfinished input (one line: file, where, why)",
    INTERNAL: "internal error in brass-stats (please report it)",
    BUSY: "the database is locked by another process",
}


def help_text() -> str:
    """The exit statuses as one paragraph for ``--help``."""
    return "Exit status: " + "; ".join(f"{code} {text}" for code, text in DESCRIPTIONS.items()) + "."
