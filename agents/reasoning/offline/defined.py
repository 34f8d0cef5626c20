"""A measure the question defines by arithmetic over named lines, computed as defined.

'Pre-provision profit (total net revenue minus total noninterest expense)' is that difference,
each line read by the catalogue's reader for the years asked (and its growth or change where
asked), with the formula stated in the answer; never the catalogue metric the measure's name
resembles (net income). A named line the catalogue has no item for, or one the evidence does
not show, makes an abstention that names it.
"""

from __future__ import annotations

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.explain import fmt_unit
from finqa.agents.reasoning.offline.solver import Solution, solve_with
from finqa.lexicon.defined_measure import DefinedMeasure, defined_measure, same_measure
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import formula_recipe

__all__ = ["DEFINED", "asked_definition", "defined_solution", "defined_clause"]

DEFINED = "defined_measure"  # the recipe id of a measure computed by the question's definition
_AGGREGATES = ("single", "growth", "change")


def asked_definition(question: str, spec: QuestionAsk) -> DefinedMeasure | None:
    """The measure the question defines, when it is the figure asked and the catalogue metric
    read for the ask is not that measure; else None."""
    measure = defined_measure(question)
    if measure is None or same_measure(measure, spec.recipe):
        return None
    if spec.operator is not None or spec.aggregate not in _AGGREGATES or not spec.agg_years:
        return None
    return measure


def defined_solution(measure: DefinedMeasure, spec: QuestionAsk, book: Book) -> Solution | None:
    """The defined measure computed from its lines, or None when a line is not read."""
    formula = measure.formula
    if formula is None:
        return None
    recipe = formula_recipe(DEFINED, measure.name or "the measure defined", formula, "USD")
    return solve_with(spec, book, recipe) if recipe is not None else None


def defined_clause(sol: Solution, measure: DefinedMeasure | None, spec: QuestionAsk) -> str:
    """How the answer states the question's definition, with the measure's amount in each
    period of a movement; '' for any other solution."""
    if sol.recipe.id != DEFINED or measure is None:
        return ""
    name = measure.name or "the measure"
    levels = ""
    if len(sol.per_year) == 2 and sol.unit != "USD":
        scale = sol.calculation.operands[0].scale if sol.calculation.operands else 1.0
        levels = " " + " and ".join(
            f"{fmt_unit(v, 'USD', scale)} in {spec.period_label(y)}"
            for y, v in sol.per_year.items()
        )
        levels = f" {name[:1].upper()}{name[1:]} was{levels}."
    return (
        f"{levels} The question defines {name} as {measure.written()}: computed as defined, "
        "from those lines, not from a catalogue metric of a similar name."
    )
