"""Specific exception classes. Callers catch these, never bare Exception.

``BrassError`` is the root. ``LogFormatError`` means the input could not be
read as a game; ``IllegalAction`` means it could, but an action breaks a rule
(it carries the rule id and the words of the rulebook).
"""

from __future__ import annotations

from typing import Any

from .rulebook import rule_text


class BrassError(Exception):
    """Base of every error this package raises on purpose."""


class LogFormatError(BrassError):
    """A game file is not a valid game log (bad JSON, wrong version, unknown name, missing field)."""

    def __init__(self, message: str, *, file: str | None = None, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.where = where

    def __str__(self) -> str:
        parts = [p for p in (self.file, self.where) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message


class IllegalAction(BrassError):
    """An action breaks a rule. ``rule`` is an id from :mod:`brass_stats.rulebook`."""

    def __init__(self, rule: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.details = details
        # Filled in by the replayer, which knows where the action sits in the log.
        self.index: int | None = None
        self.round: int | None = None
        self.era: str | None = None
        self.action: dict[str, Any] | None = None
        self.file: str | None = None
        self.edition: str = "birmingham"

    @property
    def rule_text(self) -> str:
        """The rulebook's words for ``rule`` in ``edition`` (``""`` for an unknown rule id)."""
        return rule_text(self.rule, self.edition)

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.index is not None:
            where.append(f"action {self.index + 1}")  # counted from 1 on screen; ``index`` is 0-based
        if self.era and self.round is not None:
            where.append(f"{self.era} era round {self.round}")
        player = self.details.get("player")
        if player is not None:
            where.append(f"player {player}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message} [{self.rule}]" if prefix else f"{self.message} [{self.rule}]"


class AmbiguousChoice(IllegalAction):
    """An action leaves out a choice although the rules leave more than one option."""

    def __init__(self, what: str, options: list[Any], **details: Any) -> None:
        shown = ", ".join(map(str, options[:8])) + (" ..." if len(options) > 8 else "")
        super().__init__(
            "log.choice_stated",
            f"the action does not say which {what}; the rules allow {len(options)} options: {shown}",
            options=options,
            **details,
        )
