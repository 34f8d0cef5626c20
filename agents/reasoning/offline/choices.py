"""A choice among line items the question lists: 'Among operations, investing and financing
activities, which brought in the most cash flow in FY2023?', 'Among cost of sales, SG&A and R&D,
which was the largest expense?'.

Each listed option is read as a catalogue metric (`lexicon.find_metrics`): the option as
written, then with the head noun the list shares ('operations, investing and financing
activities': 'investing activities'), then as the measure the question applies to every option
('cash flow ... from operations'). Every option must be a distinct amount the statements hold
for the year asked; the answer names the highest or lowest (`lexicon.intent.asked_extreme`) with
every option's figure and one re-executable max()/min() calculation. An option the catalogue
does not know, or a figure the statements lack, gives no verdict (None: the caller goes on).
"""

from __future__ import annotations

from dataclasses import replace

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.solver import Solution, citations_for, solve
from finqa.agents.reasoning.offline.verdict_kit import Reader, money, source_order, verdict
from finqa.agents.types import Answer
from finqa.lexicon import find_metrics, intent
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import get_recipe

__all__ = ["line_item_choice", "option_metrics"]


def _metric_of(text: str, exclude: set[str]) -> str | None:
    """The first catalogue metric with an amount recipe that the text names (not `exclude`)."""
    for m in find_metrics(text):
        recipe = get_recipe(m.canonical)
        if m.canonical not in exclude and recipe is not None and recipe.unit == "USD":
            return str(m.canonical)
    return None


def option_metrics(question: str) -> list[tuple[str, str]] | None:
    """(option as written, catalogue metric) for every option the question lists; None when
    it lists fewer than two or the catalogue does not know one of them."""
    options = intent.choice_options(question)
    if len(options) < 2:
        return None
    listed = [m for m in find_metrics(question) if any(m.matched in o for o in options)]
    measures = [
        m
        for m in find_metrics(question)
        if m not in listed and not any(m.matched in o for o in options)
    ]
    measure = measures[0] if measures else None
    skip = {str(measure.canonical)} if measure is not None else set()
    head = " ".join(options[-1].split()[1:])  # 'financing activities' -> 'activities'
    out: list[tuple[str, str]] = []
    for option in options:
        tries = [option]
        if head and not option.endswith(head):
            tries.append(f"{option} {head}")
        if measure is not None:
            tries.append(f"{measure.matched} from {option}")
        mid = next((m for t in tries if (m := _metric_of(t, skip)) is not None), None)
        if mid is None:
            return None
        out.append((option, mid))
    if len({m for _, m in out}) != len(out):
        return None  # two options read as one line item: no choice between them
    return out


def line_item_choice(question: str, spec: QuestionAsk, book: Book, strategy: str) -> Answer | None:
    """The listed line item with the highest or lowest figure for the year asked, or None."""
    extreme = intent.asked_extreme(question)
    y = spec.target_year
    if extreme is None or y is None:
        return None
    pairs = option_metrics(question)
    if pairs is None:
        return None
    sols: list[tuple[str, Solution]] = []
    for option, mid in pairs:
        one = replace(spec, recipe=mid, agg_years=(y,), aggregate="single", target_year=y)
        sol = solve(one, book)
        if sol is None or sol.unit != "USD" or not sol.scale_known:
            return None
        sols.append((option, sol))
    if len({sol.scale for _, sol in sols}) != 1:
        return None  # figures in different scales are not compared by their printed values
    reader = Reader()
    reader.scale = sols[0][1].scale
    for _, sol in sols:
        for op in sol.calculation.operands:
            reader.operands.append(op)
            reader.values[op.name] = op.value
        reader.cites.extend(c for c in citations_for(sol) if c not in reader.cites)
    fn = "max" if extreme == "highest" else "min"
    exprs = ", ".join(sol.calculation.expression for _, sol in sols)
    calc = reader.calc(f"{fn}({exprs})", "USD", f"{extreme} of the listed line items, FY{y}")
    if calc is None:
        return None
    values = {option: sol.value for option, sol in sols}
    pick = (
        max(values, key=lambda o: values[o])
        if fn == "max"
        else min(values, key=lambda o: values[o])
    )
    if sum(1 for v in values.values() if v == values[pick]) > 1:
        return None  # a tie names no single option
    names = {option: sol.recipe.name for option, sol in sols}
    others = "; ".join(
        f"{names[o]}: {money(v, reader.scale)}" for o, v in values.items() if o != pick
    )
    refs = "".join(f"[{s}]" for s in source_order(c.source_id for c in reader.cites))
    text = (
        f"{pick[:1].upper()}{pick[1:]}. In FY{y}, {names[pick]} was the {extreme} of those "
        f"listed: {money(values[pick], reader.scale)} ({others}) {refs}. "
        f"Computed by finqa as {calc.expression}."
    )
    return verdict(text, reader, [calc], strategy, "verdict")
