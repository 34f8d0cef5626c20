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
from finqa.agents.types import Calculation, Evidence

__all__ = [
    "Rederived",
    "StatementValue",
    "rederive",
    "match_rederived",
    "from_statements",
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
    if not found.ok or not _units_agree(str(q.unit or ""), unit):
        return False
    tol = rel_tol * _TIGHTER  # the same formula over the same lines: only rounding differs
    if unit == "USD" and q.unit != "%":
        # an amount is compared in absolute dollars: '$5,466,000' is not 5,466 (thousands)
        target = found.check.result_abs
        return target is not None and _lex.magnitude_close(q, target, rel_tol=tol)
    hit = match_calc(q, [found.check], tol, expected)
    return hit is not None and hit[0] == "calculation"


_PURE = frozenset({"", "%", "ratio", "times", "x", "days"})


def _units_agree(written: str, computed: str) -> bool:
    """A figure in euros is not a dollar metric; a bare or percent figure may be any pure one."""
    if written in ("", "%"):
        return True
    if written in _PURE and computed in _PURE:
        return True
    return written == computed


@dataclass(frozen=True)
class StatementValue:
    """The asked metric computed from the statement model of the evidence pages."""

    metric: str
    value: float  # base units for amounts; as the formula gives for ratios / percents / days
    unit: str
    year: int
    facts: tuple[str, ...]  # 'label FY2022 = value (doc p.N)' of every line used

    def describe(self) -> str:
        used = "; ".join(self.facts)
        return f"{self.metric.replace('_', ' ')} FY{self.year} = {self.value:,.4g} from {used}"


def _leaves(metric_id: str) -> list[str]:
    """The line items (non-derived catalogue ids) a metric's formula needs, recursively."""
    out: list[str] = []
    stack = [metric_id]
    while stack:
        mid = stack.pop()
        inputs = _lex.metric_inputs(mid)
        if not inputs and mid not in out:
            out.append(mid)
        stack.extend(i for i in inputs if i not in out)
    return out


def from_statements(
    metric_id: str | None, evidence: Evidence, asked: Sequence[int]
) -> StatementValue | None:
    """The asked metric for the latest asked year, from the statement model of the evidence
    pages (finqa's statement reader, one store over all of them) and the catalogue formula."""
    if metric_id is None or not asked or not evidence.items:
        return None
    try:
        from finqa.lexicon import evaluate_metric, get_metric
        from finqa.lexicon.statements.memory import MemoryStatementStore
        from finqa.lexicon.statements.reader import read_pages

        pages: dict[str, dict[int, str]] = {}
        for item in evidence.items:
            for page in item.pages[:1]:
                pages.setdefault(item.doc_id, {})[page] = item.text
        store = MemoryStatementStore(
            t for doc, texts in pages.items() for t in read_pages(doc, texts.items()).tables
        )
        year = max(asked)
        current: dict[str, float] = {}
        previous: dict[str, float] = {}
        used: list[str] = []
        for leaf in _leaves(metric_id):
            for doc in store.docs():
                now = store.lookup(doc, leaf, year)
                if now and leaf not in current:
                    current[leaf] = now[0].value
                    used.append(f"{now[0].label} FY{year} = {now[0].raw} ({doc} p.{now[0].page})")
                before = store.lookup(doc, leaf, year - 1)
                if before and leaf not in previous:
                    previous[leaf] = before[0].value
        value = evaluate_metric(metric_id, current, previous)
        unit = get_metric(metric_id).unit
    except Exception:  # noqa: BLE001 - no table, no line, no formula: nothing to re-derive
        return None
    return StatementValue(metric_id, value, unit, max(asked), tuple(used))


def match_statement_value(q: Any, found: StatementValue, rel_tol: float) -> bool:
    """Does the answer's quantity `q` state the statement-model value (in any of its forms)?"""
    if not _units_agree(str(q.unit or ""), found.unit):
        return False
    tol = rel_tol * _TIGHTER
    if found.unit in ("USD", "USD/share") and q.unit != "%":
        return _lex.magnitude_close(q, found.value, rel_tol=tol)
    as_written = (1.0 / float(q.scale or 1.0),)
    targets = [found.value]
    if found.unit == "%" and q.unit != "%":
        targets.append(found.value / 100.0)  # the percentage written as a fraction
    if found.unit in ("ratio", "times") and q.unit == "%":
        targets.append(found.value * 100.0)
    return any(_lex.magnitude_close(q, t, rel_tol=tol, scales=as_written) for t in targets)
