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


def _sum_at(values: list[float]) -> int | None:
    """The index of the cell that is the sum of every cell after it or before it (at least two),
    the last cell first; None when none is."""
    n = len(values)
    order: list[int] = [n - 1, *range(n - 1)]
    for i in order:
        for others in (values[i + 1 :], values[:i]):
            if len(others) >= 2 and abs(sum(others) - values[i]) <= 1.5 + 0.0005 * abs(values[i]):
                return i
    return None


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
    a balance row's by its own arithmetic; else the last cell of a row of the usual width."""
    if at is not None and len(cells) == at[1]:
        return cells[at[0]]
    if balance and len(cells) > ncols:
        values = _values(cells)
        i = _sum_at(values) if values else None
        return cells[i] if i is not None else None
    if at is not None and at[0] != at[1] - 1:
        return None  # the total is not the last column: a narrower row's place is unknown
    return cells[-1] if len(cells) == ncols else None


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
            period = StatementPeriod(
                label=f"year ended {nxt.end_date}",
                fiscal_year=nxt.fiscal_year,
                end_date=nxt.end_date,
                months=12,
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
