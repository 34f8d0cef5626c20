"""ReasoningAgent: evidence -> Answer, with the offline backend, an LLM, or both (hybrid).

The strategy escalates by attempt (settings.reasoning.strategies: standard -> conservative ->
detailed); the template id and hash go on the Answer (and so to the audit log). Empty evidence
abstains without calling the LLM. An LLM failure (down, erroring, slow, rate-limited) is retried
a bounded number of times by the client; if it persists, `generate` raises `LLMCallFailed` (the
error and the calls spent), so the orchestrator records the question as failed (or keeps an
earlier attempt's answer) and a batch goes on — an outage is not an abstention, and a benchmark
rerun retries it. In hybrid mode an offline answer, when there is one, stands instead.

The reply schema goes to the server as structured output; the answer's confidence records which
`response_format` was used and whether the reply validated. Figure questions are asked in plan
form (finqa computes). `hybrid`: the offline backend answers first; the LLM takes what it abstains
on and every retry the Judge sends back; `confidence.answered_by` says which one answered.

`statements` (optional, injected once: the index's statement model, `StatementStore`): the
offline backend and the plan executor read the figures of the filings present in the evidence
from it first (citing the fact's doc and page) and fall back to the evidence's own tables;
None reads the evidence text only.
"""

from __future__ import annotations

from finqa.agents.config import Settings
from finqa.agents.errors import LLMError
from finqa.agents.logs import get_logger
from finqa.agents.reasoning.llm import LLMCallFailed, OpenAIChatClient
from finqa.agents.reasoning.offline import CANNOT, OFFLINE_TEMPLATE_ID, OfflineBackend
from finqa.agents.reasoning.parsing import parse_reply
from finqa.agents.reasoning.plan import statement_view
from finqa.agents.reasoning.prompts import is_figure_question, load_template, render_messages
from finqa.agents.reasoning.schema import reply_json_schema
from finqa.agents.types import Answer, Evidence, LLMClient, LLMUsage, StatementStore, Verdict

__all__ = ["ReasoningAgent", "build_reasoner"]

_log = get_logger("finqa.reasoning")


class ReasoningAgent:
    """Satisfies the `Reasoner` protocol."""

    def __init__(
        self,
        settings: Settings,
        llm: LLMClient | None = None,
        *,
        hybrid: bool | None = None,
        statements: StatementStore | None = None,
    ) -> None:
        self.settings = settings
        self.llm = llm
        self.statements = statements
        self.offline = OfflineBackend(statements)
        wanted = (settings.llm.backend == "hybrid") if hybrid is None else hybrid
        self.hybrid = wanted and llm is not None

    @property
    def backend(self) -> str:
        if self.llm is None:
            return "offline"
        return "hybrid" if self.hybrid else "openai"

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
        offline: Answer | None = None
        if self.hybrid:
            offline = self.offline.answer(question, evidence, strategy)
            if attempt <= 1 and feedback is None and not offline.abstained:
                conf = dict(offline.confidence) | {"answered_by": "offline"}
                return offline.model_copy(update={"backend": "hybrid", "confidence": conf})
        answer = self._ask_llm(
            self.llm,
            question,
            evidence,
            attempt,
            strategy,
            feedback,
            allow_failure=offline is not None and not offline.abstained,
        )
        if offline is None:
            return answer
        conf = dict(answer.confidence)
        conf["offline_abstained"] = offline.abstained
        if answer.confidence.get("mode") == "llm-error" and not offline.abstained:
            # the LLM failed on a retry: the offline answer stands, with the error recorded
            oconf = dict(offline.confidence) | {
                "answered_by": "offline",
                "llm_error": conf.get("llm_error"),
            }
            return offline.model_copy(
                update={"backend": "hybrid", "confidence": oconf, "usage": answer.usage}
            )
        conf["answered_by"] = "llm"
        return answer.model_copy(update={"confidence": conf})

    def _ask_llm(
        self,
        llm: LLMClient,
        question: str,
        evidence: Evidence,
        attempt: int,
        strategy: str,
        feedback: Verdict | None,
        *,
        allow_failure: bool = False,
    ) -> Answer:
        """The LLM's answer; on a persistent failure an `llm-error` abstention when
        `allow_failure` (a fallback answer exists), else `LLMCallFailed` is raised."""
        template = load_template(strategy)
        figure = is_figure_question(question)
        view = None
        if figure and self.statements is not None:
            view = statement_view(evidence, book=self.offline.book(evidence))
        messages = render_messages(
            template,
            question,
            evidence,
            feedback=feedback,
            max_chars=self.settings.reasoning.max_evidence_chars,
            figure=figure,
            statements=view,
        )
        try:
            response = llm.complete(
                messages,
                json_mode=True,
                max_tokens=self.settings.llm.max_tokens,
                temperature=self.settings.llm.temperature,
                schema=reply_json_schema(),
            )
        except LLMError as exc:
            usage = exc.usage if isinstance(exc, LLMCallFailed) else LLMUsage(calls=1)
            _log.warning("reasoning.llm_failed", attempt=attempt, error=str(exc))
            if not allow_failure:
                raise LLMCallFailed(f"the language model failed: {exc}", usage) from None
            return Answer(
                text=f"I {CANNOT}: the language model failed ({exc}).",
                abstained=True,
                strategy=strategy,
                template_id=template.id,
                template_hash=template.sha256,
                backend=self.backend,
                model=llm.model,
                usage=usage,
                confidence={
                    "refusal": True,
                    "score": 0.0,
                    "mode": "llm-error",
                    "llm_error": str(exc),
                },
            )
        parsed = parse_reply(response.text, evidence, statements=self.statements)
        parsed.confidence["json_mode"] = response.json_mode
        parsed.confidence["response_format"] = response.response_format
        parsed.confidence["figure_question"] = figure
        parsed.confidence["finish_reason"] = response.finish_reason
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
            missing=tuple(parsed.missing),
            calc_problems=tuple(parsed.calc_problems),
            invalid_citations=parsed.invalid_citations,
        )


def build_reasoner(
    settings: Settings, llm: LLMClient | None = None, statements: StatementStore | None = None
) -> ReasoningAgent:
    """The Reasoning agent for `settings.llm.backend` (an explicit `llm` wins), reading the
    statement model `statements` when given."""
    if llm is None and settings.llm.backend in ("openai", "hybrid"):
        llm = OpenAIChatClient(settings.llm)
    return ReasoningAgent(settings, llm, statements=statements)
