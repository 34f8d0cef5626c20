"""The Python API for analyst scripts.

    from finqa.orchestrator import FinQA
    fq = FinQA.open(index=".finqa/index")                 # config + dotted-key overrides
    r = fq.ask("What was 3M's free cash flow in 2018?")   # -> QAResult
    rs = fq.ask_batch(["...", {"question": "...", "company": "3M"}], workers=2)
    df = fq.frame(rs)                                     # pandas DataFrame, one row a question

Agents and the audit log are built lazily from the settings on the first question (or injected,
e.g. fakes in tests). One FinQA object is one audit run (one `run_id`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finqa.agents.config import Settings, load_settings
from finqa.agents.errors import FinqaError, IndexError_
from finqa.agents.logs import configure_logging
from finqa.agents.types import (
    AuditSink,
    Clock,
    Judge,
    LLMClient,
    Reasoner,
    Retriever,
    StatementStore,
)
from finqa.orchestrator import _factory
from finqa.orchestrator._records import default_question_id, redact
from finqa.orchestrator.loop import Orchestrator
from finqa.orchestrator.result import QAResult

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FinQA", "BatchItem"]

BatchItem = str | Mapping[str, Any]


class FinQA:
    """Question answering over an index of filings, with every decision in the audit log."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        retriever: Retriever | None = None,
        reasoner: Reasoner | None = None,
        judge: Judge | None = None,
        audit: AuditSink | None = None,
        llm: LLMClient | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings or load_settings()
        _ensure_logging(self.settings)
        self._retriever = retriever
        self._reasoner = reasoner
        self._judge = judge
        self._audit = audit
        self._llm = llm
        self._clock = clock
        self._orchestrator: Orchestrator | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls,
        index: str | None = None,
        config: str | None = None,
        *,
        llm: LLMClient | None = None,
        **overrides: Any,
    ) -> FinQA:
        """Load `config` (default configs/default.yaml), apply overrides, check the index exists.

        Overrides are dotted keys (`**{"orchestrator.budget": 0}`) or `section__key=value`.
        """
        dotted = {key.replace("__", "."): value for key, value in overrides.items()}
        if index is not None:
            dotted["index.path"] = index
        settings = load_settings(config, overrides=dotted)
        if settings.index.chroma_url is None and not Path(settings.index.path).exists():
            raise IndexError_(
                f"no index at {settings.index.path}; build one with `finqa ingest PATH --index {settings.index.path}`",
                path=settings.index.path,
            )
        return cls(settings, llm=llm)

    # ------------------------------------------------------------------ lazily built parts

    @property
    def orchestrator(self) -> Orchestrator:
        with self._lock:
            if self._orchestrator is None:
                s = self.settings
                retriever = self._retriever or _factory.build_retriever(s)
                reasoner = self._reasoner or _factory.build_reasoner(s, self._llm)
                judge = self._judge or _factory.build_judge(s, self._llm)
                audit = self._audit or _factory.open_audit(s, retriever=retriever)
                self._retriever, self._reasoner, self._judge, self._audit = (
                    retriever,
                    reasoner,
                    judge,
                    audit,
                )
                self._orchestrator = Orchestrator(s, retriever, reasoner, judge, audit, self._clock)
            return self._orchestrator

    @property
    def statements(self) -> StatementStore:
        """What finqa read from each filing's statements (`StatementStore`), shared by the agents."""
        return _factory.build_statements(self.settings)

    @property
    def audit(self) -> AuditSink:
        return self.orchestrator.audit

    @property
    def audit_path(self) -> str:
        return self.orchestrator.audit_path

    @property
    def run_id(self) -> str:
        return self.orchestrator.run_id

    def review(
        self,
        question_id: str,
        verdict: str,
        reviewer: str,
        *,
        note: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        """Sign off a question of this audit log: append a hash-chained review record
        (verdict approved / flagged / rejected); see `finqa.audit.signoff.review_question`."""
        from finqa.audit.signoff import review_question

        path = getattr(self._audit, "path", None) or self.settings.audit.path
        return review_question(
            path, question_id, verdict, reviewer, note=note, run_id=run_id, clock=self._clock
        )

    # ------------------------------------------------------------------ questions

    def ask(
        self,
        question: str,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        question_id: str | None = None,
    ) -> QAResult:
        """Answer one question (status accepted / best_effort / abstained / failed)."""
        if not question or not question.strip():
            raise FinqaError("the question is empty")
        return self.orchestrator.run(
            question.strip(), question_id=question_id, company=company, doc_ids=doc_ids
        )

    def ask_batch(
        self, questions: Sequence[BatchItem], workers: int | None = None
    ) -> list[QAResult]:
        """Answer many questions, in input order; `workers` > 1 runs them on a thread pool.

        Items are strings or mappings with `question` and optional `company`, `doc_ids` (or
        `doc_id` / `doc_name`), `question_id` (or `id`). One question's failure never stops the batch.
        """
        items = [_item(q, i) for i, q in enumerate(questions)]
        seen: dict[str, int] = {}
        for item in items:  # duplicate questions get distinct, still deterministic ids
            qid = item["question_id"]
            seen[qid] = seen.get(qid, 0) + 1
            if seen[qid] > 1:
                item["question_id"] = f"{qid}-{seen[qid]}"
        orchestrator = self.orchestrator
        n = max(1, workers if workers is not None else self.settings.orchestrator.workers)
        if n == 1 or len(items) <= 1:
            return [self._safe_run(orchestrator, item) for item in items]
        # The first question runs alone: agents open lazily built resources (the Chroma client,
        # models) on first use, and concurrent first opens race.
        first = self._safe_run(orchestrator, items[0])
        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="finqa-ask") as pool:
            rest = list(pool.map(lambda item: self._safe_run(orchestrator, item), items[1:]))
        return [first, *rest]

    def _safe_run(self, orchestrator: Orchestrator, item: dict[str, Any]) -> QAResult:
        try:
            return orchestrator.run(
                item["question"],
                question_id=item["question_id"],
                company=item["company"],
                doc_ids=item["doc_ids"],
            )
        except Exception as exc:  # e.g. the audit log could not be written: report, go on
            return QAResult(
                question=item["question"],
                question_id=item["question_id"],
                answer="Cannot answer: the question failed.",
                status="failed",
                utility=0.0,
                run_id=orchestrator.run_id,
                audit_log=orchestrator.audit_path,
                reason="the question failed outside the agents",
                error=redact(f"{type(exc).__name__}: {exc}"),
            )

    @staticmethod
    def frame(results: Sequence[QAResult]) -> pd.DataFrame:
        """One row a question: status, answer, utility, attempts, final k/strategy, citations, timing."""
        import pandas as pd

        rows = []
        for r in results:
            last = r.attempts[-1] if r.attempts else None
            rows.append(
                {
                    "question_id": r.question_id,
                    "question": r.question,
                    "status": r.status,
                    "answer": r.answer,
                    "utility": r.utility,
                    "attempts": len(r.attempts),
                    "best_attempt": r.best_attempt,
                    "utilities": [a.utility for a in r.attempts],
                    "final_k": last.k if last else None,
                    "final_strategy": last.strategy if last else None,
                    "citations": "; ".join(f"{c.doc_id} p.{c.page}" for c in r.citations),
                    "n_citations": len(r.citations),
                    "n_calculations": len(r.calculations),
                    "latency_ms": r.latency_ms,
                    "llm_latency_ms": sum(a.llm_latency_ms for a in r.attempts),
                    "reason": r.reason,
                    "error": r.error,
                    "run_id": r.run_id,
                }
            )
        return pd.DataFrame(rows)

    def close(self) -> None:
        """Release the audit log and agents that hold resources (idempotent)."""
        for part in (self._audit, self._retriever):
            closer = getattr(part, "close", None)
            if callable(closer):
                closer()

    def __enter__(self) -> FinQA:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _item(q: BatchItem, i: int) -> dict[str, Any]:
    if isinstance(q, str):
        data: Mapping[str, Any] = {"question": q}
    elif isinstance(q, Mapping):
        data = q
    else:
        raise FinqaError(f"batch item {i} must be a string or a mapping, not {type(q).__name__}")
    question = str(data.get("question") or "").strip()
    if not question:
        raise FinqaError(f"batch item {i} has no question")
    doc_ids = data.get("doc_ids") or data.get("doc_id") or data.get("doc_name")
    if isinstance(doc_ids, str):
        doc_ids = [doc_ids]
    company = data.get("company")
    qid = (
        data.get("question_id") or data.get("id") or default_question_id(question, company, doc_ids)
    )
    return {"question": question, "company": company, "doc_ids": doc_ids, "question_id": str(qid)}


def _ensure_logging(settings: Settings) -> None:
    """Configure operational logs (stderr, settings.log_level) unless the caller already did."""
    import structlog

    if not structlog.is_configured():
        configure_logging(settings.log_level)
