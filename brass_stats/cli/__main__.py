"""``python -m brass_stats.cli``: the ``brass-stats`` command."""

from . import main

if __name__ == "__main__":  # pragma: no cover
    main()
