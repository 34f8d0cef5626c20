"""The text reader: statement tables out of page text (JSONL pages, PDF text without a grid).

A statement page extracted as text is a title, a period header ('2022 2021', or 'Year Ended
December 31,' over the years), then rows: a label followed by one number per column, on
the same line ('Net sales 1,200 1,000') or on the following lines ('Net sales' / '$' /
'1,200 $' / '1,000'). Numbers split across lines ('394,' / '328') are joined first. Labels
that wrap continue on a line starting in lower case. A new title or a new header block
after rows starts a new table (a page that is half one statement and half another, or
half prose: prose lines carry no trailing cells and are never rows).

Some extractions flow a table's lines together: the period header, then several rows on one
line ('December 31, 2019 2018 ASSETS Current assets Cash $ 2,329 $ 1,526 Receivables 612
657'). A period header that opens a line is cut off it (`header_prefix`), and a line is cut
after every run of exactly as many cells as the table has columns (`unglue_rows`).
"""

from __future__ import annotations

import re

from finqa.lexicon.entities import LEGAL_SUFFIXES
from finqa.lexicon.model import StatementKind
from finqa.lexicon.numbers import detect_scale, extract_quantities
from finqa.lexicon.periods import MONTH_NUMBERS, find_periods
from finqa.lexicon.statements.classify import classify_statement, statement_of_page, title_kind
from finqa.lexicon.statements.cursor import Cursor
from finqa.lexicon.statements.header import is_header_line, read_header
from finqa.lexicon.statements.raw import DASHES, NOT_MEANINGFUL, RawTable, RowAt
from finqa.lexicon.statements.totals import cell_values

__all__ = [
    "split_row",
    "split_row_at",
    "split_cells",
    "read_text_page",
    "read_text_block",
    "join_split_numbers",
    "without_folio",
    "unglue_rows",
    "header_prefix",
]

_SPLIT_NUMBER = re.compile(r"(?:^|[\s$(])\d{1,3}(?:,\d{3})*,$")
_NEXT_DIGITS = re.compile(r"^\d{3}(?:[,.)\s]|$)")
_TAIL_JUNK = " $\u00a0*"
# 'September 27,2014': a date whose year the extractor ran onto the comma
_DATE_COMMA = re.compile(
    r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2})"
    r",((?:19|20)\d\d)\b",
    re.I,
)
_MAX_LABEL = 160
# a caption that stops on a connector continues on the next line, even one that reads as a date
_UNFINISHED = re.compile(
    r"(?:\b(?:and|or|at|of|to|through|from|ended|ending|between|as\s+of)|[,;:\u2013\u2014-])$", re.I
)


def join_split_numbers(lines: list[str]) -> list[str]:
    """'394,' followed by '328' -> '394,328' (a number the extractor broke over two lines)."""
    out: list[str] = []
    for line in lines:
        if out and _SPLIT_NUMBER.search(out[-1]) and _NEXT_DIGITS.match(line):
            out[-1] = out[-1] + line
        else:
            out.append(line)
    return out


# a page the extraction printed a word a line ('Income' / 'Before' / 'Income' / 'Taxes 861' /
# '1,795' / '1,096'): most of its lines one word, the rest rows
_ONE_WORD = re.compile(r"[A-Za-z][A-Za-z&'\u2019.,-]*")
_WORD_FIGURES = re.compile(r"(?P<word>[A-Za-z][A-Za-z&'\u2019.,-]*)\s+[$(\d\u2014-]")
_ONE_FIGURE = re.compile(r"\$?\s*\(?\s*[\d,]+(?:\.\d+)?\s*\)?")
_WORD_A_LINE_SHARE = 0.35  # of a page's lines one word each: a page printed a word a line
_WORD_A_LINE_MIN = 20  # lines on such a page at least


