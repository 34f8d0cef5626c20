"""Step 1 and 3 of the judge: does the answer answer the question (its kind, unit and range, not
a copy, a change where a change is asked), and which parts of the question it addresses (the
grounding of every claim, the facet checklist, a basis for a yes/no resting on no figure).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from finqa.agents.config import JudgeConfig
from finqa.agents.judge._question import FIGURE_KINDS, sentence_at, stated_direction
from finqa.agents.judge.basis import cause_part_answer, check_basis
from finqa.agents.judge.cash_basis import accrual_for_cash
from finqa.agents.judge.context import Context, counted, question_parts_of
from finqa.agents.judge.exclusion import exclusion_not_named, inclusion_not_named
from finqa.agents.judge.facets import Facet, check_facets
from finqa.agents.judge.grounding import check_claims
from finqa.agents.judge.kind import Expectation, KindProblem, check_kind
from finqa.agents.judge.line_side import side_against_print
from finqa.agents.judge.measure import (
    effect_verdict,
    either_or_verdict,
    flow_sentence_for_balance,
    gross_for_net,
    level_for_gap,
    movement_for_level,
    named_operand_missing,
    one_part_for_all_parts,
    one_part_for_parts,
    other_date,
    other_measure,
)
from finqa.agents.judge.named_line import other_block, other_line
from finqa.agents.judge.named_statement import off_named_statement
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.part_named import (
    brand_not_named,
    cause_not_named,
    line_not_named,
    part_not_named,
)
from finqa.agents.judge.period_type import other_period_type
from finqa.agents.judge.printed_caption import (
    excluded_inside,
    one_side,
    split_line,
    unread_caption,
)
from finqa.agents.judge.row_item import other_item_row
from finqa.agents.judge.scope import other_scope
from finqa.agents.judge.text import split_claims
from finqa.agents.judge.verdict_sign import verdict_against_figure
from finqa.agents.types import Answer

__all__ = ["PROBLEM_FACETS", "check_answer_kind", "check_parts", "level_not_change"]

# the facet kinds a problem leaves unanswered (empty: every counted facet)
PROBLEM_FACETS: dict[str, tuple[str, ...]] = {
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
    "convention_dependent": ("figure", "verdict"),
    "implausible": ("figure",),
    "wrong_sign": ("figure",),
    "basis": ("verdict", "explanation", "answer"),
    "cause_basis": ("explanation",),
    "part_named": ("figure",),
    "exclusion": ("figure",),
    "inclusion": ("figure",),
    "brand_part": ("figure", "verdict"),
    "cause_part": ("figure",),
    "line_named": ("figure", "verdict"),
    "accrual_for_cash": ("figure",),
    "other_item": ("figure",),
    "period_type": ("figure",),
    "verdict_sign": ("verdict",),
    "open_verdict": ("verdict",),
    "other_statement": ("figure",),
    "named_line": ("figure",),
    "wrong_side": ("verdict", "figure"),
    "other_measure": ("figure", "verdict"),
    "part_side": ("figure",),
    "either_or": ("verdict",),
    "effect_not_answered": ("verdict",),
    "one_part": ("figure",),
    "level_for_gap": ("figure",),
    "operand_missing": ("figure",),
    "gross_for_net": ("figure",),
    "other_date": ("figure",),
    "other_scope": ("figure",),
    "movement_for_level": ("figure",),
}


# problems that make the answer's figure another question's figure, whichever numbers it gives
_ANOTHER_FIGURE = frozenset(
    {"one_part", "level_for_gap", "operand_missing", "gross_for_net", "other_date", "period_type"}
)


def _strike(problems: Sequence[KindProblem], numbers: Sequence[NumberCheck]) -> None:
    """The figure answers another question than the one asked: none of its numbers supports
    the answer (else grounding alone could carry it at a later attempt's lower threshold)."""
    for p in problems:
        if p.code in _ANOTHER_FIGURE and not p.numbers:
            for nc in numbers:
                if nc.ok:
                    nc.status, nc.detail = "not_found", p.message


def check_answer_kind(
    ctx: Context, answer: Answer, numbers: list[NumberCheck], cfg: JudgeConfig
) -> list[KindProblem]:
    """Does the answer answer the question (kind, unit, range, not a copy)?

    Figures of the wrong kind, and every figure of an answer whose own calculation the
    reasoner flagged as invalid, become unverified numbers."""
    if ctx.abstained or not cfg.deterministic_verify:
        return []
    expect = ctx.expect
    other_metric = any(nc.status == "calc_other_metric" for nc in numbers)
    if expect.kind in FIGURE_KINDS and len(question_parts_of(ctx.checklist)) > 1:
        # the kind is the first part's metric's; another part may ask for another kind
        expect = replace(expect, kind=None, reason="several parts: figure kinds not checked")
    problems = check_kind(
        ctx.question,
        ctx.text,
        expect,
        [nc.quantity for nc in numbers],
        ctx.view,
        question_scale=ctx.intent.scale,
    )
    for p in problems:
        for nc in numbers:
            if p.code in ("wrong_kind", "no_unit") and nc.text.strip() in p.numbers:
                nc.status, nc.detail = "wrong_kind", p.message
    if expect.change and expect.kind in FIGURE_KINDS and numbers:
        problems += level_not_change(ctx, expect, numbers)
    if ctx.expect.kind in FIGURE_KINDS:
        problems += part_not_named(ctx, numbers)
        problems += cause_not_named(ctx, numbers)
        problems += accrual_for_cash(ctx, numbers)
    # a brand's or a named line's figures name it, whatever form the answer takes (a yes/no
    # on 'did its iPad net sales grow' given with total revenue's growth answers another line)
    problems += brand_not_named(ctx, numbers)
    problems += line_not_named(ctx, numbers)
    if ctx.expect.kind in FIGURE_KINDS or ctx.expect.kind is None:
        problems += exclusion_not_named(ctx, numbers)
        problems += inclusion_not_named(ctx, answer, numbers)
        problems += other_item_row(ctx, numbers)
        problems += other_period_type(ctx, answer, numbers)
        problems += off_named_statement(ctx, answer, numbers)
    problems += verdict_against_figure(ctx, answer, numbers)
    problems += other_line(ctx, answer, numbers)  # a figure of any kind read off another line
    problems += other_block(ctx, answer, numbers)  # the named caption printed in another block
    problems += other_measure(
        ctx, answer, numbers
    )  # another measure than the phrase the ask governs
    problems += other_scope(ctx, answer, numbers)  # the total line for continuing operations
    problems += either_or_verdict(ctx)  # a Yes / No to 'did X add to or reduce Y?'
    problems += effect_verdict(ctx)  # 'did X reduce Y?' answered with X's own movement
    problems += one_part_for_parts(ctx)  # 'counting both A and B' answered with one row
    problems += level_for_gap(ctx)  # 'A was higher than B. By how much?' answered with A
    problems += one_part_for_all_parts(ctx)  # 'the combined ... of its segments': one segment
    problems += flow_sentence_for_balance(ctx)  # a balance asked, a paid amount quoted
    problems += other_date(ctx)  # 'at December 31, 2022' answered 'as of June 30, 2022'
    problems += gross_for_net(ctx)  # 'net interest expense' read off 'Interest expense'
    _strike(problems, numbers)
    problems += named_operand_missing(ctx)  # 'A plus B' computed without B, as the answer says
    problems += movement_for_level(ctx)  # a level asked, a sentence's 'decreased by $X' given
    problems += side_against_print(ctx)  # a named line's figure put on the side it is not on
    if not problems:
        # the judge's own reading of the rows the question writes out (printed_caption): an
        # answer already refused for a reason above keeps that reason
        problems += unread_caption(ctx, answer, numbers)  # a row the question writes out
        problems += excluded_inside(ctx, answer, numbers)  # a total holding a line left out
        problems += split_line(ctx, answer, numbers)  # one part of a line, the whole asked
        problems += one_side(ctx, answer, numbers)  # one side of a balance, the balance asked
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
        problems += [KindProblem("other_metric", d.message) for d in ctx.definitions if d.failed]
    unknown = answer.invalid_citations
    if unknown:
        problems.append(
            KindProblem("unknown_source", f"{unknown} citation(s) to sources not in the evidence")
        )
    return problems


def check_parts(
    ctx: Context,
    answer: Answer,
    numbers: list[NumberCheck],
    skipped: list[dict[str, Any]],
    problems: list[KindProblem],
    cfg: JudgeConfig,
) -> tuple[list[Any], list[Facet]]:
    """Grounding of every claim, and the facet checklist (a kind problem leaves the part it
    concerns unanswered); a yes/no or descriptive answer resting on no figure needs a basis
    sentence about the subject, stated as a fact of the asked period (basis.py)."""
    claims = split_claims(ctx.text)
    claim_checks = check_claims(claims, numbers, ctx.view, ctx.question, default_sources=ctx.cited)
    kinds = {f.kind for f in ctx.checklist if f.kind != "conditional"}
    if (
        cfg.deterministic_verify
        and not ctx.abstained
        and kinds & {"verdict", "explanation", "answer"}
        and not kinds & {"figure", "choice"}
        and not any(nc.ok for nc in numbers)
    ):
        basis = check_basis(ctx.question, answer, claim_checks, ctx.evidence, ctx.asked, ctx.routes)
        if basis is not None:
            ctx.basis.append(basis)
            if not basis.ok:
                problems.append(KindProblem("basis", basis.reason))
    elif cfg.deterministic_verify and not ctx.abstained and "explanation" in kinds:
        # a cause part beside a figure, a yes/no or a choice: its quotes are a basis like any
        # cause answer's (about the subject, a fact of the period, the movement asked)
        cause = cause_part_answer(answer, [c.text for c in claims])
        basis = (
            None
            if cause is None
            else check_basis(ctx.question, cause, claim_checks, ctx.evidence, ctx.asked, ctx.routes)
        )
        if basis is not None:
            ctx.basis.append(basis)
            if not basis.ok:
                problems.append(KindProblem("cause_basis", basis.reason))
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
        percent=ctx.expect.kind == "percent" and not ctx.expect.change,
    )
    _discount_coincidences(claim_checks, numbers)
    for claim in claim_checks:
        if claim.reason.startswith("cites "):  # only sources that are not in the evidence
            for nc in numbers:
                if nc.text in claim.numbers and nc.ok:
                    nc.status, nc.detail = "not_found", claim.reason
                    claim.failed_numbers.append(nc.text)
    for p in problems:
        targets = PROBLEM_FACETS.get(p.code)
        if targets is None:
            continue
        hit = [f for f in facets if counted(f) and (not targets or f.kind in targets)]
        for f in hit or [f for f in facets if counted(f)]:
            f.addressed, f.how = False, p.message
    return claim_checks, facets


def level_not_change(
    ctx: Context, expect: Expectation, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A change was asked ('by how much did X change'): some figure must be one, i.e. say which
    way X moved (a direction word or sign), or be read as the change by the statement model or a
    recorded calculation; figures that only state X's level do not answer it."""
    for nc in numbers:
        if nc.status in ("calculation", "wrong_direction") or "change from" in nc.detail:
            return []
        if stated_direction(nc.quantity, sentence_at(ctx.text, nc.start), expect.metric):
            return []
    name = (expect.metric or "the line item").replace("_", " ")
    return [
        KindProblem(
            "not_change",
            f"the change in {name} was asked: state how much it rose or fell, not its level",
            [nc.text for nc in numbers],
        )
    ]


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
