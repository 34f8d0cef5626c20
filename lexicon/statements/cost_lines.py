"""Costs of revenue an income statement shows by its layout, not by a caption the catalogue lists.

A filer that prints no gross profit may split its cost of revenue into lines whose captions say
nothing of revenue: Oracle's 'Hardware' and 'Services' expenses under 'Operating expenses',
repeating the captions of the revenue lines they are the costs of; Activision Blizzard's 'Product
costs' and 'Game operations and distribution costs' under the sub-headings 'Cost of revenues—
product sales:' and 'Cost of revenues—subscription, licensing, and other revenues:'. The
catalogue's definition of cost of revenue (`cogs`: every cost-of-revenue line summed where the
filer splits them) then reads these lines; the answer names them.

`revenue_costs` decides from the layout alone, over the rows of one income statement:
- the revenue block is the statement's top lines down to its last revenue line before any line
  of another catalogue item (the revenue total);
- the lines right after it, down to the first line the catalogue knows as another item (research
  and development, selling, general and administrative) or a total, are costs of revenue when
  the sub-heading in force names cost of revenue (a caption of the catalogue's `cogs`), or when
  the line's caption repeats a revenue line's caption ('Hardware' / 'Hardware'; 'Hardware
  revenues' / 'Hardware expenses'): that revenue's cost.
Any other line stays untyped: a statement laid out otherwise is read by its captions only.
`table_costs` reads the same over a typed statement table (the heading in force at a row is the
nearest row above it without figures). The statement model keeps its facts' items as their
captions say; the reasoner's Book reads these lines as cost of revenue (`model_rows`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.lexicon.label_keys import label_key
from finqa.lexicon.line_items import get_item
from finqa.lexicon.model import StatementTable
from finqa.lexicon.statements.catalogue import item_for_label

__all__ = ["COST_ITEM", "cost_heading", "revenue_costs", "table_costs"]

COST_ITEM = "cogs"
REVENUE_ITEM = "revenue"

# the head words a revenue line's and its cost line's captions differ by (letters-only keys)
_REVENUE_HEAD = re.compile(r"(?:net)?(?:revenues?|sales)$")
_COST_HEAD = re.compile(r"^(?:costsof|costof)|(?:expenses?|costs?)$")


def _stem(key: str, head: re.Pattern[str]) -> str:
    return head.sub("", key)


def cost_heading(heading: str) -> bool:
    """A sub-heading that names cost of revenue: a caption of the catalogue's cost of revenue,
    or one it opens with ('Cost of revenues—product sales'), none of its exclusions."""
    item = get_item(COST_ITEM)
    key = label_key(heading)
    if item is None or not key:
        return False
    exact, prefixes, excludes = item.keys()
    if any(x and x in key for x in excludes):
        return False
    return key in exact or any(p and key.startswith(p) for p in prefixes)


def revenue_costs(
    rows: Sequence[tuple[str, Sequence[str]]],
    headings: Sequence[str],
    items: Sequence[str | None],
) -> frozenset[int]:
    """The positions of the rows of one income statement its layout makes costs of revenue
    (module doc); `rows` as read (caption, cells; a heading has no cells), `headings` the
    sub-heading in force at each row, `items` each row's catalogue item from its caption."""
    # a caption the catalogue reads as revenue is the revenue's, whatever unit the row was
    # given under its heading (a column header glued to 'revenues' is no heading of its own)
    items = [
        REVENUE_ITEM if cells and item_for_label(label) == REVENUE_ITEM else item
        for (label, cells), item in zip(rows, items, strict=True)
    ]
    valued = [r for r, (_, cells) in enumerate(rows) if cells]
    first_other = next(
        (n for n, r in enumerate(valued) if items[r] not in (None, REVENUE_ITEM)), len(valued)
    )
    top = [n for n in range(first_other) if items[valued[n]] == REVENUE_ITEM]
    if not top:
        return frozenset()
    total = top[-1]
    revenue_keys = {
        _stem(label_key(rows[valued[n]][0]), _REVENUE_HEAD)
        for n in range(total)
        if items[valued[n]] is None
    }
    revenue_keys.discard("")
    out: list[int] = []
    for r in valued[total + 1 :]:
        key = label_key(rows[r][0])
        if items[r] is not None or key.startswith("total"):
            break
        heading = headings[r] if r < len(headings) else ""
        by_heading = cost_heading(heading)
        if by_heading or _stem(key, _COST_HEAD) in revenue_keys:
            out.append(r)
        else:
            break  # the costs of revenue are the lines right after the revenue total
    return frozenset(out)


def table_costs(table: StatementTable) -> frozenset[int]:
    """`revenue_costs` over a typed income statement table (row positions as its facts'
    `row`); empty for another statement or the filer's tags."""
    if table.statement != "income" or table.source == "xbrl":
        return frozenset()
    items: dict[int, str | None] = {}
    for fact in table.facts:
        if not fact.dimensions:
            items.setdefault(fact.row, fact.item)
    rows: list[tuple[str, Sequence[str]]] = []
    headings: list[str] = []
    heading = ""
    for r, label in enumerate(table.labels):
        valued = r in items
        rows.append((label, ("",) if valued else ()))
        headings.append(heading if valued else "")
        if not valued:
            heading = label
    return revenue_costs(rows, headings, [items.get(r) for r in range(len(rows))])
