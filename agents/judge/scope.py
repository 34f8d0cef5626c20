"""The scope of operations a figure covers (`lexicon.operations_scope`): a question asking a
continuing-operations figure, on a filing that prints a line both for continuing operations and
in total, is not answered from the total line. The judge's own reading: the captions of the
lines the figure's recorded calculation reads, else of the rows printing it, against the rows
of the cited evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.period_type import operand_captions
from finqa.agents.judge.row_item import printed_on
from finqa.agents.types import Answer
from finqa.lexicon.operations_scope import asks_continuing, continuing_variant, names_continuing
from finqa.lexicon.statements.located import row_label

__all__ = ["other_scope"]


def other_scope(ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem for each figure read from a total line where the question asks continuing
    operations and the evidence prints that line's continuing-operations row with another
    figure; the figure becomes unsupported."""
    if ctx.abstained or not asks_continuing(ctx.question):
        return []
    rows = _rows(ctx)
    labels = list(dict.fromkeys(label for label, _ in rows))
    problems: list[KindProblem] = []
    for nc in numbers:
        if not nc.ok or nc.quantity is None:
            continue
        read = _lines_read(ctx, answer, nc)
        for caption, value in read:
            variant = continuing_variant(caption, labels)
            if variant is None or (
                value is not None
                and any(lab == variant and abs(v) == abs(value) for lab, v in rows)
            ):
                continue  # no continuing row, or it prints the same figure
            nc.status = "not_found"
            nc.detail = (
                f"{nc.text.strip()} reads the line {caption!r}; the question asks continuing "
                f"operations, which the filing prints on {variant!r}"
            )
            problems.append(KindProblem("other_scope", nc.detail, [nc.text.strip()]))
            break
    return problems


def _rows(ctx: Context) -> list[tuple[str, float]]:
    """Each evidence row's caption with each figure it prints."""
    out: list[tuple[str, float]] = []
    for src in ctx.view.sources:
        for q in src.quantities:
            label = row_label(src.text, q.start)
            if label:
                out.append((label, float(q.value)))
    return out


def _lines_read(ctx: Context, answer: Answer, nc: NumberCheck) -> list[tuple[str, float | None]]:
    """The lines a figure is read from, each with the figure read off it: its recorded
    calculation's operand captions and values, else the rows printing it."""
    captions = operand_captions(answer, nc)
    if captions is not None and nc.calculation is not None:
        operands = answer.calculations[nc.calculation].operands
        return [(c, float(op.value)) for c, op in zip(captions, operands, strict=True) if c]
    printed = printed_on(ctx, nc)
    if any(names_continuing(p) for p in printed):
        return []  # printed on the continuing row itself
    return [(p, None) for p in printed]
