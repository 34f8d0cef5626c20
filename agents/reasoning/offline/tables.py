"""The evidence's statement tables as the reasoner's rows, read by the one text reader.

Every table of an evidence text is read by the statement text reader
(`lexicon.statements.text.read_text_block`: captions, cells and where each sits in the text,
flowed rows cut apart, a period header glued to a title or to the first rows cut off); this
module only turns its tables into `Row`s: the column years its header names
(`lexicon.statements.located.column_years`: change columns dropped), the scale the table's
title or scale note declares (else the text's), the statement a title names (else the chunk's
section), each cell read by `lexicon.numbers.parse_cell`. A row whose number of cells does not
match the columns is skipped (never guessed), and so is every row of a table whose header names
a year twice (period groups, plans side by side) and figures printed without a caption; nothing
here reads a table line of its own. Each row keeps where the reader read it (`Row.at`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache

from finqa.lexicon.hedges import pro_forma_in
from finqa.lexicon.line_items import label_key
from finqa.lexicon.numbers import detect_scale, parse_cell
from finqa.lexicon.statements.classify import classify_statement as lexicon_classify
from finqa.lexicon.statements.classify import title_kind
from finqa.lexicon.statements.located import column_years
from finqa.lexicon.statements.raw import RawTable, RowAt
from finqa.lexicon.statements.text import read_text_block

__all__ = [
    "Row",
    "Table",
    "read_tables",
    "classify_statement",
    "title_statement",
]


@dataclass(frozen=True)
class Row:
    """One statement line item with a value per year column."""

    label: str
    key: str  # normalised label (letters only) for matching
    values: tuple[float | None, ...]
    years: tuple[int, ...]
    scale: float | None
    statement: str | None
    source_id: str
    doc_id: str
    page: int
    chunk_id: str | None
    line: str  # the row as text, for citations
    order: int  # position in the evidence (rank-major), for tie-breaks
    header_inferred: bool = False
    primary: bool = False  # under a financial statement title (not MD&A / notes tables)
    exhibit: bool = False  # from an exhibit (another entity's statements, e.g. Exhibit 99.3)
    per_share: bool = False  # under a 'per share' heading (EPS-like values, not amounts)
    model: bool = False  # read from the filing's statement model (StatementStore), not the text
    table_id: str | None = None  # the statement model's table (model rows only)
    item: str | None = None  # the catalogue metric the filing's own tag says this row is (XBRL)
    concept: str | None = None  # that tag (e.g. us-gaap:Revenues); `line` is the printed row
    # (end date, instant) of each year's column, when the statement model knows them
    ends: tuple[tuple[date | None, bool], ...] = ()
    # where the text reader read the row in its evidence text: caption and cells (text rows)
    at: RowAt | None = None
    # each year's cell printed in parentheses (statement-model rows read from text; a text row's
    # values carry their printed sign already)
    negatives: tuple[bool, ...] = ()
    # printed between operating income and pre-tax income (statement-model rows of an income
    # statement): a caption naming no side there is read by the layout (`lexicon.sides`)
    nonoperating: bool = False

    def value_for(self, year: int) -> float | None:
        if year in self.years:
            return self.values[self.years.index(year)]
        return None

    def printed_for(self, year: int) -> float | None:
        """The year's figure with the sign it is printed with (parenthesised negative), or None
        where the print is not known (a tagged fact: the tag's sign is the concept's)."""
        value = self.value_for(year)
        if value is None:
            return None
        if self.negatives:
            return -abs(value) if self.negatives[self.years.index(year)] else abs(value)
        return None if self.model else value


@dataclass
class Table:
    """Rows read from one evidence text, with the header context found in it."""

    rows: list[Row] = field(default_factory=list)
    years: tuple[int, ...] = ()
    scale: float | None = None
    statement: str | None = None
    value_counts: dict[int, int] = field(default_factory=dict)  # values per row -> rows
    keys: list[str] = field(default_factory=list)  # normalised labels of every row seen


# The offline reasoner names the cash-flow statement 'cash_flow' (the metric catalogue's name);
# the lexicon's statement kinds say 'cashflow'. Statement titles are read by the lexicon only.
_OFFLINE_NAME = {"cashflow": "cash_flow"}


def classify_statement(text: str) -> str | None:
    """The statement a text names, in the offline reasoner's names (see `lexicon.statements`)."""
    kind = lexicon_classify(text)
    return _OFFLINE_NAME.get(kind, kind) if kind else None


