"""The input files: paths, folders, globs and URLs listed lazily, and cut into the batches handed out."""

from __future__ import annotations

import glob
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path


def iter_game_files(items: Iterable[str | Path]) -> Iterator[str]:
    """Files, directories (every ``*.json`` below, in name order) and glob patterns, lazily and without repeats.

    Directories are walked one folder at a time, so the list of a huge corpus is never held in memory.
    Items with a ``scheme://`` are listed with fsspec (Dask's filesystem layer).
    """
    seen_files: set[str] = set()  # only explicitly named files and glob matches can repeat

    for raw in items:
        item = str(raw)
        if "://" in item:
            yield from _iter_url(item)
        elif any(ch in item for ch in "*?["):
            for p in sorted(glob.iglob(item, recursive=True)):
                if os.path.isdir(p):
                    yield from _walk(p)
                elif p not in seen_files:
                    seen_files.add(p)
                    yield p
        elif os.path.isdir(item):
            yield from _walk(item)
        elif item not in seen_files:
            seen_files.add(item)
            yield item


def _walk(top: str) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".json"):
                yield os.path.join(dirpath, name)


def _iter_url(url: str) -> Iterator[str]:
    import fsspec

    fs, path = fsspec.core.url_to_fs(url)
    protocol = url.split("://", 1)[0]
    if fs.isdir(path):
        for p in sorted(fs.find(path)):
            if p.endswith(".json"):
                yield f"{protocol}://{p}" if "://" not in p else p
    else:
        for p in sorted(fs.glob(path)) if any(ch in path for ch in "*?[") else [path]:
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
