"""The parts of one breakdown read from the statement model, and the one a choice picks.

A breakdown is one table's figures by part (a segment note's table, a tagged axis): the parts
of a text table are its rows or column heads (one table: its parts are never mixed with
another table's), the parts of the filing's tags are the members of one axis. For a
`part_choice.PartChoice`:

- `read_breakdowns(store, docs, choice, period)`: each breakdown of the asked kind of part
  holding the measure for at least two parts, with every part's value (its level, its growth
  or change over the same span a year before, or a derived metric over its own line items by
  the catalogue's formula), the rest of the breakdown (corporate, other, eliminations) apart,
  and the consolidated figure the parts add up to where the table prints a total;
- `pick(breakdown, choice)`: the part with the highest / lowest value and the runner-up, or
  why no part is picked (fewer than two parts, a tie, parts that do not add up to the printed
  total, a rest row that would be the extreme).

Both the reasoner and the judge read a breakdown here (the one reader of figures); the judge
re-reads it and checks the answer's named part against it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from finqa.lexicon.dimension_figures import year_before
from finqa.lexicon.dimension_members import (
    axis_kind,
    fact_dimension,
    is_residual,
    member_name,
    name_key,
)

if TYPE_CHECKING:
    from finqa.lexicon.model import StatementFact
    from finqa.lexicon.part_choice import PartChoice

__all__ = ["Breakdown", "PartValue", "Pick", "read_breakdowns", "pick", "best_breakdown"]

# rows of a breakdown that are adjustments between the parts and the total, never a part (a
# 'Corporate' or 'All Other' row may be a segment the filer lists; these never are)
_ADJUSTMENT = re.compile(
    r"eliminat|intersegment|inter-segment|reconcil|unallocated|adjustment|total|consolidat|"
    r"\bgains?\b|\blosses\b|\bhedg",
    re.I,
)
# a company-wide row named by its level ('Alphabet-level activities', 'corporate-level costs')
_LEVEL = re.compile(r"-level\b", re.I)
# 'Other Americas', 'Rest of Asia Pacific': on a geographic axis a part of its own
_REST_OF_PLACE = re.compile(r"^(?i:other|rest\s+of)\s+[A-Z]")


@dataclass(frozen=True)
class PartValue:
    """One part's value of the measure, with the facts it is computed from."""

    name: str  # as the filing prints it ('Data Center')
    member: str
    value: float  # base units for an amount, percent for a growth or a margin
    facts: tuple[StatementFact, ...]  # the measure's operands: this period's first
    rest: bool = False  # corporate, other, eliminations: the rest of the breakdown


@dataclass(frozen=True)
class Breakdown:
    """The parts of one table (or one tagged axis) for one period."""

    doc_id: str
    table_id: str
    page: int
    kind: str
    period: str  # the period key ('FY2022', '2023Q2')
    percent: bool  # values are percents (a growth or a margin), else amounts in base units
    parts: tuple[PartValue, ...]
    rest: tuple[PartValue, ...] = ()
    total: float | None = None  # the consolidated figure of the item (where a total is printed)
    adds_up: bool | None = None  # the parts (with the rest) add up to it; None: not checked
    scale: float = 1.0


@dataclass(frozen=True)
class Pick:
    """The part a choice names, the runner-up, or why none is named."""

    winner: PartValue | None
    runner_up: PartValue | None
    reason: str = ""  # why no part is picked


def _kept(name: str, kind: str) -> bool:
    if _ADJUSTMENT.search(name) or _LEVEL.search(name):
        return False  # an adjustment or a company-wide row is the breakdown's rest
    if not is_residual(name):
        return True
    return kind == "geography" and bool(_REST_OF_PLACE.match(name.strip()))


def _groups(tables: Iterable[Any]) -> list[tuple[Any, str, list[StatementFact]]]:
    """(table, group key, its facts by part): a text table is one group (its parts' axes are
    read from their names and may differ); a tagged table one group per axis."""
    out: list[tuple[Any, str, list[StatementFact]]] = []
    for table in tables:
        by: dict[str, list[StatementFact]] = {}
        for fact in table.facts:
            dim = fact_dimension(fact)
            if dim is None:
                continue
            key = dim[0] if fact.source == "xbrl" else ""
            by.setdefault(key, []).append(fact)
        out.extend((table, key, facts) for key, facts in by.items())
    return out


def _kind(facts: Sequence[StatementFact]) -> str | None:
    """The kind of part most of the group's parts are read as."""
    kinds: Counter[str] = Counter()
    for member in {fact_dimension(f) for f in facts}:
        if member is not None and (k := axis_kind(member[0])) is not None:
            kinds[k] += 1
    return kinds.most_common(1)[0][0] if kinds else None


