"""Safe evaluation of metric formulas ('cfo - capex', 'revenue / avg(ppe_net)').

Only numbers, metric ids, + - * / ( ) and avg()/prev()/change() are allowed; anything
else raises FormulaError. avg(x) = (prev + current) / 2, change(x) = current - prev.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Mapping

from finqa.errors import FinqaError

__all__ = [
    "FormulaError",
    "evaluate",
    "evaluate_metric",
    "numerator",
    "numerator_inputs",
    "ratio_sides",
]


class FormulaError(FinqaError):
    """A formula cannot be evaluated (unknown input, missing prior value, bad syntax)."""


def evaluate(
    formula: str,
    current: Mapping[str, float],
    previous: Mapping[str, float] | None = None,
) -> float:
    """Value of `formula` with metric values of the period (`current`) and the prior period."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"bad formula {formula!r}: {exc.msg}") from None
    return _eval(tree.body, current, previous or {}, formula)


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


_FUNCS = frozenset({"avg", "prev", "change", "abs"})


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
    values = dict(current)
    prior = dict(previous or {})
    for inp in metric.inputs:
        if inp not in values:
            values[inp] = evaluate_metric(inp, current, previous)
        if inp not in prior and previous:
            with contextlib.suppress(FormulaError):
                prior[inp] = evaluate_metric(inp, previous, None)
    return evaluate(metric.formula, values, prior)


def _eval(node: ast.expr, cur: Mapping[str, float], prev: Mapping[str, float], src: str) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.Name):
        return _get(cur, node.id, src, "current")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        v = _eval(node.operand, cur, prev, src)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        a, b = _eval(node.left, cur, prev, src), _eval(node.right, cur, prev, src)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if b == 0:
            raise FormulaError(f"division by zero in {src!r}")
        return a / b
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("avg", "prev", "change")
        and len(node.args) == 1
    ):
        now = _eval(node.args[0], cur, prev, src)
        before = _eval(node.args[0], prev, {}, src) if prev else None
        if before is None:
            raise FormulaError(f"{node.func.id}() in {src!r} needs prior-period values")
        if node.func.id == "avg":
            return (now + before) / 2
        return before if node.func.id == "prev" else now - before
    raise FormulaError(f"unsupported expression in formula {src!r}")


def _get(values: Mapping[str, float], name: str, src: str, which: str) -> float:
    if name not in values:
        raise FormulaError(f"formula {src!r} needs {which} value of {name!r}")
    return float(values[name])
