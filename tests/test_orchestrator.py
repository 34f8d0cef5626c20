"""The self-correcting loop with scripted fakes: acceptance, escalation, best-of, stops, audit."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from finqa.agents.config import Settings
from finqa.orchestrator import Orchestrator
from finqa.orchestrator.policy import UNVERIFIED_LEAD, first_plan, next_plan, should_stop
from finqa.testing import FakeReasoner, FakeRetriever, MemorySink, ScriptedJudge

Q = "What were 3M's net sales in 2018?"


def _settings(**overrides: Any) -> Settings:
    return Settings().with_overrides(overrides)


# the loop's own best-of mechanics, seen with unverified answers returned as best_effort
_AS_ANSWER = {"orchestrator.unverified": "answer"}


def _run(
    settings: Settings,
    utilities: list[float],
    *,
    answers: tuple[str, ...] = ("a1", "a2", "a3"),
    diagnosis: str | None = "both",
    retriever: FakeRetriever | None = None,
    question: str = Q,
) -> tuple[Any, MemorySink, FakeRetriever, FakeReasoner, ScriptedJudge]:
    sink = MemorySink()
    retr = retriever or FakeRetriever(settings)
    reas = FakeReasoner(answers)
    judge = ScriptedJudge(settings, utilities, diagnosis=diagnosis)
    result = Orchestrator(settings, retr, reas, judge, sink).run(question, question_id="q1")
    return result, sink, retr, reas, judge


class TestAcceptance:
    """Acceptance and retries under the decaying threshold."""

    def test_accept_on_first_attempt(self) -> None:
        """An answer whose utility clears tau_1 is accepted after one attempt."""
        result, sink, *_ = _run(Settings(), [0.9])
        assert result.status == "accepted"
        assert [a.attempt for a in result.attempts] == [1]
        assert result.answer == "a1" and result.utility == 0.9 and result.best_attempt == 1
        assert result.citations[0].doc_id == "3M_2018_10K"

    def test_retry_then_accept(self) -> None:
        """A rejected first attempt is retried and the second, clearing tau_2, is accepted."""
        result, *_ = _run(Settings(), [0.3, 0.45])
        assert result.status == "accepted"
        assert [(a.decision, a.threshold) for a in result.attempts] == [
            ("retry", 0.5),
            ("accept", 0.4),
        ]
        assert result.answer == "a2"

    def test_budget_spent_is_best_effort(self) -> None:
        """When no attempt clears its threshold the best answer comes back as best_effort."""
        result, *_ = _run(_settings(**_AS_ANSWER), [0.1, 0.2, 0.25])
        assert result.status == "best_effort"
        assert len(result.attempts) == 3
        assert result.answer == "a3" and result.best_attempt == 3


class TestBestOf:
    """More attempts never return a worse answer."""

    def test_best_kept_when_later_attempts_are_worse(self) -> None:
        """A later, worse attempt does not replace the best one."""
        settings = _settings(**{"orchestrator.stop_on_no_improvement": False, **_AS_ANSWER})
        result, *_ = _run(settings, [0.28, 0.2, 0.1])
        assert len(result.attempts) == 3
        assert result.answer == "a1" and result.utility == 0.28 and result.best_attempt == 1
        assert result.status == "best_effort"

    def test_accepted_status_keeps_higher_earlier_answer(self) -> None:
        """When attempt 2 is accepted but attempt 1 scored higher, attempt 1's answer is returned."""
        result, *_ = _run(_settings(**{"orchestrator.stop_on_no_improvement": False}), [0.48, 0.42])
        assert result.status == "accepted"
        assert result.answer == "a1" and result.utility == 0.48
        assert "returning attempt 1's answer" in result.reason


class TestEarlyStop:
    """The loop stops when another attempt cannot improve."""

    def test_utility_declining_stops(self) -> None:
        """A lower utility than the previous attempt stops the loop with the best answer."""
        result, sink, *_ = _run(_settings(**_AS_ANSWER), [0.28, 0.1, 0.9])
        assert len(result.attempts) == 2
        assert result.status == "best_effort" and result.answer == "a1"
        assert "declining" in result.reason

    def test_same_evidence_and_answer_stops(self) -> None:
        """Identical evidence and answer on a retry stops the loop before the budget is spent."""
        settings = Settings()
        result, *_ = _run(
            settings, [0.2], answers=("same",), retriever=FakeRetriever(settings, same_chunks=True)
        )
        assert len(result.attempts) == 2
        assert "cannot improve" in result.reason

    def test_switch_off_runs_the_budget(self) -> None:
        """With stop_on_no_improvement off, a declining utility does not stop the loop."""
        result, *_ = _run(
            _settings(**{"orchestrator.stop_on_no_improvement": False}), [0.28, 0.1, 0.2]
        )
        assert len(result.attempts) == 3


