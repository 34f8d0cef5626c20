"""Cash paid versus the expense of the period: 'how much did X pay in income taxes in cash' asks
the payment (the cash-flow statement's supplemental 'cash paid for income taxes'), not the
provision, which is the period's accrual. An expense item of the catalogue (nature `expense`)
asked with a verb of payment and the word cash is asked on the cash basis.
"""

from __future__ import annotations

import re

from finqa.lexicon.metrics import METRICS

__all__ = ["asks_cash_paid", "names_payment"]

_PAY = re.compile(r"\b(?:pa(?:y|id|ying|yments?)|remit\w*|disburse\w*)\b", re.I)
_CASH = re.compile(r"\bcash\b", re.I)


def asks_cash_paid(question: str, metric_id: str | None) -> bool:
    """The question asks the cash paid for an expense item ('how much did X pay in income taxes
    in cash', 'cash paid for interest'), not the item's expense for the period."""
    metric = METRICS.get(metric_id) if metric_id else None
    if metric is None or metric.nature != "expense":
        return False
    return bool(_PAY.search(question) and _CASH.search(question))


def names_payment(text: str) -> bool:
    """The text names a payment ('Cash paid for income taxes, net', 'income taxes paid')."""
    return bool(_PAY.search(text))
