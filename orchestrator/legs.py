"""Questions across filings: each leg answered as a question of its own, then combined.

`run_legs` asks every leg of a `LegPlan` (`finqa.lexicon.legs`) through the orchestrator's own
loop, scoped to the leg's company, so each leg has its own retrieval, reasoning, judge and
retries, and its own records in the audit chain (question id `<qid>/leg<N>`). The legs'
figures are then combined (higher / lower / difference / ratio / growth / CAGR / trend /
stitched / TTM) by a calculation finqa's evaluator runs over the legs' figures, recorded with
one operand per leg, and the judge re-executes the combination from the recorded legs
(`finqa.agents.judge.combination`). One leg not accepted, or a failed check of the
combination, makes the whole not accepted, and the answer says which and why.

A leg's company is resolved by its filings' own registrant, not by the ticker alone (a ticker
can name another registrant in another year): when the ticker also names another company's
filings, the leg is pinned to its company's own. A leg whose company has no filing that reports
its period abstains without being asked, saying so. When two filings of the company report the
leg's period with figures that differ beyond rounding (a restated comparative), the latest
filing's figure is used and both are noted (`LegResult.restatement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from finqa.agents.judge.combination import CombinationCheck, check_combination
from finqa.agents.types import Calculation, Citation, Operand
from finqa.lexicon.arith import evaluate
from finqa.lexicon.legs import Leg, LegPlan, with_latest_quarter, with_latest_years
from finqa.lexicon.metrics import METRICS
from finqa.orchestrator import _leg_filings as filings
from finqa.orchestrator.policy import unverified_outcome
from finqa.orchestrator.result import LegResult, QAResult, Restatement, Status, shown_figure


class Orchestrator(Protocol):
    """What the legs need of `finqa.orchestrator.loop.Orchestrator` (no import of it: the loop
    imports this module)."""

    retriever: Any
    settings: Any
    run_id: str
    audit_path: str

    def run(
        self,
        question: str,
        *,
        question_id: str | None = None,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        part: bool = False,
    ) -> QAResult: ...

    def record(self, event: str, qid: str, **fields: Any) -> None: ...


__all__ = ["run_legs", "leg_figure", "combine"]

_FORMS = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "earnings": "earnings release"}


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


class _Store:
    """What the legs read of the index: its filings (catalogue) and statement model."""

    def __init__(self, orch: Orchestrator) -> None:
        self.filings = filings.catalogue(getattr(orch.retriever, "index", None))
        self.by_id = {f.doc_id: f for f in self.filings}
        self.statements = filings.statements(getattr(orch, "settings", None))


def _leg_result(store: _Store, leg: Leg, result: QAResult, **extra: Any) -> LegResult:
    fig = leg_figure(result)
    cited = list(dict.fromkeys(c.doc_id for c in result.citations))
    first = store.by_id.get(cited[0]) if cited else None
    fact = filings.figure_fact(store.statements, cited, leg, fig[0]) if fig else None
    end = fact.period.end_date if fact is not None else None
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
        period_end=first.period_end if first is not None else None,
        citations=result.citations,
        reason=result.reason,
        as_of=leg.as_of,
        raw=fig[0] / fig[2] if fig and fig[2] else None,
        scale=fig[2] if fig else None,
        figure_end=filings.iso(end),
        weeks=fact.period.weeks if fact is not None else None,
        doc_id=(fact.doc_id if fact is not None else cited[0]) if cited else None,
        **extra,
    )


def _not_in_store(orch: Orchestrator, leg: Leg, qid: str, why: str) -> LegResult:
    """A leg no filing of the store reports: abstained without being asked, and recorded."""
    orch.record("question_start", qid, data={"question": leg.question, "leg": leg.index})
    orch.record("final", qid, decision="abstained", reason=why, data={"answer": ""})
    return LegResult(
        index=leg.index, label=leg.label, company=leg.company, metric=leg.metric,
        fiscal_year=leg.fiscal_year, months=leg.months, question=leg.question, question_id=qid,
        status="abstained", reason=why, as_of=leg.as_of,
    )  # fmt: skip


def _ask(orch: Orchestrator, store: _Store, leg: Leg, qid: str) -> LegResult:
    """One leg through the loop, scoped to its company's own filings."""
    mine = filings.own(store.filings, leg.company)
    if store.filings and not mine:
        return _not_in_store(orch, leg, qid, f"no filing of {leg.company} in the store")
    reporting = filings.covering(leg, mine)
    if mine and not reporting:
        held = ", ".join(
            sorted(
                {
                    f"{_FORMS.get(f.doc_type, f.doc_type)} FY{f.fiscal_year}"
                    for f in mine
                    if f.fiscal_year
                }
            )
        )
        return _not_in_store(
            orch,
            leg,
            qid,
            f"no filing of {leg.company} reports its period (the store holds {held})",
        )
    # pinned to the company's own filings that report the period when the ticker also names
    # another registrant's filings, and for a part of a year or a balance at a date (the 10-Q
    # that reports it may be of the next fiscal year: its comparative column)
    pin = bool(reporting) and (
        bool(filings.shared_ticker(store.filings, leg.company, leg.ticker))
        or bool(leg.months)
        or bool(leg.as_of)
    )
    if pin:
        ids = [f.doc_id for f in sorted(reporting, key=lambda f: f.sort_key, reverse=True)]
        result = orch.run(leg.question, question_id=qid, doc_ids=ids, part=True)
    else:
        result = orch.run(leg.question, question_id=qid, company=leg.company, part=True)
    return _leg_result(store, leg, result)