class TestAbstainAndFailure:
    """Fail closed on empty evidence; record agent failures and go on."""

    def test_empty_evidence_abstains(self) -> None:
        """No evidence (e.g. company not in the corpus) abstains without calling the reasoner."""
        settings = Settings()
        result, sink, _, reasoner, judge = _run(
            settings, [0.9], retriever=FakeRetriever(settings, empty=True)
        )
        assert result.status == "abstained"
        assert (
            "no evidence" in result.answer.lower() and "company not in the corpus" in result.reason
        )
        assert reasoner.calls == [] and judge.calls == []
        assert [(a.attempt, a.decision, a.k) for a in result.attempts] == [(1, "abstain", 10)]
        assert sink.events("q1")[-2:] == [("decision", 1), ("final", None)]

    def test_reasoner_abstention_is_abstained(self) -> None:
        """A best answer that abstains is reported as abstained, not as an answer."""
        settings = Settings()
        sink = MemorySink()
        reasoner = FakeReasoner(("Cannot determine from the filings.",), abstain=True)
        result = Orchestrator(
            settings, FakeRetriever(settings), reasoner, ScriptedJudge(settings, [0.9]), sink
        ).run(Q)
        assert result.status == "abstained"

    def test_failed_agent_is_recorded(self) -> None:
        """An exception in an agent gives status failed and an error record, without raising."""
        settings = Settings()
        retr = FakeRetriever(settings, fail_on=lambda q: "boom" in q)
        result, sink, *_ = _run(settings, [0.9], retriever=retr, question="boom?")
        assert result.status == "failed"
        assert result.error is not None and "index unreachable" in result.error
        assert [(a.attempt, a.decision) for a in result.attempts] == [(1, "failed")]
        errors = [r for r in sink.records if r["event"] == "error"]
        assert errors and errors[0]["agent"] == "retrieval" and errors[0]["decision"] == "failed"
        assert sink.records[-1]["event"] == "final" and sink.records[-1]["decision"] == "failed"

    def test_failure_after_an_answer_keeps_it(self) -> None:
        """A failure on a later attempt returns the earlier best answer as best_effort, error recorded."""
        settings = _settings(**_AS_ANSWER)
        sink = MemorySink()

        class FlakyJudge(ScriptedJudge):
            def evaluate(self, question: str, answer: Any, evidence: Any, attempt: int) -> Any:
                if attempt == 2:
                    raise TimeoutError("judge LLM timed out")
                return super().evaluate(question, answer, evidence, attempt)

        orch = Orchestrator(
            settings,
            FakeRetriever(settings),
            FakeReasoner(("a1", "a2")),
            FlakyJudge(settings, [0.2]),
            sink,
        )
        result = orch.run(Q, question_id="q1")
        assert result.status == "best_effort" and result.answer == "a1"
        assert result.error is not None and "TimeoutError" in result.error
        assert [(a.attempt, a.decision) for a in result.attempts] == [(1, "retry"), (2, "failed")]
        assert [e for e, _ in sink.events("q1")][-3:] == ["error", "decision", "final"]


