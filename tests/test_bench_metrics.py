"""Benchmark metrics (bootstrap CIs, loop metrics) and the oracle-guided LLM grader."""

from __future__ import annotations

from typing import Any

import pytest
from finqa.benchmarks.metrics import bootstrap_ci, mode_details, mode_summary


def rec(first: str, final: str, decision: str, *, typ: str = "t", status: str = "best_effort",
        recall: float | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "type": typ,
        "status": status,
        "grade": {"label": final, "kind": "numeric"},
        "attempts": [
            {"attempt": 1, "grade": {"label": first}, "decision": decision, "page_recall": recall}
        ],
        "best_attempt": 1,
        "llm_calls": 2,
        "timings": {"latency_s": 1.0},
    }


class TestBootstrap:
    """Bootstrap intervals are seeded and bracket the mean."""

    def test_seeded_and_brackets(self) -> None:
        """The same seed gives the same interval, which contains the sample mean."""
        values = [1.0] * 30 + [0.0] * 70
        a, b = bootstrap_ci(values, seed=3), bootstrap_ci(values, seed=3)
        assert a == b and a is not None
        assert a[0] < 0.3 < a[1] and a[1] - a[0] < 0.25

    def test_empty(self) -> None:
        """No values, no interval."""
        assert bootstrap_ci([]) is None


class TestLoopMetrics:
    """Lazarus, judge TPR/FPR and rates follow their definitions."""

    def test_definitions(self) -> None:
        """TPR = P(retry | attempt-1 incorrect), FPR = P(retry | attempt-1 correct)."""
        records = [
            rec("wrong", "correct", "retry"),  # Lazarus
            rec("abstained", "abstained", "retry"),
            rec("wrong", "wrong", "accept", status="accepted"),  # judge missed it
            rec("correct", "correct", "accept", status="accepted"),
            rec("correct", "wrong", "retry"),  # false alarm, and it hurt
            rec("ungraded", "ungraded", "retry"),  # excluded from the loop metrics
        ]
        s = mode_summary(records)
        assert s["lazarus_rate"] == pytest.approx(1 / 3, abs=1e-4)
        assert s["judge_tpr"] == pytest.approx(2 / 3, abs=1e-4)
        assert s["judge_fpr"] == pytest.approx(1 / 2, abs=1e-4)
        assert s["accuracy"] == pytest.approx(2 / 6, abs=1e-4)
        assert s["wrong_rate"] == pytest.approx(2 / 6, abs=1e-4)
        assert s["abstain_rate"] == pytest.approx(1 / 6, abs=1e-4)
        assert s["acceptance_rate"] == pytest.approx(2 / 6, abs=1e-4)
        d = mode_details(records)
        assert d["correction_flow"]["correct->wrong"] == 1
        assert d["graded_accuracy"] == pytest.approx(2 / 5, abs=1e-4)

    def test_retrieval_attribution(self) -> None:
        """Wrong answers split by whether the final evidence held a gold page."""
        records = [
            rec("wrong", "wrong", "retry", recall=0.0),
            rec("wrong", "wrong", "retry", recall=1.0),
            rec("correct", "correct", "accept", recall=0.5),
        ]
        d = mode_details(records)
        assert (d["wrong_gold_page_missing"], d["wrong_gold_page_retrieved"]) == (1, 1)
        assert d["page_recall_first"] == pytest.approx(0.5, abs=1e-4)


class TestLLMGrader:
    """The optional LLM grader talks to an OpenAI-compatible server and snaps to 0/0.5/1."""

    def test_against_fake_server(self) -> None:
        """Scores come back from real HTTP; the gold answer is in the prompt; junk is None."""
        from finqa.agents.config import LLMConfig
        from finqa.agents.reasoning import fake_server as fake
        from finqa.agents.reasoning.llm import OpenAIChatClient
        from finqa.benchmarks.llm_grader import LLMGrader

        replies = [
            '{"score": 0.5, "rationale": "right figure, wrong conclusion"}',
            '{"score": 0.9, "rationale": "close"}',
            "I think it is fine",
        ]
        with fake.FakeOpenAIServer(replies) as srv:
            cfg = LLMConfig(backend="openai", base_url=srv.url, model="fake", max_retries=0)
            grader = LLMGrader(OpenAIChatClient(cfg, api_key="sk-test"))
            first = grader.grade("What is capex?", "$1200.00", "$1.1 billion")
            second = grader.grade("Q", "G", "P")
            third = grader.grade("Q", "G", "P")
            assert "$1200.00" in srv.requests[0].text
        assert first["score"] == 0.5 and "conclusion" in first["rationale"]
        assert second["score"] == 1.0
        assert third["score"] is None
