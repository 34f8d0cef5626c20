"""Verdicts: the question families over statement line items, tried in order.

Each family maps a question to catalogue line items and metrics (`lexicon/data`), reads the
rows it needs from the evidence (`Book`) and answers with a leading verdict ('Yes.' / 'No.' /
the choice / the amount), the figures behind it, the cited pages and a re-executable
Calculation; it returns None when the question is not of its form or the rows are not all
there (the caller then falls back to its usual path, which abstains on yes/no questions it
cannot derive, saying what it looked for).

- applicability, consistency, period extreme, growth profile: families.py;
- comparison across segments: segments.py;
- one line item's figure or growth against another's ('Did A grow faster than B?'):
  comparison.py;
- whether one flow covered others (operating cash flow against capex and dividends):
  coverage.py;
- whether a line item is reported for a year (dividends paid, restructuring costs, ...):
  existence.py;
- a catalogue judgement of ratios of line items, named by its phrases (`judgements.yaml`:
  capital-intensive = capital expenditure at least 8% of revenue): `ratio_judgement`;
- an evaluation of a computed metric ('healthy quick ratio'): the catalogue's judgement of
  that metric, as the metric answer's lead (`metric_lead`);
- a choice among line items the question lists: choices.py.
"""

from __future__ import annotations

from finqa.agents.reasoning.offline.book import Book
from finqa.agents.reasoning.offline.choices import line_item_choice
from finqa.agents.reasoning.offline.comparison import item_comparison_answer
from finqa.agents.reasoning.offline.conventions import judgement_conventions
from finqa.agents.reasoning.offline.coverage import coverage
from finqa.agents.reasoning.offline.existence import existence
from finqa.agents.reasoning.offline.families import (
    applicability,
    consistency,
    growth_profile,
    period_extreme,
)
from finqa.agents.reasoning.offline.segments import segment_comparison
from finqa.agents.reasoning.offline.verdict_kit import (
    Reader,
    verdict,
)
from finqa.agents.types import Answer, Calculation, Evidence
from finqa.lexicon import intent
from finqa.lexicon.judgements import Judgement, asked_judgements, judgements
from finqa.lexicon.question_ask import QuestionAsk
from finqa.lexicon.recipes import recipe_aliases

__all__ = ["verdict_answer", "metric_lead", "ratio_judgement"]


def verdict_answer(
    question: str, evidence: Evidence, strategy: str, book: Book | None, ask: QuestionAsk
) -> Answer | None:
    """A family's verdict answer, or None (no family applies, or its rows are missing).

    `book`: the rows already read for this evidence (with the statement model when the backend
    has one); read from the evidence text when not given."""
    q = " ".join(question.split())
    book = book if book is not None else Book(evidence)
    families = (
        applicability,
        consistency,
        period_extreme,
        growth_profile,
        segment_comparison,
        item_comparison_answer,
        coverage,
        existence,
    )
    for family in families:
        ans = family(q, evidence, strategy, book, ask)
        if ans is not None:
            return ans
    spec = ask
    for j in asked_judgements(q) if spec.is_yes_no and spec.target_year else ():
        if all(t.numerator and t.denominator for t in j.tests):
            ans = ratio_judgement(j, spec, book, strategy, q)
            if ans is not None:
                return ans
    if spec.choice and spec.target_year:
        # 'Among A, B and C, which was the largest ...': the listed line items' figures
        chosen = line_item_choice(q, spec, book, strategy)
        if chosen is not None:
            return chosen
    return None


def metric_lead(question: str, spec: QuestionAsk, recipe_id: str, value: float) -> str:
    """A leading verdict for a computed metric ('Yes. ' / 'No. '), or '' when none applies: a
    yes/no question asking for an evaluation ('healthy', 'strong', 'adequate') of a metric the
    catalogue judges (`lexicon/data/judgements.yaml`, a test on that metric) gets the verdict
    of that test, with the threshold and the judgement's definition."""
    if not (spec.is_yes_no and intent.asks_evaluation(question)):
        return ""
    aliases = recipe_aliases()
    for j in judgements().values():
        for test in j.tests:
            if test.metric is None or recipe_id not in (test.metric, aliases.get(test.metric)):
                continue
            ok = test.passes(value)
            unit = "%" if test.percent else ""
            return (
                f"{'Yes' if ok else 'No'}. A {test.name} of {value:.2f}{unit} is "
                f"{'at or above' if ok else 'below'} {test.threshold:g}{unit} (rule, "
                f"{j.name}: {j.definition}). "
            )
    return ""


def ratio_judgement(
    j: Judgement, spec: QuestionAsk, book: Book, strategy: str, question: str = ""
) -> Answer | None:
    """A catalogue judgement over ratios of line items (`lexicon/data/judgements.yaml`) for the
    question's fiscal year: 'Yes' / 'No' with each ratio, its threshold and the definition.
    Rule 'any': Yes when a ratio reaches its threshold, No only when every ratio was read."""
    y = spec.target_year or 0
    reader = Reader()
    calcs = []
    shares: list[str] = []
    passed: list[bool] = []
    others = ""
    variant_calcs: list[Calculation] = []
    for test in j.tests:
        if test.numerator is None or test.denominator is None:
            continue  # a metric test is read by the metric path
        num, den = book.find(test.numerator, y), book.find(test.denominator, y)
        if num is None or den is None or not den.value:
            continue
        a = reader.add(f"{test.numerator}_fy{y}", num.row, y)
        b = reader.add(f"{test.denominator}_fy{y}", den.row, y)
        pct = " * 100" if test.percent else ""
        unit = "%" if test.percent else "ratio"
        calc = reader.calc(
            f"abs({a}) / {b}{pct}", unit, f"FY{y} {test.name}{' (%)' if pct else ''}"
        )
        if calc is None:
            continue
        calcs.append(calc)
        mark = "%" if test.percent else ""
        shares.append(f"{test.name} = {calc.result:.1f}{mark} (threshold {test.threshold:g}{mark})")
        passed.append(test.passes(calc.result))
        if question:  # the ratio by the metric's other recognised definitions (lexicon.variants)
            found = judgement_conventions(question, spec, book, test)
            others += found.clause
            variant_calcs.extend(found.calculations)
    if reader.scale_unknown or not calcs:
        return None
    complete = len(calcs) == sum(1 for t in j.tests if t.numerator and t.denominator)
    if j.rule == "any":
        yes = any(passed)
        decided = yes or complete  # a 'No' needs every ratio read
    else:
        yes = complete and all(passed)
        decided = complete or not all(passed)  # a 'Yes' needs every ratio read
    if not decided:
        return None
    text = (
        f"{'Yes' if yes else 'No'}. In FY{y}, {'; '.join(shares)} {reader.refs()}. "
        f"Rule ({j.name}): {j.definition}.{others}"
    )
    return verdict(text, reader, [*calcs, *variant_calcs], strategy, "verdict")
