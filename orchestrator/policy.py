"""Escalation policy: what the next attempt changes, and why — a pure function of the last verdict.

The Judge's diagnosis picks the lever (DESIGN.md, "Orchestrator"):

- ``retrieval``: the evidence lacked what was needed -> next retrieval step (wider k, more
  candidates, RSE) and the Verdict goes to the retriever as feedback (missing facets);
- ``reasoning``: the evidence had it, the answer was wrong -> same evidence, next prompt strategy
  (standard -> conservative -> detailed) with the Judge's feedback;
- ``both`` (or no diagnosis): both levers; an abstaining answer ("cannot determine from the
  filings") counts as a retrieval failure too.

When the diagnosed lever is switched off (ablation) or already at its last step, the other lever is
used instead, so a retry changes something whenever anything can change. No I/O, no state: the
same inputs give the same plan, and every plan carries the reasons that go to the audit log.
"""

from __future__ import annotations

from finqa.agents.config import Settings
from finqa.agents.types import Frozen, Verdict
from finqa.orchestrator.result import Status

__all__ = [
    "AttemptPlan",
    "first_plan",
    "next_plan",
    "should_stop",
    "StopDecision",
    "UNVERIFIED_LEAD",
    "unverified_outcome",
]

# what an abstention shows before the reading no attempt got verified (orchestrator.unverified)
UNVERIFIED_LEAD = (
    "Cannot answer with confidence: the judge did not verify the best reading found. "
    "Unverified reading, not an answer: "
)


class AttemptPlan(Frozen):
    """The levers for one attempt."""

    attempt: int  # 1-based attempt number (the Judge's threshold uses this)
    retrieval_level: int  # 1-based step of settings.retrieval.escalation (passed as `attempt`)
    prompt_level: int  # 1-based index into settings.reasoning.strategies
    strategy: str
    retrieval_feedback: bool = False  # pass the previous Verdict to the retriever
    prompt_feedback: bool = False  # pass the previous Verdict to the reasoner
    reuse_evidence: bool = (
        False  # retrieval does not escalate: reuse the previous attempt's evidence
    )
    changes: bool = True  # False: nothing differs from the previous attempt but the threshold
    reasons: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)


class StopDecision(Frozen):
    """Whether the loop stops after an attempt, and why."""

    stop: bool
    status_hint: str = ""  # "accepted" | "best_effort" | "" (go on)
    reason: str = ""


def _strategy(settings: Settings, level: int) -> str:
    strategies = settings.reasoning.strategies or ("standard",)
    return strategies[min(level, len(strategies)) - 1]


def _max_retrieval_level(settings: Settings) -> int:
    return max(len(settings.retrieval.escalation), 1)


def _max_prompt_level(settings: Settings) -> int:
    return max(len(settings.reasoning.strategies), 1)


def first_plan(settings: Settings) -> AttemptPlan:
    """Attempt 1: the first retrieval step and the first prompt strategy, no feedback."""
    return AttemptPlan(
        attempt=1,
        retrieval_level=1,
        prompt_level=1,
        strategy=_strategy(settings, 1),
        reasons=("first attempt: retrieval step 1, strategy " + _strategy(settings, 1),),
    )


