"""Where a figure of page text sits in its table: the period of its column (or of a narrative
'in 2021'), its row's label and cells, and whether its column is a percentage one.

The text reader (`text.read_text_page`) reads a statement page into the statement model's
facts line by line; a figure quoted from a filing is found by its offset in the page text, so
this reads the table around one offset: the same page text, read from the figure outwards.

Filing text extracted from PDFs flattens a table row into a label line followed by the row's
values (one or several per line); the column headers are a run of years above the rows
('2022 2021', 'December 31, 2022 2021', 'June 30, 2023 December 31, 2022'). A value's column is
its index among its row's values, mapped onto the nearest header run before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finqa.lexicon.numbers import extract_quantities
from finqa.lexicon.periods import year_mentions

__all__ = [
    "ColumnPeriod",
    "column_period",
    "header_years",
    "row_cells",
    "row_label",
    "percent_column",
]

_NUMERIC_LINE = re.compile(r"^(?:[\s$€£¥()%,.\-–—#*\d]|\bN/?M\b|\bn/a\b|\([a-z]\))*$", re.I)
_PLACEHOLDER = re.compile(r"(?<![\w.])(?:N/?M|n/a|—|–|-)(?![\w.])", re.I)
_HEADER_WINDOW = 4000
_MAX_GAP = 60  # chars allowed between two years of one header run
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


def header_years(text: str, before: int) -> tuple[int | None, ...]:
    """The nearest run of >= 2 column-header years that ends before offset `before`.

    'Change' / '% Change' / 'Increase (Decrease)' columns between years are kept as None so
    that value positions line up with the header ('2021 2020 Change 2021 2020 Change')."""
    lo = max(0, before - _HEADER_WINDOW)
    mentions = [(y, s + lo, e + lo) for y, s, e in year_mentions(text[lo:before])]
    runs: list[list[int | None]] = []
    last_end = -1
    for year, start, end in mentions:
        gap = text[last_end:start] if last_end >= 0 else ""
        if runs and _joins(gap):
            if _CHANGE_COL.search(gap):
                runs[-1].append(None)
            runs[-1].append(year)
        else:
            runs.append([year])
        last_end = end
    if runs and last_end >= 0 and _CHANGE_COL.search(text[last_end : min(before, last_end + 40)]):
        runs[-1].append(None)
    for run in reversed(runs):
        if sum(y is not None for y in run) >= 2:
            return tuple(run)
    return ()


_CHANGE_COL = re.compile(r"\b(?:change|increase|decrease|variance|vs\.?)(?!\w)|%", re.I)
_HEADER_WORDS = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|fiscal|years?|ended|ending|as|of|at|"
    r"and|weeks?|months?|three|six|nine|twelve|quarter|first|second|third|fourth|change|increase|"
    r"decrease|variance|vs|percent|amount|to|in|millions|thousands|billions)\b|\b\d{1,2}\b|[-,.%()$\s]",
    re.I,
)


def _joins(gap: str) -> bool:
    """Two years belong to one header run if only dates / column words separate them."""
    if len(gap) > _MAX_GAP:
        return False
    return not _HEADER_WORDS.sub("", gap).strip()


def _row_values(text: str, start: int) -> tuple[list[tuple[int, int]], int]:
    """(start, end) spans of the values in the row holding offset `start`, and the row start."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    line = text[line_start:line_end]
    if _NUMERIC_LINE.match(line):
        row_start, row_end = line_start, line_end
        while row_start > 0:
            prev_start = text.rfind("\n", 0, row_start - 1) + 1
            prev = text[prev_start : row_start - 1]
            if not _NUMERIC_LINE.match(prev):
                break
            row_start = prev_start
        while row_end < len(text):
            nxt_end = text.find("\n", row_end + 1)
            nxt_end = len(text) if nxt_end < 0 else nxt_end
            nxt = text[row_end + 1 : nxt_end]
            if not _NUMERIC_LINE.match(nxt):
                break
            row_end = nxt_end
        segment_start = row_start
    else:
        head = line[: start - line_start]
        letters = [i + 1 for i, ch in enumerate(head) if ch.isascii() and ch.isalpha()]
        segment_start = line_start + (letters[-1] if letters else 0)
        row_start, row_end = line_start, line_end
    segment = text[segment_start:row_end]
    quantities = extract_quantities(segment)
    spans = [(q.start + segment_start, q.end + segment_start) for q in quantities]
    for m in _PLACEHOLDER.finditer(
        re.sub(r"\([a-z]\)", "   ", segment)
    ):  # 'NM', '—': an empty cell still takes a column
        if not any(q.start <= m.start() < q.end for q in quantities):
            spans.append((m.start() + segment_start, m.end() + segment_start))
    return sorted(spans), row_start


def column_period(text: str, start: int, end: int) -> ColumnPeriod:
    """The period of the value at text[start:end]: table column year, else 'in 2021' after it."""
    narrative = _NARRATIVE.match(text[end : end + 40])
    if narrative:
        sentence_start = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), -1) + 1
        stops = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
        sentence = text[sentence_start : min(stops) if stops else len(text)]
        years = tuple(dict.fromkeys(y for y, _s, _e in year_mentions(sentence)))
        return ColumnPeriod(int(narrative.group(1)), years, None, None, "narrative")
    spans, row_start = _row_values(text, start)
    index = next((i for i, (s, e) in enumerate(spans) if s <= start < e or start <= s < end), None)
    header = header_years(text, row_start)
    if index is not None and header and len(spans) >= 1:
        n, h = len(spans), len(header)
        year: int | None = None
        if index < h:
            year = header[index] if index < h else None
        elif n % h == 0:
            year = header[index % h]
        if year is not None and n > 1:
            return ColumnPeriod(year, header, index, n, "table")
    return ColumnPeriod(None, header, index, len(spans) if spans else None, "unknown")


