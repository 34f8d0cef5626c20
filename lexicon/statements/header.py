"""Column headers of a statement table -> one `StatementPeriod` per value column.

Headers come in many shapes: '2022 2021 2020'; 'December 31, 2022 December 31, 2021';
'Year Ended December 31,' over '2022 2021'; 'Three Months Ended | Six Months Ended'
over 'June 30,' over '2023 2022 2023 2022' (multi-level); '53 Weeks Ended February 3,
2018'; '2021 (As Restated)'; '(Unaudited)'. Years and dates are read by
`finqa.lexicon.periods.find_periods` (resolved against the company's fiscal year end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from finqa.lexicon.model import StatementKind, StatementPeriod
from finqa.lexicon.periods import (
    WEEKS_PATTERN,
    PeriodMatch,
    find_periods,
    months_of_weeks,
    weeks_of,
)

__all__ = ["HeaderInfo", "read_header", "is_header_line"]

_DURATION = re.compile(
    r"\b(?P<n>three|six|nine|twelve|3|6|9|12)\s+months\b"
    r"|\b(?P<w>" + WEEKS_PATTERN + r")\b"
    r"|\b(?P<q>quarters?)\s+end"
    r"|\b(?P<y>(?:fiscal\s+)?years?)\s+end",
    re.I,
)
_MONTHS_OF = {"three": 3, "3": 3, "six": 6, "6": 6, "nine": 9, "9": 9, "twelve": 12, "12": 12}
_WEEKS = re.compile(r"\b(fifty[- ]two|fifty[- ]three|52|53)[- ]weeks?\b", re.I)
_RESTATED = re.compile(r"\b(?:as\s+)?(?:restated|recast|revised|as\s+adjusted)\b", re.I)
_UNAUDITED = re.compile(r"\bunaudited\b", re.I)
_YEAR_NEXT = re.compile(r",?\s*(?:19|20)\d\d\b")  # a month and day written with its year
_MONTH_DAY = re.compile(
    r"\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+(\d{1,2})\b",
    re.I,
)
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
# words a header line may hold besides periods; anything else makes it a label/prose line
_HEADER_WORDS = re.compile(
    r"\b(?:fiscal|years?|ended|ending|as|of|at|for|the|and|three|six|nine|twelve|months?|weeks?|"
    r"period|periods|quarters?|first|second|third|fourth|to|from|restated|recast|revised|adjusted|"
    r"unaudited|audited|in|millions|thousands|billions|except|per|share|data|amounts|dollars|"
    r"successor|predecessor|total|change|fifty|two|three|four|five|seven|eight|ten|eleven|"
    r"thirteen|fourteen|sixteen|seventeen|twenty|thirty|forty|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|"
    r"apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|"
    r"dec(?:ember)?|q[1-4]|fy)\b\.?",
    re.I,
)
_QUARTER_WORDS = re.compile(
    r"(?:(?:first|second|third|fourth|1st|2nd|3rd|4th|fiscal|quarters?|q[1-4])\b\s*(?:\(\d\))?\s*)+",
    re.I,
)
_AS_OF = re.compile(r"^\s*(?:as\s+of|at)\b", re.I)
_LEFTOVER = re.compile(r"[\s,.$()\-:/%\u2013\u2014*]|\b\d{1,2}\b")
# a parenthesis stating how the table prints signs: '(brackets denote cash outflows)'
_SIGN_LEGEND = re.compile(
    r"\([^()]*\b(?:brackets?|parenthes[ie]s)\b[^()]*\b(?:denotes?|indicates?|are|represents?)\b"
    r"[^()]*\)",
    re.I,
)


# a parenthesis stating the table's scale: '(Dollars in millions, except per share amount)',
# '(MILLIONS, EXCEPT PER COMMON SHARE DATA)'; the years printed after it are the header
_SCALE_CAPTION = re.compile(r"\([^()]*\b(?:millions?|thousands?|billions?)\b[^()]*\)", re.I)


@dataclass(frozen=True)
class HeaderInfo:
    """Periods of the value columns plus table-wide flags read from the header text."""

    periods: tuple[StatementPeriod, ...]
    unaudited: bool = False


def is_header_line(line: str) -> bool:
    """True when a line holds only period wording ('Year Ended December 31,', '2022 2021',
    'First' / 'Quarter' of a quarterly table's column captions)."""
    if len(line) > 200:
        return False
    if _QUARTER_WORDS.fullmatch(line.strip()):
        return True
    line = _SCALE_CAPTION.sub(" ", _SIGN_LEGEND.sub(" ", line))
    found = find_periods(line)
    if not found and not _DURATION.search(line) and not _MONTH_DAY.search(line):
        return False
    rest = line
    for p in sorted(found, key=lambda p: -p.start):
        rest = rest[: p.start] + " " + rest[p.end :]
    rest = _HEADER_WORDS.sub(" ", rest)
    rest = _LEFTOVER.sub("", rest)
    return not rest


def _months_of(m: re.Match[str]) -> tuple[int | None, int | None]:
    """(months, weeks) of one duration phrase."""
    if m.group("n"):
        return _MONTHS_OF[m.group("n").lower()], None
    if m.group("w"):  # '13 Weeks Ended' is a quarter, '36 Weeks Ended' nine months
        weeks = weeks_of(m.group("w"))
        return (months_of_weeks(weeks) if weeks else None), weeks
    if m.group("q"):
        return 3, None
    return 12, None


def _flag_near(pattern: re.Pattern[str], text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """Per column: the flag word stands right after that column's year (or before it, ending
    with 'ended'), i.e. between the previous and the next column's year."""
    flags = [False] * len(spans)
    for m in pattern.finditer(text):
        after = [i for i, (s, _) in enumerate(spans) if s >= m.end()]
        before = [i for i, (_, e) in enumerate(spans) if e <= m.start()]
        tail = text[m.end() : m.end() + 12].lower()
        if after and ("end" in tail or not before):
            flags[after[0]] = True
        elif before:
            flags[before[-1]] = True
    return flags


def _quarter_columns(
    quarters: list[PeriodMatch], fiscal_year: int | None, company: str | None, text: str
) -> HeaderInfo:
    """'Year Ended December 31, 2016' over 'First Quarter ... Fourth Quarter': one column per
    quarter of that fiscal year (a quarterly-results note)."""
    unaudited = bool(_UNAUDITED.search(text))
    periods: list[StatementPeriod] = []
    for q in quarters:
        probe = find_periods(f"Q{q.quarter} FY{fiscal_year}", company)
        end = probe[0].end_date if probe else None
        periods.append(
            StatementPeriod(
                label=f"{q.text} {fiscal_year}",
                fiscal_year=fiscal_year,
                quarter=q.quarter,
                end_date=date.fromisoformat(end) if end else None,
                months=3,
                unaudited=unaudited,
            )
        )
    return HeaderInfo(periods=tuple(periods), unaudited=unaudited)


def _drop_caption_year(found: list[PeriodMatch]) -> list[PeriodMatch]:
    """'Nine Months Ended September 30, 2023' over '2023 2022': the caption's date names the
    first column again; the line of years names the columns (the caption gives their day)."""
    if (
        len(found) >= 3
        and len(found) % 2 == 1
        and found[0].kind in ("date", "fy", "ytd")
        and all(p.kind == "year" for p in found[1:])
        and found[0].fiscal_year == found[1].fiscal_year
    ):
        return found[1:]
    return found


def _collapse_repeats(
    found: list[PeriodMatch], durations: list[tuple[int | None, int | None]]
) -> list[PeriodMatch]:
    """'Fiscal years ended December 31, 2022, December 25, 2021' over '2022 2021' names the same
    two columns twice: keep one period per column (the dated one). Years that repeat under
    different durations ('Three Months | Six Months') are distinct columns and stay."""
    n = len(found)
    years = [p.fiscal_year for p in found]
    if n < 2 or n % 2 or len({d[0] for d in durations}) > 1 or years[: n // 2] != years[n // 2 :]:
        return found
    return [
        a if a.end_date and a.kind != "year" else b
        for a, b in zip(found[: n // 2], found[n // 2 :], strict=True)
    ]


# a line of days over a line of years ('April 29, January 28, April 30,' over '2023 2023 2022'):
# read as one text, the last day runs onto the first year ('April 30, 2023')
_DAYS_THEN_YEARS = re.compile(
    r"(?P<days>(?:" + _MONTH_DAY.pattern + r",\s*){2,})(?P<years>(?:(?:19|20)\d\d\b\*?\s*){2,})",
    re.I,
)


def _paired_days(text: str) -> str:
    """Each day of a line of days written with its column's year, where as many years follow
    as there are days: 'April 29, January 28, April 30, 2023 2023 2022' -> 'April 29, 2023
    January 28, 2023 April 30, 2022'."""

    def pair(m: re.Match[str]) -> str:
        days = [d.group(0) for d in _MONTH_DAY.finditer(m.group("days"))]
        years = re.findall(r"(?:19|20)\d\d\b\*?", m.group("years"))
        if len(days) != len(years):
            return m.group(0)
        return " ".join(f"{d}, {y}" for d, y in zip(days, years, strict=True)) + " "

    return _DAYS_THEN_YEARS.sub(pair, text)


def read_header(
    lines: list[str], kind: StatementKind, company: str | None = None
) -> HeaderInfo | None:
    """Column periods from a table's header lines; None when no column year can be read."""
    text = _paired_days(" ".join(ln.strip() for ln in lines if ln.strip()))
    every = find_periods(text, company)
    found = [
        p
        for p in every
        if p.fiscal_year is not None and p.kind in ("date", "year", "fy", "quarter", "half", "ytd")
    ]
    if not found:
        return None
    quarters = [p for p in every if p.kind == "quarter" and p.fiscal_year is None and p.quarter]
    if len(quarters) >= 2 and len({p.fiscal_year for p in found}) == 1:
        return _quarter_columns(quarters, found[0].fiscal_year, company, text)
    durations = [_months_of(m) for m in _DURATION.finditer(text)]
    found = _collapse_repeats(_drop_caption_year(found), durations)
    spans = [(p.start, p.end) for p in found]
    week_vals = _week_values(text, spans, durations)
    restated = _flag_near(_RESTATED, text, spans)
    unaudited = bool(_UNAUDITED.search(text))
    month_day = _MONTH_DAY.search(text)
    # 'October 29, October 30, January 29,' over '2022 2021 2022': one day per column, in order
    days = [m for m in _MONTH_DAY.finditer(text) if not _YEAR_NEXT.match(text, m.end())]
    per_column = len(days) == len(found) > 1 and all(p.kind == "year" for p in found)
    group_months = _column_months(durations, len(found))
    # a note table headed 'As of December 31,' / 'December 31,' with no span of time over its
    # years is a list of balances (a balance sheet's convention): its columns are instants
    at_date = kind == "other" and not durations and bool(month_day or _AS_OF.search(text))
    periods = [
        _column_period(
            p, group_months[i], kind, days[i] if per_column else month_day, company, at_date
        ).model_copy(
            update={"weeks": week_vals[i], "restated": restated[i], "unaudited": unaudited}
        )
        for i, p in enumerate(found)
    ]
    return HeaderInfo(periods=tuple(periods), unaudited=unaudited)


def _week_values(
    text: str, spans: list[tuple[int, int]], durations: list[tuple[int | None, int | None]]
) -> list[int | None]:
    """52 / 53 per column where a weeks phrase stands near it (or one heading over them all)."""
    week_flags = _flag_near(_WEEKS, text, spans)
    week_vals: list[int | None] = [None] * len(spans)
    week_numbers = [
        53 if ("53" in m.group(1) or "three" in m.group(1).lower()) else 52
        for m in _WEEKS.finditer(text)
    ]
    wi = 0
    for i, flagged in enumerate(week_flags):
        if flagged and wi < len(week_numbers):
            week_vals[i] = week_numbers[wi]
            wi += 1
    one_heading = len(durations) == 1 and durations[0][1] is not None
    if len(week_numbers) == 1 and len(spans) > 1 and one_heading and sum(week_flags) == 1:
        # one '52 weeks ended' heading over every column: all columns are 52-week years
        week_vals = [week_numbers[0]] * len(spans)
    return week_vals


def _column_months(durations: list[tuple[int | None, int | None]], ncols: int) -> list[int | None]:
    """A duration per column: groups of equal width ('Three Months | Six Months' over 4 years)."""
    plain = [d for d in durations if d[1] is None or d[0] != 12] or durations
    if plain and ncols % len(plain) == 0:
        width = ncols // len(plain)
        return [plain[i // width][0] for i in range(ncols)]
    return [None] * ncols


def _column_period(
    p: PeriodMatch,
    months: int | None,
    kind: StatementKind,
    month_day: re.Match[str] | None,
    company: str | None,
    at_date: bool = False,
) -> StatementPeriod:
    """One column's period: its end date, and fiscal year and quarter by the company's year end."""
    instant = (
        kind == "balance"
        or (months is None and p.kind == "date" and kind != "income")
        or (at_date and months is None)
    )
    end = date.fromisoformat(p.end_date) if p.end_date and p.kind != "year" else None
    if end is None and month_day is not None:
        mon = _MONTHS[month_day.group(1)[:3].lower()]
        day = int(month_day.group(2))
        try:
            end = date(p.fiscal_year or 1, mon, day) if p.kind == "year" else None
        except ValueError:
            end = None
    fy, quarter = p.fiscal_year, p.quarter
    if end is not None:  # resolve fiscal year and quarter against the company's year end
        months_word = {3: "three months", 6: "six months", 9: "nine months"}.get(
            months or 0, "year"
        )
        probe = f"{months_word} ended {end.strftime('%B')} {end.day}, {end.year}"
        res = find_periods(probe, company)
        if res and res[0].fiscal_year is not None:
            fy = res[0].fiscal_year
            quarter = res[0].quarter
        if instant or months == 3:
            q_probe = find_periods(
                f"three months ended {end.strftime('%B')} {end.day}, {end.year}", company
            )
            if q_probe and q_probe[0].quarter is not None:
                fy = q_probe[0].fiscal_year
                quarter = q_probe[0].quarter
    if instant:
        months = 0
        if quarter == 4:
            quarter = None
    elif months in (None, 12) or months in (6, 9):
        quarter = None
    return StatementPeriod(
        label=p.text, fiscal_year=fy, quarter=quarter, end_date=end, months=months, instant=instant
    )
