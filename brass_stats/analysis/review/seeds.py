"""The seed of each judged action: derived from the review's seed and the action's index alone.

Every action is an independent task with its own search seed, so a review is the same whatever the
number of workers, a Dask cluster, or the order the actions are judged in.

>>> action_seed(0, 0) == action_seed(0, 0) != action_seed(0, 1)
True
"""

from __future__ import annotations

import hashlib


def action_seed(seed: int, index: int) -> int:
    """The search seed of action ``index`` in a review made with ``seed`` (independent of workers)."""
    digest = hashlib.sha256(f"brass-stats-review:{seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


__all__ = ["action_seed"]
