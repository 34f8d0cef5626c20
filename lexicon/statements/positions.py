"""Line items read by their place in a statement, where no catalogue caption names them.

An income statement starts from revenue: when none of its rows is read as revenue, its first
line of amounts whose caption names sales or revenue (and no cost, expense, deduction or
per-share word) is the revenue line, whatever the filer calls it ('Sales to customers',
'Revenues from external customers'). A line placed there is what the statement starts from
(us-gaap Revenues / RevenueFromContractWithCustomer... is tagged on it); a caption the
catalogue maps to another item is never re-read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.lexicon.model import StatementTable

__all__ = ["top_line", "top_lines"]

_REVENUE_WORDS = re.compile(r"\b(?:sales|revenues?)\b", re.I)
_NOT_REVENUE = re.compile(
    r"\b(?:costs?|expenses?|deductions?|less|returns|allowances|per\s+share|percent|"
    r"margin|taxes?)\b|%",
    re.I,
)


def top_line(table: StatementTable) -> StatementTable:
    """The table with its top line read as revenue (module docstring); unchanged otherwise."""
    if table.statement != "income" or table.source == "xbrl":
        return table
    usd = [f for f in table.facts if f.unit == "USD" and not f.dimensions]
    if not usd or any(f.item == "revenue" for f in usd):
        return table
    first = min(f.row for f in usd)
    line = [f for f in usd if f.row == first]
    label = line[0].label
    if line[0].item is not None or not _REVENUE_WORDS.search(label) or _NOT_REVENUE.search(label):
        return table
    facts = tuple(
        f.model_copy(update={"item": "revenue"}) if f.row == first and f.unit == "USD" else f
        for f in table.facts
    )
    return table.model_copy(update={"facts": facts})


def top_lines(tables: Iterable[StatementTable]) -> list[StatementTable]:
    """`top_line` over a filing's tables."""
    return [top_line(t) for t in tables]
