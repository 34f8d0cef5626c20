"""The self-correcting loop (Algorithm 1): retrieve -> reason -> judge, accept or escalate and retry.

Up to ``budget + 1`` attempts. An attempt is accepted when the Judge's utility clears its threshold
τ_t; otherwise `finqa.orchestrator.policy` picks the escalation from the Judge's diagnosis. The best-
utility answer is kept, so more attempts never return a worse answer. The loop stops early when an
attempt cannot improve (same evidence and answer as before, or utility declining), abstains (fails
closed) when retrieval finds no evidence, and records an agent's exception as a failure without
raising, so a batch goes on. Every decision goes to the audit sink, one record per decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import structlog
from finqa.agents.clock import SystemClock
from finqa.agents.config import Settings
from finqa.agents.logs import get_logger
from finqa.agents.types import (
    Answer,
    AuditSink,
    Calculation,
    Citation,
    Clock,
    Evidence,
    Judge,
    PageLabeller,
    Reasoner,
    Retriever,
    Verdict,
)
from finqa.lexicon.legs import plan_legs
from finqa.orchestrator import _records as rec
from finqa.orchestrator.citing import label_pages, renumber, with_cited_pages
from finqa.orchestrator.policy import (
    AttemptPlan,
    first_plan,
    next_plan,
    should_stop,
    unverified_outcome,
)
from finqa.orchestrator.result import AttemptRecord, QAResult, Status

__all__ = ["Orchestrator", "AGENT"]

AGENT = "orchestrator"
T = TypeVar("T")
_log = get_logger("finqa.orchestrator")


class _AgentFailure(Exception):
    def __init__(self, agent: str, attempt: int, exc: BaseException) -> None:
        super().__init__(f"{agent} failed on attempt {attempt}: {type(exc).__name__}: {exc}")
        self.agent = agent
        self.attempt = attempt
        self.exc = exc


@dataclass
class _Done:
    """One judged attempt."""

    record: AttemptRecord
    evidence: Evidence
    answer: Answer
    verdict: Verdict


class Orchestrator:
    """Coordinates a Retriever, a Reasoner and a Judge for one question at a time (thread-safe)."""

    def __init__(
        self,
        settings: Settings,
        retriever: Retriever,
        reasoner: Reasoner,
        judge: Judge,
        audit: AuditSink,
        clock: Clock | None = None,
        *,
        timer: Callable[[], float] = time.perf_counter,
        audit_path: str | None = None,
        run_id: str | None = None,
    ) -> None:
        self.settings = settings
        self.retriever = retriever
        self.reasoner = reasoner
        self.judge = judge
        self.audit = audit
        self.clock: Clock = clock or SystemClock()
        self._timer = timer
        self.audit_path = (
            audit_path if audit_path is not None else str(getattr(audit, "path", "") or "")
        )
        self.run_id = run_id if run_id is not None else str(getattr(audit, "run_id", "") or "")

    # ------------------------------------------------------------------ public

    def run(
        self,
        question: str,
        *,
        question_id: str | None = None,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        part: bool = False,
    ) -> QAResult:
        """Answer one question; never raises for an agent's failure (status `failed` instead).
        `part`: a leg of a question across filings, whose unverified answer stays best_effort
        (the combined answer is held to `orchestrator.unverified`)."""
        qid = question_id or rec.default_question_id(question, company, doc_ids)
        plan = None if company or doc_ids else plan_legs(question)
        with structlog.contextvars.bound_contextvars(run_id=self.run_id, question_id=qid):
            if plan is not None and self.settings.orchestrator.cross_filing:
                from finqa.orchestrator.legs import run_legs

                return run_legs(self, question, qid, plan)
            return self._run(question, qid, company, doc_ids, part)

    def _run(
        self,
        question: str,
        qid: str,
        company: str | None,
        doc_ids: Sequence[str] | None,
        part: bool = False,
    ) -> QAResult:
        started = self._timer()
        started_at = self.clock.now().isoformat()
        self._emit(
            "question_start",
            qid,
            None,
            params=self._switches(company, doc_ids),
            data={"question": question},
        )

        done: list[_Done] = []
        # attempts that ended before the judge (no evidence, or an agent failed)
        partial: list[AttemptRecord] = []
        best: _Done | None = None
        plan = first_plan(self.settings)
        status: Status | None = None
        reason = ""
        error: str | None = None
        feedback: Verdict | None = None
        while True:
            try:
                last = done[-1].evidence if done else None
                outcome = self._attempt(question, qid, plan, feedback, company, doc_ids, last)
            except _AgentFailure as failure:
                error = rec.redact(str(failure))
                self._emit(
                    "error", qid, failure.attempt, agent=failure.agent, decision="failed", reason=error,
                    data={"type": type(failure.exc).__name__, **_spent(failure.exc)},
                )  # fmt: skip
                status = "best_effort" if best is not None else "failed"
                reason = error + ("; returning the best earlier answer" if best is not None else "")
                self._decide(qid, plan.attempt, "stop" if best else "fail", reason, best)
                partial.append(rec.unjudged_attempt(self.settings, plan, None, "failed", question))
                break
            if isinstance(outcome, Evidence):  # retrieval found nothing
                ended = "abstain" if best is None else "stop"
                partial.append(rec.unjudged_attempt(self.settings, plan, outcome, ended, question))
                why = outcome.plan.reason or "no matching filings"
                if best is None:
                    status = "abstained"
                    reason = f"no evidence in the corpus supports an answer ({why}); abstaining"
                    self._decide(qid, plan.attempt, "abstain", reason, best)
                else:
                    status, reason = (
                        "best_effort",
                        f"attempt {plan.attempt} found no evidence ({why}); keeping the best answer",
                    )
                    self._decide(qid, plan.attempt, "stop", reason, best)
                break
            previous = done[-1] if done else None
            done.append(outcome)
            if best is None or _better(outcome, best):
                best = outcome
            verdict = outcome.verdict
            same = previous is not None and (
                rec.evidence_fingerprint(previous.evidence)
                == rec.evidence_fingerprint(outcome.evidence)
                and rec.answer_fingerprint(previous.answer)
                == rec.answer_fingerprint(outcome.answer)
            )
            stop = should_stop(
                self.settings,
                attempt=plan.attempt,
                accepted=verdict.decision == "accept" and verdict.utility >= verdict.threshold,
                utility=verdict.utility,
                previous_utility=previous.verdict.utility if previous else None,
                same_as_previous=same,
            )
            if stop.stop:
                status = "accepted" if stop.status_hint == "accepted" else "best_effort"
                reason = stop.reason
                if best is not None and best is not outcome:
                    reason += (
                        f"; returning attempt {best.record.attempt}'s answer "
                        f"(utility {best.verdict.utility:.3f}, the best so far)"
                    )
                self._decide(
                    qid, plan.attempt, "accept" if status == "accepted" else "stop", reason, best
                )
                break
            upcoming = next_plan(self.settings, plan, verdict, abstained=outcome.answer.abstained)
            self._decide(
                qid, plan.attempt, "retry", f"{stop.reason}; {upcoming.reason}", best,
                params={"next": upcoming.model_dump(mode="json", exclude={"reasons"})},
            )  # fmt: skip
            plan, feedback = upcoming, verdict

        attempts = tuple(d.record for d in done) + tuple(partial)
        return self._finish(
            question,
            qid,
            status or "failed",
            reason,
            attempts,
            best,
            error,
            started,
            started_at,
            part,
        )

    # ------------------------------------------------------------------ one attempt

    def _attempt(
        self,
        question: str,
        qid: str,
        plan: AttemptPlan,
        feedback: Verdict | None,
        company: str | None,
        doc_ids: Sequence[str] | None,
        previous: Evidence | None = None,
    ) -> _Done | Evidence:
        t = plan.attempt
        structlog.contextvars.bind_contextvars(attempt=t)
        t0 = self._timer()
        retrieval_feedback = feedback if plan.retrieval_feedback else None
        if plan.reuse_evidence and previous is not None:
            # Retrieval does not escalate: the same evidence again, without asking the retriever.
            evidence = previous
            entry = rec.retrieval_entry(evidence, plan, None, reused_from=t - 1)
        else:
            evidence = _call(
                "retrieval", t,
                lambda: self.retriever.retrieve(
                    question, plan.retrieval_level, company=company, doc_ids=doc_ids, feedback=retrieval_feedback
                ),
            )  # fmt: skip
            entry = rec.retrieval_entry(evidence, plan, retrieval_feedback)
        self._emit("retrieval", qid, t, **entry)
        if not evidence.items:
            return evidence
        prompt_feedback = feedback if plan.prompt_feedback else None
        answer = _call(
            "reasoning", t,
            lambda: self.reasoner.generate(question, evidence, t, feedback=prompt_feedback, strategy=plan.strategy),
        )  # fmt: skip
        self._emit("reasoning", qid, t, **rec.reasoning_entry(answer, plan, prompt_feedback))
        # the pages of statement-model lines the answer cites ([M1]) are read for the judge too
        index = getattr(self.retriever, "index", None)
        judged = with_cited_pages(evidence, answer, getattr(index, "page_chunks", None))
        verdict = _call("judge", t, lambda: self.judge.evaluate(question, answer, judged, t))
        self._emit("judge", qid, t, **rec.judge_entry(verdict, self.settings))
        record = rec.judged_attempt(
            t, evidence, answer, verdict, plan.strategy, question, (self._timer() - t0) * 1000.0
        )
        return _Done(record=record, evidence=evidence, answer=answer, verdict=verdict)

    # ------------------------------------------------------------------ records

    def _switches(self, company: str | None, doc_ids: Sequence[str] | None) -> dict[str, Any]:
        o, j = self.settings.orchestrator, self.settings.judge
        return {
            "company": company,
            "doc_ids": list(doc_ids) if doc_ids else None,
            "budget": o.budget,
            "prompt_escalation": o.prompt_escalation,
            "retrieval_escalation": o.retrieval_escalation,
            "stop_on_no_improvement": o.stop_on_no_improvement,
            "deterministic_verify": j.deterministic_verify,
            "tau0": j.tau0,
            "tau_lambda": j.tau_lambda,
            "tau_min": j.tau_min,
        }

    def _decide(
        self,
        qid: str,
        attempt: int,
        decision: str,
        reason: str,
        best: _Done | None,
        *,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        scores = (
            {"best_utility": best.verdict.utility, "best_attempt": best.record.attempt}
            if best
            else {}
        )
        self._emit(
            "decision", qid, attempt, params=params, scores=scores, decision=decision, reason=reason
        )

    def record(self, event: str, qid: str, **fields: Any) -> None:
        """Append one audit record of this question outside an attempt (the legs' plan, their
        combination and the final outcome of a question across filings)."""
        self._emit(event, qid, None, **fields)

    def _emit(
        self,
        event: str,
        qid: str,
        attempt: int | None,
        *,
        agent: str = AGENT,
        params: Mapping[str, Any] | None = None,
        scores: Mapping[str, Any] | None = None,
        decision: str | None = None,
        reason: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        self.audit.append(
            event=event, agent=agent, question_id=qid, attempt=attempt, params=params,
            scores=scores, decision=decision, reason=reason, data=data,
        )  # fmt: skip

    def _finish(
        self,
        question: str,
        qid: str,
        status: Status,
        reason: str,
        attempts: tuple[AttemptRecord, ...],
        best: _Done | None,
        error: str | None,
        started: float,
        started_at: str,
        part: bool = False,
    ) -> QAResult:
        if best is not None and best.answer.abstained and status != "failed":
            status = "abstained"
            reason = f"{reason}; the best answer abstains: the filings found do not determine it"
        elif best is not None and status == "best_effort" and _other_company(best):
            # the best answer rests on another company's filing: nothing supports an answer
            status = "abstained"
            reason = (
                f"{_other_company(best)}: no filing of the company asked supports an answer; "
                "abstaining"
            )
            best = None
        if best is None:
            answer = (
                "Cannot answer: no evidence in the indexed filings supports an answer to this question."
                if status == "abstained"
                else "Cannot answer: the question failed (see the audit log)."
            )
        else:
            answer = best.answer.text
        utility = best.verdict.utility if best else 0.0
        citations: tuple[Citation, ...] = ()
        calculations: tuple[Calculation, ...] = ()
        if best is not None:
            # the listed sources are S1..Sn in the order the answer cites them, with printed pages
            answer, citations, calculations = renumber(
                answer, best.answer.citations, best.answer.calculations, best.evidence
            )
            labeller = self.retriever if isinstance(self.retriever, PageLabeller) else None
            citations = label_pages(citations, labeller.page_label if labeller else None)
            if not part:
                status, answer, reason = unverified_outcome(
                    self.settings, status, answer, reason,
                    f"no attempt was verified (best utility {utility:.3f} below its threshold "
                    f"{best.verdict.threshold:.2f})",
                )  # fmt: skip
        result = QAResult(
            question=question,
            question_id=qid,
            answer=answer,
            status=status,
            utility=utility,
            attempts=attempts,
            best_attempt=best.record.attempt if best else None,
            citations=citations,
            calculations=calculations,
            run_id=self.run_id,
            audit_log=self.audit_path,
            reason=reason,
            latency_ms=(self._timer() - started) * 1000.0,
            error=error,
            extra={
                "started_at": started_at,
                "llm_latency_ms": sum(a.llm_latency_ms for a in attempts),
            },
        )
        self._emit(
            "final", qid, None, decision=status, reason=reason,
            scores={"utility": utility, "attempts": len(attempts), "latency_ms": result.latency_ms},
            data={"answer": answer, "best_attempt": result.best_attempt, "error": error,
                  "citations": [c.model_dump(mode="json") for c in result.citations],
                  "calculations": [c.model_dump(mode="json") for c in result.calculations]},
        )  # fmt: skip
        structlog.contextvars.unbind_contextvars("attempt")
        _log.info(
            "question answered",
            question_id=qid,
            status=status,
            utility=round(utility, 3),
            attempts=len(attempts),
        )
        return result


def _better(candidate: _Done, best: _Done) -> bool:
    """Strictly higher utility wins; on a tie a real answer beats an abstention; else the earlier stays."""
    if candidate.verdict.utility != best.verdict.utility:
        return candidate.verdict.utility > best.verdict.utility
    return best.answer.abstained and not candidate.answer.abstained


def _spent(exc: BaseException) -> dict[str, Any]:
    """What a failed agent spent before failing (an LLM call's usage), for the error record."""
    usage = getattr(exc, "usage", None)
    dump = getattr(usage, "model_dump", None)
    return {"usage": dump(mode="json")} if callable(dump) else {}


def _call(agent: str, attempt: int, fn: Callable[[], T]) -> T:
    try:
        return fn()
    except Exception as exc:  # an agent's failure is recorded, never raised out of a batch
        raise _AgentFailure(agent, attempt, exc) from exc


def _other_company(done: _Done) -> str:
    """The judge's company mismatch of an answer ('' when it cites the company asked)."""
    found = (done.verdict.details or {}).get("company")
    problems = found.get("problems") if isinstance(found, dict) else None
    return "; ".join(str(p) for p in problems) if problems else ""
