"""JudgeAgent: the blind evaluation of one attempt (no gold answer), with its reasons.

U = w_g mu_g + w_c mu_c + w_n mu_n (weights from settings.judge); accept iff U >= tau_t with
tau_t = settings.judge.threshold(attempt). Every score comes with its per-claim, per-number and
per-facet evidence in `Verdict.details`, and every rejection with a diagnosis and feedback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from finqa.agents.config import Settings
from finqa.agents.judge._question import (
    FIGURE_KINDS,
    analysis_of,
    asked_years,
    line_terms,
    metric_tokens,
    named_metrics,
    sentence_at,
    stated_direction,
)
from finqa.agents.judge.basis import BasisCheck, check_basis
from finqa.agents.judge.company import check_companies
from finqa.agents.judge.definition import DefinitionCheck, judge_definitions
from finqa.agents.judge.diagnosis import diagnose, evidence_gaps, feedback_text
from finqa.agents.judge.dimension import check_dimension, index_store
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import Facet, check_facets, completeness_score, decompose
from finqa.agents.judge.grounding import check_claims, grounding_score
from finqa.agents.judge.injection import InjectionCheck, check_injection
from finqa.agents.judge.kind import Expectation, KindProblem, check_kind, expected_kind
from finqa.agents.judge.numeric import (
    FAIL_CAP,
    CalcCheck,
    NumberCheck,
    check_numbers,
    claimed_year,
    derive_remaining,
    numeric_score,
    verify_calculations,
)
from finqa.agents.judge.routes import RouteCheck, Routes
from finqa.agents.judge.second_route import LazyPages, second_route
from finqa.agents.judge.statement_figures import (
    StatementFigures,
    StatementValue,
    match_statement_value,
)
from finqa.agents.judge.text import split_claims
from finqa.agents.types import Answer, Evidence, LLMClient, StatementStore, Verdict
from finqa.lexicon.numbers import question_scale
from finqa.lexicon.periods import fiscal_naming
from finqa.lexicon.refusal import REFUSAL

__all__ = ["JudgeAgent"]

_NO_CONTENT_GROUNDING = 0.5  # a bare 'Yes.' can be neither supported nor refuted by tokens


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

    # ------------------------------------------------------------------ public

    def evaluate(self, question: str, answer: Answer, evidence: Evidence, attempt: int) -> Verdict:
        """Score `answer` against `evidence` for `question` at `attempt` (1-based)."""
        ctx = self._context(question, answer, evidence)
        numbers, skipped, calcs = self._check_numbers(ctx, answer)
        part = check_dimension(
            index_store(self.settings), question, answer, evidence, numbers,
            abstained=ctx.abstained, rel_tol=self.config.rel_tolerance,
        )  # fmt: skip
        problems = self._check_kind(ctx, answer, numbers, skipped)
        if part is not None and part.failed:
            problems.append(KindProblem("wrong_dimension", part.message))
        claim_checks, facets = self._check_parts(ctx, answer, numbers, skipped, problems)
        g, c, n, llm_info = self._scores(ctx, claim_checks, facets, numbers)
        injection = (
            None
            if ctx.abstained
            else check_injection(ctx.text, ctx.view, _rests_on(ctx, answer), numbers, ctx.question)
        )
        if injection is not None and injection.followed:
            # text aimed at the model is not evidence: an answer that obeys it answers nothing
            g, c, n = 0.0, 0.0, 0.0
            problems.append(KindProblem("injection", injection.reason))
        if injection is not None and injection.found:
            ctx.injection.append(injection)
        company = (
            None if ctx.abstained else check_companies(question, evidence, _rests_on(ctx, answer))
        )
        if company is not None and not company.ok:
            # another company's filing is no evidence for this one: nothing supports the answer
            g, c, n = 0.0, 0.0, 0.0
            problems.append(KindProblem("wrong_company", "; ".join(company.problems)))
        if part is not None and part.failed:
            g, c, n = 0.0, 0.0, 0.0  # a segment's question answered with another figure
        verdict = self._verdict(
            ctx,
            answer,
            attempt,
            (g, c, n),
            numbers,
            skipped,
            calcs,
            problems,
            claim_checks,
            facets,
            llm_info,
        )
        if company is None or not company.filings:
            return verdict
        details = {**verdict.details, "company": company.to_dict()}
        update: dict[str, Any] = {"details": details}
        if not company.ok and verdict.decision == "retry":
            update["diagnosis"] = "retrieval"  # the evidence lacks the asked company's filing
        return verdict.model_copy(update=update)

    # ------------------------------------------------------------------ steps

    def _context(self, question: str, answer: Answer, evidence: Evidence) -> _Context:
        """What every step reads: the evidence view, the question's analysis and asked periods."""
        analysis = analysis_of(question)
        text = answer.text or ""
        abstained = answer.abstained or (bool(REFUSAL.search(text)) and len(text) < 400)
        checklist = decompose(question, analysis)
        return _Context(
            question=question,
            text=text,
            view=EvidenceView.of(evidence),
            evidence=evidence,
            analysis=analysis,
            asked=asked_years(
                question,
                analysis,
                fiscal_naming(question, (i.metadata.get("fy_label") for i in evidence.items)),
            ),
            abstained=abstained,
            cited=[c.source_id for c in answer.citations],
            checklist=checklist,
            expect=expected_kind(question, analysis, [f.kind for f in checklist]),
            figures=(figures := StatementFigures(evidence)),
            routes=Routes(evidence, self.statements, LazyPages(figures)),
        )

    def _check_numbers(
        self, ctx: _Context, answer: Answer
    ) -> tuple[list[NumberCheck], list[dict[str, Any]], list[CalcCheck]]:
        """Step 2: every figure of the answer, found in the evidence or re-executed."""
        cfg = self.config
        deterministic = cfg.deterministic_verify
        calcs = (
            verify_calculations(answer.calculations, ctx.view, ctx.asked, cfg.rel_tolerance)
            if deterministic
            else []
        )
        parts = _parts(ctx.checklist)
        numbers, skipped = check_numbers(
            ctx.text,
            ctx.question,
            ctx.view,
            calcs,
            asked=ctx.asked,
            cited=ctx.cited,
            rel_tol=cfg.rel_tolerance,
            deterministic=deterministic,
            topic=metric_tokens(ctx.analysis),
            single_part=len(parts) <= 1,
            topic_name=(ctx.expect.metric or "").replace("_", " "),
            label_terms=line_terms(ctx.expect, ctx.analysis) if len(parts) <= 1 else (),
        )
        if deterministic and len(parts) <= 1 and not ctx.expect.change:
            # a stated result must be of the asked metric as the catalogue defines it (a change
            # asked is no catalogue metric: its figures are read against the change below)
            ctx.definitions.extend(
                judge_definitions(answer.calculations, numbers, ctx.expect, ctx.analysis)
            )
        if deterministic and any(nc.status in _REDERIVABLE for nc in numbers):
            # the judge's own derivation: the catalogue formula over the statement model
            model = _model_value(ctx)
            ctx.model.append(model)
            for nc in numbers:
                if nc.status not in _REDERIVABLE or model is None:
                    continue
                if match_statement_value(nc.quantity, model, cfg.rel_tolerance):
                    nc.status, nc.detail = "rederived", f"statement model: {model.describe()}"
                    _check_direction(nc, model, ctx.text)
                else:
                    nc.detail = (nc.detail + "; " if nc.detail else "") + (
                        f"the evidence gives {model.describe()}"
                    )
        if deterministic and any(nc.status in _REDERIVABLE for nc in numbers):
            self._per_period(ctx, numbers)
        if deterministic and len(parts) <= 1:
            self._second_route(ctx, numbers)
        if deterministic and ctx.expect.change and any(nc.ok for nc in numbers):
            # however a change was verified (a recorded calculation, a figure of the filing's
            # text), the way the answer says it moved must be the statement model's
            change = _model_value(ctx)
            for nc in numbers:
                if (
                    change is not None
                    and nc.ok
                    and match_statement_value(nc.quantity, change, cfg.rel_tolerance)
                ):
                    _check_direction(nc, change, ctx.text)
        return numbers, skipped, calcs

    def _second_route(self, ctx: _Context, numbers: list[NumberCheck]) -> None:
        """Before a figure of the asked metric is accepted, the judge derives it by a route of
        its own, and the figure must be one the metric can take by its definition."""
        check, problems = second_route(
            ctx.question,
            ctx.text,
            ctx.expect,
            ctx.asked,
            numbers,
            ctx.routes,
            self.config.rel_tolerance,
        )
        if check is not None:
            ctx.route.append(check)
        ctx.problems.extend(problems)

    def _per_period(self, ctx: _Context, numbers: list[NumberCheck]) -> None:
        """Figures still unverified, read against the statement model for the period each is
        given for (its own, or the one asked year): the asked metrics and those the figure's own sentence names (their value,
        their change from the year before, a ratio of two named line items); then what simple
        arithmetic over the newly verified figures gives."""
        figures = ctx.figures
        asked = [ctx.expect.metric, *(getattr(ctx.analysis, "metrics", ()) or ())]
        tol = self.config.rel_tolerance
        hit = False
        for nc in numbers:
            if nc.status not in _REDERIVABLE:
                continue
            own = claimed_year(ctx.text, nc.quantity)
            # the figure's own period; the asked one only when one year is asked (a figure for a
            # span, 'the FY2018-FY2020 average', is not any single year's value); where a change
            # between years is asked, the change is the later year's and the levels are either's
            if own:
                years: tuple[int, ...] = (own,)
            elif ctx.expect.change:
                years = tuple(sorted(ctx.asked, reverse=True))
            else:
                years = ctx.asked if len(ctx.asked) == 1 else ()
            if not years:
                continue
            named, ratios = named_metrics(sentence_at(ctx.text, nc.start))
            metrics = [m for m in dict.fromkeys([*asked, *named]) if m]
            found = figures.match(nc.quantity, metrics, years, tol, ratios)
            if found is not None:
                nc.status, nc.detail, hit = (
                    "rederived",
                    f"statement model: {found.describe()}",
                    True,
                )
                _check_direction(nc, found, ctx.text)
        if hit:
            derive_remaining(numbers, tol)

    def _check_kind(
        self,
        ctx: _Context,
        answer: Answer,
        numbers: list[NumberCheck],
        skipped: list[dict[str, Any]],
    ) -> list[KindProblem]:
        """Step 1: does the answer answer the question (kind, unit, range, not a copy)?

        Figures of the wrong kind, and every figure of an answer whose own calculation the
        reasoner flagged as invalid, become unverified numbers."""
        if ctx.abstained or not self.config.deterministic_verify:
            return []
        expect = ctx.expect
        other_metric = any(nc.status == "calc_other_metric" for nc in numbers)
        if expect.kind in FIGURE_KINDS and len(_parts(ctx.checklist)) > 1:
            # the kind is the first part's metric's; another part may ask for another kind
            expect = replace(expect, kind=None, reason="several parts: figure kinds not checked")
        problems = check_kind(
            ctx.question,
            ctx.text,
            expect,
            [nc.quantity for nc in numbers],
            ctx.view,
            question_scale=question_scale(ctx.question),
        )
        for p in problems:
            for nc in numbers:
                if p.code in ("wrong_kind", "no_unit") and nc.text.strip() in p.numbers:
                    nc.status, nc.detail = "wrong_kind", p.message
        if expect.change and expect.kind in FIGURE_KINDS and numbers:
            problems += _level_not_change(ctx, expect, numbers)
        problems += ctx.problems  # the second route's and the definitions' (step 2)
        flagged = [x for x in answer.calc_problems if x]
        if flagged:
            problems.append(
                KindProblem(
                    "invalid_calculation",
                    "the answer's own calculation is invalid: " + "; ".join(flagged[:2]),
                )
            )
            for nc in numbers:
                if nc.status != "calculation":
                    nc.status = "calc_invalid"
                    nc.detail = "stated beside a calculation flagged invalid"
        if other_metric:
            problems += [
                KindProblem("other_metric", d.message) for d in ctx.definitions if d.failed
            ]
        unknown = answer.invalid_citations
        if unknown:
            problems.append(
                KindProblem(
                    "unknown_source", f"{unknown} citation(s) to sources not in the evidence"
                )
            )
        return problems

    def _check_parts(
        self,
        ctx: _Context,
        answer: Answer,
        numbers: list[NumberCheck],
        skipped: list[dict[str, Any]],
        problems: list[KindProblem],
    ) -> tuple[list[Any], list[Facet]]:
        """Grounding of every claim, and the facet checklist (a kind problem leaves the part it
        concerns unanswered); a yes/no or descriptive answer resting on no figure needs a basis
        sentence about the subject, stated as a fact of the asked period (basis.py)."""
        claims = split_claims(ctx.text)
        claim_checks = check_claims(
            claims, numbers, ctx.view, ctx.question, default_sources=ctx.cited
        )
        kinds = {f.kind for f in ctx.checklist if f.kind != "conditional"}
        if (
            self.config.deterministic_verify
            and not ctx.abstained
            and kinds & {"verdict", "explanation", "answer"}
            and not kinds & {"figure", "choice"}
            and not any(nc.ok for nc in numbers)
        ):
            basis = check_basis(ctx.question, answer, claim_checks, ctx.evidence, ctx.asked)
            if basis is not None:
                ctx.basis.append(basis)
                if not basis.ok:
                    problems.append(KindProblem("basis", basis.reason))
        quoted = sum(1 for x in skipped if x["reason"] == "quoted from the question")
        spans = [(nc.start, nc.end) for nc in numbers] + [
            (int(x["start"]), int(x["end"]))
            for x in skipped
            if x["reason"] == "quoted from the question"
        ]
        per_claim = [sum(1 for s, e in spans if s < c.end and c.start < e) for c in claims]
        words = frozenset().union(*(src.tokens for src in ctx.view.sources))
        facets = check_facets(
            ctx.checklist,
            ctx.text,
            len(numbers) + quoted,
            [c.text for c in claims],
            per_claim,
            evidence_tokens=words,
        )
        _discount_coincidences(claim_checks, numbers)
        for claim in claim_checks:
            if claim.reason.startswith("cites "):  # only sources that are not in the evidence
                for nc in numbers:
                    if nc.text in claim.numbers and nc.ok:
                        nc.status, nc.detail = "not_found", claim.reason
                        claim.failed_numbers.append(nc.text)
        for p in problems:
            targets = _PROBLEM_FACETS.get(p.code)
            if targets is None:
                continue
            hit = [f for f in facets if _counted(f) and (not targets or f.kind in targets)]
            for f in hit or [f for f in facets if _counted(f)]:
                f.addressed, f.how = False, p.message
        return claim_checks, facets

    def _scores(
        self,
        ctx: _Context,
        claim_checks: list[Any],
        facets: list[Facet],
        numbers: list[NumberCheck],
    ) -> tuple[float, float, float, dict[str, Any] | None]:
        """mu_g, mu_c, mu_n (and what the optional LLM judge said)."""
        missing = [f for f in facets if _counted(f) and not f.addressed]
        g = grounding_score(claim_checks, len(missing))
        g = _NO_CONTENT_GROUNDING if g is None else g
        llm_info: dict[str, Any] | None = None
        if self.config.llm_judge and self.llm is not None and not ctx.abstained:
            from finqa.agents.judge.llm import llm_grounding

            g_llm, llm_info = llm_grounding(self.llm, ctx.question, claim_checks, ctx.view)
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
        return g, c, n, llm_info

    def _verdict(
        self,
        ctx: _Context,
        answer: Answer,
        attempt: int,
        scores: tuple[float, float, float],
        numbers: list[NumberCheck],
        skipped: list[dict[str, Any]],
        calcs: list[CalcCheck],
        problems: list[KindProblem],
        claim_checks: list[Any],
        facets: list[Facet],
        llm_info: dict[str, Any] | None,
    ) -> Verdict:
        """Utility vs the attempt's threshold, the diagnosis, feedback and every detail."""
        cfg = self.config
        g, c, n = scores
        utility = round(cfg.w_grounding * g + cfg.w_completeness * c + cfg.w_numeric * n, 6)
        threshold = round(cfg.threshold(attempt), 6)
        decision: Literal["accept", "retry"] = "accept" if utility >= threshold else "retry"
        gaps = evidence_gaps(
            ctx.view, ctx.analysis, ctx.asked, figures=any(f.kind == "figure" for f in facets)
        )
        diagnosis, faults = diagnose(
            gaps=gaps,
            numbers=numbers,
            calcs=calcs,
            facets=facets,
            claims=claim_checks,
            abstained=ctx.abstained,
            view=ctx.view,
        )
        feedback = feedback_text(
            decision=decision,
            utility=utility,
            threshold=threshold,
            diagnosis=diagnosis if decision == "retry" else None,
            gaps=gaps,
            faults=faults,
            numbers=numbers,
            facets=facets,
            abstained=ctx.abstained,
        )
        if problems and decision == "retry":
            feedback += (
                " The answer does not answer the question: "
                + "; ".join(p.message for p in problems)
                + "."
            )
        if ctx.expect.kind is None and decision == "retry":
            feedback += f" ({ctx.expect.reason}.)"
        missing = tuple(f.text for f in facets if _counted(f) and not f.addressed)
        details: dict[str, Any] = {
            "mode": "deterministic" if cfg.deterministic_verify else "raw-string (ablation)",
            "weights": {
                "grounding": cfg.w_grounding,
                "completeness": cfg.w_completeness,
                "numeric": cfg.w_numeric,
            },
            "asked_periods": [f"FY{y}" for y in ctx.asked],
            "abstained": ctx.abstained,
            "answer_kind": ctx.expect.to_dict(),
            "answer_problems": [p.to_dict() for p in problems],
            "claims": [x.to_dict() for x in claim_checks],
            "numbers": [x.to_dict() for x in numbers],
            "skipped_numbers": skipped,
            "calculations": [x.to_dict() for x in calcs],
            "definitions": [d.to_dict() for d in ctx.definitions],
            "statement_model": ctx.model[0].describe() if ctx.model and ctx.model[0] else None,
            "second_route": ctx.route[0].to_dict() if ctx.route else None,
            "basis": ctx.basis[0].to_dict() if ctx.basis else None,
            "facets": [f.to_dict() | {"counted": _counted(f)} for f in facets],
            "evidence_gaps": gaps,
            "faults": faults,
        }
        if llm_info is not None:
            details["llm"] = llm_info
        if ctx.injection:
            details["injection"] = ctx.injection[0].to_dict()
        return Verdict(
            grounding=round(g, 6),
            completeness=round(c, 6),
            numeric=round(n, 6),
            utility=utility,
            threshold=threshold,
            decision=decision,
            diagnosis=diagnosis if decision == "retry" else None,
            missing_facets=missing + _declared_gaps(answer, missing) if ctx.abstained else missing,
            unsupported_numbers=tuple(nc.text for nc in numbers if not nc.ok),
            feedback=feedback,
            details=details,
        )


