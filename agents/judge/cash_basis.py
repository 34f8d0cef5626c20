"""The expense of the period given for the cash paid: the question asks what was paid in cash
for an expense item (income taxes, interest), and the answer names no payment, so its figure is
the accrual (the provision), not the payment the statement of cash flows reports
(`lexicon.cash_basis`)."""

from __future__ import annotations

from collections.abc import Sequence

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.lexicon.cash_basis import asks_cash_paid, names_payment, paid_item_of

__all__ = ["accrual_for_cash"]


def accrual_for_cash(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the cash paid for an expense item is asked and the answer names no
    payment; its figures become unverified."""
    metric = ctx.expect.metric
    if not numbers or not asks_cash_paid(ctx.intent.asked_text, metric) or names_payment(ctx.text):
        return []
    name = (paid_item_of(metric) or metric or "the item").replace("_", " ")
    message = (
        f"the cash paid was asked, not the {name} of the period (an accrual): give the payment "
        "the statement of cash flows reports (its 'cash paid' line)"
    )
    for nc in numbers:
        if nc.ok:
            nc.status, nc.detail = "not_found", message
    return [KindProblem("accrual_for_cash", message, [nc.text for nc in numbers])]
