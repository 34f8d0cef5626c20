"""The one safe arithmetic evaluator of finqa: the Reasoning agent computes every result with it
(never trusting an LLM's number) and the Judge re-executes recorded calculations with it.

Grammar: numbers, variables (operand names), unary +/-, binary + - * / ** (small exponents, e.g.
a CAGR's 1/n), parentheses and the functions avg/mean/average, sum, abs, min, max, round.
Parsed with `ast`, never `eval`.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping, Sequence

from finqa.errors import FinqaError

__all__ = ["ArithmeticError_", "evaluate", "variables", "safe_name", "FUNCTIONS"]


class ArithmeticError_(FinqaError):  # noqa: N801 - avoid shadowing the builtin
    """An expression is not safe arithmetic, or cannot be computed (unknown name, / 0)."""


def _avg(*xs: float) -> float:
    if not xs:
        raise ArithmeticError_("avg() needs at least one value")
    return sum(xs) / len(xs)


FUNCTIONS: Mapping[str, Callable[..., float]] = {
    "avg": _avg,
    "mean": _avg,
    "sum": lambda *xs: float(sum(xs)),
    "abs": lambda x: float(abs(x)),
    "min": lambda *xs: float(min(xs)),
    "max": lambda *xs: float(max(xs)),
    "average": _avg,
    "round": lambda x, n=0: float(round(x, int(n))),
}

_MAX_LEN = 2000


def safe_name(text: str) -> str:
    """A valid variable name for an operand label ('Revenue FY2022' -> 'revenue_fy2022')."""
    name = re.sub(r"[^0-9a-zA-Z_]+", "_", text.strip().lower()).strip("_") or "x"
    return f"v_{name}" if name[0].isdigit() or name in FUNCTIONS else name


def variables(expression: str) -> list[str]:
    """The variable names an expression uses, in order of first appearance."""
    tree = _parse(expression)
    seen: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in seen:
            seen.append(node.id)
    return seen


def _parse(expression: str) -> ast.Expression:
    if len(expression) > _MAX_LEN:
        raise ArithmeticError_("expression too long")
    try:
        return ast.parse(expression.replace("^", "**"), mode="eval")
    except SyntaxError:
        raise ArithmeticError_(f"not an arithmetic expression: {expression[:80]!r}") from None


def evaluate(expression: str, values: Mapping[str, float] | None = None) -> float:
    """Evaluate `expression` over `values` (operand name -> number); raises ArithmeticError_."""
    tree = _parse(expression)
    result = _eval(tree.body, values or {})
    if math.isnan(result) or math.isinf(result):
        raise ArithmeticError_(f"expression has no finite value: {expression[:80]!r}")
    return result


def _eval(node: ast.AST, values: Mapping[str, float]) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):
            raise ArithmeticError_("booleans are not numbers")
        return float(node.value)
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise ArithmeticError_(f"unknown operand {node.id!r}")
        return float(values[node.id])
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        v = _eval(node.operand, values)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, values), _eval(node.right, values)
        return _binop(node.op, left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        func = FUNCTIONS.get(node.func.id)
        if func is None:
            raise ArithmeticError_(f"function {node.func.id!r} is not allowed")
        args: Sequence[float] = [_eval(a, values) for a in node.args]
        return float(func(*args))
    raise ArithmeticError_(f"not allowed in a calculation: {type(node).__name__}")


def _binop(op: ast.operator, left: float, right: float) -> float:
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        if right == 0:
            raise ArithmeticError_("division by zero")
        return left / right
    if isinstance(op, ast.Pow):
        if abs(right) > 16 or abs(left) > 1e12 or (left < 0 and right != int(right)):
            raise ArithmeticError_("only small real powers of non-negative numbers are allowed")
        return float(left**right)
    raise ArithmeticError_(f"operator {type(op).__name__} is not allowed")
