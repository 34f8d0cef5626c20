"""One source's reading of a line item for the judge's second route (routes.py): a fact of
the statement model as the total of a catalogue line item for one fiscal year, the route it
comes by (the inline-XBRL tag, a primary statement's main printing, the sum of a printed
total's parts, another table of the filing, a later filing's comparative column), and the
readings of one line item grouped by value (within rounding).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from finqa.agents.judge.component_routes import contested_totals
from finqa.agents.types import StatementFact
from finqa.lexicon.statements.main_printing import on_main_printing
from finqa.lexicon.statements.signs import item_nature

__all__ = [
    "RouteKind",
    "Reading",
    "by_value",
    "component_sums",
    "fact_reading",
    "item_unit",
    "one_per_route",
    "part_reading",
    "period_type_fits",
    "same_value",
    "summed_lines",
]

RouteKind = Literal["xbrl", "statement", "components", "other_table", "later_filing"]

_PRIMARY = frozenset({"income", "balance", "cashflow"})
_SAME = 0.005  # two readings within 0.5% are one figure read at two roundings
_MAX_GROUPS = 3  # distinct values kept per line item


@dataclass(frozen=True)
class Reading:
    """One line item's value for one fiscal year, as one source of the statement model has it."""

    item: str
    year: int
    value: float  # base units, signed
    unit: str
    route: RouteKind
    doc: str
    page: int
    label: str
    raw: str = ""
    statement: str = ""
    scale: float = 1.0  # as filed ('(in millions)': 1e6)

    @property
    def strong(self) -> bool:
        """A source that may contradict a figure: a tag, a primary statement, a later filing."""
        return self.route != "other_table"

    def describe(self) -> str:
        shown = self.raw or f"{self.value:,.6g}"
        return f"{self.label} FY{self.year} = {shown} ({self.doc} p.{self.page}, {self.route})"


def fact_reading(
    fact: StatementFact, item: str, year: int, later: bool, main: dict[str, int] | None = None
) -> Reading | None:
    """A fact as a reading of the total: tags with a dimension, segment and quarterly tables
    and quarter columns are parts or other periods, not the line item's year; a primary
    statement's table away from its main printing (`main`: parent-only, condensed
    consolidating, a summary) is another table, which corroborates but never contradicts."""
    if fact.dimensions or fact.statement in ("segment", "quarterly"):
        return None
    if not _annual_fit(fact, item):
        return None
    route: RouteKind
    off_main = fact.statement in _PRIMARY and not on_main_printing(
        str(fact.statement), fact.page, str(fact.source), main or {}
    )
    if later and not (off_main and fact.source != "xbrl"):
        # a later filing's comparative column of its main printing; another registrant's
        # statements in it (a combined filing's subsidiary) are another table there too
        route = "later_filing"
    elif later:
        route = "other_table"
    elif fact.source == "xbrl":
        route = "xbrl"
    elif fact.statement in _PRIMARY and on_main_printing(
        str(fact.statement), fact.page, str(fact.source), main or {}
    ):
        route = "statement"
    else:
        route = "other_table"
    return _as_reading(fact, item, year, route)


def component_sums(
    store: Any,
    doc: str,
    facts: Sequence[StatementFact],
    item: str,
    year: int,
    later: bool,
    main: dict[str, int],
) -> list[Reading]:
    """The sum of a printed total's parts where it is another figure than the total (beyond
    the printed rounding): a reading of its own (`components`) that contests the total."""
    out: list[Reading] = []
    for fact, value, lines in contested_totals(store, doc, facts):
        total = fact_reading(fact, item, year, later, main)
        if total is not None and total.strong:
            raw = f"sum of components {lines}"
            out.append(dataclasses.replace(total, value=value, route="components", raw=raw))
    return out


