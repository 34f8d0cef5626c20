"""The line the question names, checked by the captions of the lines the answer read.

A question naming a line by a quoted caption or by a narrowed item ('other (gains) and losses',
'membership fee revenue': `lexicon.named_line`) is answered only by a figure read from lines
under that caption. The judge reads the captions of the answer's operands as the cited source
prints them (each operand's row, where the source prints it; words before its first figure):
- every operand's caption is the named line: the figure is that line's, so the catalogue item
  the phrase only partly names (total revenue, total liabilities, net income) is not the metric
  the judge re-derives it as (`narrowed`);
- an operand's caption is another line while the evidence prints a line under the named
  caption: the answer answers another line (`other_line`), its figures are not accepted;
- a quoted caption the question places in a block by the item it names beside it ("'service
  and other' cost of revenue"): an operand printed under a heading of another nature (the
  'Service and other' under 'Revenue:') is the other block's line (`other_block`). The heading
  is read from the cited source's own layout (the nearest line above the row without figures,
  within its block, of a heading's few words: a longer line is a wrapped caption), not from the
  reasoner's reading of the statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import Expectation, KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer, Evidence
from finqa.lexicon import find_metrics
from finqa.lexicon.line_items import get_item
from finqa.lexicon.named_line import NamedLine, caption_part, captions
from finqa.lexicon.numbers import extract_quantities

_DIGIT = re.compile(r"\d")
_HEADING_REACH = 12  # lines above a row a block's heading is looked for
_HEADING_WORDS = 5  # words of a block's heading at most ('Costs and expenses:')
_JOINING = frozenset({"of", "and", "to", "the", "for", "from", "in", "on", "or", "with", "by"})

__all__ = ["another_line", "narrowed", "other_block", "other_line", "reads_named_line"]


def _captions(answer: Answer, evidence: Evidence) -> list[str]:
    """The caption of each operand of the answer's calculations, as its row prints it: the
    operand's row read only where the cited source prints that row (else '', unread)."""
    out = []
    for calc in answer.calculations:
        for op in calc.operands:
            src = evidence.by_source(op.source_id or "")
            row = " ".join((op.text or "").split())
            printed = src is not None and bool(row) and row in " ".join(src.text.split())
            labels = captions(row) if printed else ()
            out.append(labels[0] if labels else "")
    return out


def reads_named_line(line: NamedLine | None, answer: Answer, evidence: Evidence) -> bool:
    """Every operand of the answer's calculations is a line under the named caption."""
    read = _captions(answer, evidence)
    return (
        line is not None
        and bool(read)
        and all(c and caption_part(line, c) is not None for c in read)
    )


def narrowed(
    expect: Expectation, line: NamedLine | None, answer: Answer, evidence: Evidence
) -> Expectation:
    """The expectation without the broader catalogue item when the answer reads the named line
    (its figure is that line's, not the item's); else as it was."""
    if line is None or line.printed or expect.metric is None:
        return expect  # an item's own name: the catalogue's routes still check its figure
    if not reads_named_line(line, answer, evidence):
        return expect
    return replace(
        expect,
        metric=None,
        reason=f"the question names the line {line.phrase!r}, and the answer reads it",
    )


def other_line(ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the answer's figures are read from lines other than the one the question
    names while the evidence prints a line under that caption; its figures become unverified."""
    line = ctx.intent.ask.named_line
    if line is None or not numbers or ctx.abstained:
        return []
    read = _captions(answer, ctx.evidence)
    if not read or reads_named_line(line, answer, ctx.evidence):
        return []
    if any(c and caption_part(line, c) is not None for c in read) and all(
        calc.unit not in ("USD", "") for calc in answer.calculations
    ):
        return []  # the named line is one operand of a ratio or a share over another line
    printed = [
        label
        for src in ctx.view.sources
        for label in captions(src.text)
        if caption_part(line, label) is not None
    ]
    if not printed:
        return []  # the filing prints no such line: the catalogue's reading is the one left
    if _prints_the_figure(ctx, line, numbers):
        return []  # the named line prints the answer's figure: its sum of lines is that line
    other = next((c for c in read if c and caption_part(line, c) is None), None)
    if other is None:
        return []  # operands printed without a caption: which line they are is not read here
    message = (
        f"answers {other!r}, the question asks {line.phrase!r}, a line the evidence prints "
        f"({printed[0]!r})"
    )
    return another_line(message, numbers)


def _prints_the_figure(ctx: Context, line: NamedLine, numbers: Sequence[NumberCheck]) -> bool:
    """A row of the evidence under the named caption prints a figure the answer gives ('Total
    Debt $ 8,871' where the answer adds short-term and long-term debt to $8,871 million)."""
    given = [abs(nc.value) for nc in numbers if nc.value]
    for src in ctx.view.sources:
        for row in src.text.splitlines():
            labels = captions(row)
            if not labels or caption_part(line, labels[0]) is None:
                continue
            for q in extract_quantities(row[len(labels[0]) :]):
                if q.kind == "number" and any(abs(abs(q.value) - g) <= 0.5 for g in given):
                    return True
    return False


def another_line(
    message: str, numbers: Sequence[NumberCheck], code: str = "named_line"
) -> list[KindProblem]:
    """The answer's figures are another line's: none stays supported, for `message` (a problem
    of kind `code`)."""
    for nc in numbers:
        if nc.ok:
            nc.status, nc.detail = "not_found", message
    return [KindProblem(code, message, [nc.text for nc in numbers])]


def other_block(ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when a quoted caption's figure is read under a heading of another nature than
    the item the question names beside it (module docstring); its figures become unverified."""
    line, item = ctx.intent.ask.named_line, ctx.intent.ask.recipe
    if line is None or not line.quoted or line.metric is not None or item is None:
        return []
    asked = getattr(get_item(item), "nature", None)
    if asked is None or not numbers or ctx.abstained:
        return []
    for calc in answer.calculations:
        for op in calc.operands:
            src = ctx.evidence.by_source(op.source_id or "")
            heading = _heading_above(src.text, op.text or "") if src is not None else None
            if heading is None:
                continue
            natures = {
                getattr(get_item(m.canonical), "nature", None) for m in find_metrics(heading)
            }
            natures.discard(None)
            if natures and asked not in natures:
                return another_line(
                    f"reads {line.phrase!r} under the heading {heading!r}, and the question asks "
                    f"it as {item.replace('_', ' ')} ({asked}): another block's line",
                    numbers,
                )
    return []


def _heading_above(text: str, row: str) -> str | None:
    """The heading in force at the printed row `row` of `text`: the nearest line above it that
    holds no figure, within its block (a 'Total ...' line above closes another block: None)."""
    want = " ".join(row.split())
    if not want:
        return None
    lines = [" ".join(x.split()) for x in text.splitlines()]
    at = next((i for i, x in enumerate(lines) if want in x), None)
    if at is None:
        return None
    for above in reversed(lines[max(0, at - _HEADING_REACH) : at]):
        if not above:
            continue
        if above.lower().startswith("total"):
            return None
        if not _DIGIT.search(above):
            # a block's heading is a short name ('Cost of revenue:'); a longer line, or one
            # ending on a joining word, is a caption wrapped onto the row below it
            words = above.rstrip(":").split()
            if len(words) > _HEADING_WORDS or words[-1].lower() in _JOINING:
                return None
            return " ".join(words)
    return None
