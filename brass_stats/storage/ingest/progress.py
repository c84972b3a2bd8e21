"""The import's progress bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class _progress:
    """A rich progress bar (or nothing): ``with _progress(on) as advance: advance(n)``."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.on:
            return lambda n: None
        from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        # the number of files is not known in advance (the file list is streamed)
        self.bar = Progress(
            SpinnerColumn(), TextColumn("importing"), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
        )
        self.bar.__enter__()
        task = self.bar.add_task("importing", total=None)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
