"""The judge's check of a question across filings: the combination of its legs, re-executed.

The orchestrator combines the legs' figures (`finqa.orchestrator.legs`) and records each leg and
the calculation in the audit chain. This module reads those recorded forms (plain mappings, as
written to the log: never the orchestrator's result objects) and checks, on its own:

- **the arithmetic**: every operand is the figure its leg recorded, and the result is the
  combination's own definition over the legs' figures (higher / lower: the pick; the year of
  the highest / lowest figure: the judge's own pick is the year the answer states, every year
  asked has its figure and no two years tie; difference;
  ratio; growth and trend: first to last year, in percentage points for a rate; CAGR; stitched:
  the fiscal year less its year-to-date; TTM: the prior fiscal year + this year's year-to-date
  − the prior year's same year-to-date), computed here, not by the orchestrator's expression;
- **units and scale**: every leg is in one unit, and an amount's recorded base-unit value is its
  figure as filed times the filing's stated scale;
- **periods that line up**: peers in the same fiscal year; a trend's years consecutive; a
  stitched year-to-date inside the 10-K's fiscal year; a TTM's prior-year year-to-date inside the
  10-K's fiscal year and this year's year-to-date the same span one year on, right after it.

A failed check makes the whole not accepted; `CombinationCheck.problems` says why.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

__all__ = ["CombinationCheck", "check_combination", "recompute"]

_DAYS = 7  # 52/53-week years end within a week of the calendar month's end
_REL = 1e-6  # the recorded result against the judge's: the same arithmetic, floating error only


@dataclass(frozen=True)
class CombinationCheck:
    """The judge's verdict on a combination: ok, what failed, and the judge's own result."""

    ok: bool
    problems: tuple[str, ...] = ()
    recomputed: float | None = None
    checks: tuple[str, ...] = ()  # what was checked, in words

    def as_record(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": list(self.problems),
            "recomputed": self.recomputed,
            "checks": list(self.checks),
        }


def _num(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def recompute(combine: str, values: Sequence[float], unit: str) -> float | None:
    """The combination's definition over the legs' figures (in leg order); None when it is not
    defined (a zero or negative base of a growth or CAGR, too few legs)."""
    if not values:
        return None
    first, last = values[0], values[-1]
    rate = unit == "%"
    if combine in ("higher", "compare", "highest_year"):
        return max(values)
    if combine in ("lower", "lowest_year"):
        return min(values)
    if combine == "balance":
        return first if len(values) == 1 else None
    if len(values) < 2:
        return None
    if combine == "difference":
        return first - last
    if combine == "ratio":
        return first / last if last else None
    if combine == "stitch":
        return first - last
    if combine == "ttm":
        return values[0] + values[1] - values[2] if len(values) == 3 else None
    if combine in ("growth", "trend"):
        if rate:
            return last - first  # a rate moves in percentage points
        return (last - first) / abs(first) * 100 if first else None
    if combine == "cagr":
        if first <= 0 or last <= 0:
            return None
        growth: float = ((last / first) ** (1 / (len(values) - 1)) - 1) * 100
        return growth
    return None


def _scale_problems(legs: Sequence[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for leg in legs:
        value, raw, scale = _num(leg.get("value")), _num(leg.get("raw")), _num(leg.get("scale"))
        if (
            value is None
            or raw is None
            or scale is None
            or leg.get("unit") not in ("USD", "shares")
        ):
            continue
        if not math.isclose(value, raw * scale, rel_tol=_REL, abs_tol=1e-6):
            out.append(
                f"{leg.get('label')}: recorded {value:g} is not its figure as filed {raw:g} "
                f"times its scale {scale:g}"
            )
    return out


def _years_problems(kind: str, legs: Sequence[Mapping[str, Any]]) -> list[str]:
    years = [leg.get("fiscal_year") for leg in legs]
    if kind == "peers":
        if len({y for y in years}) != 1:
            return [f"peers are not of one fiscal year: {years}"]
        return []
    if kind == "trend":
        if any(y is None for y in years) or any(leg.get("months") for leg in legs):
            return ["a trend leg is not a whole fiscal year"]
        ints = [int(y) for y in years if y is not None]
        if any(b - a != 1 for a, b in zip(ints, ints[1:], strict=False)):
            return [f"a trend's fiscal years are not consecutive: {ints}"]
    return []


def _span(leg: Mapping[str, Any]) -> tuple[date, date] | None:
    """(first day, last day) of a leg's figure, from the period end its filing states."""
    end = _day(leg.get("figure_end"))
    if end is None:
        return None
    months = int(leg.get("months") or 12)
    start = end - timedelta(days=round(months * 365.25 / 12)) + timedelta(days=1)
    return start, end


def _inside(part: tuple[date, date], year: tuple[date, date]) -> bool:
    """A year-to-date inside a fiscal year: it starts with the year and ends before its end."""
    slack = timedelta(days=_DAYS)
    return abs(part[0] - year[0]) <= slack + timedelta(days=3) and part[1] < year[1] - slack


