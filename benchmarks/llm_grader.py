"""The optional oracle-guided LLM grader (paper's "LLM judge"): 0 / 0.5 / 1 with the gold answer.

It sees the gold answer, so it is an evaluation instrument only, reported apart from the blind
Judge inside the loop. It goes through the `LLMClient` seam (by default the `openai` client against
`llm.base_url` / `llm.model` of the configuration).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.types import LLMClient

__all__ = ["LLMGrader", "GRADER_PROMPT"]

GRADER_PROMPT = """You grade answers to financial questions against a gold answer.
Score 1 if the candidate answer states the same result as the gold answer (numbers may differ by
rounding, units or scale wording, e.g. $5,818 million = $5.818 billion), 0.5 if it is partly
right (right direction or some of the key figures, or right figure with a wrong conclusion), and
0 if it is wrong, unrelated or declines to answer.
Reply with JSON only: {"score": 0 | 0.5 | 1, "rationale": "<one sentence>"}.

Question: {question}
Gold answer: {gold}
Candidate answer: {predicted}
"""

_ALLOWED = (0.0, 0.5, 1.0)


class LLMGrader:
    """`grade(question, gold, predicted) -> {"score": 0|0.5|1|None, "rationale", "model"}`."""

    def __init__(self, llm: LLMClient) -> None:
        self.llm = llm

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMGrader:
        from finqa.agents.reasoning.llm import (
            OpenAIChatClient,
        )  # lazy: imports openai on first call

        return cls(OpenAIChatClient(settings.llm))

    def grade(self, question: str, gold: str, predicted: str) -> Mapping[str, Any]:
        prompt = (
            GRADER_PROMPT.replace("{question}", question)
            .replace("{gold}", gold)
            .replace("{predicted}", predicted or "(no answer)")
        )
        response = self.llm.complete(
            [{"role": "user", "content": prompt}], json_mode=True, max_tokens=200, temperature=0.0
        )
        score, rationale = _parse(response.text)
        return {
            "score": score,
            "rationale": rationale,
            "model": response.model,
            "prompt_tokens": response.usage.prompt_tokens,
            "completion_tokens": response.usage.completion_tokens,
        }


def _parse(text: str) -> tuple[float | None, str]:
    """The score snapped to 0/0.5/1 (None when the reply has no usable score)."""
    raw: Any = None
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if match:
        try:
            raw = json.loads(match.group(0))
        except json.JSONDecodeError:
            raw = None
    if isinstance(raw, dict) and isinstance(raw.get("score"), int | float | str):
        try:
            value = float(raw["score"])
        except ValueError:
            return None, f"unparseable score {raw['score']!r}"
        rationale = str(raw.get("rationale", ""))[:300]
    else:
        found = re.search(r"score\D{0,5}(0\.5|1(?:\.0)?|0(?:\.0)?)", text, re.IGNORECASE)
        if not found:
            return None, "no score in the grader's reply"
        value, rationale = float(found.group(1)), text.strip()[:300]
    if value not in _ALLOWED:
        value = min(_ALLOWED, key=lambda a: abs(a - value))
    return value, rationale
