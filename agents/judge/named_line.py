"""The line the question names, checked by the captions of the lines the answer read.

A question naming a line by a quoted caption or by a narrowed item ('other (gains) and losses',
'membership fee revenue': `lexicon.named_line`) is answered only by a figure read from lines
under that caption. The judge reads the captions of the answer's operands as the cited source
prints them (each operand's row, where the source prints it; words before its first figure):
- every operand's caption is the named line: the figure is that line's, so the catalogue item
  the phrase only partly names (total revenue, total liabilities, net income) is not the metric
  the judge re-derives it as (`narrowed`);
- an operand's caption is another line while the evidence prints a line under the named
  caption: the answer answers another line (`other_line`), its figures are not accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import Expectation, KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.named_line import NamedLine, caption_part, captions

__all__ = ["narrowed", "other_line", "reads_named_line"]


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
    other = next((c for c in read if c and caption_part(line, c) is None), None)
    if other is None:
        return []  # operands printed without a caption: which line they are is not read here
    message = (
        f"answers {other!r}, the question asks {line.phrase!r}, a line the evidence prints "
        f"({printed[0]!r})"
    )
    for nc in numbers:
        if nc.ok:
            nc.status, nc.detail = "not_found", message
    return [KindProblem("named_line", message, [nc.text for nc in numbers])]