def join_word_lines(lines: list[str]) -> list[str]:
    """A page printed a word a line, read back into rows: a run of one-word lines and the line
    that ends it with a word and a figure are one caption ('Income Before Income Taxes 861')
    when the last word goes on in lower case ('Total' / 'operating' / 'revenues 16,833') or the
    whole is a caption the catalogue knows; the figures printed one a line after it are that
    row's. A run followed by a row of its own ('Operating' / 'Revenues' over 'Electric $ 13,657'),
    or by rows of one word each ('Earnings' / 'per' / 'share' over 'Basic' and 'Diluted'), is a
    heading. Other pages are returned as they are."""
    words = sum(1 for ln in lines if _ONE_WORD.fullmatch(ln))
    if len(lines) < _WORD_A_LINE_MIN or words < _WORD_A_LINE_SHARE * len(lines):
        return lines
    from finqa.lexicon.statements.catalogue import item_for_label

    out: list[str] = []
    run: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _ONE_WORD.fullmatch(line):
            run.append(line)
            i += 1
            continue
        ends = _WORD_FIGURES.match(line)
        if run and ends is not None:
            word = ends.group("word")
            caption = " ".join([*run, word])
            if word[:1].islower() or (
                item_for_label(caption) is not None and not _sibling_after(lines, i + 1)
            ):
                row = " ".join([*run, line])
                i += 1
                while i < len(lines) and _ONE_FIGURE.fullmatch(lines[i]):
                    row += " " + lines[i]  # the row's next figures, one a line
                    i += 1
                out.append(row)
                run = []
                continue
        if run:
            out.append(" ".join(run))
            run = []
        out.append(line)
        i += 1
    if run:
        out.append(" ".join(run))
    return out


def _sibling_after(lines: list[str], at: int) -> bool:
    """The row after the one starting at `at - 1` (past its figures printed one a line) is
    again one word and its figures: the run above both is their heading ('Earnings per
    share' over 'Basic $ 3.39' and 'Diluted $ 3.35'), not the start of one caption."""
    while at < len(lines) and _ONE_FIGURE.fullmatch(lines[at]):
        at += 1
    return at < len(lines) and _WORD_FIGURES.match(lines[at]) is not None


# a page's folio: a bare page number on the page's last line
_FOLIO = re.compile(r"\d{1,3}")


def without_folio(lines: list[str]) -> list[str]:
    """The page's lines without its folio: a last line holding only a page number ('91') after
    a row printed whole on its line (a caption and two figures or more) is the page's number,
    not a figure of that row (read as one, it turns the row's figures into its caption: a
    segment table's 'Total $ 89,950 $ 85,320' lost). Where the extraction prints one cell a
    line ('Basic' / '975' / '980'), the last line is the row's last figure and is kept."""
    if len(lines) >= 2 and _FOLIO.fullmatch(lines[-1]) and len(split_row(lines[-2])[1]) >= 2:
        return lines[:-1]
    return lines


# words a caption never ends on: the line below goes on with it ('Net income attributable to' /
# 'MGM Resorts International'). Only 'to': a heading ends on 'for', 'of' or 'and' without a
# colon ('Cash paid during the year for' over 'Interest' and 'Income taxes', 'Property, plant
# and' in a flowed table), and its rows are rows of their own (checked over the 344 filings)
_JOINING = frozenset({"to"})
# the last word of a company's name printed a word a line ('MGM' / 'Resorts' / 'International')
_NAME_ENDS = LEGAL_SUFFIXES | {
    "companies", "international", "holdings", "group", "shareholders", "stockholders"
}  # fmt: skip
_NAME_RUN = 3  # words of a name printed a word a line, before its last


# a row deducted from the lines above it ('Less: Promotional allowances', 'Less returns'): the
# figures-only line after it is the net of the block, named by its heading ('Revenues' -> 'Net
# revenues') where the heading is one plain noun
_DEDUCTION = re.compile(r"^\s*less\b", re.I)
_HEADING_NOUN = re.compile(r"[A-Z][a-z]+")


