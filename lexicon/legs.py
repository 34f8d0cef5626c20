"""A question across filings split into legs: one figure of one company for one fiscal year.

"Which had the higher revenue in fiscal 2024, Alphabet or IBM?" is two legs (Alphabet FY2024
revenue, IBM FY2024 revenue) and a combination (the higher); "How did Coca-Cola's operating
income move from FY2020 to FY2024?" is one leg per year named and a trend. Each leg is asked as a
question of its own (`Leg.question`, from a general template, never the user's wording) scoped
to its company, so each is retrieved, answered and judged on its own evidence.

A question naming one company and at most two fiscal years is not split: one 10-K carries two
or three years of its statements and the single-filing path answers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from finqa.lexicon.answer_form import asked_aggregates
from finqa.lexicon.entities import find_companies
from finqa.lexicon.metrics import METRICS, find_metrics
from finqa.lexicon.periods import find_periods

__all__ = [
    "Leg",
    "LegPlan",
    "Combine",
    "Kind",
    "plan_legs",
    "with_latest_years",
    "with_latest_quarter",
    "is_flow",
    "is_balance",
    "level_of",
]

Combine = Literal[
    "higher",
    "lower",
    "difference",
    "ratio",
    "compare",
    "growth",
    "cagr",
    "trend",
    "stitch",
    "ttm",
    "balance",
    "highest_year",
    "lowest_year",
]
Kind = Literal["peers", "trend", "stitched", "ttm"]

_HIGHER = re.compile(
    r"\b(?:higher|larger|greater|bigger|more|highest|largest|greatest|biggest|most|better)\b", re.I
)
_LOWER = re.compile(r"\b(?:lower|smaller|less|fewer|lowest|smallest|least|worse)\b", re.I)
_DIFFERENCE = re.compile(r"\bdifference\b|\bgap\b|\bby how much\b|\bhow much (?:more|less)\b", re.I)
_RATIO = re.compile(r"\b(?:times|multiple of|ratio of)\b", re.I)
# a trend that picks one of its years: 'which fiscal year had the highest revenue'
_WHICH_YEAR = re.compile(
    r"\b(?:which|what)\s+(?:fiscal\s+)?(?:year|period)\b|\bwhen\s+(?:was|were|did)\b", re.I
)
_MOST = re.compile(r"\b(?:highest|largest|greatest|biggest|most|peak(?:ed)?|maximum|best)\b", re.I)
_LEAST = re.compile(r"\b(?:lowest|smallest|least|minimum|worst|fewest)\b", re.I)
# a growth rate written as its operator over a line item: '(x - prev(x)) / prev(x) * 100'
_GROWTH_FORMULA = re.compile(r"^\(\s*(\w+)\s*-\s*prev\(\1\)\s*\)\s*/\s*(?:abs\()?prev\(\1\)")
# 'over the last three fiscal years', 'past 5 years': a span ending at the latest year stored
_LAST_N = re.compile(
    r"\b(?:last|past|previous|prior)\s+(?P<n>two|three|four|five|2|3|4|5)\s+(?:fiscal\s+)?years?\b",
    re.I,
)
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
# the year-to-date a later part of a year is stitched from (and a 10-Q's year-to-date column)
_SPANS = {3: "three months", 6: "half", 9: "nine months"}
# twelve months ending at the latest quarter: 'trailing twelve months', 'TTM', 'LTM'
_TTM = re.compile(r"\b(?:trailing|last)[\s-]+(?:twelve|12)[\s-]+months?\b|\b(?:TTM|LTM)\b", re.I)


@dataclass(frozen=True)
class Leg:
    """One figure to find: a company's metric for one fiscal year (None: its latest)."""

    index: int
    company: str
    ticker: str
    metric: str
    fiscal_year: int | None
    question: str
    months: int | None = None  # a year-to-date leg: its first N months; None: the whole year
    as_of: str | None = None  # a balance leg: the ISO date of the balance (months == 0)

    @property
    def label(self) -> str:
        year = f"FY{self.fiscal_year}" if self.fiscal_year else "latest fiscal year"
        if self.months:
            year = f"first {_SPANS[self.months]} of {year}"
        if self.as_of:
            year = f"at {self.as_of}"
        return f"{self.company} {METRICS[self.metric].name.lower()} {year}"


@dataclass(frozen=True)
class LegPlan:
    """The legs of a question across filings and how their figures combine."""

    kind: Kind
    combine: Combine
    metrics: tuple[str, ...]
    legs: tuple[Leg, ...]
    last_n: int | None = None  # 'over the last N fiscal years' (years resolved from the store)
    company: tuple[str, str] = ("", "")  # a trend's company (name, ticker)
    # a TTM: 'ttm' twelve months to the latest 10-Q (legs resolved from the store)
    as_of: str | None = None  # the latest 10-Q's period end, once resolved

    def describe(self) -> str:
        return f"{self.kind} ({self.combine}): " + "; ".join(leg.label for leg in self.legs)


