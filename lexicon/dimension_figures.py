"""A part's computed figures: a derived metric (a segment's operating margin) or a line item's
growth or change over the year before, from the part's own facts only.

- `part_figures(store, docs, items, dimension, period)`: each line item's fact of the part for
  the period and the year before, through `dimensions.dimensional_facts`;
- `part_value(figures, metric_id, aggregate)`: the figure, by the catalogue's formula
  (`lexicon.formula`) or as a growth / change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from finqa.lexicon.dimensions import dimensional_facts

if TYPE_CHECKING:
    from finqa.lexicon.model import AskedDimension, StatementFact

__all__ = ["PartFigures", "part_figures", "part_value", "printed_caption", "year_before"]


@dataclass(frozen=True)
class PartFigures:
    """The part's own facts a computed figure needs: each line item's fact for the period and,
    where the filing reports it, for the same span a year before."""

    current: dict[str, StatementFact]
    previous: dict[str, StatementFact]


def _latest_of(facts: Sequence[StatementFact]) -> list[StatementFact]:
    ends = [f.period.end_date for f in facts if f.period.end_date]
    end = max(ends) if ends else None
    last = [f for f in facts if f.period.end_date == end]
    longest = max((f.period.months or 0 for f in last), default=0)
    return [f for f in last if (f.period.months or 0) == longest]


def year_before(earlier: Any, later: Any) -> bool:
    """`earlier` is the same span a fiscal year before `later` (a flow's year-ago period)."""
    return bool(
        earlier.fiscal_year is not None
        and later.fiscal_year is not None
        and earlier.fiscal_year == later.fiscal_year - 1
        and earlier.months == later.months
        and earlier.quarter == later.quarter
        and not earlier.instant
    )


def part_figures(
    store: Any,
    doc_ids: Iterable[str],
    items: Sequence[str],
    dimension: AskedDimension,
    period: Any = None,
) -> PartFigures | None:
    """Each line item's fact of one part for the period (the latest when None), all for one
    period, and the year-before fact where one is reported; None when the part lacks one of
    them (the consolidated figure is never put in its place)."""
    docs = list(dict.fromkeys(doc_ids))
    current: dict[str, StatementFact] = {}
    previous: dict[str, StatementFact] = {}
    key: str | None = None
    for item in items:
        every = dimensional_facts(store, docs, item, dimension, None)
        facts = [f for f in every if period is None or f.period.matches(period)]
        if key is not None:
            facts = [f for f in facts if f.period.key == key]
        elif period is None:
            facts = _latest_of(facts)
        if not facts:
            return None
        fact = facts[0]
        key = fact.period.key
        current[item] = fact
        before = [f for f in every if year_before(f.period, fact.period)]
        if before:
            previous[item] = before[0]
    return PartFigures(current, previous)


def part_value(figures: PartFigures, metric_id: str, aggregate: str | None = None) -> float | None:
    """The computed figure of a part: a derived metric by its formula over the part's own
    facts (`lexicon.formula`), or a line item's growth (percent) or change over the year
    before; None when an operand is missing or the formula cannot be evaluated."""
    from finqa.lexicon.formula import FormulaError, evaluate_metric

    cur = {k: f.value for k, f in figures.current.items()}
    prev = {k: f.value for k, f in figures.previous.items()}
    if aggregate in ("growth", "change"):
        if metric_id not in cur or metric_id not in prev:
            return None
        diff = cur[metric_id] - prev[metric_id]
        if aggregate == "change":
            return diff
        return diff / abs(prev[metric_id]) * 100 if prev[metric_id] else None
    try:
        return evaluate_metric(metric_id, cur, prev)
    except (FormulaError, ZeroDivisionError):
        return None


def printed_caption(store: Any, fact: StatementFact) -> str | None:
    """The caption a part's figure is printed under when it is not the line item's plain name:
    the heading of its block in the segment table ('Adjusted EBIT from continuing operations'
    over the segments' rows, read as operating income), so an answer names the measure the
    filing prints; None for a tagged fact, a row that names its own line, or a heading that is
    the catalogue's own caption of the item."""
    from finqa.lexicon.metrics import get_metric
    from finqa.lexicon.statements.catalogue import item_for_label
    from finqa.lexicon.statements.parts import heading_flow

    if fact.source == "xbrl" or not fact.item:
        return None
    table = next((t for t in store.tables(fact.doc_id) if t.table_id == fact.table_id), None)
    if table is None or not 0 < fact.row <= len(table.labels):
        return None
    for label in reversed(table.labels[: fact.row]):
        # 'Adjusted earnings before interest and taxes ("Adjusted EBIT")': the caption, or
        # the short name it gives itself in parentheses
        outer, _, inner = label.partition("(")
        names = (label, outer, inner.rstrip(") ").strip("\"'“”"))
        if any(n.strip() and heading_flow(n.strip()) == fact.item for n in names):
            said = " ".join(_SCALE_NOTE.sub("", label).rstrip(": ").split())
            metric = get_metric(fact.item)
            plain = {fact.item.replace("_", " ")}
            if metric is not None:
                plain |= {metric.name.lower(), *(c.lower() for c in metric.line_items)}
            own = item_for_label(said) == fact.item  # the catalogue's own caption of the item
            return None if own or said.lower() in plain else said
    return None


# a scale note printed in a caption: 'Net Sales (Millions)', 'Revenue (in thousands)'
_SCALE_NOTE = re.compile(r"\s*\((?:\$\s*)?(?:in\s+)?(?:millions|thousands|billions)\)", re.I)
