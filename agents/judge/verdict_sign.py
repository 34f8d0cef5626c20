"""A yes/no verdict agrees with the figure it quotes as its basis: 'Did X generate positive cash
flow from operations?' answered 'Yes' beside a negative figure, or 'Did X's margin improve?'
answered 'Yes' beside a decline, contradicts itself and is not accepted; nor is a Yes / No to
whether an item improved where its definition fixes no favourable direction ('Did X's days
payable outstanding improve?': `QuestionAsk.open_direction`).

What the question tests comes from the lexicon's one reading of it (`QuestionAsk`): a sign
('positive ...?': `wants_positive`) or a direction (up / down: `direction`; not where it asks
a judgement over a threshold, 'Is X a high-growth company?'). The figure is the
answer's own as its text states it (a recorded calculation may be of another figure): the first
amount after the verdict (signed as written: '-$1,561 million', '$(1,234) million', 'negative
$5 million'; an unsigned amount given for a caption that names an outflow, 'net cash used in
operating activities of $2.9 billion', is money out); for a direction, a movement it states
('from 40.1% ... to 38.2%'). Where the answer gives no such figure the check says nothing (the basis check judges a verdict resting on
sentences).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.types import Answer
from finqa.lexicon.answer_form import names_outflow
from finqa.lexicon.comparison import Comparison, item_comparison
from finqa.lexicon.intent import leading_yes_no

__all__ = ["verdict_against_figure"]

Test = Literal["positive", "up", "down"]
_NEGATIVE_WORD = re.compile(r"\bnegative\s*$", re.I)
_FROM = re.compile(r"\bfrom\s*$", re.I)
_TO = re.compile(r"^\W*(?:\w+\W+){0,6}?to\s*$", re.I)
_AMOUNT_UNITS = frozenset({"USD", ""})
_CAPTION_REACH = 120  # characters before a figure read for the caption it is given for


def verdict_against_figure(
    ctx: Context, answer: Answer, numbers: Sequence[NumberCheck]
) -> list[KindProblem]:
    """A problem when the answer's leading Yes / No contradicts the sign or the direction of the
    figure it gives for what the question tests; [] otherwise."""
    ask = ctx.intent.ask
    end = leading_yes_no(ctx.text)
    if ctx.abstained or not ask.is_yes_no or end is None:
        return []
    if ask.open_direction:
        return [_open_verdict(ctx, end)]
    compared = item_comparison(ctx.question)
    if compared is not None:
        return _comparison_verdict(ctx, numbers, compared, end)
    up, down = ask.direction
    test: Test
    side = _side_asked(ctx)
    if ask.wants_positive:
        test = "positive"
    elif up != down and not _judgement(ctx.question):
        test = "up" if up else "down"
    elif side is not None:
        test = "positive"  # the figure's economic sign says which side it is on
    else:
        return []
    found = _figure(ctx, numbers, test, end)
    if found is None or not found[0]:
        return []
    value, shown = found
    if side is not None and not ask.wants_positive and not any(ask.direction):
        # 'Did X record an income tax expense?': Yes holds for a figure on the item's own side
        holds = value > 0 if side else value < 0
        yes = ctx.text[:end].strip().lower().endswith("yes")
        if holds == yes:
            return []
        on = "its own side" if value > 0 else "the other side"
        message = (
            f"the answer says '{'Yes' if yes else 'No'}' to whether the line was on the side the "
            f"question names, but the figure it gives as its basis, {shown}, is on {on} of the "
            "line: the verdict contradicts its own figure"
        )
        return [KindProblem("verdict_sign", message, [shown])]
    holds = value > 0 if test in ("positive", "up") else value < 0
    yes = ctx.text[:end].strip().lower().endswith("yes")
    if holds == yes:
        return []
    what = {
        "positive": ("is positive", "negative" if value < 0 else "positive"),
        "up": ("went up", "a decline" if value < 0 else "a rise"),
        "down": ("went down", "a rise" if value > 0 else "a decline"),
    }[test]
    message = (
        f"the answer says '{'Yes' if yes else 'No'}' to whether it {what[0]}, but the figure it "
        f"gives as its basis, {shown}, is {what[1]}: the verdict contradicts its own figure"
    )
    return [KindProblem("verdict_sign", message, [shown])]


def _side_asked(ctx: Context) -> bool | None:
    """A yes/no question naming one side of the asked item's line ('Did X record an income tax
    expense?'): whether the side named is the item's own way (`lexicon.sides.side_named`)."""
    from finqa.lexicon.metrics import METRICS
    from finqa.lexicon.sides import side_named

    item = METRICS.get(ctx.intent.ask.recipe or ctx.intent.ask.metric or "")
    return side_named(ctx.intent.asked_text, item.nature) if item is not None else None


def _comparison_verdict(
    ctx: Context, numbers: Sequence[NumberCheck], compared: Comparison, end: int
) -> list[KindProblem]:
    """'Did A grow faster than B?': the Yes / No against the two figures the answer states
    after it, recomputed here from the answer's own operands (each movement 'from X to Y' as a
    relative change of magnitudes; each level as a magnitude), not from its stated rates."""
    shown: list[tuple[float, str]] = []
    if compared.movement:
        for a, b in _movements(ctx.text, numbers, end)[:2]:
            base = abs(_base(a))
            if base == 0:
                return []
            shown.append(
                ((abs(_base(b)) - base) / base, f"from {a.text.strip()} to {b.text.strip()}")
            )
    else:
        for nc in sorted(numbers, key=lambda n: n.start):
            q = nc.quantity
            if nc.start >= end and q is not None and str(q.unit or "") == "USD":
                shown.append((abs(_base(nc)), nc.text.strip()))
    if len(shown) < 2:
        return []
    (first, one), (second, other) = shown[:2]
    holds = first > second if compared.greater else first < second
    yes = ctx.text[:end].strip().lower().endswith("yes")
    if holds == yes or first == second:
        return []
    message = (
        f"the answer says '{'Yes' if yes else 'No'}', but the figures it states ({one}; "
        f"{other}) put the first on the other side of the comparison asked: the verdict "
        "contradicts its own figures"
    )
    return [KindProblem("verdict_sign", message, [one, other])]


def _open_verdict(ctx: Context, end: int) -> KindProblem:
    """A Yes / No to whether an item improved or weakened when its definition fixes no way that
    is good for the company (a longer days payable outstanding, a lower effective tax rate):
    the verdict states what the figures cannot; the movement answers the question."""
    said = ctx.text[:end].strip().rstrip(".,:;!").split()[-1].capitalize()
    what = (ctx.intent.ask.metric or "the item asked").replace("_", " ")
    return KindProblem(
        "open_verdict",
        f"the answer says '{said}' to whether {what} improved or weakened, but its definition "
        "fixes no direction that is good for the company: state the movement (both figures) "
        "without a Yes / No of its own",
    )


def _judgement(question: str) -> bool:
    """The question asks a judgement over a threshold ('a high-growth company', 'capital
    intensive', 'a healthy quick ratio'), not whether a figure went up or down: a 'No' beside
    revenue growth of 7% a year is the judgement's, not a direction."""
    from finqa.lexicon import intent
    from finqa.lexicon.judgements import asked_judgements

    return bool(
        asked_judgements(question)
        or intent.asks_high_growth(question)
        or intent.asks_evaluation(question)
    )


def _figure(
    ctx: Context, numbers: Sequence[NumberCheck], test: Test, end: int
) -> tuple[float, str] | None:
    """(value, as shown) of the figure the verdict rests on, as the answer's text states it after
    the verdict, or None (a recorded calculation alone may be of another figure: the working
    capital question's answer may carry a ratio's calculation beside it)."""
    if test == "positive":
        for nc in sorted(numbers, key=lambda n: n.start):
            q = nc.quantity
            if nc.start < end or q is None or str(q.unit or "") not in _AMOUNT_UNITS:
                continue
            value = float(q.value)
            if value > 0 and _NEGATIVE_WORD.search(ctx.text[max(0, nc.start - 12) : nc.start]):
                value = -value
            elif value > 0 and names_outflow(_same_sentence(ctx.text, nc.start)):
                value = -value  # 'net cash used in operating activities of $2.9 billion
            return value, nc.text.strip()
        return None
    return _stated_movement(ctx.text, numbers, end)


def _same_sentence(text: str, start: int) -> str:
    """The answer's words before `start` in its sentence (the caption a figure is given for)."""
    before = text[max(0, start - _CAPTION_REACH) : start]
    return re.split(r"[.;]\s", before)[-1]


def _stated_movement(
    text: str, numbers: Sequence[NumberCheck], end: int
) -> tuple[float, str] | None:
    """The first movement the answer states after its verdict: 'from A ... to B' (A and B in
    one unit) as B - A."""
    for a, b in _movements(text, numbers, end)[:1]:
        return _base(b) - _base(a), f"from {a.text.strip()} to {b.text.strip()}"
    return None


def _movements(
    text: str, numbers: Sequence[NumberCheck], end: int
) -> list[tuple[NumberCheck, NumberCheck]]:
    """The movements the answer states after its verdict, in order: 'from A ... to B' (A and B
    in one unit)."""
    ordered = [n for n in sorted(numbers, key=lambda n: n.start) if n.quantity is not None]
    out = []
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.start < end or str(a.quantity.unit or "") != str(b.quantity.unit or ""):
            continue
        if _FROM.search(text[max(0, a.start - 8) : a.start]) and _TO.search(text[a.end : b.start]):
            out.append((a, b))
    return out


def _base(nc: NumberCheck) -> float:
    """The figure in base units ('$1.2 billion' and '$900 million' compared as amounts)."""
    return float(nc.quantity.value) * float(nc.quantity.scale or 1.0)
