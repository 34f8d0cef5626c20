"""A component left out, the whole answered: the question asks a flow measure without one of its
components ('Excluding fuel, what operating income did the segment report?', 'revenue growth
excluding the impact of currency'), an adjusted figure the filer prints beside the reported one
where it prints it at all. An answer that never names what is left out gives the line as
reported. The reading of the exclusion is the lexicon's (`lexicon.qualifiers.stated_exclusions`);
the judge only checks the answer says it is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.lexicon.metrics import metric_key
from finqa.lexicon.qualifiers import stated_exclusions

__all__ = ["exclusion_not_named"]


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
        message = (
            f"the question asks the measure excluding {left_out.phrase!r}; the answer never "
            "names it as left out, so its figure is the line as reported"
        )
        for nc in numbers:
            if nc.ok:
                nc.status, nc.detail = "not_found", message
        return [KindProblem("exclusion", message, [nc.text for nc in numbers])]
    return []
