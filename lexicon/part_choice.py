"""A choice among the parts of one breakdown: 'Which of JPM's business segments had the lowest
net revenue in 2021 Q1?', 'which geographic region had the biggest drop in year-over-year
revenues (on a percentage basis)?', 'in which reporting segment did sales proportionally
increase the most (excluding Embedded)?', 'which reportable segment had the highest operating
margin?'.

`asked_part_choice(question)` reads the question's typed ask, or None when it asks no such
choice:

- the kind of part: a kind word (`dimension_members.kind_words`: segment, region, product
  line ...) in the noun phrase the question's 'which' opens ('which of JPM's business
  segments', 'in which AMD reporting segment');
- the measure: the catalogue line item the question names outside that noun phrase
  (`metrics.find_metrics`, as a part's figure `dimension_question.part_item`), or a derived
  metric over a part's own line items (a segment's operating margin);
- the operator over it: its level, its growth (a percent over the year before: 'growth',
  'proportionally', 'percentage basis', 'fastest') or its change (an amount: 'increase',
  'drop' without a percent word), through `answer_form.asked_aggregates` and the direction
  words of `intent`;
- the extreme: highest or lowest (`intent.asked_extreme`); 'the biggest drop' is the lowest
  change, 'increase the most' the highest;
- the parts left out ('excluding Embedded', 'other than Corporate').

A question about one named part, a figure's choice without an extreme ('which segment
reported revenue of $5 billion'), or a pick of anything else than parts ('which of the
following risks') is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon._data import data_cache
from finqa.lexicon.dimension_members import kind_words
from finqa.lexicon.intent import asked_direction, asked_extreme, asks_choice, asks_movement

__all__ = ["PartChoice", "asked_part_choice", "asks_among_parts"]

Operator = Literal["level", "growth", "change"]

# a rate's extreme: 'grew the fastest', 'declined the slowest' (a growth, compared)
_RATE_EXTREME = re.compile(r"\b(?P<hi>fastest|quickest)\b|\b(?P<lo>slowest)\b", re.I)
# a percent over the year before is asked, not an amount
_PERCENT_WORDS = re.compile(
    r"%|\bpercent(?:age)?\b|\bproportion\w*|\brelative(?:ly)?\b|\bgrowth\b|\brate\b", re.I
)
# the parts a question leaves out: 'excluding Embedded', 'other than the Corporate segment'
_LEFT_OUT = re.compile(
    r"\b(?i:excluding|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|besides)\s+"
    r"(?:(?i:the)\s+)?(?P<name>[A-Z][\w&.'’-]*(?:\s+(?:&\s+|and\s+|of\s+)?[A-Z][\w&.'’-]*){0,4})"
)
# 'top line' / 'bottom line' name revenue and earnings, not an extreme
_LINE_NAMES = re.compile(r"\b(?:top|bottom)[\s-]+line\b", re.I)
_NAME_WORDS = 6  # words between 'which' and the kind word: "which of JPMorgan's business"


@dataclass(frozen=True)
class PartChoice:
    """A choice among the parts of one breakdown by a measure, as the question asks it."""

    kind: str  # segment | geography | product: the kind of part the question's words name
    measure: str  # catalogue id: a line item ('revenue') or a derived metric ('operating_margin')
    operator: Operator  # the measure's level, its growth (percent) or change over the year before
    extreme: Literal["highest", "lowest"]
    excluded: tuple[str, ...] = ()  # parts the question leaves out, as it names them
    span: tuple[int, int] = (0, 0)  # where the question's noun phrase of the parts is

    def describe(self) -> str:
        """'the highest growth in revenue', 'the lowest operating margin'."""
        name = self.measure.replace("_", " ")
        what = name if self.operator == "level" else f"{self.operator} in {name}"
        return f"the {self.extreme} {what}"


@data_cache()
def _kind_pattern() -> re.Pattern[str]:
    words = sorted({w for ws in kind_words().values() for w in ws}, key=len, reverse=True)
    alt = "|".join(re.escape(w) for w in words)
    return re.compile(
        rf"\bwhich\s+(?:(?:one\s+)?of\s+)?(?:[\w&.'’-]+\s+){{0,{_NAME_WORDS}}}?(?P<kind>{alt})s?\b",
        re.I,
    )


# words that end the noun phrase 'which' opens before a kind word: a period noun ('which of the
# two years had the largest segment revenue' picks a year) or a verb of the question
_NOT_HEADED = re.compile(
    r"\b(?:years?|quarters?|months?|periods?|half|halves|is|are|was|were|has|have|had|did|"
    r"does|do|saw|see|reported|recorded|grew|fell)\b",
    re.I,
)


def _kind_found(question: str) -> re.Match[str] | None:
    """The 'which ... <kind word>' noun phrase, when the kind word heads it."""
    found = _kind_pattern().search(question)
    if found is None or _NOT_HEADED.search(question[found.start() : found.start("kind")]):
        return None
    return found


def _kind_of(word: str) -> str:
    for kind, words in kind_words().items():
        if word.lower() in (w.lower() for w in words):
            return kind
    return "segment"


def _measure(question: str, span: tuple[int, int]) -> str | None:
    """The catalogue item the question asks of every part, named outside the parts' noun
    phrase; the phrase's own item ('business segments': segment revenue) when it names none."""
    from finqa.lexicon.dimension_question import asked_item, part_item
    from finqa.lexicon.metrics import find_metrics, get_metric

    outside = question[: span[0]] + " " * (span[1] - span[0]) + question[span[1] :]
    item = asked_item(outside)
    if item is not None:
        return item
    inside = [m for m in find_metrics(question) if span[0] <= m.start and m.end <= span[1]]
    if inside and get_metric(inside[0].canonical) is not None:
        return part_item(inside[0].canonical)
    return None


