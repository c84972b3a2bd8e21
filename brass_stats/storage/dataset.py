"""A Parquet dataset of replayed games: Hive-partitioned tables, written in batches, committed atomically.

Layout of a dataset folder ``DIR``::

    DIR/_brass_dataset.json                      marks the folder as a dataset (format version)
    DIR/_commits/<seq>-<batch>.json              one record per committed batch (the only source of truth)
    DIR/<table>/edition=<e>/player_count=<n>/part-<batch>[-<k>].parquet
    DIR/failures/part-<batch>[-<k>].parquet      (not partitioned)

Any writer (an ingest worker, a Dask task, an export from DuckDB) writes its files first (under a
temporary name, renamed once complete), and the one committing process then writes a commit record that
names them (a temporary file renamed into ``_commits/``: one atomic step). Readers take the file lists
from the commit records, so a batch whose record is missing (a killed worker or run) is invisible, and a
game is always whole or absent. A commit record may be a *base* (a whole new version of the dataset, as
an export or a compaction writes: everything committed before it is dropped), *supersede* earlier
commits (a merge of small batches), or *remove* single files of earlier commits (a table's rows
replaced, as storing a game's analysis again does). The next writer deletes files that no live commit
names.

Writers take ``DIR/_lock`` (an exclusive ``flock``) for the whole run, so two ingests into one dataset
cannot interleave; the second gets :class:`DatasetBusy`. Readers take no lock: they read one snapshot.

Read the dataset with :func:`brass_stats.storage.corpus.open_corpus` (``--parquet DIR`` on the command
line); a quiescent dataset is also an ordinary Hive-partitioned dataset that polars, pandas or DuckDB
read directly (``DIR/<table>/**/*.parquet``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import BrassError
from ..exitcodes import BUSY
from .tables import SCHEMAS

PARTITION_COLUMNS = ("edition", "player_count")
MARKER = "_brass_dataset.json"
COMMITS = "_commits"
LOCK = "_lock"
FORMAT = {"format": "brass-stats parquet dataset", "version": 1}
UNPARTITIONED = ("failures",)


class DatasetError(BrassError):
    """A folder is not a usable dataset (not a dataset, unreadable commit records)."""


class DatasetBusy(BrassError):
    """Another process is writing the dataset (or the DuckDB file) right now."""

    exit_status = BUSY


def new_batch_id() -> str:
    """A fresh, unique batch id (time-ordered prefix, random suffix)."""
    return f"{time.time_ns():x}-{uuid.uuid4().hex[:8]}"


def is_dataset(directory: str | Path) -> bool:
    return (Path(directory) / MARKER).is_file()


@dataclass
class Commit:
    seq: int
    batch: str
    files: list[str]  # relative to the dataset folder
    base: bool = False
    supersedes: list[str] = field(default_factory=list)
    games: int = 0
    path: Path | None = None
    removes: list[str] = field(default_factory=list)  # files of earlier commits this one takes out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "batch": self.batch,
            "files": self.files,
            "base": self.base,
            "supersedes": self.supersedes,
            "games": self.games,
        }
        if self.removes:
            out["removes"] = self.removes
        return out


def read_commits(directory: str | Path) -> list[Commit]:
    """Every commit record, in commit order."""
    d = Path(directory) / COMMITS
    out: list[Commit] = []
    if not d.is_dir():
        return out
    for p in sorted(d.glob("*.json")):
        seq_text, _, _ = p.stem.partition("-")
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            out.append(
                Commit(
                    int(seq_text),
                    str(data["batch"]),
                    [str(f) for f in data["files"]],
                    bool(data.get("base", False)),
                    [str(s) for s in data.get("supersedes", [])],
                    int(data.get("games", 0)),
                    p,
                    [str(r) for r in data.get("removes", [])],
                )
            )
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise DatasetError(f"{p}: unreadable commit record: {e}") from None
    return out


def live_commits(commits: list[Commit]) -> list[Commit]:
    """The commits whose files make up the dataset now (after the last base, minus superseded ones)."""
    live: dict[str, Commit] = {}
    for c in commits:
        if c.base:
            live.clear()
        for s in c.supersedes:
            live.pop(s, None)
        live[c.batch] = c
    return list(live.values())


def live_files(commits: list[Commit]) -> list[str]:
    """The files (relative to the dataset folder) that make up the dataset now: those of the live commits,
    less those a live commit removes."""
    live = live_commits(commits)
    removed = {rel for c in live for rel in c.removes}
    return [rel for c in live for rel in c.files if rel not in removed]


def table_of(rel: str) -> str:
    return rel.split("/", 1)[0]


def dataset_files(directory: str | Path) -> dict[str, list[Path]]:
    """Table name -> the Parquet files of that table in the dataset's current version.

    A folder without commit records (an export by an older version, or any Hive-partitioned folder
    with one sub-folder per table) is read as it is: every ``*.parquet`` file under each table folder.
    """
    root = Path(directory)
    files: dict[str, list[Path]] = {}
    if is_dataset(root):
        for rel in live_files(read_commits(root)):
            files.setdefault(table_of(rel), []).append(root / rel)
    else:
        for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            found = sorted(sub.rglob("*.parquet"))
            if found:
                files[sub.name] = found
        legacy = root / "failures.parquet"
        if legacy.is_file():
            files.setdefault("failures", []).append(legacy)
    return files


# -- writing -----------------------------------------------------------------------------


def _partition_value(v: Any) -> str:
    text = str(v)
    if not text or any(ch in text for ch in "/\\=\0") or text in (".", ".."):
        raise ValueError(f"cannot use {v!r} as a partition value")
    return text


def write_parquet_file(table: pa.Table, path: Path, compression: str = "zstd") -> None:
    """Write under a temporary (hidden) name, then rename: a file with the final name is always complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp, compression=compression)
    os.replace(tmp, path)


