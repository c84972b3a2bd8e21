"""Player names and other free text made safe for display.

Names come from uploaded logs, so they may hold anything: ``$`` signs that
matplotlib would read as mathtext, megabytes of text, lone surrogates that
cannot be encoded, full-width punctuation the bundled fonts lack. Every chart,
table and page shows names through these functions.

>>> display_text("AI-1（jsb）")
'AI-1(jsb)'
>>> display_text("x" * 100, limit=10)
'xxxxxxxxx…'
>>> plot_text("$x^$")
'\\\\$x^\\\\$'
>>> display_text("\\ud800 Ann")
'� Ann'
"""

from __future__ import annotations

import unicodedata

# Longest name shown in full; longer ones end in an ellipsis (the tables keep the full name).
NAME_LIMIT = 40
TEXT_LIMIT = 400


def display_text(value: object, limit: int = NAME_LIMIT) -> str:
    """``value`` as a short, printable, encodable string."""
    s = str(value)
    if len(s) > 4 * limit:  # bound the work on huge strings before normalising them
        s = s[: 4 * limit]
    # NFKC folds full-width punctuation that the fonts (DejaVu Sans) lack
    s = unicodedata.normalize("NFKC", "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in s))
    s = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in s)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def plot_text(value: object, limit: int = NAME_LIMIT) -> str:
    """Text for a matplotlib label: shortened, and every ``$`` escaped so mathtext never parses it.

    Matplotlib reads ``\\$`` as a literal dollar sign, so the label shows exactly the name.
    """
    return display_text(value, limit).replace("$", r"\$")


def display_number(value: object, limit: int = 15) -> str:
    """Integers too long to read are shortened (``1.0e+30``); others are printed as they are.

    >>> display_number(10**30)
    '1.0e+30'
    >>> display_number(152)
    '152'
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        # str() of an int over 4,300 digits raises; a float shows the magnitude
        return f"{float(value):.1e}" if value.bit_length() < 1000 else ("-" if value < 0 else "") + "huge"
    return str(value)
