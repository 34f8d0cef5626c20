"""Step 2 of the judge: every figure of the answer, found in the evidence, re-executed from its
recorded calculation, re-derived from the statement model, or checked by a second route.

A figure not found as written (`REDERIVABLE`) is read against the judge's own statement model of
the evidence pages: the asked metric for the asked year, then the period each figure is given for
and the metrics its own sentence names. A change asked must move the way the answer says.
"""

from __future__ import annotations

from typing import Any

from finqa.agents.config import JudgeConfig
from finqa.agents.judge._question import (
    line_terms,
    metric_tokens,
    named_metrics,
    sentence_at,
    stated_direction,
)
from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.convention import check_conventions
from finqa.agents.judge.definition import judge_definitions
from finqa.agents.judge.numeric import (
    CalcCheck,
    NumberCheck,
    check_numbers,
    claimed_year,
    derive_remaining,
    verify_calculations,
)
from finqa.agents.judge.route_reading import same_value
from finqa.agents.judge.second_route import second_route
from finqa.agents.judge.statement_figures import StatementValue, match_statement_value
from finqa.agents.types import Answer

__all__ = ["REDERIVABLE", "check_figures", "check_direction"]

REDERIVABLE = frozenset({"not_found", "calc_unverified", "calc_other_metric"})


def check_figures(
    ctx: Context, answer: Answer, cfg: JudgeConfig
) -> tuple[list[NumberCheck], list[dict[str, Any]], list[CalcCheck]]:
    """Every figure of the answer, found in the evidence or re-executed (and what was skipped)."""
    deterministic = cfg.deterministic_verify
    calcs = (
        verify_calculations(answer.calculations, ctx.view, ctx.asked, cfg.rel_tolerance)
        if deterministic
        else []
    )
    parts = question_parts_of(ctx.checklist)
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
        label_terms=(
            line_terms(ctx.expect, ctx.analysis, [s.text for s in ctx.view.sources])
            if len(parts) <= 1
            else ()
        ),
    )
    if deterministic and len(parts) <= 1 and not ctx.expect.change:
        # a stated result must be of the asked metric as the catalogue defines it (a change
        # asked is no catalogue metric: its figures are read against the change below)
        ctx.definitions.extend(
            judge_definitions(
                answer.calculations,
                numbers,
                ctx.expect,
                ctx.analysis,
                [s.text for s in ctx.view.sources],
            )
        )
        _parts_for_wholes(ctx, answer, numbers)
        _owners_equity(ctx, answer, numbers)
    if deterministic and any(nc.status in REDERIVABLE for nc in numbers):
        # the judge's own derivation: the catalogue formula over the statement model
        model = model_value(ctx)
        ctx.model.append(model)
        for nc in numbers:
            if nc.status not in REDERIVABLE or model is None:
                continue
            if match_statement_value(nc.quantity, model, cfg.rel_tolerance):
                nc.status, nc.detail = "rederived", f"statement model: {model.describe()}"
                check_direction(nc, model, ctx.text)
            else:
                nc.detail = (nc.detail + "; " if nc.detail else "") + (
                    f"the evidence gives {model.describe()}"
                )
    if deterministic and ctx.expect.change:
        _printed_movement(ctx, numbers, cfg.rel_tolerance)
    if deterministic and any(nc.status in REDERIVABLE for nc in numbers):
        _per_period(ctx, numbers, cfg.rel_tolerance)
    if deterministic and len(parts) <= 1:
        _second_route(ctx, numbers, cfg.rel_tolerance)
        _conventions(ctx, numbers, cfg)
    if deterministic and ctx.expect.change and any(nc.ok for nc in numbers):
        # however a change was verified (a recorded calculation, a figure of the filing's
        # text), the way the answer says it moved must be the statement model's
        change = model_value(ctx)
        for nc in numbers:
            if (
                change is not None
                and nc.ok
                and match_statement_value(nc.quantity, change, cfg.rel_tolerance)
            ):
                check_direction(nc, change, ctx.text)
    return numbers, skipped, calcs


