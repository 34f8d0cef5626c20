"""The Judge agent: blind scoring of an answer (grounding, completeness, numeric faithfulness),
utility vs the attempt's threshold, and a diagnosis with feedback on every rejection."""

from finqa.agents.judge.agent import JudgeAgent

__all__ = ["JudgeAgent"]
