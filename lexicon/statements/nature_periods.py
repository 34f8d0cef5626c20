"""Period type from meaning: a balance is an instant, a flow covers a span of time.

A note table headed by bare years ('2024 2023') does not say whether its columns are points
in time or years: its lines do. A line whose catalogue item is an instant (a liability, an
asset, equity: the mapped concepts' `period_type`) stands at the column's fiscal year end
('Total operating lease liabilities $2,094' under '2024' is the balance at the end of fiscal
2024); a line whose item is a flow (an expense, revenue, a cash flow) printed in a column
that is an instant ('December 31, 2024') is not that item there (an accrual of the expense,
not the year's expense) and loses its item. A column whose span the header states is never
changed.
"""

from __future__ import annotations

from collections.abc import Iterable

from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.statements.balances import balance_period
from finqa.lexicon.statements.signs import item_nature

__all__ = ["periods_by_nature", "typed_by_nature"]


def _fact(f: StatementFact) -> StatementFact:
    n = item_nature(f.item)
    if n is None or f.source == "xbrl" or f.unit not in ("USD", "shares"):
        return f
    p = f.period
    if n.period_type == "instant" and not p.instant and p.months is None and p.quarter is None:
        closing = balance_period(p, "closing")
        return f if closing is None else f.model_copy(update={"period": closing})
    if n.period_type == "duration" and p.instant:
        return f.model_copy(update={"item": None})
    return f


def periods_by_nature(table: StatementTable) -> StatementTable:
    """The table with each line's columns typed by its item's period type (module docstring)."""
    if table.source == "xbrl" or table.statement in ("balance", "cashflow", "equity"):
        return table  # a primary statement's header states its columns; its balance rows are
    facts = tuple(_fact(f) for f in table.facts)  # read by `balances` already
    if facts == table.facts:
        return table
    return table.model_copy(update={"facts": facts})


def typed_by_nature(tables: Iterable[StatementTable]) -> list[StatementTable]:
    """`periods_by_nature` over a filing's tables."""
    return [periods_by_nature(t) for t in tables]
