"""How every command prints results: ``--format table|csv|json``, one helper for all of them.

* ``table``: a rich table, as wide as the terminal (rich's own detection; ``COLUMNS`` when piped).
  Cell text is never read as rich markup, and huge values are shortened. On a narrow terminal the
  column names break after their underscores and the box loses its edges, so that every word of a
  name stays readable (:func:`header_lines`).
* ``csv``: a header and one line per row.
* ``json``: a JSON array of objects, one per row.

Integers stay integers in CSV and JSON (a column of whole numbers that pandas holds as floats,
because of a missing value, is written without ``.0``).

>>> import pandas as pd
>>> emit(pd.DataFrame({"name": ["Ann"], "vp": [151]}), "json")
[{"name":"Ann","vp":151}]
>>> emit(pd.DataFrame({"name": ["Ann", "Bob"], "vp": [151.0, None]}), "csv")
name,vp
Ann,151
Bob,
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import click
import pandas as pd

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

FORMATS = ("table", "csv", "json")
F = TypeVar("F", bound=Callable[..., Any])


def format_option(default: str = "table") -> Callable[[F], F]:
    """The ``--format`` option, the same on every command."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default=default,
        show_default=True,
        help="How to print results: a table for people, CSV or JSON for programs.",
    )


def clip(text: str, most: int = 200) -> str:
    """Shorten text for display: huge values (a 10 MB name) never reach a terminal whole.

    >>> clip("x" * 1000, 30)
    'xxxxxxxxxxxxx… (1000 chars)'
    """
    return text if len(text) <= most else text[: most - 17] + f"… ({len(text)} chars)"


def printable(text: str, most: int = 200) -> str:
    """Text safe to print anywhere: clipped, control characters shown as escapes, never a lone surrogate."""
    text = clip(text, most)
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
    return "".join(out)


def integral_columns(df: pd.DataFrame) -> pd.DataFrame:
    """Float columns that hold only whole numbers (and gaps) become nullable integers: pandas turns
    integers into floats for a gap or an average; JSON and CSV readers see the same number."""
    out = df
    for col in df.columns:
        s = df[col]
        if pd.api.types.is_float_dtype(s):
            values = s.dropna()
            if len(values) and ((values % 1) == 0).all() and values.abs().max() < 2**53:
                if out is df:
                    out = df.copy()
                out[col] = s.astype("Int64")
    return out


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``df`` as JSON-ready dicts, as ``--format json`` prints them (whole numbers as integers).

    >>> records(pd.DataFrame({"name": ["Ann", "Bob"], "vp": [151.0, None]}))
    [{'name': 'Ann', 'vp': 151}, {'name': 'Bob', 'vp': None}]
    """
    rows: list[dict[str, Any]] = json.loads(integral_columns(df).to_json(orient="records", force_ascii=False))
    return rows


def emit(data: pd.DataFrame | Iterable[Mapping[str, Any]], fmt: str, title: str | None = None) -> None:
    """Print rows (a DataFrame or dicts) as a table, CSV or JSON."""
    df = data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))
    if fmt == "csv":
        click.echo(integral_columns(df).to_csv(index=False), nl=False)
        return
    if fmt == "json":
        click.echo(integral_columns(df).to_json(orient="records", force_ascii=False))
        return
    from rich.console import Console

    console = Console(soft_wrap=False)
    console.print(_table(df, title, console))


def _table(df: pd.DataFrame, title: str | None, console: Console) -> Table:
    """The widest of three layouts that fits the terminal: a boxed table with whole headers; the same
    with headers broken after their underscores, one piece per line; without the box's edges and
    with less padding. Past that, rich shortens what it must."""
    from rich import box
    from rich.cells import cell_len
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    names = [printable(str(col), 60) for col in df.columns]
    numeric = [pd.api.types.is_numeric_dtype(df[col]) for col in df.columns]
    rows = [[Text(_cell(v)) for v in row] for row in df.itertuples(index=False)]
    widest = [max((cell_len(cells[i].plain) for cells in rows), default=0) for i in range(len(names))]

    def layout(split: bool, compact: bool) -> Table:
        table = Table(title=title, show_lines=False, header_style="bold")
        if compact:
            table.box, table.show_edge, table.pad_edge, table.padding = box.SIMPLE_HEAD, False, False, (0, 1, 0, 0)
        for name, right, width in zip(names, numeric, widest, strict=True):
            header = "\n".join(header_lines(name, width)) if split else name
            table.add_column(Text(header), justify="right" if right else "left")
        for cells in rows:
            table.add_row(*cells)
        return table

    for split in (False, True):
        table = layout(split, compact=False)
        if Measurement.get(console, console.options.update_width(100_000), table).maximum <= console.width:
            return table
    return layout(split=True, compact=True)


def header_lines(name: str, width: int = 0) -> list[str]:
    """A column name broken after its underscores into lines as wide as ``width`` or its longest piece,
    so that a narrow column shows every word of its name whole.

    >>> header_lines("expected_win_rate", 5), header_lines("mean_win_rate"), header_lines("vp")
    (['expected_', 'win_rate'], ['mean_', 'win_', 'rate'], ['vp'])
    """
    from rich.cells import cell_len

    pieces = re.findall(r"[^_]*_+|[^_]+", name) or [name]
    width = max(width, *(cell_len(p) for p in pieces))
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if cell_len(lines[-1] + piece) <= width:
            lines[-1] += piece
        else:
            lines.append(piece)
    return lines


def _cell(v: object) -> str:
    if v is None or v is pd.NA or (isinstance(v, float) and pd.isna(v)):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return printable(unicodedata.normalize("NFKC", str(v)), 60)
