"""Read financial statement tables out of PDF-extracted evidence text.

A statement page extracted from a PDF is a label line followed by one number per year column
(`Net Revenue` / `$` / `86,392 $` / `79,474 $` / `70,372`), or, in plain text, a label and its
numbers on one line. The column order comes from the header years (`2022 2021 2020`,
`December 31, 2019 December 31, 2018`, `2015 2016 2017` ascending at some filers), the scale
from the `(in millions ...)` note, the statement from the title or the chunk's section. Rows
whose number of values does not match the columns are skipped (never guessed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from finqa.lexicon.line_items import label_key
from finqa.lexicon.numbers import detect_scale, parse_cell
from finqa.lexicon.statements.classify import classify_statement as lexicon_classify
from finqa.lexicon.statements.classify import title_kind
from finqa.lexicon.statements.text import split_cells, unglue_rows

__all__ = [
    "Row",
    "Table",
    "parse_tables",
    "classify_statement",
    "detect_scale_text",
    "parse_cell",
]

_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_HEADER_WORDS = re.compile(
    rf"\b(?:{_MONTHS}|fiscal|years?|ended|ending|as|of|at|for|the|and|three|six|nine|twelve|"
    r"months|weeks|period|periods|quarter|twelve|52|53|to|from|restated|in|millions|thousands|"
    r"yearended|fiscalyear|yearsended|fiscalyearsended)\b\.?",
    re.IGNORECASE,
)


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

    def value_for(self, year: int) -> float | None:
        if year in self.years:
            return self.values[self.years.index(year)]
        return None


@dataclass
class Table:
    """Rows read from one evidence text, with the header context found in it."""

    rows: list[Row] = field(default_factory=list)
    years: tuple[int, ...] = ()
    scale: float | None = None
    statement: str | None = None
    value_counts: dict[int, int] = field(default_factory=dict)  # values per row -> rows
    keys: list[str] = field(default_factory=list)  # normalised labels of every row seen


def detect_scale_text(text: str) -> float | None:
    """The money scale a table header declares ('(in millions, except per share)'), read by the
    lexicon (`lexicon.numbers.detect_scale`: one rule for the whole product)."""
    return detect_scale(text)


# The offline reasoner names the cash-flow statement 'cash_flow' (the metric catalogue's name);
# the lexicon's statement kinds say 'cashflow'. Statement titles are read by the lexicon only.
_OFFLINE_NAME = {"cashflow": "cash_flow"}


def classify_statement(text: str) -> str | None:
    """The statement a text names, in the offline reasoner's names (see `lexicon.statements`)."""
    kind = lexicon_classify(text)
    return _OFFLINE_NAME.get(kind, kind) if kind else None


def _is_per_share_heading(heading: str) -> bool:
    """'Per share data:', 'Earnings per common share' — not '(in millions, except per share amounts)'."""
    h = heading.strip()
    if not h or h.startswith("(") or re.search(r"except", h, re.I):
        return False
    return bool(re.search(r"per\s*(?:common\s*)?share", h, re.I))


def title_statement(line: str) -> str | None:
    """The statement a title line names ('CONSOLIDATED BALANCE SHEETS' -> 'balance'), else None."""
    kind = title_kind(line)
    return _OFFLINE_NAME.get(kind, kind) if kind else None


def _explode(lines: list[str]) -> list[str]:
    """Split lines that hold several rows ('... (3.4) Dividends paid (1,244.5) ...') into one row
    each, as the statement text reader cuts them (`lexicon.statements.text.unglue_rows`)."""
    out: list[str] = []
    for line in lines:
        pieces = unglue_rows(line, 2) if len(line) > 60 else []
        out.extend(pieces if len(pieces) > 1 else [line])
    return out


def _split_line(line: str) -> tuple[str, list[float]]:
    """(label text, trailing numbers) of one line, as the statement text reader splits a table
    line (`lexicon.statements.text.split_cells`); a nil dash reads 0."""
    label, cells, _spans = split_cells(line.strip())
    values: list[float] = []
    for cell in cells:
        value = 0.0 if cell == "\u2014" else parse_cell(cell)
        if value is None:
            return line.strip().strip(" $:\u00a0"), []
        values.append(value)
    return label, values


def _header_years(line: str) -> list[int] | None:
    """Years of a column-header line ('2022 2021 2020', 'December 31, 2019'), else None."""
    if len(line) > 160:
        return None
    line = re.sub(
        r"\((?:[^()]*\b(?:in|amounts)\b[^()]*)\)", " ", line, flags=re.I
    )  # '(in millions...)'
    years = [int(y) for y in _YEAR.findall(line)]
    rest = _YEAR.sub(" ", line)
    rest = _HEADER_WORDS.sub(" ", rest)
    rest = re.sub(r"\b(?:[1-9]|[12]\d|3[01])\b", " ", rest)  # day numbers
    rest = re.sub(r"[\s,.$()\-:/\u2013\u2014]", "", rest)
    if rest:
        return None
    return years


_Pending = tuple[str, list[float], tuple[int, ...], str | None, float | None, str, bool, int]


