"""Typed results of the orchestrator: what an analyst script gets back for a question."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from finqa.agents.types import Calculation, Citation, Frozen
from pydantic import Field

__all__ = ["AttemptRecord", "QAResult", "Status"]

Status = Literal["accepted", "best_effort", "abstained", "failed"]


class AttemptRecord(Frozen):
    """One retrieve -> reason -> judge pass."""

    attempt: int
    k: int
    candidates: int
    rse: bool
    route: str
    strategy: str
    query: str
    answer: str
    scores: Mapping[str, float]  # grounding, completeness, numeric
    utility: float
    threshold: float
    decision: str  # accept | retry
    diagnosis: str | None = None
    evidence: tuple[Mapping[str, Any], ...] = ()  # [{source_id, doc_id, pages, chunk_ids, scores}]
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_latency_ms: float = 0.0
    latency_ms: float = 0.0


class QAResult(Frozen):
    """The final outcome for one question."""

    question: str
    question_id: str
    answer: str
    status: Status
    utility: float
    attempts: tuple[AttemptRecord, ...] = ()
    best_attempt: int | None = None
    citations: tuple[Citation, ...] = ()
    calculations: tuple[Calculation, ...] = ()
    run_id: str
    audit_log: str
    reason: str = ""
    latency_ms: float = 0.0
    error: str | None = None
    extra: Mapping[str, Any] = Field(default_factory=dict)

    def to_json_dict(self) -> dict[str, Any]:
        """The `finqa ask --json` object."""
        return {
            "question": self.question,
            "question_id": self.question_id,
            "answer": self.answer,
            "status": self.status,
            "utility": self.utility,
            "attempts": [
                {
                    "attempt": a.attempt,
                    "k": a.k,
                    "rse": a.rse,
                    "strategy": a.strategy,
                    "route": a.route,
                    "scores": dict(a.scores),
                    "utility": a.utility,
                    "threshold": a.threshold,
                    "decision": a.decision,
                    "diagnosis": a.diagnosis,
                }
                for a in self.attempts
            ],
            "citations": [
                {"doc": c.doc_id, "page": c.page, "chunk": c.chunk_id, "quote": c.quote}
                for c in self.citations
            ],
            "calculations": [c.model_dump(mode="json") for c in self.calculations],
            "run_id": self.run_id,
            "audit_log": self.audit_log,
            "reason": self.reason,
            "best_attempt": self.best_attempt,
            "error": self.error,
        }
