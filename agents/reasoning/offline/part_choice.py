"""A choice among the parts of one breakdown: 'Which of JPM's business segments had the lowest
net revenue in 2021 Q1?', 'in which reporting segment did sales proportionally increase the
most?', 'which reportable segment had the highest operating margin?'.

The question's ask is the lexicon's (`lexicon.part_choice`); every part of the one breakdown
the statement model holds the measure for is read there too (`lexicon.breakdowns`: one table,
the rest of the breakdown apart, the parts checked against the printed total). The answer names
the part with the highest / lowest value, with its figure, the runner-up and every part's
figure, citing the table's page, and records a re-executable max() / min() over the parts'
own operands. Fewer than two parts, a tie, parts that do not add up to the printed total, or
a rest row that would be the extreme give an abstention saying why.
"""

from __future__ import annotations

import re

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.dimension import CANNOT, abstain_part, fact_citation
from finqa.agents.reasoning.offline.verdict_kit import offline_answer
from finqa.agents.types import Answer, Calculation, Citation, Evidence, Operand, StatementStore
from finqa.lexicon.arith import ArithmeticError_, evaluate, safe_name
from finqa.lexicon.breakdowns import Breakdown, PartValue, best_breakdown, pick, read_breakdowns
from finqa.lexicon.dimensions import period_in
from finqa.lexicon.display import format_amount
from finqa.lexicon.metrics import get_metric
from finqa.lexicon.part_choice import PartChoice
from finqa.lexicon.question_intent import read_intent

__all__ = ["part_choice_answer"]

_KIND = {"segment": "segment", "geography": "region", "product": "product line"}


def part_choice_answer(
    question: str, evidence: Evidence, store: StatementStore | None, strategy: str
) -> Answer | None:
    """The part a choice question asks for, or an abstention saying why none is named; None
    when the question asks no choice among parts or no statement model is at hand."""
    choice = read_intent(question).part_choice  # the lexicon's one reading of the question
    if choice is None or store is None:
        return None
    known = set(store.docs())
    docs = [d for d in dict.fromkeys(i.doc_id for i in evidence.items) if d in known]
    kind = _KIND.get(choice.kind, "part")
    what = f"{choice.describe()} among the {kind}s"
    if not docs:
        return None
    found = best_breakdown(read_breakdowns(store, docs, choice, period_in(question, docs)), choice)
    if found is None:
        # no breakdown read: the company's figures or another reading would answer another
        # question (a segment's level for its growth), so none is named
        return abstain_part(
            f"I {CANNOT}: the question asks which {kind} had {what[4:]}; no table of the "
            f"filing's {kind}s holding that measure was read.",
            strategy,
            what,
        )
    if isinstance(found, str):
        return abstain_part(
            f"I {CANNOT}: the question asks which {kind} had {what[4:]}; {found}.", strategy, what
        )
    chosen = pick(found, choice)
    if chosen.winner is None or chosen.runner_up is None:
        text = (
            f"I {CANNOT}: the question asks which {kind} had {what[4:]}; in the table on "
            f"p.{found.page + 1} {chosen.reason}, so no {kind} is named."
        )
        return abstain_part(text, strategy, what)
    return _answer(choice, found, chosen.winner, chosen.runner_up, evidence, strategy)


def _shown(b: Breakdown, value: float) -> str:
    if b.percent:
        return f"{value:.1f}%"
    return format_amount(value / b.scale, "USD", b.scale)


def _money(fact_value: float, scale: float) -> str:
    return format_amount(fact_value / scale, "USD", scale)


def _operands(
    choice: PartChoice, b: Breakdown, part: PartValue, n: int, cites: dict[int, Citation]
) -> tuple[str, list[Operand]]:
    """The part's value as an expression over its own operands (scaled as printed)."""
    ops: list[Operand] = []
    names: dict[str, str] = {}
    for k, f in enumerate(part.facts):
        role = "prior" if k and f.item == part.facts[0].item else str(f.item)
        names[role] = safe_name(f"p{n}_{role}")
        ops.append(
            Operand(
                name=names[role], value=f.value / b.scale, unit="USD", scale=b.scale,
                period=f.period.key, source_id=cites[id(f)].source_id,
                text=(f.raw or str(f.value))[:60],
            )
        )  # fmt: skip
    metric = get_metric(choice.measure)
    if metric is not None and metric.is_derived and metric.formula:
        formula = metric.formula
        expr = re.sub(r"\b[a-z_]+\b", lambda m: names.get(m.group(0), m.group(0)), formula)
        return expr, ops
    cur = names[str(part.facts[0].item)]
    if choice.operator == "growth":
        return f"({cur} - {names['prior']}) / {names['prior']} * 100", ops
    if choice.operator == "change":
        return f"{cur} - {names['prior']}", ops
    return cur, ops


