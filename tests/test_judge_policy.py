"""The judge's scoring policy (`agents/judge/policy.py`): utility from the three scores and the
configured weights, accepted against the attempt's threshold."""

from __future__ import annotations

from finqa.agents.config import JudgeConfig
from finqa.agents.judge.policy import Scores, decide


class TestDecide:
    """U = w_g mu_g + w_c mu_c + w_n mu_n, accepted iff U >= tau_t."""

    def test_utility_uses_the_weights(self) -> None:
        """Default weights (0.3, 0.2, 0.5) over (1, 0.5, 0.2) give U = 0.5: accepted at attempt 1."""
        d = decide(Scores(1.0, 0.5, 0.2), 1, JudgeConfig())
        assert (d.utility, d.threshold, d.decision) == (0.5, 0.5, "accept")

    def test_threshold_falls_with_attempts(self) -> None:
        """U = 0.375 is sent back at attempt 1 (tau 0.5) and accepted at attempt 3 (tau 0.3)."""
        s = Scores(0.5, 0.5, 0.25)
        assert decide(s, 1, JudgeConfig()).decision == "retry"
        third = decide(s, 3, JudgeConfig())
        assert third.threshold == 0.3 and third.decision == "accept"

    def test_zeroed_scores_are_never_accepted(self) -> None:
        """An answer nothing supports (another company's figure) scores 0 and keeps the LLM's note."""
        s = Scores(1.0, 1.0, 1.0, {"model": "m"}).zeroed()
        assert (s.grounding, s.completeness, s.numeric, s.llm) == (0.0, 0.0, 0.0, {"model": "m"})
        assert decide(s, 3, JudgeConfig()).decision == "retry"