def _printed_movement(ctx: Context, numbers: list[NumberCheck], tol: float) -> None:
    """A balance's change given as the difference of its two balances (or that difference's
    percentage) where the statements print its movement over the year as another figure (the
    statement of cash flows' net change holds cash held for sale or restricted cash the
    balance sheet line does not): the two routes disagree, so the figure is not accepted, and
    both are shown."""
    metric = ctx.expect.metric
    if metric is None or not ctx.asked:
        return
    year = max(ctx.asked)
    printed = ctx.figures.printed_change(metric, year)
    diff = ctx.figures.balances_change(metric, year)
    if printed is None or diff is None:
        return
    if same_value(printed.value, diff.value):
        return
    before = ctx.figures.value(metric, year - 1)
    pct = None
    if before is not None and before.value:
        pct = StatementValue(
            metric, diff.value / abs(before.value) * 100.0, "%", year, diff.facts, f"% {diff.what}"
        )
    for nc in numbers:
        if nc.quantity is None or match_statement_value(nc.quantity, printed, tol):
            continue
        if match_statement_value(nc.quantity, diff, tol) or (
            pct is not None
            and nc.quantity.unit == "%"
            and match_statement_value(nc.quantity, pct, tol)
        ):
            nc.status = "route_conflict"
            nc.detail = (
                f"the statements print the year's movement: {printed.describe()}; the figure is "
                f"the {diff.describe()}"
            )


def _parts_for_wholes(ctx: Context, answer: Answer, numbers: list[NumberCheck]) -> None:
    """A stated result whose calculation takes one printed part of a line the asked metric's
    definitions name ('Deferred revenue' of total current liabilities) in that line's place,
    the line itself not among its operands, is not the metric: a part for the whole."""
    from finqa.agents.judge.component_routes import part_for_whole
    from finqa.agents.judge.definition import operand_metric
    from finqa.agents.judge.routes import formula_leaves

    metric = ctx.expect.metric or next(iter(getattr(ctx.analysis, "metrics", ()) or ()), None)
    if metric is None or ctx.routes is None:
        return
    try:
        from finqa.lexicon import get_metric
        from finqa.lexicon.variants import read_variants

        own = get_metric(metric)
        formulas = [own.formula or metric, *own.formulas]
        formulas += [v.formula for v in read_variants(metric, ctx.question).variants]
    except Exception:  # noqa: BLE001 - a metric without formulas: nothing to compare with
        return
    named = {leaf for f in formulas if f for leaf in formula_leaves(f)}
    stores = [s for s in (ctx.routes.store, ctx.routes.pages) if s is not None]
    docs = list(dict.fromkeys(i.doc_id for i in ctx.routes.evidence.items))
    for nc in numbers:
        if nc.status != "calculation" or nc.calculation is None:
            continue
        calc = answer.calculations[nc.calculation]
        used = {operand_metric(op) for op in calc.operands}
        figures = [op.value for op in calc.operands]
        for op in calc.operands:
            # an operand of a line the definition names may still be one part of that very
            # line ('Other current liabilities' read as current liabilities); an operand of no
            # named line may be a part of a named line the calculation leaves out
            mine = operand_metric(op)
            wholes = [mine] if mine in named else sorted(named - used)
            if not wholes:
                continue
            said = next(
                (
                    m
                    for s in stores
                    for d in docs
                    if (m := part_for_whole(s, d, wholes, op.value, figures))
                ),
                None,
            )
            if said is not None:
                nc.status, nc.detail = "calc_other_metric", f"a part for the whole: {said}"
                break


