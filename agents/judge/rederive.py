"""Re-derive what can be re-derived: the asked metric computed by the judge itself from the
evidence's statement tables with the catalogue's formula, so that a correct figure given without
a calculation trail can be accepted and a confident wrong one shown what the evidence gives.

Until the statement model (`StatementStore`) is on every Evidence, the statement lines come from
finqa's table reader over the evidence text (the offline reader's `Book`) and the formula from the
lexicon catalogue (through the offline recipes); the result is an ordinary `Calculation` whose
operands the judge then verifies like any recorded calculation (in the evidence, right column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.calc import CalcCheck, match_calc, verify_calculations
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.statement_figures import (
    StatementValue,
    change_from_statements,
    from_statements,
    match_statement_value,
    units_agree,
)
from finqa.agents.types import Calculation, Evidence

__all__ = [
    "Rederived",
    "StatementValue",
    "rederive",
    "match_rederived",
    "from_statements",
    "change_from_statements",
    "match_statement_value",
]

_TIGHTER = 0.2  # share of the judge's relative tolerance allowed against its own derivation


@dataclass(frozen=True)
class Rederived:
    """The judge's own computation of the asked metric, and its verification."""

    metric: str
    calculation: Calculation
    check: CalcCheck

    @property
    def ok(self) -> bool:
        return self.check.ok

    def describe(self) -> str:
        value = self.check.result if self.check.result is not None else self.calculation.result
        unit = self.calculation.unit
        return f"{self.metric.replace('_', ' ')} = {self.calculation.expression} = {value:,.4g}" + (
            f" {unit}" if unit and unit != "USD" else ""
        )

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "summary": self.describe(), **self.check.to_dict()}


def rederive(
    question: str, evidence: Evidence, view: EvidenceView, asked: Sequence[int], rel_tol: float
) -> Rederived | None:
    """The asked metric computed from the evidence tables, verified; None when it cannot be."""
    if not evidence.items:
        return None
    try:
        from finqa.agents.reasoning.offline.book import Book
        from finqa.agents.reasoning.offline.question import parse_question
        from finqa.agents.reasoning.offline.solver import solve

        spec = parse_question(question)
        if spec.recipe is None:
            return None
        solution = solve(spec, Book(evidence))
    except Exception:  # noqa: BLE001 - a table the reader cannot parse: nothing to re-derive
        return None
    if solution is None:
        return None
    check = verify_calculations([solution.calculation], view, asked, rel_tol)[0]
    return Rederived(str(spec.recipe), solution.calculation, check)


def match_rederived(q: Any, found: Rederived, rel_tol: float, expected: Sequence[int]) -> bool:
    """Does the answer's quantity `q` equal the verified re-derived value (in any of its forms)?"""
    unit = found.calculation.unit
    if not found.ok or not units_agree(str(q.unit or ""), unit):
        return False
    tol = rel_tol * _TIGHTER  # the same formula over the same lines: only rounding differs
    if unit == "USD" and q.unit != "%":
        # an amount is compared in absolute dollars: '$5,466,000' is not 5,466 (thousands)
        target = found.check.result_abs
        return target is not None and _lex.magnitude_close(q, target, rel_tol=tol)
    hit = match_calc(q, [found.check], tol, expected)
    return hit is not None and hit[0] == "calculation"
