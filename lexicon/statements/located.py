"""Where a figure of page text sits in its table: the period of its column (or of a narrative
'in 2021'), its row's caption and cells, and whether its column is a percentage one.

A figure quoted from a filing is found by its offset in the page text. The statement text
reader (`text.read_text_block`) reads the text's tables once, keeping where each row's caption
and cells sit; this looks the offset up among them: the row whose cell covers it, its column
among the row's cells, and the period the table's header names for that column
(`header.read_header`). Nothing here reads a table line of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from finqa.lexicon.periods import year_mentions
from finqa.lexicon.statements.raw import FOOTNOTE_MARK, RawTable, read_cell

__all__ = [
    "ColumnPeriod",
    "ReadRow",
    "column_period",
    "read_row",
    "row_cells",
    "row_label",
    "percent_column",
    "column_years",
    "uncaptioned_row",
    "uncaptioned_total",
]

_NARRATIVE = re.compile(
    r"^\s*(?:million|billion|thousand|%|percent)?\s*,?\s*(?:in|for|during|as of|at)\s+"
    r"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d{2})\b",
    re.I,
)


@dataclass(frozen=True)
class ColumnPeriod:
    """Where a value sits: its column year (None if unknown) and the header years seen."""

    year: int | None
    header: tuple[int | None, ...] = ()
    index: int | None = None
    columns: int | None = None
    how: str = "unknown"  # table | narrative | unknown


@dataclass(frozen=True)
class ReadRow:
    """One row the text reader read: its caption as read, its cells' (start, end) in the text
    and texts, the years its table's header names per column, and its place among the rows."""

    caption: str
    caption_at: tuple[int, int] | None
    cells: tuple[tuple[int, int], ...]
    texts: tuple[str, ...]
    header: tuple[int | None, ...]
    table: int
    order: int

    def index(self, start: int) -> int | None:
        """The column of the cell covering offset `start`."""
        return next((i for i, (s, e) in enumerate(self.cells) if s <= start < e), None)

    def year(self, index: int) -> int | None:
        """The header year of column `index` (a row of k x the header's columns repeats them)."""
        n, h = len(self.cells), len(self.header)
        if not h:
            return None
        if index < h:
            return self.header[index]
        return self.header[index % h] if n % h == 0 else None


def column_years(table: RawTable) -> tuple[int | None, ...]:
    """The year of each value column: the periods the header names (`header.read_header`),
    with None where a change column's caption stands between them."""
    from finqa.lexicon.statements.header import read_header
    from finqa.lexicon.statements.text import CHANGE_COLUMN

    lines = table.header_lines
    info = read_header(lines, table.kind) if lines else None
    if info is None:
        return ()
    years: list[int | None] = []
    for p in info.periods:
        printed = _years(p.label)  # the reader's fiscal year, else the year the header prints
        years.append(p.fiscal_year if p.fiscal_year is not None else next(iter(printed), None))
    if len(table.columns) == len(lines):
        return tuple(years)  # no change column
    shown = sum(len(_years(c)) for c in table.columns if not CHANGE_COLUMN.fullmatch(c))
    if not years or shown % len(years):
        return tuple(years)
    laid: list[int | None] = []
    taken = 0
    for caption in table.columns:  # the periods in the order printed, repeated per group
        if CHANGE_COLUMN.fullmatch(caption):
            if taken:  # a caption over the whole header ('Change' above the years) is no column
                laid.append(None)
            continue
        for _ in _years(caption):
            laid.append(years[taken % len(years)])
            taken += 1
    return tuple(laid)


def _years(text: str) -> list[int]:
    return [y for y, _s, _e in year_mentions(text)]


@lru_cache(maxsize=16)
def _rows(text: str) -> tuple[ReadRow, ...]:
    """Every row with cells the text reader reads in `text`, in reading order."""
    from finqa.lexicon.statements.text import read_text_block

    out: list[ReadRow] = []
    for t, table in enumerate(read_text_block(text)):
        header = column_years(table)
        for (caption, _cells), at in zip(table.rows, table.at, strict=False):
            cells = tuple(_with_currency(text, c) for c in at.cells if c is not None)
            cells = _without_marks(text, cells, len(header))
            if cells:
                texts = tuple(text[s:e] for s, e in cells)
                out.append(ReadRow(caption, at.caption, cells, texts, header, t, len(out)))
    return tuple(out)


