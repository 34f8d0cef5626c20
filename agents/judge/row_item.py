"""The nearer word is not the item, and a row without a caption is no item: a figure read from a row whose caption is a catalogue line
item the question does not ask for, though the question shares the caption's words, answers
another question. 'Allowance for loan losses' shares 'loan' with a 'Loans' row, 'cash paid for
income taxes' shares 'cash' with 'Cash and cash equivalents': the question's one parse
(`lexicon.metrics.find_metrics`: the object of an allowance, a balance word a payment verb
follows, name no item) says which catalogue items are asked; the row's caption is compared with
them by the catalogue's item (`item_for_label`), never by a shared word. A figure printed on a
row with no caption of its own (under a row complete with its caption and figures: the
unlabelled total of liabilities and equity under 'Total stockholders' equity') is no line
item's figure, whatever words stand near it (`lexicon.statements.located.uncaptioned_row`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.agents.judge import _lex
from finqa.agents.judge._match import match
from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.text import content_tokens
from finqa.lexicon.dimension_members import name_key
from finqa.lexicon.dimension_question import asked_dimension
from finqa.lexicon.metrics import find_metrics
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.located import row_label, uncaptioned_row, uncaptioned_total

__all__ = ["other_item_row", "printed_on", "row_items"]

_TOL = 0.005
_NAME = re.compile(r"\b[a-z][a-z0-9_]*\b")
_FUNCTIONS = frozenset({"avg", "prev", "change", "abs", "min", "max", "y"})


def other_item_row(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem for each figure found only on rows of a catalogue item the question does not
    ask for (nor any operand of what it asks) whose caption's words the question shares; the
    figure becomes unsupported."""
    ask = ctx.intent.ask
    if len(question_parts_of(ctx.checklist)) > 1:
        return []
    uncaptioned_only = ask.choice or ask.compares or ask.descriptive
    # a choice among options, a comparison or a description reads rows the question names as
    # options or context: only a row without a caption is ruled out there
    asked = _asked_items(ctx)
    words = set(content_tokens(ctx.question))
    problems: list[KindProblem] = []
    for nc in numbers:
        if nc.status != "evidence" or nc.quantity is None or nc.source is None:
            continue
        if _on_uncaptioned_rows(ctx, nc):
            nc.status = "not_found"
            nc.detail = (
                f"{nc.text.strip()} is on a row printed without a caption (the row above it "
                "holds its own caption and figures): it is no line item's figure"
            )
            problems.append(KindProblem("other_item", nc.detail, [nc.text.strip()]))
            continue
        if nc.calculation is not None or uncaptioned_only:
            continue  # an operand of a recorded calculation: judged with that calculation
        found = _row_of(ctx, nc)
        if found is None:
            continue
        label, item = found
        if item in asked or not _shares_words(label, words):
            continue
        nc.status = "not_found"
        nc.detail = (
            f"{nc.text.strip()} is {label!r} ({item.replace('_', ' ')}), another line item than "
            "the one asked: the question shares its word, not its item"
        )
        problems.append(KindProblem("other_item", nc.detail, [nc.text.strip()]))
    return problems


def _asked_items(ctx: Context) -> set[str]:
    """The catalogue items the question names or asks, with every operand of theirs."""
    ids = {m.canonical for m in find_metrics(ctx.question)}
    ids |= set(getattr(ctx.analysis, "metrics", ()) or ())
    ask = ctx.intent.ask
    ids |= {x for x in (ctx.expect.metric, ask.metric, *ask.operands) if x}
    ids |= {x for x in (ask.recipe,) if x}
    if ctx.expect.change or ask.aggregate in ("change", "growth", "trend"):
        # a balance's movement asked: the line its statement prints the movement as (cash's
        # net increase (decrease) on the statement of cash flows) is the asked item's
        ids |= {moved for x in list(ids) if (moved := _lex.moved_by(x))}
    stack = list(ids)
    while stack:
        for inp in _operands(stack.pop()):
            if inp not in ids:
                ids.add(inp)
                stack.append(inp)
    return ids


def _operands(metric_id: str) -> set[str]:
    """The ids a metric's formula, or any formula of its recipe, reads."""
    from finqa.lexicon.recipes import get_recipe

    found = set(_lex.metric_inputs(metric_id))
    recipe = get_recipe(metric_id)
    for formula in recipe.formulas if recipe is not None else ():
        found |= set(_NAME.findall(formula)) - _FUNCTIONS
    return found


def _on_uncaptioned_rows(ctx: Context, nc: NumberCheck) -> bool:
    """Every printing of the figure in its cited source is on a row without a caption, and
    none is the total of the rows above it under a heading naming an asked item ('Revenues'
    over MGM's revenue lines and their uncaptioned total: `located.uncaptioned_total`)."""
    src = next((s for s in ctx.view.sources if s.source_id == nc.source), None)
    if src is None:
        return False
    at = [e.start for e in src.quantities if match(nc.quantity, e, _TOL)]
    if not at or not all(uncaptioned_row(src.text, start) for start in at):
        return False
    asked = _asked_items(ctx)
    part = asked_dimension(ctx.question)
    for start in at:
        heading = uncaptioned_total(src.text, start)
        if heading is not None and item_for_label(heading) in asked:
            return False
        if heading is not None and part is not None and name_key(part.phrase) in name_key(heading):
            return False  # the total of the part asked ('Data Center Group' over its lines)
    return True


def row_items(ctx: Context, nc: NumberCheck) -> dict[str, str]:
    """The catalogue items of the rows of the cited source printing the figure, each with a
    caption of it; empty when a row has no caption or one is no catalogue item."""
    src = next((s for s in ctx.view.sources if s.source_id == nc.source), None)
    if src is None or nc.quantity is None:
        return {}
    found: dict[str, str] = {}
    for e in src.quantities:
        if not match(nc.quantity, e, _TOL):
            continue
        label = row_label(src.text, e.start)
        item = item_for_label(label) if label else None
        if label is None or item is None:
            return {}
        found.setdefault(item, label)
    return found


def _row_of(ctx: Context, nc: NumberCheck) -> tuple[str, str] | None:
    """The one catalogue item of the rows of the cited source printing the figure, with a
    caption of it; None when a row has no caption, the rows differ, or one is no catalogue item."""
    found = row_items(ctx, nc)
    if len(found) != 1:
        return None
    item, label = next(iter(found.items()))
    return label, item


def _shares_words(label: str, words: set[str]) -> bool:
    """The question holds a content word of the caption (the nearer word)."""
    return any(len(t) >= 4 and t in words for t in content_tokens(label))


def printed_on(ctx: Context, nc: NumberCheck) -> list[str]:
    """The captions of the evidence rows, in any source, printing the figure."""
    labels = (
        row_label(src.text, e.start)
        for src in ctx.view.sources
        for e in src.quantities
        if match(nc.quantity, e, _TOL)
    )
    return [label for label in labels if label]
