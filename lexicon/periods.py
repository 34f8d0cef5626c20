"""Fiscal periods in their many spellings, resolved against the company's fiscal year end.

FY N is the fiscal year that ends in calendar year N (FinanceBench's and most filers'
convention: Apple's FY2023 ends in September 2023, Walmart's FY2019 on January 31, 2019).
Companies that name a year by the year it starts (Ulta, Target, Home Depot: 'fiscal 2022'
ended January 28, 2023) have their own 'fiscal NNNN' wording shifted by one year when the
company is given; 'FY' wording is taken as the end-year convention.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from finqa.lexicon.entities import Company, find_companies, lookup_company

__all__ = [
    "DATE_PATTERN",
    "MONTH_NUMBERS",
    "WEEKS_PATTERN",
    "PeriodMatch",
    "find_periods",
    "fiscal_naming",
    "parse_date",
    "months_of_weeks",
    "quarter_of",
    "weeks_of",
    "year_mentions",
    "stated_years",
]


@dataclass(frozen=True, slots=True)
class PeriodMatch:
    text: str
    fiscal_year: int | None
    quarter: int | None = None
    half: int | None = None
    end_date: str | None = None  # ISO
    start: int = 0
    end: int = 0
    kind: str = "fy"  # fy | quarter | half | ytd | date | year
    future: bool = False  # in a forward-looking phrase ('expects to pay in 2024', 'due 2026')
    # the span's length in months where the words state it ('36 weeks ended', 'first 24 weeks
    # of'): 3, 6, 9 or 12; None where they do not
    months: int | None = None


_MONTH_NUM = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_NUM.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTH_NUM["sept"] = 9
_MON = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
# A written date ('December 31, 2022', '31 December 2022', 'Dec. 2022'), as a regex source string.
DATE_PATTERN = (
    r"(?:(?P<mon>" + _MON + r")\s+(?P<day>\d{1,2}),?\s+(?P<yr>(?:19|20)\d\d)"
    r"|(?P<day2>\d{1,2})\s+(?P<mon2>" + _MON + r"),?\s+(?P<yr2>(?:19|20)\d\d)"
    r"|(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d)"
    r"|(?P<smon>[01]?\d)/(?P<sday>[0-3]?\d)/(?P<syr>(?:19|20)\d\d)"
    r"|(?P<mon3>" + _MON + r")\s*(?:['’]\s*(?P<yr3s>\d\d)|,?\s+(?P<yr3>(?:19|20)\d\d)))"
)
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_Y = r"['’]?\s*(?P<y>(?:19|20)\d\d|\d\d)"
_FYW = r"(?:FY|fiscal(?:\s+year)?)"
# a quarter in the filer's own words ('third quarter of 2022', 'Q3 fiscal 2022'): a start-naming
# filer's year is shifted like 'fiscal N'. The 'FY' shorthand (FY N ends in calendar year N) and
# the compact forms ('Q3 2022', '3Q22', FinanceBench's document names' convention) keep the
# end-year reading
_OWN_QUARTER = re.compile(
    r"^(?!.*\bFY).*(?:\bfiscal\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\b)", re.I
)

Handler = Callable[[re.Match[str], Company | None], PeriodMatch | None]
_RULES: list[tuple[re.Pattern[str], str]] = []


def _rule(pattern: str, kind: str) -> None:
    _RULES.append((re.compile(pattern, re.I), kind))


# quarters with a year
_rule(r"\bQ(?P<q>[1-4])\s*(?:of\s+)?" + _FYW + r"\s*" + _Y + r"\b", "quarter")
_rule(r"\b" + _FYW + r"\s*" + _Y + r"\s*[-\s]?\s*Q(?P<q>[1-4])\b", "quarter")
_rule(r"\bQ(?P<q>[1-4])\s*[-'’/ ]?\s*(?P<y>(?:19|20)\d\d)\b", "quarter")
_rule(r"\bQ(?P<q>[1-4])\s*['’]\s*(?P<y>\d\d)\b", "quarter")
_rule(r"\b(?P<q>[1-4])Q\s*" + _Y + r"\b", "quarter")
_rule(r"\b(?P<y>(?:19|20)\d\d)\s*[-\s]?\s*Q(?P<q>[1-4])\b", "quarter")
_rule(
    r"\b(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter"
    r"(?:\s+(?:of\s+)?(?:the\s+)?(?:(?P<fy>FY|fiscal(?:\s+year)?)\s*)?" + _Y + r"\b)?",
    "quarter",
)
_rule(r"\bQ(?P<q>[1-4])\b", "quarter")
# halves
_rule(r"\b(?:H(?P<h>[12])|(?P<h2>[12])H)\s*(?:of\s+)?(?:" + _FYW + r"\s*)?" + _Y + r"?\b", "half")
_rule(
    r"\b(?P<ord>first|second)\s+half(?:\s+(?:of\s+)?(?:the\s+)?(?:(?P<fy>FY|fiscal(?:\s+year)?)\s*)?"
    + _Y
    + r"\b)?",
    "half",
)
# a retailer's spans in weeks (a 52/53-week calendar): a quarter is 12 to 14 weeks (16 or 17
# for the long quarter of a filer with 12-week quarters), a half 24 to 28, nine months 36 to 41
# (three quarters, one of them long), a year 52 or 53
_WEEK_NUMBERS = {
    "twelve": 12, "thirteen": 13, "fourteen": 14, "sixteen": 16, "seventeen": 17,
    "twenty four": 24, "twenty five": 25, "twenty six": 26, "twenty seven": 27,
    "twenty eight": 28, "thirty six": 36, "thirty seven": 37, "thirty eight": 38,
    "thirty nine": 39, "forty": 40, "forty one": 41, "fifty two": 52, "fifty three": 53,
}  # fmt: skip
_WEEK_SPANS = ((12, 17, 3), (24, 28, 6), (36, 41, 9), (52, 53, 12))
WEEKS_PATTERN = (
    r"(?:twelve|thirteen|fourteen|sixteen|seventeen|twenty[- ](?:four|five|six|seven|eight)|"
    r"thirty[- ](?:six|seven|eight|nine)|forty(?:[- ]one)?|fifty[- ](?:two|three)|"
    r"1[2-467]|2[4-8]|3[6-9]|4[01]|5[23])[- ]weeks?"
)
_WEEKS = WEEKS_PATTERN
_MONTH_WORDS = {3: "three months", 6: "six months", 9: "nine months", 12: "year"}


def weeks_of(phrase: str) -> int | None:
    """The number of weeks a span in weeks states ('13 weeks', 'Thirty-nine weeks' -> 13, 39)."""
    m = re.fullmatch(r"\s*(.+?)[- ]weeks?\s*", phrase, re.I)
    if m is None:
        return None
    n = m.group(1).lower().replace("-", " ")
    return int(n) if n.isdigit() else _WEEK_NUMBERS.get(n)


def months_of_weeks(weeks: int) -> int | None:
    """The span in months a span in weeks stands for (13 -> 3, 36 -> 9, 52 -> 12), else None."""
    return next((months for lo, hi, months in _WEEK_SPANS if lo <= weeks <= hi), None)


def _in_months(dur: str) -> str:
    """'13 weeks' -> 'three months', 'fifty-two weeks' -> 'year'; other spans as written."""
    weeks = weeks_of(dur)
    months = months_of_weeks(weeks) if weeks is not None else None
    return _MONTH_WORDS[months] if months is not None else dur


# periods ended a date
_rule(
    r"\b(?P<dur>(?:fiscal\s+)?years?|twelve\s+months|12\s+months|" + _WEEKS + r"|"
    r"(?:three|3)\s+months|(?:fiscal\s+)?quarters?|(?:six|6)\s+months|(?:nine|9)\s+months|"
    r"periods?)\s+(?:then\s+)?end(?:ed|ing)\s+(?:on\s+)?" + DATE_PATTERN,
    "date",
)
_rule(
    r"\b(?P<dur>(?:fiscal\s+)?quarter|(?:three|3)\s+months|(?:fiscal\s+)?year|(?:six|6)\s+months|"
    r"(?:nine|9)\s+months|"
    + _WEEKS
    + r")\s+(?:then\s+)?end(?:ed|ing)\s+(?:on\s+)?(?P<mon>"
    + _MON
    + r")\s+"
    r"(?P<day>\d{1,2})\b(?!,?\s+(?:19|20)\d\d)",
    "dateless",
)
# the opening span of a fiscal year ('the first 36 weeks of fiscal 2023', 'first six months of
# 2024'): a year to date, by its length
_rule(
    r"\b(?:the\s+)?first\s+(?P<dur>" + _WEEKS + r"|(?:three|six|nine|3|6|9)\s+months)\s+of\s+"
    r"(?:the\s+)?(?:(?P<fy>FY|fiscal(?:\s+year)?)\s*)?" + _Y + r"\b",
    "opening",
)
_rule(
    r"\b(?:YTD|year[- ]to[- ]date|(?:the\s+)?(?:first\s+)?nine\s+months\s+(?:of|ended)?)\s*"
    r"(?:(?:FY|fiscal(?:\s+year)?)\s*)?" + _Y + r"\b",
    "ytd",
)
# fiscal years
_rule(r"\bfull[- ]year\s+(?:(?:FY|fiscal)\s*)?" + _Y + r"\b", "fy")
_rule(r"\b(?P<y>(?:19|20)\d\d)\s+fiscal\s+(?:year|period)\b", "fy")
_rule(r"\bfiscal(?:\s+years?)?\s+['’](?P<y>\d\d)\b", "fy")
_rule(r"\bfiscal(?:\s+years?)?\s+(?P<y>(?:19|20)\d\d)\b", "fy_own")
_rule(r"\bFY\s*[-'’]?\s*(?P<y>(?:19|20)\d\d|\d\d)\b", "fy")
_rule(r"\b(?:CY|calendar(?:\s+year)?)\s*(?P<y>(?:19|20)\d\d)\b", "year")
# dates and bare years
_rule(r"\b" + DATE_PATTERN + r"\b", "date")
_rule(r"(?<![\d$.,])\b(?P<y>(?:19|20)\d\d)\b(?![.,]\d|%)", "year")


def _year(s: str | None) -> int | None:
    if not s:
        return None
    n = int(s)
    if n < 100:
        return 2000 + n if n < 70 else 1900 + n
    return n


def parse_date(m: re.Match[str]) -> date | None:
    g = m.groupdict()
    try:
        if g.get("iso"):
            return date.fromisoformat(g["iso"])
        for mon, day, yr in (("mon", "day", "yr"), ("mon2", "day2", "yr2")):
            if g.get(mon) and g.get(yr):
                return date(int(g[yr]), _MONTH_NUM[g[mon].rstrip(".").lower()], int(g[day]))
        if g.get("smon") and g.get("syr"):
            return date(int(g["syr"]), int(g["smon"]), int(g["sday"]))
        if g.get("mon3"):
            year = _year(g.get("yr3") or g.get("yr3s"))
            month = _MONTH_NUM[g["mon3"].rstrip(".").lower()]
            if year:
                return date(year, month, calendar.monthrange(year, month)[1])
    except (ValueError, KeyError):
        return None
    return None


def _month_end(year: int, month: int) -> date:
    while month > 12:
        month, year = month - 12, year + 1
    return date(year, month, calendar.monthrange(year, month)[1])


def _fye_month(company: Company | None) -> int:
    return company.fiscal_year_end_month if company else 12


def _quarter_end(fy: int, q: int, company: Company | None) -> date:
    fye = _fye_month(company)
    start_month = fye % 12 + 1
    start_year = fy if start_month == 1 else fy - 1
    return _month_end(start_year, start_month + 3 * q - 1)


def _period_month(day: date) -> date:
    """52/53-week years end a few days into the next month (Apple: July 1, 2023 ends Q3)."""
    return day - timedelta(days=7) if day.day <= 7 else day


def quarter_of(day: date, company: Company | None) -> int:
    """The fiscal quarter (1-4) a day falls in, by the company's fiscal year end (December if unknown)."""
    day = _period_month(day)
    start_month = _fye_month(company) % 12 + 1
    return ((day.month - start_month) % 12) // 3 + 1


