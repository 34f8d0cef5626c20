"""Metric recipes: the catalogue's formulas written per fiscal year (what a reader of
statement rows evaluates), and which catalogue metric a text asks for among those that have one.

The formulas live in the one catalogue (`lexicon/data/metrics.yaml`, `lexicon.catalogue`), over
catalogue keys in `lexicon.formula`'s notation; a recipe writes each of a metric's `formulas`
(else its `formula`) per year (`lexicon.formula.per_year`: `x` -> `x[y]`, `prev(x)` ->
`x[y-1]`, `avg(x)` -> `avg(x[y], x[y-1])`), alternatives tried in order, the first whose
operands are all in the evidence used. A key inside a formula reads its line when it is a line
item of the catalogue (`lexicon.line_items.get_item`), else its own formula (every combination
of its alternatives when it has several: total debt as short- plus long-term debt, as the
filer's 'Total debt' line, or as long-term debt alone); within a metric's own formulas its own
key reads its line. Every line item is also a recipe of its own (`item[y]`); a metric read as
exactly one other line item is that item's recipe ('depreciation' reads the D&A line).
Items the catalogue reads as magnitudes (`magnitude: true`) are wrapped in abs() by the solver,
summed items (`summed: true`) are the sum of their lines; income tax is read signed (a
caption showing the expense in parentheses is negated: `lexicon.statements.signs.caption_sign`).
A metric the catalogue marks `unread` has no recipe: the backend abstains.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from finqa.lexicon import METRICS, find_metrics
from finqa.lexicon.caches import data_cache
from finqa.lexicon.formula import FormulaError, keys, per_year
from finqa.lexicon.line_items import get_item, line_items
from finqa.lexicon.metrics import Metric

__all__ = [
    "PCT_OF_REVENUE",
    "Recipe",
    "formula_recipe",
    "RECIPES",
    "get_recipe",
    "lexicon_recipe",
    "match_asked_metric",
    "recipe_aliases",
    "variant_recipe",
]

PCT_OF_REVENUE = "pctrev:"  # recipe id prefix: a line item as a percent of revenue
_UNITS = ("USD", "%", "ratio", "times", "days")
_ONE_READ = re.compile(r"[a-z_][a-z0-9_]*(?:\[y(?:-\d+)?\])?")


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    formulas: tuple[str, ...]
    unit: str  # USD | % | ratio | times | days


def _read_as(metric: Metric) -> str | None:
    """The other line item a metric is read as, when its one formula is that item alone."""
    if len(metric.formulas) == 1 and metric.formulas[0] != metric.id:
        only = metric.formulas[0].strip()
        if only in METRICS and get_item(only) is not None and not metric.formula:
            return only
    return None


def _written(formula: str, own: str | None, depth: int = 0) -> tuple[str, ...]:
    """A catalogue formula per year, once per combination of the alternatives of the metrics
    it names; () when one of its keys can be read neither as a line nor by a formula."""
    if depth > 4:
        return ()
    try:
        names = keys(formula)
    except FormulaError:
        return ()
    options: list[tuple[str, ...]] = []
    for key in names:
        options.append(_key_texts(key, own, depth))
        if not options[-1]:
            return ()
    out: list[str] = []
    for combo in itertools.product(*options):
        chosen = dict(zip(names, combo, strict=True))
        text = per_year(formula, lambda k, chosen=chosen: chosen[k])  # type: ignore[misc]
        if text is not None and text not in out:
            out.append(text)
    return tuple(out)


def _key_texts(key: str, own: str | None, depth: int) -> tuple[str, ...]:
    """How one key of a formula is read per year: its line ('key'), or its formulas' texts."""
    metric = METRICS.get(key)
    if key == own:
        return (key,)
    if metric is not None and len(metric.formulas) > 1 and not metric.unread:
        texts: list[str] = []
        for f in metric.formulas:
            texts.extend(x for x in _written(f, key, depth + 1) if x not in texts)
        return tuple(t if _ONE_READ.fullmatch(t) else f"({t})" for t in texts)
    if get_item(key) is not None:
        return (key,)
    if metric is None or metric.unread or not metric.formula:
        return ()
    return tuple(f"({t})" for t in _written(metric.formula, None, depth + 1))


def _recipe(metric: Metric) -> Recipe | None:
    if metric.unread:
        return None
    other = _read_as(metric)
    if other is not None:
        return _recipe(METRICS[other])
    name = metric.phrase or metric.name.lower()
    if metric.growth_of:  # a growth rate: the operand per year; the question's operator grows it
        base = METRICS.get(metric.growth_of)
        operand = _recipe(base) if base is not None else None
        if operand is None:
            return None
        return Recipe(metric.id, operand.name, operand.formulas, operand.unit)
    item = get_item(metric.id)
    if len(metric.formulas) > 1 or (metric.formulas and item is None):
        formulas: tuple[str, ...] = ()
        for f in metric.formulas:
            formulas += tuple(x for x in _written(f, metric.id) if x not in formulas)
    elif item is not None:  # a line item: the unit its reader reads, else the metric's
        unit = item.unit if metric.id in line_items() else _unit(metric)
        return Recipe(metric.id, item.name, (f"{metric.id}[y]",), unit)
    else:
        return None
    if not formulas:
        return None
    return Recipe(metric.id, name, formulas, _unit(metric))


