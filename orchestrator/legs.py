"""Questions across filings: each leg answered as a question of its own, then combined.

`run_legs` asks every leg of a `LegPlan` (`finqa.lexicon.legs`) through the orchestrator's own
loop, scoped to the leg's company, so each leg has its own retrieval, reasoning, judge and
retries, and its own records in the audit chain (question id `<qid>/leg<N>`). The legs'
figures are then combined (higher / lower / difference / ratio / growth / CAGR / trend) by a
calculation finqa's evaluator runs over the legs' figures, recorded with one operand per leg.
One leg not accepted makes the whole not accepted, and the answer names the leg.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from finqa.agents.types import Calculation, Citation, Operand
from finqa.lexicon.arith import evaluate
from finqa.lexicon.legs import Leg, LegPlan, with_latest_years
from finqa.lexicon.metrics import METRICS
from finqa.orchestrator.result import LegResult, QAResult, Status, shown_figure


class Orchestrator(Protocol):
    """What the legs need of `finqa.orchestrator.loop.Orchestrator` (no import of it: the loop
    imports this module)."""

    retriever: Any
    run_id: str
    audit_path: str

    def run(
        self, question: str, *, question_id: str | None = None, company: str | None = None
    ) -> QAResult: ...

    def record(self, event: str, qid: str, **fields: Any) -> None: ...


__all__ = ["run_legs", "leg_figure", "combine"]


def leg_figure(result: QAResult) -> tuple[float, str, float] | None:
    """(value, unit, scale) of the figure a leg's answer rests on: its last calculation's result
    (amounts in absolute units: result times the operands' common scale); None without one."""
    if result.status in ("abstained", "failed") or not result.calculations:
        return None
    calc = result.calculations[-1]
    unit = calc.unit or "USD"
    scales = {o.scale for o in calc.operands}
    scale = scales.pop() if unit in ("USD", "shares") and len(scales) == 1 else 1.0
    return calc.result * scale, unit, scale


def _period_end(orch: Orchestrator, result: QAResult) -> str | None:
    """The fiscal period end of the filing a leg cites, from the index's catalogue."""
    index = getattr(orch.retriever, "index", None)
    if index is None or not result.citations:
        return None
    try:
        rec = index.catalog().get(result.citations[0].doc_id)
    except Exception:  # noqa: BLE001 - a store without a catalogue: no period end to show
        return None
    meta = getattr(rec, "meta", None) or {}
    end = meta.get("period_end") if isinstance(meta, Mapping) else None
    return str(end) if end else None


def _latest_year(orch: Orchestrator, company: str) -> int | None:
    """The latest fiscal year of an annual filing of `company` in the index's catalogue."""
    from finqa.lexicon.entities import find_companies

    index = getattr(orch.retriever, "index", None)
    if index is None:
        return None
    years: list[int] = []
    try:
        records = list(index.catalog().values())
    except Exception:  # noqa: BLE001 - a store without a catalogue
        return None
    for rec in records:
        meta = getattr(rec, "meta", None) or {}
        names = {c.name for c in find_companies(str(meta.get("company") or ""))}
        annual = str(meta.get("doc_type") or "").lower().startswith("10k")
        if company in names and annual and meta.get("fiscal_year"):
            years.append(int(meta["fiscal_year"]))
    return max(years) if years else None


def _leg_result(orch: Orchestrator, leg: Leg, result: QAResult) -> LegResult:
    fig = leg_figure(result)
    return LegResult(
        index=leg.index,
        label=leg.label,
        company=leg.company,
        metric=leg.metric,
        fiscal_year=leg.fiscal_year,
        months=leg.months,
        question=leg.question,
        question_id=result.question_id,
        status=result.status,
        utility=result.utility,
        answer=result.answer,
        value=fig[0] if fig else None,
        unit=fig[1] if fig else None,
        period_end=_period_end(orch, result),
        citations=result.citations,
        reason=result.reason,
    )


def _expression(plan: LegPlan, names: Sequence[str], unit: str) -> tuple[str, str]:
    """(expression over the operand names, unit of the result). A rate's move (a margin, a
    share) is its difference in percentage points, never a percent change of a percent."""
    a, b = names[0], names[-1]
    if plan.combine == "stitch":
        return f"{a} - {b}", ""  # the fiscal year less its year-to-date
    if unit == "%" and plan.combine in ("growth", "trend", "difference"):
        return f"{b} - {a}" if plan.combine != "difference" else f"{a} - {b}", "%"
    if plan.combine == "difference":
        return f"{a} - {b}", ""
    if plan.combine == "ratio":
        return f"{a} / {b}", "ratio"
    if plan.combine in ("higher", "compare"):
        return f"max({', '.join(names)})", ""
    if plan.combine == "lower":
        return f"min({', '.join(names)})", ""
    if plan.combine == "cagr":
        return f"(({b} / {a}) ** (1 / {len(names) - 1}) - 1) * 100", "%"
    return f"({b} - {a}) / abs({a}) * 100", "%"  # growth / trend: first to last year


def combine(plan: LegPlan, metric: str, legs: Sequence[LegResult]) -> Calculation | None:
    """The recorded calculation over one metric's legs, re-executed; None when a leg has no figure
    or the units do not line up."""
    mine = [leg for leg in legs if leg.metric == metric]
    if len(mine) < 2 or any(leg.value is None for leg in mine):
        return None
    units = {leg.unit for leg in mine}
    if len(units) != 1:
        return None
    unit = units.pop() or "USD"
    names = [f"leg{leg.index}" for leg in mine]
    expression, result_unit = _expression(plan, names, unit)
    operands = tuple(
        Operand(
            name=f"leg{leg.index}", value=float(leg.value or 0.0), unit=unit,
            period=f"FY{leg.fiscal_year}" if leg.fiscal_year else None,
            text=f"{leg.label}: {leg.shown}",
        )
        for leg in mine
    )  # fmt: skip
    result = evaluate(expression, {o.name: o.value for o in operands})
    return Calculation(
        expression=expression,
        operands=operands,
        result=result,
        unit=result_unit or unit,
        description=f"{plan.combine} of {METRICS[metric].name.lower()} over {len(mine)} legs",
    )


def _fiscal_years_note(legs: Sequence[LegResult]) -> str:
    """'fiscal years end on different dates: ...' when peers' fiscal years do not line up."""
    ends = {leg.company: leg.period_end for leg in legs if leg.period_end}
    months = {str(e)[5:10] for e in ends.values()}
    if len(months) <= 1:
        return ""
    shown = ", ".join(f"{c} FY ending {e}" for c, e in ends.items())
    return f" Fiscal years end on different dates ({shown})."


def _sentence(plan: LegPlan, metric: str, legs: Sequence[LegResult], calc: Calculation) -> str:
    mine = [leg for leg in legs if leg.metric == metric]
    name = METRICS[metric].name.lower()
    listed = "; ".join(f"{leg.label}: {leg.shown}" for leg in mine)
    if plan.combine in ("higher", "lower", "compare"):
        pick = max if plan.combine != "lower" else min
        best = pick(mine, key=lambda leg: float(leg.value or 0.0))
        word = "lower" if plan.combine == "lower" else "higher"
        return f"{best.company} had the {word} {name}. {listed}."  # the pick first, then figures
    if plan.combine == "difference":
        diff = shown_figure(calc.result, mine[0].unit)
        return f"{listed}. Difference ({mine[0].company} less {mine[-1].company}): {diff}."
    if plan.combine == "ratio":
        return f"{listed}. Ratio: {calc.result:.2f}x."
    if plan.combine == "stitch":
        full, ytd = mine[0], mine[-1]
        part = "fourth quarter" if ytd.months == 9 else "second half"
        derived = shown_figure(calc.result, full.unit)
        return (
            f"{full.company}'s {name} in the {part} of FY{full.fiscal_year}: {derived} "
            f"(derived: the fiscal year less its first {'nine months' if ytd.months == 9 else 'half'};"
            f" {listed})."
        )
    first, last = mine[0], mine[-1]
    if mine[0].unit == "%":
        return (
            f"{listed}. Change from FY{first.fiscal_year} to FY{last.fiscal_year}: "
            f"{calc.result:+.2f} percentage points."
        )
    what = "CAGR" if plan.combine == "cagr" else "Change"
    return (
        f"{listed}. {what} from FY{first.fiscal_year} to FY{last.fiscal_year}: {calc.result:+.2f}%."
    )


def run_legs(orch: Orchestrator, question: str, qid: str, plan: LegPlan) -> QAResult:
    """Answer each leg, combine, and record the plan, each leg's outcome and the combination."""
    if plan.last_n and not plan.legs:
        latest = _latest_year(orch, plan.company[0])
        if latest is not None:
            plan = with_latest_years(plan, latest)
    orch.record(
        "question_start", qid, params={"legs": len(plan.legs), "plan": plan.kind},
        data={"question": question, "plan": plan.describe()},
    )  # fmt: skip
    legs: list[LegResult] = []
    for leg in plan.legs:
        result = orch.run(leg.question, question_id=f"{qid}/leg{leg.index}", company=leg.company)
        legs.append(_leg_result(orch, leg, result))
    calcs: list[Calculation] = []
    parts: list[str] = []
    for metric in plan.metrics:
        calc = combine(plan, metric, legs)
        if calc is not None:
            calcs.append(calc)
            parts.append(_sentence(plan, metric, legs, calc))
            continue
        found = [leg for leg in legs if leg.metric == metric and leg.value is not None]
        if found:  # the legs that have a figure, stated; the combination cannot be made
            parts.append("; ".join(f"{leg.label}: {leg.shown}" for leg in found) + ".")
    missing = [leg for leg in legs if leg.value is None]
    unverified = [leg for leg in legs if leg.value is not None and leg.status != "accepted"]
    status: Status
    if len(missing) == len(legs):
        status = "abstained"
    elif missing or unverified:
        status = "best_effort"
    else:
        status = "accepted"
    why: list[str] = []
    if missing:
        why.append("no figure found for " + ", ".join(leg.label for leg in missing))
    if unverified:
        why.append(
            "not verified: " + ", ".join(f"{leg.label} ({leg.status})" for leg in unverified)
        )
    answer = " ".join(parts) if calcs else "Cannot answer: " + "; ".join(why) + "."
    if parts and not calcs:
        answer += " Found: " + " ".join(parts)
    answer += _fiscal_years_note(legs)
    if calcs and why:
        answer += " Caveat: " + "; ".join(why) + "."
    reason = "; ".join(why) or f"all {len(legs)} legs accepted; combined from their figures"
    citations = _citations(legs)
    utility = min((leg.utility for leg in legs), default=0.0)
    orch.record(
        "decision", qid, agent="orchestrator", decision="combine", reason=reason,
        scores={"utility": utility, "legs": len(legs)},
        data={"legs": [leg.model_dump(mode="json", exclude={"citations", "answer"}) for leg in legs],
              "calculations": [c.model_dump(mode="json") for c in calcs]},
    )  # fmt: skip
    orch.record(
        "final", qid, decision=status, reason=reason,
        scores={"utility": utility, "attempts": 0, "legs": len(legs)},
        data={"answer": answer, "citations": [c.model_dump(mode="json") for c in citations],
              "calculations": [c.model_dump(mode="json") for c in calcs]},
    )  # fmt: skip
    return QAResult(
        question=question,
        question_id=qid,
        answer=answer,
        status=status,
        utility=utility,
        citations=citations,
        calculations=tuple(calcs),
        run_id=orch.run_id,
        audit_log=orch.audit_path,
        reason=reason,
        legs=tuple(legs),
        extra={"plan": plan.describe()},
    )


def _citations(legs: Sequence[LegResult]) -> tuple[Citation, ...]:
    out: list[Citation] = []
    for leg in legs:
        for c in leg.citations:
            out.append(c.model_copy(update={"source_id": f"L{leg.index}.{c.source_id}"}))
    return tuple(out)