def _without_marks(
    text: str, cells: tuple[tuple[int, int], ...], columns: int
) -> tuple[tuple[int, int], ...]:
    """A row's cells without the footnote marks read before its figures ('Hardware (1) 1,360
    1,576 1,648' under three years: the figures are the three columns, as the statement model
    reads them)."""
    extra = len(cells) - columns
    if columns and extra > 0 and all(FOOTNOTE_MARK.match(text[s:e]) for s, e in cells[:extra]):
        return cells[extra:]
    return cells


def _with_currency(text: str, cell: tuple[int, int]) -> tuple[int, int]:
    """A cell's span from the '$' printed before it ('$\\n2,306,072': one figure, as
    `lexicon.numbers` reads it)."""
    start, end = cell
    j = start
    while j > 0 and text[j - 1] in " \t\r\n\u00a0":
        j -= 1
    return (j - 1, end) if j > 0 and text[j - 1] == "$" else cell


def read_row(text: str, start: int) -> ReadRow | None:
    """The row the text reader read whose cell covers offset `start`, None when the figure
    is in no row it read (a sentence's)."""
    return next((r for r in _rows(text) if r.index(start) is not None), None)


def column_period(text: str, start: int, end: int) -> ColumnPeriod:
    """The period of the value at text[start:end]: table column year, else 'in 2021' after it."""
    narrative = _NARRATIVE.match(text[end : end + 40])
    if narrative:
        sentence_start = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), -1) + 1
        stops = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
        sentence = text[sentence_start : min(stops) if stops else len(text)]
        years = tuple(dict.fromkeys(y for y, _s, _e in year_mentions(sentence)))
        return ColumnPeriod(int(narrative.group(1)), years, None, None, "narrative")
    row = read_row(text, start)
    if row is None:
        return ColumnPeriod(None)
    index = row.index(start)
    n = len(row.cells)
    year = row.year(index) if index is not None else None
    if year is not None and n > 1:
        return ColumnPeriod(year, row.header, index, n, "table")
    return ColumnPeriod(None, row.header, index, n, "unknown")


def _clean(caption: str) -> str | None:
    kept = (ch if ch.isascii() and (ch.isalpha() or ch in "'&/ -") else " " for ch in caption)
    return " ".join("".join(kept).split()) or None


def row_label(text: str, start: int) -> str | None:
    """The caption of the table row holding the value at `start` ('Total current assets'), or
    None when the value is not in a table row (a sentence: its context is the sentence)."""
    row = read_row(text, start)
    if row is None or (row.header and len(row.cells) > len(row.header)):
        return None  # values of two rows run together (an unlabelled total): no one label
    if row.caption_at is None or len(row.caption.split()) > 14:
        return None
    if sum(ch.isascii() and ch.isalpha() for ch in row.caption) < 3:
        return None
    return _clean(row.caption)


def uncaptioned_row(text: str, start: int) -> bool:
    """The figure at `start` sits on a row the text reader read without a caption: figures on a
    line of their own under a row complete with its caption and figures ('Total stockholders'
    equity 12,662,919 10,469,791' over '$ 33,876,356 $ 30,210,706', the unlabelled total of
    liabilities and equity). Such a row has no line item's identity."""
    row = read_row(text, start)
    return row is not None and not row.caption and row.caption_at is None


