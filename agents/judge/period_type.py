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
from finqa.lexicon.query import named_statements
from finqa.lexicon.question_intent import read_intent
from finqa.lexicon.question_parts import question_parts
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
    lead: int | None = None  # with several parts: the answer's lead sentence's figures only
    if len(question_parts_of(ctx.checklist)) > 1:
        # 'How much long-term debt did X repay in cash during 2018, and how does that compare
        # with the change on the balance sheet?': the first part's own period type, which the
        # answer's lead sentence answers
        parts = question_parts(ctx.question).parts
        asked = read_intent(parts[0].text).ask.period_type if parts else None
        stop = re.search(r"\.\s|$", ctx.text)
        lead = stop.start() if stop else len(ctx.text)
    if asked is None:
        return []
    problems: list[KindProblem] = []
    for nc in numbers:
        if not nc.ok or (lead is not None and nc.start >= lead):
            continue
        items = _items_of(ctx, answer, nc)
        kinds = {METRICS[i].period_type for i in items if i in METRICS}
        if not items:
            # a line the catalogue does not name ('Content assets, net'): its statement says
            # its period type, where the figure is printed on a primary statement's page (a
            # statement the question names is `named_statement`'s to check)
            kind = None if named_statements(ctx.question) else _statement_period(ctx, answer, nc)
            if kind is None or kind == asked:
                continue
            nc.status = "not_found"
            nc.detail = (
                f"{nc.text.strip()} is printed on the {_STATEMENT_NAMES[kind]}, {_WORDS[kind]}; "
                f"the question asks {_WORDS[asked]}"
            )
            problems.append(KindProblem("period_type", nc.detail, [nc.text.strip()]))
            continue
        if None in kinds or asked in kinds:
            continue
        names = ", ".join(sorted(i.replace("_", " ") for i in items))
        nc.status = "not_found"
        nc.detail = (
            f"{nc.text.strip()} is {names}, {_WORDS[str(kinds.pop())]}; the question asks "
            f"{_WORDS[asked]}"
        )
        problems.append(KindProblem("period_type", nc.detail, [nc.text.strip()]))
    return problems


_STATEMENT_NAMES = {"instant": "balance sheet", "duration": "statement of a period's flows"}


def _statement_period(ctx: Context, answer: Answer, nc: NumberCheck) -> str | None:
    """The period type of the primary statement the figure is printed on (its cited source, or
    the one source of its calculation's operands): a balance sheet's lines are instants, an
    income or cash-flow statement's durations; None when that is no primary statement's page."""
    from finqa.lexicon.statements.classify import statement_of_page

    cited: set[str | None] = {nc.source} if nc.source else set()
    rows: list[str] = []
    if not cited and nc.calculation is not None and 0 <= nc.calculation < len(answer.calculations):
        operands = answer.calculations[nc.calculation].operands
        cited = {op.source_id for op in operands}
        rows = [op.text for op in operands if op.text]
    kinds: set[str | None] = set()
    for src in ctx.view.sources:
        if src.source_id in cited:
            lines = src.text.splitlines()
            # a page printing two statements ('... Cash Flows' above '... Balance Sheet'): the
            # title nearest above the line read (or printing the figure) is its statement's
            printed = rows or [ln for ln in lines if _prints(ln, nc.text)]
            kind = _title_above(lines, printed) or statement_of_page(lines)[0]
            kinds.add(
                {"balance": "instant", "income": "duration", "cashflow": "duration"}.get(kind or "")
            )
    return kinds.pop() if len(kinds) == 1 else None


def _title_above(lines: list[str], rows: list[str]) -> str | None:
    """The kind of the formal statement title ('Condensed Consolidated Balance Sheet') nearest
    above the first printed line among `rows`; None when no row is found or no title is above
    it."""
    from finqa.lexicon.statements.classify import formal_title_kind

    wanted = [" ".join(r.split())[:40] for r in rows if r.strip()]
    for at, line in enumerate(lines):
        flat = " ".join(line.split())
        if flat and any(flat.startswith(w) or w.startswith(flat[:40]) for w in wanted if w):
            return next(
                (kind for above in reversed(lines[:at]) if (kind := formal_title_kind(above))),
                None,
            )
    return None


def _prints(line: str, figure: str) -> bool:
    """The line prints the figure's digits as a number of its own ('7,613' in '... $ 7,613 $')."""
    digits = re.sub(r"[^\d.,]", "", figure).strip(".,")
    return (
        bool(digits)
        and re.search(rf"(?<![\d.,]){re.escape(digits)}(?![\d,]|\.\d)", line) is not None
    )


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
