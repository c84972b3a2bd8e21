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

Engine (``engine.actions``: every action made; ``engine.state``: every state a replay makes):

* :func:`slot_setting_init`: the ``__init__`` of each action class and of ``Sale``, setting each slot
  through its descriptor instead of the frozen dataclass's ``object.__setattr__`` per field: 0.35
  instead of 0.60 µs per ``Network``, and ``legal_actions`` makes a few hundred actions per call.
* :func:`shallow_copier`: ``GameState``'s shallow copy, the first step of ``successor()`` (once per
  action replayed) and of ``copy()``: each slot assigned by name, as :func:`copy.copy` would without
  its generic machinery (with the slotted state, which it made possible: replay 6% faster on Python
  3.11, 11% on 3.12).

Log (``log.schema``, checking every action of every log read):

* :func:`predicate`: the quick test of each action type, one expression written from the log schema,
  never wider than it, that passes well-formed actions before fastjsonschema's validator (which still
  decides and words every error): checking a game 0.43-0.50 -> 0.22 ms, loading one 0.89 -> 0.67 ms.

Storage (``storage.tables.action_json``: every action of every game stored, twice):

* :func:`typed_json_writer`: an action's two JSON texts, keys in field order (the actions table's
  ``action_json``) and sorted (hashed into the game id), from its field values, for one combination
  of value types: one f-string per text, no test of a type. With the fallback below, about half the
  time of a loop over the fields or of ``to_json`` and the encoders (the sample games' actions).
* :func:`field_json_writer`: the same texts for any values of an action class, each field's type
  tested in straight-line code (sales and unexpected types included); the fallback of the former.
"""

from __future__ import annotations

import dataclasses
import itertools
import linecache
from collections.abc import Callable, Mapping, Sequence
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


def slot_setting_init(cls: type) -> Callable[..., None]:
    """An ``__init__`` for the frozen, slotted dataclass ``cls`` that sets each slot through its descriptor.

    The dataclass's own ``__init__`` calls ``object.__setattr__`` per field (the class is frozen); this
    one calls each slot's ``__set__`` directly. Same parameters, defaults and order; instances stay
    frozen (only ``__init__`` changes). Plain fields only (no ``default_factory``, ``init=False`` or
    ``kw_only``). The result carries the qualified name and annotations of ``cls.__init__``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> init = slot_setting_init(Point)
    >>> import inspect
    >>> print(inspect.getsource(init), end="")
    def __init__(self, x, y=_default_y):
        _set_x(self, x)
        _set_y(self, y)
    >>> p = object.__new__(Point); init(p, 3); p
    Point(x=3, y=0)
    """
    namespace: dict[str, Any] = {}
    params, body = [], []
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING or not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields are supported")
        namespace[f"_set_{f.name}"] = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    init = compile_source(source, "__init__", namespace, origin=f"{cls.__module__}: {cls.__qualname__}.__init__")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = dict(cls.__dict__["__init__"].__annotations__)
    return init


def shallow_copier(cls: type) -> Callable[[Any], Any]:
    """``copy(obj)``: a new ``cls`` whose every slot holds the same object as ``obj``'s (what
    :func:`copy.copy` does, without its generic machinery), written out slot by slot from ``cls.__slots__``.

    >>> class Pair:
    ...     __slots__ = ("a", "b")
    >>> copy_pair = shallow_copier(Pair)
    >>> import inspect
    >>> print(inspect.getsource(copy_pair), end="")
    def shallow_copy(self):
        new = NEW(Pair)
        new.a = self.a
        new.b = self.b
        return new
    """
    lines = ["def shallow_copy(self):", f"    new = NEW({cls.__name__})"]
    lines += [f"    new.{name} = self.{name}" for name in cls.__dict__["__slots__"]]
    lines.append("    return new")
    namespace = {"NEW": object.__new__, cls.__name__: cls}
    return compile_source(
        "\n".join(lines), "shallow_copy", namespace, origin=f"{cls.__module__}: {cls.__qualname__} copy"
    )


# -- log ---------------------------------------------------------------------


def predicate(expression: str, constants: Mapping[str, Any], *, origin: str) -> Callable[[Any], bool]:
    """``test(v)``: the Python ``expression`` of the value ``v``, as a function (the names it uses
    besides ``v`` and the builtins are ``constants``).

    >>> small = predicate("type(v) is int and v < _c0", {"_c0": 10}, origin="doctest: small")
    >>> small(3), small(30), small("3")
    (True, False, False)
    >>> import inspect
    >>> print(inspect.getsource(small), end="")
    def quick_test(v):
        return type(v) is int and v < _c0
    """
    test: Callable[[Any], bool] = compile_source(
        f"def quick_test(v):\n    return {expression}\n", "quick_test", constants, origin=origin
    )
    return test


# -- storage -----------------------------------------------------------------


def typed_json_writer(
    cls: type,
    in_order: Sequence[tuple[str, str]],
    by_name: Sequence[int],
    kinds: Sequence[type],
    *,
    string: Callable[[str], str],
) -> Callable[..., tuple[str, str]] | None:
    """A function of an action's field values (of types ``kinds``, in field order) returning its JSON
    texts, keys in field order and sorted; None when a type is not one written here (str, int, None,
    a tuple of strings), for the caller's fallback.

    ``cls``: the action class (its ``TYPE`` is the first key); ``in_order``: each field after ``type``
    with its JSON key and colon, in field order (``in_order[0]`` is ``type``); ``by_name``: the keys'
    positions in sorted order; ``string``: a string as JSON (:func:`json.encoder.encode_basestring`).
    A tuple that holds anything but strings raises :class:`TypeError`.
    """
    tag: str = cls.TYPE  # type: ignore[attr-defined]
    # each key with its value's place in an f-string (None: a field left out)
    parts: list[str | None] = [(string("type") + ":" + string(tag)).replace("{", "{{").replace("}", "}}")]
    lines = []
    for i, ((_, key), kind) in enumerate(zip(in_order[1:], kinds, strict=True)):
        if kind is type(None):
            parts.append(None)
            continue
        if kind is str:
            lines.append(f"    t{i} = S(v{i})")
        elif kind is int:
            lines.append(f"    t{i} = R(v{i})")
        elif kind is tuple:
            lines.append(f"    t{i} = '[' + ','.join(map(S, v{i})) + ']'")
        else:
            return None
        parts.append(key.replace("{", "{{").replace("}", "}}") + "{t" + str(i) + "}")
    args = ", ".join(f"v{i}" for i in range(len(kinds)))

    def text(order: Sequence[int]) -> str:
        body = ",".join([p for p in map(parts.__getitem__, order) if p is not None])
        return "f" + repr("{{" + body + "}}")

    lines.insert(0, f"def write({args}):")
    lines.append(f"    return ({text(range(len(parts)))}, {text(by_name)})")
    types = ", ".join(k.__name__ for k in kinds)
    return compile_source(
        "\n".join(lines),
        "write",
        {"S": string, "R": int.__repr__},
        origin=f"storage.tables: JSON writer for {cls.__name__}({types})",
    )


def field_json_writer(
    cls: type,
    in_order: Sequence[tuple[str, str]],
    by_name: Sequence[int],
    *,
    string: Callable[[str], str],
    sales: Callable[[tuple[Any, ...]], tuple[str, str] | None],
) -> Callable[[Any], tuple[str, str] | None]:
    """A function of an action returning its JSON texts, keys in field order (``p``) and sorted (``q``,
    which differ for sales): no loop over the fields, each field's text made once and placed in both
    orders. Strings, integers, tuples of strings and of sales only: anything else returns None.

    ``in_order``, ``by_name`` and ``string`` as for :func:`typed_json_writer`; ``sales``: a tuple of
    sales as its two JSON lists (None: not sales it writes).
    """
    tag: str = cls.TYPE  # type: ignore[attr-defined]
    lines = ["def write(a):"]
    for i, (name, key) in enumerate(in_order):
        if name == "type":
            lines.append(f"    p{i} = q{i} = {key + string(tag)!r}")
            continue
        lines += [
            f"    v = a.{name}",
            "    if v is None:",
            f"        p{i} = q{i} = None",
            "    elif isinstance(v, str):",
            f"        p{i} = q{i} = {key!r} + S(v)",
            "    elif type(v) is int:",
            f"        p{i} = q{i} = {key!r} + R(v)",
            "    elif type(v) is tuple:",
            "        try:",
            f"            p{i} = q{i} = {key + '['!r} + ','.join(map(S, v)) + ']'",
            "        except TypeError:",
            "            t = SALES(v)",
            "            if t is None:",
            "                return None",
            f"            p{i} = {key!r} + t[0]",
            f"            q{i} = {key!r} + t[1]",
            "    else:",
            "        return None",
        ]
    order = ", ".join(f"p{i}" for i in range(len(in_order)))
    by_key = ", ".join(f"q{i}" for i in by_name)
    # (filter(None, ...) drops the fields left out: every other part is a non-empty text)
    lines.append(
        f"    return ('{{' + ','.join(filter(None, ({order},))) + '}}',"
        f" '{{' + ','.join(filter(None, ({by_key},))) + '}}')"
    )
    return compile_source(
        "\n".join(lines),
        "write",
        {"S": string, "R": int.__repr__, "SALES": sales},
        origin=f"storage.tables: JSON writer for {cls.__name__}",
    )
