"""The lexicon's metric catalogue as offline recipes and line items.

The offline backend's own recipes (recipes.py) are tuned on statement layouts and win; for any other
lexicon metric (`lexicon.METRICS`, found in the question by `lexicon.find_metrics`) the lexicon
formula is translated into a per-year recipe — `avg(x)` -> `avg(x[y], x[y-1])`, `change(x)` ->
`x[y] - x[y-1]`, `prev(x)` -> `x[y-1]` — and its line items come from `Metric.line_items`.
Short- and long-term debt are the catalogue's summed line items (`LineItem.summed`): total debt,
net debt and the debt ratios read them through their lexicon formulas. ROIC (an average of debt
plus equity over a tax-adjusted operating income) and operating expenses (a sum the filers
define differently) are left out: the backend abstains instead.
"""

from __future__ import annotations

import ast
import itertools
from functools import lru_cache

from finqa.agents.reasoning.offline.recipes import RECIPES, Recipe, recipe_aliases
from finqa.lexicon.line_items import LineItem, item_for_metric

PCT_OF_REVENUE = "pctrev:"  # recipe id prefix: a line item as a percent of revenue

__all__ = [
    "PCT_OF_REVENUE",
    "get_recipe",
    "lexicon_recipe",
    "lexicon_items",
    "lexicon_match",
    "lex_to_recipe",
    "recipe_from_question",
]

# lexicon metric ids read from a line item the offline reasoner names otherwise
_ITEM_ALIASES: dict[str, str] = {
    "cfo": "cfo",
    "depreciation_amortization": "da",
    "depreciation": "da",
}


def lex_to_recipe() -> dict[str, str]:
    """Lexicon metric id -> offline recipe id (the catalogue's `offline: id:`, and line items)."""
    return {**_ITEM_ALIASES, **recipe_aliases()}


_SUMMED = frozenset(
    {
        "roic",
        "operating_expenses",
    }
)
_STATEMENTS = frozenset({"income", "balance", "cash_flow"})


def _lexicon() -> object | None:
    try:
        from finqa import lexicon
    except ImportError:  # the offline backend works without it
        return None
    return lexicon


def _item_for(metric_id: str) -> str | None:
    """The offline item id for a lexicon metric that is a plain line item (creating it if needed)."""
    item = item_for_metric(metric_id)
    if item is not None:
        return item
    items = lexicon_items()
    return metric_id if metric_id in items else None


@lru_cache(maxsize=1)
def lexicon_items() -> dict[str, LineItem]:
    """Line items for lexicon metrics without a formula that the offline catalogue lacks."""
    lex = _lexicon()
    if lex is None:
        return {}
    out: dict[str, LineItem] = {}
    for mid, metric in lex.METRICS.items():  # type: ignore[attr-defined]
        if metric.formula or item_for_metric(mid) is not None or mid in _SUMMED:
            continue
        if metric.statement not in _STATEMENTS or not metric.line_items:
            continue
        out[mid] = LineItem(mid, metric.name.lower(), metric.statement, tuple(metric.line_items))
    return out