@dataclass(frozen=True)
class _Context:
    """The inputs every step of one evaluation shares."""

    question: str
    text: str
    view: EvidenceView
    analysis: Any
    asked: tuple[int, ...]
    abstained: bool
    cited: list[str]
    checklist: list[Facet]
    expect: Expectation
    evidence: Evidence
    figures: StatementFigures  # the judge's own reading of the evidence pages
    routes: Routes  # the statement model's sources, for the second route
    model: list[StatementValue | None] = field(default_factory=list)  # from the statement model
    route: list[RouteCheck] = field(default_factory=list)  # the second route's outcome
    basis: list[BasisCheck] = field(default_factory=list)  # a yes/no answer's basis sentence
    problems: list[KindProblem] = field(default_factory=list)  # found while checking figures
    # the stated calculations against the catalogue; instructions aimed at the model in evidence
    definitions: list[DefinitionCheck] = field(default_factory=list)
    injection: list[InjectionCheck] = field(default_factory=list)


_REDERIVABLE = frozenset({"not_found", "calc_unverified", "calc_other_metric"})
# the facet kinds a problem leaves unanswered (empty: every counted facet)
_PROBLEM_FACETS: dict[str, tuple[str, ...]] = {
    "empty": (),
    "language": (),
    "bare_verdict": ("verdict",),
    "copied_question": (),
    "copied_evidence": (),
    "wrong_kind": ("figure",),
    "no_unit": ("figure",),
    "other_metric": ("figure",),
    "not_change": ("figure",),
    "route_conflict": ("figure",),
    "implausible": ("figure",),
    "wrong_sign": ("figure",),
    "basis": ("verdict", "explanation", "answer"),
}