def _name_open(parts: list[str], label: str) -> bool:
    """The caption so far ends on a joining word ('attributable to'), or on a name begun after
    one and printed a word a line that has not reached its last word ('to' / 'MGM' / 'Resorts',
    then 'International'): the line `label` goes on with it."""
    words = " ".join(parts).split()
    if not words:
        return False
    if words[-1].lower() in _JOINING:
        return True
    if len(label.split()) != 1:
        return False
    run = 0
    for word in reversed(words):
        if run < _NAME_RUN and word[:1].isupper() and word.lower().strip(".,") not in _NAME_ENDS:
            run += 1
            continue
        break
    return 0 < run < len(words) and words[-1 - run].lower() in _JOINING


def _unclosed(label: str) -> bool:
    """A caption that opens a parenthesis it does not close: it goes on on the next line."""
    return label.count("(") > label.count(")")


# the words a caption names its own figures after ('net of allowances of $845 and $882'): a
# figure right after them is the caption's, not a cell of the row
_CAPTION_FIGURE = re.compile(r"\b(?:of|and)\s*$", re.I)


def split_row(line: str) -> tuple[str, list[str]]:
    """(label, trailing cell texts) of one line; numbers inside the label stay label.

    Cells are read by `finqa.lexicon.numbers.extract_quantities`; a lone dash is a cell
    ('—' = nil). Years, dates and note references end the run of cells.
    """
    label, cells, _spans = split_row_at(line)
    return label, cells


def split_row_at(line: str) -> tuple[str, list[str], list[tuple[int, int]]]:
    """`split_row`, with each cell's (start, end) in `line` (a nil dash: the dash as printed)."""
    s = line.rstrip(_TAIL_JUNK)
    qs = extract_quantities(s)
    cells: list[str] = []
    spans: list[tuple[int, int]] = []
    end = len(s)
    while True:
        end = len(s[:end].rstrip(_TAIL_JUNK))
        if end == 0:
            break
        cut = s.rfind(" ", 0, end)
        if not cells and s[cut + 1 : end].lower() in NOT_MEANINGFUL:
            # a change column's 'n/m' (not meaningful) closing the row: a cell of its own,
            # which only a change column reads (`build._change_cells`)
            cells.append(s[cut + 1 : end])
            spans.append((cut + 1, end))
            end = max(cut, 0)
            continue
        if s[cut + 1 : end].strip("$") in DASHES:
            cells.append("\u2014")
            spans.append(
                (cut + 1 + (len(s[cut + 1 : end]) - len(s[cut + 1 : end].lstrip("$"))), end)
            )
            end = max(cut, 0)
            continue
        q = None
        for cand in reversed(qs):
            if cand.end <= end:
                if not s[cand.end : end].strip(" %)"):
                    q = cand
                break
        start = q.start if q is not None else 0
        if q is not None and re.fullmatch(
            r"(?:[A-Z]\.?)+\s+\$", s[start : s.find("$", start, end) + 1]
        ):
            start = s.find("$", start, end)  # 'U.S. $ 9,588.4': the place is the caption's
        if q is None or q.kind != "number" or any(ch.isalpha() for ch in s[start:end]):
            break  # a cell holds no words ('186,880,413 shares' is label text)
        if cells and _CAPTION_FIGURE.search(s[:start]):
            break  # 'net of allowances of $845 and $882 17,513 13,457': the caption's figures
        text = s[start:end]
        lead = len(text) - len(text.lstrip())
        cells.append(text.strip())
        spans.append((start + lead, start + lead + len(text.strip())))
        end = start
    cells.reverse()
    spans.reverse()
    while cells and s[:end].count("(") > s[:end].count(")") and cells[0].endswith(")"):
        if "(" in cells[0]:
            break
        cell = cells.pop(0)  # '(Note 11 and 14)': the reference closes, no cell '14)'
        spans.pop(0)
        end = s.index(cell, end) + len(cell)
    label = s[:end].strip(" $:\u00a0")
    return label, cells, spans


_GLUED_MARK = re.compile(r"\(\d\)")  # a footnote mark: '(2)'


