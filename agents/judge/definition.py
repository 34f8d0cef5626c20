"""Is a recorded calculation the asked metric? The catalogue (`finqa.lexicon` metrics) defines each
metric's formula over other metrics and its unit; a calculation is read back as a formula over
catalogue metrics (each operand named by the row it was read from, else by its own name) and
compared with the definition.

Two formulas are the same when they agree, up to one constant factor (units, percent, a 360-day
year, a sign convention), at several random points of the line items they rest on: derived
operands are expanded through their own catalogue formulas ('gross profit' = revenue - cogs), and
periods are kept apart (an operand of the year before is `prev`). A calculation fails when

  other_operation  it rests on exactly the definition's line items but combines them otherwise
                   ('(cfo - capex) / cfo * 100' for free cash flow = cfo - capex);
  other_metric     it is another catalogue metric's formula (cash ratio for a quick ratio);
  wrong_dimension  it gives a ratio where the asked metric is an amount, or an amount where it is
                   a ratio, percentage or number of days (operands' own units; any names).

Anything else (an operand the catalogue cannot name, an ending balance where the definition
averages, a question-defined variant over other line items) is not judged here: the check only
fails a calculation it can show is of something else.

The pieces, by concept: `definition_operands` (which metric an operand is), `definition_formula`
(formulas compared as functions of line items), `definition_dimension` (amounts, ratios, per
share) and `parent_equity` (return on equity over the parent's equity).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from finqa.agents.judge._question import metric_words, prints_line
from finqa.agents.judge.definition_dimension import DIM_WORDS, KIND_DIM, UNIT_DIM, calc_dimension
from finqa.agents.judge.definition_formula import (
    candidate_metrics,
    compare_formulas,
    metric_reads,
    which_metric,
)
from finqa.agents.judge.definition_operands import (
    catalogue_metric,
    operand_label,
    operand_metric,
    same_fact,
)
from finqa.agents.judge.parent_equity import equity_with_minority
from finqa.agents.types import Calculation

__all__ = ["DefinitionCheck", "check_definitions", "judge_definitions", "operand_metric"]

# How a recorded calculation compares with the asked metric's definition (DefinitionCheck.status)
DefinitionStatus = Literal[
    "matches",  # the calculation is the asked metric's formula
    "other_operation",  # the asked metric's operands, another operation
    "other_metric",  # the formula of another catalogue metric
    "wrong_dimension",  # a figure of another kind (an amount for a ratio ...)
    "not_judged",  # a step towards the asked metric, or nothing to compare with
]


@dataclass(frozen=True)
class DefinitionCheck:
    """The comparison of one recorded calculation with the asked metric's definition."""

    index: int
    status: DefinitionStatus
    message: str = ""
    metric: str | None = None  # the asked metric
    computes: str | None = None  # the catalogue metric the calculation is, when another
    operands: tuple[str | None, ...] = ()  # the catalogue metric each operand was read as

    @property
    def failed(self) -> bool:
        return self.status in ("other_operation", "other_metric", "wrong_dimension")

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "status": self.status,
            "message": self.message,
            "metric": self.metric,
            "computes": self.computes,
            "operands": list(self.operands),
        }


def check_definitions(
    calcs: Sequence[Calculation],
    indices: Sequence[int],
    metric: str | None,
    kinds: Sequence[str | None],
    named: Sequence[str] = (),
    own_printed: bool = False,
) -> list[DefinitionCheck]:
    """Compare the calculations at `indices` (those the answer states the result of) with the
    asked `metric`'s definition; `kinds` are the answer kinds the question allows, `named` the
    other metrics the question names (a calculation of one of them is not 'another metric');
    `own_printed`: the evidence prints a line named as the metric itself (then a line the
    catalogue reads as the same fact where it is not printed, consolidated net income for the
    amount attributable to the company, is another line)."""
    definition = catalogue_metric(metric) if metric else None
    if definition is None:
        return []
    allowed = {KIND_DIM[k] for k in kinds if k in KIND_DIM}
    asks_itself = UNIT_DIM.get(definition.unit) in allowed
    checks = [
        _check(i, calcs[i], definition, allowed, asks_itself, named, own_printed)
        for i in dict.fromkeys(indices)
        if 0 <= i < len(calcs)
    ]
    if any(c.status == "matches" for c in checks):
        # the answer computes the metric; its other stated calculations are steps towards it
        return [c if c.status == "matches" else _step(c) for c in checks]
    return checks


