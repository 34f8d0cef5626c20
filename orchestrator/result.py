"""Typed results of the orchestrator: what an analyst script gets back for a question."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from finqa.agents.types import Calculation, Citation, Frozen
from pydantic import Field

__all__ = [
    "AttemptRecord",
    "LegResult",
    "Restatement",
    "QAResult",
    "Status",
    "citation_json",
    "leg_json",
    "shown_figure",
]

Status = Literal["accepted", "best_effort", "abstained", "failed"]


def citation_json(c: Citation) -> dict[str, Any]:
    """A citation in `finqa ask --json`: `page` is the page an analyst cites (the printed page
    number, an int, or a label such as 'F-3'; else the position from 1), `page_label_source` says
    which ('printed' | 'position'), `page_index` is the 0-based page (the audit log's `page`)."""
    page: int | str = int(c.printed_page) if c.printed_page.isdigit() else c.printed_page
    return {
        "source_id": c.source_id,
        "doc_id": c.doc_id,
        "page": page,
        "page_index": c.page,
        "page_label_source": c.page_label_source,
        "chunk_id": c.chunk_id,
        "quote": c.quote,
        "xbrl_concept": c.xbrl_concept,
    }


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
    llm_latency_ms: float = 0.0  # reasoner + judge
    judge_llm_calls: int = 0  # of llm_calls, those the judge made
    judge_llm_ms: float = 0.0  # of llm_latency_ms, the judge's
    latency_ms: float = 0.0


class Restatement(Frozen):
    """A leg's period reported with different figures by two filings of the company: the
    original filing (of the period's own year) and the latest one (a later comparative)."""

    original_doc: str
    original_value: float  # base units
    original_period_end: str | None = None  # the original filing's own period end
    latest_doc: str
    latest_value: float
    latest_period_end: str | None = None


class LegResult(Frozen):
    """One leg of a question across filings: a company's figure for one fiscal year."""

    index: int
    label: str  # 'Alphabet revenue FY2024'
    company: str = ""
    metric: str = ""
    fiscal_year: int | None = None
    months: int | None = None  # a year-to-date leg (first N months); None: the whole year
    question: str = ""  # the leg as asked
    question_id: str = ""  # '<qid>/leg<N>' in the audit log
    status: Status = "abstained"
    utility: float = 0.0
    answer: str = ""
    value: float | None = None  # absolute units (dollars, not millions)
    unit: str | None = None
    period_end: str | None = None  # the cited filing's fiscal period end
    citations: tuple[Citation, ...] = ()
    reason: str = ""
    as_of: str | None = None  # a balance leg: the date of the balance
    raw: float | None = None  # the figure as filed (value / scale)
    scale: float | None = None  # the filing's stated scale (1e6: in millions)
    figure_end: str | None = None  # the figure's own period end, from the filing's statements
    weeks: int | None = None  # 52 / 53 when the filing's header states a weeks year
    doc_id: str | None = None  # the filing the figure was read from
    restatement: Restatement | None = None  # the period reported differently by a later filing

    @property
    def shown(self) -> str:
        """The leg's figure as an answer prints it ('$5,560 million'), or 'not found'."""
        return "not found" if self.value is None else shown_figure(self.value, self.unit)


def shown_figure(value: float, unit: str | None) -> str:
    """A figure in base units as an answer prints it: amounts of a million or more in millions."""
    from finqa.lexicon.display import shown_base

    return shown_base(value, unit)


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
    legs: tuple[LegResult, ...] = ()  # a question across filings: one per figure
    extra: Mapping[str, Any] = Field(default_factory=dict)

    @property
    def sources(self) -> tuple[Citation, ...]:
        """The filing pages the answer stands on, once each (doc_id, page, quoted text), in cited order."""
        seen: dict[tuple[str, int], Citation] = {}
        for c in self.citations:
            key = (c.doc_id, c.page)
            if key not in seen:
                seen[key] = c
            elif c.quote and c.quote not in seen[key].quote:
                merged = f"{seen[key].quote} … {c.quote}" if seen[key].quote else c.quote
                seen[key] = seen[key].model_copy(update={"quote": merged})
        return tuple(seen.values())

    def __str__(self) -> str:
        """Reads like an answer: the answer, its status, and its sources as `DOC p. N` (printed
        page numbers, else the page's position from 1)."""
        attempts = f", {len(self.attempts)} attempt{'s' if len(self.attempts) != 1 else ''}"
        lines = [self.answer, f"status: {self.status} (utility {self.utility:.2f}{attempts})"]
        if self.sources:
            lines.append(
                "sources: " + ", ".join(f"{s.doc_id} p. {s.printed_page}" for s in self.sources)
            )
        if self.legs:
            lines.append("legs:")
            for leg in self.legs:
                restated = leg.restatement
                was = (
                    f" (restated; was {shown_figure(restated.original_value, leg.unit)} in "
                    f"{restated.original_doc})"
                    if restated is not None
                    else ""
                )
                lines.append(f"  {leg.index}. {leg.label}: {leg.shown}{was} [{leg.status}]")
        if self.reason and self.status != "accepted":
            lines.append(f"why: {self.reason}")
        return "\n".join(lines)

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
            "citations": [citation_json(c) for c in self.citations],
            "calculations": [c.model_dump(mode="json") for c in self.calculations],
            "run_id": self.run_id,
            "audit_log": self.audit_log,
            "reason": self.reason,
            "best_attempt": self.best_attempt,
            "error": self.error,
            **({"legs": [leg_json(leg) for leg in self.legs]} if self.legs else {}),
        }


def leg_json(leg: LegResult) -> dict[str, Any]:
    """A leg in `finqa ask --json`: its figure, status and its own citations."""
    out = leg.model_dump(mode="json", exclude={"citations"})
    out["citations"] = [citation_json(c) for c in leg.citations]
    return out
