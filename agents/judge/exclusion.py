"""A component left out, the whole answered: the question asks a flow measure without one of its
components ('Excluding fuel, what operating income did the segment report?', 'revenue growth
excluding the impact of currency'), an adjusted figure the filer prints beside the reported one
where it prints it at all. An answer that never names what is left out gives the line as
reported. The reading of the exclusion is the lexicon's (`lexicon.qualifiers.stated_exclusions`);
the judge only checks the answer says it is left out.

A component taken in, the usual whole answered: the question asks the measure including a line
the answer's reading of every operand leaves out by definition ('total debt, including capital
lease obligations', where the catalogue's debt lines exclude leases: `read: exclude`). An answer
that never names that line gives the measure without it (`inclusion_not_named`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.agents.judge.context import Context
from finqa.agents.judge.definition_operands import operand_metric
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer
from finqa.lexicon.label_keys import label_key
from finqa.lexicon.line_items import line_items
from finqa.lexicon.metrics import metric_key
from finqa.lexicon.qualifiers import caption_keys, included_phrases, stated_exclusions

__all__ = ["exclusion_not_named", "inclusion_not_named"]


def exclusion_not_named(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the question leaves a component out of the measure it asks and the
    answer's text never names that component; its figures become unverified."""
    if not numbers:
        return []
    said = f" {metric_key(ctx.text)} "
    for left_out in stated_exclusions(ctx.question):
        # 'excluding fuel', 'exclusive of the impact of fuel', 'ex fuel', 'fuel excluded'
        named = " ".join(map(re.escape, left_out.keys))
        if re.search(
            rf" (?:exclud\w*|exclusive of|ex|without|less)(?: \w+){{0,4}}? {named} "
            rf"| {named} (?:is |are |was |were )?(?:excluded|removed|left out) ",
            said,
        ):
            continue
        return _unsupported(
            numbers,
            "exclusion",
            f"the question asks the measure excluding {left_out.phrase!r}; the answer never "
            "names it as left out, so its figure is the line as reported",
        )
    return []


def inclusion_not_named(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem when the question takes in a line that every operand line item of the answer's
    calculation leaves out by its own definition (its `read: exclude` words: leases out of
    debt) and the answer never names that line; its figures become unverified."""
    if not numbers or not answer.calculations:
        return []
    items = {operand_metric(op) for calc in answer.calculations for op in calc.operands}
    readers = [line_items()[i] for i in items if i in line_items()]
    if not readers:
        return []
    said = set(metric_key(ctx.text).split())
    for taken in included_phrases(ctx.question):
        key = label_key(taken)
        if not all(any(x and x in key for x in li.keys()[2]) for li in readers):
            continue  # some operand's line may hold it
        keys = caption_keys(taken)
        if keys and all(k in said for k in keys):
            continue  # the answer names the line it took in
        return _unsupported(
            numbers,
            "inclusion",
            f"the question asks the measure including {taken!r}; the lines the answer adds up "
            "leave it out by definition and the answer never names it",
        )
    return []


def _unsupported(numbers: Sequence[NumberCheck], code: str, message: str) -> list[KindProblem]:
    """The problem `code`, every verified figure of the answer made unsupported by it."""
    for nc in numbers:
        if nc.ok:
            nc.status, nc.detail = "not_found", message
    return [KindProblem(code, message, [nc.text for nc in numbers])]
