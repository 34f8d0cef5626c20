"""The measure an answer gives against the phrase the question asks about (issue #25, 'another
metric's formula'; `lexicon.asked_measure`): the question's own words, read for the noun phrase
its ask governs, are a second reading of what is asked beside the catalogue match both agents
start from. An answer whose lead states another measure ('Total debt ...: $1,234 million' for
'gross interest expense'), or one computed as a catalogue item the phrase rules out (its nature
or its words), answers another question: its figures are not accepted, whatever their
grounding.
"""

from __future__ import annotations

from collections.abc import Sequence

from finqa.agents.judge.context import Context, question_parts_of
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.lexicon.asked_measure import answer_fit, measure_fit
from finqa.lexicon.metrics import METRICS

__all__ = ["other_measure"]

# the statuses that would accept a figure
_ACCEPTING = frozenset({"evidence", "calculation", "derived", "rederived"})


def other_measure(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """One problem when the measure the answer states, or the one the question was read as
    asking, cannot be what the question's phrase asks; every figure of the answer becomes
    `calc_other_metric`."""
    if ctx.abstained or len(question_parts_of(ctx.checklist)) > 1:
        return []
    ask = ctx.intent.ask
    read = ask.recipe if ask.recipe in METRICS else ask.metric
    for how, fit in (
        ("states", answer_fit(ctx.question, ctx.text)),
        ("is read as", measure_fit(ctx.question, read)),
    ):
        if fit is None or fit.fits:
            continue
        message = f"the answer {how} {METRICS[fit.metric].name.lower()}: {fit.reason}"
        for nc in numbers:
            if nc.status in _ACCEPTING:
                nc.status, nc.detail = "calc_other_metric", message
        return [KindProblem("other_measure", message, [nc.text.strip() for nc in numbers])]
    return []
