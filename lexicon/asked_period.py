"""The span of time a question asks a figure for: a fiscal year, a quarter, a year to date, or a
balance at a date, and which column of a statement table answers for it.

A question names its periods in many spellings ('Q2 2024', 'second quarter of fiscal 2025',
'six months ended June 30, 2024', 'first half of 2025', 'as of March 31, 2025');
`find_periods` reads them, `asked_periods` turns them into one `AskedPeriod` per fiscal year
the question names, and `AskedPeriod.fits` says whether a statement column
(`StatementPeriod`) is that period:

- a flow (income, cash flow) column fits when it covers the same span (3 months for a quarter,
  6 or 9 months for a year to date, 12 for a fiscal year) and ends on the same date (within a
  week: 52/53-week filers end on a weekday) or, when the question gives no date, in the same
  fiscal year and quarter;
- a balance column (an instant) fits when it is the balance at the period's end: at the date
  the question states, else at the end of that fiscal quarter / year.

A date stated in the question wins over a fiscal quarter computed from a fiscal calendar, so a
company whose year end the lexicon does not know is still read at the right column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from finqa.lexicon.entities import Company, lookup_company
from finqa.lexicon.periods import DATE_PATTERN, PeriodMatch, find_periods, quarter_of

if TYPE_CHECKING:
    from finqa.lexicon.model import StatementPeriod

__all__ = ["AskedPeriod", "asked_periods"]

_DATED = re.compile(DATE_PATTERN, re.I)
_SAME_DAY_DAYS = 7  # 52/53-week years: 'June 28, 2025' and 'June 30, 2025' are the same quarter end
_WORDS = {3: "three months", 6: "six months", 9: "nine months", 12: "year"}


@dataclass(frozen=True, slots=True)
class AskedPeriod:
    """One period a question asks for, in its fiscal year.

    `months`: 12 for a fiscal year, 3 for a quarter, 6 / 9 for a year to date (None: a year to
    date of unstated length), 0 for a balance at a date. `quarter`: the fiscal quarter the
    period ends with (None for a fiscal year). `end_date`: only when the question states it.
    """

    text: str
    fiscal_year: int
    months: int | None = 12
    quarter: int | None = None
    end_date: date | None = None

    @property
    def annual(self) -> bool:
        return self.months == 12

    @property
    def instant(self) -> bool:
        return self.months == 0

    def label(self) -> str:
        """How an answer names the period: 'FY2025', 'Q3 FY2025', 'quarter ended June 28, 2025',
        'six months ended June 30, 2024', 'first half of FY2025', 'March 31, 2025'."""
        if self.end_date is not None and not self.annual:
            day = f"{self.end_date.strftime('%B')} {self.end_date.day}, {self.end_date.year}"
            if self.instant:
                return day
            if self.months == 3:
                return f"quarter ended {day}"
            if self.months in _WORDS:
                return f"{_WORDS[self.months]} ended {day}"
            return f"year to date ended {day}"
        if self.annual:
            return f"FY{self.fiscal_year}"
        if self.months == 3 and self.quarter:
            return f"Q{self.quarter} FY{self.fiscal_year}"
        if self.instant and self.quarter:
            return f"end of Q{self.quarter} FY{self.fiscal_year}"
        if self.months == 6:
            return f"first half of FY{self.fiscal_year}"
        if self.months == 9:
            return f"nine months of FY{self.fiscal_year}"
        return f"year to date FY{self.fiscal_year}"

    def fits(self, column: StatementPeriod) -> bool:
        """Whether a statement column holds this period's figure (see the module's rules)."""
        if column.fiscal_year is None and column.end_date is None:
            return False
        if column.instant:
            return self._fits_instant(column)
        if self.instant:
            # 'revenue as of September 28, 2024': the fiscal year that ended that day
            return (
                column.months in (None, 12)
                and column.end_date is not None
                and self.end_date is not None
                and _same_day(self.end_date, column.end_date)
            )
        if self.annual:
            return self._annual_flow(column)
        if self.months is None:
            if column.months not in (6, 9):
                return False
        elif column.months != self.months:
            return False
        if self.end_date is not None and column.end_date is not None:
            return _same_day(self.end_date, column.end_date)
        if column.fiscal_year != self.fiscal_year:
            return False
        return self.months != 3 or column.quarter == self.quarter

    def _annual_flow(self, column: StatementPeriod) -> bool:
        if column.months not in (None, 12):
            return False
        if column.quarter is not None and column.months != 12:
            return False
        return column.fiscal_year == self.fiscal_year

    def _fits_instant(self, column: StatementPeriod) -> bool:
        if self.end_date is not None and column.end_date is not None:
            return _same_day(self.end_date, column.end_date)
        if column.fiscal_year != self.fiscal_year:
            return False
        quarter = None if self.annual else self.quarter
        return column.quarter == (None if quarter == 4 else quarter)


def _same_day(a: date, b: date) -> bool:
    return abs((a - b).days) <= _SAME_DAY_DAYS


def _stated_date(p: PeriodMatch) -> date | None:
    if p.end_date is None or not _DATED.search(p.text):
        return None
    return date.fromisoformat(p.end_date)


def _asked(p: PeriodMatch) -> AskedPeriod | None:
    """The period one mention asks for, None for a mention that names no fiscal year."""
    if p.fiscal_year is None:
        return None
    fy, day = p.fiscal_year, _stated_date(p)
    if p.kind == "quarter":
        return AskedPeriod(p.text, fy, 3, p.quarter, day)
    if p.kind == "half":
        return AskedPeriod(p.text, fy, 6, 2 * (p.half or 1), day)
    if p.kind == "ytd":
        nine = p.months == 9 or "nine" in p.text.lower() or "9 months" in p.text.lower()
        return AskedPeriod(p.text, fy, 9 if nine else None, 3 if nine else None, day)
    if p.kind == "date" and day is not None:
        quarter = quarter_of(day, None)
        if quarter == 4 and day.month == 12:
            return AskedPeriod(p.text, fy, 12, None, day)  # a calendar year's end
        return AskedPeriod(p.text, fy, 0, quarter, day)
    return AskedPeriod(p.text, fy, 12, None, day)


def asked_periods(
    text: str, company: str | None = None, *, fy_label: str | None = None
) -> tuple[AskedPeriod, ...] | None:
    """One `AskedPeriod` per fiscal year the text names, in order of the years; None when two
    different spans are asked in one fiscal year ('Q1 2025 vs Q2 2025', 'FY2023 ... Q4 FY2023':
    a per-year reader cannot hold both). A bare year beside a quarter of that year ('Q3 ...
    2025') names the quarter; a quarter named twice (by its date and by its number) is one.
    """
    by_year: dict[int, list[tuple[AskedPeriod, bool]]] = {}
    found = find_periods(text, company, fy_label=fy_label)
    comp = lookup_company(company) if company else None
    for i, p in enumerate(found):
        ask = _asked(p)
        if ask is None:
            continue
        asks = by_year.setdefault(ask.fiscal_year, [])
        if i and asks and asks[-1][0].text == found[i - 1].text and _restates_end(found[i - 1], p, text, comp):  # fmt: skip
            named = asks[-1][0]
            asks[-1] = (replace(named, end_date=ask.end_date), False)
            continue
        if i and asks and asks[-1][0].text == found[i - 1].text and _restates_end(p, found[i - 1], text, comp):  # fmt: skip
            # 'at April 1, 2023, the end of Q1 2023': the date, then the period it ends
            asks[-1] = (replace(ask, end_date=asks[-1][0].end_date), False)
            continue
        asks.append((ask, p.kind == "year"))
    out: list[AskedPeriod] = []
    for year in sorted(by_year):
        asks = by_year[year]
        firm = [a for a, bare in asks if not bare]
        shorter = [a for a in firm if not a.annual]
        if not shorter:
            out.append(firm[0] if firm else asks[0][0])
            continue
        if len(shorter) != len(firm):
            return None  # the fiscal year and a shorter span of it, both asked
        merged = shorter[0]
        for other in shorter[1:]:
            if _same_span(merged, other):
                merged = _merge(merged, other)
            else:
                return None
        out.append(merged)
    return tuple(out)


# what sets a date beside the period it ends: '(May 30, 2021)', ', i.e. May 30, 2021', '(ended ...'
_APPOSITION = re.compile(
    r"\s*(?:\(|,|\u2013|\u2014|-)\s*(?:i\.e\.,?\s*|(?:which\s+)?end(?:ed|ing)\s+(?:on\s+)?|"
    r"through\s+|to\s+)?",
    re.I,
)
# what sets a period after the date it ends: ', the end of Q1 2023', '(the last day of fiscal 2021'
_APPOSITION_BACK = re.compile(
    r"\s*(?:\(|,|\u2013|\u2014|-)\s*(?:i\.e\.,?\s*)?(?:the\s+)?"
    r"(?:(?:end|close|last\s+day)\s+of\s+(?:the\s+)?(?:its\s+)?)?",
    re.I,
)
_LAST_QUARTER = {"fy": 4, "year": 4, "half": 2, "ytd": 3}


def _restates_end(named: PeriodMatch, day: PeriodMatch, text: str, company: Company | None) -> bool:
    """A bare date set in apposition right after a period of its fiscal year ('at the end of
    fiscal 2021 (May 30, 2021)', 'the third quarter of fiscal 2023 (May 7, 2023)', 'the first
    six months of 2022 (through June 26, 2022)'), or right before it ('at April 1, 2023, the
    end of Q1 2023'), names that period's end: the date falls in the period's last fiscal quarter (by the company's
    calendar). Two periods joined by words ('FY2023 and Q4 FY2023') stay two."""
    if day.kind != "date" or named.kind not in ("fy", "year", "quarter", "half", "ytd"):
        return False
    if named.fiscal_year != day.fiscal_year or day.end_date is None:
        return False
    after = day.start >= named.end
    between = (
        _APPOSITION.fullmatch(text, named.end, day.start)
        if after
        else _APPOSITION_BACK.fullmatch(text, day.end, named.start)
    )
    if between is None:
        return False
    last = named.quarter if named.kind == "quarter" else _LAST_QUARTER[named.kind]
    if named.kind == "half":
        last = 2 * (named.half or 1)
    return last is not None and quarter_of(date.fromisoformat(day.end_date), company) == last


def _same_span(a: AskedPeriod, b: AskedPeriod) -> bool:
    """One span named twice: equal, or its stated date beside its fiscal quarter's number
    (by the company's calendar, which the date's reading without a company may not know)."""
    if a.months != b.months:
        return False
    if a.end_date is not None and b.end_date is not None:
        return _same_day(a.end_date, b.end_date)
    if (a.end_date is None) != (b.end_date is None):
        return True
    return a.quarter == b.quarter


def _merge(a: AskedPeriod, b: AskedPeriod) -> AskedPeriod:
    """Two spellings of one period: the stated date and the fiscal quarter's number kept."""
    dated = a if a.end_date is not None else b
    numbered = b if dated is a else a
    if numbered.end_date is None and numbered.quarter is not None:
        return AskedPeriod(
            dated.text, dated.fiscal_year, dated.months, numbered.quarter, dated.end_date
        )
    return dated
