"""The catalogue's formula notation, and its translation into the one evaluator (`lexicon.arith`).

A catalogue formula is arithmetic over catalogue keys (`lexicon/data/metrics.yaml`), the same
keys the statement model, the reasoner's Book and the judge use ('cfo - capex',
'revenue / avg(ppe_net)'): numbers, keys, + - * / ( ), and three period functions:
avg(x) = (x at the start of the period + x at its end) / 2, prev(x) = x of the prior period,
change(x) = x - prev(x). Anything else is a FormulaError.

Nothing here computes: `evaluate` rewrites a formula into an `arith` expression over the
period's values and the prior period's (`prev(x)` -> `x__prev`) and `per_year` writes it for
a per-year reader (`x` -> `x[y]`, `prev(x)` -> `x[y-1]`, `avg(x)` -> `avg(x[y], x[y-1])`);
`arith.evaluate` is the one evaluator of finqa.
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Callable, Mapping

from finqa.errors import FinqaError
from finqa.lexicon.arith import ArithmeticError_
from finqa.lexicon.arith import evaluate as arith_evaluate

__all__ = [
    "FormulaError",
    "PERIOD_FUNCTIONS",
    "evaluate",
    "evaluate_formula",
    "evaluate_metric",
    "keys",
    "numerator",
    "numerator_inputs",
    "per_year",
    "ratio_sides",
    "to_arith",
]

PERIOD_FUNCTIONS = frozenset({"avg", "prev", "change"})
_FUNCS = PERIOD_FUNCTIONS | {"abs"}
PRIOR = "__prev"  # suffix of a key's prior-period value in the arith expression


class FormulaError(FinqaError):
    """A formula cannot be evaluated (unknown input, missing prior value, bad syntax)."""


def _parse(formula: str) -> ast.expr:
    try:
        return ast.parse(formula, mode="eval").body
    except SyntaxError as exc:
        raise FormulaError(f"bad formula {formula!r}: {exc.msg}") from None


def keys(formula: str) -> tuple[str, ...]:
    """The catalogue keys a formula uses, in order of first use ('cfo - capex' -> cfo, capex)."""
    seen: list[str] = []
    for node in ast.walk(_parse(formula)):
        if isinstance(node, ast.Name) and node.id not in _FUNCS and node.id not in seen:
            seen.append(node.id)
    return tuple(seen)


def _render(
    node: ast.expr, src: str, name: Callable[[str, int], str | None], back: int = 0
) -> ast.expr | None:
    """The formula's tree with each key written by `name(key, periods back)` (None: the key
    cannot be read, and so neither can the formula)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):
            raise FormulaError(f"unsupported expression in formula {src!r}")
        return ast.Constant(node.value)
    if isinstance(node, ast.Name) and node.id not in _FUNCS:
        text = name(node.id, back)
        return None if text is None else ast.Name(text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _render(node.operand, src, name, back)
        return None if inner is None else ast.UnaryOp(node.op, inner)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, right = _render(node.left, src, name, back), _render(node.right, src, name, back)
        return None if left is None or right is None else ast.BinOp(left, node.op, right)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in PERIOD_FUNCTIONS
        and len(node.args) == 1
        and not node.keywords
    ):
        now = _render(node.args[0], src, name, back)
        before = _render(node.args[0], src, name, back + 1)
        if now is None or before is None:
            return None
        if node.func.id == "avg":
            return ast.Call(ast.Name("avg"), [now, before], [])
        return before if node.func.id == "prev" else ast.BinOp(now, ast.Sub(), before)
    raise FormulaError(f"unsupported expression in formula {src!r}")


def to_arith(formula: str, name: Callable[[str, int], str | None]) -> str | None:
    """The formula as an `arith` expression, each key written by `name(key, periods back)`;
    None when `name` cannot write one of its keys."""
    tree = _render(_parse(formula), formula, name)
    return None if tree is None else ast.unparse(tree)


def per_year(formula: str, name: Callable[[str], str | None] | None = None) -> str | None:
    """The formula for a per-year reader: 'revenue / avg(ppe_net)' ->
    'revenue[y] / avg(ppe_net[y], ppe_net[y-1])'; `name(key)` may read a key as another
    per-year text (a metric through its own formula) or None (it cannot be read)."""

    def write(key: str, back: int) -> str | None:
        if name is None:
            base: str | None = key
        else:
            base = name(key)
        if base is None:
            return None
        if base == key:
            return f"{key}[y]" if back == 0 else f"{key}[y-{back}]"
        # another formula, already per year: shift it back
        return base if back == 0 else _shift(base, back)

    return to_arith(formula, write)


