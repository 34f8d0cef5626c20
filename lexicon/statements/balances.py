"""Opening and closing balances in a table whose columns are durations.

A statement of cash flows or of shareholders' equity is headed by periods of time ('Three
Months Ended June 28, 2025', 'Nine Months Ended ...', 'Year Ended ...'), but its balance
rows are points in time: 'Cash and cash equivalents at end of period' is the balance at the
column's last day, 'Total shareholders' equity, beginning balances' the balance at the day
before its first. So such a row's figure is keyed as an instant:

- closing ('end of year / period / quarter', 'ending balance', 'balance at end'): the
  instant the column ends on (a quarter's end, a fiscal year's end);
- opening ('beginning of year / period', 'beginning balance', 'balance at beginning'): the
  instant the column starts after: the quarter before for a three-month column, the prior
  fiscal year's end for a fiscal year or a year-to-date (six / nine months) column.
"""

from __future__ import annotations

import re

from finqa.lexicon.model import StatementPeriod

__all__ = ["balance_side", "balance_period", "without_balance_words"]

_SPAN = r"(?:fiscal\s+)?(?:year|period|quarter|month)s?"
_CLOSING = re.compile(
    rf"\bend\s+of\s+(?:the\s+)?{_SPAN}\b|\bending\s+balances?\b|\bbalances?,?\s+(?:at\s+|as\s+of\s+)?"
    r"(?:the\s+)?end\b|\bclosing\s+balances?\b",
    re.I,
)
_OPENING = re.compile(
    rf"\bbeginning\s+of\s+(?:the\s+)?{_SPAN}\b|\bbeginning\s+balances?\b|\bbalances?,?\s+"
    r"(?:at\s+|as\s+of\s+)?(?:the\s+)?beginning\b|\bopening\s+balances?\b",
    re.I,
)


# the words of an opening / closing balance at a caption's end ('..., end of year', '... at
# beginning of period', '..., ending balances'), kept apart from the line they qualify
_BALANCE_TAIL = re.compile(
    rf"[\s,]*(?:(?:at|as\s+of)\s+)?(?:the\s+)?(?:end|beginning)\s+of\s+(?:the\s+)?{_SPAN}"
    r"\s*$|[\s,]*(?:beginning|ending|opening|closing)\s+balances?\s*$",
    re.I,
)


def without_balance_words(label: str) -> str | None:
    """A caption without the opening / closing words at its end ('Cash, cash equivalents and
    restricted cash, end of year' -> 'Cash, cash equivalents and restricted cash'); None when
    it ends in none."""
    rest = _BALANCE_TAIL.sub("", label)
    return rest if rest != label and rest.strip() else None


def balance_side(label: str) -> str | None:
    """'opening', 'closing' or None for a row caption."""
    if _CLOSING.search(label):
        return "closing"
    if _OPENING.search(label):
        return "opening"
    return None


def balance_period(period: StatementPeriod, side: str) -> StatementPeriod | None:
    """The instant an opening / closing balance of a duration column stands at; None when
    the column is already an instant or its span is not known (never guessed)."""
    if period.instant or period.fiscal_year is None:
        return None
    months, fy = period.months, period.fiscal_year
    if months == 12 or (months is None and period.quarter is None):
        quarter_end: int = 4
    elif months in (3, 6, 9) and (period.quarter is not None or months != 3):
        quarter_end = period.quarter if period.quarter is not None else months // 3
    else:
        return None
    if side == "closing":
        fiscal_year, quarter = fy, quarter_end
        end = period.end_date
    else:
        span = 3 if months == 3 else 3 * quarter_end  # a YTD or a year starts at the year's start
        start_q = quarter_end - span // 3
        fiscal_year, quarter = (fy, start_q) if start_q > 0 else (fy - 1, 4)
        end = None
    return StatementPeriod(
        label=f"{period.label} ({side} balance)",
        fiscal_year=fiscal_year,
        quarter=None if quarter == 4 else quarter,
        end_date=end,
        months=0,
        instant=True,
        restated=period.restated,
        unaudited=period.unaudited,
    )
