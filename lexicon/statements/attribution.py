"""Whose net income: the company's share, or the consolidated total before noncontrolling interests.

An income statement of a filer with noncontrolling interests prints three lines:

    Consolidated net income                                          10,649
    Less: Net income attributable to noncontrolling interests            18
    Net income attributable to shareowners of The Coca-Cola Company  10,631

The first is us-gaap ProfitLoss (catalogue item `net_income_consolidated`), the last is
NetIncomeLoss (`net_income`), the amount EPS, margins and returns are conventionally built
on. A caption alone cannot tell: many filers caption the first line just 'Net income'. The
layout can: the line right above a noncontrolling-interests line is the consolidated total
and the first 'attributable to' line below it is the company's share. A table without a
noncontrolling-interests line is left as read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from finqa.lexicon.model import StatementFact, StatementTable

__all__ = ["attribute_net_income", "attributed"]

_NET = frozenset({"net_income", "net_income_consolidated", "net_income_attributable"})
_NCI = re.compile(r"non-?controlling|minority", re.I)
_PARENT = re.compile(
    r"^\s*net\s+(?:income|earnings|loss)(?:\s*\((?:loss|income)\))?(?:\s*/\s*\(?loss\)?)?\s+"
    r"attributable\s+to\b",
    re.I,
)


def _is_nci(f: StatementFact) -> bool:
    return f.item == "noncontrolling_interest_income" or bool(
        _NCI.search(f.label) and re.search(r"attributable|\bless\b", f.label, re.I)
    )


def attribute_net_income(table: StatementTable) -> StatementTable:
    """The table with its consolidated and attributable net income lines told apart."""
    if table.source == "xbrl" or table.statement not in ("income", "quarterly", "other"):
        return table
    first: dict[int, StatementFact] = {}
    for f in table.facts:
        if f.unit == "USD":
            first.setdefault(f.row, f)
    rows = sorted(first)
    relabel: dict[int, str] = {}
    for i, r in enumerate(rows):
        if not _is_nci(first[r]) or i == 0:
            continue
        above = first[rows[i - 1]]
        below = next(
            (
                first[x]
                for x in rows[i + 1 :]
                if _PARENT.match(first[x].label) and not _NCI.search(first[x].label)
            ),
            None,
        )
        if above.item not in _NET or below is None:
            continue
        relabel[above.row] = "net_income_consolidated"
        relabel[below.row] = "net_income"
    if not relabel:
        return table
    facts = tuple(
        f.model_copy(update={"item": relabel[f.row]}) if f.row in relabel and f.unit == "USD" else f
        for f in table.facts
    )
    return table.model_copy(update={"facts": facts})


def attributed(tables: Iterable[StatementTable]) -> list[StatementTable]:
    """`attribute_net_income` over a filing's tables."""
    return [attribute_net_income(t) for t in tables]