def _answer(
    choice: PartChoice,
    b: Breakdown,
    winner: PartValue,
    second: PartValue,
    evidence: Evidence,
    strategy: str,
) -> Answer:
    kind = _KIND.get(choice.kind, "part")
    parts = [p for p in b.parts if p.name not in _left_out(b, choice)]
    cites: dict[int, Citation] = {}
    for p in (*parts, *b.rest):
        for f in p.facts:
            cites[id(f)] = fact_citation(f, evidence)
    measure = choice.describe().removeprefix("the ")
    exprs: list[str] = []
    operands: list[Operand] = []
    calcs: list[Calculation] = []
    for n, p in enumerate(parts):
        expr, ops = _operands(choice, b, p, n, cites)
        exprs.append(expr)
        operands.extend(ops)
        computed = b.percent or choice.operator == "change"
        one = _calc(expr, ops, f"{measure} of {p.name}", "%" if b.percent else "USD")
        if computed and one is not None:
            calcs.append(one)  # every computed figure the answer states is a calculation
    fn = "max" if choice.extreme == "highest" else "min"
    unit = "%" if b.percent else "USD"
    picked = _calc(
        f"{fn}({', '.join(exprs)})", operands, f"{choice.describe()} of the {kind}s", unit
    )
    if picked is not None:
        calcs.insert(0, picked)
    when = b.period
    if choice.operator != "level" and len(winner.facts) > 1:
        when = f"{winner.facts[1].period.key} to {b.period}"
    detail = _detail(b, winner)
    others = "; ".join(
        f"{p.name} {_shown(b, p.value)}" for p in parts if p is not winner and p is not second
    )
    rest = (
        " Not counted as a " + kind + " (the breakdown's rest): "
        + "; ".join(f"{r.name} {_shown(b, r.value)}" for r in b.rest) + "."
        if b.rest else ""
    )  # fmt: skip
    left = _left_out(b, choice)
    left_note = f" Left out as asked: {', '.join(left)}." if left else ""
    adds = (
        f" The parts add up to the consolidated figure of {_money(b.total, b.scale)}."
        if b.adds_up and b.total is not None
        else ""
    )
    src = cites[id(winner.facts[0])].source_id
    text = (
        f"{winner.name}. Of the {kind}s the filing's table on p.{b.page + 1} reports "
        f"for {when}, {winner.name} had {choice.describe()}: {_shown(b, winner.value)}{detail} "
        f"[{src}]; the runner-up "
        f"was {second.name} ({_shown(b, second.value)}).{' The others: ' + others + '.' if others else ''}"
        f"{rest}{left_note}"
        f"{adds} Computed by finqa as {fn}() over every {kind}'s figure. "
        f"Answer: {winner.name} ({_shown(b, winner.value)})."
    )
    conf = confidence_signals(text, cited=True, base=0.75)
    conf["mode"] = "part_choice"
    citations = tuple(dict.fromkeys(cites[id(f)] for f in (*winner.facts, *second.facts)))
    return offline_answer(text, strategy, conf, citations=citations, calculations=tuple(calcs))


def _left_out(b: Breakdown, choice: PartChoice) -> list[str]:
    from finqa.lexicon.dimension_members import name_key

    keys = [name_key(x) for x in choice.excluded if name_key(x)]
    return [p.name for p in b.parts if any(name_key(p.name).startswith(k) for k in keys)]


def _detail(b: Breakdown, part: PartValue) -> str:
    """The figures a percent is computed from: '($6,043 million against $3,694 million)'."""
    if not b.percent:
        return ""
    facts = part.facts
    if len(facts) == 2 and facts[0].item == facts[1].item:
        return f" ({_money(facts[0].value, b.scale)} against {_money(facts[1].value, b.scale)})"
    said = " over ".join(
        f"{str(f.item).replace('_', ' ')} {_money(f.value, b.scale)}" for f in facts
    )
    return f" ({said})"


def _calc(expr: str, ops: list[Operand], description: str, unit: str) -> Calculation | None:
    try:
        result = evaluate(expr, {o.name: o.value for o in ops})
    except ArithmeticError_:
        return None
    return Calculation(
        expression=expr, operands=tuple(ops), result=result, unit=unit, description=description
    )