def _metrics(text: str) -> tuple[str, ...]:
    """The metrics named, once each, leaving out a metric another named one is computed from."""
    found: list[str] = []
    for m in find_metrics(text):
        if m.canonical not in found:
            found.append(m.canonical)
    used = {inp for mid in found for inp in METRICS[mid].inputs if inp != mid}
    return tuple(mid for mid in found if mid not in used)


def _question(company: str, metric: str, year: int | None) -> str:
    """A leg's own question. The year is spelled 'FY{year}' (the fiscal year ending in `year`,
    finqa's keying), never 'fiscal year {year}', which a filer that names its years by their
    start (`fy_label` start) would read one year late."""
    name = METRICS[metric].name.lower()
    when = f"in FY{year}" if year else "in its latest fiscal year"
    return f"What was {company}'s {name} {when}?"


def _ytd_question(company: str, metric: str, year: int, months: int) -> str:
    name = METRICS[metric].name.lower()
    return f"What was {company}'s {name} in the first {_SPANS[months]} of FY{year}?"


def level_of(metric: str) -> str | None:
    """The line item a growth rate is the growth operator over (revenue growth -> revenue): the
    catalogue's `growth_of`, else its formula's '(x - prev(x)) / prev(x)'; None for a level."""
    spec = METRICS[metric]
    if spec.growth_of and spec.growth_of in METRICS:
        return spec.growth_of
    m = _GROWTH_FORMULA.match((spec.formula or "").strip())
    return m.group(1) if m and m.group(1) in METRICS else None


