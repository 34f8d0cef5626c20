"""ReasoningAgent: evidence -> Answer, with the offline backend or an LLM behind the `LLMClient` seam.

The strategy escalates by attempt (settings.reasoning.strategies: standard -> conservative ->
detailed); the template id and hash go on the Answer (and so to the audit log). Empty evidence
abstains without calling the LLM. An LLM failure (down, slow, rate-limited after retries)
becomes an abstained Answer that records the error and the calls spent — never a crash.
"""

from __future__ import annotations

from finqa.agents.config import Settings
from finqa.agents.errors import LLMError
from finqa.agents.logs import get_logger
from finqa.agents.reasoning.llm import LLMCallFailed, OpenAIChatClient
from finqa.agents.reasoning.offline import CANNOT, OFFLINE_TEMPLATE_ID, OfflineBackend
from finqa.agents.reasoning.parsing import parse_reply
from finqa.agents.reasoning.prompts import load_template, render_messages
from finqa.agents.types import Answer, Evidence, LLMClient, LLMUsage, Verdict

__all__ = ["ReasoningAgent", "build_reasoner"]

_log = get_logger("finqa.reasoning")


class ReasoningAgent:
    """Satisfies the `Reasoner` protocol."""

    def __init__(self, settings: Settings, llm: LLMClient | None = None) -> None:
        self.settings = settings
        self.llm = llm
        self.offline = OfflineBackend()

    @property
    def backend(self) -> str:
        return "offline" if self.llm is None else "openai"

    def strategy_for(self, attempt: int) -> str:
        strategies = self.settings.reasoning.strategies or ("standard",)
        return strategies[min(max(attempt, 1), len(strategies)) - 1]

    def generate(
        self,
        question: str,
        evidence: Evidence,
        attempt: int,
        *,
        feedback: Verdict | None = None,
        strategy: str | None = None,
    ) -> Answer:
        strategy = strategy or self.strategy_for(attempt)
        template = load_template(strategy)
        if not evidence.items:
            return Answer(
                text=f"I {CANNOT}: no evidence was retrieved for this question.",
                abstained=True,
                strategy=strategy,
                template_id=template.id if self.llm else OFFLINE_TEMPLATE_ID,
                template_hash=template.sha256 if self.llm else "",
                backend=self.backend,
                model=self.llm.model if self.llm else "",
                confidence={"refusal": True, "score": 0.0, "mode": "no-evidence"},
            )
        if self.llm is None:
            return self.offline.answer(question, evidence, strategy)
        messages = render_messages(
            template,
            question,
            evidence,
            feedback=feedback,
            max_chars=self.settings.reasoning.max_evidence_chars,
        )
        try:
            response = self.llm.complete(
                messages,
                json_mode=True,
                max_tokens=self.settings.llm.max_tokens,
                temperature=self.settings.llm.temperature,
            )
        except LLMError as exc:
            usage = exc.usage if isinstance(exc, LLMCallFailed) else LLMUsage(calls=1)
            _log.warning("reasoning.llm_failed", attempt=attempt, error=str(exc))
            return Answer(
                text=f"I {CANNOT}: the language model failed ({exc}).",
                abstained=True,
                strategy=strategy,
                template_id=template.id,
                template_hash=template.sha256,
                backend=self.backend,
                model=self.llm.model,
                usage=usage,
                confidence={
                    "refusal": True,
                    "score": 0.0,
                    "mode": "llm-error",
                    "llm_error": str(exc),
                },
            )
        parsed = parse_reply(response.text, evidence)
        parsed.confidence["json_mode"] = response.json_mode
        return Answer(
            text=parsed.text,
            citations=tuple(parsed.citations),
            calculations=tuple(parsed.calculations),
            abstained=parsed.abstained,
            strategy=strategy,
            template_id=template.id,
            template_hash=template.sha256,
            backend=self.backend,
            model=response.model,
            usage=response.usage,
            confidence=parsed.confidence,
            raw=response.text,
        )


def build_reasoner(settings: Settings, llm: LLMClient | None = None) -> ReasoningAgent:
    """The Reasoning agent for `settings.llm.backend` (an explicit `llm` wins)."""
    if llm is None and settings.llm.backend == "openai":
        llm = OpenAIChatClient(settings.llm)
    return ReasoningAgent(settings, llm)
