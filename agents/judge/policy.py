"""The judge's scoring policy: mu_g, mu_c, mu_n from the checks, the utility
U = w_g mu_g + w_c mu_c + w_n mu_n (weights from settings.judge) and the decision, accept iff
U >= tau_t with tau_t = settings.judge.threshold(attempt)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from finqa.agents.config import JudgeConfig
from finqa.agents.judge.context import Context, counted
from finqa.agents.judge.facets import Facet, completeness_score
from finqa.agents.judge.grounding import grounding_score
from finqa.agents.judge.numeric import FAIL_CAP, NumberCheck, numeric_score
from finqa.agents.types import LLMClient

__all__ = ["Decision", "Scores", "decide", "score"]

_NO_CONTENT_GROUNDING = 0.5  # a bare 'Yes.' can be neither supported nor refuted by tokens


@dataclass(frozen=True)
class Scores:
    """mu_g, mu_c, mu_n of one answer, and what the optional LLM judge said."""

    grounding: float
    completeness: float
    numeric: float
    llm: dict[str, Any] | None = None

    def zeroed(self) -> Scores:
        """The scores of an answer nothing supports (an injection obeyed, another company's or
        another segment's figure)."""
        return Scores(0.0, 0.0, 0.0, self.llm)


@dataclass(frozen=True)
class Decision:
    """The utility against the attempt's threshold, and what follows."""

    utility: float
    threshold: float
    decision: Literal["accept", "retry"]


def score(
    ctx: Context,
    claim_checks: list[Any],
    facets: list[Facet],
    numbers: list[NumberCheck],
    cfg: JudgeConfig,
    llm: LLMClient | None,
) -> Scores:
    """mu_g, mu_c, mu_n (and what the optional LLM judge said)."""
    # a part the answer says it found nothing for is unanswered (mu_c) but not owed as a figure
    # or claim: the rest of the answer is scored on its own
    missing = [f for f in facets if counted(f) and f.dropped]
    g = grounding_score(claim_checks, len(missing))
    g = _NO_CONTENT_GROUNDING if g is None else g
    llm_info: dict[str, Any] | None = None
    if cfg.llm_judge and llm is not None and not ctx.abstained:
        from finqa.agents.judge.llm import llm_grounding

        g_llm, llm_info = llm_grounding(llm, ctx.question, claim_checks, ctx.view)
        if g_llm is not None:
            # an added entailment check: it can lower mu_g, never lift a deterministic failure
            g = min(g, (g + g_llm) / 2.0)
    c = completeness_score(facets)
    n = numeric_score(numbers)
    if n is None:
        figure_missing = any(f.kind == "figure" and not f.addressed for f in facets)
        n = 0.0 if figure_missing else g
    if missing:
        # a part left unanswered is a figure/claim the answer owes: mu_n is capped as for an
        # unverifiable number (otherwise w_c = 0.2 alone could never send a half answer back)
        n *= FAIL_CAP
    if ctx.abstained or not ctx.text.strip():
        g, c, n = 0.0, 0.0, 0.0
    return Scores(g, c, n, llm_info)


def decide(scores: Scores, attempt: int, cfg: JudgeConfig) -> Decision:
    """Utility vs the attempt's threshold: accept when U >= tau_t."""
    utility = round(
        cfg.w_grounding * scores.grounding
        + cfg.w_completeness * scores.completeness
        + cfg.w_numeric * scores.numeric,
        6,
    )
    threshold = round(cfg.threshold(attempt), 6)
    return Decision(utility, threshold, "accept" if utility >= threshold else "retry")
