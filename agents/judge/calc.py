"""Re-execution of recorded calculations with the judge's own safe arithmetic evaluator, and the
verification of each calculation: operands found in the evidence (in a plausible period), the
arithmetic re-done, and an answer figure matched against the re-executed result.

The evaluator is finqa's one safe arithmetic (`finqa.lexicon.arith`): numbers, operand names,
+ - * / ** (small exponents), parentheses and a few functions; anything else is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge._match import find, match
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.types import CalcStatus, Calculation, FigureStatus
from finqa.lexicon.arith import ArithmeticError_, evaluate
from finqa.lexicon.statements.located import column_period

__all__ = [
    "CalcError",
    "CalcCheck",
    "safe_eval",
    "evaluate_calculation",
    "verify_calculations",
    "match_calc",
    "magnitude_target",
]


CalcError = ArithmeticError_
"""A recorded calculation cannot be re-executed (unsafe, malformed or undefined)."""


def safe_eval(expression: str, variables: Mapping[str, float]) -> float:
    """Evaluate an arithmetic expression over named variables, refusing anything else."""
    return evaluate(expression.strip(), variables)


def evaluate_calculation(expression: str, operands: Mapping[str, float]) -> float:
    """Re-execute `expression` with operand values bound to their names (identifier-safe)."""
    env: dict[str, float] = {}
    for name, value in operands.items():
        env[name] = value
        env[_identifier(name)] = value
    return safe_eval(expression, env)


def _identifier(name: str) -> str:
    """'revenue FY2022' -> 'revenue_FY2022' (how a reasoner names a non-identifier operand)."""
    ident = re.sub(r"\W+", "_", name.strip()).strip("_")
    return f"_{ident}" if ident[:1].isdigit() else ident


# --------------------------------------------------------------------------- verification


@dataclass
class CalcCheck:
    """The judge's re-execution of one recorded Calculation."""

    index: int
    expression: str
    unit: str
    recorded: float
    status: CalcStatus = "verified"
    result: float | None = None  # re-executed on operand values as written
    result_abs: float | None = None  # re-executed on absolute operand values
    scale: float = 1.0  # the operands' common scale (1.0 when mixed)
    years: list[int] = field(default_factory=list)  # operand column years
    header: set[int] = field(default_factory=set)  # years the operands' tables have columns for
    operands: list[dict[str, Any]] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "expression": self.expression,
            "status": self.status,
            "recorded": self.recorded,
            "recomputed": self.result,
            "recomputed_absolute": self.result_abs,
            "unit": self.unit,
            "operands": self.operands,
            "detail": self.detail,
        }


def verify_calculations(
    calcs: Sequence[Calculation], view: EvidenceView, asked: Sequence[int], rel_tol: float
) -> list[CalcCheck]:
    """Re-execute every calculation; find each operand in the evidence, in a plausible period."""
    window = tuple(range(min(asked) - 1, max(asked) + 1)) if asked else ()
    checks: list[CalcCheck] = []
    for i, calc in enumerate(calcs):
        check = CalcCheck(i, calc.expression, calc.unit, calc.result)
        scales = {op.scale for op in calc.operands}
        check.scale = scales.pop() if len(scales) == 1 else 1.0
        try:
            check.result = evaluate_calculation(
                calc.expression, {o.name: o.value for o in calc.operands}
            )
            check.result_abs = evaluate_calculation(
                calc.expression, {o.name: o.value * o.scale for o in calc.operands}
            )
        except CalcError as exc:
            check.status, check.detail = "error", str(exc)
            checks.append(check)
            continue
        years: list[int] = []
        for op in calc.operands:
            oq = _lex.quantity_from(
                op.value, scale=op.scale, unit=_unit(op.unit), decimals=_decimals(op.value)
            )
            own = _period_year(op.period)
            expected = (own,) if own else window
            status, src, _e, col = find(
                oq, view, [op.source_id] if op.source_id else [], expected, rel_tol
            )
            if status == "period_mismatch" and not own:
                status = "evidence"  # operands of averages/changes legitimately span periods
            if col is not None:
                years.append(col)
            check.operands.append(
                {
                    "name": op.name,
                    "value": op.value,
                    "scale": op.scale,
                    "status": status,
                    "source": src.source_id if src else None,
                    "period": col,
                }
            )
        statuses = {o["status"] for o in check.operands}
        if "not_found" in statuses:
            check.status, check.detail = "operand_not_found", "an operand is not in the evidence"
        elif "period_mismatch" in statuses:
            check.status, check.detail = "period_mismatch", "an operand is from another period"
        check.years = years
        check.header = _columns(view, calc)
        checks.append(check)
    return checks