def _fiscal_year_of(day: date, company: Company | None) -> int:
    day = _period_month(day)
    return day.year if day.month <= _fye_month(company) else day.year + 1


def _resolve(m: re.Match[str], kind: str, company: Company | None) -> PeriodMatch | None:
    g = m.groupdict()
    text, start, end = m.group(0), m.start(), m.end()
    if kind in ("fy", "fy_own", "year"):
        fy = _year(g.get("y"))
        if fy is None:
            return None
        if kind == "fy_own" and company is not None and company.fy_label == "start":
            fy += 1  # Ulta's 'fiscal 2022' ended in January 2023: FY2023
        end_date = _month_end(fy, _fye_month(company)).isoformat() if kind != "year" else None
        return PeriodMatch(
            text, fy, None, None, end_date, start, end, "year" if kind == "year" else "fy"
        )
    if kind == "quarter":
        q = int(g["q"]) if g.get("q") else _ORD.get((g.get("ord") or "").lower())
        fy = _year(g.get("y"))
        if fy and company is not None and company.fy_label == "start" and _OWN_QUARTER.search(text):
            fy += 1  # Foot Locker's 'third quarter of 2022' ended October 29, 2022: FY2023's
        end_date = _quarter_end(fy, q, company).isoformat() if fy and q else None
        return PeriodMatch(text, fy, q, None, end_date, start, end, "quarter")
    if kind == "half":
        h = g.get("h") or g.get("h2")
        half = int(h) if h else (1 if (g.get("ord") or "").lower() == "first" else 2)
        fy = _year(g.get("y"))
        end_date = _quarter_end(fy, 2 * half, company).isoformat() if fy else None
        return PeriodMatch(text, fy, None, half, end_date, start, end, "half")
    if kind == "ytd":
        fy = _year(g.get("y"))
        nine = "nine" in text.lower()
        end_date = _quarter_end(fy, 3, company).isoformat() if fy and nine else None
        return PeriodMatch(text, fy, None, None, end_date, start, end, "ytd", months=9 if nine else None)  # fmt: skip
    if kind == "opening":
        return _opening(m, company)
    if kind == "dateless":
        dur = _in_months((g.get("dur") or "").lower())
        month = _MONTH_NUM[g["mon"].rstrip(".").lower()]
        quarter = None
        if dur.startswith(("three", "3", "quarter", "fiscal quarter")):
            quarter = quarter_of(date(2001, month, min(int(g["day"]), 28)), company)
        kd = "quarter" if quarter else ("fy" if "year" in dur else "ytd")
        return PeriodMatch(
            text, None, quarter, 1 if dur.startswith(("six", "6")) else None, None, start, end, kd
        )
    day = parse_date(m)
    if day is None:
        return None
    fy = _fiscal_year_of(day, company)
    dur = _in_months((g.get("dur") or "").lower())
    if dur.startswith(("three", "3", "quarter", "fiscal quarter")):
        return PeriodMatch(
            text,
            fy,
            quarter_of(day, company),
            None,
            day.isoformat(),
            start,
            end,
            "quarter",
            months=3,
        )
    if dur.startswith(("six", "6")):
        return PeriodMatch(text, fy, None, 1, day.isoformat(), start, end, "half", months=6)
    if dur.startswith(("nine", "9")):
        return PeriodMatch(text, fy, None, None, day.isoformat(), start, end, "ytd", months=9)
    return PeriodMatch(text, fy, None, None, day.isoformat(), start, end, "fy" if dur else "date")