def _restated(orch: Orchestrator, store: _Store, leg: Leg, got: LegResult, qid: str) -> LegResult:
    """The leg as the latest filing reports its period, when an earlier filing of the company
    (the period's own) gives a figure that differs beyond rounding; both noted."""
    if got.value is None or store.statements is None:
        return got
    reporting = filings.covering(leg, filings.own(store.filings, leg.company))
    figures = filings.period_figures(store.statements, leg, reporting)
    original = filings.original_of(leg, figures)
    if original is None or len(figures) < 2:
        return got
    latest = figures[-1]
    (of, ofact), (lf, lfact) = original, latest
    if lf.doc_id == of.doc_id or not filings.beyond_rounding(
        ofact.value, ofact.scale, lfact.value, lfact.scale
    ):
        return got
    note = Restatement(
        original_doc=of.doc_id, original_value=ofact.value, original_period_end=of.period_end,
        latest_doc=lf.doc_id, latest_value=lfact.value, latest_period_end=lf.period_end,
    )  # fmt: skip
    if not filings.beyond_rounding(got.value, lfact.scale, lfact.value, lfact.scale):
        return got.model_copy(update={"restatement": note})
    # the leg read the original figure: asked again of the latest filing alone
    again = orch.run(leg.question, question_id=f"{qid}/latest", doc_ids=[lf.doc_id], part=True)
    redo = _leg_result(store, leg, again, restatement=note)
    if redo.value is not None and not filings.beyond_rounding(
        redo.value, lfact.scale, lfact.value, lfact.scale
    ):
        return redo
    why = f"the latest filing's restated figure ({lf.doc_id}) was not read"
    return got.model_copy(update={"restatement": note, "status": "best_effort", "reason": why})


def _expression(plan: LegPlan, names: Sequence[str], unit: str) -> tuple[str, str]:
    """(expression over the operand names, unit of the result). A rate's move (a margin, a
    share) is its difference in percentage points, never a percent change of a percent."""
    a, b = names[0], names[-1]
    if plan.combine == "balance":
        return a, ""  # a balance at the latest 10-Q's date: the leg's own figure
    if plan.combine == "ttm":
        return f"{names[0]} + {names[1]} - {names[2]}", ""  # FY + YTD - prior YTD
    if plan.combine == "stitch":
        return f"{a} - {b}", ""  # the fiscal year less its year-to-date
    if unit == "%" and plan.combine in ("growth", "trend", "difference"):
        return f"{b} - {a}" if plan.combine != "difference" else f"{a} - {b}", "%"
    if plan.combine == "difference":
        return f"{a} - {b}", ""
    if plan.combine == "ratio":
        return f"{a} / {b}", "ratio"
    if plan.combine in ("higher", "compare", "highest_year"):
        return f"max({', '.join(names)})", ""
    if plan.combine in ("lower", "lowest_year"):
        return f"min({', '.join(names)})", ""
    if plan.combine == "cagr":
        return f"(({b} / {a}) ** (1 / {len(names) - 1}) - 1) * 100", "%"
    return f"({b} - {a}) / abs({a}) * 100", "%"  # growth / trend: first to last year


def combine(plan: LegPlan, metric: str, legs: Sequence[LegResult]) -> Calculation | None:
    """The recorded calculation over one metric's legs, re-executed; None when a leg has no figure
    or the units do not line up."""
    mine = [leg for leg in legs if leg.metric == metric]
    need = 1 if plan.combine == "balance" else 3 if plan.combine == "ttm" else 2
    if len(mine) < need or any(leg.value is None for leg in mine):
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
    derived = " (derived)" if plan.combine in ("stitch", "ttm") else ""
    chosen = _pick(plan, mine)
    if chosen is not None:
        derived = f": FY{chosen.fiscal_year}"
    return Calculation(
        expression=expression,
        operands=operands,
        result=result,
        unit=result_unit or unit,
        description=f"{plan.combine} of {METRICS[metric].name.lower()} over {len(mine)} legs"
        + derived,
    )