def judge_definitions(
    calcs: Sequence[Calculation],
    numbers: Sequence[Any],
    expect: Any,
    analysis: Any,
    texts: Sequence[str] = (),
) -> list[DefinitionCheck]:
    """Check the calculations whose results the answer states against the asked metric; every
    figure stated as the result of one that is of something else becomes `calc_other_metric`."""
    stated = [
        nc.calculation
        for nc in numbers
        if nc.status == "calculation" and nc.calculation is not None
    ]
    if not stated or expect.metric is None:
        return []
    # a question whose kind of figure is not read still has the metric's operands judged
    kinds = (expect.kind, *expect.also, *expect.companion) if expect.kind is not None else ()
    inputs = metric_reads(expect.metric)
    named = [
        m for m in getattr(analysis, "metrics", ()) or () if m != expect.metric and m not in inputs
    ]
    own = metric_words(expect.metric)
    own_printed = any(prints_line(text, own) for text in texts)
    checks = check_definitions(calcs, stated, expect.metric, kinds, named, own_printed)
    failed = {c.index: c for c in checks if c.failed}
    for nc in numbers:
        if nc.status == "calculation" and nc.calculation in failed:
            nc.status, nc.detail = "calc_other_metric", failed[nc.calculation].message
    return checks


def _step(c: DefinitionCheck) -> DefinitionCheck:
    return DefinitionCheck(c.index, "not_judged", "a step towards the asked metric", c.metric)


def _check(
    index: int,
    calc: Calculation,
    definition: Any,
    allowed: set[tuple[int, int]],
    asks_itself: bool,
    named: Sequence[str],
    own_printed: bool = False,
) -> DefinitionCheck:
    ops = tuple(operand_metric(op) for op in calc.operands)
    name = definition.name
    defined = f"{name} is {_shown(definition)}"
    base = {"metric": definition.id, "operands": ops}
    whole = equity_with_minority(calc, ops, definition)
    if whole is not None:
        return DefinitionCheck(
            index,
            "other_metric",
            f"the calculation divides the company's share of net income by '{whole}', equity "
            f"that names no owners (it includes noncontrolling interests where they exist): "
            f"{name} over the company's net income takes the equity attributable to its "
            f"shareholders: {defined}",
            **base,
        )
    if asks_itself and all(ops):
        same, keys = compare_formulas(calc, ops, definition.id)
        # operands are read as the fact their line is (`same_fact`: the amount attributable to
        # the company is net income's line); so is the asked item. Whose share the line is
        # gets its own check (`conventions`, the judge's reading of the row)
        fact = same_fact(definition.id)
        if not same and fact != definition.id:
            same, keys = compare_formulas(calc, ops, fact)
            if (
                same
                and own_printed
                and not all(_names_item(op, definition.id) for op in calc.operands)
            ):
                return DefinitionCheck(
                    index,
                    "other_metric",
                    f"the calculation reads {_rows(calc)}, not the {name.lower()} line the "
                    f"evidence prints: {defined}",
                    computes=fact,
                    **base,
                )
        if same:
            return DefinitionCheck(index, "matches", defined, **base)
        # a metric over the asked one, of a kind the question allows ('D&A as % of revenue' for
        # a question the analysis reads as D&A), is what was asked, not another metric
        over = {
            m
            for m in candidate_metrics(frozenset(o for o in ops if o))
            if _over(m, definition.id, allowed)
        }
        other = which_metric(calc, ops, exclude={definition.id, fact, *named, *over})
        if same is False and keys:
            also = f" (it computes {other.name.lower()})" if other is not None else ""
            return DefinitionCheck(
                index,
                "other_operation",
                f"the calculation {calc.expression}{also} is not {name} as defined: {defined}",
                computes=other.id if other is not None else None,
                **base,
            )
        if other is not None:
            return DefinitionCheck(
                index,
                "other_metric",
                f"the calculation is {other.name} ({_shown(other)}), not {name}: {defined}",
                computes=other.id,
                **base,
            )
    dim = calc_dimension(calc)
    if dim is not None and allowed and dim not in allowed:
        return DefinitionCheck(
            index,
            "wrong_dimension",
            f"the calculation {calc.expression} gives {DIM_WORDS.get(dim, 'another kind')}, "
            f"not {' or '.join(sorted(DIM_WORDS.get(d, '?') for d in allowed))}: {defined}",
            **base,
        )
    return DefinitionCheck(index, "not_judged", **base)


def _over(mid: str, asked: str, allowed: set[tuple[int, int]]) -> bool:
    m = catalogue_metric(mid)
    return m is not None and asked in metric_reads(mid) and UNIT_DIM.get(m.unit) in allowed


def _shown(metric: Any) -> str:
    """'cfo - capex' read as the catalogue's names ('Cash from operations - Capital expenditures')."""
    if not metric.formula:
        return f"the {metric.name.lower()} line"
    text = str(metric.formula)
    for inp in sorted(metric.inputs, key=len, reverse=True):
        m = catalogue_metric(inp)
        if m is not None:
            text = re.sub(rf"\b{re.escape(inp)}\b", m.name.lower(), text)
    return text


def _names_item(op: Any, metric_id: str) -> bool:
    """Is the operand's row (else its name) named as the catalogue item itself?"""
    label = operand_label(op.text or "") or op.name.replace("_", " ")
    return prints_line(label, metric_words(metric_id))


def _rows(calc: Calculation) -> str:
    labels = [operand_label(op.text or "") or op.name for op in calc.operands]
    return ", ".join(repr(label) for label in dict.fromkeys(labels))
