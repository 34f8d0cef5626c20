"""A flow for a balance, or a balance for a flow: the question's ask has a period type
(`QuestionAsk.period_type`: 'how much cash did X pay ... during 2020' a duration, 'the X
liability at quarter end' an instant), and so has every catalogue item (its `period`, as XBRL
concepts have one). A figure that is only a line item of the other type (the cash balance for
the taxes paid, the quarter's expense for the liability) answers another question, whatever
the words it shares: it becomes unsupported, with the reason in the verdict (so in the audit
record). The item is the judge's own reading: the caption of the row the figure is printed on
in its cited source, or of each operand line of the calculation that gives it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.row_item import row_items
from finqa.agents.types import Answer
from finqa.lexicon.metrics import METRICS
from finqa.lexicon.statements.catalogue import item_for_label

__all__ = ["other_period_type"]

_FIGURES = re.compile(r"[\s$(]*[-\u2014\u2013]?\$?\s*\(?\d[\d,.]*\)?.*$")
_WORDS = {"instant": "a balance at a date", "duration": "a flow over a period"}


def other_period_type(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem for each figure whose line items are all of the other period type than the
    ask's; the figure becomes unsupported."""
    asked = ctx.intent.ask.period_type
    if asked is None or len(question_parts_of(ctx.checklist)) > 1:
        return []
    problems: list[KindProblem] = []
    for nc in numbers:
        if not nc.ok:
            continue
        items = _items_of(ctx, answer, nc)
        kinds = {METRICS[i].period_type for i in items if i in METRICS}
        if not items or None in kinds or asked in kinds:
            continue
        names = ", ".join(sorted(i.replace("_", " ") for i in items))
        nc.status = "not_found"
        nc.detail = (
            f"{nc.text.strip()} is {names}, {_WORDS[str(kinds.pop())]}; the question asks "
            f"{_WORDS[asked]}"
        )
        problems.append(KindProblem("period_type", nc.detail, [nc.text.strip()]))
    return problems


def _items_of(ctx: Context, answer: Answer, nc: NumberCheck) -> set[str]:
    """The catalogue items of the lines the figure is read from: its calculation's operand
    lines, else the rows printing it in its cited source (empty: an unknown line)."""
    captions = operand_captions(answer, nc)
    if captions is not None:
        items: set[str] = set()
        for caption in captions:
            item = item_for_label(caption) if caption else None
            if item is None:
                return set()
            items.add(item)
        return items
    return set(row_items(ctx, nc))


def operand_captions(answer: Answer, nc: NumberCheck) -> tuple[str, ...] | None:
    """The captions of the lines a figure's recorded calculation reads (each operand's span
    without its figures: 'Long-term debt 1,253 1,257' -> 'Long-term debt'); None when the
    figure is no calculation's result."""
    if nc.calculation is None or not 0 <= nc.calculation < len(answer.calculations):
        return None
    operands = answer.calculations[nc.calculation].operands
    return tuple(_FIGURES.sub("", op.text).strip(" :.") for op in operands)