def _stitch_problems(kind: str, legs: Sequence[Mapping[str, Any]]) -> list[str]:
    want = 2 if kind == "stitched" else 3
    if len(legs) != want:
        return [f"a {kind} combination needs {want} legs, has {len(legs)}"]
    year, ytd = legs[0], legs[-1]  # stitched: FY, YTD of FY; ttm: FY, YTD of FY+1, YTD of FY
    out: list[str] = []
    if year.get("months") or not ytd.get("months"):
        out.append("the first leg must be a fiscal year and the last a year-to-date")
    if year.get("fiscal_year") != ytd.get("fiscal_year"):
        out.append(
            f"the year-to-date (FY{ytd.get('fiscal_year')}) is not of the fiscal year "
            f"(FY{year.get('fiscal_year')})"
        )
    fy, part = _span(year), _span(ytd)
    if fy is not None and part is not None and not _inside(part, fy):
        out.append(
            f"the year-to-date {part[0]}..{part[1]} does not lie inside the fiscal year "
            f"{fy[0]}..{fy[1]}"
        )
    if kind == "ttm":
        now = legs[1]
        if now.get("months") != ytd.get("months"):
            out.append("this year's and last year's year-to-date cover different months")
        fy_now = now.get("fiscal_year")
        if fy_now is None or year.get("fiscal_year") is None or fy_now != year["fiscal_year"] + 1:
            out.append("this year's year-to-date is not of the year after the 10-K's")
        cur = _span(now)
        if cur is not None and part is not None:
            shift = (cur[1] - part[1]).days
            if abs(shift - 365) > _DAYS + 1:
                out.append(f"the two year-to-dates end {shift} days apart, not a year")
        if cur is not None and fy is not None and not (fy[1] < cur[1]):
            out.append("this year's year-to-date does not end after the 10-K's fiscal year")
    return out


def _pick_problems(
    combine: str,
    legs: Sequence[Mapping[str, Any]],
    figures: Sequence[float],
    pick: int | None,
    span: Sequence[int] | None,
) -> list[str]:
    """A year picked by its highest (lowest) figure: every year asked has its leg's figure, the
    judge's own pick is one year (no tie) and it is the year the answer states."""
    out: list[str] = []
    have = {int(leg["fiscal_year"]) for leg in legs if leg.get("fiscal_year") is not None}
    lacking = [y for y in (span or ()) if y not in have]
    if lacking:
        out.append("no figure for " + ", ".join(f"FY{y}" for y in lacking) + " of the years asked")
    if not figures:
        return out
    best = max(figures) if combine == "highest_year" else min(figures)
    top = [
        leg.get("fiscal_year")
        for leg, v in zip(legs, figures, strict=True)
        if math.isclose(v, best, rel_tol=_REL, abs_tol=1e-9)
    ]
    if len(top) != 1:
        out.append(f"no one year: {top} tie at {best:g}")
    elif pick is None or top[0] != pick:
        word = "highest" if combine == "highest_year" else "lowest"
        out.append(f"the year stated (FY{pick}) is not the {word} figure's (FY{top[0]})")
    return out


def check_combination(
    kind: str,
    combine: str,
    legs: Sequence[Mapping[str, Any]],
    calculation: Mapping[str, Any] | None,
    *,
    pick: int | None = None,
    span: Sequence[int] | None = None,
) -> CombinationCheck:
    """Check a recorded combination against its recorded legs (see the module docstring).
    `pick`: the year a highest / lowest-year answer states; `span`: the fiscal years it asks."""
    checks: list[str] = []
    problems: list[str] = []
    if calculation is None:
        return CombinationCheck(False, ("no combination recorded",))
    values = [_num(leg.get("value")) for leg in legs]
    if any(v is None for v in values):
        return CombinationCheck(False, ("a leg has no figure",))
    figures = [float(v) for v in values if v is not None]
    units = {str(leg.get("unit") or "USD") for leg in legs}
    checks.append("units")
    if len(units) != 1:
        problems.append(f"legs in different units: {sorted(units)}")
    checks.append("scale")
    problems += _scale_problems(legs)
    checks.append("operands")
    operands = {str(o.get("name")): _num(o.get("value")) for o in calculation.get("operands", ())}
    for leg, value in zip(legs, figures, strict=True):
        got = operands.get(f"leg{leg.get('index')}")
        if got is None or not math.isclose(got, value, rel_tol=_REL, abs_tol=1e-9):
            problems.append(f"operand leg{leg.get('index')} is not {leg.get('label')}'s figure")
    checks.append("periods")
    problems += _years_problems(kind, legs)
    if kind in ("stitched", "ttm") and combine != "balance":
        problems += _stitch_problems(kind, legs)
    if combine in ("highest_year", "lowest_year"):
        checks.append("pick")
        problems += _pick_problems(combine, legs, figures, pick, span)
    checks.append("arithmetic")
    mine = recompute(combine, figures, units.pop() if len(units) == 1 else "")
    recorded = _num(calculation.get("result"))
    if mine is None:
        problems.append(f"{combine} is not defined over these figures")
    elif recorded is None or not math.isclose(recorded, mine, rel_tol=_REL, abs_tol=1e-6):
        problems.append(f"recorded result {recorded} is not the {combine}'s {mine:g}")
    return CombinationCheck(not problems, tuple(problems), mine, tuple(checks))
