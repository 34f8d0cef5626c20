"""Serialisers from seam models to the JSON-safe mappings the audit log and results carry.

Only ids, pages, scores, parameters and the answer go to the audit log — never evidence text
(it is in the index) and never secrets (`redact` scrubs the values of secret env variables
from anything free-form, e.g. exception messages).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from finqa.agents.config import Settings
from finqa.agents.types import Answer, Evidence, LLMUsage, Verdict
from finqa.audit.canonical import to_jsonable as jsonable
from finqa.audit.redact import redact as redact_value
from finqa.orchestrator.result import AttemptRecord

if TYPE_CHECKING:
    from finqa.orchestrator.policy import AttemptPlan

__all__ = [
    "evidence_items",
    "evidence_fingerprint",
    "answer_fingerprint",
    "answer_data",
    "verdict_scores",
    "verdict_data",
    "plan_params",
    "redact",
    "default_question_id",
    "jsonable",
    "retrieval_entry",
    "reasoning_entry",
    "judge_entry",
    "judged_attempt",
    "unjudged_attempt",
]


def evidence_items(evidence: Evidence) -> tuple[dict[str, Any], ...]:
    """`[{source_id, doc_id, pages, chunk_ids, section, scores}]` in rank order (no text)."""
    return tuple(
        {
            "source_id": item.source_id,
            "doc_id": item.doc_id,
            "pages": list(item.pages),
            "chunk_ids": list(item.chunk_ids),
            "section": item.section,
            "scores": {k: float(v) for k, v in item.scores.items()},
        }
        for item in evidence.items
    )


def evidence_fingerprint(evidence: Evidence) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((item.doc_id, tuple(item.chunk_ids)) for item in evidence.items)


def answer_fingerprint(answer: Answer) -> tuple[Any, ...]:
    cites = tuple((c.doc_id, c.page, c.chunk_id) for c in answer.citations)
    return (answer.text.strip(), cites, answer.abstained)


def plan_params(evidence: Evidence) -> dict[str, Any]:
    plan = evidence.plan
    return {
        "route": plan.route,
        "k": plan.k,
        "candidates": plan.candidates,
        "rse": plan.rse,
        "filters": jsonable(plan.filters),
        "query": plan.query,
    }


def answer_data(answer: Answer) -> dict[str, Any]:
    return {
        "answer": answer.text,
        "abstained": answer.abstained,
        "citations": [c.model_dump(mode="json") for c in answer.citations],
        "calculations": [c.model_dump(mode="json") for c in answer.calculations],
        "confidence": jsonable(answer.confidence),
        # what the reasoner tells the judge
        "missing": list(answer.missing),
        "calc_problems": list(answer.calc_problems),
        "invalid_citations": answer.invalid_citations,
        "raw": redact(answer.raw),
    }


def verdict_scores(verdict: Verdict) -> dict[str, float]:
    return {
        "grounding": verdict.grounding,
        "completeness": verdict.completeness,
        "numeric": verdict.numeric,
        "utility": verdict.utility,
        "threshold": verdict.threshold,
    }


def verdict_data(verdict: Verdict) -> dict[str, Any]:
    return {
        "diagnosis": verdict.diagnosis,
        "missing_facets": list(verdict.missing_facets),
        "unsupported_numbers": list(verdict.unsupported_numbers),
        "feedback": redact(verdict.feedback),
        "details": jsonable(verdict.details),
    }


def redact(text: str) -> str:
    """`text` with the value of every secret environment variable replaced (see `finqa.audit.redact`)."""
    return str(redact_value(text))


def default_question_id(question: str, company: str | None, doc_ids: Sequence[str] | None) -> str:
    """A deterministic id: `q-` + 12 hex digits of the question and its scope."""
    key = json.dumps([question.strip(), company, sorted(doc_ids or ())], separators=(",", ":"))
    return "q-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


# --------------------------------------------------------------------------- audit entries
# Each returns the keyword arguments of one AuditSink.append (agent, params, scores, decision,
# reason, data) for the orchestrator to emit.


def retrieval_entry(
    evidence: Evidence,
    plan: AttemptPlan,
    feedback: Verdict | None,
    *,
    reused_from: int | None = None,
) -> dict[str, Any]:
    """The retrieval record; `reused_from`: the attempt whose evidence is reused (no new search)."""
    reason = evidence.plan.reason
    if reused_from is not None:
        reason = f"retrieval not escalated: evidence of attempt {reused_from} reused ({reason})"
    return {
        "agent": "retrieval",
        "params": {
            **plan_params(evidence),
            "level": plan.retrieval_level,
            "feedback": feedback is not None,
            "missing_facets": list(feedback.missing_facets) if feedback else [],
            "reused_from": reused_from,
        },
        "scores": {
            "items": len(evidence.items),
            "latency_ms": 0.0 if reused_from is not None else evidence.latency_ms,
        },
        "decision": "reused"
        if reused_from is not None
        else ("evidence" if evidence.items else "empty"),
        "reason": reason,
        "data": {
            "items": list(evidence_items(evidence)),
            "analysis": jsonable(evidence.plan.analysis) if evidence.plan.analysis else None,
        },
    }


def reasoning_entry(answer: Answer, plan: AttemptPlan, feedback: Verdict | None) -> dict[str, Any]:
    return {
        "agent": "reasoning",
        "params": {
            "strategy": answer.strategy or plan.strategy,
            "template_id": answer.template_id,
            "template_hash": answer.template_hash,
            "backend": answer.backend,
            "model": answer.model,
            "feedback": feedback is not None,
        },
        "scores": answer.usage.model_dump(mode="json"),
        "decision": "abstain" if answer.abstained else "answer",
        "data": answer_data(answer),
    }


def judge_entry(verdict: Verdict, settings: Settings) -> dict[str, Any]:
    j = settings.judge
    return {
        "agent": "judge",
        "params": {
            "weights": [j.w_grounding, j.w_completeness, j.w_numeric],
            "deterministic_verify": j.deterministic_verify,
            "llm_judge": j.llm_judge,
        },
        "scores": verdict_scores(verdict),
        "decision": verdict.decision,
        "reason": redact(verdict.feedback) or None,
        "data": {**verdict_data(verdict), "llm_usage": judge_llm_usage(verdict).model_dump()},
    }


# --------------------------------------------------------------------------- attempt records


def judged_attempt(
    attempt: int,
    evidence: Evidence,
    answer: Answer,
    verdict: Verdict,
    strategy: str,
    question: str,
    latency_ms: float,
) -> AttemptRecord:
    """The result's record of one retrieve -> reason -> judge pass (LLM use: reasoner + judge)."""
    plan = evidence.plan
    judge = judge_llm_usage(verdict)
    return AttemptRecord(
        attempt=attempt,
        k=plan.k,
        candidates=plan.candidates,
        rse=plan.rse,
        route=plan.route,
        strategy=answer.strategy or strategy,
        query=plan.query or question,
        answer=answer.text,
        scores={
            "grounding": verdict.grounding,
            "completeness": verdict.completeness,
            "numeric": verdict.numeric,
        },
        utility=verdict.utility,
        threshold=verdict.threshold,
        decision=verdict.decision,
        diagnosis=verdict.diagnosis,
        evidence=evidence_items(evidence),
        llm_calls=answer.usage.calls + judge.calls,
        prompt_tokens=answer.usage.prompt_tokens + judge.prompt_tokens,
        completion_tokens=answer.usage.completion_tokens + judge.completion_tokens,
        llm_latency_ms=answer.usage.latency_ms + judge.latency_ms,
        judge_llm_calls=judge.calls,
        judge_llm_ms=judge.latency_ms,
        latency_ms=latency_ms,
    )


