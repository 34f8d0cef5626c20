"""JudgeAgent: the blind evaluation of one attempt (no gold answer), with its reasons.

U = w_g mu_g + w_c mu_c + w_n mu_n (weights from settings.judge); accept iff U >= tau_t with
tau_t = settings.judge.threshold(attempt). Every score comes with its per-claim, per-number and
per-facet evidence in `Verdict.details`, and every rejection with a diagnosis and feedback.

The steps live by concept: `context` (what every step reads), `answer_checks` (does the answer
answer the question; which parts it addresses), `figure_checks` (every figure found, re-executed,
re-derived or checked by a second route), `policy` (scores, utility and decision) and `record`
(the verdict with its diagnosis, feedback and details).
"""

from __future__ import annotations

from dataclasses import replace

from finqa.agents.config import Settings
from finqa.agents.judge.answer_checks import check_answer_kind, check_parts
from finqa.agents.judge.asked_parts import hold_for_parts
from finqa.agents.judge.company import check_companies
from finqa.agents.judge.context import Context, rests_on
from finqa.agents.judge.dimension import check_dimension, index_store
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import decompose
from finqa.agents.judge.figure_checks import check_figures
from finqa.agents.judge.injection import check_injection
from finqa.agents.judge.kind import KindProblem, expected_kind
from finqa.agents.judge.named_line import narrowed
from finqa.agents.judge.part_choice import check_part_choice
from finqa.agents.judge.policy import decide, score
from finqa.agents.judge.record import Findings, build_verdict, with_company
from finqa.agents.judge.routes import Routes
from finqa.agents.judge.second_route import LazyPages
from finqa.agents.judge.statement_figures import StatementFigures
from finqa.agents.types import Answer, Evidence, LLMClient, StatementStore, Verdict
from finqa.lexicon.question_intent import read_intent_in
from finqa.lexicon.refusal import REFUSAL

__all__ = ["JudgeAgent"]


# problems no utility outweighs: another recognised definition gives another value; a Yes / No
# to an either/or question; an effect asked and a line's own movement given; one row read for
# a whole the question spells out of its parts
_NEVER_ACCEPTED = frozenset(
    {"convention_dependent", "either_or", "effect_not_answered", "one_part"}
)


class JudgeAgent:
    """Deterministic judge (optionally assisted by an LLM entailment check); satisfies `Judge`."""

    def __init__(
        self,
        settings: Settings,
        llm: LLMClient | None = None,
        *,
        statements: StatementStore | None = None,
    ) -> None:
        self.settings = settings
        self.config = settings.judge
        self.llm = llm
        # the index's statement model (tags, tables, later filings): the second route's sources
        self.statements = statements

    def evaluate(self, question: str, answer: Answer, evidence: Evidence, attempt: int) -> Verdict:
        """Score `answer` against `evidence` for `question` at `attempt` (1-based)."""
        cfg = self.config
        ctx = self._context(question, answer, evidence)
        numbers, skipped, calcs = check_figures(ctx, answer, cfg)
        part = check_dimension(
            index_store(self.settings) or self.statements, question, answer, evidence, numbers,
            abstained=ctx.abstained, rel_tol=cfg.rel_tolerance,
        )  # fmt: skip
        chosen = check_part_choice(
            index_store(self.settings) or self.statements, question, answer, evidence, numbers,
            abstained=ctx.abstained, rel_tol=cfg.rel_tolerance,
        )  # fmt: skip
        problems = check_answer_kind(ctx, answer, numbers, cfg)
        if part is not None and part.failed:
            problems.append(KindProblem("wrong_dimension", part.message))
        if chosen is not None and chosen.failed:
            problems.append(KindProblem("wrong_choice", chosen.message))
        claim_checks, facets = check_parts(ctx, answer, numbers, skipped, problems, cfg)
        scores = score(ctx, claim_checks, facets, numbers, cfg, self.llm)
        rests = rests_on(ctx, answer)
        injection = (
            None
            if ctx.abstained
            else check_injection(ctx.text, ctx.view, rests, numbers, ctx.question)
        )
        if injection is not None and injection.followed:
            # text aimed at the model is not evidence: an answer that obeys it answers nothing
            scores = scores.zeroed()
            problems.append(KindProblem("injection", injection.reason))
        if injection is not None and injection.found:
            ctx.injection.append(injection)
        company = None if ctx.abstained else check_companies(question, evidence, rests)
        if company is not None and not company.ok:
            # another company's filing is no evidence for this one: nothing supports the answer
            scores = scores.zeroed()
            problems.append(KindProblem("wrong_company", "; ".join(company.problems)))
        if part is not None and part.failed:
            scores = scores.zeroed()  # a segment's question answered with another figure
        if chosen is not None and chosen.failed:
            scores = scores.zeroed()  # another part than the breakdown's figures name
        found = Findings(numbers, skipped, calcs, problems, claim_checks, facets)
        decided = decide(scores, attempt, cfg)
        # a part left out without a word is never accepted; one stated as not found is first
        # looked for again (wider retrieval), then accepted as a partial answer
        held = hold_for_parts(facets, attempt, abstained=ctx.abstained)
        if held is not None:
            decided = replace(decided, decision="retry")
            problems.append(held)
        if any(p.code in _NEVER_ACCEPTED for p in problems):
            # right under one recognised definition, another figure under another (or a Yes /
            # No to an either/or question): never accepted (best effort, both values in the
            # details), at any attempt
            decided = replace(decided, decision="retry")
        verdict = build_verdict(ctx, answer, found, scores, decided, cfg)
        if held is not None and held.code == "part_not_found":
            verdict = verdict.model_copy(update={"diagnosis": "retrieval"})
        return with_company(verdict, company)

    def _context(self, question: str, answer: Answer, evidence: Evidence) -> Context:
        """What every step reads: the lexicon's reading of the question (its analysis, parts and
        asked periods), the evidence view and the judge's own sources."""
        intent = read_intent_in(question, (i.metadata.get("fy_label") for i in evidence.items))
        analysis = intent.analysis
        text = answer.text or ""
        abstained = answer.abstained or (bool(REFUSAL.search(text)) and len(text) < 400)
        checklist = decompose(question, analysis)
        return Context(
            question=question,
            intent=intent,
            text=text,
            view=EvidenceView.of(evidence),
            evidence=evidence,
            analysis=analysis,
            asked=intent.years,
            abstained=abstained,
            cited=[c.source_id for c in answer.citations],
            checklist=checklist,
            expect=narrowed(
                expected_kind(question, [f.kind for f in checklist]),
                intent.ask.named_line,
                answer,
                evidence,
            ),
            figures=(figures := StatementFigures(evidence)),
            routes=Routes(evidence, self.statements, LazyPages(figures), question),
        )