def write_batch_files(
    root: str | Path, batch: str, tables: dict[str, pa.Table], partitioned: bool = True, compression: str = "zstd"
) -> list[str]:
    """Write one batch's tables (games of several logs concatenated) as Parquet files; returns relative paths.

    With ``partitioned`` the files go to ``<table>/edition=../player_count=../part-<batch>.parquet``
    (partition columns taken from ``games`` where a table lacks them, and left out of the files as Hive
    layouts do); otherwise to ``<table>/part-<batch>.parquet`` with every column kept.
    Nothing is committed: see :class:`DatasetWriter`.
    """
    root = Path(root)
    written: list[str] = []
    games = tables.get("games")
    key_of: dict[str, tuple[Any, Any]] = {}
    if partitioned and games is not None and games.num_rows:
        ids = games.column("game_id").to_pylist()
        key_of = dict(
            zip(
                ids,
                zip(games.column("edition").to_pylist(), games.column("player_count").to_pylist(), strict=True),
                strict=True,
            )
        )
    for name, table in tables.items():
        if table.num_rows == 0:
            continue
        if not partitioned or name in UNPARTITIONED:
            rel = f"{name}/part-{batch}.parquet"
            write_parquet_file(table, root / rel, compression)
            written.append(rel)
            continue
        if all(c in table.column_names for c in PARTITION_COLUMNS):
            keys = list(zip(table.column("edition").to_pylist(), table.column("player_count").to_pylist(), strict=True))
        else:
            keys = [key_of[g] for g in table.column("game_id").to_pylist()]
        groups: dict[tuple[Any, Any], list[int]] = {}
        for i, k in enumerate(keys):
            groups.setdefault(k, []).append(i)
        data = table.drop_columns([c for c in PARTITION_COLUMNS if c in table.column_names])
        for (edition, count), rows in sorted(groups.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
            part = data if len(groups) == 1 else data.take(pa.array(rows, pa.int64()))
            where = f"edition={_partition_value(edition)}/player_count={_partition_value(count)}"
            rel = f"{name}/{where}/part-{batch}.parquet"
            write_parquet_file(part, root / rel, compression)
            written.append(rel)
    return written


def filter_games(root: Path, files: list[str], drop: set[str]) -> list[str]:
    """Rewrite a batch's files without the games ``drop`` (repeats of games committed meanwhile)."""
    kept = []
    for rel in files:
        path = root / rel
        t = pq.read_table(path)
        if "game_id" in t.column_names:
            mask = pc.invert(pc.is_in(t.column("game_id"), value_set=pa.array(sorted(drop), pa.string())))
            # failures without a game id stay
            t = t.filter(pc.fill_null(mask, True))
        if t.num_rows:
            write_parquet_file(t, path)
            kept.append(rel)
        else:
            path.unlink()
    return kept


class DatasetWriter:
    """The committing side of a dataset: holds the lock, numbers and writes commit records, cleans up.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d, DatasetWriter(d) as w:
    ...     w.commit(new_batch_id(), [], games=0).seq, is_dataset(d)
    (1, True)
    """

    def __init__(self, directory: str | Path, clean: bool = True) -> None:
        self.root = Path(directory)
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock: IO[str] | None = open(self.root / LOCK, "a")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            self._lock.close()
            self._lock = None
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DatasetBusy(
                    f"{self.root} is being written by another process (an ingest or export); "
                    "wait for it to finish, then run again"
                ) from None
            raise
        marker = self.root / MARKER
        if not marker.exists():
            _atomic_text(marker, json.dumps(FORMAT))
        (self.root / COMMITS).mkdir(exist_ok=True)
        commits = read_commits(self.root)
        self.seq = max((c.seq for c in commits), default=0)
        if clean:
            self.clean(commits)

    def close(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def commit(
        self,
        batch: str,
        files: list[str],
        games: int,
        base: bool = False,
        supersedes: Iterable[str] = (),
        removes: Iterable[str] = (),
    ) -> Commit:
        """Make a batch's files part of the dataset (one atomic rename of its commit record), and take the
        files ``removes`` (of earlier commits) out of it in the same step."""
        for rel in files:
            if not (self.root / rel).is_file():
                raise DatasetError(f"cannot commit batch {batch}: {rel} is missing")
        self.seq += 1
        c = Commit(self.seq, batch, list(files), base, list(supersedes), games, removes=list(removes))
        c.path = self.root / COMMITS / f"{self.seq:010d}-{batch}.json"
        _atomic_text(c.path, json.dumps(c.to_json(), separators=(",", ":")))
        if base or c.supersedes or c.removes:
            self.clean()
        return c

    def clean(self, commits: list[Commit] | None = None) -> None:
        """Delete what no live commit names: files of dropped or superseded commits, leftovers of killed runs."""
        commits = read_commits(self.root) if commits is None else commits
        live = live_commits(commits)
        keep = set(live_files(commits))
        live_ids = {c.batch for c in live}
        for path in _data_files(self.root):
            if path.relative_to(self.root).as_posix() not in keep:
                path.unlink(missing_ok=True)
        for c in commits:
            if c.batch not in live_ids and c.path is not None:
                c.path.unlink(missing_ok=True)
        for p in (self.root / COMMITS).glob(".*"):
            p.unlink(missing_ok=True)
        _remove_empty_dirs(self.root)


def write_version(
    writer: DatasetWriter,
    con: Any,
    tables: Iterable[str],
    base: bool = True,
    supersedes: Iterable[str] = (),
) -> Commit:
    """Copy ``tables`` from the DuckDB connection ``con`` into the dataset as one commit.

    With ``base`` the commit is a new version of the whole dataset (an export, a full compaction):
    readers see the old version until the commit record lands, then only the new one, and the old
    files are deleted. Tables without the partition columns get them from ``games``.
    """
    root = writer.root.resolve()
    batch = new_batch_id()
    files: list[str] = []
    existing = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    for name in tables:
        if name not in existing:
            continue
        cols = [r[0] for r in con.execute(f'DESCRIBE "{name}"').fetchall()]
        if name in UNPARTITIONED:
            target = root / name / f"part-{batch}.parquet"
            if con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] == 0:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            select = f'SELECT * FROM "{name}" ORDER BY file'
            con.execute(f"COPY ({select}) TO '{_sql_str(target)}' (FORMAT PARQUET, COMPRESSION zstd)")
            files.append(target.relative_to(root).as_posix())
            continue
        # sorted by game: a query for one game reads only the row groups that can hold it
        order = " ORDER BY game_id" if "game_id" in cols else ""
        if all(c in cols for c in PARTITION_COLUMNS):
            select = f'SELECT * FROM "{name}"{order}'
        else:
            select = f'SELECT t.*, g.edition, g.player_count FROM "{name}" t JOIN games g USING (game_id){order}'
        (root / name).mkdir(parents=True, exist_ok=True)
        rows = con.execute(
            f"COPY ({select}) TO '{_sql_str(root / name)}' (FORMAT PARQUET, COMPRESSION zstd, "
            f"PARTITION_BY ({', '.join(PARTITION_COLUMNS)}), FILENAME_PATTERN 'part-{batch}-{{i}}', "
            "OVERWRITE_OR_IGNORE, RETURN_FILES true)"
        ).fetchall()
        for f in rows[0][1] if rows else []:
            files.append(Path(f).resolve().relative_to(root).as_posix())
    games = con.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in existing else 0
    return writer.commit(batch, files, games=int(games), base=base, supersedes=supersedes)


def _sql_str(p: str | Path) -> str:
    return str(p).replace("'", "''")


def _data_files(root: Path) -> Iterator[Path]:
    for sub in root.iterdir():
        if sub.is_dir() and sub.name != COMMITS:
            for p in sub.rglob("*"):
                if p.is_file():
                    yield p


def _remove_empty_dirs(root: Path) -> None:
    for dirpath, _dirs, _files in sorted(os.walk(root), key=lambda t: -len(t[0])):
        p = Path(dirpath)
        if p != root and p.name != COMMITS:
            with contextlib.suppress(OSError):
                p.rmdir()  # only succeeds when empty


def _atomic_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if e.filename is None:  # a failed write names no file (a full disk would say nothing of where)
            raise OSError(e.errno, e.strerror or str(e), str(path)) from e
        raise


__all__ = [
    "PARTITION_COLUMNS",
    "SCHEMAS",
    "Commit",
    "DatasetBusy",
    "DatasetError",
    "DatasetWriter",
    "dataset_files",
    "filter_games",
    "is_dataset",
    "live_commits",
    "live_files",
    "new_batch_id",
    "read_commits",
    "write_batch_files",
    "write_version",
]
