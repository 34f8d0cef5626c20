"""The other recognised definitions of a metric answer's metric, computed from the same statements.

Where general practice defines a metric more than one way (`lexicon.variants`) and the question
states none, a metric answer names the definition its figure leads with and gives each other
definition's figure in one clause ('Convention: average inventory (the catalogue's definition);
year-end inventory gives 9.54 [S1][S2].'), each with its recorded calculation, so the user sees
both and the judge can re-execute them. The answer's leading figure and format are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.explain import fmt_unit
from finqa.agents.reasoning.offline.solver import Solution, citations_for, solve_with
from finqa.agents.reasoning.offline.verdict_kit import source_order
from finqa.agents.types import Calculation
from finqa.lexicon.judgements import RatioTest
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import variant_recipe
from finqa.lexicon.variants import Variant

__all__ = ["OtherConventions", "judgement_conventions", "other_conventions"]


@dataclass(frozen=True)
class OtherConventions:
    """The clause naming the leading definition and the others' figures, and their calculations."""

    clause: str = ""
    calculations: tuple[Calculation, ...] = ()


def other_conventions(
    question: str, spec: QuestionAsk, book: Book, sol: Solution
) -> OtherConventions:
    """Each other recognised definition's figure for the answer's metric (nothing when the
    question states its convention, or the metric has one definition)."""
    from finqa.lexicon.variants import read_variants

    reading = read_variants(sol.recipe.id, question)
    if not reading.ambiguous:
        return OtherConventions()
    ending = [v for v in reading.variants if v.basis == "ending"]
    lead = ending[0] if sol.basis == "year_end" and ending else reading.variants[0]
    primary = all(f.row.primary for f in sol.facts)
    return _others(reading.variants, lead, spec, book, sol.recipe.id, primary)


def judgement_conventions(
    question: str, spec: QuestionAsk, book: Book, test: RatioTest
) -> OtherConventions:
    """A yes/no judgement's ratio under each other recognised definition of its metric, with
    what the judgement concludes under it ('total assets / revenue gives 1.36 (no general
    threshold)'): the catalogue's own definition leads."""
    from finqa.lexicon import get_metric
    from finqa.lexicon.variants import read_variants

    metric = test.varies_as
    if metric is None:
        return OtherConventions()
    reading = read_variants(metric, question)
    if not reading.ambiguous:
        return OtherConventions()
    own = get_metric(metric).unit

    def conclude(name: str, unit: str, value: float) -> str:
        shown = value * 100.0 if test.percent and unit in ("ratio", "times") else value
        passed = test.passes_as(name, unit, own, shown)
        return " (no general threshold)" if passed is None else (" (Yes)" if passed else " (No)")

    return _others(reading.variants, reading.variants[0], spec, book, metric, True, conclude)


def _others(
    variants: Sequence[Variant],
    lead: Variant,
    spec: QuestionAsk,
    book: Book,
    metric: str,
    primary: bool,
    conclude: Callable[[str, str, float], str] | None = None,
) -> OtherConventions:
    """The clause: the leading definition named, each other's figure (read from the primary
    statements when the leading figure was) with its calculation."""
    said: list[str] = []
    calcs: list[Calculation] = []
    for variant in variants:
        if variant == lead:
            continue
        recipe = variant_recipe(metric, variant.formula, variant.unit)
        other = None if recipe is None else solve_with(spec, book, recipe)
        if other is None or (primary and not all(f.row.primary for f in other.facts)):
            continue  # read from the statements themselves, as the leading figure was
        refs = "".join(f"[{s}]" for s in source_order(c.source_id for c in citations_for(other)))
        after = conclude(variant.name, other.unit, other.value) if conclude else ""
        said.append(f"{variant.name} gives {_figure(other)}{after} {refs}".rstrip())
        calcs.append(other.calculation)
    if not said:
        return OtherConventions()
    if lead.is_default:
        own = "the catalogue's definition"
    elif lead == variants[0]:
        own = "over the line items the question names"
    else:
        own = "year-end balances only"
    clause = f" Convention: {lead.name} ({own}); " + "; ".join(said) + "."
    return OtherConventions(clause, tuple(calcs))


def _figure(sol: Solution) -> str:
    """The figure by year where two years are compared, else the one figure."""
    if len(sol.per_year) == 2:
        (y0, v0), (y1, v1) = sol.per_year.items()
        return (
            f"{fmt_unit(v0, sol.unit, sol.scale)} in FY{y0} and "
            f"{fmt_unit(v1, sol.unit, sol.scale)} in FY{y1}"
        )
    return fmt_unit(sol.value, sol.unit, sol.scale)
