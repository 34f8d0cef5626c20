"""A figure from the statement the question names: 'deferred revenues on its balance sheet', 'in
the income statement', 'per the cash flow statement' restrict the asked line item to the rows of
that statement (`QuestionAsk.statements`, read by `lexicon.query.named_statements`). A figure
read from another page (a note's table: the income-tax note's 'Deferred revenue' line, another
statement) answers another question: it becomes unsupported, with the reason.

The judge's own reading of the page the figure is read from (its cited source, or the one
operand line of the calculation that gives it): the statement its statement model of the
evidence pages reads there (`StatementFigures`), else the page's title
(`lexicon.statements.classify`), else the section the page is indexed under. The named
statement, or the other flow statement for a flow (the same figure printed twice), is in place;
another statement or table is not. A page with none of these is a note when the evidence shows
the named statement on pages not next to it; else (the statement not in the evidence, or a
continuation page) it cannot be told and is left to the other checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer
from finqa.lexicon.line_items import get_item
from finqa.lexicon.query import STATEMENT_TITLES

__all__ = ["off_named_statement"]

# the statement model's kinds for the statements a question names (lexicon.query's ids)
_FLOWS = frozenset({"income", "cashflow"})
_KIND = {"income": "income", "balance": "balance", "cash_flow": "cashflow", "equity": "equity"}


def off_named_statement(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem for each figure of the asked line item that the evidence prints only outside the
    statement the question names; the figure becomes unsupported."""
    ask = ctx.intent.ask
    named = ask.statements
    if not named or len(question_parts_of(ctx.checklist)) > 1:
        return []
    item = next((get_item(x) for x in (ask.recipe, ctx.expect.metric) if x and get_item(x)), None)
    if item is None or item.statement not in named:
        return []  # a metric over several items, or an item of a statement not named
    store = ctx.figures.store()
    kind = _KIND[item.statement]
    title = STATEMENT_TITLES[item.statement]
    problems: list[KindProblem] = []
    for nc in numbers:
        if not nc.ok or nc.quantity is None or str(nc.quantity.unit or "") not in ("USD", ""):
            continue
        for source in _sources(answer, nc):
            where = _elsewhere(ctx, store, source, kind, title)
            if where is None:
                continue
            nc.status = "not_found"
            nc.detail = (
                f"{nc.text.strip()} is printed {where}, not on the {title} the question names"
            )
            problems.append(KindProblem("other_statement", nc.detail, [nc.text.strip()]))
            break
    return problems


def _same_figure(printed: str, named: str) -> bool:
    """A line of the named statement printed on this one is the same figure: the statement
    itself, or the other flow statement (restructuring charges added back in the cash flow
    statement are the income statement's charges); a balance is never read off a flow
    statement, nor a flow off the balance sheet, nor either off a note's table."""
    return printed == named or {printed, named} <= _FLOWS


def _sources(answer: Answer, nc: NumberCheck) -> list[str]:
    """The source the figure is read from: the one operand line of the calculation that gives
    it, else its cited source ([] for a figure computed from several lines)."""
    if nc.calculation is not None and 0 <= nc.calculation < len(answer.calculations):
        ops = answer.calculations[nc.calculation].operands
        return [ops[0].source_id] if len(ops) == 1 and ops[0].source_id else []
    return [nc.source] if nc.source else []


def _elsewhere(ctx: Context, store: Any, source: str, kind: str, title: str) -> str | None:
    """Where the source's page is, when that is not the named statement: another statement
    (the page's title, or the table the judge's statement model reads there), or a page with
    no statement title in a filing whose named statement the evidence shows on other pages (a
    note); None when the page is the named statement, its continuation, or cannot be told."""
    from finqa.lexicon.statements.classify import classify_statement, statement_of_page

    item = ctx.evidence.by_source(source)
    if item is None or not item.pages:
        return None
    page = item.pages[0]
    tables = store.tables(item.doc_id) if store is not None else []
    here = {str(t.statement) for t in tables if page in t.pages}
    if kind in here:
        return None
    titled, title = statement_of_page(item.text.splitlines())
    if titled is None and item.section:
        titled, title = classify_statement(item.section), item.section
    if titled is not None:
        return None if _same_figure(titled, kind) else f"on p.{page} under '{title.strip()}'"
    if here:
        other = sorted(here)[0]
        return None if _same_figure(other, kind) else f"on p.{page}, in a {other} table"
    shown = sorted({p for t in tables if str(t.statement) == kind for p in t.pages})
    if not shown or any(abs(p - page) <= 1 for p in shown):
        return None  # the named statement is not in the evidence, or runs onto this page
    pages = f"p.{shown[0]}" + (f"-{shown[-1]}" if shown[-1] != shown[0] else "")
    return f"on p.{page}, apart from the {title} ({pages})"