def unjudged_attempt(
    settings: Settings, plan: AttemptPlan, evidence: Evidence | None, decision: str, question: str
) -> AttemptRecord:
    """The record of an attempt that ended before the judge (no evidence, or an agent failed)."""
    step = settings.retrieval.step(plan.retrieval_level)
    p = evidence.plan if evidence is not None else None
    return AttemptRecord(
        attempt=plan.attempt,
        k=p.k if p else step.k,
        candidates=p.candidates if p else step.k * step.candidates_factor,
        rse=p.rse if p else step.rse,
        route=p.route if p else "",
        strategy=plan.strategy,
        query=(p.query if p else "") or question,
        answer="",
        scores={},
        utility=0.0,
        threshold=settings.judge.threshold(plan.attempt),
        decision=decision,
    )


def judge_llm_usage(verdict: Verdict) -> LLMUsage:
    """The LLM use the judge reports in `details["llm"]["usage"]` (calls, tokens, latency), or none."""
    details = verdict.details if isinstance(verdict.details, Mapping) else {}
    info = details.get("llm")
    usage = info.get("usage") if isinstance(info, Mapping) else None
    if not isinstance(usage, Mapping):
        return LLMUsage()
    try:
        return LLMUsage.model_validate(usage)
    except ValueError:  # pydantic's ValidationError: a malformed report counts as none
        return LLMUsage()
