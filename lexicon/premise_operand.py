"""The line a premise names, when the ask refers back to it with an operator word alone: 'X's
operating income rose strongly in fiscal 2019. What was its year-over-year growth rate?' asks
the growth of operating income, not of revenue (the operator word's default metric, which it
names only when the text names no other line: `lexicon.metrics.find_metrics`). One reading for
the reasoner's ask (`lexicon.question_ask`) and the judge's check of the measure an answer
states (`lexicon.asked_measure.answer_fit`)."""

from __future__ import annotations

import re

from finqa.lexicon.answer_form import ask_head
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.recipes import match_asked_metric

__all__ = ["premise_operand", "premise_operand_match"]

# an ask referring back to what the premise named ('its', 'their', 'that')
_REFERS_BACK = re.compile(r"\b(?:its|their|it|that|this|these|those)\b", re.I)


def premise_operand(question: str) -> str | None:
    """The catalogue key of the premise's line an operator-only ask refers back to; None for
    any other question."""
    q = " ".join(question.split())
    found = premise_operand_match(q, ask_head(q))
    return found[0] if found else None


def premise_operand_match(q: str, head: str) -> tuple[str, int, int] | None:
    """(key, end of the ask, end of the ask) as `match_asked_metric` gives a match, for the
    premise's line an operator word alone in the ask `head` refers back to; None else. (A
    movement asked has no period type of its own: `lexicon.period_ask`.)"""
    at = q.find(head)
    if head == q or at <= 0 or not _REFERS_BACK.search(head):
        return None
    own = find_metrics(head)
    if not own or not all(m.operator for m in own):
        return None
    default = match_asked_metric(head)
    again = match_asked_metric(f"{head} {q[:at]}")
    if again is None or (default is not None and again[0] == default[0]):
        return None
    return (again[0], len(head), len(head))
