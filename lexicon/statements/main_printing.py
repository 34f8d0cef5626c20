"""The main printing of each primary statement in a filing's statement model.

A filing prints its income statement, balance sheet and cash-flow statement once in full; other
tables of the same kind (selected financial data, an MD&A summary, condensed consolidating,
parent-company-only or guarantor statements) are parts or summaries of it. The main printing is
the first full printing of its kind, full meaning at least `FULL_SHARE` of the line items of
the longest printing: a combined filing prints the parent registrant's statements first and its
subsidiary registrant's after them, of much the same length, and a note's table read as the
same kind later (a reclassification table 'to the Consolidated Statements of Income', a
parent-only or consolidating statement) does not displace the statement by a few more rows,
while a summary printed earlier (selected financial data, an MD&A table of a few lines) is far
shorter. Line items are counted over the pages a printing runs on: a balance sheet printed
over two pages (assets, then liabilities and equity) is one printing of both pages' lines, so a
parent-company-only condensed balance sheet that fits on one page does not outnumber it. The
main printing is named by its first page and takes
the pages either side of it; the reasoner's rows and the judge's routes both read only it as
the primary statement.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from finqa.lexicon.model import StatementTable

__all__ = ["PRIMARY_STATEMENTS", "main_pages", "on_main_printing"]

PRIMARY_STATEMENTS = frozenset({"income", "balance", "cashflow"})
# a printing with at least this share of the longest printing's line items is a full statement
# (a second registrant's statements or a longer note table run within a fifth of each other;
# summaries are under half)
FULL_SHARE = 0.8


def main_pages(tables: Sequence[StatementTable]) -> dict[str, int]:
    """Per primary statement kind, the first page of its main printing (text and PDF tables):
    the first printing with at least `FULL_SHARE` of the line items of the longest. A printing is
    a page with the next page when each carries one table of that kind, under the same title (a
    statement continued; a page of several small tables is a set of summaries, not one). A
    summary printed earlier (selected financial data, an MD&A 'Balance Sheet' of a few lines)
    is shorter than the statement itself."""
    lines: dict[str, Counter[int]] = defaultdict(Counter)
    titles: dict[tuple[str, int], list[str]] = defaultdict(list)
    for t in tables:
        if t.source != "xbrl" and t.statement in PRIMARY_STATEMENTS and t.pages:
            lines[t.statement][t.page] += len({f.row for f in t.facts})
            titles[t.statement, t.page].append(_title_key(t.title))
    out: dict[str, int] = {}
    for kind, count in lines.items():

        def printed(page: int, kind: str = kind, count: Counter[int] = count) -> int:
            here, nxt = titles[kind, page], titles.get((kind, page + 1), [])
            continued = len(here) == 1 and nxt == here
            return count[page] + (count[page + 1] if continued else 0)

        longest = max(printed(page) for page in count)
        out[kind] = min(page for page in count if printed(page) >= FULL_SHARE * longest)
    return out


def _title_key(title: str) -> str:
    """A table's title compared across pages: letters only, case folded ('CONSOLIDATED
    BALANCE SHEETS (continued)' meets 'Consolidated Balance Sheets')."""
    key = "".join(ch for ch in title.lower() if ch.isalpha())
    return key.removesuffix("continued")


def on_main_printing(statement: str, page: int, source: str, main: dict[str, int]) -> bool:
    """Is a table (or a fact of it) of a primary statement on that statement's main printing?
    Tagged facts are the filing's own statements; a kind without a known main page counts."""
    start = main.get(statement)
    return source == "xbrl" or start is None or abs(page - start) <= 1
