"""How a figure is printed in an answer: the way the filing and an analyst's memo write it.

One place for every answer figure ('$51,217 million', '$4.5 million', '$13.89 per diluted share',
'12.3%', '0.83', '45.2 days'). Amounts keep decimals only when the value has them (up to two,
trailing zeros dropped) or a precision is asked for; each unit's display precision is
`UNIT_DECIMALS`; a metric may set its own in `lexicon/data/metrics.yaml` (`decimals:`). The value,
unit and scale recorded in JSON and the audit log are not affected: this is text only.
"""

from __future__ import annotations

import math
from datetime import date

__all__ = [
    "UNIT_DECIMALS",
    "SCALE_WORDS",
    "format_amount",
    "format_number",
    "per_share_suffix",
    "own_year",
    "shown_base",
    "period_phrase",
]

# Display precision by unit. For 'USD' and 'shares' it is the most decimals shown (trailing
# zeros dropped: '$51,217 million', '$4.5 million'); for the others it is fixed ('$5.00 per
# share', '53.0%', '0.80', '45.2 days').
UNIT_DECIMALS: dict[str, int] = {
    "USD": 2,
    "USD/share": 2,
    "%": 1,
    "ratio": 2,
    "times": 2,
    "days": 1,
    "shares": 0,
}
SCALE_WORDS: dict[float, str] = {1e3: "thousand", 1e6: "million", 1e9: "billion"}
_FIXED = frozenset({"USD/share", "%", "ratio", "times", "days"})


def format_number(value: float, decimals: int = 2, *, fixed: bool = False) -> str:
    """'51,217' for 51217.0, '4.5' for 4.5, '1,234.57' for 1234.567 (at most `decimals`);
    with `fixed`, exactly `decimals` ('5.00'). Never '-0'."""
    text = f"{value:,.{max(decimals, 0)}f}"
    if not fixed and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text.lstrip("-").strip("0.,") == "":
        text = text.lstrip("-")
    return text


def per_share_suffix(diluted: bool | None) -> str:
    """' per diluted share' for a diluted per-share figure, else ' per share'."""
    return " per diluted share" if diluted else " per share"


def format_amount(
    value: float,
    unit: str,
    scale: float = 1.0,
    decimals: int | None = None,
    *,
    diluted: bool | None = None,
    with_percent: bool = False,
) -> str:
    """A figure as an answer prints it. `scale` is the money scale of a USD value (1e6: the value
    is in millions, printed '$51,217 million'); `decimals` a precision asked for (fixed), else the
    unit's display precision; `diluted` names a per-share figure's basis; `with_percent` shows a
    ratio's percent beside it ('0.29 (28.8%)': a return is quoted as a percent)."""
    asked = decimals is not None
    d = UNIT_DECIMALS.get(unit, 2) if decimals is None else decimals
    sign = "-" if value < 0 and format_number(abs(value), d, fixed=asked) != "0" else ""
    if unit == "USD":
        word = SCALE_WORDS.get(scale, "")
        shown = format_number(abs(value), d, fixed=asked)
        return f"{sign}${shown}{' ' + word if word else ''}"
    if unit in ("USD/share", "usd/share"):
        return f"{sign}${format_number(abs(value), d, fixed=True)}{per_share_suffix(diluted)}"
    if unit == "%":
        return f"{format_number(value, d, fixed=True)}%"
    if unit == "days":
        return f"{format_number(value, d, fixed=True)} days"
    if unit == "shares":
        word = SCALE_WORDS.get(scale, "")
        return f"{format_number(value, d, fixed=asked)}{' ' + word if word else ''} shares"
    if unit in ("ratio", "times") and value and abs(value) < 10 ** (1 - d):
        # a small ratio is never rounded away: -0.0128 at two decimals would read '-0.01'
        sig = max(d, -math.floor(math.log10(abs(value))) + 1)
        # '0.01 times' has no percent; a precision asked holds for the percent too
        pct = f" ({value * 100:.{d if asked else 1}f}%)" if unit == "ratio" else ""
        return f"{value:.{sig}f}{pct}"
    if unit == "ratio" and with_percent:
        return f"{format_number(value, d, fixed=True)} ({value * 100:.{d if asked else 1}f}%)"
    return format_number(value, d, fixed=asked or unit in _FIXED)


def own_year(fiscal_year: int, fy_label: str | None) -> int:
    """A filer's own name for the end-year FY N: N - 1 when it names a year by the calendar year
    it starts in (`fy_label` 'start': the year ended February 3, 2024 is its 'fiscal 2023')."""
    return fiscal_year - 1 if fy_label == "start" else fiscal_year


def period_phrase(
    fiscal_year: int, end: date | None = None, *, instant: bool = False, fy_label: str = "end"
) -> str:
    """How an answer names a fiscal year's figure: a balance 'as of December 31, 2024'; a
    fiscal year that does not end in December 'fiscal 2024 (ended Sep 28, 2024)'; else 'FY2024'
    (also when the end date is unknown). A filer that names its years by the calendar year they
    start in (`fy_label` 'start') has its own name kept: FY2024 ended Feb 3, 2024 is its
    'fiscal 2023 (ended Feb 3, 2024)'."""
    if end is None:
        return f"FY{fiscal_year}"
    if instant:
        return f"as of {end.strftime('%B')} {end.day}, {end.year}"
    if end.month == 12:
        return f"FY{fiscal_year}"
    return f"fiscal {own_year(fiscal_year, fy_label)} (ended {end.strftime('%b')} {end.day}, {end.year})"


def shown_base(value: float, unit: str | None) -> str:
    """A figure in base units (dollars, not millions) as an answer prints it: an amount of a
    million or more in millions ('$5,560 million'), anything else in its own unit."""
    unit = unit or "USD"
    if unit == "USD" and abs(value) >= 1e6:
        return format_amount(value / 1e6, "USD", 1e6, decimals=0)
    return format_amount(value, unit)
