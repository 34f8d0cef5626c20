"""The PDF reader: PyMuPDF `Page.find_tables()` grids -> raw statement tables.

The grid keeps column positions, so a blank cell stays blank (the text reader cannot
tell which column an isolated number belongs to). Value columns are the grid columns
that hold numbers in most numeric rows; '$' columns and spacer columns are dropped.
Cells such as '1671\\n,' (the comma glyph placed after the digits) are re-joined before
`finqa.lexicon.numbers` reads them.
"""

from __future__ import annotations

from typing import Any

from finqa.lexicon.model import StatementKind
from finqa.lexicon.statements.header import is_header_line
from finqa.lexicon.statements.raw import DASHES, RawTable, read_cell

__all__ = ["raw_tables_from_page", "clean_cell"]


def clean_cell(text: str | None) -> str:
    """One grid cell as a single line: '1671\\n,' -> '1671', 'Goodwill net\\n,' -> 'Goodwill net'."""
    if not text:
        return ""
    parts = [p.strip() for p in text.split("\n")]
    joined = " ".join(p for p in parts if p and p != ",")
    return joined.strip(" ,") if joined.endswith(",") else joined


def _is_value(cell: str) -> bool:
    return bool(cell) and cell not in ("$", "%") and read_cell(cell) is not None


def _grid_to_raw(
    rows: list[list[str]], page: int, kind: StatementKind, title: str
) -> RawTable | None:
    if not rows:
        return None
    width = max(len(r) for r in rows)
    grid = [r + [""] * (width - len(r)) for r in rows]

    def numeric(r: list[str]) -> list[int]:
        return [c for c in range(1, width) if _is_value(r[c]) and r[c] not in DASHES]

    numeric_rows = [r for r in grid if numeric(r) and any(ch.isalpha() for ch in " ".join(r[:2]))]
    if not numeric_rows:
        return None
    counts = [0] * width
    for r in numeric_rows:
        for c in numeric(r):
            counts[c] += 1
    value_cols = [c for c in range(1, width) if counts[c] >= max(2, len(numeric_rows) * 0.3)]
    if not value_cols:
        return None
    header_lines: list[str] = []
    raw = RawTable(
        page=page,
        kind=kind,
        title=title,
        header_lines=header_lines,
        rows=[],
        source="pdf",
        pages=(page,),
    )
    started = False
    heading = ""
    for r in grid:
        label = next(
            (r[c] for c in range(width) if c not in value_cols and r[c] and r[c] != "$"), ""
        )
        cells = [r[c] if r[c] not in ("$",) else "" for c in value_cols]
        has_values = any(_is_value(c) for c in cells)
        line = " ".join(x for x in r if x)
        if not started and not has_values:
            if line and is_header_line(line):
                header_lines.append(line)
            elif line:
                raw.context += line + "\n"
            continue
        if not has_values and not started:
            continue
        if has_values and not any(ch.isalpha() for ch in label) and is_header_line(line):
            header_lines.append(line)  # a row of years
            continue
        if has_values:
            started = True
            raw.rows.append((label, cells))
            raw.headings.append(heading)
        elif label:
            heading = label
            raw.rows.append((label, []))
            raw.headings.append("")
    return raw if raw.rows else None


def raw_tables_from_page(
    page_obj: Any, page: int, *, kind: StatementKind, title: str
) -> list[RawTable]:
    """Raw tables of one PDF page found by `find_tables()` (default 'lines' strategy)."""
    found = page_obj.find_tables()
    text = page_obj.get_text()
    head = "\n".join(ln for ln in text.split("\n")[:15])
    out: list[RawTable] = []
    for table in found.tables:
        rows = [[clean_cell(c) for c in row] for row in table.extract()]
        raw = _grid_to_raw(rows, page, kind, title)
        if raw is not None:
            raw.context = head + "\n" + raw.context
            out.append(raw)
    return out