def _levels(metrics: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """A trend's metrics as the line items its legs ask: a growth (or change, CAGR) across the
    years is the combination's, so each leg asks the level of the year; True when one was a
    growth rate."""
    out: list[str] = []
    grew = False
    for mid in metrics:
        level = level_of(mid)
        grew = grew or level is not None
        if (level or mid) not in out:
            out.append(level or mid)
    return tuple(out), grew


def is_flow(metric: str) -> bool:
    """An amount that flows over a period (an income or cash-flow line): a part of a year is the
    year less its other part, and twelve months add up from parts."""
    m = METRICS[metric]
    return m.unit == "USD" and m.statement in ("income", "cash_flow")


def is_balance(metric: str) -> bool:
    """An amount at an instant (a balance-sheet line): it has no span to add up or subtract."""
    m = METRICS[metric]
    return m.unit == "USD" and m.statement == "balance"


def _combine(question: str, kind: str, grew: bool = False) -> Combine:
    if kind == "trend":
        if _WHICH_YEAR.search(question):  # the year of the highest (lowest) figure
            if _LEAST.search(question):
                return "lowest_year"
            if _MOST.search(question):
                return "highest_year"
        forms = asked_aggregates(question)  # the lexicon's words for a CAGR and a growth
        if "cagr" in forms:
            return "cagr"
        return "growth" if "growth" in forms or grew else "trend"
    if _DIFFERENCE.search(question):
        return "difference"
    if _RATIO.search(question):
        return "ratio"
    if _LOWER.search(question):
        return "lower"
    if _HIGHER.search(question):
        return "higher"
    return "compare"


def plan_legs(question: str) -> LegPlan | None:
    """The legs of a question that needs more than one filing; None when one filing answers it
    (one company and at most two fiscal years) or when it names no metric."""
    q = " ".join(question.split())
    companies: list[tuple[str, str]] = []
    for c in find_companies(q):
        if (c.name, c.ticker) not in companies:
            companies.append((c.name, c.ticker))
    metrics = _metrics(q)
    if not companies or not metrics:
        return None
    if _names_own_line(q):
        return None  # a line of its own ('the line 'Other (income) expense, net''), no metric
    if _TTM.search(q):
        return _ttm(companies, metrics)
    stitched = _stitched(q, companies, metrics)
    if stitched is not None:
        return stitched
    # 'fiscal 2023' in each company's own naming (a start-naming filer's is FY2024), 'FY2023'
    # always the year ending in 2023
    by_company = {
        name: sorted({p.fiscal_year for p in find_periods(q, name) if p.fiscal_year})
        for name, _ in companies
    }
    years = by_company[companies[0][0]]
    last = _LAST_N.search(q)
    last_n = (_WORDS.get(last.group("n").lower()) or int(last.group("n"))) if last else None
    if len(companies) >= 2:
        kind: Kind = "peers"
        wanted: list[int | None] = list(years) if years else [None]
    elif len(years) >= 3 or (len(years) == 2 and years[1] - years[0] >= 2):
        kind, wanted = "trend", list(range(years[0], years[-1] + 1))
    elif last_n is not None and last_n >= 3 and not years:
        kind, wanted = "trend", []  # the years come from the store (the latest N)
    else:
        return None
    grew = False
    if kind == "trend":
        metrics, grew = _levels(metrics)
    legs: list[Leg] = []
    for metric in metrics:
        for name, ticker in companies:
            own = by_company[name]
            mine: list[int | None] = (
                list(own) if kind == "peers" and own else [None] if kind == "peers" else wanted
            )
            for year in mine:
                legs.append(
                    Leg(len(legs) + 1, name, ticker, metric, year, _question(name, metric, year))
                )
    return LegPlan(
        kind,
        _combine(q, kind, grew),
        metrics,
        tuple(legs),
        last_n if not years else None,
        companies[0],
    )


def _names_own_line(q: str) -> bool:
    """The question asks of a line by its quoted caption, or which side a line is on: the
    filing's line itself, read year by year from its statement, not a catalogue metric's legs."""
    from finqa.lexicon.named_line import named_line
    from finqa.lexicon.sides import asks_side

    line = named_line(q)
    return (line is not None and line.quoted and line.metric is None) or asks_side(q)


def _stitched(q: str, companies: list[tuple[str, str]], metrics: tuple[str, ...]) -> LegPlan | None:
    """The fourth quarter (or second half) of a fiscal year as the year less its first nine
    months (first half): two legs, from the 10-K and a 10-Q. Only for an amount that flows
    over the period (revenue, income, cash flows); a balance's fourth quarter is its year end."""
    from finqa.lexicon.asked_period import asked_periods

    asked = (asked_periods(q, companies[0][0]) if len(companies) == 1 else None) or ()
    if len(companies) != 1 or len(metrics) != 1 or len(asked) != 1:
        return None
    period, metric = asked[0], METRICS[metrics[0]]
    if period.quarter != 4 or period.months not in (3, 6) or not period.fiscal_year:
        return None
    if not is_flow(metric.id):
        return None
    name, ticker = companies[0]
    fy, ytd = period.fiscal_year, 12 - period.months
    legs = (
        Leg(1, name, ticker, metric.id, fy, _question(name, metric.id, fy)),
        Leg(
            2, name, ticker, metric.id, fy, _ytd_question(name, metric.id, fy, ytd), ytd,
        ),
    )  # fmt: skip
    return LegPlan("stitched", "stitch", (metric.id,), legs, None, companies[0])


def _ttm(companies: list[tuple[str, str]], metrics: tuple[str, ...]) -> LegPlan | None:
    """Trailing twelve months of one company's flow (or its balance at the latest quarter end):
    the legs come from the store's latest 10-Q (`with_latest_quarter`). Several companies or
    metrics, or a ratio, are not planned here (None: the single-filing path says what it can)."""
    if len(companies) != 1 or len(metrics) != 1:
        return None
    metric = metrics[0]
    if not (is_flow(metric) or is_balance(metric)):
        return None
    combine: Combine = "ttm" if is_flow(metric) else "balance"
    return LegPlan("ttm", combine, (metric,), (), None, companies[0])


def with_latest_quarter(plan: LegPlan, fiscal_year: int, quarter: int, period_end: str) -> LegPlan:
    """A TTM with its legs, as of a 10-Q of fiscal `quarter` (1-3) of `fiscal_year` that ends
    on `period_end` (ISO): the prior fiscal year (its 10-K) + this year's year-to-date − the
    prior year's same year-to-date (the 10-Q's comparative column). A balance has no twelve
    months: one leg, the balance at the 10-Q's date."""
    if plan.kind != "ttm" or plan.legs or quarter not in (1, 2, 3):
        return plan
    name, ticker = plan.company
    metric, months = plan.metrics[0], quarter * 3
    legs: tuple[Leg, ...]
    if plan.combine == "balance":
        day = _spelled(period_end)
        item = METRICS[metric].name.lower()
        legs = (
            Leg(1, name, ticker, metric, fiscal_year, f"What was {name}'s {item} as of {day}?",
                0, period_end),
        )  # fmt: skip
    else:
        legs = (
            Leg(1, name, ticker, metric, fiscal_year - 1, _question(name, metric, fiscal_year - 1)),
            Leg(2, name, ticker, metric, fiscal_year,
                _ytd_question(name, metric, fiscal_year, months), months),
            Leg(3, name, ticker, metric, fiscal_year - 1,
                _ytd_question(name, metric, fiscal_year - 1, months), months),
        )  # fmt: skip
    return LegPlan(plan.kind, plan.combine, plan.metrics, legs, None, plan.company, period_end)


def _spelled(iso: str) -> str:
    """'2025-06-27' -> 'June 27, 2025'."""
    from datetime import date

    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def with_latest_years(plan: LegPlan, latest: int) -> LegPlan:
    """A trend over 'the last N fiscal years' with its years: the N ending at `latest` (the
    latest fiscal year the store holds for the company)."""
    if not plan.last_n or plan.legs:
        return plan
    legs: list[Leg] = []
    name, ticker = plan.company
    for metric in plan.metrics:
        for year in range(latest - plan.last_n + 1, latest + 1):
            legs.append(
                Leg(len(legs) + 1, name, ticker, metric, year, _question(name, metric, year))
            )
    return LegPlan(plan.kind, plan.combine, plan.metrics, tuple(legs), plan.last_n, plan.company)