def split_cells(line: str) -> tuple[str, list[str], list[tuple[int, int]]]:
    """`split_row_at` for a line of any table: a footnote mark glued to the caption
    ('Restructuring charges(2)') is caption, no cell. (Statement pages are still read by
    `split_row_at` alone, so the statement model stays as built.)"""
    label, cells, spans = split_row_at(line)
    if cells and _GLUED_MARK.fullmatch(cells[0]) and line[spans[0][0] - 1 : spans[0][0]].isalpha():
        return line[: spans[0][1]].strip(" $:\u00a0"), cells[1:], spans[1:]
    return label, cells, spans


# one cell of a flowed row: '2,936', '(34)', '$5,494', '9.94', '12%', or a nil dash; never a
# token that runs on ('$86,' of 'allowances of $82 and $86, respectively')
_CELL_TOKEN = re.compile(r"^\$?\(?\$?\d[\d,]*(?:\.\d+)?\)?%?$")


def _is_cell_token(tok: str) -> bool:
    return tok.strip("$") in DASHES or bool(_CELL_TOKEN.match(tok) and not tok.endswith(","))


def unglue_rows(line: str, ncols: int) -> list[str]:
    """A line holding several rows of an `ncols`-column table, one per row: cut after every run
    of at least `ncols` cells that a capitalised word follows ('Cash $ 2,936 $ 5,494 Receivables,
    net 1,042 1,061' -> two rows; cells before the last `ncols` are the label's). A shorter run
    ('$1.00 par value'), one a lower-case word continues ('- $48 and $47'), a lone dash ('Note
    18 — Acquisitions') and figures inside a parenthesis that opens with a word ('(Note 8, 11
    and 15)') are label text and stay."""
    if ncols < 1:
        return [line]
    out: list[str] = []
    piece: list[str] = []
    run = words = depth = figures = 0
    prev = ""
    for tok in line.split():
        if tok == "$":
            piece.append(tok)
            continue
        note = prev.lower() in ("note", "notes")  # 'Note 18': a reference, no cell
        prev = tok
        if depth == 0 and not note and _is_cell_token(tok):
            run += 1
            figures += tok.strip("$") not in DASHES
        else:
            # a lone dash before a capitalised word is punctuation ('Note 18 — Acquisitions')
            if run >= ncols and words and tok[:1].isupper() and (figures or run >= 2):
                out.append(" ".join(piece))
                piece, words = [], 0
            run = figures = 0
            words += 1
            depth = max(0, depth + tok.count("(") - tok.count(")"))
        piece.append(tok)
    if piece:
        out.append(" ".join(piece))
    return out


def _columns(header_lines: list[str], kind: StatementKind) -> int:
    info = read_header(header_lines, kind) if header_lines else None
    return len(info.periods) if info else 0


def _is_caption(text: str) -> bool:
    """Text a glued header may follow: the statement's title or its scale note ('$ and shares
    in millions, except per share amounts'), never a sentence."""
    return bool(detect_scale(text) or classify_statement(text))


def header_prefix(line: str, kind: StatementKind) -> tuple[str, str, str] | None:
    """(caption, header, rest) of a line a period header runs into: 'year Ended December 31,
    2019 2018 2017 Net income $ 2,214 $ 583 $ 2,088' -> ('', 'year Ended December 31, 2019
    2018 2017', 'Net income ...'). The rest opens with a word and is rows of as many cells as
    the header has columns (or a heading or label without figures); the header names two
    columns or more and what stands before it is a title or a scale note; None otherwise."""
    found = find_periods(line)
    if not found or len(line) < 8:
        return None
    starts = [0] + [m.end() for m in re.finditer(r"\s+", line[: found[0].start + 1])]
    for p in sorted(found, key=lambda m: -m.end):
        if p.end > 240:  # a header opens the line and is short (`is_header_line`)
            continue
        end = p.end
        while end < len(line) and line[end] in ",)":
            end += 1
        rest = line[end:].strip()
        if not rest[:1].isalpha():
            continue
        for s in starts:
            if s > p.start:
                break
            head = line[s:end].strip()
            if not is_header_line(head):
                continue
            ncols = _columns([head], kind)
            caption = line[:s].strip()
            if ncols < 2 or (caption and not _is_caption(caption)):
                continue  # one year in a sentence ('bonds maturing in 2038 for ...')
            split = [split_row(piece) for piece in unglue_rows(rest, ncols)]
            if split and split[0][0] and not _is_label(split[0][0]):
                return None  # prose runs on after the date ('the 2015 Merger, we revised ...')
            rows = sum(1 for _, cells in split if len(cells) == ncols)
            heading = (  # a heading, or a caption that wraps on ('... attributable to ... and')
                rest[:1].isupper()
                and (len(rest) <= 60 or bool(_UNFINISHED.search(rest)))
                and not re.search(r"\d|\.\s", rest)
            )
            if ncols and (rows or heading):
                return caption, head, rest
            break
    return None