def row_label(text: str, start: int) -> str | None:
    """The label of the table row holding the value at `start` ('Total current assets'), or
    None when the value is not in a table row (a sentence: its context is the sentence)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    if not _NUMERIC_LINE.match(line):
        head = text[line_start:start]
        tail = text[start : line_start + len(line)]
        if (
            _NUMERIC_LINE.match(tail)  # 'Total current assets 7,453 7,659': label, then values
            and sum(ch.isascii() and ch.isalpha() for ch in head) >= 3
            and len(head.split()) <= 12
        ):
            return " ".join(re.sub(r"[^A-Za-z'&/ -]+", " ", head).split()) or None
        return None
    spans, row_start = _row_values(text, start)
    header = header_years(text, row_start)
    if header and len(spans) > len(header):
        return None  # values of two rows run together (an unlabelled total): no one label
    prev_start = text.rfind("\n", 0, max(row_start - 1, 0)) + 1
    label = text[prev_start : max(row_start - 1, prev_start)].strip()
    if not label or len(label.split()) > 14 or _NUMERIC_LINE.match(label):
        return None
    return " ".join(re.sub(r"[^A-Za-z'&/ -]+", " ", label).split()) or None


def row_cells(text: str, start: int) -> list[tuple[int, int, int | None]]:
    """(start, end, column year) of every value in the row holding offset `start`."""
    spans, row_start = _row_values(text, start)
    header = header_years(text, row_start)
    out: list[tuple[int, int, int | None]] = []
    for s, e in spans:
        out.append((s, e, column_period(text, s, e).year if header else None))
    return out


_LONE_PERCENT = re.compile(r"[^\S\r\n]*\r?\n[^\S\r\n]*%[^\S\r\n]*(?:\r?\n|$)")
_PERCENT_CELL = re.compile(r"%\s*$|^\s*\$?\s*100\.0+\s*$")
_YEAR_CELL = re.compile(r"\s*(?:19|20)\d\d\s*$")
_COLUMN_ROWS = 15  # rows scanned above and below a value for its column's unit
_COLUMN_WINDOW = 3000
_DIGIT = re.compile(r"\d")


def _row_index(text: str, start: int) -> tuple[list[tuple[int, int]], int, int | None]:
    spans, row_start = _row_values(text, start)
    index = next((i for i, (s, e) in enumerate(spans) if s <= start < e), None)
    return spans, row_start, index


def _percent_cell(text: str, spans: list[tuple[int, int]], index: int, row: list[str]) -> bool:
    """Does this row mark column `index` of `row` (the value's row) as percent: its cell there
    reads '..%' or '100.0' in a row of the same width (so the columns line up), or, when every
    figure of `row` is percent-sized, every cell of this row is a '%'?"""
    cells = [text[s:e] for s, e in spans]
    if len(cells) == len(row) >= 2 and _PERCENT_CELL.search(cells[index]):
        return True
    if len(cells) < 2 or not all(c.rstrip().endswith("%") for c in cells):
        return False
    return all(_percent_sized(c) for c in row)


def _percent_sized(cell: str) -> bool:
    m = re.search(r"\d[\d,]*(?:\.\d+)?", cell)
    return m is None or float(m.group(0).replace(",", "")) <= 100.0


def percent_column(text: str, start: int, end: int) -> bool:
    """Is the bare figure at text[start:end] a percentage by its context?

    PDF text loses a table's units: the '%' may sit alone on the next line ('20.1\\n%'), or only
    on some rows of the column ('33.9 %' at the top, '15.5' below), or the column is a
    'percent of sales' one whose total row reads '100.0'. The value's column is its index among
    its row's values; rows up to `_COLUMN_ROWS` above and below are read at the same index
    (a row of another width only counts when all its cells are percentages and all the value's
    row is percent-sized)."""
    if _LONE_PERCENT.match(text, end):
        return True
    spans, row_start, index = _row_index(text, start)
    if index is None or not spans:
        return False
    row = [text[s:e] for s, e in spans]
    lo, hi = max(0, start - _COLUMN_WINDOW), min(len(text), end + _COLUMN_WINDOW)
    pos = row_start  # walk up: the row holding the last digit before this row's start
    for _ in range(_COLUMN_ROWS):
        prev = max((m.start() for m in _DIGIT.finditer(text, lo, pos)), default=None)
        if prev is None:
            break
        up, up_start = _row_values(text, prev)
        if _percent_cell(text, up, index, row):
            return True
        if up and all(_YEAR_CELL.match(text[s:e]) for s, e in up):
            break  # the column headers: the table starts here
        pos = up_start  # <= prev < pos: the walk always moves up
    pos = spans[-1][1]  # walk down: the row holding the first digit after this row's values
    for _ in range(_COLUMN_ROWS):
        nxt = _DIGIT.search(text, pos, hi)
        if nxt is None:
            break
        down, _down_start = _row_values(text, nxt.start())
        if _percent_cell(text, down, index, row):
            return True
        line_end = text.find("\n", nxt.start())
        pos = max([e for _s, e in down] + [len(text) if line_end < 0 else line_end])
    return False