def _period_key(facts: Sequence[StatementFact], item: str, period: Any) -> str | None:
    """The period the breakdown is read for: the asked one, else the latest (longest span)."""
    own = [f for f in facts if f.item == item and not f.period.instant]
    if period is not None:
        hit = next((f for f in own if f.period.matches(period)), None)
        return hit.period.key if hit is not None else None
    ends = [f.period.end_date for f in own if f.period.end_date]
    if not ends:
        years = [f.period.fiscal_year for f in own if f.period.fiscal_year]
        last = [f for f in own if years and f.period.fiscal_year == max(years)]
    else:
        last = [f for f in own if f.period.end_date == max(ends)]
    if not last:
        return None
    return max(last, key=lambda f: f.period.months or 0).period.key


def _value(
    choice: PartChoice, facts: Sequence[StatementFact], key: str
) -> tuple[float, tuple[StatementFact, ...]] | None:
    """One part's value of the measure from its own facts in the group, or None."""
    from finqa.lexicon.formula import FormulaError, evaluate_metric
    from finqa.lexicon.metrics import get_metric

    def at(item: str) -> StatementFact | None:
        return next((f for f in facts if f.item == item and f.period.key == key), None)

    metric = get_metric(choice.measure)
    if metric is not None and metric.is_derived:
        cur = {i: f for i in metric.inputs if (f := at(i)) is not None}
        if len(cur) != len(metric.inputs):
            return None
        if "revenue" in cur and cur["revenue"].value <= 0:
            return None  # a margin is over revenue: a row without revenue (a deferral) has none
        try:
            value = evaluate_metric(metric.id, {i: f.value for i, f in cur.items()}, None)
        except (FormulaError, ZeroDivisionError):
            return None
        return (value, tuple(cur.values())) if value is not None else None
    now = at(choice.measure)
    if now is None:
        return None
    if choice.operator == "level":
        return now.value, (now,)
    before = next(
        (f for f in facts if f.item == choice.measure and year_before(f.period, now.period)),
        None,
    )
    if before is None:
        return None
    if choice.operator == "change":
        return now.value - before.value, (now, before)
    if before.value <= 0:
        return None  # a growth over a loss or nothing is no rate
    return (now.value - before.value) / before.value * 100, (now, before)


def _confirmed(
    store: Any,
    doc: str,
    by_member: dict[str, list[StatementFact]],
    kind: str,
    key: str,
    measured: str,
    table_id: str = "",
) -> tuple[bool | None, float | None]:
    """Whether the table is the company's own breakdown: its parts (with or without the rest
    rows) add up to the consolidated figure of the statement model (another source of the same
    figures) for the measured line item, or for another item of the table (a segment profit
    may leave unallocated costs out; revenue may not). None when no consolidated figure of any
    of its line items is known; with it, the measured item's consolidated figure."""
    items = {f.item for fs in by_member.values() for f in fs if f.period.key == key and f.item}
    found: dict[str, bool] = {}
    totals: dict[str, float] = {}
    for item in sorted(items):
        # the consolidated figure from another table (the table's own total row is no check)
        whole = [
            f
            for f in store.lookup(doc, item, key)
            if not f.dimensions and (not table_id or f.table_id != table_id)
        ]
        figures = [
            (next((f for f in fs if f.item == item and f.period.key == key), None), m)
            for m, fs in by_member.items()
        ]
        parts = [f for f, m in figures if f is not None and _kept(member_name(m), kind)]
        rest = [f for f, m in figures if f is not None and not _kept(member_name(m), kind)]
        if not whole or len(parts) < 2:
            continue
        totals[item] = total = whole[0].value
        scale = max(f.scale or 1.0 for f in parts)
        values = [f.value for f in parts]
        found[item] = _adds_up(values + [f.value for f in rest], total, scale) or _adds_up(
            values, total, scale
        )
    total_of = totals.get(measured)
    if found.get(measured) is True:
        return True, total_of
    if measured == "revenue" and found.get(measured) is False:
        return False, total_of
    if any(found.values()):
        return True, None  # another item adds up: the measured item's total is not stated
    return (False if found else None), total_of


def _adds_up(values: Sequence[float], total: float, scale: float) -> bool:
    """The printed parts add up to the total within rounding (half a printed unit each)."""
    return abs(sum(values) - total) <= (len(values) + 1) * 0.5 * scale + 1e-6 * abs(total)


