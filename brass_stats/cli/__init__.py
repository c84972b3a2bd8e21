"""The ``brass-stats`` command line: the command group, and one module per family of commands.

* :mod:`.validate`: ``validate``; :mod:`.convert`: ``convert``; :mod:`.store`: ``replay``, ``ingest``;
  :mod:`.selfplay`: ``selfplay``;
* :mod:`.stats`: ``stats``, ``openings``, ``curves``, ``compare``, ``games``, ``income``, ``vp``;
* :mod:`.report`: ``report``, ``view``, ``board``, ``log``; :mod:`.demo`: ``demo``;
* :mod:`.analyse`: ``analyse``; :mod:`.winprob`: ``winprob train``.

:mod:`.common` holds what the commands share (the one :func:`~.common.fail`, the options several commands
take), :mod:`.output` how they print (``--format table|csv|json``). A command module parses options and
calls the library; the work is done in the layers below.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import click

from ..errors import BrassError
from ..exitcodes import BAD_INPUT, INTERNAL, OK, help_text
from .analyse import COMMANDS as ANALYSE_COMMANDS
from .common import fail
from .convert import convert
from .demo import demo_command
from .output import printable
from .report import COMMANDS as REPORT_COMMANDS
from .selfplay import selfplay_command
from .stats import COMMANDS as STATS_COMMANDS
from .store import ingest_command, replay_command
from .validate import validate_command
from .winprob import winprob_group


class BrassGroup(click.Group):
    """The command group with the one place where every command's failures become an exit status.

    Bad input (a :class:`BrassError`, a file that cannot be opened or written) prints one line and
    exits :data:`~brass_stats.exitcodes.BAD_INPUT`; anything else is a bug: one line asking for a
    report, exit :data:`~brass_stats.exitcodes.INTERNAL` (``BRASS_STATS_DEBUG=1`` shows the traceback).
    Never a Python traceback by default.
    """

    def invoke(self, ctx: click.Context) -> Any:
        _tolerant_streams()
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrassError as e:
            # an error may name its own status (a store in use by another process: BUSY)
            fail(getattr(e, "exit_status", BAD_INPUT), printable(f"error: {e}", 2000))
        except OSError as e:
            if isinstance(e, BrokenPipeError):  # `brass-stats ... | head`: the reader has gone, not an error
                _quiet_stdout()
                ctx.exit(OK)
            where = f"{os.fsdecode(e.filename)}: " if e.filename is not None else ""
            fail(BAD_INPUT, printable(f"error: {where}{e.strerror or e}", 2000))
        except Exception as e:  # the single catch-all: a bug, reported as such
            if os.environ.get("BRASS_STATS_DEBUG"):
                traceback.print_exc()
            fail(
                INTERNAL,
                printable(
                    f"internal error: {type(e).__name__}: {e}. This is a bug in brass-stats {_version()}; please "
                    "report it with the command and the input file (BRASS_STATS_DEBUG=1 shows the traceback).",
                    2000,
                ),
            )


def _tolerant_streams() -> None:
    """Text that cannot be encoded (a lone surrogate in a file name) is escaped, never an exception."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change
                reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    # Python would complain again while flushing stdout at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


def _version() -> str:
    try:
        return version("brass-stats")
    except PackageNotFoundError:
        return "(unknown version)"


@click.group(
    cls=BrassGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=help_text() + " Limits on input files (size, actions, string length, nesting, integer digits) are set with"
    " BRASS_STATS_MAX_* environment variables; see docs/log-format.md.",
)
@click.version_option(package_name="brass-stats")
def main() -> None:
    """Replay, validate and analyse recorded games of Brass: Birmingham and Brass: Lancashire.

    Game logs are JSON files in the brass-stats log format (docs/log-format.md); `convert`
    turns records from other servers into logs.
    """


for _command in (
    validate_command,
    convert,
    replay_command,
    ingest_command,
    selfplay_command,
    *STATS_COMMANDS,
    *REPORT_COMMANDS,
    *ANALYSE_COMMANDS,
    winprob_group,
    demo_command,
):
    main.add_command(_command)