def variant_recipe(metric_id: str, formula: str, unit: str) -> Recipe | None:
    """A metric computed by one of its recognised variants' formulas (`lexicon.variants`),
    written per year as the catalogue's own formulas are; None when it cannot be written."""
    metric = METRICS.get(metric_id)
    if metric is None:
        return None
    formulas = _written(formula, None)
    if not formulas:
        return None
    name = metric.phrase or metric.name.lower()
    return Recipe(metric.id, name, formulas, unit if unit in _UNITS else "ratio")


def formula_recipe(recipe_id: str, name: str, formula: str, unit: str) -> Recipe | None:
    """A measure the question defines by a formula over catalogue keys, written per year as
    the catalogue's own formulas are (each key by its own alternatives); None when it cannot
    be written."""
    formulas = _written(formula, None)
    if not formulas:
        return None
    return Recipe(recipe_id, name, formulas, unit if unit in _UNITS else "ratio")


def _unit(metric: Metric) -> str:
    return metric.unit if metric.unit in _UNITS else "ratio"


@data_cache()
def _recipes() -> dict[str, Recipe]:
    out: dict[str, Recipe] = {}
    for metric in METRICS.values():
        recipe = _recipe(metric)
        if recipe is not None:
            out[metric.id] = recipe
    return out


class _Recipes(Mapping[str, Recipe]):
    """Read-only mapping recipe id -> Recipe, built from the catalogue on first use."""

    def __getitem__(self, key: str) -> Recipe:
        return _recipes()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_recipes())

    def __len__(self) -> int:
        return len(_recipes())


RECIPES: Mapping[str, Recipe] = _Recipes()


@data_cache()
def recipe_aliases() -> dict[str, str]:
    """Catalogue key -> recipe id, where the metric is computed as another's recipe
    ('depreciation' -> 'depreciation_amortization': the D&A line)."""
    return {mid: r.id for mid, r in _recipes().items() if r.id != mid}


def lexicon_recipe(metric_id: str) -> Recipe | None:
    """The recipe of a catalogue key, or None."""
    return _recipes().get(metric_id)


def get_recipe(recipe_id: str | None) -> Recipe | None:
    """The recipe of a catalogue key, or 'pctrev:<item>' (item / revenue * 100)."""
    if recipe_id is None:
        return None
    if recipe_id.startswith(PCT_OF_REVENUE):
        base = get_recipe(recipe_id[len(PCT_OF_REVENUE) :])
        if base is None or base.unit != "USD":
            return None
        formulas = tuple(f"({f}) / revenue[y] * 100" for f in base.formulas)
        return Recipe(recipe_id, f"{base.name} as % of revenue", formulas, "%")
    return lexicon_recipe(recipe_id)


def match_asked_metric(
    text: str, *, computable: bool = True, period: str | None = None
) -> tuple[str, int, int] | None:
    """(metric id, start, end) of the metric the text asks for, among the catalogue metrics it
    names (`computable`: those that have a recipe): a metric whose formula uses another named
    metric wins over that input ('payout ratio (using dividends paid and net income)' asks for
    the payout ratio); then the first metric with a formula of its own; then the first named.
    `period`: the period type the ask has (`lexicon.period_ask`): an item of the other type is
    not what it asks ('how much cash did X pay in income taxes' asks no balance of cash)."""
    found = [
        m
        for m in find_metrics(text)
        if (not computable or lexicon_recipe(m.canonical) is not None)
        and not _other_period(str(m.canonical), period)
    ]
    named = {str(m.canonical) for m in found}
    used = set().union(*(_inputs(c) for c in named)) if named else set()
    heads = [m for m in found if str(m.canonical) not in used]
    derived = [m for m in heads if _derived(str(m.canonical))]
    for m in derived or heads:  # 'EBITDAR contribution by region': the EBITDAR is asked
        return (str(m.canonical), int(m.start), int(m.end))
    return None


def _other_period(metric_id: str, period: str | None) -> bool:
    """The item is of the other period type than the one asked (an instant for a flow)."""
    metric = METRICS.get(metric_id)
    kind = metric.period_type if metric is not None else None
    return period is not None and kind is not None and kind != period


def _derived(metric_id: str) -> bool:
    metric = METRICS.get(metric_id)
    return metric is not None and metric.formula is not None


@data_cache()
def _inputs(metric_id: str) -> frozenset[str]:
    """Every key a metric's formula uses, directly or through other formulas."""
    metric = METRICS.get(metric_id)
    if metric is None:
        return frozenset()
    out: set[str] = set()
    for inp in metric.inputs:
        if inp != metric_id:
            out |= {inp} | _inputs(inp)
    aliases = recipe_aliases()
    out |= {aliases[i] for i in out if i in aliases}
    return frozenset(out)