def _owners_equity(ctx: Context, answer: Answer, numbers: list[NumberCheck]) -> None:
    """A stated result over equity must take the asked owners' equity: the company's by
    default, the total with noncontrolling interests where the question says so; the judge
    tells them apart by the balance sheet's own arithmetic (`owners_equity`); net income the
    same way, by the income statement's."""
    from finqa.agents.judge.owners_equity import (
        asked_income_owners,
        asked_owners,
        equity_splits,
        income_splits,
        wrong_owners,
    )

    if ctx.routes is None:
        return
    stores = [s for s in (ctx.routes.store, ctx.routes.pages) if s is not None]
    docs = list(dict.fromkeys(i.doc_id for i in ctx.routes.evidence.items))
    for asked, splitter, what in (
        (asked_owners, equity_splits, "equity"),
        (asked_income_owners, income_splits, "net income"),
    ):
        owners = asked(ctx.question, ctx.expect.metric)
        if owners is None:
            continue
        splits = [s for store in stores for d in docs for s in splitter(store, d)]
        for nc in numbers if splits else ():
            if nc.status != "calculation" or nc.calculation is None:
                continue
            calc = answer.calculations[nc.calculation]
            said = wrong_owners(owners, [op.value for op in calc.operands], splits)
            if said is not None:
                nc.status, nc.detail = "calc_other_metric", f"another owners' {what}: {said}"


def _second_route(ctx: Context, numbers: list[NumberCheck], rel_tol: float) -> None:
    """Before a figure of the asked metric is accepted, the judge derives it by a route of
    its own, and the figure must be one the metric can take by its definition."""
    check, problems = second_route(
        ctx.question, ctx.text, ctx.expect, ctx.asked, numbers, ctx.routes, rel_tol
    )
    if check is not None:
        ctx.route.append(check)
    ctx.problems.extend(problems)


def _conventions(ctx: Context, numbers: list[NumberCheck], cfg: JudgeConfig) -> None:
    """The asked metric under each of its recognised definitions, when the question states
    none: an answer that holds under one only is not accepted (convention.py)."""
    if ctx.abstained or not ctx.asked:
        return
    check, problems = check_conventions(
        ctx.question,
        ctx.expect.metric,
        max(ctx.asked),
        numbers,
        ctx.routes,
        cfg.rel_tolerance,
        policy=cfg.convention_policy,
        tolerance=cfg.convention_tolerance,
    )
    if check is not None:
        ctx.convention.append(check)
    ctx.problems.extend(problems)


def _per_period(ctx: Context, numbers: list[NumberCheck], tol: float) -> None:
    """Figures still unverified, read against the statement model for the period each is
    given for (its own, or the one asked year): the asked metrics and those the figure's own
    sentence names (their value, their change from the year before, a ratio of two named line
    items); then what simple arithmetic over the newly verified figures gives."""
    figures = ctx.figures
    asked = [ctx.expect.metric, *(getattr(ctx.analysis, "metrics", ()) or ())]
    hit = False
    for nc in numbers:
        if nc.status not in REDERIVABLE:
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
            check_direction(nc, found, ctx.text)
    if hit:
        derive_remaining(numbers, tol)


def check_direction(nc: NumberCheck, found: StatementValue, text: str) -> None:
    """A figure read as a change must move the way the answer says: 'fell by $107 million' is
    unsupported when the statement model gives a rise of 107 (the magnitude alone matched)."""
    if not found.what.startswith(("change", "% change")) or not found.value:
        return
    stated = stated_direction(nc.quantity, sentence_at(text, nc.start), found.metric)
    if stated and (stated > 0) != (found.value > 0):
        said, real = ("a rise", "a fall") if stated > 0 else ("a fall", "a rise")
        nc.status = "wrong_direction"
        nc.detail = f"the answer states {said}; the evidence gives {real}: {found.describe()}"


def model_value(ctx: Context) -> StatementValue | None:
    """The asked metric (its change from the year before, when a change is asked) for the
    latest asked year, from the judge's statement model of the evidence pages."""
    metric = ctx.expect.metric
    if metric is None or not ctx.asked or not ctx.evidence.items:
        return None
    if "avg3" in ctx.intent.aggregates:
        first, last = ctx.intent.year_range or (min(ctx.asked), max(ctx.asked))
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