class TestEscalation:
    """The levers per attempt follow the diagnosis and the ablation switches."""

    def test_k_and_strategy_per_attempt(self) -> None:
        """Diagnosis 'both' escalates k 10/20/30 and strategy standard/conservative/detailed;
        RSE follows the configured escalation steps."""
        settings = Settings()
        result, _, retr, reas, _ = _run(settings, [0.1, 0.2, 0.25])
        assert [a.k for a in result.attempts] == [10, 20, 30]
        assert [a.rse for a in result.attempts] == [s.rse for s in settings.retrieval.escalation]
        assert [a.strategy for a in result.attempts] == ["standard", "conservative", "detailed"]
        assert [c["feedback"] is not None for c in retr.calls] == [False, True, True]
        assert [c["feedback"] is not None for c in reas.calls] == [False, True, True]

    def test_retrieval_diagnosis_keeps_the_prompt(self) -> None:
        """A retrieval diagnosis widens k and passes the missing facets, keeping the strategy."""
        result, _, retr, reas, _ = _run(Settings(), [0.1, 0.2, 0.25], diagnosis="retrieval")
        assert [a.k for a in result.attempts] == [10, 20, 30]
        assert [a.strategy for a in result.attempts] == ["standard"] * 3
        assert retr.calls[1]["feedback"].missing_facets == ("fiscal year 2018",)
        assert all(c["feedback"] is None for c in reas.calls)

    def test_reasoning_diagnosis_keeps_the_evidence(self) -> None:
        """A reasoning diagnosis escalates the prompt with feedback on the same retrieval step."""
        result, sink, retr, reas, _ = _run(Settings(), [0.1, 0.2, 0.25], diagnosis="reasoning")
        assert [a.k for a in result.attempts] == [10, 10, 10]
        assert len(retr.calls) == 1  # the evidence of attempt 1 is reused, not searched again
        reused = [r["decision"] for r in sink.records if r["event"] == "retrieval"]
        assert reused == ["evidence", "reused", "reused"]
        assert [a.strategy for a in result.attempts] == ["standard", "conservative", "detailed"]
        assert reas.calls[1]["feedback"].feedback == "cite the cash flow statement"

    def test_no_prompt_escalation(self) -> None:
        """With prompt_escalation off the strategy stays standard and the reasoner gets no feedback."""
        result, _, _, reas, _ = _run(
            _settings(**{"orchestrator.prompt_escalation": False}), [0.1, 0.2, 0.25]
        )
        assert [a.strategy for a in result.attempts] == ["standard"] * 3
        assert [a.k for a in result.attempts] == [10, 20, 30]
        assert all(c["feedback"] is None for c in reas.calls)

    def test_no_retrieval_escalation(self) -> None:
        """With retrieval_escalation off k stays at the first step."""
        result, _, retr, _, _ = _run(
            _settings(**{"orchestrator.retrieval_escalation": False}), [0.1, 0.2, 0.25]
        )
        assert [a.k for a in result.attempts] == [10, 10, 10]
        assert [a.strategy for a in result.attempts] == ["standard", "conservative", "detailed"]
        assert all(c["feedback"] is None for c in retr.calls)

    @pytest.mark.parametrize("budget,expected", [(0, 1), (1, 2), (4, 5)])
    def test_budget(self, budget: int, expected: int) -> None:
        """Budget B allows exactly B + 1 attempts."""
        settings = _settings(
            **{"orchestrator.budget": budget, "orchestrator.stop_on_no_improvement": False}
        )
        result, *_ = _run(settings, [0.01 * i for i in range(1, 7)])
        assert len(result.attempts) == expected

    def test_deterministic_verify_switch_recorded(self) -> None:
        """The judge's deterministic_verify switch is recorded with the question's parameters."""
        _, sink, *_ = _run(_settings(**{"judge.deterministic_verify": False}), [0.9])
        start = sink.records[0]
        assert (
            start["event"] == "question_start" and start["params"]["deterministic_verify"] is False
        )

    def test_policy_falls_back_to_other_lever(self) -> None:
        """When the diagnosed lever is switched off the policy escalates the other one, with a reason."""
        settings = _settings(**{"orchestrator.retrieval_escalation": False})
        verdict = ScriptedJudge(settings, [0.1], diagnosis="retrieval").evaluate(Q, None, None, 1)  # type: ignore[arg-type]
        plan = next_plan(settings, first_plan(settings), verdict)
        assert plan.retrieval_level == 1 and plan.strategy == "conservative" and plan.changes
        assert "switched off" in plan.reason and "falling back" in plan.reason

    def test_abstention_escalates_retrieval(self) -> None:
        """An abstaining answer diagnosed as a reasoning failure still widens retrieval."""
        settings = Settings()
        sink = MemorySink()
        reasoner = FakeReasoner(("cannot determine from the filings",), abstain=True)
        judge = ScriptedJudge(settings, [0.0], diagnosis="reasoning")
        result = Orchestrator(settings, FakeRetriever(settings), reasoner, judge, sink).run(Q)
        assert [a.k for a in result.attempts] == [10, 20, 30]
        assert result.status == "abstained"
        assert "abstained" in next(r for r in sink.records if r["event"] == "decision")["reason"]

    def test_policy_is_pure(self) -> None:
        """The same inputs give the same stop decision."""
        args = dict(
            attempt=1, accepted=False, utility=0.2, previous_utility=None, same_as_previous=False
        )
        assert should_stop(Settings(), **args) == should_stop(Settings(), **args)  # type: ignore[arg-type]


