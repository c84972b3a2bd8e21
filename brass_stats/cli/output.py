"""How every command prints results: ``--format table|csv|json``, one helper for all of them.

* ``table``: a rich table, as wide as the terminal (rich's own detection; ``COLUMNS`` when piped).
  Cell text is never read as rich markup, and huge values are shortened.
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

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import click
import pandas as pd

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
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_lines=False, header_style="bold")
    for col in df.columns:
        numeric = pd.api.types.is_numeric_dtype(df[col])
        table.add_column(Text(printable(str(col), 60)), justify="right" if numeric else "left")
    for row in df.itertuples(index=False):
        table.add_row(*(Text(_cell(v)) for v in row))
    Console(soft_wrap=False).print(table)


def _cell(v: object) -> str:
    if v is None or v is pd.NA or (isinstance(v, float) and pd.isna(v)):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return printable(unicodedata.normalize("NFKC", str(v)), 60)
