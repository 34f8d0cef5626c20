"""Period type from meaning: a balance is an instant, a flow covers a span of time.

A note table headed by bare years ('2024 2023') does not say whether its columns are points
in time or years: its lines do. A line whose catalogue item is an instant (a liability, an
asset, equity: the mapped concepts' `period_type`) stands at the column's fiscal year end
('Total operating lease liabilities $2,094' under '2024' is the balance at the end of fiscal
2024); a line whose item is a flow (an expense, revenue, a cash flow) printed in a column
that is an instant ('December 31, 2024') is not that item there (an accrual of the expense,
not the year's expense) and loses its item. A column whose span the header states is never
changed. A line the catalogue does not map is a balance when its caption names one
('Total operating lease liabilities') and no flow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from finqa.lexicon.model import StatementFact, StatementTable
from finqa.lexicon.statements.balances import balance_period
from finqa.lexicon.statements.signs import item_nature

__all__ = ["periods_by_nature", "typed_by_nature"]


# a caption the catalogue does not map that names a balance ('Total operating lease
# liabilities', 'Total debt') and no flow ('Operating lease cost', 'Payments of debt')
_BALANCE_WORDS = re.compile(
    r"\b(?:liabilit(?:y|ies)|assets?|debt|borrowings|notes|current\s+portion|payables?|"
    r"receivables?)\b",
    re.I,
)
_FLOW_WORDS = re.compile(
    r"\b(?:expenses?|costs?|payments?|proceeds|paid|amortization|depreciation|impairments?|"
    r"income|revenues?|changes?|increases?|decreases?|cash\s+flows?|issuances?|repayments?|"
    r"additions?|charges?|interest|gains?|losses?|provisions?)\b",
    re.I,
)


def _caption_is_balance(label: str) -> bool:
    return bool(_BALANCE_WORDS.search(label)) and not _FLOW_WORDS.search(label)


def _fact(f: StatementFact) -> StatementFact:
    if f.source == "xbrl" or f.unit not in ("USD", "shares"):
        return f
    n = item_nature(f.item)
    p = f.period
    if n is None:
        if f.item is None and _caption_is_balance(f.label) and _bare_year(p):
            closing = balance_period(p, "closing")
            return f if closing is None else f.model_copy(update={"period": closing})
        return f
    if n.period_type == "instant" and _bare_year(p):
        closing = balance_period(p, "closing")
        return f if closing is None else f.model_copy(update={"period": closing})
    if n.period_type == "duration" and p.instant:
        return f.model_copy(update={"item": None})
    return f


def _bare_year(p: Any) -> bool:
    """A column headed by a year alone: no span and no date stated."""
    return not p.instant and p.months is None and p.quarter is None


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
