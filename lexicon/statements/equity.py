"""Statements of shareholders' equity: a matrix, typed by its total column.

An equity statement's columns are components (common stock, paid-in capital, retained
earnings, treasury stock, ..., Total) and its periods are in the rows: 'Balance at
December 31, 2021' is an instant, the rows below it (net income, dividends, repurchases)
belong to the fiscal year that ends at the next balance. Text extraction loses which
caption heads which column, so only the total column is typed (when the captions name a
total); each row's total becomes a fact of the row's period. The total is the last column,
unless the balance rows' arithmetic says otherwise: a balance row prints every column, and
its total is the cell that is the sum of every cell after it ('Total' first, Johnson &
Johnson; after a column of share counts, Coca-Cola) or before it. A balance row printing more
cells than the movements (empty cells of the movements lost to the text) is read by that
arithmetic too.
"""

from __future__ import annotations

import re
from collections import Counter

from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.periods import find_periods
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.raw import BuildFailure, RawTable, read_cell
from finqa.lexicon.statements.scale import header_scale

__all__ = ["build_equity", "continued_scale"]

# 'Balance at December 31, 2022', 'Balances as of ...', 'Balance, March 30, 2025'
_BALANCE = re.compile(r"^\s*balances?\b(?:[^,]{0,30}?\b(?:at|as\s+of)\b|\s*,)", re.I)
_QUARTERLY_DAYS = 330  # balances closer than this are a quarterly statement's (3, 6, 9 months)
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


def _sum_at(values: list[float]) -> int | None:
    """The index of the cell that is the sum of every cell after it or before it (at least two),
    else of a run of at least three cells right before it (the amounts after columns of share
    counts, Nike); the last cell first; None when none is."""
    n = len(values)
    order: list[int] = [n - 1, *range(n - 1)]
    for i in order:
        for others in (values[i + 1 :], values[:i]):
            if len(others) >= 2 and _adds(others, values[i]):
                return i
    for start in range(1, n - 3):
        if _adds(values[start : n - 1], values[n - 1]):
            return n - 1
    return None


def _adds(parts: list[float], total: float) -> bool:
    return abs(sum(parts) - total) <= 1.5 + 0.0005 * abs(total)


def _values(cells: list[str]) -> list[float] | None:
    read = [read_cell(c) for c in cells]
    return None if any(r is None for r in read) else [r[0] for r in read if r is not None]


def _total_column(balances: list[list[str]]) -> tuple[int, int] | None:
    """(index, cell count) of the total column by the balance rows' arithmetic, when every
    balance row that adds up agrees on it and prints the same number of cells; else None."""
    found: set[tuple[int, int]] = set()
    for cells in balances:
        values = _values(cells)
        i = _sum_at(values) if values else None
        if i is not None:
            found.add((i, len(cells)))
    return found.pop() if len(found) == 1 else None


def _total_cell(
    cells: list[str], ncols: int, at: tuple[int, int] | None, *, balance: bool
) -> str | None:
    """A row's total cell: at the balance rows' total column when the row prints as many cells;
    a balance row's by its own arithmetic; the last cell of a row of two or more where the
    balance rows print the total last; else the last cell of a row of the usual width."""
    if at is not None and len(cells) == at[1]:
        return cells[at[0]]
    if balance and len(cells) > ncols:
        values = _values(cells)
        i = _sum_at(values) if values else None
        return cells[i] if i is not None else None
    if at is not None and at[0] != at[1] - 1:
        return None  # the total is not the last column: a narrower row's place is unknown
    if at is not None and len(cells) >= 2:
        return cells[-1]  # the total printed last: a row's last cell, after its columns'
    return cells[-1] if len(cells) == ncols else None


def _days(a: StatementPeriod, b: StatementPeriod) -> int:
    return (b.end_date - a.end_date).days if a.end_date and b.end_date else 0


def _quarterly(marks: list[tuple[int, StatementPeriod]]) -> bool:
    """Balances a quarter or two apart (a 10-Q's statement of equity), not years apart."""
    spans = [_days(a, b) for (_, a), (_, b) in zip(marks, marks[1:], strict=False)]
    return any(0 < d < _QUARTERLY_DAYS for d in spans)


def _in_quarter(period: StatementPeriod, company: str | None) -> StatementPeriod:
    """A quarterly statement's balance: at its fiscal quarter's end, unless that is the fiscal
    year's end (a balance at the year end stays the year's)."""
    from finqa.lexicon.entities import lookup_company
    from finqa.lexicon.periods import quarter_of

    if period.end_date is None:
        return period
    q = quarter_of(period.end_date, lookup_company(company) if company else None)
    return period if q == 4 else period.model_copy(update={"quarter": q})


def _movement(prev: StatementPeriod, nxt: StatementPeriod) -> StatementPeriod:
    """A quarterly statement's movements: the months from the balance above to the one below."""
    months = max(1, round(_days(prev, nxt) / 30.44))
    return StatementPeriod(
        label=f"{months} months ended {nxt.end_date}",
        fiscal_year=nxt.fiscal_year,
        end_date=nxt.end_date,
        months=months,
        quarter=nxt.quarter if nxt.quarter is not None else (4 if months < 12 else None),
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
    quarterly = _quarterly(marks)
    if quarterly:
        marks = [(i, _in_quarter(p, company)) for i, p in marks]
    scale = header_scale(raw.context) or 1.0
    at = _total_column([raw.rows[i][1] for i, _ in marks])
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
            prev = [p for i, p in marks if i < r][-1]
            period = (
                _movement(prev, nxt)
                if quarterly
                else StatementPeriod(
                    label=f"year ended {nxt.end_date}",
                    fiscal_year=nxt.fiscal_year,
                    end_date=nxt.end_date,
                    months=12,
                )
            )
        cell = _total_cell(cells, ncols, at, balance=period.instant)
        if cell is None or read_cell(cell) is None:
            skipped += 1
            continue
        parsed = read_cell(cell)
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
                raw=cell.strip(),
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


def continued_scale(tables: list[StatementTable]) -> list[StatementTable]:
    """A statement of equity continued on the next page without its scale line ('(Dollars in
    Millions)' printed once, above the first page's matrix) takes the first page's scale."""
    stated = {t.page: t.scale for t in tables if t.statement == "equity" and t.scale != 1.0}
    out: list[StatementTable] = []
    for t in tables:
        scale = stated.get(t.page - 1)
        if t.statement != "equity" or t.scale != 1.0 or t.source == "xbrl" or scale is None:
            out.append(t)
            continue
        facts = tuple(
            f.model_copy(update={"value": f.value * scale, "scale": scale})
            if f.unit == "USD" and f.scale == 1.0
            else f
            for f in t.facts
        )
        out.append(t.model_copy(update={"scale": scale, "facts": facts}))
    return out