def uncaptioned_total(text: str, start: int) -> str | None:
    """For a figure on a row without a caption: the heading over the rows it totals, where the
    captioned rows just above it in its column add up to it back to a line without figures
    ('Revenues' over 'Casino', 'Rooms', ... and the uncaptioned '5,162,082' they sum to: the
    revenue total a filer prints without a caption). None when no run of rows above sums to
    it, or no heading stands over them."""
    row = read_row(text, start)
    if row is None or row.caption or row.caption_at is not None:
        return None
    col = row.index(start)
    own = read_cell(row.texts[col]) if col is not None else None
    if col is None or own is None or not own[0]:
        return None
    rows = [r for r in _rows(text) if r.table == row.table and r.order < row.order]
    total = 0.0
    for i in range(len(rows) - 1, -1, -1):
        above = rows[i]
        if len(above.cells) != len(row.cells):
            return None
        cell = read_cell(above.texts[col])
        if cell is None:
            return None
        total += cell[0]
        if not above.caption or above.caption_at is None:
            # an uncaptioned subtotal with the lines printed under it ('10,248,694' then
            # 'Less: Promotional allowances (793,571)' and the net '9,455,123'): the net total
            # is under the subtotal's heading
            matched = abs(total - own[0]) <= 0.5 and i < len(rows) - 1
            return uncaptioned_total(text, above.cells[col][0]) if matched else None
        if abs(total - own[0]) <= 0.5 and i < len(rows) - 1:
            begin = rows[i - 1].cells[-1][1] if i > 0 else 0
            heading = text[begin : above.caption_at[0]].strip().splitlines()
            last = heading[-1].strip(" :") if heading else ""
            return (
                last if last and len(last) <= 60 and not any(ch.isdigit() for ch in last) else None
            )
    return None


def row_cells(text: str, start: int) -> list[tuple[int, int, int | None]]:
    """(start, end, column year) of every value in the row holding offset `start`."""
    row = read_row(text, start)
    if row is None:
        return []
    return [(s, e, row.year(i)) for i, (s, e) in enumerate(row.cells)]


_LONE_PERCENT = re.compile(r"[^\S\r\n]*\r?\n[^\S\r\n]*%[^\S\r\n]*(?:\r?\n|$)")
_COLUMN_ROWS = 15  # rows scanned above and below a value for its column's unit


def _percent_cell(cells: tuple[str, ...], index: int, row: tuple[str, ...]) -> bool:
    """Does this row mark column `index` of `row` (the value's row) as percent: its cell there
    reads '..%' or '100.0' in a row of the same width (so the columns line up), or, when every
    figure of `row` is percent-sized, every cell of this row is a '%'?"""
    if len(cells) == len(row) >= 2 and _percent_mark(cells[index]):
        return True
    if len(cells) < 2 or not all(c.rstrip().endswith("%") for c in cells):
        return False
    return all(_percent_sized(c) for c in row)


def _percent_mark(cell: str) -> bool:
    """'12.5%', or '100.0' (a 'percent of sales' column's total)."""
    if cell.rstrip().endswith("%"):
        return True
    read = read_cell(cell)
    return read is not None and "." in cell and read[0] == 100.0 and read[2] in ("", "USD")


def _percent_sized(cell: str) -> bool:
    read = read_cell(cell)
    return read is None or abs(read[0]) <= 100.0


def percent_column(text: str, start: int, end: int) -> bool:
    """Is the bare figure at text[start:end] a percentage by its context?

    PDF text loses a table's units: the '%' may sit alone on the next line ('20.1\\n%'), or only
    on some rows of the column ('33.9 %' at the top, '15.5' below), or the column is a
    'percent of sales' one whose total row reads '100.0'. The value's column is its index among
    its row's cells; up to `_COLUMN_ROWS` rows of its table above it and rows below it are read
    at the same index (a row of another width only counts when all its cells are percentages
    and all the value's row is percent-sized)."""
    if _LONE_PERCENT.match(text, end):
        return True
    row = read_row(text, start)
    index = row.index(start) if row else None
    if row is None or index is None:
        return False
    rows = _rows(text)
    above = [r for r in rows[: row.order] if r.table == row.table][-_COLUMN_ROWS:]
    below = rows[row.order + 1 : row.order + 1 + _COLUMN_ROWS]
    return any(_percent_cell(r.texts, index, row.texts) for r in [*reversed(above), *below])