class _Scanner:
    """The line-by-line state of `parse_tables`: headers, titles, labels and their values."""

    def __init__(self, statement: str | None, primary: bool, scale: float | None, exhibit: bool):
        self.statement, self.primary, self.scale, self.exhibit = statement, primary, scale, exhibit
        self.first_title: str | None = None
        self.years: tuple[int, ...] = ()
        self.block: list[int] = []
        self.in_block = False
        self.recent: list[str] = []
        self.label_parts: list[str] = []
        self.values: list[float] = []
        self.inline = 0  # values on the label's own line
        self.heading = ""
        self.pending: list[_Pending] = []
        self.per_share_flags: list[bool] = []

    def flush(self) -> None:
        if self.label_parts and self.values:
            label = " ".join(self.label_parts)
            self.pending.append(
                (label, self.values, self.years, self.statement, self.scale, self.heading,
                 self.primary, self.inline)
            )  # fmt: skip
            self.per_share_flags.append(_is_per_share_heading(self.heading))
        self.label_parts, self.values, self.inline = [], [], 0

    def header(self, line: str) -> bool:
        """A run of column years ('2022 2021'): they become the years of the rows that follow."""
        hdr = _header_years(line)
        if hdr is None or (self.values and not hdr) or not (hdr or self.in_block):
            self.in_block = False
            return False
        if not self.in_block:
            self.block = []
        self.block.extend(y for y in hdr if y not in self.block)
        self.in_block = True
        if self.block:
            self.years = tuple(self.block)
        return True

    def title(self, line: str) -> bool:
        """A statement title, possibly over several short lines: a new statement starts."""
        title = title_statement(line)
        if title is None and len(line) <= 40 and not re.search(r"\d", line):
            self.recent.append(line)
            for k in range(2, min(6, len(self.recent)) + 1):
                title = title_statement(" ".join(self.recent[-k:]))
                if title:
                    break
        elif len(line) > 40 or re.search(r"\d", line):
            self.recent.clear()
        if not title:
            return False
        self.flush()
        self.statement, self.primary = title, not self.exhibit
        self.first_title = self.first_title or title
        self.recent.clear()
        return True

    def row(self, line: str) -> None:
        """A label with values, a wrapped label, or values continuing the current label."""
        self.scale = detect_scale_text(line) or self.scale
        label, nums = _split_line(line)
        if label and re.search(r"[A-Za-z]", label):
            if self.values:
                self.flush()
                self.label_parts = [label]
            elif self.label_parts and label[:1].islower():
                self.label_parts.append(label)  # wrapped label continues
            else:
                if self.label_parts:
                    self.heading = " ".join(self.label_parts)
                self.label_parts = [label]
            self.values = list(nums)
            self.inline = len(nums)
        elif nums and self.label_parts:
            self.values.extend(nums)
        elif nums and not self.label_parts and self.heading and self.pending:
            self.label_parts, self.values = [f"total {self.heading}"], list(nums)


def parse_tables(
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
    """All rows with values found in `text`. Missing header context falls back to the defaults."""
    table = Table()
    section_title = title_statement(section or "") if section else None
    head_lines = [ln.strip() for ln in text.split("\n")[:6] if ln.strip()][:3]
    exhibit = any(re.match(r"exhibit\b", ln, re.I) for ln in head_lines)
    item8 = bool(section and re.search(r"\bitem\s*8\b", section, re.I))
    primary = (
        section_title is not None or (item8 and default_statement is not None)
    ) and not exhibit
    scan = _Scanner(
        section_title or default_statement,
        primary,
        detect_scale_text(text) or default_scale,
        exhibit,
    )
    for raw in _explode(text.split("\n")):
        line = raw.strip()
        if not line or line == "$" or scan.header(line) or scan.title(line):
            continue
        scan.row(line)
    scan.flush()
    table.statement = section_title or default_statement or scan.first_title
    context = _RowContext(
        source_id, doc_id, page, chunk_id, order, exhibit, default_years, default_scale
    )
    for i, pending in enumerate(scan.pending):
        table.rows.extend(_rows(table, context, i, pending, scan.per_share_flags[i]))
    table.years = scan.years
    table.scale = scan.scale
    return table


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


def _rows(table: Table, ctx: _RowContext, i: int, pending: _Pending, per_share: bool) -> list[Row]:
    """The row (and a trailing total column read as its own row) of one label's values."""
    label, vals, yrs, stmt, sc, head, prim, inl = pending
    table.value_counts[len(vals)] = table.value_counts.get(len(vals), 0) + 1
    table.keys.append(label_key(label))
    use_years = yrs or ctx.default_years
    if not use_years:
        return []
    cols = len(use_years)
    row_vals: list[float] = vals
    extra: list[float] = []
    if len(vals) == 2 * cols and cols > 1 and inl in (0, cols) and head:
        row_vals, extra = vals[:cols], vals[cols:]
    if len(row_vals) != cols:
        return []
    row = Row(
        label=label,
        key=label_key(label),
        values=tuple(row_vals),
        years=use_years,
        scale=sc or ctx.default_scale,
        statement=stmt,
        source_id=ctx.source_id,
        doc_id=ctx.doc_id,
        page=ctx.page,
        chunk_id=ctx.chunk_id,
        line=_row_line(label, row_vals),
        order=ctx.order * 10000 + i,
        header_inferred=not yrs,
        primary=prim,
        exhibit=ctx.exhibit,
        per_share=per_share,
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
        ),
    ]


def _fmt(v: float) -> str:
    text = f"{abs(v):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if v < 0 else text


def _row_line(label: str, values: list[float]) -> str:
    return f"{label} " + " ".join(_fmt(v) for v in values)
