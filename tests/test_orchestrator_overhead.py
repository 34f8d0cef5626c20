"""The orchestration-overhead benchmark runs and accounts LLM time per question."""

from __future__ import annotations

from finqa.benchmarks.overhead import QUESTIONS, run


class TestOverheadBenchmark:
    """`python -m finqa.benchmarks.overhead` with a tiny fake latency."""

    def test_accounts_llm_time(self) -> None:
        """Every question is answered, LLM time covers every call, and the share is a fraction."""
        out = run(latency_s=0.02)
        assert out["questions"] == len(QUESTIONS)
        assert out["llm_calls"] >= sum(
            r["attempts"] for r in out["rows"] if r["status"] != "failed"
        )
        assert out["llm_s"] >= 0.02 * out["llm_calls"]
        assert 0.0 < out["overhead_share"] < 1.0
        assert all(r["status"] != "failed" for r in out["rows"])
        assert max(r["attempts"] for r in out["rows"]) >= 2  # retries are part of what is measured