def _pick(plan: LegPlan, legs: Sequence[LegResult]) -> LegResult | None:
    """The leg of the year a 'which year had the highest (lowest)' trend picks; None for another
    combination or without figures."""
    if plan.combine not in ("highest_year", "lowest_year"):
        return None
    found = [leg for leg in legs if leg.value is not None]
    if not found:
        return None
    choose = max if plan.combine == "highest_year" else min
    return choose(found, key=lambda leg: float(leg.value or 0.0))


def _fiscal_years_note(legs: Sequence[LegResult]) -> str:
    """'fiscal years end on different dates: ...' when peers' fiscal years do not line up."""
    ends = {leg.company: leg.period_end for leg in legs if leg.period_end}
    months = {str(e)[5:10] for e in ends.values()}
    if len(months) <= 1:
        return ""
    shown = ", ".join(f"{c} FY ending {e}" for c, e in ends.items())
    return f" Fiscal years end on different dates ({shown})."


def _weeks_note(legs: Sequence[LegResult]) -> str:
    """A fiscal year of 52 or 53 weeks, where the filing's statement header says so."""
    seen: dict[tuple[str, int], int] = {}
    for leg in legs:
        if leg.weeks and leg.fiscal_year and not leg.months:
            seen.setdefault((leg.company, leg.fiscal_year), leg.weeks)
    shown = "; ".join(f"{c} FY{y}: {w} weeks" for (c, y), w in seen.items())
    return f" Fiscal years as filed: {shown}." if shown else ""


def _restated_note(legs: Sequence[LegResult]) -> str:
    """Each restated comparative: both figures, both filings, and which is used."""
    out: list[str] = []
    for leg in legs:
        r = leg.restatement
        if r is None:
            continue
        out.append(
            f" Restated: {leg.label} is {shown_figure(r.latest_value, leg.unit)} in "
            f"{r.latest_doc} (the latest filing, used) and was "
            f"{shown_figure(r.original_value, leg.unit)} in {r.original_doc} (the original)."
        )
    return "".join(out)


def _sentence(plan: LegPlan, metric: str, legs: Sequence[LegResult], calc: Calculation) -> str:
    mine = [leg for leg in legs if leg.metric == metric]
    name = METRICS[metric].name.lower()
    listed = "; ".join(f"{leg.label}: {leg.shown}" for leg in mine)
    chosen = _pick(plan, mine)
    if chosen is not None:  # the year first (its own sentence names no other year), then each
        word = "highest" if plan.combine == "highest_year" else "lowest"
        return f"FY{chosen.fiscal_year} had {chosen.company}'s {word} {name} ({chosen.shown}). {listed}."
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
    if plan.combine == "balance":
        leg = mine[0]
        return (
            f"{leg.company}'s {name} at {leg.as_of}: {leg.shown} (a balance has no trailing "
            f"twelve months: its figure at the latest 10-Q's date)."
        )
    if plan.combine == "ttm":
        year, now, before = mine[0], mine[1], mine[2]
        derived = shown_figure(calc.result, year.unit)
        return (
            f"{year.company}'s trailing-twelve-month {name} as of the 10-Q for the period ended "
            f"{plan.as_of}: {derived} (derived: {year.label} {year.shown} + {now.label} "
            f"{now.shown} − {before.label} {before.shown})."
        )
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


def _resolve(orch: Orchestrator, store: _Store, plan: LegPlan) -> tuple[LegPlan, str]:
    """A plan whose legs come from the store (the last N years, a TTM's latest 10-Q); the reason
    when they cannot be resolved."""
    if plan.legs:
        return plan, ""
    mine = filings.own(store.filings, plan.company[0])
    if plan.kind == "ttm":
        quarter = filings.latest_quarter(mine)
        if quarter is None:
            return plan, f"no 10-Q of {plan.company[0]} in the store to end twelve months at"
        return with_latest_quarter(plan, *quarter), ""
    latest = filings.latest_year(mine)
    if latest is None:
        return plan, f"no annual filing of {plan.company[0]} in the store"
    return with_latest_years(plan, latest), ""


