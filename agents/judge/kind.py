"""Does the answer answer the question? The kind of answer a question expects, and the checks
that an answer is of that kind (step 1 of the judge, before any figure is looked up).

The expected kind comes from the lexicon's analysis of the question: the unit of the asked
metric in the catalogue (`USD` -> an amount, `ratio`/`times` -> a ratio, `%` -> a percentage,
`days`, `shares` -> a count, `USD/share` -> a per-share amount), or the question's form (a yes/no
question wants a verdict *with its basis*, a why-question an explanation). A question with no
recognisable metric gets no kind: the judge says so rather than guessing one.

Plausible ranges are general financial definitions per unit (a ratio of two balances is not in
the hundreds of thousands; a percentage written as a fraction is at most 1 in magnitude; days of
a turnover are within a few years), never tuned on single questions.

Answer-level failures: empty; not in English; a bare yes/no where the question wants a judgement
with its basis; a copy of the question; a copy of the evidence; figures of the wrong kind (an
amount for a ratio, a bare number with no unit where an amount needs a currency or scale).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finqa.agents.judge.text import content_tokens
from finqa.lexicon.intent import leading_yes_no
from finqa.lexicon.numbers import SCALE_WORDS
from finqa.lexicon.operators import OPERATOR_FORMS, defined_quotient
from finqa.lexicon.question_intent import read_intent

__all__ = [
    "Expectation",
    "KindProblem",
    "expected_kind",
    "check_kind",
    "figure_kind_ok",
    "KIND_OF_UNIT",
    "PLAUSIBLE",
]

KIND_OF_UNIT = {
    "USD": "amount",
    "%": "percent",
    "ratio": "ratio",
    "times": "ratio",
    "days": "days",
    "shares": "count",
    "USD/share": "per_share",
}
# General financial definitions: the magnitude a figure of each kind can take, as written.
PLAUSIBLE: dict[str, tuple[float, float]] = {
    "ratio": (0.0, 1000.0),  # balances over balances, turnovers, coverage: not 423,961
    "percent": (0.0, 1000.0),  # margins, growth, shares, rates in percent
    "fraction": (0.0, 1.0),  # a percentage written as a fraction of one ('0.126')
    "days": (0.0, 1500.0),  # DSO / DIO / DPO / cash conversion cycle
    "per_share": (0.0, 10000.0),  # dollars per share
}
_KIND_WORDS = {
    "amount": "an amount (with its currency and scale)",
    "ratio": "a ratio",
    "percent": "a percentage",
    "days": "a number of days",
    "count": "a count",
    "per_share": "an amount per share",
    "verdict": "a yes/no judgement with its basis",
    "explanation": "an explanation",
}


@dataclass(frozen=True)
class Expectation:
    """What a question expects: the kind of answer, the metric and unit it comes from, and why."""

    kind: str | None  # amount|ratio|percent|days|count|per_share|verdict|explanation|None
    metric: str | None = None
    also: tuple[str, ...] = ()  # other kinds the question's wording allows ('margin': % or $)
    unit: str | None = None
    needs_basis: bool = False  # a yes/no that must say what it rests on
    reason: str = ""
    change: bool = False  # the movement of `metric` is asked (an amount, or points), not a rate
    operator: str | None = None  # a return / share / ratio over named line items (`reason` says)
    # kinds the answer may state beside the one asked (a movement's other form: the percent
    # beside the amount asked), each recorded as a calculation of its own; the kind check
    # still wants a figure of the asked kind
    companion: tuple[str, ...] = ()

    def describe(self) -> str:
        return _KIND_WORDS.get(self.kind or "", "an answer")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "metric": self.metric,
            "also": list(self.also),
            "unit": self.unit,
            "needs_basis": self.needs_basis,
            "reason": self.reason,
            "change": self.change,
            "operator": self.operator,
            "companion": list(self.companion),
        }


@dataclass
class KindProblem:
    """One way the answer fails to answer the question, with the feedback that says so."""

    code: str  # empty|language|bare_verdict|copied_question|copied_evidence|wrong_kind|no_unit
    message: str
    numbers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "numbers": self.numbers}


def _asked_metric(question: str) -> Any | None:
    """The catalogue metric the question asks for, as the lexicon reads it for every agent
    (`QuestionAsk.metric`: a derived metric over its own operands, else the first named)."""
    asked = read_intent(question).ask.metric
    return _fn_metric()(asked) if asked is not None else None


def _fn_metric() -> Any:
    from finqa.lexicon import get_metric

    def get(mid: str) -> Any | None:
        try:
            return get_metric(mid)
        except KeyError:  # an id the catalogue no longer has (UnknownMetricError)
            return None

    return get


def expected_kind(question: str, facet_kinds: Sequence[str]) -> Expectation:
    """The kind of answer `question` expects (from its facets and the catalogue)."""
    kinds = set(facet_kinds)
    if "verdict" in kinds:
        return Expectation(
            "verdict", needs_basis=True, reason="a yes/no question: the verdict needs its basis"
        )
    metric = _asked_metric(question)
    operated = _operator_expected(question, metric) if "figure" in kinds else None
    if operated is not None:
        return operated
    if "figure" in kinds and metric is not None:
        kind = KIND_OF_UNIT.get(metric.unit)
        if kind is not None:
            intent = read_intent(question)  # the lexicon's one reading of the question's words
            reason = f"catalogue: {metric.name} is in {metric.unit}"
            if kind == "amount" and intent.ask.change_form is not None:
                return _movement_expected(metric, intent.ask.change_form, intent.ask.aggregate)
            if intent.change_amount:
                return _change_expected(metric, kind)
            if intent.percent_asked and kind != "percent":
                # a rate of growth of an amount ('by how many percent did X rise') is not X's
                # level nor the amount it moved by: only a percentage answers it
                rate = kind == "amount" and bool({"growth", "cagr"} & set(intent.aggregates))
                return Expectation(
                    "percent",
                    metric.id,
                    () if rate else (kind,),
                    unit=metric.unit,
                    reason=reason + ("; its growth rate is asked" if rate else "; asked in %"),
                )
            also = tuple(intent.also_forms) if kind == "amount" else ()
            return Expectation(kind, metric.id, also, unit=metric.unit, reason=reason)
    if "explanation" in kinds:
        return Expectation("explanation", reason="a why/how question")
    if metric is None:
        return Expectation(None, reason="no recognisable metric in the question: kind not checked")
    return Expectation(None, metric.id, unit=metric.unit, reason="the question asks for no figure")


def _operator_expected(question: str, metric: Any | None) -> Expectation | None:
    """A return, share or ratio asked over the line items the question names
    (`QuestionAsk.operator`): a ratio or a percentage answers it, never the amount of one
    operand (total assets for a return on total assets, revenue for R&D as a % of revenue)."""
    ask = read_intent(question).ask
    if ask.operator is None:
        defined = defined_quotient(question)
        if defined is None or (metric is not None and KIND_OF_UNIT.get(metric.unit) != "amount"):
            return None  # a ratio the catalogue knows keeps its own checks (its sign, its range)
        # the question defines its measure as one figure over another: whatever the lines,
        # a ratio (or a percentage) answers it, and the catalogue item a word of its name
        # resembles ('take rate' -> revenue) is not the measure
        kind = OPERATOR_FORMS[defined.kind]
        return Expectation(
            kind,
            None,
            ("ratio" if kind == "percent" else "percent",),
            reason=f"the question defines its measure as a {defined.kind} of two figures: "
            "the amount of one of them does not answer it",
            operator=defined.kind,
        )
    kind = "percent" if ask.operator == "share" else "ratio"
    other = "ratio" if kind == "percent" else "percent"
    part, whole = (x.replace("_", " ") if x else "" for x in ask.operands)
    over = f"{part} over {whole}".strip() if part else f"over {whole}"
    return Expectation(
        kind,
        metric.id if metric is not None else None,
        (other,),
        unit=metric.unit if metric is not None and metric.unit != "USD" else None,
        reason=f"a {ask.operator} ({over}) is asked: the amount of one operand does not answer it",
        operator=ask.operator,
    )


def _change_expected(metric: Any, kind: str) -> Expectation:
    """'By how much did X change?': the amount X moved by (points for a percentage); for a
    growth-rate metric the catalogue reads from the words ('revenue change' -> revenue growth),
    the change of the line item it is the rate of."""
    base = _rate_base(metric)
    if base is not None and KIND_OF_UNIT.get(base.unit):
        metric, kind = base, KIND_OF_UNIT[base.unit]
    return Expectation(
        kind,
        metric.id,
        unit=metric.unit,
        change=True,
        reason=f"'by how much ... change' asks how much {metric.name.lower()} moved, not a growth rate",
    )


def _movement_expected(metric: Any, form: str, aggregate: str) -> Expectation:
    """The movement of an amount (`QuestionAsk.change_form`): the form the ask states ('by how
    many percent' -> a percentage, 'in dollars' -> an amount), the other form allowed beside it
    as a companion; a bare 'change' allows either (its headline: the aggregate read)."""
    headline = "percent" if aggregate in ("growth", "cagr") else "amount"
    other = "amount" if headline == "percent" else "percent"
    if form == "both":
        return Expectation(
            headline,
            metric.id,
            (other,),
            unit=metric.unit,
            change=True,
            reason=f"the change in {metric.name.lower()} is asked in no form: its amount or percent",
        )
    return Expectation(
        form,
        metric.id,
        unit=metric.unit,
        change=True,
        companion=(other,),
        reason=f"the change in {metric.name.lower()} is asked as {_KIND_WORDS[form]}",
    )


def _rate_base(metric: Any) -> Any | None:
    """The line item a growth-rate metric is the rate of (revenue growth -> revenue), else None."""
    inputs = tuple(getattr(metric, "inputs", ()) or ())
    formula = str(getattr(metric, "formula", "") or "")
    if metric.unit != "%" or len(inputs) != 1 or "prev(" not in formula:
        return None
    return _fn_metric()(inputs[0])


# --------------------------------------------------------------------------- answer checks

_ENGLISH = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "and",
        "or",
        "to",
        "in",
        "is",
        "was",
        "were",
        "are",
        "be",
        "for",
        "on",
        "with",
        "as",
        "by",
        "at",
        "from",
        "that",
        "this",
        "it",
        "its",
        "not",
        "no",
        "yes",
        "which",
        "than",
        "total",
        "net",
        "million",
        "billion",
        "percent",
        "ratio",
        "year",
        "fiscal",
        "company",
    ]
)
# function words of other languages; not 'per', English too ('$2.46 per diluted share')
_FOREIGN = frozenset(
    [
        "el",
        "la",
        "los",
        "las",
        "del",
        "de",
        "que",
        "es",
        "fue",
        "y",
        "en",
        "por",
        "para",
        "con",
        "una",
        "un",
        "le",
        "les",
        "des",
        "du",
        "est",
        "et",
        "au",
        "aux",
        "une",
        "der",
        "die",
        "das",
        "und",
        "ist",
        "war",
        "mit",
        "von",
        "den",
        "im",
        "zu",
        "il",
        "della",
        "di",
        "che",
        "sono",
        "é",
    ]
)


def not_english(text: str) -> bool:
    """Mostly non-Latin letters, or more function words of other languages than of English."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    latin = sum(1 for ch in letters if ch.isascii())
    if latin / len(letters) < 0.6:
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 4:
        return False
    en = sum(w in _ENGLISH for w in words)
    other = sum(w in _FOREIGN and w not in _ENGLISH for w in words)
    return other >= 2 and other > en


def _bare_verdict(text: str, numbers: int) -> bool:
    """'Yes.' / 'No' / 'Yes, it is.': a verdict with no figure and (almost) no words of basis."""
    end = leading_yes_no(text)
    if end is None:
        return False
    rest = content_tokens(text[end:])
    return numbers == 0 and len(rest) < 3


def copied_question(text: str, question: str) -> bool:
    """The answer is the question (or most of it) again: no verdict, (almost) no word of its own,
    and >= 70% of the question's content words."""
    if leading_yes_no(text) is not None:
        return False
    tokens = content_tokens(text)
    asked = set(content_tokens(question))
    if len(tokens) < 3 or not asked:
        return False
    new = [t for t in tokens if t not in asked]
    return len(new) <= len(tokens) // 10 and len(set(tokens) & asked) >= 0.7 * len(asked)


def _shingles(text: str, n: int = 6) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def copied_evidence(text: str, view: Any, question: str = "") -> bool:
    """A passage of >= 40 words, >= 80% of its 6-word runs verbatim from one source, that is
    either long (>= 120 words: a page, not an answer) or about something else than the question
    (it names under half of the question's content words): a focused extractive answer is not
    a copy."""
    words = len(re.findall(r"[a-z0-9]+", text.lower()))
    if words < 40 or not view:
        return False
    mine = _shingles(text)
    if not mine or not any(
        len(mine & _shingles(src.text)) >= 0.8 * len(mine) for src in view.sources
    ):
        return False
    asked = set(content_tokens(question))
    named = len(asked & set(content_tokens(text))) / len(asked) if asked else 0.0
    return words >= 120 or named < 0.5


def figure_kind_ok(q: Any, expect: Expectation, question_scale: float | None) -> str | None:
    """None when quantity `q` can be a figure of the expected kind; else what is wrong with it."""
    check = _KIND_CHECKS.get(expect.kind or "")
    if check is None:
        return None
    scaled = q.scale_source == "explicit" or any(
        w.strip(".,") in SCALE_WORDS for w in q.text.lower().split()
    )
    return check(q, abs(float(q.value)), q.unit or "", scaled, question_scale)


def _in_range(kind: str, value: float, problem: str) -> str | None:
    lo, hi = PLAUSIBLE[kind]
    return None if lo <= value <= hi else problem


def _ratio_ok(q: Any, value: float, unit: str, scaled: bool, qs: float | None) -> str | None:
    if unit == "%":
        return None  # a ratio stated as a percentage
    if unit == "USD" or scaled:
        return "is an amount, not a ratio"
    return _in_range("ratio", value, "is not a plausible ratio")


def _percent_ok(q: Any, value: float, unit: str, scaled: bool, qs: float | None) -> str | None:
    if unit == "%":
        return _in_range("percent", value, "is not a plausible percentage")
    if unit == "USD" or scaled:
        return "is an amount, not a percentage"
    if unit in ("", "ratio") and value <= PLAUSIBLE["fraction"][1] and q.decimals > 0:
        return None  # the percentage as a fraction of one
    return "has no % sign and is not a fraction of one"


def _days_ok(q: Any, value: float, unit: str, scaled: bool, qs: float | None) -> str | None:
    if unit in ("USD", "%") or scaled:
        return "is not a number of days"
    return _in_range("days", value, "is not a plausible number of days")


def _per_share_ok(q: Any, value: float, unit: str, scaled: bool, qs: float | None) -> str | None:
    if unit == "%" or scaled:
        return "is not an amount per share"
    return _in_range("per_share", value, "is not a plausible amount per share")


def _amount_ok(q: Any, value: float, unit: str, scaled: bool, qs: float | None) -> str | None:
    if unit == "%":
        return None  # a change asked as an amount is often given as a rate too
    if unit in ("USD", "USD/share") or scaled or qs:
        return None
    if unit and unit not in ("", "ratio"):
        return None  # another currency is judged by the number check
    return "has no currency or scale"


_KIND_CHECKS = {
    "ratio": _ratio_ok,
    "percent": _percent_ok,
    "days": _days_ok,
    "per_share": _per_share_ok,
    "amount": _amount_ok,
}


def _kind_problem(q: Any, expect: Expectation, question_scale: float | None) -> str | None:
    """None when q fits the expected kind or one the question's wording also allows."""
    if expect.change and expect.kind in ("amount", "per_share") and q.unit == "%":
        return "is a growth rate, not the amount of the change"
    if expect.kind == "amount" and q.unit == "%" and "percent" not in expect.also:
        # and vice versa: a ratio or percentage where the wording asks the amount alone
        return "is a percentage, not an amount"
    first = figure_kind_ok(q, expect, question_scale)
    for other in expect.also:
        if first is None:
            break
        alt = Expectation(other, expect.metric, unit=expect.unit)
        if figure_kind_ok(q, alt, question_scale) is None:
            return None
    return first


def check_kind(
    question: str,
    text: str,
    expect: Expectation,
    numbers: Sequence[Any],
    view: Any,
    *,
    question_scale: float | None,
) -> list[KindProblem]:
    """Every way `text` fails to be an answer of the expected kind (empty list: none found).

    `numbers` are the answer's checkable quantities (years, list markers and figures quoted
    from the question already left out)."""
    if not text.strip():
        return [KindProblem("empty", "the answer is empty")]
    problems: list[KindProblem] = []
    if not_english(text):
        problems.append(
            KindProblem("language", "the answer is not in English, the language of the filings")
        )
    if expect.needs_basis and _bare_verdict(text, len(numbers)):
        problems.append(
            KindProblem(
                "bare_verdict",
                "a bare yes/no gives no basis: state the figure or fact from the filing it rests on",
            )
        )
    if copied_question(text, question) and not numbers:
        problems.append(
            KindProblem("copied_question", "the answer repeats the question instead of answering")
        )
    elif copied_evidence(text, view, question):
        problems.append(
            KindProblem(
                "copied_evidence",
                "the answer copies the evidence instead of answering: "
                f"give {expect.describe()} in your own words",
            )
        )
    if expect.kind in ("amount", "ratio", "percent", "days", "per_share") and numbers:
        bad = [(q, _kind_problem(q, expect, question_scale)) for q in numbers]
        wrong = [(q, why) for q, why in bad if why]
        if len(wrong) == len(numbers):
            what = "; ".join(f"{q.text.strip()} {why}" for q, why in wrong[:3])
            code = "no_unit" if all("no " in why for _q, why in wrong) else "wrong_kind"
            metric = f" ({expect.metric.replace('_', ' ')})" if expect.metric else ""
            why = f" ({expect.reason})" if expect.operator else ""
            problems.append(
                KindProblem(
                    code,
                    f"{expect.describe()}{metric} was asked{why}: {what}",
                    [q.text.strip() for q, _w in wrong],
                )
            )
    return problems