def _shift(text: str, back: int) -> str:
    """A per-year text moved `back` years earlier ('x[y]' -> 'x[y-1]')."""

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(2) or 0) + back
        return f"{m.group(1)}[y-{k}]"

    return re.sub(r"([a-z_][a-z0-9_]*)\[y(?:-(\d+))?\]", sub, text)


def evaluate(
    formula: str,
    current: Mapping[str, float],
    previous: Mapping[str, float] | None = None,
) -> float:
    """Value of `formula` with the period's values (`current`) and the prior period's."""
    prior = previous or {}

    def write(key: str, back: int) -> str:
        if back > 1:
            raise FormulaError(f"{formula!r} reaches back more than one period")
        values, which = (current, "current") if back == 0 else (prior, "prior-period")
        if back and not prior:
            raise FormulaError(f"avg()/prev()/change() in {formula!r} needs prior-period values")
        if key not in values:
            raise FormulaError(f"formula {formula!r} needs {which} value of {key!r}")
        return key if back == 0 else key + PRIOR

    expression = to_arith(formula, write)
    values = {**{k: float(v) for k, v in current.items()}}
    values.update({k + PRIOR: float(v) for k, v in prior.items()})
    try:
        return arith_evaluate(str(expression), values)
    except ArithmeticError_ as exc:
        raise FormulaError(f"formula {formula!r}: {exc}") from None


def numerator(formula: str) -> str | None:
    """The metric id on top of a ratio formula ('operating_income / revenue * 100' ->
    'operating_income'), or None when the formula is no ratio of one id to something."""
    ratio = _ratio(formula)
    if ratio is None:
        return None
    return ratio.left.id if isinstance(ratio.left, ast.Name) else None


def numerator_inputs(formula: str) -> tuple[str, ...]:
    """The metric ids a ratio's numerator moves with, those of its denominator left out
    ('(revenue - cogs) / revenue * 100' -> ('cogs',): a gross margin moves with the cost of
    sales); empty for a formula that is no ratio."""
    ratio = _ratio(formula)
    if ratio is None:
        return ()
    below = {n.id for n in ast.walk(ratio.right) if isinstance(n, ast.Name)}
    top = [n.id for n in ast.walk(ratio.left) if isinstance(n, ast.Name)]
    return tuple(dict.fromkeys(x for x in top if x not in below and x not in _FUNCS))


def ratio_sides(formula: str) -> tuple[str, str] | None:
    """The numerator and denominator of a ratio formula as formulas of their own
    ('income_tax_expense / pretax_income * 100' -> ('income_tax_expense', 'pretax_income'));
    None when the formula is no ratio."""
    ratio = _ratio(formula)
    if ratio is None:
        return None
    return ast.unparse(ratio.left), ast.unparse(ratio.right)


def _ratio(formula: str) -> ast.BinOp | None:
    try:
        node = ast.parse(formula, mode="eval").body
    except SyntaxError:
        return None
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        node = node.left  # '... * 100'
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return node
    return None


def evaluate_metric(
    metric_id: str,
    current: Mapping[str, float],
    previous: Mapping[str, float] | None = None,
) -> float:
    """A metric's value: its own figure if given, else its formula over its inputs (recursively)."""
    from finqa.lexicon.metrics import get_metric

    if metric_id in current:
        return current[metric_id]
    metric = get_metric(metric_id)
    if not metric.formula:
        raise FormulaError(f"no value for {metric_id!r} and it has no formula")
    return evaluate_formula(metric.formula, current, previous)


def evaluate_formula(
    formula: str,
    current: Mapping[str, float],
    previous: Mapping[str, float] | None = None,
) -> float:
    """A formula over catalogue keys ('cogs / inventory', a metric's variant): a key not given
    is a metric computed from its own formula (recursively)."""
    values = dict(current)
    prior = dict(previous or {})
    for inp in keys(formula):
        if inp not in values:
            values[inp] = evaluate_metric(inp, current, previous)
        if inp not in prior and previous:
            with contextlib.suppress(FormulaError):
                prior[inp] = evaluate_metric(inp, previous, None)
    return evaluate(formula, values, prior)
