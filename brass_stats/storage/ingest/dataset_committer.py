"""The dataset committer: finished batches committed into a Parquet dataset, one commit record each."""

from __future__ import annotations

from pathlib import Path

from ..corpus import open_corpus
from ..dataset import DatasetWriter, filter_games
from .results import BatchResult


class DatasetCommitter:
    """Commits finished batches into a Parquet dataset (one commit record per batch)."""

    partitioned = True
    draining = False

    def __init__(self, writer: DatasetWriter, stored: set[str]) -> None:
        self.writer, self.stored = writer, stored
        self.dest = writer.root
        self.commits: list[str] = []

    def commit(self, results: list[BatchResult]) -> int:
        new = 0
        for r in results:
            files = r.files
            repeats = {g for g in r.game_ids if g in self.stored}
            if repeats:  # a game met twice in one run, in two batches: keep the first
                files = filter_games(self.dest, files, repeats)
            ids = [g for g in r.game_ids if g not in repeats]
            if files:
                self.writer.commit(r.batch, files, games=len(ids))
                self.commits.append(r.batch)
            self.stored.update(ids)
            new += len(ids)
        return new

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def dataset_game_ids(root: Path) -> set[str]:
    """The ids of the games already stored in the Parquet dataset ``root``."""
    con = open_corpus(parquet=root)
    try:
        return {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    finally:
        con.close()
