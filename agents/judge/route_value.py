"""The asked metric by one consistent choice of readings (one per line item) for the judge's
second route (routes.py), and when two such values contest each other: another source of the
same fact (a tag, a line of the same caption elsewhere) with another figure beyond rounding,
not two lines of one table, nor the same printed figure at another scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.judge.route_reading import Reading, same_value
from finqa.agents.judge.statement_figures import StatementValue
from finqa.lexicon.metrics import metric_key

__all__ = [
    "RouteValue",
    "absolute",
    "magnitudes",
    "one_value_each",
    "other_source",
    "printed_negative",
]


@dataclass(frozen=True)
class RouteValue:
    """The metric's value by one consistent choice of readings (one per line item)."""

    metric: str
    year: int
    value: float
    unit: str
    readings: tuple[Reading, ...]
    variant: str = "signed"  # 'magnitude': cash-flow outflows taken as amounts

    @property
    def routes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.route for r in self.readings))

    @property
    def strong(self) -> bool:
        """Every line item is read from a source that may contradict (not a note alone)."""
        items = {r.item for r in self.readings}
        return all(any(r.strong for r in self.readings if r.item == i) for i in items)

    @property
    def pages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f"{r.doc} p.{r.page}" for r in self.readings))

    def as_statement_value(self) -> StatementValue:
        return StatementValue(
            self.metric,
            self.value,
            self.unit,
            self.year,
            tuple(r.describe() for r in self.readings),
        )

    def describe(self) -> str:
        return (
            f"{self.metric.replace('_', ' ')} FY{self.year} = {_shown(self.value, self.unit)} by "
            f"{'+'.join(self.routes)} from " + "; ".join(r.describe() for r in self.readings)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "unit": self.unit,
            "routes": list(self.routes),
            "pages": list(self.pages),
            "readings": [r.describe() for r in self.readings],
        }


def printed_negative(r: Reading) -> bool:
    """A negative figure read from a printed table: its sign may be the layout's, not the item's."""
    return r.value < 0 and r.route != "xbrl"


def magnitudes(signed: dict[str, float], choice: Sequence[Sequence[Reading]]) -> dict[str, float]:
    return {
        item: abs(v) if printed_negative(g[0]) else v
        for (item, v), g in zip(signed.items(), choice, strict=True)
    }


def absolute(values: dict[str, float]) -> dict[str, float]:
    return {k: abs(v) for k, v in values.items()}


def other_source(hit: RouteValue, other: RouteValue) -> bool:
    """Does `other` differ from `hit` by a source of its own? Two lines of one table that the
    catalogue both maps to an item ('Property, plant and equipment' and its net line) are two
    lines, not two routes to one fact: only a line item read from another table, page, tag or
    filing can contest the figure."""
    for item in {r.item for r in other.readings}:
        mine = [r for r in hit.readings if r.item == item]
        theirs = [r for r in other.readings if r.item == item]
        if {round(r.value, 2) for r in mine} == {round(r.value, 2) for r in theirs}:
            continue
        if {_where(r) for r in mine} & {_where(r) for r in theirs}:
            continue
        if any(_contests(a, b) for a in mine for b in theirs):
            return True
    return False


def _contests(a: Reading, b: Reading) -> bool:
    """Is `b` another source of the same fact as `a` with another figure? The same fact is the
    same line: a tag, or a line of the same caption elsewhere ('Accounts payable and accrued
    liabilities' is another line than 'Accounts payable', 'Property, plant and equipment'
    another than its net line). The same printed figure at another scale ('411' in a table
    whose '(in millions)' was missed beside '$411 million') is the same figure."""
    if same_value(abs(a.value / (a.scale or 1.0)), abs(b.value / (b.scale or 1.0))):
        return False
    if same_value(abs(a.value), abs(b.value)):
        return False
    if "xbrl" in (a.route, b.route):
        return True
    return _caption(a.label) == _caption(b.label)


def _caption(label: str) -> str:
    words = [w for w in metric_key(label).split() if w != "total"]
    return " ".join(words)


def _where(r: Reading) -> tuple[str, str, int]:
    return (r.route, r.doc, r.page)


def one_value_each(values: Sequence[RouteValue]) -> bool:
    """Every sign variant of the routes gives one value (the routes agree among themselves)."""
    by: dict[str, list[float]] = {}
    for v in values:
        by.setdefault(v.variant, []).append(v.value)
    return all(all(same_value(x, xs[0]) for x in xs) for xs in by.values())


def _shown(value: float, unit: str) -> str:
    if unit == "USD" and abs(value) >= 1e6:
        return f"${value / 1e6:,.1f} million"
    return f"{value:,.4g}" + ("%" if unit == "%" else "")
