"""The judge's window on the lexicon for the answer's and the evidence's numbers, periods,
metrics and companies.

The lexicon (package `lexicon/`) is the one place numbers are parsed, and the one reader of the
question: the judge reads a question only through `finqa.lexicon.question_intent.read_intent`.
This adapter imports the lexicon lazily and exposes the few calls the judge needs, plus helpers
built on them:
`quantity_from(value, scale, unit)` (a synthetic Quantity for a computed result) and
`magnitude_close` (tolerance check of a written quantity against a computed float).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from finqa.lexicon.caches import data_cache

__all__ = [
    "extract_quantities",
    "detect_scale",
    "quantities_match",
    "find_in_text",
    "parse_quantity",
    "find_metrics",
    "metric_terms",
    "metric_alternates",
    "metric_formula",
    "metric_inputs",
    "find_companies",
    "year_mentions",
    "magnitude_close",
    "absolute",
    "quantity_from",
    "unscaled",
]


@lru_cache(maxsize=64)
def _fn(name: str) -> Any:
    """`lexicon.<name>`, imported on first use."""
    from finqa import lexicon

    return getattr(lexicon, name)


def extract_quantities(
    text: str, default_scale: float | None = None, *, auto_scale: bool = False
) -> list[Any]:
    return list(_fn("extract_quantities")(text, default_scale=default_scale, auto_scale=auto_scale))


def detect_scale(text: str) -> float | None:
    scale = _fn("detect_scale")(text)
    return float(scale) if scale else None


def quantities_match(
    a: Any, b: Any, rel_tol: float = 0.005, *, signed: bool = True, directional: bool = False
) -> bool:
    match = _fn("quantities_match")
    return bool(match(a, b, rel_tol, signed=signed, directional=directional))


def find_in_text(q: Any, text: str) -> Any | None:
    """Where `text` states quantity `q` (unit/scale-aware), or None."""
    return _fn("find_in_text")(q, text)


def parse_quantity(text: str) -> Any | None:
    return _fn("parse_quantity")(text)


def find_metrics(text: str) -> list[Any]:
    return list(_fn("find_metrics")(text))


@data_cache(512)
def metric_terms(metric_id: str) -> tuple[str, ...]:
    """Lower-case phrases that name a metric in text: its name, synonyms and line items."""
    try:
        metric = _fn("get_metric")(metric_id)
    except KeyError:  # unknown id (UnknownMetricError): the id itself is the best we have
        return (metric_id.replace("_", " ").lower(),)
    terms = {metric.name, *metric.synonyms, *metric.line_items}
    return tuple(sorted({t.lower() for t in terms if t}, key=len, reverse=True))


@lru_cache(maxsize=512)
def metric_inputs(metric_id: str) -> tuple[str, ...]:
    """The catalogue ids a derived metric's formula uses (empty for a line item or unknown id)."""
    try:
        return tuple(_fn("get_metric")(metric_id).inputs)
    except KeyError:  # unknown id (UnknownMetricError)
        return ()


@lru_cache(maxsize=512)
def metric_alternates(metric_id: str) -> tuple[str, ...]:
    """The catalogue items a line item is read as where the filer prints no line of it: its
    further formulas that are one item each ('net_income' for the amount attributable to the
    company, which a filer without noncontrolling interests prints as its one net income)."""
    try:
        metric = _fn("get_metric")(metric_id)
    except KeyError:  # unknown id (UnknownMetricError)
        return ()
    if metric.is_derived:
        return ()
    return tuple(
        f.strip()
        for f in metric.formulas[1:]
        if f.strip().isidentifier() and f.strip() != metric_id
    )


@lru_cache(maxsize=512)
def metric_formula(metric_id: str) -> str | None:
    """The lexicon formula of a derived metric ('net_income / revenue * 100'), else None."""
    try:
        formula = _fn("get_metric")(metric_id).formula
    except KeyError:  # unknown id (UnknownMetricError)
        return None
    return str(formula) if formula else None


@lru_cache(maxsize=512)
def metric_unit(metric_id: str) -> str | None:
    """The catalogue unit of a metric ('USD' for an amount, '%' for a ratio), else None."""
    try:
        return str(_fn("get_metric")(metric_id).unit)
    except KeyError:  # unknown id (UnknownMetricError)
        return None


@lru_cache(maxsize=512)
def moved_by(metric_id: str) -> str | None:
    """The line item a balance's statement prints its movement as (`Metric.moved_by`), else None."""
    try:
        moved = _fn("get_metric")(metric_id).moved_by
    except KeyError:  # unknown id (UnknownMetricError)
        return None
    return str(moved) if moved else None


def find_companies(text: str) -> list[Any]:
    return list(_fn("find_companies")(text))


def year_mentions(text: str) -> list[tuple[int, int, int]]:
    """(year, start, end) of every fiscal-year mention (the lexicon's `year_mentions`)."""
    return list(_fn("year_mentions")(text))


def absolute(q: Any) -> float:
    """Value times scale; percent stays in percent units."""
    return float(q.value) * float(q.scale or 1.0)


def quantity_from(value: float, *, scale: float = 1.0, unit: str = "", decimals: int = 6) -> Any:
    """A synthetic Quantity for a computed number (same type the lexicon returns)."""
    from finqa.lexicon.numbers import Quantity

    return Quantity(
        text=f"{value:g}",
        value=value,
        scale=scale,
        unit=unit,
        decimals=decimals,
        scale_source="explicit" if scale != 1.0 else "none",
    )


def unscaled(q: Any) -> Any:
    """q without a default (header/instruction) scale: the figure as written."""
    import dataclasses

    return dataclasses.replace(q, scale=1.0, scale_source="none")


def magnitude_close(
    q: Any, target: float, *, rel_tol: float, scales: Sequence[float] = (1.0,)
) -> bool:
    """Does written quantity `q` equal `target` (absolute units) within its written rounding?

    Tolerance = half a unit of the last written digit (times q's scale) + rel_tol * |target|.
    The comparison is on magnitudes: '(1,577)' and 'a loss of 1,577' both match -1577.
    """
    decimals = int(getattr(q, "decimals", 0) or 0)
    for extra in scales:
        written = abs(float(q.value)) * float(q.scale or 1.0) * extra
        half_ulp = 0.5 * 10.0 ** (-decimals) * float(q.scale or 1.0) * extra
        if abs(written - abs(target)) <= half_ulp + rel_tol * abs(target) + 1e-12:
            return True
    return False
