"""The options of a game's review, defined once for ``analyse``, ``report --analyse`` and ``view --analyse``.

``--simulations N`` (the search budget per judged action), ``--seed`` (0 to 2**63-1: the ``analysis``
table stores it as a 64-bit integer), ``--workers N`` (local processes; default 1, this process) and
``--cluster`` (Dask workers instead; not with ``--workers``): the same options, help, validation and run
(:meth:`ReviewOptions.run`, with the one progress bar) in every command. A command decorated with
:func:`review_options` gets them as one parameter, ``review``: a :class:`ReviewOptions`, or None when
the command's ``--analyse`` was not given.

The policy the game is replayed under is the one difference, the parameter ``policy`` of
:func:`review_options`, and each command's ``--help`` says which it has:

* :data:`STRICT_UNLESS_AS_PLAYED` (``analyse``): strict, unless ``--as-played``; a game breaking a rule
  is analysed up to that action, and the exit status says so;
* :data:`AS_PLAYED_ALWAYS` (``report``, ``view``): the report and the viewer show a game as it was
  played, a real server's departures from the rules applied as stated (``docs/viewer.md``), so its
  review is made as played too: the actions judged are those the pages show.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar, cast

import click

from ..analysis.review import DEFAULT_SIMULATIONS
from ..engine.policy import AS_PLAYED, STRICT, ChoicePolicy
from ..replay import Replay
from ..tasks import ProgressBar
from .common import AS_PLAYED_OPTION

if TYPE_CHECKING:
    from ..analysis.review import GameReview

F = TypeVar("F", bound=Callable[..., Any])

SEED_MAX = 2**63 - 1
Policy = Literal["strict unless --as-played", "as played"]
STRICT_UNLESS_AS_PLAYED: Final = "strict unless --as-played"
"""``analyse``: the game replayed strictly, unless ``--as-played`` (the option is added)."""
AS_PLAYED_ALWAYS: Final = "as played"
"""``report``, ``view``: the game replayed as played, as the pages show it (said in ``--analyse``'s help)."""

ANALYSE_HELP = "Review the game action by action (win probability, mistakes, the better action) and show it."
AS_PLAYED_ALWAYS_HELP = (
    " The review is of the game as played, as the pages show it (a server's departures from the rules applied "
    "as stated)."
)


@dataclass(frozen=True)
class ReviewOptions:
    """A command's review options, checked: how to review the game (:meth:`run`)."""

    simulations: int
    seed: int
    workers: int  # local processes (1: this process)
    cluster: str | None  # a Dask cluster instead of local processes
    as_played: bool  # replayed as played (AS_PLAYED), else strictly

    @property
    def policy(self) -> ChoicePolicy:
        return AS_PLAYED if self.as_played else STRICT

    def run(self, game: Replay) -> GameReview:
        """The review of ``game`` (replayed under :attr:`policy`), with a progress bar on a terminal."""
        from ..analysis import review  # looked up at the call: tests may stand in for review_game

        where: dict[str, Any] = {"cluster": self.cluster} if self.cluster is not None else {"workers": self.workers}
        with ProgressBar("analysing", total=len(game.steps), transient=True) as bar:
            return review.review_game(
                game, self.policy, simulations=self.simulations, seed=self.seed, progress=bar.advance, **where
            )


def check_cluster(workers: int | None, cluster: str | None) -> None:
    """``--workers`` and ``--cluster`` together, a malformed ``--cluster``, or a cluster without Dask: stop
    before any work (a usage error, or :class:`~brass_stats.tasks.cluster.DaskMissing`'s one line)."""
    if cluster is None:
        return
    if workers is not None:
        raise click.UsageError("--workers is for local processes; with --cluster use local:N")
    from ..tasks.cluster import parse_cluster, require_dask

    try:
        parse_cluster(cluster)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--cluster") from None
    require_dask()


def review_options(policy: Policy, flag: bool = False) -> Callable[[F], F]:
    """Add the review's options to a click command, which gets them as ``review`` (a :class:`ReviewOptions`).

    ``policy``: :data:`STRICT_UNLESS_AS_PLAYED` adds ``--as-played``; :data:`AS_PLAYED_ALWAYS` reviews the
    game as played and says so in the help. ``flag``: the review is optional, asked for with ``--analyse``
    (``review`` is None without it, and the other options are not checked).
    """
    if policy not in (STRICT_UNLESS_AS_PLAYED, AS_PLAYED_ALWAYS):
        raise ValueError(f"unknown review policy {policy!r}")
    if policy == AS_PLAYED_ALWAYS and not flag:
        raise ValueError("a review always made as played says so in the help of --analyse: give flag=True")

    def decorate(f: F) -> F:
        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            simulations, seed = kwargs.pop("simulations"), kwargs.pop("seed")
            workers, cluster = kwargs.pop("workers"), kwargs.pop("cluster")
            as_played = kwargs.pop("as_played") if policy == STRICT_UNLESS_AS_PLAYED else True
            review = None
            if kwargs.pop("analyse") if flag else True:
                check_cluster(workers, cluster)
                review = ReviewOptions(simulations, seed, workers or 1, cluster, as_played)
            return f(*args, review=review, **kwargs)

        # applied bottom up: the help lists them in the opposite order
        options = [
            click.option(
                "--cluster",
                metavar="local[:N]|tcp://HOST:PORT",
                help="Judge the actions on Dask workers: a LocalCluster of N processes, or a running scheduler.",
            ),
            click.option(
                "--workers",
                type=click.IntRange(min=1),
                default=None,
                help="Local worker processes, each judging actions (default: 1, this process). "
                "The result does not depend on it.",
            ),
        ]
        if policy == STRICT_UNLESS_AS_PLAYED:
            options.append(AS_PLAYED_OPTION)
        options += [
            click.option(
                "--seed",
                type=click.IntRange(0, SEED_MAX),
                default=0,
                show_default=True,
                help="The same game, budget and seed always give the same analysis.",
            ),
            click.option(
                "--simulations",
                type=click.IntRange(min=1),
                default=DEFAULT_SIMULATIONS,
                show_default=True,
                help="Search budget per judged action: more is steadier and slower.",
            ),
        ]
        if flag:
            words = ANALYSE_HELP + (AS_PLAYED_ALWAYS_HELP if policy == AS_PLAYED_ALWAYS else "")
            options.append(click.option("--analyse", is_flag=True, help=words))
        decorated: Any = command
        for option in options:
            decorated = option(decorated)
        return cast(F, decorated)

    return decorate


__all__ = [
    "AS_PLAYED_ALWAYS",
    "SEED_MAX",
    "STRICT_UNLESS_AS_PLAYED",
    "ReviewOptions",
    "check_cluster",
    "review_options",
]
