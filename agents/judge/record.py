"""The verdict the judge hands back: its scores and decision, the diagnosis and feedback of a
rejection, and in `Verdict.details` every check it rests on (per claim, number, facet, the
statement model's value, the second route, the basis, the company and the injection checks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finqa.agents.config import JudgeConfig
from finqa.agents.judge.asked_parts import part_statuses
from finqa.agents.judge.context import Context, counted
from finqa.agents.judge.diagnosis import diagnose, evidence_gaps, feedback_text
from finqa.agents.judge.facets import Facet
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import CalcCheck, NumberCheck
from finqa.agents.judge.policy import Decision, Scores
from finqa.agents.types import Answer, Verdict

__all__ = ["Findings", "build_verdict", "with_company"]


@dataclass(frozen=True)
class Findings:
    """What the checks found about one answer."""

    numbers: list[NumberCheck]
    skipped: list[dict[str, Any]]
    calcs: list[CalcCheck]
    problems: list[KindProblem]
    claims: list[Any]
    facets: list[Facet]


def build_verdict(
    ctx: Context,
    answer: Answer,
    found: Findings,
    scores: Scores,
    decided: Decision,
    cfg: JudgeConfig,
) -> Verdict:
    """Utility vs the attempt's threshold, the diagnosis, feedback and every detail."""
    numbers, facets, problems = found.numbers, found.facets, found.problems
    decision = decided.decision
    gaps = evidence_gaps(
        ctx.view, ctx.analysis, ctx.asked, figures=any(f.kind == "figure" for f in facets)
    )
    diagnosis, faults = diagnose(
        gaps=gaps,
        numbers=numbers,
        calcs=found.calcs,
        facets=facets,
        claims=found.claims,
        abstained=ctx.abstained,
        view=ctx.view,
    )
    # an answer that obeys text aimed at the model states that text's figures: they are never
    # fed back to a prompt
    obeyed = any(i.followed for i in ctx.injection)
    shown = [] if obeyed else numbers
    if obeyed:
        faults = [f for f in faults if not any(f.startswith(n.text) for n in numbers)]
    feedback = feedback_text(
        decision=decision,
        utility=decided.utility,
        threshold=decided.threshold,
        diagnosis=diagnosis if decision == "retry" else None,
        gaps=gaps,
        faults=faults,
        numbers=shown,
        facets=facets,
        abstained=ctx.abstained,
    )
    if problems and decision == "retry":
        feedback += (
            " The answer does not answer the question: "
            + "; ".join(p.message for p in problems)
            + "."
        )
    if ctx.expect.kind is None and decision == "retry":
        feedback += f" ({ctx.expect.reason}.)"
    missing = tuple(f.text for f in facets if counted(f) and not f.addressed)
    details = _details(ctx, found, scores, cfg, gaps, faults)
    return Verdict(
        grounding=round(scores.grounding, 6),
        completeness=round(scores.completeness, 6),
        numeric=round(scores.numeric, 6),
        utility=decided.utility,
        threshold=decided.threshold,
        decision=decision,
        diagnosis=diagnosis if decision == "retry" else None,
        missing_facets=missing + _declared_gaps(answer, missing) if ctx.abstained else missing,
        unsupported_numbers=tuple(nc.text for nc in numbers if not nc.ok),
        feedback=feedback,
        details=details,
    )


def _details(
    ctx: Context,
    found: Findings,
    scores: Scores,
    cfg: JudgeConfig,
    gaps: Any,
    faults: Any,
) -> dict[str, Any]:
    details: dict[str, Any] = {
        "mode": "deterministic" if cfg.deterministic_verify else "raw-string (ablation)",
        "weights": {
            "grounding": cfg.w_grounding,
            "completeness": cfg.w_completeness,
            "numeric": cfg.w_numeric,
        },
        "asked_periods": [f"FY{y}" for y in ctx.asked],
        "abstained": ctx.abstained,
        "answer_kind": ctx.expect.to_dict(),
        "answer_problems": [p.to_dict() for p in found.problems],
        "claims": [x.to_dict() for x in found.claims],
        "numbers": [x.to_dict() for x in found.numbers],
        "skipped_numbers": found.skipped,
        "calculations": [x.to_dict() for x in found.calcs],
        "definitions": [d.to_dict() for d in ctx.definitions],
        "statement_model": ctx.model[0].describe() if ctx.model and ctx.model[0] else None,
        "second_route": ctx.route[0].to_dict() if ctx.route else None,
        "conventions": ctx.convention[0].to_dict() if ctx.convention else None,
        "basis": ctx.basis[0].to_dict() if ctx.basis else None,
        "facets": [f.to_dict() | {"counted": counted(f)} for f in found.facets],
        # each asked part: addressed, stated as not found by the answer, or missing
        "parts": part_statuses(ctx.intent.parts, found.facets),
        "evidence_gaps": gaps,
        "faults": faults,
    }
    if scores.llm is not None:
        details["llm"] = scores.llm
    if ctx.injection:
        details["injection"] = ctx.injection[0].to_dict()
    return details


def with_company(verdict: Verdict, company: Any) -> Verdict:
    """The verdict with the company check's findings; a rejection for another company's filing
    is a retrieval fault (the evidence lacks the asked company's filing)."""
    if company is None or not company.filings:
        return verdict
    details = {**verdict.details, "company": company.to_dict()}
    update: dict[str, Any] = {"details": details}
    if not company.ok and verdict.decision == "retry":
        update["diagnosis"] = "retrieval"
    return verdict.model_copy(update=update)


def _declared_gaps(answer: Answer, known: tuple[str, ...]) -> tuple[str, ...]:
    """Line items an abstaining reasoner said it could not find: the next retrieval looks for them."""
    return tuple(m for m in answer.missing if m and m not in known)
