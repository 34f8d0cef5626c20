"""JudgeAgent: the blind evaluation of one attempt (no gold answer), with its reasons.

U = w_g mu_g + w_c mu_c + w_n mu_n (weights from settings.judge); accept iff U >= tau_t with
tau_t = settings.judge.threshold(attempt). Every score comes with its per-claim, per-number and
per-facet evidence in `Verdict.details`, and every rejection with a diagnosis and feedback.
"""

from __future__ import annotations

from typing import Any, Literal

from finqa.agents.config import Settings
from finqa.agents.judge import _lex
from finqa.agents.judge.diagnosis import diagnose, evidence_gaps, feedback_text
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import check_facets, completeness_score, decompose
from finqa.agents.judge.grounding import check_claims, grounding_score
from finqa.agents.judge.numeric import FAIL_CAP, check_numbers, numeric_score, verify_calculations
from finqa.agents.judge.text import content_tokens, split_claims
from finqa.agents.types import Answer, Evidence, LLMClient, Verdict
from finqa.lexicon.refusal import REFUSAL

__all__ = ["JudgeAgent"]

_NO_CONTENT_GROUNDING = 0.5  # a bare 'Yes.' can be neither supported nor refuted by tokens


class JudgeAgent:
    """Deterministic judge (optionally assisted by an LLM entailment check); satisfies `Judge`."""

    def __init__(self, settings: Settings, llm: LLMClient | None = None) -> None:
        self.settings = settings
        self.config = settings.judge
        self.llm = llm

    # ------------------------------------------------------------------ public

    def evaluate(self, question: str, answer: Answer, evidence: Evidence, attempt: int) -> Verdict:
        """Score `answer` against `evidence` for `question` at `attempt` (1-based)."""
        cfg = self.config
        view = EvidenceView.of(evidence)
        analysis = _analysis(question)
        asked = _asked_years(question, analysis)
        text = answer.text or ""
        abstained = answer.abstained or (bool(REFUSAL.search(text)) and len(text) < 400)
        deterministic = cfg.deterministic_verify
        calcs = (
            verify_calculations(answer.calculations, view, asked, cfg.rel_tolerance)
            if deterministic
            else []
        )
        cited = [c.source_id for c in answer.citations]
        checklist = decompose(question, analysis)
        parts = {f.part for f in checklist if f.kind != "conditional"}
        numbers, skipped = check_numbers(
            text,
            question,
            view,
            calcs,
            asked=asked,
            cited=cited,
            rel_tol=cfg.rel_tolerance,
            deterministic=deterministic,
            topic=_metric_tokens(analysis),
            single_part=len(parts) <= 1,
        )
        claims = split_claims(text)
        claim_checks = check_claims(claims, numbers, view, question, default_sources=cited)
        quoted = sum(1 for x in skipped if x["reason"] == "quoted from the question")
        spans = [(nc.start, nc.end) for nc in numbers] + [
            (int(x["start"]), int(x["end"]))
            for x in skipped
            if x["reason"] == "quoted from the question"
        ]
        per_claim = [sum(1 for s, e in spans if s < c.end and c.start < e) for c in claims]
        facets = check_facets(
            checklist, text, len(numbers) + quoted, [c.text for c in claims], per_claim
        )
        gaps = evidence_gaps(view, analysis, asked, figures=any(f.kind == "figure" for f in facets))

        _discount_coincidences(claim_checks, numbers)
        missing = tuple(f.text for f in facets if _counted(f) and not f.addressed)
        g = grounding_score(claim_checks, len(missing))
        g = _NO_CONTENT_GROUNDING if g is None else g
        llm_info: dict[str, Any] | None = None
        if cfg.llm_judge and self.llm is not None and not abstained:
            from finqa.agents.judge.llm import llm_grounding

            g_llm, llm_info = llm_grounding(self.llm, question, claim_checks, view)
            if g_llm is not None:
                g = (g + g_llm) / 2.0  # combined with, never replacing, the deterministic check
        c = completeness_score(facets)
        n = numeric_score(numbers)
        if n is None:
            figure_missing = any(f.kind == "figure" and not f.addressed for f in facets)
            n = 0.0 if figure_missing else g
        if missing:
            # a part left unanswered is a figure/claim the answer owes: mu_n is capped as for an
            # unverifiable number (otherwise w_c = 0.2 alone could never send a half answer back)
            n *= FAIL_CAP
        if abstained:
            g, c, n = 0.0, 0.0, 0.0
        utility = cfg.w_grounding * g + cfg.w_completeness * c + cfg.w_numeric * n
        utility = round(utility, 6)
        threshold = round(cfg.threshold(attempt), 6)
        decision: Literal["accept", "retry"] = "accept" if utility >= threshold else "retry"
        diagnosis, faults = diagnose(
            gaps=gaps,
            numbers=numbers,
            calcs=calcs,
            facets=facets,
            claims=claim_checks,
            abstained=abstained,
            view=view,
        )
        feedback = feedback_text(
            decision=decision,
            utility=utility,
            threshold=threshold,
            diagnosis=diagnosis if decision == "retry" else None,
            gaps=gaps,
            faults=faults,
            numbers=numbers,
            facets=facets,
            abstained=abstained,
        )
        unsupported = tuple(nc.text for nc in numbers if not nc.ok)
        details: dict[str, Any] = {
            "mode": "deterministic" if deterministic else "raw-string (ablation)",
            "weights": {
                "grounding": cfg.w_grounding,
                "completeness": cfg.w_completeness,
                "numeric": cfg.w_numeric,
            },
            "asked_periods": [f"FY{y}" for y in asked],
            "abstained": abstained,
            "claims": [x.to_dict() for x in claim_checks],
            "numbers": [x.to_dict() for x in numbers],
            "skipped_numbers": skipped,
            "calculations": [x.to_dict() for x in calcs],
            "facets": [f.to_dict() | {"counted": _counted(f)} for f in facets],
            "evidence_gaps": gaps,
            "faults": faults,
        }
        if llm_info is not None:
            details["llm"] = llm_info
        verdict = Verdict(
            grounding=round(g, 6),
            completeness=round(c, 6),
            numeric=round(n, 6),
            utility=utility,
            threshold=threshold,
            decision=decision,
            diagnosis=diagnosis if decision == "retry" else None,
            missing_facets=missing + _declared_gaps(answer, missing) if abstained else missing,
            unsupported_numbers=unsupported,
            feedback=feedback,
            details=details,
        )
        return verdict