def _operator(question: str, measure: str) -> tuple[Operator, bool]:
    """The operator over the measure and whether it asks for a fall ('the biggest drop')."""
    from finqa.lexicon.answer_form import asked_aggregates
    from finqa.lexicon.metrics import get_metric

    up, down = asked_direction(question, measure)
    aggregates = asked_aggregates(question, question)
    rate = _RATE_EXTREME.search(question) is not None
    metric = get_metric(measure)
    if metric is not None and metric.is_derived:
        return "level", False  # a margin or ratio is compared as it is
    moved = asks_movement(question)  # 'improved' over an item of no favourable way is one too
    if "growth" in aggregates or rate or (moved and _PERCENT_WORDS.search(question)):
        return "growth", down and not up
    if "change" in aggregates or moved:
        return "change", down and not up
    return "level", False


def asks_among_parts(question: str) -> str | None:
    """The kind of part a 'which' question picks among ('Which of Costco's reportable segments
    saw operating income decline?': segment), whether or not by an extreme; None otherwise.
    Whatever its condition, the answer names parts: the company's figure answers another
    question."""
    if not asks_choice(question):
        return None
    found = _kind_found(question)
    return _kind_of(found.group("kind")) if found is not None else None


def asked_part_choice(question: str) -> PartChoice | None:
    """The choice among a breakdown's parts the question asks, or None (see the module)."""
    if not asks_choice(question):
        return None
    found = _kind_found(question)
    if found is None:
        return None
    span = (found.start(), found.end())
    rate = _RATE_EXTREME.search(question)
    extreme = asked_extreme(_LINE_NAMES.sub(" ", question))
    if extreme is None and rate is not None:
        extreme = "highest" if rate.group("hi") else "lowest"
    if extreme is None:
        return None
    measure = _measure(question, span)
    if measure is None:
        return None
    operator, fall = _operator(question, measure)
    if fall:  # 'the biggest drop': the most negative change
        extreme = "lowest" if extreme == "highest" else "highest"
    excluded = tuple(m.group("name").strip() for m in _LEFT_OUT.finditer(question))
    return PartChoice(
        kind=_kind_of(found.group("kind")),
        measure=measure,
        operator=operator,
        extreme=extreme,
        excluded=excluded,
        span=span,
    )
