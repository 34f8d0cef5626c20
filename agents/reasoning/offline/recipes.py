"""Metric recipes: the catalogue's per-year formulas over statement line items, as the offline
reasoner computes them.

The formulas live in the one catalogue, `lexicon/data/metrics.yaml` (each metric's `offline:`
block: `item[y]` is the line item in fiscal year y, `item[y-1]` the prior year-end balance,
alternatives tried in order, the first whose operands are all in the evidence used); every line
item of `lexicon/data/line_items.yaml` is also a recipe of its own (`item[y]`). Items the
catalogue reads as magnitudes (`magnitude: true`: capex, dividends paid, D&A, COGS, interest
expense, SG&A, R&D) are wrapped in abs() in the expression, so the Calculation re-executes on
the values as written; an item the catalogue sums (`summed: true`, e.g. short-term debt) is the
sum of its lines. Income tax is read
signed (an expense positive, a benefit negative: the effective tax rate of a loss year with a
tax benefit is positive); a caption showing the expense in parentheses is negated in the
expression (`lexicon.line_items.caption_sign`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

__all__ = ["Recipe", "RECIPES", "recipe_aliases"]


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    formulas: tuple[str, ...]
    unit: str  # USD | % | ratio | times | days


@cache
def _recipes() -> dict[str, Recipe]:
    from finqa.lexicon import METRICS
    from finqa.lexicon.line_items import line_items

    out: dict[str, Recipe] = {}
    for metric in METRICS.values():
        p = metric.per_year
        if p is not None:
            out[p.id] = Recipe(p.id, p.name, p.formulas, p.unit)
    for item in line_items().values():
        out.setdefault(item.id, Recipe(item.id, item.name, (f"{item.id}[y]",), item.unit))
    return out


@cache
def recipe_aliases() -> dict[str, str]:
    """Catalogue metric id -> recipe id, where the offline reasoner names the metric otherwise
    ('effective_tax_rate' -> 'tax_rate')."""
    from finqa.lexicon import METRICS

    return {
        m.id: m.per_year.id
        for m in METRICS.values()
        if m.per_year is not None and m.per_year.id != m.id
    }


class _Recipes(Mapping[str, Recipe]):
    """Read-only mapping recipe id -> Recipe, built from the catalogue on first use."""

    def __getitem__(self, key: str) -> Recipe:
        return _recipes()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_recipes())

    def __len__(self) -> int:
        return len(_recipes())


RECIPES: Mapping[str, Recipe] = _Recipes()
