"""Cash paid versus the expense of the period: 'how much did X pay in income taxes in cash' asks
the payment (the cash-flow statement's supplemental 'cash paid for income taxes'), not the
provision, which is the period's accrual. An expense item of the catalogue (nature `expense`)
asked with a verb of payment is asked on the cash basis: the catalogue's payment item for it
(`paid_for`: income taxes paid for the income tax provision, interest paid for interest expense).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from finqa.lexicon._data import data_cache
from finqa.lexicon.metrics import METRICS

__all__ = [
    "asks_cash_paid",
    "asks_payment",
    "names_payment",
    "paid_asked",
    "paid_item",
    "paid_item_of",
    "paid_under",
]

_PAY = re.compile(r"\b(?:pa(?:y|id|ying|yments?)|remit\w*|disburse\w*)\b", re.I)
_CASH = re.compile(r"\bcash\b", re.I)
# what a payment verb pays for: 'pay in income taxes', 'paid for interest', 'pay on its debt'
_PAID_OBJECT = re.compile(
    r"\bpa(?:y|id|ying)\s+(?:(?:in|for|on|as)\s+)?(?:cash\s+)?(?:for\s+|in\s+)?"
    r"(?P<obj>(?:[a-z&-]+\s*){1,3})",
    re.I,
)


def asks_cash_paid(question: str, metric_id: str | None) -> bool:
    """The question asks the cash paid for an expense item ('how much did X pay in income taxes
    in cash', 'cash paid for interest'), not the item's expense for the period."""
    expense = paid_item_of(metric_id) or metric_id  # the payment item read for it: its expense
    metric = METRICS.get(expense) if expense else None
    if metric is None or metric.nature != "expense":
        return False
    return bool(_PAY.search(question) and _CASH.search(question))


def asks_payment(question: str, metric_id: str | None) -> bool:
    """The question asks what was paid for an expense item the catalogue has a payment line of
    ('how much did X pay in income taxes', 'income taxes paid'): a verb of payment, with or
    without the word cash."""
    return paid_item(metric_id) is not None and bool(_PAY.search(question))


@data_cache()
def _paid_items() -> dict[str, str]:
    return {m.paid_for: m.id for m in METRICS.values() if m.paid_for}


def paid_item(metric_id: str | None) -> str | None:
    """The catalogue's payment item of an expense item (`paid_for`), else None."""
    return _paid_items().get(metric_id) if metric_id else None


def paid_item_of(item: str | None) -> str | None:
    """The expense item a payment item is the cash paid for (`paid_for`), else None."""
    metric = METRICS.get(item) if item else None
    return metric.paid_for if metric is not None else None


def paid_asked(question: str, metric_id: str | None) -> str | None:
    """The catalogue's payment item the question asks, else None: the payment item of the
    expense item asked with a verb of payment, or, where no item is asked, the one the payment
    verb's object names ('how much cash did X pay for interest': 'interest paid')."""
    if asks_payment(question, metric_id):
        return paid_item(metric_id)
    if metric_id is not None:
        return None  # another item is asked; a payment verb only describes it
    from finqa.lexicon.metrics import find_metrics

    for m in _PAID_OBJECT.finditer(question):
        words = m.group("obj").split()
        for n in range(len(words), 0, -1):
            for found in find_metrics(" ".join(words[:n]) + " paid"):
                item = METRICS.get(str(found.canonical))
                if item is not None and item.paid_for:
                    return item.id
    return None


# a heading over the supplemental disclosure of payments: 'Cash paid during the year for:',
# 'Cash paid for:', 'Cash payments for:', 'Supplemental cash flow information - cash paid for'
_PAID_HEADING = re.compile(r"\bcash\s+(?:paid|payments?)\b", re.I)


def paid_under(
    heading: str,
    item: str | None,
    label: str = "",
    known: Callable[[str], str | None] | None = None,
) -> str | None:
    """The item of a row under `heading`: under a heading of cash paid ('Cash paid during the
    year for:' / 'Income taxes, net of refunds'), an expense item's row is its payment
    ('income taxes paid'), not the provision, and a row the catalogue does not map is what the
    heading says was paid for it ('Interest, net of amounts capitalized' is 'Interest paid, net
    of amounts capitalized': `known`, the caption lookup, reads the caption so composed) when
    that is a payment item; else the row's own item."""
    if not (heading and _PAID_HEADING.search(heading)):
        return item
    paid = paid_item(item)
    if paid is not None or item is not None or known is None or not label:
        return paid or item
    head, comma, qualifier = label.partition(",")  # the payment's qualifier stays last
    for caption in (f"{head.strip()} paid{comma}{qualifier}", f"Cash paid for {label.strip()}"):
        found = known(caption)
        if found is not None and paid_item_of(found) is not None:
            return found
    return None


def names_payment(text: str) -> bool:
    """The text names a payment ('Cash paid for income taxes, net', 'income taxes paid')."""
    return bool(_PAY.search(text))
