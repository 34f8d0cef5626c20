"""What a statement reader recovers from a page region before typing: raw grids and failures.

A leaf of the statement readers: the PDF and text readers produce `RawTable`s, `build` and
`equity` type them, and `read_cell` reads one cell the same way for all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from finqa.lexicon.model import StatementKind
from finqa.lexicon.numbers import parse_quantity

__all__ = [
    "RawTable",
    "RowAt",
    "BuildFailure",
    "read_cell",
    "DASHES",
    "FOOTNOTE_MARK",
    "NOT_MEANINGFUL",
]

# a footnote mark printed after a caption, read as a cell of its own: 'Hardware (1) 1,360'
FOOTNOTE_MARK = re.compile(r"^\(\d\)$")
DASHES = frozenset({"\u2014", "\u2013", "-", "--", "\u2014\u2014", "\u2212"})
# a change column's 'not meaningful' (a change from a base of the other sign or near zero)
NOT_MEANINGFUL = frozenset({"n/m", "nm", "n.m.", "n.m"})


@dataclass(frozen=True)
class RowAt:
    """Where one row a text reader read sits in its page text: its caption's (start, end) and
    each cell's, None where not known (an uncaptioned total's caption)."""

    caption: tuple[int, int] | None
    cells: tuple[tuple[int, int] | None, ...]


@dataclass
class RawTable:
    """What a reader recovered from one page region before typing."""

    page: int
    kind: StatementKind
    title: str
    header_lines: list[str]
    rows: list[tuple[str, list[str]]]  # (label as filed, cell texts in column order)
    context: str = ""  # text around the table (title, scale note) for scale detection
    source: str = "text"
    pages: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)  # per row: the sub-heading in force
    at: list[RowAt] = field(default_factory=list)  # per row (text reader): where it was read
    # the header's lines and the change columns' captions between them, in order (text reader)
    columns: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BuildFailure:
    """A statement region that could not be typed, and why (reported, never guessed)."""

    page: int
    kind: StatementKind
    title: str
    reason: str


def read_cell(text: str) -> tuple[float, bool, str] | None:
    """(value as filed, negative, unit) of one cell; '—' reads as 0; None when not a number."""
    t = text.strip().strip("$").strip()
    if t in DASHES or text.strip() in DASHES:
        return 0.0, False, ""
    q = parse_quantity(text)
    if q is None or q.kind != "number":
        return None
    return q.value, q.value < 0 or "(" in q.text, q.unit
