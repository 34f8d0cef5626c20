"""The grid reader: statement tables out of a document's own table cells (EDGAR HTML `<tr>`s).

An HTML table already says where each row and cell is, so nothing is guessed from spacing:
a row is one `<tr>` (its first cell the line item when it has words, the rest its values), a
header is a run of rows that name periods ('Years ended December 31,' / '2024 2023 2022').
What the text reader must infer (is '(2024, $167)' part of the label? does a bare row of
numbers belong to the line above?) the cells answer. Two layout rules from how statements
are printed:

- a value column captioned as a ratio ('Percent to Sales', '% of revenue') is not a period:
  its cells are dropped from a row that has one cell per caption;
- a row with no caption ('(1,991) 7,724 3,530' under 'Total costs and expenses') is skipped
  and noted: its line item is not printed, so it is not read;
- a header whose first columns are captions of other things ('Maturity', 'Coupon Rate') and
  whose last ones are periods ('2023', '2024') heads a table whose rows end with one figure
  per period: a row's last cells are read, the maturity and rate cells before them are not.

Cells are read later by `build.build_table` like any other reader's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.lexicon.model import StatementKind
from finqa.lexicon.statements.classify import title_kind
from finqa.lexicon.statements.header import is_header_line
from finqa.lexicon.statements.raw import DASHES, RawTable, read_cell

__all__ = ["raw_tables_from_grid", "is_ratio_caption"]

_RATIO_CAPTION = re.compile(
    r"^(?:%|percent(?:age)?)\s*(?:of|to)\s+(?:total\s+)?(?:net\s+)?"
    r"(?:sales|revenues?|net\s+sales|total)\b.*$|^%\s*change\b.*$|^percent(?:age)?\s+change\b.*$",
    re.I,
)


def is_ratio_caption(cell: str) -> bool:
    """'Percent to Sales', '% of revenue', '% change', '% Change 2024-2023': a column of
    ratios, not a period."""
    return bool(_RATIO_CAPTION.match(cell.strip()))


def _is_value(cell: str) -> bool:
    """A cell that is one figure ('(1,991)', '$2.30', '—'), not a caption with figures in it."""
    s = cell.strip()
    if s in DASHES or s.strip("$") in DASHES:
        return True
    return not any(ch.isalpha() for ch in s) and read_cell(s) is not None


def _header_row(row: Sequence[str]) -> bool:
    """Every cell names a period (or a ratio column), or the joined row reads as a header."""
    if is_header_line(" ".join(row)):
        return True
    return any(not is_ratio_caption(c) for c in row) and all(
        is_header_line(c) or is_ratio_caption(c) for c in row
    )


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _captioned_periods(row: Sequence[str]) -> int:
    """How many trailing cells of a header row name periods after captions of other columns
    ('Maturity', 'Coupon Rate', '2023', '2024': 2); 0 when the row is not such a header."""
    k = 0
    while k < len(row) and is_header_line(row[-1 - k]) and _YEAR.search(row[-1 - k]):
        k += 1
    lead = row[: len(row) - k]
    if k < 2 or not lead or any(ch.isdigit() for c in lead for ch in c):
        return 0
    return k if all(len(c.split()) <= 6 for c in lead) else 0


class _GridScan:
    """The table being read from one grid, and the tables done."""

    def __init__(self, page: int, kind: StatementKind, title: str, context: str) -> None:
        self.page, self.kind, self.title, self.context = page, kind, title, context
        self.tables: list[RawTable] = []
        self.current = self._table()
        self.ratio_at: list[int] = []  # value-column positions captioned as ratios
        self.captions = 0  # value columns the header row with ratio captions names
        self.heading = ""
        self.pre: list[str] = []  # label-only rows above the first header (scale, title)
        self.trailing = 0  # value columns of a header whose other columns are captions

    def _table(self) -> RawTable:
        return RawTable(
            page=self.page,
            kind=self.kind,
            title=self.title,
            header_lines=[],
            rows=[],
            context=self.context,
            source="grid",
            pages=(self.page,),
        )

    def finish(self) -> None:
        if self.current.header_lines and any(cells for _, cells in self.current.rows):
            self.current.context = "\n".join([*self.pre, *self.current.header_lines, self.context])
            self.tables.append(self.current)

    def header(self, row: Sequence[str]) -> None:
        if any(cells for _, cells in self.current.rows):  # a new header block after figures
            self.finish()
            self.current, self.ratio_at, self.captions, self.heading = self._table(), [], 0, ""
        ratios = [i for i, c in enumerate(row) if is_ratio_caption(c)]
        if ratios:
            # a first cell over the captions ('(dollars in millions)') is no value column
            lead = 0 if is_header_line(row[0]) or is_ratio_caption(row[0]) else 1
            self.ratio_at, self.captions = [i - lead for i in ratios], len(row) - lead
            row = [c for c in row if not is_ratio_caption(c)]
        self.current.header_lines.append(" ".join(row))

    def row(self, row: Sequence[str]) -> None:
        first = row[0]
        if _is_value(first):  # no caption: the line item is not printed
            if self.current.header_lines:
                self.current.notes.append(f"row of {len(row)} values without a caption, skipped")
            return
        cells = list(row[1:])
        if not self.current.header_lines:
            if not cells:
                self.pre.append(first)
            return
        if self.ratio_at and len(cells) == self.captions:
            cells = [c for i, c in enumerate(cells) if i not in self.ratio_at]
        if self.trailing and len(cells) > self.trailing:
            cells = cells[-self.trailing :]  # maturity, rate columns before the periods
        if not cells:
            self.heading = first
        self.current.rows.append((first, cells))
        self.current.headings.append("" if not cells else self.heading)


def raw_tables_from_grid(
    rows: Sequence[Sequence[str]], page: int, *, kind: StatementKind, title: str, context: str = ""
) -> list[RawTable]:
    """Raw statement tables of one grid (rows of cell texts, empty cells already dropped).

    `context` is the page text above the table (title, '(in millions, except per share)').
    A second header block after figures starts another table; rows above the first header
    are context, not line items; a grid with no period header gives nothing.
    """
    scan = _GridScan(page, kind, title, context)
    for raw in rows:
        row = [c.strip() for c in raw if c and c.strip()]
        if not row:
            continue
        if len(row) == 1 and title_kind(row[0]) is not None and not scan.current.header_lines:
            scan.pre.append(row[0])
        elif _header_row(row):
            scan.header(row)
        elif not scan.current.header_lines and (k := _captioned_periods(row)):
            scan.trailing = k  # 'Maturity | Coupon Rate | 2023 | 2024': the last k are periods
            scan.header(row[-k:])
        else:
            scan.row(row)
    scan.finish()
    return scan.tables
