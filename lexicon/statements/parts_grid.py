"""A segment note's grid read straight into rows named by parts, where no statement table was
typed from it (percent columns between the periods, a total row without a caption).

The grid's own layout says what each cell is, so nothing here depends on one filing:

- header rows (every cell a period, a scale or a ratio caption) give the periods
  (`header.read_header`);
- a value column is a percentage column when any of its cells prints a '%' sign ('48%'
  over '29', '17'); the other columns are the periods' amounts, one per period, in order;
  a grid whose amount columns are not one per period is left alone;
- a row of figures with no caption is kept with an empty label: whether it is the table's
  total is for `parts.part_tables` to say, by arithmetic (it equals the sum of the rows
  above it) and the line item the table's caption names.

`grid_part_tables` returns the 'segment' tables `parts.part_tables` reads from those grids.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = ["grid_part_tables", "grid_table", "caption_above"]

_PCT = re.compile(r"%\s*\)?\s*$")


def _is_value(cell: str) -> bool:
    from finqa.lexicon.statements.raw import read_cell

    s = cell.strip()
    return bool(s) and not re.search(r"[A-Za-z]", s) and read_cell(s) is not None


def _header_cell(cell: str) -> bool:
    from finqa.lexicon.numbers import detect_scale
    from finqa.lexicon.statements.grid import is_ratio_caption
    from finqa.lexicon.statements.header import is_header_line

    return is_header_line(cell) or is_ratio_caption(cell) or detect_scale(cell) is not None


def caption_above(text: str, first_label: str) -> str:
    """The lines right above the grid in the page text (its caption: 'Revenues by
    geographical region consisted of the following (in millions):'), up to three."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for i, line in enumerate(lines):
        if first_label and line.startswith(first_label):
            above = [ln for ln in lines[max(0, i - 6) : i] if not _is_value(ln.split()[-1])]
            return " ".join(above[-3:])
    return ""


def grid_table(
    doc_id: str,
    page: int,
    n: int,
    rows: Sequence[Sequence[str]],
    text: str,
    company: str | None = None,
    fallback_scale: float | None = None,
) -> StatementTable | None:
    """One grid as a statement table of amounts by period (see the module doc), None when its
    header names no periods, its amount columns are not one per period, or no scale is
    stated (in its header, its caption or its page; else `fallback_scale`, the one scale of
    the tables typed on its page)."""
    from finqa.lexicon.numbers import detect_scale
    from finqa.lexicon.statements.header import read_header
    from finqa.lexicon.statements.raw import read_cell

    cells = [[c.strip() for c in r if c and c.strip()] for r in rows]
    cells = [r for r in cells if r]
    head: list[str] = []
    body: list[list[str]] = []
    for line in cells:
        if not body and all(_header_cell(c) for c in line):
            head.append(" ".join(c for c in line if not _ratio(c)))
        elif head:
            body.append(line)
    if not head or not body:
        return None
    info = read_header(head, "segment", company)
    if info is None:
        return None
    periods = info.periods
    split = [_split(r) for r in body]
    widths = Counter(len(v) for _, v in split if v)
    if not widths:
        return None
    width = widths.most_common(1)[0][0]
    pct = {
        j for _, v in split if len(v) == width for j, c in enumerate(v) if _PCT.search(c)
    }  # fmt: skip
    amount_cols = [j for j in range(width) if j not in pct]
    if len(amount_cols) != len(periods):
        return None
    first = next((lab for lab, v in split if lab), "")
    caption = caption_above(text, first)
    scale = detect_scale(" ".join(head)) or detect_scale(caption) or detect_scale(text)
    scale = scale or fallback_scale
    if scale is None:
        return None
    table_id = f"p{page}-g{n}"
    labels: list[str] = []
    facts: list[StatementFact] = []
    for r, (label, values) in enumerate(split):
        labels.append(label)
        if not values or len(values) != width:
            continue
        amounts = [
            (j, got)
            for j in amount_cols
            if (got := read_cell(values[j])) is not None and got[2] in ("", "$", "USD")
        ]
        if len(amounts) != len(amount_cols):
            continue  # a row of other units (a share, a count) is no amount
        for c, (j, got) in enumerate(amounts):
            facts.append(
                StatementFact(
                    doc_id=doc_id, statement="other", table_id=table_id, table_title=caption,
                    label=label, period=periods[c], value=got[0] * scale, scale=scale,
                    negative=got[1], page=page, row=r, column=c, raw=values[j], source="text",
                )
            )  # fmt: skip
    if not facts:
        return None
    return StatementTable(
        table_id=table_id, doc_id=doc_id, statement="other", title=caption, pages=(page,),
        scale=scale, periods=tuple(periods), labels=tuple(labels), facts=tuple(facts),
        source="text", notes=("read from the grid for its parts",),
    )  # fmt: skip


def _ratio(cell: str) -> bool:
    from finqa.lexicon.statements.grid import is_ratio_caption

    return is_ratio_caption(cell) or bool(re.match(r"^(?:as a )?% of\b", cell.strip(), re.I))


def _split(row: Sequence[str]) -> tuple[str, list[str]]:
    """(caption, value cells) of a body row; a row of values only has an empty caption."""
    if row and _is_value(row[0]):
        return "", list(row)
    return (row[0] if row else ""), list(row[1:])


def grid_part_tables(
    doc_id: str,
    grids: Iterable[tuple[int, Sequence[Sequence[str]]]],
    texts: Mapping[int, str],
    company: str | None = None,
    have: Iterable[StatementTable] = (),
    typed: Iterable[StatementTable] = (),
) -> list[StatementTable]:
    """The 'segment' tables of rows named by parts read from the grids of a note about parts
    (`parts.part_tables` over each grid read as a table, `grid_table`), less the tables whose
    every figure a table of `have` (the parts already read from typed tables) holds; `typed`:
    the tables typed from the pages, whose scale a grid stating none takes."""
    from finqa.lexicon.statements.parts import part_tables
    from finqa.lexicon.statements.parts_groups import folded

    seen = {_key(f) for t in have for f in t.facts}
    scales: dict[int, set[float]] = {}
    for t in typed:
        if t.source != "xbrl":
            for page in t.pages:
                scales.setdefault(page, set()).add(t.scale)
    tables = []
    for n, (page, rows) in enumerate(grids):
        one = scales.get(page, set())
        fallback = next(iter(one)) if len(one) == 1 else None
        table = grid_table(doc_id, page, n, rows, texts.get(page, ""), company, fallback)
        if table is not None:
            tables.append(table)
    read = part_tables(tables, texts, folded)
    return [t for t in read if not all(_key(f) in seen for f in t.facts)]


def _key(f: StatementFact) -> tuple[object, ...]:
    return (f.dimensions, f.item, f.period.key, round(f.value, 2))