def title_statement(line: str) -> str | None:
    """The statement a title line names ('CONSOLIDATED BALANCE SHEETS' -> 'balance'), else None."""
    kind = title_kind(line)
    return _OFFLINE_NAME.get(kind, kind) if kind else None


def _is_per_share_heading(heading: str) -> bool:
    """'Per share data:', 'Earnings per common share' — not '(in millions, except per share amounts)'."""
    h = heading.strip()
    if not h or h.startswith("(") or re.search(r"except", h, re.I):
        return False
    return bool(re.search(r"per\s*(?:common\s*)?share", h, re.I))


@lru_cache(maxsize=64)
def _read(text: str) -> tuple[RawTable, ...]:
    """The text reader's tables of one evidence text (read once: the Book asks twice)."""
    return tuple(read_text_block(text))


@dataclass(frozen=True)
class _RowContext:
    source_id: str
    doc_id: str
    page: int
    chunk_id: str | None
    order: int
    exhibit: bool
    default_years: tuple[int, ...]
    default_scale: float | None


# characters of the text before a table read for what introduces it (a pro forma note's sentence)
_PRO_FORMA_REACH = 600


class _Running:
    """What one table hands the next in the same text: the statement a title named, whether it
    is a primary statement, the scale last declared and the column years last printed."""

    def __init__(self, statement: str | None, primary: bool, scale: float | None) -> None:
        self.statement, self.primary, self.scale = statement, primary, scale
        self.years: tuple[int, ...] = ()
        self.first_title: str | None = None

    def enter(self, table: RawTable, exhibit: bool, before: str) -> None:
        """A table starts: its title, and the scale declared in the text `before` its first row
        (since the last table), else in its title lines and header."""
        titled = title_statement(table.title) if table.title else None
        if titled:
            self.statement, self.primary = titled, not exhibit
            self.first_title = self.first_title or titled
        head = "\n".join([table.context, *table.header_lines])
        self.scale = detect_scale(before) or detect_scale(head) or self.scale


def read_tables(
    text: str,
    *,
    source_id: str,
    doc_id: str,
    page: int,
    chunk_id: str | None = None,
    section: str | None = None,
    order: int = 0,
    default_years: tuple[int, ...] = (),
    default_scale: float | None = None,
    default_statement: str | None = None,
) -> Table:
    """The rows of every table the text reader reads in `text`; header context missing from
    the text falls back to the defaults (the Book's per-page and per-statement context)."""
    table = Table()
    section_title = title_statement(section or "") if section else None
    head_lines = [ln.strip() for ln in text.split("\n")[:6] if ln.strip()][:3]
    exhibit = any(re.match(r"exhibit\b", ln, re.I) for ln in head_lines)
    item8 = bool(section and re.search(r"\bitem\s*8\b", section, re.I))
    primary = (
        section_title is not None or (item8 and default_statement is not None)
    ) and not exhibit
    run = _Running(section_title or default_statement, primary, detect_scale(text) or default_scale)
    ctx = _RowContext(
        source_id, doc_id, page, chunk_id, order, exhibit, default_years, default_scale
    )
    n = done = 0
    for raw in _read(text):
        start, end = _extent(raw)
        before = text[done:start] if start is not None else ""
        run.enter(raw, exhibit, before)
        done = end if end is not None else done
        if pro_forma_in(" ".join([before[-_PRO_FORMA_REACH:], raw.context, *raw.header_lines])):
            continue  # figures as if a transaction had happened earlier: not the reported ones
        header = column_years(raw)
        named = [y for y in header if y is not None]
        run.years = tuple(dict.fromkeys(named)) or run.years
        # a year named twice (three and six months, two plans side by side): which group is
        # the year's figure is not known, so the table gives no per-year row
        grouped = len(set(named)) < len(named)
        header = header if named else ()
        for (label, cells), heading, at in zip(raw.rows, raw.headings, raw.at, strict=False):
            values = _values(cells)
            if not values or not label:  # figures printed without a caption: no line item's
                continue
            table.value_counts[len(values)] = table.value_counts.get(len(values), 0) + 1
            table.keys.append(label_key(label))
            if header and len(values) == len(header):  # a change column's figures dropped
                values = [v for v, y in zip(values, header, strict=True) if y is not None]
            if grouped:
                continue
            inline = _inline(text, at)
            table.rows.extend(_rows(ctx, run, n, label, values, heading, inline, at))
            n += 1
    table.statement = section_title or default_statement or run.first_title
    table.years = run.years
    table.scale = run.scale
    return table


