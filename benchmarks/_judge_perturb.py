"""The failure kinds real LLM answers show, as perturbations of the dev questions (built at run
time from FinanceBench; nothing stored): a bare yes/no, a figure of the wrong kind, a figure from
another line of the same column, the question copied back, the evidence copied back, and a
figure stated beside a calculation the reasoner flagged as invalid, and a calculation of another
metric over the gold's own operands (a percentage where an amount is defined, the reciprocal of a
ratio, a difference where a ratio is defined), and the gold's figures alone where the question
asks which segment / region / year (the choice itself left out), and the gold's calculation with a
printed total among its operands replaced by one of the total's printed components (a part for
the whole). (A figure from another period is `prior_year` in `_judge_cases`.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from finqa.agents.judge import column_period, figures_match, row_label
from finqa.agents.judge.calc import CalcError, safe_eval
from finqa.agents.judge.evidence import EvidenceView
from finqa.agents.judge.facets import decompose
from finqa.agents.judge.kind import expected_kind
from finqa.agents.types import Answer, Calculation, Evidence
from finqa.lexicon import extract_quantities

__all__ = ["PERTURBATIONS", "perturbations"]

PERTURBATIONS = (
    "bare_yes_no",
    "wrong_kind",
    "other_line",
    "copied_question",
    "copied_evidence",
    "invalid_calculation",
    "other_metric",
    "figure_only_choice",
    "component_for_total",
)
_LEADING_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)


def _kind(question: str) -> Any:
    return expected_kind(question, [f.kind for f in decompose(question)])


def _find(q: Any, view: EvidenceView) -> tuple[Any, Any] | None:
    """Where the gold figure is in the evidence (the judge's own unit/scale-aware match)."""
    for src in view.sources:
        for e in src.quantities:
            if figures_match(q, e, 0.005) and row_label(src.text, e.start):
                return src, e
    return None


def _other_line(gold: str, q: Any, view: EvidenceView) -> str | None:
    """The gold answer with its figure replaced by another row's figure of the same column."""
    hit = _find(q, view)
    if hit is None:
        return None
    src, e = hit
    col = column_period(src.text, e.start, e.end)
    if col.year is None:
        return None
    label = row_label(src.text, e.start)
    for other in src.quantities:
        if other.start == e.start or other.unit != e.unit or abs(other.value) < 1:
            continue
        if abs(abs(other.value) - abs(e.value)) <= 0.05 * abs(e.value):
            continue
        ocol = column_period(src.text, other.start, other.end)
        olabel = row_label(src.text, other.start)
        if ocol.year != col.year or not olabel or olabel == label:
            continue
        value = abs(float(other.value))
        if q.scale_source != "none" and other.scale_source != "none":
            value *= float(other.scale) / float(q.scale)  # written at the gold's scale
        digits = f"{value:,.{max(int(q.decimals or 0), 0)}f}"
        m = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", q.text)
        if m is None:
            return None
        s, t = q.start + m.start(), q.start + m.end()
        return gold[:s] + digits + gold[t:]
    return None


def _large_amount(view: EvidenceView) -> str | None:
    """The largest dollar amount of the evidence, as written there."""
    best = None
    for src in view.sources:
        for e in src.quantities:
            big = e.unit == "USD" and abs(float(e.value)) >= 1000
            if big and (best is None or abs(float(e.value)) > abs(float(best.value))):
                best = e
    return f"{abs(float(best.value)):,.0f}" if best is not None else None


def _passage(view: EvidenceView, words: int = 130) -> str | None:
    """The first `words` words of the first source: the page dumped back as the answer."""
    if not view:
        return None
    tokens = view.sources[0].text.split()
    return " ".join(tokens[:words]) if len(tokens) >= words else None


def _other_metric(calc: Calculation, kind: str | None) -> tuple[str, Calculation] | None:
    """The gold calculation's operands combined as another metric: for an amount, the first as a
    percentage of the second (free cash flow as (cfo - capex) / cfo); for a ratio or percentage
    its reciprocal; for days or a ratio of two lines, their difference. The answer states it."""
    names = list(dict.fromkeys(o.name for o in calc.operands))
    if len(names) < 2:
        return None
    a, b = names[0], names[1]
    if kind == "amount":
        expr, unit = f"({calc.expression}) / {a} * 100", "%"
    elif kind == "ratio":
        expr, unit = f"1 / ({calc.expression})", "ratio"
    elif kind == "percent":
        expr, unit = f"100 * 100 / ({calc.expression})", "%"
    elif kind == "days":
        expr, unit = f"{a} - {b}", "USD"
    else:
        return None
    try:
        value = safe_eval(expr, {o.name: o.value for o in calc.operands})
    except CalcError:
        return None
    if not value or abs(value - calc.result) <= 0.05 * abs(calc.result):
        return None
    new = Calculation(expression=expr, operands=calc.operands, result=value, unit=unit)
    return f"{value:,.2f}", new


def _component_for_total(
    gold: str, q: Any, evidence: Evidence, calc: Calculation
) -> tuple[str, Calculation] | None:
    """The gold calculation with an operand that is a printed total of the evidence pages
    ('Total current assets', framed by its heading, its parts agreeing with it) replaced by its
    largest printed component, and the gold's figure replaced by the result."""
    from finqa.agents.judge.statement_figures import StatementFigures
    from finqa.lexicon.statements.components import printed_whole

    store = StatementFigures(evidence).store()
    if store is None:
        return None
    for table in (t for doc in store.docs() for t in store.tables(doc)):
        for fact in table.facts:
            whole = printed_whole(table, fact)
            if whole is None or not whole.agrees:
                continue
            filed = abs(fact.filed_value)
            for op in calc.operands:
                if not filed or abs(abs(op.value) - filed) > 0.001 * filed:
                    continue
                part = max(whole.parts, key=lambda f: abs(f.value))
                value = abs(part.filed_value) if op.value >= 0 else -abs(part.filed_value)
                read = {"value": value, "text": f"{part.label} {part.raw}"}
                operands = tuple(
                    o.model_copy(update=read) if o.name == op.name else o for o in calc.operands
                )
                try:
                    result = safe_eval(calc.expression, {o.name: o.value for o in operands})
                except CalcError:
                    continue
                if not result or abs(result - calc.result) <= 0.05 * abs(calc.result):
                    continue
                m = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", q.text)
                if m is None:
                    return None
                digits = f"{abs(result):,.{max(int(q.decimals or 0), 2)}f}"
                s, t = q.start + m.start(), q.start + m.end()
                new = calc.model_copy(update={"operands": operands, "result": result})
                return gold[:s] + digits + gold[t:], new
    return None


def perturbations(
    qid: str,
    question: str,
    gold: str,
    evidence: Evidence,
    view: EvidenceView,
    calcs: tuple[Calculation, ...],
    headline: Any | None,
) -> Iterator[tuple[str, Answer, str]]:
    """(category, answer, note) of every failure kind that applies to one dev question."""
    expect = _kind(question)
    lead = _LEADING_YES_NO.match(gold)
    if lead and expect.kind == "verdict":
        word = lead.group(1).capitalize()
        yield "bare_yes_no", Answer(text=f"{word}."), word
    if expect.kind in ("ratio", "percent", "days"):
        big = _large_amount(view)
        if big:
            yield "wrong_kind", Answer(text=big), big
    if headline is not None and expect.kind in ("amount", None):
        text = _other_line(gold, headline, view)
        if text and text != gold:
            yield "other_line", Answer(text=text, calculations=calcs), text[:80]
    yield "copied_question", Answer(text=question), "question"
    passage = _passage(view)
    if passage:
        yield "copied_evidence", Answer(text=passage), passage[:60]
    if calcs and calcs[0].operands:
        op = calcs[0].operands[0]
        stated = f"{abs(op.value):,.{0 if float(op.value).is_integer() else 2}f}"
        note = f"LLM result {op.value:g} disagrees with finqa's {calcs[0].result:g}"
        yield (
            "invalid_calculation",
            Answer(text=stated, calculations=calcs, confidence={"calc_problems": [note]}),
            stated,
        )
    if any(f.kind == "choice" for f in decompose(question)):
        figures = [q.text.strip() for q in extract_quantities(gold) if q.kind == "number"]
        if figures:
            text = "; ".join(figures)
            yield "figure_only_choice", Answer(text=text, calculations=calcs), text
    if calcs and expect.metric is not None:
        other = _other_metric(calcs[0], expect.kind)
        if other is not None:
            text, calc = other
            yield (
                "other_metric",
                Answer(text=text, calculations=(calc,)),
                f"{text} = {calc.expression}",
            )
    if calcs and headline is not None:
        part = _component_for_total(gold, headline, evidence, calcs[0])
        if part is not None:
            text, calc = part
            yield "component_for_total", Answer(text=text, calculations=(calc,)), text[:80]
