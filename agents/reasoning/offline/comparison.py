"""The comparison family: one line item's figure against another's ('Did A grow faster than B
in 2018?', 'Was A higher than B?', 'Did A exceed B?': `lexicon.comparison`).

Each side names one catalogue item (`lexicon.recipes.match_asked_metric` over its own words),
the two different and of one period type (a balance against a flow compares nothing). Each is
computed by the metric path's own solver (`solve`), so a side keeps its catalogue conventions
(every cost-of-revenue line summed where a filer splits them): its growth from the year before
to the asked year where the question compares movements, else its figure for the asked year.
Levels are compared as magnitudes (a cost printed in parentheses is a cost); a level printed
with the other sign than its side's, or a growth from a base of the other sign, gives no verdict.
The answer leads with 'Yes.' / 'No.', states both figures with their years, lines and pages, and
carries both Calculations. Any side not read: no verdict (the caller's usual path).
"""

from __future__ import annotations

from dataclasses import replace

from finqa.agents.reasoning.confidence import confidence_signals
from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.explain import fmt_unit
from finqa.agents.reasoning.offline.solver import Solution, citations_for, solve
from finqa.agents.reasoning.offline.verdict_kit import offline_answer, source_order
from finqa.agents.types import Answer, Evidence
from finqa.lexicon.comparison import item_comparison
from finqa.lexicon.metrics import METRICS
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import get_recipe, match_asked_metric

__all__ = ["item_comparison_answer"]


def item_comparison_answer(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """'Yes' / 'No' with both items' figures, or None (module docstring)."""
    if not ask.is_yes_no or ask.target_year is None or ask.sub_annual or ask.adjusted:
        return None
    cmp = item_comparison(question)
    if cmp is None:
        return None
    sides = [_side_metric(cmp.left), _side_metric(cmp.right)]
    a, b = sides
    if a is None or b is None or a == b:
        return None
    types = {METRICS[m].period_type for m in (a, b) if m in METRICS}
    if len(types) > 1:
        return None  # a balance against a flow
    book = book if book is not None else Book(evidence)
    y = ask.target_year
    first = _solve_side(a, ask, book, y, cmp.movement)
    second = _solve_side(b, ask, book, y, cmp.movement)
    if first is None or second is None:
        return None
    solved = (first, second)
    va, vb = _compared(first, cmp.movement), _compared(second, cmp.movement)
    if va is None or vb is None:
        return None
    yes = va > vb if cmp.greater else va < vb
    word = _word(va, vb, cmp.movement)
    text = (
        f"{'Yes' if yes else 'No'}. {_said(first, cmp.movement)}, {word} "
        f"{_said(second, cmp.movement, other=True)}. "
        + " ".join(
            f"{s.calculation.description[:1].upper()}{s.calculation.description[1:]}: computed "
            f"by finqa as {s.calculation.expression} {_refs(s)}."
            for s in solved
        )
        + f" Answer: {'Yes' if yes else 'No'} ({_figure(first, cmp.movement)} against "
        f"{_figure(second, cmp.movement)})."
    )
    cites = tuple(dict.fromkeys(c for s in solved for c in citations_for(s)))
    conf = confidence_signals(text, cited=bool(cites), base=0.8)
    conf["mode"] = "verdict"
    return offline_answer(
        text, strategy, conf, citations=cites, calculations=tuple(s.calculation for s in solved)
    )


def _side_metric(words: str) -> str | None:
    """The catalogue item (with a recipe) one side names, or None."""
    found = match_asked_metric(words)
    if found is None or get_recipe(found[0]) is None:
        return None
    return found[0]


def _solve_side(
    metric: str, ask: QuestionAsk, book: Book, year: int, moved: bool
) -> Solution | None:
    recipe = get_recipe(metric)
    if recipe is None or (moved and recipe.unit != "USD"):
        return None  # a ratio's growth is no figure the catalogue defines
    side = replace(
        ask,
        metric=metric,
        recipe=metric,
        aggregate="growth" if moved else "single",
        agg_years=(year - 1, year) if moved else (year,),
        is_yes_no=False,
        wants_positive=False,
        direction=(False, False),
        open_direction=False,
        change_form="percent" if moved else None,
        operator=None,
        operands=(None, None),
        variant=None,
        named_line=None,
        asks_side=False,
        percent=moved,
    )
    sol = solve(side, book)
    if sol is None or sol.implausible or (sol.unit == "USD" and not sol.scale_known):
        return None
    return sol


def _compared(sol: Solution, moved: bool) -> float | None:
    """The figure compared: a growth from a base of the same sign, a level's magnitude."""
    if moved:
        levels = list(sol.per_year.values())
        if len(levels) != 2 or levels[0] == 0 or (levels[0] > 0) != (levels[1] > 0):
            return None
        return sol.value
    return abs(sol.value) if sol.unit == "USD" else sol.value


def _word(va: float, vb: float, moved: bool) -> str:
    if va == vb:
        return "the same as"
    if moved:
        return "faster than" if va > vb else "slower than"
    return "more than" if va > vb else "less than"


def _figure(sol: Solution, moved: bool) -> str:
    if moved:
        return f"{sol.value:.1f}%"
    value = abs(sol.value) if sol.unit == "USD" else sol.value
    return fmt_unit(value, sol.unit, sol.scale)


def _said(sol: Solution, moved: bool, other: bool = False) -> str:
    name = sol.recipe.name
    if moved:
        (y0, v0), (y1, v1) = sol.per_year.items()
        scale = sol.calculation.operands[0].scale if sol.calculation.operands else sol.scale
        head = f"{name}, which grew" if other else f"{name[:1].upper()}{name[1:]} grew"
        if sol.value < 0:
            head = head.replace("grew", "changed")
        return (
            f"{head} {_figure(sol, moved)} from {fmt_unit(abs(v0), 'USD', scale)} in FY{y0} "
            f"to {fmt_unit(abs(v1), 'USD', scale)} in FY{y1}"
        )
    if other:
        return f"{name} ({_figure(sol, moved)})"
    y = next(iter(sol.per_year), None)
    when = f" in FY{y}" if y is not None else ""
    return f"{name[:1].upper()}{name[1:]}{when} was {_figure(sol, moved)}"


def _refs(sol: Solution) -> str:
    return "".join(f"[{s}]" for s in source_order(c.source_id for c in citations_for(sol)))
