"""The Python API for analyst scripts.

    from finqa import FinQA
    fq = FinQA.open(".finqa/index", budget=1)             # config + typed overrides
    fq.ingest(["filings/"])                               # -> IngestReport
    for item in fq.retrieve("3M capex 2018", k=5):        # evidence: doc_id, pages, text, scores
        print(item.label, item.scores)
    r = fq.ask("What was 3M's free cash flow in 2018?")   # -> QAResult
    print(r)                                              # the answer, status and sources
    rs = fq.ask_batch(["...", {"question": "...", "company": "3M"}], workers=2)
    df = fq.frame(rs)                                     # pandas DataFrame, one row a question

Agents and the audit log are built lazily from the settings on the first question (or injected,
e.g. fakes in tests). One FinQA object is one audit run (one `run_id`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finqa.agents.config import Settings, load_settings
from finqa.agents.errors import FinqaError, IndexError_
from finqa.agents.logs import configure_logging
from finqa.agents.types import (
    AuditSink,
    Clock,
    EvidenceItem,
    Judge,
    LLMClient,
    Reasoner,
    Retriever,
    StatementStore,
)
from finqa.orchestrator import _factory
from finqa.orchestrator._records import redact
from finqa.orchestrator.batch import BatchItem, dedupe_ids, normalize_item
from finqa.orchestrator.loop import Orchestrator
from finqa.orchestrator.result import QAResult

if TYPE_CHECKING:
    import pandas as pd
    from finqa.agents.retrieval.ingest import IngestReport

__all__ = ["FinQA", "BatchItem"]


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
        self._retriever_owned = (
            retriever is None
        )  # built here from settings, so rebuilt after ingest
        self._orchestrator: Orchestrator | None = None
        self._lock = threading.Lock()
        self._checkpointed: tuple[str, int] | None = None  # (log, bytes) last checkpointed
        self.last_checkpoint: Path | None = None
        self.checkpoint_error: str | None = None

    @classmethod
    def open(
        cls,
        index: str | os.PathLike[str] | None = None,
        *,
        config: str | os.PathLike[str] | Settings | None = None,
        llm: LLMClient | None = None,
        backend: str | None = None,
        model: str | None = None,
        base_url: str | None = None,
        budget: int | None = None,
        workers: int | None = None,
        audit_path: str | os.PathLike[str] | None = None,
        create: bool = False,
    ) -> FinQA:
        """Load `config` (a YAML path, or Settings; default configs/default.yaml) with typed overrides.

        `backend` is "offline", "openai" (any OpenAI-compatible server: `base_url`, `model`) or
        another backend the config allows; `budget` is the number of retries. The index must exist
        unless `create=True` (then `ingest` fills it).
        """
        overrides: dict[str, Any] = {
            "index.path": os.fspath(index) if index is not None else None,
            "llm.backend": backend,
            "llm.model": model,
            "llm.base_url": base_url,
            "orchestrator.budget": budget,
            "orchestrator.workers": workers,
            "audit.path": os.fspath(audit_path) if audit_path is not None else None,
        }
        overrides = {key: value for key, value in overrides.items() if value is not None}
        if isinstance(config, Settings):
            settings = config.with_overrides(overrides)
        else:
            settings = load_settings(config, overrides=overrides)
        if (
            not create
            and settings.index.chroma_url is None
            and not Path(settings.index.path).exists()
        ):
            raise IndexError_(
                f"no index at {settings.index.path}; build one with `finqa ingest PATH --index "
                f"{settings.index.path}` or FinQA.open(..., create=True).ingest(paths)",
                path=settings.index.path,
            )
        return cls(settings, llm=llm)

    # ------------------------------------------------------------------ the corpus

    def ingest(
        self,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        metadata: str | os.PathLike[str] | Mapping[str, Mapping[str, Any]] | None = None,
        *,
        progress: bool = False,
    ) -> IngestReport:
        """Ingest files or folders into this index; damaged files are skipped and reported.

        `metadata` is a sidecar file (JSONL/CSV with a `doc_id` column) or a mapping
        {doc_id: {"company": ..., "doc_type": ..., "doc_period": ...}}; it overrides what finqa
        reads from the documents. Questions asked afterwards see the new filings.
        """
        from finqa.agents.retrieval.ingest import ingest_paths

        items = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
        with _sidecar_file(metadata) as sidecar:
            report = ingest_paths(
                [os.fspath(p) for p in items],
                self.settings,
                metadata_file=sidecar,
                progress=progress,
            )
        with self._lock:  # the next question opens the index afresh and sees the new chunks
            if self._retriever is not None and self._retriever_owned:
                closer = getattr(self._retriever, "close", None)
                if callable(closer):
                    closer()
                self._retriever = None
                if self._orchestrator is not None:
                    self._retriever = _factory.build_retriever(self.settings)
                    self._orchestrator.retriever = self._retriever
        return report

    def retrieve(
        self,
        question: str,
        k: int = 10,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
    ) -> tuple[EvidenceItem, ...]:
        """The top-`k` evidence items for a question (doc_id, pages, text, scores), without answering."""
        if not question or not question.strip():
            raise FinqaError("the question is empty")
        if k < 1:
            raise FinqaError(f"k must be at least 1, got {k}")
        retriever = self.orchestrator.retriever
        index = getattr(retriever, "index", None)
        if index is not None:  # the real agent: re-plan with k items on its already open index
            from finqa.agents.retrieval import RetrievalAgent

            first = self.settings.retrieval.step(1)
            step = {"k": k, "candidates_factor": first.candidates_factor, "rse": first.rse}
            settings = self.settings.with_overrides({"retrieval.escalation": [step]})
            retriever = RetrievalAgent(
                settings,
                index,
                embedder=getattr(retriever, "_embedder", None),
                reranker=getattr(retriever, "reranker", None),
            )
        evidence = retriever.retrieve(question.strip(), 1, company=company, doc_ids=doc_ids)
        return evidence.items[:k]

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
        key: str | os.PathLike[str] | None = None,
    ) -> dict[str, Any]:
        """Sign off a question of this audit log: append a hash-chained review record
        (verdict approved / flagged / rejected), signed with the reviewer's Ed25519 key file
        `key` (unsigned without one: verify flags it); see `finqa.audit.signoff.review_question`."""
        from finqa.audit.signoff import review_question

        path = getattr(self._audit, "path", None) or self.settings.audit_path
        return review_question(
            path,
            question_id,
            verdict,
            reviewer,
            note=note,
            run_id=run_id,
            clock=self._clock,
            key=key,
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

        Items are strings or mappings with `question` and optional `company`, `doc_id` (one or a
        list; `doc_ids` too), `question_id` (or `id`). One question's failure never stops the batch.
        """
        items = [normalize_item(q, i) for i, q in enumerate(questions)]
        dedupe_ids(items)
        by_id = {r.question_id: r for r in self.ask_stream(items, workers)}
        return [by_id[item["question_id"]] for item in items]

    def ask_stream(
        self, items: Sequence[dict[str, Any]], workers: int | None = None
    ) -> Iterator[QAResult]:
        """Answer normalised batch items (see `normalize_item`), yielding each result as it is done."""
        orchestrator = self.orchestrator
        n = max(1, workers if workers is not None else self.settings.orchestrator.workers)
        if not items:
            return
        # The first question runs alone: agents open lazily built resources (the Chroma client,
        # models) on first use, and concurrent first opens race.
        yield self._safe_run(orchestrator, items[0])
        if n == 1:
            for item in items[1:]:
                yield self._safe_run(orchestrator, item)
            self.checkpoint()  # the end of a batch
            return
        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="finqa-ask") as pool:
            futures = [pool.submit(self._safe_run, orchestrator, item) for item in items[1:]]
            for future in as_completed(futures):
                yield future.result()
        self.checkpoint()  # the end of a batch

    def _safe_run(self, orchestrator: Orchestrator, item: Mapping[str, Any]) -> QAResult:
        try:
            return orchestrator.run(
                item["question"],
                question_id=item["question_id"],
                company=item["company"],
                doc_ids=item["doc_ids"],
            )
        except Exception as exc:  # noqa: BLE001 - any failure of one question is recorded, the batch goes on
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

    def checkpoint(self) -> Path | None:
        """Write a signed checkpoint of the audit log's head now (`finqa.audit.checkpoints`;
        done at the end of every batch and by `close`). None when `audit.checkpoints` is off,
        nothing was asked, or it failed: then `checkpoint_error` says why and a warning is logged."""
        path = getattr(self._audit, "path", None) if self._orchestrator is not None else None
        if not self.settings.audit.checkpoints or not path or not Path(path).is_file():
            return None
        size = Path(path).stat().st_size
        if self._checkpointed == (str(path), size):
            return self.last_checkpoint  # nothing appended since
        from finqa.audit.checkpoints import auto_checkpoint

        try:
            self.last_checkpoint = auto_checkpoint(
                path,
                key_path=self.settings.audit.checkpoint_key,
                folder=self.settings.audit.checkpoint_dir,
                clock=self._clock,
            )
        except FinqaError as exc:
            import structlog

            self.checkpoint_error = str(exc)
            structlog.get_logger("finqa").warning("audit checkpoint not written", reason=str(exc))
            return None
        self._checkpointed, self.checkpoint_error = (str(path), size), None
        return self.last_checkpoint

    def close(self) -> None:
        """Write the run's checkpoint, then release the audit log and agents that hold
        resources (idempotent)."""
        self.checkpoint()
        for part in (self._audit, self._retriever):
            closer = getattr(part, "close", None)
            if callable(closer):
                closer()

    def __enter__(self) -> FinQA:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def _sidecar_file(
    metadata: str | os.PathLike[str] | Mapping[str, Mapping[str, Any]] | None,
) -> Iterator[str | None]:
    """A sidecar path for ingest: the given file, or a temporary JSONL written from a mapping."""
    if metadata is None or isinstance(metadata, str | os.PathLike):
        yield os.fspath(metadata) if metadata is not None else None
        return
    with tempfile.TemporaryDirectory(prefix="finqa-meta-") as tmp:
        path = Path(tmp) / "metadata.jsonl"
        lines = [json.dumps({**dict(row), "doc_id": doc_id}) for doc_id, row in metadata.items()]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        yield str(path)


def _ensure_logging(settings: Settings) -> None:
    """Configure operational logs (stderr, settings.log_level) unless the caller already did."""
    import structlog

    if not structlog.is_configured():
        configure_logging(settings.log_level)
