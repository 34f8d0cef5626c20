"""The text reader: statement tables out of page text (JSONL pages, PDF text without a grid).

A statement page extracted as text is a title, a period header ('2022 2021', or 'Year Ended
December 31,' over the years), then rows: a label followed by one number per column, on
the same line ('Net sales 1,200 1,000') or on the following lines ('Net sales' / '$' /
'1,200 $' / '1,000'). Numbers split across lines ('394,' / '328') are joined first. Labels
that wrap continue on a line starting in lower case. A new title or a new header block
after rows starts a new table (a page that is half one statement and half another, or
half prose: prose lines carry no trailing cells and are never rows).
"""

from __future__ import annotations

import re

from finqa.lexicon.model import StatementKind
from finqa.lexicon.numbers import extract_quantities
from finqa.lexicon.statements.classify import statement_of_page, title_kind
from finqa.lexicon.statements.header import is_header_line
from finqa.lexicon.statements.raw import DASHES, RawTable

__all__ = ["split_row", "read_text_page", "join_split_numbers"]

_SPLIT_NUMBER = re.compile(r"(?:^|[\s$(])\d{1,3}(?:,\d{3})*,$")
_NEXT_DIGITS = re.compile(r"^\d{3}(?:[,.)\s]|$)")
_TAIL_JUNK = " $\u00a0*"
_MAX_LABEL = 160


def join_split_numbers(lines: list[str]) -> list[str]:
    """'394,' followed by '328' -> '394,328' (a number the extractor broke over two lines)."""
    out: list[str] = []
    for line in lines:
        if out and _SPLIT_NUMBER.search(out[-1]) and _NEXT_DIGITS.match(line):
            out[-1] = out[-1] + line
        else:
            out.append(line)
    return out


def split_row(line: str) -> tuple[str, list[str]]:
    """(label, trailing cell texts) of one line; numbers inside the label stay label.

    Cells are read by `finqa.lexicon.numbers.extract_quantities`; a lone dash is a cell
    ('—' = nil). Years, dates and note references end the run of cells.
    """
    s = line.rstrip(_TAIL_JUNK)
    qs = extract_quantities(s)
    cells: list[str] = []
    end = len(s)
    while True:
        end = len(s[:end].rstrip(_TAIL_JUNK))
        if end == 0:
            break
        cut = s.rfind(" ", 0, end)
        if s[cut + 1 : end].strip("$") in DASHES:
            cells.append("\u2014")
            end = max(cut, 0)
            continue
        q = None
        for cand in reversed(qs):
            if cand.end <= end:
                if not s[cand.end : end].strip(" %)"):
                    q = cand
                break
        if q is None or q.kind != "number" or any(ch.isalpha() for ch in s[q.start : end]):
            break  # a cell holds no words ('186,880,413 shares' is label text)
        cells.append(s[q.start : end].strip())
        end = q.start
    label = s[:end].strip(" $:\u00a0")
    cells.reverse()
    return label, cells


def _is_label(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", text)) and len(text) <= _MAX_LABEL


def read_text_page(
    text: str, page: int, *, kind: StatementKind | None = None, title: str = ""
) -> list[RawTable]:
    """Raw statement tables on one page of text; [] when the page holds no statement."""
    lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n")]
    lines = join_split_numbers([ln for ln in lines if ln and ln != "$"])
    if kind is None:
        kind, title = statement_of_page(lines)
    if kind is None:
        return []
    tables: list[RawTable] = []
    context: list[str] = lines[:12]
    current = RawTable(page=page, kind=kind, title=title, header_lines=[], rows=[], pages=(page,))
    label_parts: list[str] = []
    cells: list[str] = []
    inline_line = ""  # the label's own line when it ended in number-like text
    heading = ""

    def flush_row() -> None:
        nonlocal label_parts, cells
        if label_parts:
            current.rows.append((" ".join(label_parts), list(cells)))
            current.headings.append(heading)
        label_parts, cells = [], []

    def finish() -> None:
        nonlocal current
        flush_row()
        if current.rows:
            current.context = "\n".join(context)
            tables.append(current)

    for line in lines:
        t_kind = title_kind(line) if len(line) < 120 else None
        if t_kind is not None and (current.rows or label_parts) and line != title:
            finish()
            current = RawTable(
                page=page, kind=t_kind, title=line, header_lines=[], rows=[], pages=(page,)
            )
            context = [line]
            heading = ""
            continue
        if is_header_line(line):
            if not current.header_lines:  # rows above the first header are page furniture
                current.rows.clear()
                current.headings.clear()
                label_parts, cells = [], []
            elif any(c for _, c in current.rows) or cells:
                finish()
                current = RawTable(
                    page=page,
                    kind=current.kind,
                    title=current.title,
                    header_lines=[],
                    rows=[],
                    pages=(page,),
                )
                context = context[:12]
                heading = ""
            elif label_parts and not cells:
                label_parts = []  # a column caption above the years, not a line item
            current.header_lines.append(line)
            continue
        label, found = split_row(line)
        if label and _is_label(label):
            if cells:
                flush_row()
                label_parts = [label]
            elif label_parts and (label[:1].islower() or label[:1] == "("):
                label_parts.append(label)  # a wrapped label continues
            else:
                if label_parts:
                    heading = " ".join(label_parts)
                    current.rows.append((heading, []))
                    current.headings.append("")
                label_parts = [label]
            cells = list(found)
            inline_line = line.rstrip(" $") if found else ""
        elif found and label_parts:
            if inline_line:  # numbers on the label's line were part of the label ('$40 and $42')
                label_parts[-1] = inline_line
                cells, inline_line = [], ""
            cells.extend(found)
        elif found and not label_parts and heading:
            label_parts, cells = [f"Total {heading}"], list(found)  # an uncaptioned total
        if not current.header_lines and len(context) < 16:
            context.append(line)
    finish()
    return tables