def summed_lines(readings: Sequence[Reading], item: str) -> list[Reading]:
    """A summed line item (`LineItem.summed`: short-term debt printed as 'Short-term
    borrowings' and 'Current portion of long-term debt') is the sum of its lines on one
    statement: the readings of one page, statement and route under distinct captions become
    one reading of their sum (each line alone is a part, no reading of the item); a 'Total
    ...' line among them is that sum, read alone."""
    from finqa.lexicon.line_items import get_item

    li = get_item(item)
    if li is None or not li.summed:
        return list(readings)
    groups: dict[tuple[str, int, str, str], list[Reading]] = {}
    for r in readings:
        groups.setdefault((r.doc, r.page, r.statement, r.route), []).append(r)
    out: list[Reading] = []
    for (_doc, _page, statement, route), group in groups.items():
        labels = {r.label for r in group}
        if statement not in _PRIMARY or route == "components" or len(labels) < 2:
            out.extend(group)
            continue
        if len(labels) != len(group):
            out.extend(group)  # one caption read twice: not lines to add up
            continue
        totals = [r for r in group if r.label.strip().lower().startswith("total")]
        if totals:  # a 'Total ...' line of the item is the sum itself (as the reasoner reads it)
            out.append(totals[0])
            continue
        lines = " + ".join(f"{r.label} {r.raw or r.value}" for r in group)
        out.append(
            dataclasses.replace(
                group[0],
                value=sum(r.value for r in group),
                label=" + ".join(r.label for r in group),
                raw=f"sum of the lines {lines}",
            )
        )
    return out


def part_reading(fact: StatementFact, item: str, year: int) -> Reading | None:
    """A fact of the asked member as a reading of the part's line item for the year: the tag
    of the member may contradict; a table's row of the part corroborates only (a text table's
    part may be a narrower or broader breakdown than the tag's)."""
    if not _annual_fit(fact, item):
        return None
    route: RouteKind = "xbrl" if fact.source == "xbrl" else "other_table"
    return _as_reading(fact, item, year, route)


def _annual_fit(fact: StatementFact, item: str) -> bool:
    """The fact is of the item's period type and a year's figure (no quarter, no part-year)."""
    months = fact.period.months
    part_year = fact.period.quarter is not None or (
        months not in (None, 0, 12) and not fact.period.instant
    )
    return period_type_fits(fact, item) and not part_year


def _as_reading(fact: StatementFact, item: str, year: int, route: RouteKind) -> Reading:
    return Reading(
        item=item,
        year=year,
        value=float(fact.value),
        unit=str(fact.unit),
        route=route,
        doc=fact.doc_id,
        page=fact.page,
        label=fact.label,
        raw=fact.raw,
        statement=str(fact.statement),
        scale=float(fact.scale or 1.0),
    )


def period_type_fits(fact: StatementFact, item: str) -> bool:
    """A balance (an instant) is not read from a flow statement (the cash-flow line
    'Merchandise inventories (194)' is the year's change, not the year-end inventory, whatever
    date heads its column; only the cash balance closes a cash-flow statement), and a flow (a
    duration) is not read from the balance sheet."""
    nature = item_nature(item)
    if nature is None:
        return True
    if nature.period_type == "instant":
        if fact.statement == "cashflow":  # its lines of balance items are their changes;
            return item.startswith("cash") and fact.period.instant  # only cash itself closes it
        return fact.period.instant or fact.statement != "income"
    if nature.period_type == "duration":
        return fact.statement != "balance" and not fact.period.instant
    return True


def item_unit(item: str) -> str | None:
    try:
        from finqa.lexicon import get_metric

        return str(get_metric(item).unit)
    except Exception:  # noqa: BLE001 - a label, not a catalogue id: any unit
        return None


def same_value(a: float, b: float) -> bool:
    return abs(a - b) <= _SAME * max(abs(a), abs(b)) + 1e-9


def by_value(readings: Iterable[Reading]) -> list[list[Reading]]:
    """Readings grouped by value (within rounding): strong sources' groups first, then in
    source order (a tag before a table, a primary statement before a note)."""
    order = {"xbrl": 0, "statement": 1, "components": 2, "later_filing": 3, "other_table": 4}
    groups: list[list[Reading]] = []
    for r in sorted(readings, key=lambda r: order[r.route]):
        for g in groups:
            if same_value(g[0].value, r.value):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups[:_MAX_GROUPS]


def one_per_route(group: Sequence[Reading]) -> tuple[Reading, ...]:
    """The readings of one value worth showing: one per route."""
    out: dict[str, Reading] = {}
    for r in group:
        out.setdefault(r.route, r)
    return tuple(out.values())
