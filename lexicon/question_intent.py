"""One reading of a question, typed: what it asks, read once by the lexicon for every agent.

`read_intent(question)` gathers what the lexicon's readers find in a question's words into one
frozen `QuestionIntent`: the query analysis (companies, periods, metrics, statements), the parts
it asks and the form of answer each wants (`question_parts`), the asked fiscal years, the
companies it names (and whose figures it asks, `owners`), the figures it states itself, the scale it asks amounts in, the aggregation
over years it names, its own definition clause, the form of a figure its wording asks for (a
change rather than a rate, a percentage, a margin or ratio beside an amount), and what it asks
of the figures (`ask`: the asked catalogue metric, its years and aggregation, unit and rounding,
`lexicon.question_ask`) — the reasoner computes that reading and the judge checks against it.

Agents consume this reading instead of parsing the question with patterns of their own, so the
judge and the reasoner read one question the same way. Cached per question text (frozen).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from finqa.lexicon._data import data_cache
from finqa.lexicon.answer_form import (
    Aggregate,
    ask_head,
    asked_aggregates,
    defines_metric,
    year_range,
)
from finqa.lexicon.intent import asks_change_amount, asks_share
from finqa.lexicon.numbers import Quantity, extract_quantities, question_scale
from finqa.lexicon.owners import Owner, asked_companies
from finqa.lexicon.part_choice import PartChoice, asked_part_choice
from finqa.lexicon.periods import find_periods, fiscal_naming, year_mentions
from finqa.lexicon.question_ask import QuestionAsk, read_ask
from finqa.lexicon.question_parts import QuestionParts, question_parts

if TYPE_CHECKING:  # pydantic is imported on first use, so `import lexicon` stays light
    from finqa.lexicon.model import QueryAnalysis

__all__ = ["FigureForm", "QuestionIntent", "read_intent", "read_intent_in", "asked_sentences"]

FigureForm = Literal["percent", "ratio"]

# the form of a figure the wording asks for, beside the asked metric's own unit
_PERCENT_ASKED = re.compile(r"%|\bpercent(?:age)?s?\b|\bproportion\b|\bper cent\b", re.I)
_ALSO_FORMS: tuple[tuple[FigureForm, re.Pattern[str]], ...] = (
    ("percent", re.compile(r"\bmargins?\b|\bchange\b|\bgrowth\b|\bgrew\b|\bcagr\b", re.I)),
    ("ratio", re.compile(r"\bratio\b|\bturnover\b|\btimes\b|\bcoverage\b", re.I)),
)


@dataclass(frozen=True)
class QuestionIntent:
    """What one question asks, as the lexicon reads it (every field from the question's words)."""

    question: str
    analysis: QueryAnalysis | None  # None when the lexicon could not analyse the question
    parts: QuestionParts  # each asked part with its form of answer, and conditional clauses
    asked_text: str  # the sentences that ask (end in '?'), else the whole question
    head: str  # the ask without its own definition clause ('X is defined as ...')
    years: tuple[int, ...]  # fiscal years named or resolved, ascending
    companies: tuple[str, ...]  # canonical names of the companies named, in order
    owners: tuple[Owner, ...]  # whose figures are asked: each named company, known or not
    stated: tuple[Quantity, ...]  # figures the question states itself ('above $1 billion')
    scale: float | None  # the scale amounts are asked in ('Answer in USD millions' -> 1e6)
    aggregates: tuple[Aggregate, ...]  # a three-year average, CAGR, change, growth over years
    year_range: tuple[int, int] | None  # 'FY2019 - FY2021'
    defines_metric: bool  # the question defines what it asks ('ROA is defined as ...')
    change_amount: bool  # 'by how much did X change': the movement, not a rate
    percent_asked: bool  # the asked sentences ask for a percentage
    also_forms: tuple[FigureForm, ...]  # forms an amount's wording also allows ('margin' -> %)
    share: bool  # a share of a whole ('what percentage of total revenue ...')
    ask: QuestionAsk  # the asked metric, its years and aggregation, unit and rounding
    # a choice among the parts of one breakdown by a measure ('which segment had the highest
    # operating income'), None when the question asks none
    part_choice: PartChoice | None = None

    @property
    def asks_movement(self) -> bool:
        """The question asks how a figure moved (a change or growth over years, a direction, a
        movement word in its ask), not one period's level."""
        from finqa.lexicon import movement

        ask = self.ask
        return (
            ask.aggregate != "single"
            or any(ask.direction)
            or bool(ask.change_over_prior)
            or bool(movement.pattern().search(movement.without_idioms(self.asked_text)))
        )

    @property
    def part_forms(self) -> tuple[str, ...]:
        """The form of answer of each asked part, in order."""
        return tuple(p.form for p in self.parts.parts)


def asked_sentences(question: str) -> str:
    """The sentences of the question that ask (end in '?'), else all of it."""
    asks = [s for s in re.split(r"(?<=[?.!])\s+", question) if s.rstrip().endswith("?")]
    return " ".join(asks) or question


def read_intent(question: str, fy_label: str | None = None) -> QuestionIntent:
    """The lexicon's one reading of `question` (cached per question text and naming).
    `fy_label` 'start': the filings in scope name their years by the calendar year a year
    starts in (`FilingIdentity.fy_label`, `periods.fiscal_naming`), so the question's
    own-naming 'fiscal 2023' is FY2024 and only the reading under that naming gives the years;
    None: the naming of the company the question names where the lexicon knows it (`ask`)."""
    return _read(question, fy_label if fy_label in ("start", "end") else None)


def read_intent_in(question: str, labels: Iterable[str | None]) -> QuestionIntent:
    """The reading of `question` over filings whose own fiscal-year naming is `labels`
    (`FilingIdentity.fy_label` of each evidence item): their naming when they agree, else the
    naming of the company the question names (`periods.fiscal_naming`)."""
    return read_intent(question, fiscal_naming(question, labels))


@data_cache(256)
def _read(question: str, fy_label: str | None = None) -> QuestionIntent:
    analysis = _analysis(question)
    ask = read_ask(question, fy_label)
    asked = asked_sentences(question)
    head = ask_head(question)
    named = (
        {p.fiscal_year for p in find_periods(question, fy_label=fy_label)}
        if fy_label == "start"
        else set()
    )
    years = {y for y in named if y is not None}
    if not years:
        years = {y for y, _s, _e in year_mentions(question)}
        if analysis is not None:
            years |= {int(y) for y in analysis.fiscal_years}
    return QuestionIntent(
        question=question,
        analysis=analysis,
        parts=question_parts(question),
        asked_text=asked,
        head=head,
        years=tuple(sorted(years)),
        companies=_companies(question),
        owners=asked_companies(question),
        stated=tuple(q for q in extract_quantities(question) if q.kind == "number"),
        scale=question_scale(question),
        aggregates=asked_aggregates(head, question),
        year_range=year_range(question),
        # its own definition, or a measure it spells out of lines that is not the metric the
        # ask names ('cash and cash equivalents plus marketable securities' is not cash)
        defines_metric=defines_metric(question) or _own_measure(question, ask.recipe),
        change_amount=asks_change_amount(asked),
        percent_asked=bool(_PERCENT_ASKED.search(asked)),
        also_forms=tuple(form for form, rx in _ALSO_FORMS if rx.search(asked)),
        share=asks_share(question),
        ask=ask,
        part_choice=asked_part_choice(question),
    )


def _own_measure(question: str, recipe: str | None) -> bool:
    """The ask spells its measure out of named lines (`lexicon.defined_measure`) that are not
    the lines of the catalogue metric it names."""
    from finqa.lexicon.defined_measure import defined_measure, same_measure

    measure = defined_measure(question)
    return measure is not None and not same_measure(measure, recipe)


def _analysis(question: str) -> QueryAnalysis | None:
    from finqa.lexicon.query import analyze

    try:
        return analyze(question)
    except Exception:  # noqa: BLE001 - the analysis only refines what agents read; they work without it
        return None


def _companies(question: str) -> tuple[str, ...]:
    from finqa.lexicon.entities import find_companies

    try:
        return tuple(dict.fromkeys(c.name for c in find_companies(question)))
    except Exception:  # noqa: BLE001 - company names only refine the reading; never fail on them
        return ()