def _judge(
    orch: Orchestrator, qid: str, plan: LegPlan, legs: Sequence[LegResult],
    calcs: Sequence[Calculation],
) -> list[CombinationCheck]:  # fmt: skip
    """The judge's check of each combination, from the legs and calculations as recorded."""
    recorded = [leg.model_dump(mode="json", exclude={"citations", "answer"}) for leg in legs]
    out: list[CombinationCheck] = []
    for calc in calcs:
        names = {o.name for o in calc.operands}
        mine = [r for r in recorded if f"leg{r['index']}" in names]
        picked = _pick(plan, [leg for leg in legs if f"leg{leg.index}" in names])
        metric = next((leg.metric for leg in legs if f"leg{leg.index}" in names), None)
        span = sorted({leg.fiscal_year or 0 for leg in plan.legs if leg.metric == metric})
        out.append(
            check_combination(
                plan.kind, plan.combine, mine, calc.model_dump(mode="json"),
                pick=picked.fiscal_year if picked is not None else None, span=span,
            )
        )  # fmt: skip
    if out:
        bad = [p for c in out for p in c.problems]
        orch.record(
            "judge", qid, agent="judge", decision="accept" if not bad else "reject",
            reason="; ".join(bad) or "combination re-executed from the recorded legs; units, "
            "scale and periods line up",
            scores={"combinations": len(out), "failed": sum(not c.ok for c in out)},
            data={"combination_checks": [c.as_record() for c in out]},
        )  # fmt: skip
    return out


def run_legs(orch: Orchestrator, question: str, qid: str, plan: LegPlan) -> QAResult:
    """Answer each leg, combine, have the judge check the combination, and record the plan, each
    leg's outcome, the combination and the check."""
    store = _Store(orch)
    plan, unresolved = _resolve(orch, store, plan)
    orch.record(
        "question_start", qid, params={"legs": len(plan.legs), "plan": plan.kind},
        data={"question": question, "plan": plan.describe()},
    )  # fmt: skip
    legs: list[LegResult] = []
    for leg in plan.legs:
        leg_qid = f"{qid}/leg{leg.index}"
        got = _ask(orch, store, leg, leg_qid)
        legs.append(_restated(orch, store, leg, got, leg_qid))
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
    checks = _judge(orch, qid, plan, legs, calcs)
    failed = [p for c in checks for p in c.problems]
    missing = [leg for leg in legs if leg.value is None]
    unverified = [leg for leg in legs if leg.value is not None and leg.status != "accepted"]
    status: Status
    if len(missing) == len(legs):
        status = "abstained"
    elif missing or unverified or failed:
        status = "best_effort"
    else:
        status = "accepted"
    why: list[str] = [unresolved] if unresolved else []
    if missing:
        why.append(
            "no figure found for " + ", ".join(f"{leg.label}{_why_missing(leg)}" for leg in missing)
        )
    if unverified:
        why.append(
            "not verified: " + ", ".join(f"{leg.label} ({leg.status})" for leg in unverified)
        )
    if failed:
        why.append("the judge's check of the combination failed: " + "; ".join(failed))
    answer = " ".join(parts) if calcs else "Cannot answer: " + "; ".join(why) + "."
    if parts and not calcs:
        answer += " Found: " + " ".join(parts)
    answer += _fiscal_years_note(legs) + _weeks_note(legs) + _restated_note(legs)
    if calcs and why:
        answer += " Caveat: " + "; ".join(why) + "."
    reason = "; ".join(why) or f"all {len(legs)} legs accepted; combined from their figures"
    status, answer, reason = unverified_outcome(
        orch.settings, status, answer, reason, "the combination was not verified"
    )
    citations = _citations(legs)
    utility = min((leg.utility for leg in legs), default=0.0)
    orch.record(
        "decision", qid, agent="orchestrator", decision="combine", reason=reason,
        scores={"utility": utility, "legs": len(legs)},
        data={"legs": [leg.model_dump(mode="json", exclude={"citations", "answer"}) for leg in legs],
              "calculations": [c.model_dump(mode="json") for c in calcs],
              "derived": plan.combine in ("stitch", "ttm")},
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
        extra={"plan": plan.describe(), "combination_checks": [c.as_record() for c in checks]},
    )


def _why_missing(leg: LegResult) -> str:
    """' (why)' of a leg without a figure: the store has no filing for it, or its own reason."""
    if not leg.reason:
        return ""
    short = leg.reason if len(leg.reason) <= 160 else leg.reason[:157] + "..."
    return f" ({short})"


def _citations(legs: Sequence[LegResult]) -> tuple[Citation, ...]:
    out: list[Citation] = []
    for leg in legs:
        for c in leg.citations:
            out.append(c.model_copy(update={"source_id": f"L{leg.index}.{c.source_id}"}))
    return tuple(out)