def _opening(m: re.Match[str], company: Company | None) -> PeriodMatch | None:
    """'the first 36 weeks of fiscal 2023': the year to date of that length, ending with its
    last quarter (a start-naming filer's 'fiscal N' shifted as a quarter of its own words)."""
    text, fy = m.group(0), _year(m.group("y"))
    dur = _in_months(m.group("dur").lower())
    months = {"three months": 3, "3 months": 3, "six months": 6, "6 months": 6}.get(dur, 9)
    if dur not in ("nine months", "9 months") and months == 9:
        return None  # a span of weeks that is no quarter's end ('first 20 weeks')
    if fy and company is not None and company.fy_label == "start" and _OWN_QUARTER.search(text):
        fy += 1
    end_date = _quarter_end(fy, months // 3, company).isoformat() if fy else None
    kind = {3: "quarter", 6: "half"}.get(months, "ytd")
    quarter = 1 if months == 3 else None
    half = 1 if months == 6 else None
    return PeriodMatch(text, fy, quarter, half, end_date, m.start(), m.end(), kind, months=months)


def fiscal_naming(question: str, labels: Iterable[str | None] = ()) -> str | None:
    """How the fiscal years a question names are read ('end' | 'start'): the filings' own
    naming (`FilingIdentity.fy_label`) when the filings in scope that state one agree, else
    the gazetteer's naming of the one company the question names; None when neither says."""
    known = {label for label in labels if label in ("end", "start")}
    if len(known) == 1:
        return known.pop()
    if known:
        return None  # filings of filers that name years differently: no one reading
    names = {c.name for c in find_companies(question)}
    company = lookup_company(names.pop()) if len(names) == 1 else None
    return company.fy_label if company is not None else None


def find_periods(
    text: str, company: str | None = None, *, fy_label: str | None = None
) -> list[PeriodMatch]:
    """Every period mentioned in text, in order; overlapping spellings resolve to the longest.

    company (name, ticker or alias) sets the fiscal year end used for end dates, for
    'quarter ended <date>' and for the company's own 'fiscal NNNN' naming. `fy_label` ('end' |
    'start'), when given, is the filer's own naming read from its filing
    (`FilingIdentity.fy_label`) and wins over the gazetteer's.
    """
    comp = lookup_company(company) if company else None
    if fy_label in ("end", "start"):
        base = comp or Company(name=company or "", ticker="")
        if base.fy_label != fy_label:
            comp = replace(base, fy_label=fy_label)
    taken: list[tuple[int, int]] = []
    found: list[PeriodMatch] = []
    cands: list[tuple[int, int, int, re.Match[str], str]] = []
    for order, (rx, kind) in enumerate(_RULES):
        for m in rx.finditer(text):
            cands.append((-(m.end() - m.start()), order, m.start(), m, kind))
    cands.sort(key=lambda c: (c[0], c[1], c[2]))
    for _, _, _, m, kind in cands:
        if any(m.start() < e and s < m.end() for s, e in taken):
            continue
        pm = _resolve(m, kind, comp)
        if pm is None:
            continue
        taken.append((m.start(), m.end()))
        found.append(pm)
    found.sort(key=lambda p: p.start)
    return [
        replace(p, future=True) if _FUTURE.search(text[max(0, p.start - 60) : p.start]) else p
        for p in found
    ]


_FUTURE = re.compile(
    r"\b(?:expect(?:s|ed)?|forecast(?:s|ing)?|project(?:s|ed)?|guidance|outlook|plan(?:s|ned)?|"
    r"anticipate[sd]?|due|matur(?:e|es|ing))\b[^.?!]{0,40}\Z",
    re.I,
)


MONTH_NUMBERS = _MONTH_NUM  # 'november' / 'nov' / 'sept' -> 11 / 11 / 9, for readers elsewhere


_YEAR_MENTION = re.compile(
    r"(?<![\w.,$])(?:FY\s?'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})(?!\w|,\d|%|\.\d)", re.I
)
_SHORT_FY = re.compile(r"\bFY\s?'?(\d{2})\b", re.I)


def year_mentions(text: str) -> list[tuple[int, int, int]]:
    """(year, start, end) of every fiscal-year mention, as written ('2022', 'FY2022', 'FY 22',
    'fiscal 2021'), in order; no fiscal-calendar resolution (see `find_periods` for that).
    A year that is part of a figure ('2,022', '2022%', '$2022') is not a mention."""
    out: list[tuple[int, int, int]] = []
    for m in _YEAR_MENTION.finditer(text):
        out.append((int(m.group(1)), m.start(), m.end()))
    for m in _SHORT_FY.finditer(text):
        out.append((2000 + int(m.group(1)), m.start(), m.end()))
    return sorted(out, key=lambda t: t[1])


# a year named as what the stated figure is set against ('decreased to 23.5% compared to 23.9% in
# fiscal 2021'): the statement is about the year after it
_COMPARED_TO = re.compile(
    r"\b(?:compared (?:to|with)|versus|vs\.?|over|than)\b(?:[^.;]|\.(?=\d)){0,50}$", re.I
)


def other_years_stated(text: str, asked: Iterable[int], exact: bool = False) -> tuple[int, ...]:
    """The years `text` states a fact of (`stated_years`) when none of them is an asked fiscal
    year; () when it states none, or one asked. `exact`: the filer's fiscal years are calendar
    years (`lexicon.entities.calendar_years`), so a year away is another year; otherwise a
    year away may name the same fiscal year (a 52/53-week year named by either calendar year
    it touches, a filer naming a year by the year it starts in)."""
    wanted = set(asked)
    years = stated_years(text)
    if not years or not wanted:
        return ()
    near = wanted if exact else {y + d for y in wanted for d in (-1, 0, 1)}
    return () if years & near else tuple(sorted(years))


def stated_years(text: str) -> set[int]:
    """The years a sentence states a fact of: each year it names, and the year after one it
    names only as the comparison ('... compared to 23.9% in fiscal 2021' is a fact of 2022)."""
    out: set[int] = set()
    for year, start, _end in year_mentions(text):
        out.add(year)
        if _COMPARED_TO.search(text, max(0, start - 60), start):
            out.add(year + 1)
    return out
