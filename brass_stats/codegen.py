"""Generated code: the one module where brass-stats writes Python source and compiles it.

A few hot functions are written out from a class's own field names (or a schema's nodes) the way
:mod:`dataclasses` writes ``__init__``: straight-line code with no loop over fields. Each one saves
measured microseconds per call on paths that run millions of times (see ``docs/performance.md``).
Every generator lives in this module, takes the classes it writes for as arguments (so this module
imports nothing from the rest of the package and sits below every layer), and compiles through
:func:`compile_source`, which registers the source with :mod:`linecache` under a readable file name
(``<generated: ...>``): tracebacks and :func:`inspect.getsource` show the generated lines.

What is generated, and for whom:

(the sections below list each generator with the module that uses it)
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable, Mapping
from typing import Any

_serial = itertools.count()


def compile_source(source: str, name: str, namespace: Mapping[str, Any], *, origin: str) -> Callable[..., Any]:
    """Compile ``source`` (which defines the function ``name``) in a copy of ``namespace``; return it.

    ``origin`` says what the code is for (for example ``"engine.actions: Build.__init__"``); it becomes
    the file name that tracebacks show, and the source is kept in :mod:`linecache` for them.

    >>> add = compile_source("def add(a, b):\\n    return a + b\\n", "add", {}, origin="doctest: add")
    >>> add(2, 3)
    5
    >>> import inspect; inspect.getsource(add).splitlines()[1]
    '    return a + b'
    """
    if not source.endswith("\n"):
        source += "\n"
    filename = f"<generated: {origin} #{next(_serial)}>"
    # an entry with mtime None is never dropped by linecache.checkcache
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    ns = dict(namespace)
    exec(compile(source, filename, "exec"), ns)  # noqa: S102 (source written by this module's generators)
    fn: Callable[..., Any] = ns[name]
    return fn


# -- engine ------------------------------------------------------------------


# -- log ---------------------------------------------------------------------


# -- storage -----------------------------------------------------------------
