"""A part named, the whole answered: the question narrows a line item to one of its parts
('membership fee revenue', 'accrued interest payable', 'services gross margin') and the evidence
prints that part on a row of its own, but the answer never names it, so its figure is the whole
item's (total revenue's growth for membership fees' growth, interest expense for the accrued
interest owed). The qualifier and the rule that it must be a row label are the lexicon's
(`lexicon.qualifiers`); the judge only checks the answer names what the question narrowed to.
"""

from __future__ import annotations

from collections.abc import Sequence

from finqa.agents.judge import _lex
from finqa.agents.judge.context import Context
from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.named_line import another_line
from finqa.agents.judge.numeric import NumberCheck
from finqa.agents.judge.text import without_notes
from finqa.lexicon.dimension_question import named_brands
from finqa.lexicon.metrics import METRICS, metric_key
from finqa.lexicon.named_line import line_caption, line_words
from finqa.lexicon.qualifiers import named_part, row_labels
from finqa.lexicon.statements.catalogue import item_for_label

__all__ = ["part_not_named", "brand_not_named", "cause_not_named", "line_not_named"]


def part_not_named(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the question names a part of a line item that an evidence row is
    labelled with and the answer's text never names that part; its figures become unverified."""
    if not numbers:
        return []
    labels = [label for src in ctx.view.sources for label in row_labels(src.text)]
    found = named_part(ctx.question, labels)
    if found is None:
        return []
    qualifier, spelling = found
    if f" {spelling} " in f" {metric_key(ctx.text)} ":
        return []
    part = f"{' '.join(qualifier.words)} {qualifier.mention}"
    message = (
        f"the question asks for {part!r}, a line of its own in the evidence ('{spelling}'); "
        f"the answer never names it, so its figure is another line's"
    )
    return another_line(message, numbers, "part_named")


def brand_not_named(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the question asks a figure of a brand, business or subsidiary of the
    company ('did Sikorsky contribute', 'Boeing Global Services') and the answer names it
    nowhere, neither in words nor by its initials ('AWS'): its figure is the company's."""
    spellings = named_brands(ctx.question)
    if not numbers or not spellings:
        return []
    said = f" {metric_key(ctx.text)} "
    for words in spellings:
        initials = "".join(w[0] for w in words)
        if all(f" {w} " in said for w in words) or (len(words) > 1 and f" {initials} " in said):
            return []
    name = " ".join(spellings[0])
    message = (
        f"the question asks a figure of {name!r}, a business of the company, and the answer "
        "never names it: its figure is the company's"
    )
    return another_line(message, numbers, "brand_part")


def cause_not_named(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the question asks the part of a line it names by a cause ('the
    provisional tax expense as a result of the TCJ Act', `QuestionAsk.for_cause`) and the
    answer's own words never name that cause: its figure is the line's total, or another
    part's."""
    cause = ctx.intent.ask.for_cause
    if not numbers or not cause:
        return []
    words = [w for w in metric_key(cause).split() if len(w) > 2 or w.isdigit()]
    if words and _names_half(words, _own_words(ctx)):
        return []
    message = (
        f"the question asks the amount for {cause!r}, a part of the line it names; the answer "
        "never names that cause, so its figure is the line's total or another part's"
    )
    return another_line(message, numbers, "cause_part")


def line_not_named(ctx: Context, numbers: Sequence[NumberCheck]) -> list[KindProblem]:
    """A problem when the question names a line as a line ('a line called Other operating
    (income) expense, net', "McDonald's nonoperating line": `lexicon.named_line.line_words`)
    and the answer's own words name under half of its words: its figures are another line's
    (net income's change for the nonoperating line's side)."""
    opening = _opening(ctx)
    words = line_words(opening)
    if not numbers or not words or ctx.abstained:
        return []
    recipe = METRICS.get(ctx.intent.ask.recipe or "")
    if recipe is not None and recipe.is_derived:
        return []  # the line is an operand of the measure asked ('its tax line ... the rate')
    said = _own_words(ctx)
    if _names_half(words, said):
        return []
    item = item_for_label(line_caption(opening) or "")
    if item is not None and any(f" {metric_key(t)} " in said for t in _lex.metric_terms(item)):
        return []  # the answer names the catalogue item the caption is a line of
    message = (
        f"the question asks about the line of {' '.join(words)!r}; the answer never names it, "
        "so its figures are another line's"
    )
    return another_line(message, numbers, "line_named")


def _opening(ctx: Context) -> str:
    """The question up to the end of its first part (its premise and first ask): a line a
    later part names ('..., and how much 'dual credit' sales were eliminated?') is that part's
    subject, checked by the parts' own facets."""
    question, parts = ctx.question, ctx.intent.parts.parts
    if len(parts) < 2:
        return question
    at = question.find(parts[0].text)
    return question[: at + len(parts[0].text)] if at >= 0 else question


def _own_words(ctx: Context) -> str:
    """The answer's own words (finqa's notes left out) as `metric_key` words, space-bounded."""
    return f" {metric_key(without_notes(ctx.text))} "


def _names_half(words: Sequence[str], said: str) -> bool:
    """The answer's words (`_own_words`) hold at least half of `words`."""
    return 2 * sum(f" {w} " in said for w in words) >= len(words)
