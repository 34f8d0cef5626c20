"""The dimension of a recorded calculation's result (money and share exponents) from its
operands' units, and the dimension each answer kind and catalogue unit has: an amount is not a
ratio, a ratio not an amount per share (`definition`'s `wrong_dimension`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from finqa.agents.types import Calculation

# the dimension of an answer kind: (money exponent, shares exponent)
KIND_DIM: dict[str, tuple[int, int]] = {
    "amount": (1, 0),
    "ratio": (0, 0),
    "percent": (0, 0),
    "days": (0, 0),
    "per_share": (1, -1),
    "count": (0, 1),
}
UNIT_DIM: dict[str, tuple[int, int]] = {
    "USD": (1, 0),
    "%": (0, 0),
    "ratio": (0, 0),
    "times": (0, 0),
    "days": (0, 0),
    "shares": (0, 1),
    "USD/share": (1, -1),
}
COUNTED_UNITS = frozenset({"USD", "shares", "USD/share"})  # dimensions judged only over these
DIM_WORDS = {(1, 0): "an amount", (0, 0): "a ratio or percentage", (1, -1): "an amount per share"}
PERCENT_AFTER = re.compile(r"\d\s*%")


def calc_dimension(calc: Calculation) -> tuple[int, int] | None:
    """(money, shares) exponents of the calculation's result from its operands' units; None when
    an operand is not an amount or a share count (or its text shows a percentage), or the
    expression mixes dimensions."""
    dims: dict[str, tuple[int, int]] = {}
    for op in calc.operands:
        if op.unit not in COUNTED_UNITS or PERCENT_AFTER.search(op.text or ""):
            return None  # a ratio/percent/days operand: its recorded unit is too easily wrong
        dims[op.name] = UNIT_DIM[op.unit]
    try:
        tree = ast.parse(calc.expression, mode="eval")
    except SyntaxError:
        return None
    return _dim(tree.body, dims)


def _dim(node: ast.AST, dims: Mapping[str, tuple[int, int]]) -> tuple[int, int] | None:
    if isinstance(node, ast.Constant):
        return (0, 0)
    if isinstance(node, ast.Name):
        return dims.get(node.id)
    if isinstance(node, ast.UnaryOp):
        return _dim(node.operand, dims)
    if isinstance(node, ast.Call):
        args = [_dim(a, dims) for a in node.args]
        fn = node.func.id if isinstance(node.func, ast.Name) else ""
        if fn == "round" and args:
            return args[0]
        if args and all(a == args[0] for a in args):
            return args[0]
        return None
    if isinstance(node, ast.BinOp):
        a, b = _dim(node.left, dims), _dim(node.right, dims)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add | ast.Sub):
            return a if a == b else None
        if isinstance(node.op, ast.Mult):
            return (a[0] + b[0], a[1] + b[1])
        if isinstance(node.op, ast.Div):
            return (a[0] - b[0], a[1] - b[1])
        if isinstance(node.op, ast.Pow) and b == (0, 0):
            return a if a == (0, 0) else None
    return None