def _columns(view: EvidenceView, calc: Calculation) -> set[int]:
    """The years the operands' tables have columns for."""
    years: set[int] = set()
    for op in calc.operands:
        oq = _lex.quantity_from(
            op.value, scale=op.scale, unit=_unit(op.unit), decimals=_decimals(op.value)
        )
        src = view.get(op.source_id)
        for s in [src] if src else view.sources:
            for e in s.quantities:
                if match(oq, e, 0.0):
                    years |= {y for y in column_period(s.text, e.start, e.end).header if y}
                    break
    return years


def _unit(unit: str) -> str:
    return "" if unit in ("ratio", "times", "days", "shares") else unit


def _decimals(value: float) -> int:
    text = f"{value:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def _period_year(period: str | None) -> int | None:
    if not period:
        return None
    m = re.search(r"((?:19|20)\d{2})", period)
    return int(m.group(1)) if m else None


def _calc_targets(
    q: Any, check: CalcCheck, values: Sequence[float | None]
) -> list[tuple[float, bool]]:
    """(target, compare_as_written) values the answer number may equal for this calculation."""
    out: list[tuple[float, bool]] = []
    for r in values:
        if r is None:
            continue
        if q.unit == "%":
            out.append((r, True))
            if check.unit != "%":
                out.append((r * 100.0, True))
        elif check.unit == "%" and q.unit in ("", "ratio"):
            out += [(r / 100.0, True), (r, True)]
        else:
            out.append((r, q.scale_source == "none"))
            out.append((r * check.scale, False))
            if q.unit in ("", "ratio") and q.scale_source == "none":
                out.append((r / 100.0, True))  # '0.36' for a result computed as 36 (%)
    return out


def magnitude_target(q: Any, target: float, as_written: bool, rel_tol: float) -> bool:
    if as_written or q.unit == "%":
        return _lex.magnitude_close(
            q, target, rel_tol=rel_tol, scales=(1.0 / float(q.scale or 1.0),)
        )
    return _lex.magnitude_close(q, target, rel_tol=rel_tol)


def _stale(check: CalcCheck, expected: Sequence[int]) -> bool:
    """Every operand is from before the period the number is for, though the tables have it."""
    if not expected or not check.years:
        return False
    latest = max(expected)
    return max(check.years) < latest and latest in check.header


def match_calc(
    q: Any, checks: Sequence[CalcCheck], rel_tol: float, expected: Sequence[int] = ()
) -> tuple[FigureStatus, int] | None:
    for check in checks:
        if check.result is None:
            continue
        for target, written in _calc_targets(q, check, (check.result, check.result_abs)):
            if magnitude_target(q, target, written, rel_tol):
                if check.ok and _stale(check, expected):
                    return "period_mismatch", check.index
                return ("calculation" if check.ok else _calc_fail(check)), check.index
    for check in checks:
        for target, written in _calc_targets(q, check, (check.recorded,)):
            if magnitude_target(q, target, written, rel_tol):
                return "calc_mismatch", check.index
    return None


def _calc_fail(check: CalcCheck) -> FigureStatus:
    return "period_mismatch" if check.status == "period_mismatch" else "calc_unverified"