def _render(node: ast.AST, back: int, over: dict[str, str] | None = None) -> str | None:
    """Formula text with [y-k] year indices, or None when a metric cannot be read."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return repr(node.value)
    if isinstance(node, ast.Name):
        if over and node.id in over and back == 0:
            return f"({over[node.id]})"  # one of the metric's own per-year alternatives
        item = _item_for(node.id)
        if item is not None:
            return f"{item}[y]" if back == 0 else f"{item}[y-{back}]"
        sub = _formula_of(node.id)
        return None if sub is None else _render_text(sub, back, over)
    if isinstance(node, ast.BinOp):
        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
        op = ops.get(type(node.op))
        left, right = _render(node.left, back, over), _render(node.right, back, over)
        if op is None or left is None or right is None:
            return None
        return f"({left} {op} {right})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _render(node.operand, back, over)
        return None if inner is None else f"(-{inner})"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        arg = node.args[0]
        now, before = _render(arg, back, over), _render(arg, back + 1, over)
        if now is None or before is None:
            return None
        if node.func.id == "avg":
            return f"avg({now}, {before})"
        if node.func.id == "change":
            return f"({now} - {before})"
        if node.func.id == "prev":
            return before
    return None


def _render_text(formula: str, back: int = 0, over: dict[str, str] | None = None) -> str | None:
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError:
        return None
    return _render(tree.body, back, over)


def _alternatives(formula: str) -> tuple[str, ...]:
    """A lexicon formula rendered once per combination of the per-year alternatives of the
    metrics it names ('total_debt / shareholders_equity' with total debt as short- plus
    long-term debt, as the filer's 'Total debt' line, or as long-term debt alone), the
    catalogue's first alternative first; () when it cannot be read."""
    from finqa.lexicon import METRICS

    first = _render_text(formula)
    if first is None:
        return ()
    names = [
        n
        for n in dict.fromkeys(x.id for x in ast.walk(ast.parse(formula, mode="eval")) if isinstance(x, ast.Name))
        if n in METRICS and (p := METRICS[n].per_year) is not None and len(p.formulas) > 1
        and "[y-" not in " ".join(p.formulas) and _item_for(n) is None
    ]  # fmt: skip
    if not names:
        return (first,)
    out: list[str] = []
    for combo in itertools.product(*(METRICS[n].per_year.formulas for n in names)):  # type: ignore[union-attr]
        text = _render_text(formula, 0, dict(zip(names, combo, strict=True)))
        if text is not None and text not in out:
            out.append(text)
    return tuple(out) or (first,)


def _formula_of(metric_id: str) -> str | None:
    lex = _lexicon()
    if lex is None or metric_id in _SUMMED:
        return None
    metric = lex.METRICS.get(metric_id)  # type: ignore[attr-defined]
    return metric.formula if metric is not None and metric.formula else None


@lru_cache(maxsize=256)
def lexicon_recipe(metric_id: str) -> Recipe | None:
    """An offline recipe for a lexicon metric id, or None."""
    aliases = lex_to_recipe()
    if metric_id in aliases:
        return RECIPES[aliases[metric_id]]
    if metric_id in RECIPES:
        return RECIPES[metric_id]
    lex = _lexicon()
    if lex is None or metric_id in _SUMMED or metric_id not in lex.METRICS:  # type: ignore[attr-defined]
        return None
    metric = lex.METRICS[metric_id]  # type: ignore[attr-defined]
    if metric.formula:
        formulas = _alternatives(metric.formula)
    else:
        item = _item_for(metric_id)
        formulas = (f"{item}[y]",) if item else ()
    if not formulas:
        return None
    unit = metric.unit if metric.unit in ("USD", "%", "ratio", "times", "days") else "ratio"
    return Recipe(metric_id, metric.name.lower(), formulas, unit)


def lexicon_match(text: str) -> tuple[str, int, int] | None:
    """(metric id, start, end) of the metric the text asks for, among the lexicon metrics it
    names that have an offline recipe: a metric whose formula uses another named metric wins over
    that input ('payout ratio (using dividends paid and net income)' asks for the payout ratio);
    then the first named."""
    lex = _lexicon()
    if lex is None:
        return None
    found = [
        m
        for m in lex.find_metrics(text)  # type: ignore[attr-defined]
        if lexicon_recipe(m.canonical) is not None
    ]
    named = {str(m.canonical) for m in found}
    used = set().union(*(_inputs(c) for c in named)) if named else set()
    for m in found:
        if str(m.canonical) not in used:
            return (str(m.canonical), int(m.start), int(m.end))
    return None


@lru_cache(maxsize=512)
def _inputs(metric_id: str) -> frozenset[str]:
    """Every metric a metric's formula uses, directly or through other formulas."""
    from finqa.lexicon import METRICS

    metric = METRICS.get(metric_id)
    if metric is None:
        return frozenset()
    out: set[str] = set()
    for inp in metric.inputs:
        if inp != metric_id:
            out |= {inp} | _inputs(inp)
    aliases = lex_to_recipe()
    out |= {aliases[i] for i in out if i in aliases}
    return frozenset(out)


def recipe_from_question(text: str) -> str | None:
    """The first lexicon metric named in the text that has an offline recipe."""
    lex = _lexicon()
    if lex is None:
        return None
    for match in lex.find_metrics(text):  # type: ignore[attr-defined]
        if lexicon_recipe(match.canonical) is not None:
            return str(match.canonical)
    return None


def get_recipe(recipe_id: str | None) -> Recipe | None:
    """The offline recipe, one translated from the lexicon, or 'pctrev:<item>' (item / revenue * 100)."""
    if recipe_id is None:
        return None
    if recipe_id.startswith(PCT_OF_REVENUE):
        base = get_recipe(recipe_id[len(PCT_OF_REVENUE) :])
        if base is None or base.unit != "USD":
            return None
        formulas = tuple(f"({f}) / revenue[y] * 100" for f in base.formulas)
        return Recipe(recipe_id, f"{base.name} as % of revenue", formulas, "%")
    return RECIPES.get(recipe_id) or lexicon_recipe(recipe_id)