def _declared_gaps(answer: Answer, known: tuple[str, ...]) -> tuple[str, ...]:
    """Line items an abstaining reasoner said it could not find: the next retrieval looks for them."""
    declared = answer.confidence.get("missing") or ()
    if not isinstance(declared, list | tuple):
        return ()
    return tuple(str(m) for m in declared if m and str(m) not in known)


def _discount_coincidences(claims: list[Any], numbers: list[Any]) -> None:
    """A figure inside a claim about another company is no evidence for this question, even if
    the same digits occur in these filings: it is marked unsupported (and so is its claim)."""
    for claim in claims:
        if not claim.content or not claim.reason.startswith("names "):
            continue
        for n in numbers:
            if n.text in claim.numbers and n.ok:
                n.status, n.detail = "not_found", "only in a claim about another company"
                claim.failed_numbers.append(n.text)


def _counted(f: Any) -> bool:
    return f.kind != "conditional" or bool(f.meta.get("triggered"))


def _analysis(question: str) -> Any:
    try:
        return _lex.analyze(question)
    except Exception:  # the analysis refines the checks; the judge still works without it
        return None


def _metric_tokens(analysis: Any) -> frozenset[str]:
    """Words of the line items / synonyms of the metrics the question asks about ('COGS' ->
    'cost of sales', 'cost of revenue'): evidence rows named so are on topic."""
    tokens: set[str] = set()
    for metric in getattr(analysis, "metrics", ()) or ():
        for term in _lex.metric_terms(metric):
            tokens |= set(content_tokens(term))
    return frozenset(tokens)


def _asked_years(question: str, analysis: Any) -> tuple[int, ...]:
    years = {y for y, _s, _e in _lex.year_mentions(question)}
    if analysis is not None:
        years |= {int(y) for y in getattr(analysis, "fiscal_years", ()) or ()}
    return tuple(sorted(years))
