"""Statements of shareholders' equity: a matrix, typed by its total column.

An equity statement's columns are components (common stock, paid-in capital, retained
earnings, treasury stock, ..., Total) and its periods are in the rows: 'Balance at
December 31, 2021' is an instant, the rows below it (net income, dividends, repurchases)
belong to the fiscal year that ends at the next balance. Text extraction loses which
caption heads which column, so only the last column, the total, is typed (when the
captions name a total); each row's total becomes a fact of the row's period. A row is read
when it has the matrix's most common number of cells, or, for a balance row, the widest
balance rows' (a balance fills every column where a movement row leaves some blank: 'Balance
at May 31, 2022 305 $— 1,266 $3 $11,484 $318 $3,476 $15,281' beside 'Net income 5,070 5,070').
"""

from __future__ import annotations

import re
from collections import Counter

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.periods import find_periods
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.raw import BuildFailure, RawTable, read_cell
from finqa.lexicon.statements.scale import header_scale

__all__ = ["build_equity"]

_BALANCE = re.compile(r"^\s*balances?\b[^,]{0,30}?\b(?:at|as\s+of)\b", re.I)
_TOTAL = re.compile(r"\btotal\b", re.I)


def _balance_period(label: str, company: str | None) -> StatementPeriod | None:
    if not _BALANCE.search(label):
        return None
    found = [p for p in find_periods(label, company) if p.end_date and p.fiscal_year]
    if not found:
        return None
    from datetime import date

    p = found[0]
    return StatementPeriod(
        label=label,
        fiscal_year=p.fiscal_year,
        end_date=date.fromisoformat(p.end_date or ""),
        months=0,
        instant=True,
    )


def build_equity(
    raw: RawTable, *, doc_id: str, table_id: str, company: str | None = None
) -> StatementTable | BuildFailure:
    """Type the total column of an equity matrix; a failure when no balance rows or total."""
    captions = " ".join(label for label, cells in raw.rows if not cells) + " " + raw.context
    counts = Counter(len(cells) for _, cells in raw.rows if len(cells) >= 2)
    if not counts or not _TOTAL.search(captions):
        return BuildFailure(raw.page, raw.kind, raw.title, "equity matrix without a total column")
    ncols = counts.most_common(1)[0][0]
    balances = [(i, _balance_period(label, company)) for i, (label, _) in enumerate(raw.rows)]
    marks = [(i, p) for i, p in balances if p is not None]
    if not marks:
        return BuildFailure(raw.page, raw.kind, raw.title, "equity matrix without balance dates")
    balance_rows = {i for i, _ in marks}
    # a balance row fills every column (a movement row leaves some blank, and text extraction
    # drops the blanks): the widest balance rows are the matrix's full width, total last
    full = max(len(raw.rows[i][1]) for i in balance_rows)
    scale = header_scale(raw.context) or 1.0
    periods: dict[str, StatementPeriod] = {}
    facts: list[StatementFact] = []
    skipped = 0
    for r, (label, cells) in enumerate(raw.rows):
        if not cells:
            continue
        period = next((p for i, p in marks if i == r), None)
        if period is None:  # a movement: the year that ends at the next balance
            nxt = next((p for i, p in marks if i > r), None)
            if nxt is None or r < marks[0][0]:
                continue
            period = StatementPeriod(
                label=f"year ended {nxt.end_date}",
                fiscal_year=nxt.fiscal_year,
                end_date=nxt.end_date,
                months=12,
            )
        if len(cells) not in (ncols, full if r in balance_rows else ncols):
            skipped += 1
            continue
        if read_cell(cells[-1]) is None:
            skipped += 1
            continue
        parsed = read_cell(cells[-1])
        if parsed is None:
            continue
        value, negative, _ = parsed
        column = list(periods).index(period.key) if period.key in periods else len(periods)
        periods.setdefault(period.key, period)
        facts.append(
            StatementFact(
                doc_id=doc_id,
                statement="equity",
                table_id=table_id,
                table_title=raw.title,
                label=label,
                item=item_for_label(label),
                period=period,
                value=value * scale,
                unit="USD",
                scale=scale,
                negative=negative,
                page=raw.page,
                row=r,
                column=column,
                raw=cells[-1].strip(),
                source="text",
            )
        )
    if not facts:
        return BuildFailure(raw.page, raw.kind, raw.title, "no equity row matched the columns")
    notes = [f"equity matrix: only the total column (last of {ncols}) is typed"]
    if skipped:
        notes.append(f"{skipped} rows skipped (cells did not match the {ncols} columns)")
    return StatementTable(
        table_id=table_id,
        doc_id=doc_id,
        statement="equity",
        title=raw.title,
        pages=raw.pages or (raw.page,),
        scale=scale,
        periods=tuple(periods.values()),
        labels=tuple(label for label, _ in raw.rows),
        facts=tuple(facts),
        source="text",
        notes=tuple(notes),
    )
