"""A movement of an amount stated in both forms: 'what was the year-over-year change in
operating income' is answered with the amount and the percent it moved by, and the two years'
figures, so a reader can check either; the headline is the form the question asks
(`QuestionAsk.change_form`; a bare 'change': `lexicon.answer_form.BARE_CHANGE_HEADLINE`, chosen
on company-grouped folds). The other form is computed by the same solver from the same facts and
recorded as a calculation of its own, so the judge re-executes both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.explain import fmt_unit
from finqa.agents.reasoning.offline.solver import Solution, format_value, solve
from finqa.agents.types import Calculation
from finqa.lexicon.question_ask import QuestionAsk

__all__ = ["BothForms", "both_forms"]


@dataclass(frozen=True)
class BothForms:
    """The other form's figure and calculation, and the sentence of the two years' figures."""

    other: str  # '16.0%' beside a '$987 million' headline, or the reverse
    calculation: Calculation
    years: str  # 'Operating income rose from $6,174 million in FY2019 to $7,161 million in FY2020.'


def both_forms(spec: QuestionAsk, sol: Solution, book: Book) -> BothForms | None:
    """The other form of a movement of an amount (None: not one, or not computable)."""
    if spec.change_form is None or spec.aggregate not in ("change", "growth"):
        return None
    if len(sol.per_year) != 2:
        return None
    other_spec = replace(spec, aggregate="growth" if spec.aggregate == "change" else "change")
    other = solve(other_spec, book)
    if other is None or len(other.per_year) != 2:
        return None
    usd = sol if sol.unit == "USD" else other
    (y0, v0), (y1, v1) = usd.per_year.items()
    name = sol.recipe.name
    first, last = fmt_unit(v0, "USD", usd.scale), fmt_unit(v1, "USD", usd.scale)
    # the way it moved in words, beside the signed figure ('fell from ... to ...')
    moved = "rose" if v1 > v0 else "fell" if v1 < v0 else "was unchanged"
    years = f"{name[:1].upper()}{name[1:]} {moved} from {first} in FY{y0} to {last} in FY{y1}."
    return BothForms(format_value(other, other_spec), other.calculation, years)
