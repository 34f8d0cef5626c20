"""Return on equity over the company's share of net income takes the equity attributable to
its shareholders: an equity row naming no owners ('Total equity') may hold the noncontrolling
interests too and is not read as it (`definition`'s `other_metric`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finqa.agents.judge.definition_operands import operand_label
from finqa.agents.types import Calculation

# a row of equity that is the parent's: it names its owners ('Total shareholders' equity',
# 'Equity attributable to shareowners of The Coca-Cola Company'); 'Total equity' does not
_OWNERS = re.compile(r"share ?holder|stock ?holder|share ?owner|owner|attributable|common|parent")


def equity_with_minority(
    calc: Calculation, ops: Sequence[str | None], definition: Any
) -> str | None:
    """The equity row of a return on equity that is not the parent's: net income is the
    company's share (the catalogue's convention), so the equity it is set against must be the
    equity attributable to the company; a row naming no owners ('Total equity') may hold the
    noncontrolling interests too and is not read as it."""
    inputs = set(definition.inputs)
    if not {"net_income", "shareholders_equity"} <= inputs or "net_income" not in ops:
        return None
    less_nci = _less_noncontrolling(calc, ops)
    for op, mid in zip(calc.operands, ops, strict=True):
        if op.name in less_nci:
            continue  # total equity less noncontrolling interests: the company's equity
        label = operand_label(op.text)
        # read as the total with noncontrolling interests (`total_equity`), or an equity row
        # naming no owners
        if mid == "total_equity" or (
            mid == "shareholders_equity" and not _OWNERS.search(label.lower())
        ):
            return label or op.name
    return None


def _less_noncontrolling(calc: Calculation, ops: Sequence[str | None]) -> set[str]:
    """Operand names the expression takes as 'X - noncontrolling interests' (the company's
    equity where its balance sheet prints only the total: us-gaap StockholdersEquity =
    ...IncludingPortionAttributableToNoncontrollingInterest - MinorityInterest)."""
    nci = [
        op.name
        for op, mid in zip(calc.operands, ops, strict=True)
        if mid == "noncontrolling_interest"
    ]
    expr = " ".join(calc.expression.split())
    return {
        op.name
        for op in calc.operands
        if any(re.search(rf"\b{re.escape(op.name)}\s*-\s*{re.escape(n)}\b", expr) for n in nci)
    }
