"""Test doubles for finqa's seams, public so users' tests and finqa's own share one set.

Scripted fakes for the agent Protocols (Retriever, Reasoner, Judge), an in-memory AuditSink,
and `assert_implements`, a check that an object's methods match a Protocol's signatures. The
fakes record every call, so tests can assert what the orchestrator asked for (k, strategy,
feedback) as well as what it returned. A fake OpenAI-compatible HTTP server lives in
`finqa.agents.reasoning.fake_server`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.types import (
    Answer,
    Citation,
    Evidence,
    EvidenceItem,
    LLMResponse,
    LLMUsage,
    RetrievalPlan,
    Verdict,
)

__all__ = [
    "assert_implements",
    "ScriptedLLM",
    "FakeRetriever",
    "FakeReasoner",
    "ScriptedJudge",
    "MemorySink",
    "make_evidence",
]


def assert_implements(obj: object, protocol: type) -> None:
    """Fail unless `obj` has every method of `protocol` with the same parameter names and kinds.

    Stricter than isinstance() on a runtime-checkable Protocol, which only checks that the names exist.
    """
    import inspect

    members = [
        name
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    ]
    assert members, f"{protocol.__name__} declares no methods"
    for name in members:
        method = getattr(obj, name, None)
        assert callable(method), f"{type(obj).__name__} has no method {name}()"
        want = list(inspect.signature(getattr(protocol, name)).parameters.values())[1:]  # self
        got = list(inspect.signature(method).parameters.values())
        shape = [(p.name, p.kind) for p in want]
        assert [(p.name, p.kind) for p in got][: len(shape)] == shape, (
            f"{type(obj).__name__}.{name}{inspect.signature(method)} does not match "
            f"{protocol.__name__}.{name}{inspect.signature(getattr(protocol, name))}"
        )
        extra = got[len(shape) :]
        assert all(
            p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            for p in extra
        ), f"{type(obj).__name__}.{name} requires parameters the protocol does not pass"


class ScriptedLLM:
    """An `LLMClient` that replies from a script (a string, or a function of the messages) after a
    fixed latency; records every prompt, the calls and the seconds spent (thread-safe)."""

    def __init__(
        self,
        reply: str | Callable[[Sequence[Mapping[str, str]]], str],
        *,
        latency_s: float = 0.0,
        model: str = "fake",
    ) -> None:
        self.model = model
        self.latency_s = latency_s
        self._reply = reply
        self._lock = threading.Lock()
        self.prompts: list[Sequence[Mapping[str, str]]] = []
        self.calls = 0
        self.seconds = 0.0

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        schema: Mapping[str, Any] | None = None,
    ) -> LLMResponse:
        t0 = time.perf_counter()
        if self.latency_s:
            time.sleep(self.latency_s)
        spent = time.perf_counter() - t0
        with self._lock:
            self.prompts.append(messages)
            self.calls += 1
            self.seconds += spent
        text = self._reply if isinstance(self._reply, str) else self._reply(messages)
        usage = LLMUsage(prompt_tokens=100, completion_tokens=50, calls=1, latency_ms=spent * 1000)
        return LLMResponse(text=text, model=self.model, usage=usage, json_mode=json_mode)


def make_evidence(
    question: str,
    attempt: int,
    settings: Settings,
    *,
    n: int = 2,
    doc: str = "3M_2018_10K",
    empty_reason: str = "",
) -> Evidence:
    step = settings.retrieval.step(attempt)
    items = tuple(
        EvidenceItem(
            source_id=f"S{i + 1}",
            doc_id=doc,
            pages=(40 + i,),
            chunk_ids=(f"{doc}-c{attempt}-{i}",),
            text=f"Net sales were $32,765 million in 2018 (chunk {i}).",
            scores={"rrf": 1.0 / (i + 1)},
        )
        for i in range(n)
    )
    plan = RetrievalPlan(
        attempt=attempt,
        route="hybrid+filter",
        reason=empty_reason or "company filter",
        k=step.k,
        candidates=step.k * step.candidates_factor,
        rse=step.rse,
        query=question,
    )
    return Evidence(question=question, items=items, plan=plan)


class FakeRetriever:
    """Returns evidence shaped by the escalation step; `empty=True` finds nothing; `fail_on` raises."""

    def __init__(
        self,
        settings: Settings,
        *,
        empty: bool = False,
        fail_on: Callable[[str], bool] | None = None,
        same_chunks: bool = False,
    ) -> None:
        self.settings = settings
        self.empty = empty
        self.fail_on = fail_on
        self.same_chunks = same_chunks
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def retrieve(
        self,
        question: str,
        attempt: int,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        feedback: Verdict | None = None,
    ) -> Evidence:
        with self._lock:
            self.calls.append(
                {"question": question, "attempt": attempt, "company": company, "feedback": feedback}
            )
        if self.fail_on and self.fail_on(question):
            raise RuntimeError("index unreachable")
        if self.empty:
            return make_evidence(
                question, attempt, self.settings, n=0, empty_reason="company not in the corpus"
            )
        return make_evidence(question, 1 if self.same_chunks else attempt, self.settings)


class FakeReasoner:
    """Answers `answers[i]` on the i-th call for a question (the last repeats); cites S1."""

    def __init__(
        self,
        answers: Sequence[str] = ("Net sales were $32,765 million.",),
        *,
        abstain: bool = False,
    ) -> None:
        self.answers = tuple(answers)
        self.abstain = abstain
        self.calls: list[dict[str, Any]] = []
        self._count: dict[str, int] = {}
        self._lock = threading.Lock()

    def generate(
        self,
        question: str,
        evidence: Evidence,
        attempt: int,
        *,
        feedback: Verdict | None = None,
        strategy: str | None = None,
    ) -> Answer:
        with self._lock:
            i = self._count.get(question, 0)
            self._count[question] = i + 1
            self.calls.append(
                {
                    "question": question,
                    "attempt": attempt,
                    "strategy": strategy,
                    "feedback": feedback,
                }
            )
        text = self.answers[min(i, len(self.answers) - 1)]
        first = evidence.items[0]
        return Answer(
            text=text,
            citations=(
                Citation(source_id=first.source_id, doc_id=first.doc_id, page=first.pages[0]),
            ),
            abstained=self.abstain,
            strategy=strategy or "standard",
            template_id=f"{strategy}-v1",
            template_hash="abc123",
            usage=LLMUsage(calls=1, latency_ms=5.0),
        )


class ScriptedJudge:
    """Scores attempt t with `utilities[t-1]` (the last repeats) and the settings' threshold."""

    def __init__(
        self,
        settings: Settings,
        utilities: Sequence[float],
        *,
        diagnosis: str | None = "both",
        missing: tuple[str, ...] = ("fiscal year 2018",),
        llm_usage: LLMUsage | None = None,
    ) -> None:
        self.settings = settings
        self.llm_usage = llm_usage  # reported in details["llm"] as an LLM judge does
        self.utilities = tuple(utilities)
        self.diagnosis = diagnosis
        self.missing = missing
        self.calls: list[int] = []

    def evaluate(self, question: str, answer: Answer, evidence: Evidence, attempt: int) -> Verdict:
        self.calls.append(attempt)
        u = self.utilities[min(attempt, len(self.utilities)) - 1]
        tau = self.settings.judge.threshold(attempt)
        accept = u >= tau
        return Verdict(
            grounding=u,
            completeness=u,
            numeric=u,
            utility=u,
            threshold=tau,
            decision="accept" if accept else "retry",
            diagnosis=None if accept else self.diagnosis,  # type: ignore[arg-type]
            missing_facets=() if accept else self.missing,
            feedback="" if accept else "cite the cash flow statement",
            details={"llm": {"usage": self.llm_usage.model_dump()}} if self.llm_usage else {},
        )


class MemorySink:
    """An in-memory AuditSink."""

    def __init__(self, run_id: str = "run-test", path: str = "memory://audit") -> None:
        self.records: list[dict[str, Any]] = []
        self.run_id = run_id
        self.path = path
        self._lock = threading.Lock()

    def append(
        self,
        *,
        event: str,
        agent: str,
        question_id: str | None = None,
        attempt: int | None = None,
        params: Mapping[str, Any] | None = None,
        scores: Mapping[str, Any] | None = None,
        decision: str | None = None,
        reason: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        with self._lock:
            record = {
                "seq": len(self.records),
                "run_id": self.run_id,
                "event": event,
                "agent": agent,
                "question_id": question_id,
                "attempt": attempt,
                "params": dict(params or {}),
                "scores": dict(scores or {}),
                "decision": decision,
                "reason": reason,
                "data": dict(data or {}),
            }
            self.records.append(record)
            return record

    def events(self, question_id: str | None = None) -> list[tuple[str, int | None]]:
        return [
            (r["event"], r["attempt"])
            for r in self.records
            if question_id in (None, r["question_id"])
        ]