def _is_label(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", text)) and len(text) <= _MAX_LABEL


def read_text_page(
    text: str, page: int, *, kind: StatementKind | None = None, title: str = ""
) -> list[RawTable]:
    """Raw statement tables on one page of text; [] when the page holds no statement.

    Each table keeps, per row, where its caption and cells sit in `text` (`RawTable.at`)."""
    return _read(text, page, kind, title, other=False)


def read_text_block(text: str) -> list[RawTable]:
    """Every table of a block of text, a statement's or not (an MD&A or note table, `other`
    when no statement title names it), each row with its caption's and cells' offsets."""
    return _read(text, 0, None, "", other=True)


def _read(
    text: str, page: int, kind: StatementKind | None, title: str, *, other: bool
) -> list[RawTable]:
    lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n")]
    lines = join_split_numbers([_DATE_COMMA.sub(r"\1, \2", ln) for ln in lines if ln and ln != "$"])
    lines = without_folio(lines)
    if kind is None:
        kind, title = statement_of_page(lines)
    if kind is None and not other:
        return []
    kind = kind or "other"
    lines = join_word_lines(lines)
    at = next((i for i, ln in enumerate(lines) if ln == title), 0)
    # a title below the page head (a release's statement after its prose): its lines are the
    # table's context (scale note), not the prose above
    scan = _PageScan(page, kind, title, lines[at : at + 12] if at >= 8 else lines[:12])
    scan.cursor = Cursor(text)
    scan.block = other
    for line in lines:
        t_kind = title_kind(line) if len(line) < 120 else None
        if (
            t_kind is not None
            and (scan.current.rows or scan.label_parts)
            and (line != title or scan.current.header_lines)
        ):  # a new title after rows starts a table (the page's own title after another's rows)
            scan.cursor.place(line)
            scan.new_table(t_kind, line, [line])
            continue
        if t_kind is not None and scan.block and not scan.current.rows:
            # a block's title before any row names the table read under it (one the page head
            # did not name: several titles read as an index); a date read above it (a
            # sentence's 'ended December 31, 2023') is no column of it
            scan.current.kind, scan.current.title = t_kind, line
            scan.current.header_lines.clear()
            scan.current.columns.clear()
        if is_header_line(line) or _day_of_header(line, scan):
            scan.header(line)
        else:
            # a header opens a table: after figures, a date on a line ('Balances as of ...',
            # a running foot 'Apple Inc. | 2016 Form 10-K | 42') is a caption, not a header
            figures = any(cells for _, cells in scan.current.rows) or scan.cells
            glued = None if figures else header_prefix(line, scan.current.kind)
            if glued:
                caption, head, line = glued
                if caption:
                    scan.row(caption)
                if not scan.current.header_lines and len(scan.context) < 16:
                    scan.context.append(caption)
                scan.header(head)
            for piece in unglue_rows(line, scan.columns()):
                scan.row(piece)
            if not scan.current.header_lines and len(scan.context) < 16:
                scan.context.append(line)
    scan.finish()
    return scan.tables


# 'Three Months Ended April' then '30,' on a line of its own (an extraction that broke the
# date): the day belongs to the header, before any row
_DAY_ONLY = re.compile(r"\s*[0-3]?\d,?\s*")
_ENDS_MONTH = re.compile(
    r"\b(?:" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?\s*$", re.I
)


def _day_of_header(line: str, scan: _PageScan) -> bool:
    head = scan.current.header_lines
    return (
        bool(head)
        and not scan.current.rows
        and _DAY_ONLY.fullmatch(line) is not None
        and _ENDS_MONTH.search(head[-1]) is not None
    )


Span = tuple[int, int]
_NOT_MEANINGFUL = re.compile(r"N/?M|n/a", re.I)
_FOOTNOTE = re.compile(r"\([a-z]\)|\*+")
# a column of changes between the periods: 'Change', '% Change', 'Increase (Decrease)', '%'
CHANGE_COLUMN = re.compile(
    r"(?:%|\$)?\s*(?:change|increase|decrease|variance|increase\s*\(decrease\)|"
    r"increase/\(decrease\)|%)(?:\s*%)?",
    re.I,
)


class _PageScan:
    """The state of `read_text_page`: the table being read, its current row and the tables done."""

    def __init__(self, page: int, kind: StatementKind, title: str, context: list[str]) -> None:
        self.page = page
        self.tables: list[RawTable] = []
        self.context = context
        self.current = self._table(kind, title)
        self.label_parts: list[str] = []
        self.cells: list[str] = []
        self.inline_line = ""  # the label's own line when it ended in number-like text
        self.heading = ""
        self._columns = (0, 0)  # (header lines counted, columns they name)
        self.cursor = Cursor("")
        self.block = False  # reading any block of text (`read_text_block`), not a statement page
        self.label_span: Span | None = None  # where the caption read so far sits in the text
        self.cell_spans: list[Span | None] = []

    def _table(self, kind: StatementKind, title: str) -> RawTable:
        return RawTable(
            page=self.page, kind=kind, title=title, header_lines=[], rows=[], pages=(self.page,)
        )

    def columns(self) -> int:
        """The number of value columns the current table's header names (0 before a header)."""
        key = len(self.current.header_lines)
        if key != self._columns[0]:
            self._columns = (key, _columns(self.current.header_lines, self.current.kind))
        return self._columns[1]

    def flush_row(self) -> None:
        if self.label_parts:
            self.current.rows.append((" ".join(self.label_parts), list(self.cells)))
            self.current.headings.append(self.heading)
            self.current.at.append(RowAt(self.label_span, tuple(self.cell_spans)))
        self.label_parts, self.cells = [], []
        self.label_span, self.cell_spans = None, []

    def _label_to(self, pos: list[int] | None, end: int, start: int | None = None) -> None:
        """The caption now runs from `start` (a new caption) or its old start to `end` of the
        line placed at `pos`."""
        if pos is None or end <= 0:
            self.label_span = None if start is not None else self.label_span
            return
        at = pos[start] if start is not None else None
        if at is None:
            at = self.label_span[0] if self.label_span else None
        self.label_span = None if at is None else (at, pos[end - 1] + 1)

    def _spans(self, pos: list[int] | None, spans: list[tuple[int, int]]) -> list[Span | None]:
        return [None if pos is None else (pos[s], pos[e - 1] + 1) for s, e in spans]

    def finish(self) -> None:
        self.flush_row()
        if self.current.rows:
            self.current.context = "\n".join(self.context)
            self.tables.append(self.current)

    def new_table(self, kind: StatementKind, title: str, context: list[str]) -> None:
        self.finish()
        self.current = self._table(kind, title)
        self.context = context
        self.heading = ""

    def header(self, line: str) -> None:
        """A column header line: the first starts the table; a later one after figures starts
        another, unless it ends a caption cut after a connector ('... outstanding at December
        31, 2021 and' / 'December 31, 2020')."""
        pos = self.cursor.place(line)
        unfinished = self.label_parts and _UNFINISHED.search(self.label_parts[-1])
        if self.current.header_lines and unfinished and not self.cells:
            self.label_parts.append(line)
            self._label_to(pos, len(line))
            return
        if not self.current.header_lines and self.block and any(c for _, c in self.current.rows):
            # a block's rows before its header are a table of their own (an extraction that
            # prints the header below the rows), not furniture
            self.new_table(self.current.kind, self.current.title, self.context[:12])
        if not self.current.header_lines:  # rows above the first header are page furniture
            self.current.rows.clear()
            self.current.headings.clear()
            self.current.at.clear()
            self.label_parts, self.cells = [], []
            self.label_span, self.cell_spans = None, []
        elif (
            any(c for _, c in self.current.rows) or self.cells or (self.block and self.current.rows)
        ):
            # a block's header after captions or prose heads a table of its own
            self.new_table(self.current.kind, self.current.title, self.context[:12])
        elif self.label_parts and not self.cells:
            self._change_column()
            self.label_parts = []  # a column caption above the years, not a line item
            self.label_span = None
        self.current.header_lines.append(line)
        self.current.columns.append(line)

    def _change_column(self) -> None:
        """A caption between or after the header's years that names a change column ('Change',
        '% Change'): kept among the header's column captions (it takes a column of figures)."""
        caption = " ".join(self.label_parts)
        figures = any(c for _, c in self.current.rows)
        if self.current.header_lines and not figures and CHANGE_COLUMN.fullmatch(caption):
            self.current.columns.append(caption)

    def _total_row(
        self, start: int, found: list[str], pos: list[int] | None, spans: list[tuple[int, int]]
    ) -> None:
        """The uncaptioned total of the rows from `start` on: named by the section heading the
        first of them carries glued to its caption ('Revenues Casino' -> 'Casino', the total
        'Total revenues'), else left uncaptioned (as a figures-only line is in a block of
        text)."""
        rows = self.current.rows
        glued = glued_heading(rows[start][0])
        if glued is not None:
            head, rest = glued
            rows[start] = (rest, rows[start][1])
            name = f"Total {head.lower()}"
        else:
            name = ""
        self._figures_row(name, found, pos, spans)

    def _figures_row(
        self, name: str, found: list[str], pos: list[int] | None, spans: list[tuple[int, int]]
    ) -> None:
        """A line of figures with no caption of its own: a row named `name` ('' unnamed)."""
        self.current.rows.append((name, list(found)))
        self.current.headings.append(self.heading)
        self.current.at.append(RowAt(None, tuple(self._spans(pos, spans))))
        self.inline_line = ""

    def row(self, line: str) -> None:
        """A label with its cells, a wrapped label, more cells, or an uncaptioned total."""
        pos = self.cursor.place(line)
        if self.block and _NOT_MEANINGFUL.fullmatch(line):
            if self.label_parts and self.cells and pos is not None:  # 'NM': a cell with no figure
                self.cells.append(line)
                self.cell_spans.append((pos[0], pos[-1] + 1))
            return
        if self.block and _FOOTNOTE.fullmatch(line):
            return  # '(a)' on a line of its own: a footnote mark, no caption
        label, found, spans = split_cells(line) if self.block else split_row_at(line)
        if label and not _is_label(label) and re.search(r"[A-Za-z]", label):
            self.flush_row()  # prose, or rows run together past reading: no figures of a row
            return
        lead = len(line) - len(line.lstrip(" $:\u00a0"))
        if label and _is_label(label):
            if self.cells:
                self.flush_row()
                self.label_parts = [label]
                self._label_to(pos, lead + len(label), lead)
            elif self.label_parts and (
                label[:1].islower()
                or label[:1] == "("
                or _unclosed(self.label_parts[-1])
                or _name_open(self.label_parts, label)
            ):
                # a wrapped label continues, also after a parenthesis it leaves open
                # ('Adjusted earnings before interest and taxes ("Adjusted' / 'EBIT")') and
                # after a word a caption never ends on ('attributable to' / 'MGM Resorts')
                self.label_parts.append(label)
                self._label_to(pos, lead + len(label))
            else:
                if self.label_parts:
                    self._change_column()
                    self.heading = " ".join(self.label_parts)
                    self.current.rows.append((self.heading, []))
                    self.current.headings.append("")
                    self.current.at.append(RowAt(self.label_span, ()))
                self.label_parts = [label]
                self._label_to(pos, lead + len(label), lead)
            self.cells = list(found)
            self.cell_spans = self._spans(pos, spans)
            self.inline_line = line.rstrip(" $") if found else ""
        elif found and self.label_parts:
            if (
                self.inline_line
                and self.block
                and len(self.cells) == len(found) == self.columns() >= 2
                and not any(_GLUED_MARK.fullmatch(c) for c in self.cells)  # '(1)': a mark
            ):
                self.flush_row()  # a row complete on its line, then a row without a caption
                self._figures_row("", found, pos, spans)
                return
            start = (
                _run_totalled(self.current.rows, self.cells, found, self.columns())
                if self.inline_line and not self.block
                else None
            )
            if start is not None:
                # a row complete on its line, then the total of the run of rows it ends: an
                # uncaptioned total, never the figures of that row's caption
                self.flush_row()
                self._total_row(start, found, pos, spans)
                return
            if (
                self.inline_line
                and _DEDUCTION.match(" ".join(self.label_parts))
                and len(self.cells) == len(found) == self.columns() >= 2
            ):
                # 'Less: Promotional allowances (793,571) ...' complete on its line, then the
                # figures of the net line it closes: a row of its own, never the caption's
                self.flush_row()
                net = _HEADING_NOUN.fullmatch(self.heading)
                self._figures_row(f"Net {self.heading.lower()}" if net else "", found, pos, spans)
                return
            if (
                self.inline_line
            ):  # numbers on the label's line were part of the label ('$40 and $42')
                self.label_parts[-1] = self.inline_line
                self.cells, self.inline_line = [], ""
                last = self.cell_spans[-1] if self.cell_spans else None
                self.label_span = (
                    (self.label_span[0], last[1]) if self.label_span and last else None
                )
                self.cell_spans = []
            self.cells.extend(found)
            self.cell_spans.extend(self._spans(pos, spans))
        elif found and not self.label_parts and self.heading:
            self.label_parts, self.cells = (
                [f"Total {self.heading}"],
                list(found),
            )  # an uncaptioned total
            self.label_span, self.cell_spans = None, self._spans(pos, spans)


_SUM_TOLERANCE = 1.0  # one unit of the printed figures: each is rounded


def _run_totalled(
    rows: list[tuple[str, list[str]]], pending: list[str], found: list[str], ncols: int
) -> int | None:
    """The first row of the run of captioned rows, ending with the row being read (its cells
    `pending`), whose sum is `found` in every column: the index it will have once flushed;
    None when no run of two rows or more sums to it."""
    if ncols < 2 or len(pending) != ncols or len(found) != ncols:
        return None
    total = cell_values(found)
    if total is None:
        return None
    acc = cell_values(pending)
    if acc is None:
        return None
    for i in range(len(rows) - 1, -1, -1):
        label, cells = rows[i]
        values = cell_values(cells) if label and len(cells) == ncols else None
        if values is None:
            return None
        acc = [a + v for a, v in zip(acc, values, strict=True)]
        tolerance = _SUM_TOLERANCE * (len(rows) - i + 1)
        if all(abs(a - t) <= tolerance for a, t in zip(acc, total, strict=True)) and any(total):
            return i
    return None


def glued_heading(label: str) -> tuple[str, str] | None:
    """A section heading glued to the caption of the first row under it ('Revenues Casino',
    'Expenses Casino'): the heading (a statement line of its own in the catalogue) and the
    caption; None when the label opens with no such heading or is the heading alone."""
    from finqa.lexicon.statements.catalogue import item_for_label

    words = label.split()
    for n in range(min(3, len(words) - 1), 0, -1):
        head = " ".join(words[:n])
        if head[:1].isupper() and words[n][:1].isupper() and item_for_label(head) is not None:
            return head, " ".join(words[n:])
    return None