class TestAuditTrail:
    """Every decision of every attempt reaches the audit sink."""

    def test_records_per_attempt_match_attempts(self) -> None:
        """Each reported attempt has exactly one retrieval, reasoning, judge and decision record."""
        result, sink, *_ = _run(Settings(), [0.1, 0.2, 0.25])
        per_attempt = Counter(r["attempt"] for r in sink.records if r["attempt"] is not None)
        assert sorted(per_attempt) == [a.attempt for a in result.attempts]
        for attempt in result.attempts:
            events = [r["event"] for r in sink.records if r["attempt"] == attempt.attempt]
            assert events == ["retrieval", "reasoning", "judge", "decision"]
        assert sink.records[0]["event"] == "question_start" and sink.records[-1]["event"] == "final"

    def test_records_carry_the_decisions(self) -> None:
        """Records carry plan k, strategy and template, judge scores and the orchestrator's reason."""
        _, sink, *_ = _run(Settings(), [0.1, 0.45])
        by = {(r["event"], r["attempt"]): r for r in sink.records}
        assert by[("retrieval", 2)]["params"]["k"] == 20
        assert by[("retrieval", 2)]["data"]["items"][0]["chunk_ids"]
        assert by[("reasoning", 2)]["params"]["strategy"] == "conservative"
        assert by[("reasoning", 2)]["params"]["template_hash"] == "abc123"
        assert (
            by[("judge", 1)]["scores"]["threshold"] == 0.5
            and by[("judge", 1)]["decision"] == "retry"
        )
        retry = by[("decision", 1)]
        assert retry["decision"] == "retry" and "diagnosis: both" in retry["reason"]
        assert retry["params"]["next"]["strategy"] == "conservative"
        assert by[("decision", 2)]["decision"] == "accept"
        final = sink.records[-1]
        assert final["decision"] == "accepted" and final["data"]["best_attempt"] == 2

    def test_deterministic(self) -> None:
        """The same inputs give the same result and the same audit records."""
        first = _run(Settings(), [0.1, 0.2, 0.25])
        second = _run(Settings(), [0.1, 0.2, 0.25])
        strip = ("latency_ms", "started_at", "llm_latency_ms")

        def norm(r: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in r.items() if k not in ("scores", "data")} | {
                "scores": {k: v for k, v in r["scores"].items() if k not in strip}
            }

        assert [norm(r) for r in first[1].records] == [norm(r) for r in second[1].records]
        assert (
            first[0].answer == second[0].answer
            and first[0].attempts[2].k == second[0].attempts[2].k
        )


class _OtherCompanyJudge(ScriptedJudge):
    """Scores like ScriptedJudge and reports every answer as resting on another company's filing."""

    def evaluate(self, question: str, answer: Any, evidence: Any, attempt: int) -> Any:
        verdict = super().evaluate(question, answer, evidence, attempt)
        company = {"asked": ["ZETA"], "problems": ["ACME_2024_10K is Acme's filing, not ZETA's"]}
        return verdict.model_copy(update={"details": {**verdict.details, "company": company}})


class TestOtherCompanysFiling:
    def test_best_answer_from_another_company_abstains(self) -> None:
        """When every attempt rests on another company's filing, the question abstains, citing nothing."""
        settings = Settings()
        sink = MemorySink()
        judge = _OtherCompanyJudge(settings, (0.0,))
        result = Orchestrator(
            settings, FakeRetriever(settings), FakeReasoner(("a1", "a2")), judge, sink
        ).run("What was ZETA's revenue in 2024?", question_id="q1")
        assert result.status == "abstained" and result.citations == ()
        assert result.answer.startswith("Cannot answer") and "Acme's filing" in result.reason

    def test_accepted_answer_is_kept(self) -> None:
        """An accepted answer is never turned into an abstention by this rule."""
        settings = Settings()
        judge = _OtherCompanyJudge(settings, (0.9,))
        result = Orchestrator(
            settings, FakeRetriever(settings), FakeReasoner(("a1",)), judge, MemorySink()
        ).run("What was ZETA's revenue in 2024?", question_id="q1")
        assert result.status == "accepted"


class TestUnverifiedAnswers:
    """An answer no attempt got verified is an abstention by default (orchestrator.unverified,
    chosen on company-grouped folds), showing the reading it did not verify as not an answer."""

    def test_never_verified_abstains_and_shows_the_reading(self) -> None:
        result, sink, *_ = _run(Settings(), [0.1, 0.2, 0.25])
        assert result.status == "abstained"
        assert result.answer == UNVERIFIED_LEAD + "a3" and result.best_attempt == 3
        assert "no attempt was verified" in result.reason and "0.250" in result.reason
        final = sink.records[-1]
        assert final["event"] == "final" and final["decision"] == "abstained"

    def test_verified_answer_is_unchanged(self) -> None:
        result, *_ = _run(Settings(), [0.3, 0.45])
        assert result.status == "accepted" and result.answer == "a2"

    def test_answer_setting_returns_best_effort(self) -> None:
        result, *_ = _run(_settings(**_AS_ANSWER), [0.1, 0.2, 0.25])
        assert result.status == "best_effort" and result.answer == "a3"

    def test_abstention_is_graded_as_one(self) -> None:
        """The bench grades the shown reading as an abstention, even where it holds the gold."""
        from finqa.benchmarks.grading import grade

        text = UNVERIFIED_LEAD + "Revenue was $32,765 million."
        assert grade(Q, "$32,765 million", text, abstained=True).label == "abstained"
