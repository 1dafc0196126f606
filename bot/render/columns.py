"""Columns of plain text measured as a terminal draws them.

``len`` counts code points, but a terminal gives a combining mark (the
vowel signs of Devanagari) no column and an emoji or a CJK character two.
A name padded with ``str.ljust`` then pushes the columns after it out of
line in Hindi or Nepali.  Here every width is the display width
(``wcwidth``); a name too wide for its column is cut at a whole character
and ends with "…".
"""

from __future__ import annotations

from wcwidth import iter_graphemes, wcswidth


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (an unprintable character counts 1)."""
    measured = wcswidth(text)
    if measured >= 0:
        return int(measured)
    return sum(max(int(wcswidth(g)), 1) for g in iter_graphemes(text))


def fit(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` display columns ("…" marks a cut),
    at a whole grapheme (a letter with its vowel signs stays whole)."""
    if width(text) <= columns:
        return text
    out, used = "", 0
    for grapheme in iter_graphemes(text):
        w = width(grapheme)
        if used + w > columns - 1:
            break
        out += grapheme
        used += w
    return out + "…"


def ljust(text: str, columns: int) -> str:
    """``text`` fitted to ``columns`` and padded on the right to exactly that width."""
    text = fit(text, columns)
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded on the left to ``columns`` display columns (never cut)."""
    return " " * max(columns - width(text), 0) + text