def _level_not_change(
    ctx: _Context, expect: Expectation, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A change was asked ('by how much did X change'): some figure must be one, i.e. say which
    way X moved (a direction word or sign), or be read as the change by the statement model or a
    recorded calculation; figures that only state X's level do not answer it."""
    for nc in numbers:
        if nc.status in ("calculation", "wrong_direction") or "change from" in nc.detail:
            return []
        if stated_direction(nc.quantity, sentence_at(ctx.text, nc.start)):
            return []
    name = (expect.metric or "the line item").replace("_", " ")
    return [
        KindProblem(
            "not_change",
            f"the change in {name} was asked: state how much it rose or fell, not its level",
            [nc.text for nc in numbers],
        )
    ]


def _check_direction(nc: NumberCheck, found: StatementValue, text: str) -> None:
    """A figure read as a change must move the way the answer says: 'fell by $107 million' is
    unsupported when the statement model gives a rise of 107 (the magnitude alone matched)."""
    if not found.what.startswith(("change", "% change")) or not found.value:
        return
    stated = stated_direction(nc.quantity, sentence_at(text, nc.start))
    if stated and (stated > 0) != (found.value > 0):
        said, real = ("a rise", "a fall") if stated > 0 else ("a fall", "a rise")
        nc.status = "wrong_direction"
        nc.detail = f"the answer states {said}; the evidence gives {real}: {found.describe()}"


def _model_value(ctx: _Context) -> StatementValue | None:
    """The asked metric (its change from the year before, when a change is asked) for the
    latest asked year, from the judge's statement model of the evidence pages."""
    metric = ctx.expect.metric
    if metric is None or not ctx.asked or not ctx.evidence.items:
        return None
    from finqa.lexicon.answer_form import ask_head, asked_aggregates, year_range

    if "avg3" in asked_aggregates(ask_head(ctx.question), ctx.question):
        first, last = year_range(ctx.question) or (min(ctx.asked), max(ctx.asked))
        found = [ctx.figures.value(metric, y) for y in range(first, last + 1)]
        values = [f for f in found if f is not None]
        if len(values) != 3 or len(found) != 3:
            return None
        return StatementValue(
            metric,
            sum(v.value for v in values) / 3.0,
            values[0].unit,
            last,
            tuple(f for v in values for f in v.facts),
            f"3-year average FY{first}-FY{last} of {metric.replace('_', ' ')}",
        )
    if ctx.expect.change:
        moved = ctx.figures.change(metric, max(ctx.asked))
        return moved[0] if moved else None
    return ctx.figures.value(metric, max(ctx.asked))


def _rests_on(ctx: _Context, answer: Answer) -> list[str]:
    """The sources the answer cites, in its citations or its calculations' operands."""
    ops = [o.source_id for c in answer.calculations for o in c.operands if o.source_id]
    return list(dict.fromkeys([*ctx.cited, *ops]))


def _declared_gaps(answer: Answer, known: tuple[str, ...]) -> tuple[str, ...]:
    """Line items an abstaining reasoner said it could not find: the next retrieval looks for them."""
    return tuple(m for m in answer.missing if m and m not in known)


def _discount_coincidences(claims: list[Any], numbers: list[Any]) -> None:
    """A figure inside a claim about another company is no evidence for this question, even if
    the same digits occur in these filings: it is marked unsupported (and so is its claim)."""
    for claim in claims:
        if not claim.content or not claim.reason.startswith("names "):
            continue
        for n in numbers:
            if n.text in claim.numbers and n.ok:
                n.status, n.detail = "not_found", "only in a claim about another company"
                claim.failed_numbers.append(n.text)


def _parts(checklist: Sequence[Facet]) -> set[int]:
    """The question parts the checklist asks (a conditional instruction is not one)."""
    return {f.part for f in checklist if f.kind != "conditional"}


def _counted(f: Any) -> bool:
    return f.kind != "conditional" or bool(f.meta.get("triggered"))
