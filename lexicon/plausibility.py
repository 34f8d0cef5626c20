"""What a metric can be by its definition (data/plausibility.yaml): the bounds of its family (a
margin within [-100%, 100%], a turnover not negative, a share of a whole within 0-100%) and the
sign a quotient must have (an effective tax rate has the sign of tax over pre-tax income: a tax
benefit on a pre-tax loss is a positive rate).

General financial definitions only: a family lists catalogue metrics, never a question's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from finqa.lexicon._data import data_cache, read_yaml

__all__ = ["Plausibility", "plausibility", "SHARE", "out_of_bounds", "quotient_sign"]

SHARE = "share"  # the family of 'what share / percentage of <a whole>' questions


@dataclass(frozen=True, slots=True)
class Plausibility:
    """The definition-bound limits of one family of metrics."""

    family: str
    what: str
    low: float | None = None
    high: float | None = None
    quotient_sign: bool = False  # the sign is numerator's x denominator's

    def outside(self, value: float) -> bool:
        """True when `value` (in the metric's unit, percent points for '%') is out of bounds."""
        return (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        )

    def describe_bounds(self) -> str:
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        return f"[{lo}, {hi}]"


@data_cache()
def _families() -> dict[str, Plausibility]:
    out: dict[str, Plausibility] = {}
    for family, raw in (read_yaml("plausibility.yaml") or {}).items():
        bounds = list(raw.get("bounds") or (None, None))
        low, high = (None if b is None else float(b) for b in (bounds + [None, None])[:2])
        out[str(family)] = Plausibility(
            family=str(family),
            what=str(raw.get("what") or family),
            low=low,
            high=high,
            quotient_sign=raw.get("sign") == "quotient",
        )
    return out


@data_cache()
def _by_metric() -> dict[str, str]:
    return {
        str(metric): str(family)
        for family, raw in (read_yaml("plausibility.yaml") or {}).items()
        for metric in raw.get("metrics") or ()
    }


def plausibility(metric_id: str | None = None, *, share: bool = False) -> Plausibility | None:
    """The family of `metric_id` (or the share family when a share of a whole is asked)."""
    families = _families()
    if metric_id is not None and metric_id in _by_metric():
        return families.get(_by_metric()[metric_id])
    return families.get(SHARE) if share else None


def out_of_bounds(value: float, metric_id: str | None, *, share: bool = False) -> str | None:
    """Why `value` cannot be the metric by its definition, else None."""
    rule = plausibility(metric_id, share=share)
    if rule is None or (rule.low is None and rule.high is None) or not rule.outside(value):
        return None
    return f"{value:g} is outside {rule.describe_bounds()}, the range of {rule.what}"


def quotient_sign(metric_id: str | None, numerator: float, denominator: float) -> int | None:
    """The sign (+1 / -1) the metric must have given its numerator and denominator, for a family
    whose sign is the quotient's; None when the family has no such rule or a side is zero."""
    rule = plausibility(metric_id)
    if rule is None or not rule.quotient_sign or not numerator or not denominator:
        return None
    return 1 if (numerator > 0) == (denominator > 0) else -1
