"""The line-item catalogue: how filings caption each statement line, across industries.

Data in `lexicon/data/line_items.yaml` (one entry per item: display name, statement, the metric
it feeds, captions that are the item, caption prefixes, disqualifying substrings, sign
convention). Captions are compared as `label_key`s (letters only, lower case). Every caption is
justified by the filings that use it (`lexicon/data/label_support.json`, written by
`python -m finqa.benchmarks.label_mining --write-support`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from finqa.lexicon._data import DATA_DIR, read_yaml

__all__ = [
    "LineItem",
    "SUPPORT_PATH",
    "label_key",
    "line_items",
    "get_line_item",
    "item_for_metric",
    "caption_sign",
]

SUPPORT_PATH = DATA_DIR / "label_support.json"
# an expense shown in parentheses beside its benefit ('Income tax (expense)/benefit',
# '(Provision) benefit for income taxes'): the figures as filed are benefits, expenses negative
_EXPENSE_IN_PARENS = re.compile(r"\((?:expenses?|provisions?(?: for)?|charges?)\)", re.I)
_NOTE_REF = re.compile(r"\((?:note|notes|see)[^)]*\)|\([a-z0-9]\)", re.I)  # (Note 5), (a), (1)


def caption_sign(caption: str) -> int:
    """-1 when the caption shows the expense in parentheses and the benefit as positive ('Income
    tax (expense)/benefit', '(Provision) benefit for income taxes'): a figure as filed is then
    the negative of the expense. +1 otherwise ('Provision for (benefit from) income taxes',
    'Income tax expense (benefit)', 'Provision for income taxes')."""
    return -1 if _EXPENSE_IN_PARENS.search(caption) else 1


def label_key(text: str) -> str:
    """Letters only, lower case, note references dropped: 'Cost of goods sold (Note 3)' and
    'Costofgoodssold' both -> 'costofgoodssold'."""
    return re.sub(r"[^a-z]", "", _NOTE_REF.sub(" ", text).lower())


@dataclass(frozen=True)
class LineItem:
    """One statement line item and the captions filings give it."""

    id: str
    name: str
    statement: str  # income | balance | cash_flow
    labels: tuple[str, ...]  # captions that are this item (best first)
    prefixes: tuple[str, ...] = ()  # captions that start like this item
    exclude: tuple[str, ...] = ()  # substrings that disqualify a caption
    # substrings that disqualify a caption anywhere but the item's own primary statement:
    # 'Long-Term Debt Obligations' is the balance sheet's debt line, while 'Long-term debt
    # obligations' in a contractual-obligations schedule are payments due, not a balance
    off_statement: tuple[str, ...] = ()
    # read as |value| in a formula: filings print this outflow or expense with either sign
    # ('(10,069)' and '10,069' both mean a cost of 10,069), so the sign as printed says nothing
    magnitude: bool = False
    # an expense read signed (positive: expense, negative: benefit); a caption showing the
    # expense in parentheses ('Income tax (expense)/benefit') is read negated (`caption_sign`)
    signed_expense: bool = False
    metrics: tuple[str, ...] = ()  # the metric ids (metrics.yaml) this line item is
    # the item is the sum of every line of one statement that carries one of its captions
    # (short-term debt: 'Commercial paper' + 'Current portion of long-term debt')
    summed: bool = False
    unit: str = "USD"  # USD (an amount as filed, with the statement's scale) | % (a stated rate)
    note: str = ""  # what the item covers when filers differ ('excluding lease liabilities')

    def keys(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """label_keys of (labels, prefixes, exclude)."""
        return (
            tuple(label_key(x) for x in self.labels),
            tuple(label_key(x) for x in self.prefixes),
            tuple(label_key(x) for x in self.exclude),
        )

    def off_statement_keys(self) -> tuple[str, ...]:
        """label_keys of `off_statement`."""
        return tuple(label_key(x) for x in self.off_statement)


def _item(item_id: str, d: dict[str, Any]) -> LineItem:
    return LineItem(
        id=item_id,
        name=str(d["name"]),
        statement=str(d["statement"]),
        labels=tuple(str(x) for x in d.get("labels") or ()),
        prefixes=tuple(str(x) for x in d.get("prefixes") or ()),
        exclude=tuple(str(x) for x in d.get("exclude") or ()),
        off_statement=tuple(str(x) for x in d.get("off_statement") or ()),
        magnitude=bool(d.get("magnitude", False)),
        signed_expense=bool(d.get("signed_expense", False)),
        metrics=tuple(str(x) for x in d.get("metrics") or ()),
        summed=bool(d.get("summed", False)),
        unit=str(d.get("unit", "USD")),
        note=" ".join(str(d.get("note", "")).split()),
    )


@cache
def line_items() -> dict[str, LineItem]:
    """item id -> LineItem, read from data/line_items.yaml on first use."""
    raw = read_yaml("line_items.yaml") or {}
    return {str(k): _item(str(k), v) for k, v in raw.items()}


def item_for_metric(metric_id: str) -> str | None:
    """The line item id a metrics.yaml id is read from ('accounts_receivable' -> 'receivables')."""
    if metric_id in line_items():
        return metric_id
    for item in line_items().values():
        if metric_id in item.metrics:
            return item.id
    return None


def get_line_item(item_id: str) -> LineItem | None:
    """The catalogue's line item with this id, or None."""
    return line_items().get(item_id)