def read_breakdowns(
    store: Any, doc_ids: Iterable[str], choice: PartChoice, period: Any = None
) -> list[Breakdown]:
    """Every breakdown of the asked kind holding the measure for two parts or more."""
    from finqa.lexicon.metrics import get_metric

    metric = get_metric(choice.measure)
    derived = metric is not None and metric.is_derived
    inputs = metric.inputs if metric is not None and derived else ()
    base = inputs[0] if inputs else choice.measure
    out: list[Breakdown] = []
    for doc in dict.fromkeys(doc_ids):
        for table, _key, facts in _groups(store.tables(doc)):
            kind = _kind(facts)
            if kind is None or (
                choice.kind in ("segment", "geography", "product") and kind != choice.kind
            ):
                continue
            key = _period_key(facts, base, period)
            if key is None:
                continue
            by_member: dict[str, list[StatementFact]] = {}
            for f in facts:
                dim = fact_dimension(f)
                if dim is not None:
                    by_member.setdefault(dim[1], []).append(f)
            parts: list[PartValue] = []
            rest: list[PartValue] = []
            for member, own in by_member.items():
                got = _value(choice, own, key)
                if got is None:
                    continue
                name = member_name(member)
                kept = _kept(name, kind)
                value = PartValue(name, member, got[0], got[1], rest=not kept)
                (parts if kept else rest).append(value)
            if len(parts) < 2:
                continue
            scale = max((f.scale or 1.0) for p in parts for f in p.facts)
            check = "revenue" if "revenue" in inputs else base  # a margin: over its revenue
            adds, total = _confirmed(store, doc, by_member, kind, key, check, table.table_id)
            page = min(f.page for p in parts for f in p.facts)
            out.append(
                Breakdown(
                    doc, table.table_id, page, kind, key, derived or choice.operator == "growth",
                    tuple(parts), tuple(rest), total, adds, scale,
                )
            )  # fmt: skip
    return out


def best_breakdown(breakdowns: Sequence[Breakdown], choice: PartChoice) -> Breakdown | str | None:
    """The breakdown a choice is read from: among the tables whose parts add up to the
    consolidated figure, the one with the most parts; without any, the one table of the kind
    no consolidated figure can check (never one among several unchecked: a segment's own
    products may be printed beside the segments). A reason when the tables found cannot be the
    company's breakdown or two of them name different parts; None when there is none."""
    if not breakdowns:
        return None
    confirmed = [b for b in breakdowns if b.adds_up]
    unchecked = [b for b in breakdowns if b.adds_up is None]
    if confirmed:
        pool = confirmed
    elif len(unchecked) == 1:
        pool = unchecked
    elif unchecked:
        return "several tables print parts and none adds up to a consolidated figure"
    else:
        return "the parts do not add up to the consolidated figure"
    most = max(len(b.parts) for b in pool)
    top = [b for b in pool if len(b.parts) == most]
    names = {name_key(p.winner.name) for b in top if (p := pick(b, choice)).winner is not None}
    if len(names) > 1:
        return "two tables of the same breakdown name different parts"
    return top[0]


def _excluded(part: PartValue, excluded: Sequence[str]) -> bool:
    key = name_key(part.name)
    return any(key == name_key(x) or key.startswith(name_key(x)) for x in excluded if name_key(x))


def pick(breakdown: Breakdown, choice: PartChoice) -> Pick:
    """The part with the extreme value (the runner-up beside it), or why none is named."""
    unknown = [x for x in choice.excluded if not any(_excluded(p, [x]) for p in breakdown.parts)]
    if unknown:
        return Pick(None, None, f"the part left out ({', '.join(unknown)}) is none of the table's")
    parts = [p for p in breakdown.parts if not _excluded(p, choice.excluded)]
    if len(parts) < 2:
        return Pick(None, None, "fewer than two parts are read")
    if breakdown.adds_up is False:
        return Pick(None, None, "the parts do not add up to the consolidated figure")
    high = choice.extreme == "highest"
    ranked = sorted(parts, key=lambda p: p.value, reverse=high)
    first, second = ranked[0], ranked[1]
    unit = 0.05 if breakdown.percent else 0.5 * breakdown.scale
    if abs(first.value - second.value) < unit:
        return Pick(None, None, f"{first.name} and {second.name} tie")
    beyond = [
        r
        for r in breakdown.rest
        if not _ADJUSTMENT.search(r.name)
        and not _LEVEL.search(r.name)
        and (r.value > first.value if high else r.value < first.value)
    ]
    if beyond:
        return Pick(
            None,
            None,
            f"the breakdown's rest row {beyond[0].name!r} would be the {choice.extreme}; "
            "whether the filer counts it a part is not read",
        )
    return Pick(first, second)
