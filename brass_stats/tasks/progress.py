"""The one progress bar of every long command: rich on a terminal, nothing otherwise.

>>> with ProgressBar("games", total=3, show=False) as bar:
...     bar.advance()
...     bar.advance(2)
>>> bar.done
3
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


class ProgressBar:
    """``with ProgressBar(description, total) as bar: bar.advance()``: a rich bar on ``stream`` (stderr).

    ``total=None``: a count without an end (a streamed list of files). ``show=None``: shown only when
    ``stream`` is a terminal. ``transient``: the bar disappears when done. ``done`` counts what advanced,
    shown or not. Entered again while started (by :func:`~.run.run_tasks` given a started bar), it
    stays as it is until the outer ``with`` ends.
    """

    def __init__(
        self,
        description: str,
        total: int | None = None,
        show: bool | None = None,
        stream: TextIO | None = None,
        transient: bool = False,
    ) -> None:
        self.description, self.total, self.transient = description, total, transient
        self.stream = stream if stream is not None else sys.stderr
        self.show = self.stream.isatty() if show is None else show
        self.done = 0
        self._bar: Any = None
        self._task: Any = None
        self._depth = 0

    def __enter__(self) -> ProgressBar:
        self._depth += 1
        if self.show and self._depth == 1:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            columns: list[Any] = [TextColumn("{task.description}")]
            if self.total is None:
                columns = [SpinnerColumn(), *columns, MofNCompleteColumn(), TimeElapsedColumn()]
            else:
                columns += [BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()]
            self._bar = Progress(*columns, console=Console(file=self.stream), transient=self.transient)
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        return self

    def advance(self, n: int = 1) -> None:
        """``n`` more done."""
        self.done += n
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._bar is not None and self._depth == 0:
            self._bar.stop()
            self._bar = None
