"""The parts a question asks, read once from its wording: each asked sentence (or each 'and
what / and is ...' clause) with the form of answer it wants, the instructions that follow it,
and the conditional clauses ('if X is not a useful metric, state that and explain why').

Forms: `verdict` (a yes/no or increase/decrease question), `explanation` (why / what drove /
how did X affect), `choice` (which segment / region / year ...), `compare` (figures of two or
more years compared, one per year), `figure` (a number asked), `answer` (which / who / what:
some content). Instructions ('Answer in USD millions', 'Round to two decimals', definitions) are
not parts. The judge's facet checklist is built from this parse (agents/judge/facets.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon.answer_form import PERIOD_FRAME, WHETHER_REQUEST
from finqa.lexicon.causes import asks_cause, requests_cause
from finqa.lexicon.intent import (
    asks_choice,
    asks_figure_named_first,
    asks_rate_of_change,
    asks_which_period,
)
from finqa.lexicon.period_ask import names_prior_year
from finqa.lexicon.periods import year_mentions
from finqa.lexicon.prose import question_sentences

__all__ = [
    "follow_up_year",
    "PartForm",
    "QuestionPart",
    "QuestionParts",
    "question_parts",
    "cause_part",
    "movement_wording",
    "is_follow_up",
]

PartForm = Literal["verdict", "explanation", "choice", "compare", "figure", "answer"]

_AUX = r"(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)"
_WH = r"(?:what|how|which|who|whom|why|when|where|among)"
_LEAD = re.compile(
    r"(?:^|[:;,]\s*|question:\s*|\bquestion\b[^:]*:\s*)(?P<q>(?:" + _WH + r"|" + _AUX + r")\b.*)$",
    re.I | re.S,
)
_INSTRUCTION = re.compile(
    r"^\s*(?:answer|round|base|basing|respond|please|give|provide|address|use|using|utilize|"
    r"assume|you are|we need|we want|here's|define|calculate what|by drawing|according|"
    r"in agreement|taking into account|the answer|note|reply)\b",
    re.I,
)
# a request for a figure in the imperative ('Compute ...', 'Calculate ...', 'Express ...')
_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:compute|calculate|determine|estimate|work\s+out|find|express|"
    r"derive|quantify)\b",
    re.I,
)
# a figure asked for each of two years named side by side ('for FY2020 and FY2019', 'in
# fiscal 2019 and 2018', 'for 2017 and for 2016'): one figure each
_EACH_YEAR = re.compile(
    r"\b(?:for|in)\s+(?:(?:both|each\s+of)\s+)?(?:(?:FY|fiscal(?:\s+year)?)\s*)?\d{4},?\s+and\s+"
    r"(?:(?:for|in)\s+)?(?:(?:FY|fiscal(?:\s+year)?)\s*)?\d{4}\b",
    re.I,
)
# a yes/no asked in the imperative: 'Say whether ...', 'State whether ...', 'Indicate whether'
_WHETHER = re.compile(rf"^\s*{WHETHER_REQUEST}\b", re.I)
# a follow-up asking the part before again for another year ('And in 2018?', 'What about
# fiscal 2019?', 'and what about in 2019?')
_FOLLOW_UP = re.compile(
    r"^\s*(?:and\s+)?(?:(?:what|how)\s+about\s+|what\s+(?:was|is|were)\s+(?:it|they|that)\s+)?"
    r"(?:in\s+|for\s+|as\s+of\s+)?(?:the\s+(?:end\s+of\s+)?)?"
    r"(?:FY\s*|fiscal\s+(?:year\s+)?)?(?P<year>(?:19|20)\d{2})\s*\??\s*$",
    re.I,
)
# a part setting the figure asked before it against another period ('and how did it compare
# with a year earlier?', 'how does that compare to fiscal 2019?'): that period's figure too
_AGAINST = re.compile(
    r"^\s*(?:and\s+)?how\s+(?:did|does|do|has|have|is|was|were)\s+"
    r"(?:it|that|this|they|these|those|the\s+(?:figure|balance|amount|level))\s+"
    r"compare[sd]?\s+(?:with|to|against)\s+(?P<ref>[^?]+)",
    re.I,
)
_CONDITIONAL = re.compile(
    r"^\s*if\b.*\bnot\b.*\b(?:useful|relevant|meaningful|applicable|appropriate)\b", re.I | re.S
)
_CHANGE = re.compile(
    r"\b(?:chang\w*|grow\w*|grew|differen\w*|increas\w*|decreas\w*|drop\w*|declin\w*|ris(?:e|es|en)"
    r"|rose|f[ae]ll\w*)",
    re.I,
)
_COMPARE = re.compile(r"\bcompar\w*|\bvs\.?(?!\w)|\bversus\b", re.I)
_FIGURE = re.compile(
    r"\bhow (?:much|many)\b|\bhow (?:fast|quickly|rapidly)\b|\bcalculat\w*|\bcompute\b|\bquantity\b|\bwhat (?:is|was|were|are) "
    r"(?:the |its |their |\w+'s )?(?:[\w&/'’().-]+ ){0,10}?(?:amount|ratio|margin|rate|total|value|"
    r"percent\w*|%|cost|costs|revenue|revenues|income|liabilities|assets|capex|expenditure|"
    r"flow|ebitda|cogs|ppne|inventor\w*|payable|receivables?|sales|earnings|dividends?|debt|"
    r"cycle|turnover|dpo|dso|dio|roa|roe|eps|expenses?|capital|profit|growth|change)\b"
    r"|\bwhat (?:percent|percentage|share|portion|proportion)\b",
    re.I,
)
_FIGURE_HINT = re.compile(
    r"\bround\w*\b[^.?]*\bdecimal|\banswer in (?:usd|units)|\bin usd (?:millions|billions|thousands)"
    r"|\bas a %|% margin\b|\bratio\b",
    re.I,
)
# a second ask joined by 'and', or set off by a dash ('... compare with Q1 2021 - was each a
# charge or a release?')
_AND_ASK = re.compile(
    r",?\s+and\s+(?=(?:" + _WH + r"|" + _AUX + r"|by\s+(?:how|what))\b|" + PERIOD_FRAME + r")"
    r"|\s+[-\u2013\u2014]{1,2}\s+(?=(?:" + _WH + r"|" + _AUX + r")\s)",
    re.I,
)


def _asks_of(sentence: str) -> list[str]:
    """The asks a sentence joins ('What was X, and what was Y?'), never split inside a
    parenthesis ('What was its income tax line (an expense or a benefit, and how much)?')."""
    out: list[str] = []
    start = 0
    for m in _AND_ASK.finditer(sentence):
        before = sentence[: m.start()]
        if before.count("(") > before.count(")"):
            continue
        out.append(sentence[start : m.start()])
        start = m.end()
    out.append(sentence[start:])
    return out


_WHY = re.compile(
    r"\bwhy\b|\bwhat (?:drove|drives|caused|led|explains?)\b|\bexplain\b|\breasons?\b|"
    r"\bhow did\b.*\b(?:affect|impact)\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class QuestionPart:
    """One part of a question: its words, the form of answer it asks, what else it asks."""

    index: int
    text: str
    form: PartForm
    context: str  # its sentence with the instructions that follow it
    years: tuple[int, ...] = ()  # the years a `compare` part asks a figure for, one each
    explain_too: bool = False  # a yes/no part that also asks why ('Is X up, and why?')


@dataclass(frozen=True, slots=True)
class QuestionParts:
    """Every part a question asks, and its conditional clauses (sentence, part it follows)."""

    parts: tuple[QuestionPart, ...]
    conditionals: tuple[tuple[str, int], ...] = ()


def _sentences(question: str) -> list[str]:
    return question_sentences(question)


def question_parts(question: str) -> QuestionParts:
    """The parts `question` asks (deterministic, from its wording)."""
    asked: list[str] = []
    context: list[str] = []
    conditionals: list[tuple[str, int]] = []
    for sentence in _sentences(question):
        if _CONDITIONAL.match(sentence):
            conditionals.append((sentence, max(len(asked) - 1, 0)))
            continue
        lead = _LEAD.search(sentence)
        instruction = not lead or _INSTRUCTION.match(sentence) and "?" not in sentence
        if _WHETHER.match(sentence):
            # 'Say whether operations generated or consumed cash.': a yes/no (or either/or) the
            # answer owes, asked in the imperative, not an instruction on the answer's form
            asked.append(sentence)
            context.append(sentence)
            continue
        if requests_cause(sentence):
            # a request for the causes ('Give the change and the reason the company states'):
            # a part the answer owes, not an instruction on how to answer the others
            asked.append(sentence)
            context.append(sentence)
            continue
        if (
            not sentence.endswith("?")
            and instruction
            and (not lead or _INSTRUCTION.match(lead.group("q")))
        ) or (" is defined as" in sentence.lower() and not sentence.endswith("?")):
            if context:
                context[-1] += " " + sentence
            continue
        for p in _asks_of(lead.group("q") if lead else sentence):
            if p:
                asked.append(p)
                context.append(sentence)
    if not asked:
        # no sentence asks: a request for a figure is the ask ('Compute the effective tax rate
        # for FY2020 and FY2019 to see whether taxes explain the gap.')
        for sentence in _sentences(question):
            if _REQUEST.match(sentence) and not _INSTRUCTION.match(sentence):
                asked.append(sentence)
                context.append(sentence)
    parts = tuple(_part(i, p, context[i]) for i, p in enumerate(asked))
    return QuestionParts(parts, tuple(conditionals))


def _part(index: int, part: str, context: str) -> QuestionPart:
    head = part.strip().lower()
    years: tuple[int, ...] = ()
    form: PartForm
    follow = _FOLLOW_UP.match(part)
    if follow is not None:
        # 'And in 2018?', 'What about 2019?': the part before, asked again for another year
        return QuestionPart(index, part, "compare", context, (int(follow.group("year")),))
    if (against := _against_years(part, context)) is not None:
        return QuestionPart(index, part, "compare", context, against)
    if (
        _WHETHER.match(part)
        or re.match(_AUX + r"\b", head)
        or re.match(r"(?:as of|in|for|at)\b[^,]*,\s*" + _AUX + r"\b", head)
        or re.match(PERIOD_FRAME, head)
    ):
        form = "verdict"
    elif _asks_why(part) and not _REQUEST.match(part):
        form = "explanation"  # 'compute X to see whether Y explains Z' asks X
    elif asks_choice(part) or asks_which_period(part):
        form = "choice"
    elif len(found := sorted({y for y, _s, _e in year_mentions(part)})) >= 2 and (
        (_COMPARE.search(part) or _EACH_YEAR.search(part)) and not _CHANGE.search(part)
    ):
        form, years = "compare", tuple(found)
    elif (
        _FIGURE.search(part)
        or asks_figure_named_first(part)
        or asks_rate_of_change(part)
        or (bool(_FIGURE_HINT.search(context)) and re.match(r"what\b", head))
    ):
        form = "figure"
    else:
        form = "answer"
    explain = form == "verdict" and _asks_why(part)
    return QuestionPart(index, part, form, context, years, explain)


def follow_up_year(part: str) -> int | None:
    """The year a follow-up part asks the part before again for ('and what was it in fiscal
    2018?', 'And in 2018?', 'What about 2019?'); None for any other part."""
    m = _FOLLOW_UP.match(part)
    return int(m.group("year")) if m is not None else None


def _against_years(part: str, context: str) -> tuple[int, ...] | None:
    """The two years a part setting the figure asked before it against another period asks a
    figure for: the year its sentence asks and the one it names ('compare to fiscal 2019'), or
    the year before ('compare with a year earlier'); None for another part, or a reference
    that is no period ('how did it compare with the industry?')."""
    m = _AGAINST.match(part)
    if m is None:
        return None
    asked = sorted({y for y, _s, _e in year_mentions(context.replace(part, " "))})
    if not asked:
        return None
    named = sorted({y for y, _s, _e in year_mentions(m.group("ref"))})
    if named and named[0] != asked[-1]:
        return (asked[-1], named[0])
    if names_prior_year(m.group("ref")):
        return (asked[-1], asked[-1] - 1)
    return None


def is_follow_up(part: str) -> bool:
    """The part asks the part before it again for another year ('And in 2018?')."""
    return _FOLLOW_UP.match(part) is not None


def _asks_why(part: str) -> bool:
    """The part asks what caused a movement: 'why', 'explain', or a cause question of the
    causes vocabulary ('what did management say drove the change', 'what led to')."""
    return bool(_WHY.search(part)) or asks_cause(part) or requests_cause(part)


def cause_part(question: str) -> QuestionPart | None:
    """The part asking what caused a movement, when another part of the question asks a figure,
    a yes/no or a choice ('Did X rise? What drove it?', 'How much did X change and why?'): the
    answer owes both. None for a question that asks a cause only, or no cause."""
    parts = question_parts(question).parts
    cause = next((p for p in parts if p.form == "explanation" or p.explain_too), None)
    if cause is None:
        return None
    if cause.explain_too:
        return cause  # 'Is X up, and why?' in one clause: its verdict and its cause
    others = [p for p in parts if p is not cause and p.form in _ANSWERED_FIRST]
    return cause if others else None


# the forms of a part a cause part follows up ('Did X rise? What drove it?')
_ANSWERED_FIRST = frozenset({"verdict", "figure", "compare", "choice"})


def movement_wording(question: str) -> str:
    """The words of the question that state the movement it asks about as a fact: the question
    less its yes/no parts, whose movement word is what is asked ('Did gross margin improve?
    What drove the change?' states no movement: the filing's figures say which way it went);
    the whole question when it has no yes/no part ('Why did revenue fall?')."""
    parts = question_parts(question).parts
    if not any(p.form == "verdict" for p in parts):
        return question
    return " ".join(p.text for p in parts if p.form != "verdict")
