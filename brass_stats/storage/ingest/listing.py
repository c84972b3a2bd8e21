"""The input files: paths, folders, globs and URLs listed lazily, and cut into the batches handed out."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ...validation import game_files, is_glob_pattern


def iter_game_files(items: Iterable[str | Path]) -> Iterator[str]:
    """Files, directories (every ``*.json`` below, in name order) and glob patterns, lazily and without repeats.

    The listing of :func:`brass_stats.validation.game_files` (an existing file or folder is taken
    literally, whatever its name; only otherwise is an argument with a wildcard a glob pattern), plus
    items with a ``scheme://``, listed with fsspec (Dask's filesystem layer) by the same rule.
    """
    return game_files(items, _iter_url)


def _iter_url(url: str) -> Iterator[str]:
    import fsspec

    fs, path = fsspec.core.url_to_fs(url)
    protocol = url.split("://", 1)[0]
    if fs.isdir(path):
        for p in sorted(fs.find(path)):
            if p.endswith(".json"):
                yield f"{protocol}://{p}" if "://" not in p else p
    else:
        for p in sorted(fs.glob(path)) if is_glob_pattern(path, fs.exists) else [path]:
            yield f"{protocol}://{p}" if "://" not in p else p


# the smallest batch handed out at the end of a run (a batch costs a few ms besides its games: its files)
MIN_BATCH = 4


def file_batches(
    files: Iterator[str], size: int, spread: int = 1, on_end: Callable[[], None] | None = None
) -> Iterator[list[str]]:
    """Batches of ``size`` files, the last ones smaller so that the workers finish together.

    The next ``size * spread`` paths are read ahead (names only). Once the listing has ended (``on_end``
    is called then), what is left is cut into batches of about ``1/spread`` of it (``spread``: the tasks
    in flight), never under :data:`MIN_BATCH`: instead of a worker starting a full batch while the
    others sit idle at the end, the last tasks take a few games each (guided self-scheduling).
    """
    ahead: deque[str] = deque()
    ended = False
    while True:
        while not ended and len(ahead) < size * spread:
            f = next(files, None)
            if f is None:
                ended = True
                if on_end is not None:
                    on_end()
            else:
                ahead.append(f)
        if not ahead:
            return
        n = size if not ended else max(MIN_BATCH, min(size, -(-len(ahead) // spread)))
        yield [ahead.popleft() for _ in range(min(n, len(ahead)))]
