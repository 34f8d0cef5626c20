"""Roll-forward tables read from their cells: balances in the rows, components in the columns.

A note that rolls a balance forward (goodwill by segment, equity by component in a 10-Q,
a reserve) prints its periods down the side: 'Balance at January 31, 2023 48,568', then the
movements, then 'Balance as of January 31, 2024 48,620'; or a bare date ('March 28, 2025')
as the caption of an opening row. The columns are components ('Digital Media', 'Total',
'Non-controlling Interests'), named by a caption row above the figures, or a single column
named by the table's own title ('Goodwill'). Only the balance rows are typed, as instants at
their date (the fiscal year and quarter by the company's calendar); the movements between
two balances are left out (their span is not printed on the row, so it is not guessed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.periods import find_periods
from finqa.lexicon.statements.build import header_scale, row_unit
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.header import read_header
from finqa.lexicon.statements.raw import read_cell

__all__ = ["build_rollforward"]

_BALANCE = re.compile(
    r"^\s*(?:ending\s+|beginning\s+)?balances?\b[^,]{0,30}?\b(?:at|as\s+of)\b", re.I
)
_LEFT = re.compile(r"[\s,.:]+")


def _balance_date(label: str, company: str | None) -> StatementPeriod | None:
    """The instant a balance row stands at: 'Balance at January 31, 2023' or a bare date."""
    found = [p for p in find_periods(label, company) if p.kind == "date" and p.end_date]
    if len(found) != 1:
        return None
    bare = not _LEFT.sub("", label[: found[0].start] + label[found[0].end :])
    if not (bare or _BALANCE.search(label)):
        return None
    header = read_header([found[0].text], "balance", company)
    return header.periods[0] if header and len(header.periods) == 1 else None


def _value(cell: str) -> tuple[float, bool] | None:
    if any(ch.isalpha() for ch in cell):
        return None
    parsed = read_cell(cell)
    return None if parsed is None or parsed[2] == "%" else (parsed[0], parsed[1])


def build_rollforward(
    rows: Sequence[Sequence[str]],
    *,
    doc_id: str,
    table_id: str,
    page: int,
    title: str,
    context: str,
    company: str | None = None,
) -> StatementTable | None:
    """The balance rows of a roll-forward grid as an 'other' table; None when the grid has no
    balance row, its figures do not line up in one width, or a column has no caption."""
    data = [(r[0], list(r[1:])) for r in rows if len(r) >= 2 and _value(r[-1]) is not None]
    widths = Counter(len(cells) for _, cells in data)
    if not widths:
        return None
    ncols = widths.most_common(1)[0][0]
    balances = [(label, cells, _balance_date(label, company)) for label, cells in data]
    marked = [(label, cells, p) for label, cells, p in balances if p is not None]
    if not marked:
        return None
    captions = _captions(rows, ncols, title)
    if captions is None:
        return None
    scale = header_scale(context) or 1.0
    facts: list[StatementFact] = []
    for r, (_, cells, period) in enumerate(marked):
        if len(cells) != ncols:
            continue
        for c, cell in enumerate(cells):
            got = _value(cell)
            if got is None:
                continue
            unit, row_scale = row_unit(captions[c], "", "", scale)
            facts.append(
                StatementFact(
                    doc_id=doc_id,
                    statement="other",
                    table_id=table_id,
                    table_title=title,
                    label=captions[c],
                    item=item_for_label(captions[c]),
                    period=period,
                    value=got[0] * row_scale,
                    unit=unit,
                    scale=row_scale,
                    negative=got[1],
                    page=page,
                    row=r,
                    column=c,
                    raw=cell,
                )
            )
    if not facts:
        return None
    periods = tuple({f.period.key: f.period for f in facts}.values())
    return StatementTable(
        table_id=table_id,
        doc_id=doc_id,
        statement="other",
        title=title,
        pages=(page,),
        scale=scale,
        periods=periods,
        labels=tuple(dict.fromkeys(f.label for f in facts)),
        facts=tuple(facts),
        notes=(f"roll-forward: {len(marked)} balance rows typed as instants, movements left out",),
    )


def _captions(rows: Sequence[Sequence[str]], ncols: int, title: str) -> list[str] | None:
    """The column captions: the last row above the figures whose cells are words, one per
    column (a leading stub caption dropped); a single column takes the table's title."""
    caption_row: list[str] | None = None
    for row in rows:
        if len(row) >= 2 and _value(row[-1]) is not None:
            break
        words = [c for c in row if _value(c) is None]
        if len(words) == len(row) and len(row) in (ncols, ncols + 1):
            caption_row = list(row[-ncols:])
    if caption_row is not None:
        return caption_row
    return [title] if ncols == 1 and title else None