def _extent(table: RawTable) -> tuple[int | None, int | None]:
    """Where a table's rows with figures start and end in the text read (None: not placed)."""
    spans = [s for at in table.at if at.cells for s in (at.caption, *at.cells) if s is not None]
    if not spans:
        return None, None
    return min(s for s, _ in spans), max(e for _, e in spans)


def _values(cells: list[str]) -> list[float]:
    """The figures of a row's cells (a nil dash reads 0); [] when a cell is no figure ('NM')."""
    out: list[float] = []
    for cell in cells:
        value = 0.0 if cell == "\u2014" else parse_cell(cell)
        if value is None:
            return []
        out.append(value)
    return out


def _inline(text: str, at: RowAt) -> int:
    """How many of the row's cells stand on its caption's own line."""
    if at.caption is None:
        return 0
    stop = text.find("\n", at.caption[1])
    stop = len(text) if stop < 0 else stop
    return sum(1 for c in at.cells if c is not None and c[0] < stop)


def _rows(
    ctx: _RowContext,
    run: _Running,
    i: int,
    label: str,
    vals: list[float],
    head: str,
    inline: int,
    at: RowAt,
) -> list[Row]:
    """The row (and a trailing total column read as its own row) of one caption's values."""
    use_years = run.years or ctx.default_years
    if not use_years:
        return []
    cols = len(use_years)
    row_vals: list[float] = vals
    extra: list[float] = []
    if len(vals) == 2 * cols and cols > 1 and inline in (0, cols) and head:
        row_vals, extra = vals[:cols], vals[cols:]
    if len(row_vals) != cols:
        return []
    row = Row(
        label=label,
        key=label_key(label),
        values=tuple(row_vals),
        years=use_years,
        scale=run.scale or ctx.default_scale,
        statement=run.statement,
        source_id=ctx.source_id,
        doc_id=ctx.doc_id,
        page=ctx.page,
        chunk_id=ctx.chunk_id,
        line=_row_line(label, row_vals),
        order=ctx.order * 10000 + i,
        header_inferred=not run.years,
        primary=run.primary,
        exhibit=ctx.exhibit,
        per_share=_is_per_share_heading(head),
        at=at,
    )
    if not extra:
        return [row]
    total = f"total {head}"
    return [
        row,
        replace(
            row,
            label=total,
            key=label_key(total),
            values=tuple(extra),
            line=_row_line(total, extra),
            per_share=False,
            at=RowAt(None, at.cells[cols:]),
        ),
    ]


def _fmt(v: float) -> str:
    text = f"{abs(v):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if v < 0 else text


def _row_line(label: str, values: list[float]) -> str:
    return f"{label} " + " ".join(_fmt(v) for v in values)
