"""The main printing of each primary statement in a filing's statement model.

A filing prints its income statement, balance sheet and cash-flow statement once in full; other
tables of the same kind (selected financial data, an MD&A summary, condensed consolidating,
parent-company-only or guarantor statements) are parts or summaries of it. The main printing is
the page with the most line items of its kind (the first such page on a tie), with the pages
either side of it (a statement over two pages); the reasoner's rows and the judge's routes both
read only it as the primary statement.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from finqa.lexicon.model import StatementTable

__all__ = ["PRIMARY_STATEMENTS", "main_pages", "on_main_printing"]

PRIMARY_STATEMENTS = frozenset({"income", "balance", "cashflow"})


def main_pages(tables: Sequence[StatementTable]) -> dict[str, int]:
    """Per primary statement kind, the page of its main printing (text and PDF tables): the
    page with the most line items of that kind, the first such page on a tie. A summary
    printed earlier (selected financial data, an MD&A 'Balance Sheet' of a few lines) is
    shorter than the statement itself."""
    lines: dict[str, Counter[int]] = defaultdict(Counter)
    for t in tables:
        if t.source != "xbrl" and t.statement in PRIMARY_STATEMENTS and t.pages:
            lines[t.statement][t.page] += len({f.row for f in t.facts})
    return {
        kind: min(count, key=lambda page: (-count[page], page)) for kind, count in lines.items()
    }


def on_main_printing(statement: str, page: int, source: str, main: dict[str, int]) -> bool:
    """Is a table (or a fact of it) of a primary statement on that statement's main printing?
    Tagged facts are the filing's own statements; a kind without a known main page counts."""
    start = main.get(statement)
    return source == "xbrl" or start is None or abs(page - start) <= 1