def next_plan(
    settings: Settings, previous: AttemptPlan, verdict: Verdict, *, abstained: bool = False
) -> AttemptPlan:
    """The plan for the attempt after `previous`, given its (rejected) verdict.

    `abstained`: the reasoner said the evidence does not determine the answer — a retrieval
    failure whatever the diagnosis, so retrieval escalates too.
    """
    cfg = settings.orchestrator
    diagnosis = verdict.diagnosis or "both"
    reasons: list[str] = [
        f"judge diagnosis: {diagnosis}" + ("" if verdict.diagnosis else " (none given)")
    ]
    if abstained and diagnosis == "reasoning":
        diagnosis = "both"
        reasons.append("the answer abstained (evidence insufficient): escalating retrieval too")

    can_retrieve = cfg.retrieval_escalation and previous.retrieval_level < _max_retrieval_level(
        settings
    )
    can_prompt = cfg.prompt_escalation and previous.prompt_level < _max_prompt_level(settings)
    want_retrieve = diagnosis in ("retrieval", "both")
    want_prompt = diagnosis in ("reasoning", "both")

    escalate_retrieval = want_retrieve and can_retrieve
    escalate_prompt = want_prompt and can_prompt
    if want_retrieve and not can_retrieve:
        reasons.append(_blocked("retrieval", cfg.retrieval_escalation))
    if want_prompt and not can_prompt:
        reasons.append(_blocked("prompt", cfg.prompt_escalation))
    if not (escalate_retrieval or escalate_prompt):
        # The diagnosed lever cannot move: fall back to the other one when it can.
        if can_prompt and not want_prompt:
            escalate_prompt = True
            reasons.append("falling back to prompt escalation")
        elif can_retrieve and not want_retrieve:
            escalate_retrieval = True
            reasons.append("falling back to retrieval escalation")

    retrieval_level = previous.retrieval_level + (1 if escalate_retrieval else 0)
    prompt_level = previous.prompt_level + (1 if escalate_prompt else 0)
    # Feedback follows the lever: the retriever gets the missing facets, the reasoner the critique.
    retrieval_feedback = escalate_retrieval
    prompt_feedback = escalate_prompt
    if escalate_retrieval:
        step = settings.retrieval.step(retrieval_level)
        facets = ", ".join(verdict.missing_facets) or "none listed"
        reasons.append(
            f"retrieval -> step {retrieval_level} (k={step.k}, candidates={step.k * step.candidates_factor}, "
            f"rse={'on' if step.rse else 'off'}); missing facets to the query: {facets}"
        )
    else:
        reasons.append(f"retrieval stays at step {retrieval_level} (evidence reused)")
    strategy = _strategy(settings, prompt_level)
    if escalate_prompt:
        reasons.append(f"prompt -> {strategy} with the judge's feedback")
    else:
        reasons.append(f"prompt stays {strategy}")
    changes = escalate_retrieval or escalate_prompt
    if not changes:
        reasons.append("no lever can change; retrying only under the lower threshold")
    return AttemptPlan(
        attempt=previous.attempt + 1,
        retrieval_level=retrieval_level,
        prompt_level=prompt_level,
        strategy=strategy,
        retrieval_feedback=retrieval_feedback,
        prompt_feedback=prompt_feedback,
        reuse_evidence=not escalate_retrieval,
        changes=changes,
        reasons=tuple(reasons),
    )


def _blocked(lever: str, enabled: bool) -> str:
    return f"{lever} escalation {'exhausted' if enabled else 'switched off (ablation)'}"


def should_stop(
    settings: Settings,
    *,
    attempt: int,
    accepted: bool,
    utility: float,
    previous_utility: float | None,
    same_as_previous: bool,
) -> StopDecision:
    """After attempt `attempt` was judged: stop (accepted / budget spent / cannot improve) or go on."""
    if accepted:
        return StopDecision(
            stop=True,
            status_hint="accepted",
            reason=f"utility cleared the threshold on attempt {attempt}",
        )
    max_attempts = settings.orchestrator.budget + 1
    if attempt >= max_attempts:
        return StopDecision(
            stop=True,
            status_hint="best_effort",
            reason=f"budget spent ({max_attempts} attempts); returning the best answer",
        )
    if settings.orchestrator.stop_on_no_improvement:
        if same_as_previous:
            return StopDecision(
                stop=True,
                status_hint="best_effort",
                reason="same evidence and same answer as the previous attempt: another attempt cannot improve",
            )
        if previous_utility is not None and utility < previous_utility:
            return StopDecision(
                stop=True,
                status_hint="best_effort",
                reason=f"utility declining ({previous_utility:.3f} -> {utility:.3f}); keeping the best answer",
            )
    return StopDecision(
        stop=False, reason=f"utility below threshold on attempt {attempt}; retrying"
    )


def unverified_outcome(
    settings: Settings, status: Status, answer: str, reason: str, why: str
) -> tuple[Status, str, str]:
    """(status, answer, reason) of a question's outcome under `orchestrator.unverified`: with
    "abstain" an unverified answer (best_effort) becomes an abstention that shows the reading
    after `UNVERIFIED_LEAD`, marked as not an answer; `why` says what was not verified."""
    if status != "best_effort" or settings.orchestrator.unverified != "abstain":
        return status, answer, reason
    return (
        "abstained",
        UNVERIFIED_LEAD + answer,
        f"{reason}; {why}: abstaining, the unverified reading shown as not an answer "
        "(orchestrator.unverified = abstain)",
    )
