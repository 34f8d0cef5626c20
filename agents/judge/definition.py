"""Is a recorded calculation the asked metric? The catalogue (`finqa.lexicon` metrics) defines each
metric's formula over other metrics and its unit; a calculation is read back as a formula over
catalogue metrics (each operand named by the row it was read from, else by its own name) and
compared with the definition.

Two formulas are the same when they agree, up to one constant factor (units, percent, a 360-day
year, a sign convention), at several random points of the line items they rest on: derived
operands are expanded through their own catalogue formulas ('gross profit' = revenue - cogs), and
periods are kept apart (an operand of the year before is `prev`). A calculation fails when

  other_operation  it rests on exactly the definition's line items but combines them otherwise
                   ('(cfo - capex) / cfo * 100' for free cash flow = cfo - capex);
  other_metric     it is another catalogue metric's formula (cash ratio for a quick ratio);
  wrong_dimension  it gives a ratio where the asked metric is an amount, or an amount where it is
                   a ratio, percentage or number of days (operands' own units; any names).

Anything else (an operand the catalogue cannot name, an ending balance where the definition
averages, a question-defined variant over other line items) is not judged here: the check only
fails a calculation it can show is of something else.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from finqa.agents.types import Calculation, Operand
from finqa.lexicon.caches import data_cache

__all__ = ["DefinitionCheck", "check_definitions", "judge_definitions", "operand_metric"]

_POINTS = 4
_TOL = 1e-6
_YEAR = re.compile(r"(?:19|20)\d{2}")
_FIRST_FIGURE = re.compile(r"[\s$(]*[-\u2212]?\(?\$?\d")
_PERCENT_AFTER = re.compile(r"\d\s*%")
# the dimension of an answer kind: (money exponent, shares exponent)
_KIND_DIM: dict[str, tuple[int, int]] = {
    "amount": (1, 0),
    "ratio": (0, 0),
    "percent": (0, 0),
    "days": (0, 0),
    "per_share": (1, -1),
    "count": (0, 1),
}
_UNIT_DIM: dict[str, tuple[int, int]] = {
    "USD": (1, 0),
    "%": (0, 0),
    "ratio": (0, 0),
    "times": (0, 0),
    "days": (0, 0),
    "shares": (0, 1),
    "USD/share": (1, -1),
}
_COUNTED_UNITS = frozenset({"USD", "shares", "USD/share"})  # dimensions judged only over these
_DIM_WORDS = {(1, 0): "an amount", (0, 0): "a ratio or percentage", (1, -1): "an amount per share"}


# How a recorded calculation compares with the asked metric's definition (DefinitionCheck.status)
DefinitionStatus = Literal[
    "matches",  # the calculation is the asked metric's formula
    "other_operation",  # the asked metric's operands, another operation
    "other_metric",  # the formula of another catalogue metric
    "wrong_dimension",  # a figure of another kind (an amount for a ratio ...)
    "not_judged",  # a step towards the asked metric, or nothing to compare with
]


@dataclass(frozen=True)
class DefinitionCheck:
    """The comparison of one recorded calculation with the asked metric's definition."""

    index: int
    status: DefinitionStatus
    message: str = ""
    metric: str | None = None  # the asked metric
    computes: str | None = None  # the catalogue metric the calculation is, when another
    operands: tuple[str | None, ...] = ()  # the catalogue metric each operand was read as

    @property
    def failed(self) -> bool:
        return self.status in ("other_operation", "other_metric", "wrong_dimension")

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "status": self.status,
            "message": self.message,
            "metric": self.metric,
            "computes": self.computes,
            "operands": list(self.operands),
        }


def check_definitions(
    calcs: Sequence[Calculation],
    indices: Sequence[int],
    metric: str | None,
    kinds: Sequence[str | None],
    named: Sequence[str] = (),
) -> list[DefinitionCheck]:
    """Compare the calculations at `indices` (those the answer states the result of) with the
    asked `metric`'s definition; `kinds` are the answer kinds the question allows, `named` the
    other metrics the question names (a calculation of one of them is not 'another metric')."""
    definition = _metric(metric) if metric else None
    if definition is None:
        return []
    allowed = {_KIND_DIM[k] for k in kinds if k in _KIND_DIM}
    asks_itself = _UNIT_DIM.get(definition.unit) in allowed
    checks = [
        _check(i, calcs[i], definition, allowed, asks_itself, named)
        for i in dict.fromkeys(indices)
        if 0 <= i < len(calcs)
    ]
    if any(c.status == "matches" for c in checks):
        # the answer computes the metric; its other stated calculations are steps towards it
        return [c if c.status == "matches" else _step(c) for c in checks]
    return checks


def judge_definitions(
    calcs: Sequence[Calculation], numbers: Sequence[Any], expect: Any, analysis: Any
) -> list[DefinitionCheck]:
    """Check the calculations whose results the answer states against the asked metric; every
    figure stated as the result of one that is of something else becomes `calc_other_metric`."""
    stated = [
        nc.calculation
        for nc in numbers
        if nc.status == "calculation" and nc.calculation is not None
    ]
    if not stated or expect.metric is None:
        return []
    # a question whose kind of figure is not read still has the metric's operands judged
    kinds = (expect.kind, *expect.also) if expect.kind is not None else ()
    inputs = _reads(expect.metric)
    named = [
        m for m in getattr(analysis, "metrics", ()) or () if m != expect.metric and m not in inputs
    ]
    checks = check_definitions(calcs, stated, expect.metric, kinds, named)
    failed = {c.index: c for c in checks if c.failed}
    for nc in numbers:
        if nc.status == "calculation" and nc.calculation in failed:
            nc.status, nc.detail = "calc_other_metric", failed[nc.calculation].message
    return checks


def _step(c: DefinitionCheck) -> DefinitionCheck:
    return DefinitionCheck(c.index, "not_judged", "a step towards the asked metric", c.metric)


def _check(
    index: int,
    calc: Calculation,
    definition: Any,
    allowed: set[tuple[int, int]],
    asks_itself: bool,
    named: Sequence[str],
) -> DefinitionCheck:
    ops = tuple(operand_metric(op) for op in calc.operands)
    name = definition.name
    defined = f"{name} is {_shown(definition)}"
    base = {"metric": definition.id, "operands": ops}
    whole = _equity_with_minority(calc, ops, definition)
    if whole is not None:
        return DefinitionCheck(
            index,
            "other_metric",
            f"the calculation divides the company's share of net income by '{whole}', equity "
            f"that names no owners (it includes noncontrolling interests where they exist): "
            f"{name} over the company's net income takes the equity attributable to its "
            f"shareholders: {defined}",
            **base,
        )
    if asks_itself and all(ops):
        same, keys = _compare(calc, ops, definition.id)
        if same:
            return DefinitionCheck(index, "matches", defined, **base)
        # a metric over the asked one, of a kind the question allows ('D&A as % of revenue' for
        # a question the analysis reads as D&A), is what was asked, not another metric
        over = {
            m
            for m in _candidates(frozenset(o for o in ops if o))
            if _over(m, definition.id, allowed)
        }
        other = _which_metric(calc, ops, exclude={definition.id, *named, *over})
        if same is False and keys:
            also = f" (it computes {other.name.lower()})" if other is not None else ""
            return DefinitionCheck(
                index,
                "other_operation",
                f"the calculation {calc.expression}{also} is not {name} as defined: {defined}",
                computes=other.id if other is not None else None,
                **base,
            )
        if other is not None:
            return DefinitionCheck(
                index,
                "other_metric",
                f"the calculation is {other.name} ({_shown(other)}), not {name}: {defined}",
                computes=other.id,
                **base,
            )
    dim = _dimension(calc)
    if dim is not None and allowed and dim not in allowed:
        return DefinitionCheck(
            index,
            "wrong_dimension",
            f"the calculation {calc.expression} gives {_DIM_WORDS.get(dim, 'another kind')}, "
            f"not {' or '.join(sorted(_DIM_WORDS.get(d, '?') for d in allowed))}: {defined}",
            **base,
        )
    return DefinitionCheck(index, "not_judged", **base)


# a row of equity that is the parent's: it names its owners ('Total shareholders' equity',
# 'Equity attributable to shareowners of The Coca-Cola Company'); 'Total equity' does not
_OWNERS = re.compile(r"share ?holder|stock ?holder|share ?owner|owner|attributable|common|parent")


def _equity_with_minority(
    calc: Calculation, ops: Sequence[str | None], definition: Any
) -> str | None:
    """The equity row of a return on equity that is not the parent's: net income is the
    company's share (the catalogue's convention), so the equity it is set against must be the
    equity attributable to the company; a row naming no owners ('Total equity') may hold the
    noncontrolling interests too and is not read as it."""
    inputs = set(definition.inputs)
    if not {"net_income", "shareholders_equity"} <= inputs or "net_income" not in ops:
        return None
    for op, mid in zip(calc.operands, ops, strict=True):
        label = _label(op.text)
        if mid == "shareholders_equity" and not _OWNERS.search(label.lower()):
            return label or op.name
    return None


def _over(mid: str, asked: str, allowed: set[tuple[int, int]]) -> bool:
    m = _metric(mid)
    return m is not None and asked in _reads(mid) and _UNIT_DIM.get(m.unit) in allowed


def _shown(metric: Any) -> str:
    """'cfo - capex' read as the catalogue's names ('Cash from operations - Capital expenditures')."""
    if not metric.formula:
        return f"the {metric.name.lower()} line"
    text = str(metric.formula)
    for inp in sorted(metric.inputs, key=len, reverse=True):
        m = _metric(inp)
        if m is not None:
            text = re.sub(rf"\b{re.escape(inp)}\b", m.name.lower(), text)
    return text


# --------------------------------------------------------------------------- operands


def operand_metric(op: Operand) -> str | None:
    """The catalogue metric an operand is: the row it was read from ('Net cash provided by
    operating activities 3,676.2' -> cfo), else its own name ('capex_fy2020' -> capex)."""
    label = _label(op.text)
    amount = op.unit in _COUNTED_UNITS and not _PERCENT_AFTER.search(op.text or "")
    for text in (label, _YEAR.sub(" ", op.name.replace("_", " "))):
        for found in (_longest(text), _captioned(text)):
            if found and not (amount and _is_ratio(found)):
                return _same_fact(found)
    return None


def _is_ratio(mid: str) -> bool:
    """A metric that is a ratio, percentage or number of days: an amount's row cannot be it
    (Apple prints its gross profit as 'Gross margin 170,782')."""
    m = _metric(mid)
    return m is not None and _UNIT_DIM.get(m.unit) == (0, 0)


def _same_fact(mid: str) -> str:
    """The line item a catalogue line is read as: one the catalogue reads as its own line, else
    exactly one other line item (its `formulas` are itself then that one: the attributable net
    income, else net income) is that line item, the other's convention being the same amount."""
    m = _metric(mid)
    if m is None or m.formula or len(m.formulas) != 2 or m.formulas[0] != mid:
        return mid
    other = m.formulas[1]
    return other if _metric(other) is not None else mid


def _captioned(label: str) -> str | None:
    """The metric of a statement caption as filed, compared letters only (PDF text glues words:
    'Totalrevenues', 'Operatingincome'), through the lexicon's line-item catalogue."""
    from finqa.lexicon.line_items import label_key

    item = _captions().get(label_key(label))
    return item.metrics[0] if item is not None and item.metrics else None


@data_cache()
def _captions() -> dict[str, Any]:
    from finqa.lexicon.line_items import line_items

    out: dict[str, Any] = {}
    for item in line_items().values():
        for key in item.keys()[0]:
            out.setdefault(key, item)
    return out


def _label(text: str) -> str:
    m = _FIRST_FIGURE.search(text or "")
    return (text[: m.start()] if m else text or "").strip()


def _longest(text: str) -> str | None:
    from finqa.lexicon import find_metrics

    if not text.strip():
        return None
    try:
        found = find_metrics(text)
    except Exception:  # noqa: BLE001 - an unreadable name only leaves the operand unnamed
        return None
    if not found:
        return None
    return max(found, key=lambda m: m.end - m.start).canonical


def _metric(mid: str) -> Any | None:
    from finqa.lexicon import METRICS

    return METRICS.get(mid)


def _offsets(calc: Calculation) -> list[int]:
    """Each operand's period relative to the latest one (0 = latest, -1 = the year before)."""
    years = [_year(op.period) for op in calc.operands]
    known = [y for y in years if y is not None]
    top = max(known) if known else 0
    return [(y - top) if y is not None else 0 for y in years]


def _year(period: str | None) -> int | None:
    m = _YEAR.search(period or "")
    return int(m.group(0)) if m else None


# --------------------------------------------------------------------------- formulas as functions


class _Point:
    """One random assignment of line-item values per (metric, period offset); derived metrics are
    computed through their catalogue formulas. `touched` records the line items read."""

    def __init__(self, seed: int, ending: bool = False) -> None:
        self.seed = seed
        self.ending = ending  # balances at the period end where the definition averages
        self.base: dict[tuple[str, int], float] = {}
        self.touched: set[tuple[str, int]] = set()

    def value(self, mid: str, t: int, depth: int = 0) -> float:
        metric = _metric(mid)
        if metric is None or not metric.formula or depth > 6:
            key = (mid, t)
            if key not in self.base:
                self.base[key] = random.Random(f"{self.seed}:{mid}:{t}").uniform(1.0, 10.0)
            self.touched.add(key)
            return self.base[key]
        return self.formula(metric.formula, t, depth)

    def formula(self, formula: str, t: int, depth: int = 0) -> float:
        """A catalogue formula over line items at period offset `t`."""
        from finqa.lexicon.formula import evaluate

        inputs = _formula_inputs(formula)
        formula = re.sub(r"\bavg\(", "(", formula) if self.ending else formula
        current = {i: self.value(i, t, depth + 1) for i in inputs}
        previous = (
            {i: self.value(i, t - 1, depth + 1) for i in inputs}
            if re.search(r"\b(?:avg|prev|change)\(", formula)
            else None
        )
        return float(evaluate(formula, current, previous))


def _formula_inputs(formula: str) -> tuple[str, ...]:
    names = re.findall(r"[a-z_][a-z0-9_]*", formula)
    return tuple(dict.fromkeys(n for n in names if n not in ("avg", "prev", "change")))


def _alternatives(mid: str) -> tuple[str, ...]:
    """The catalogue's other formulas of a metric (`formulas:`) that define it over other line
    items (gross profit / revenue for gross margin); a bare line item listed there is only
    where a statement reader looks first (total debt's 'Total debt' line), not a definition."""
    m = _metric(mid)
    if m is None:
        return ()
    return tuple(f for f in m.formulas if f != m.formula and _formula_inputs(f) != (f,))


def _calc_fn(
    calc: Calculation, ops: Sequence[str | None], signed: bool
) -> Callable[[_Point], float]:
    """The calculation as a function of line items: each operand is its metric at its period
    (negated when written negative and `signed`: capex recorded as -460.8)."""
    from finqa.lexicon.arith import evaluate

    offsets = _offsets(calc)
    keys = [(str(mid), t) for mid, t in zip(ops, offsets, strict=True)]
    # distinct rows read as one line item are its parts; the same row twice is counted twice
    rows: dict[tuple[str, int], list[tuple[float, str]]] = {}
    for op, key in zip(calc.operands, keys, strict=True):
        row = (abs(op.value), _label(op.text))
        if row not in rows.setdefault(key, []):
            rows[key].append(row)

    def fn(point: _Point) -> float:
        env: dict[str, float] = {}
        for op, key in zip(calc.operands, keys, strict=True):
            parts = rows[key]
            i = parts.index((abs(op.value), _label(op.text)))
            v = point.value(*key) * _share(point.seed, key, i, len(parts))
            env[op.name] = -v if signed and op.value < 0 else v
        return float(evaluate(calc.expression, env))

    return fn


def _share(seed: int, key: tuple[str, int], i: int, n: int) -> float:
    """The i-th of n operands read as the same line item for the same period is a part of it
    (short-term borrowings and the current portion of long-term debt, both short-term debt):
    random positive shares adding up to the whole."""
    if n == 1:
        return 1.0
    weights = [random.Random(f"{seed}:{key}:part{j}").uniform(1.0, 10.0) for j in range(n)]
    return weights[i] / sum(weights)


# the asked metric over the periods an answer may combine it across: its value, its change, its
# growth, its ratio to the year before, its average over two or three years
_FORMS: tuple[Callable[[Callable[[int], float]], float], ...] = (
    lambda d: d(0),
    lambda d: d(0) - d(-1),
    lambda d: (d(0) - d(-1)) / d(-1),
    lambda d: d(0) / d(-1),
    lambda d: (d(0) + d(-1)) / 2,
    lambda d: (d(0) + d(-1) + d(-2)) / 3,
)


def _metric_fns(
    mid: str, formula: str | None = None
) -> list[tuple[bool, Callable[[_Point], float]]]:
    """(ending balances?, the metric, or `formula` for it, in one of `_FORMS`) as functions of
    a point."""
    return [(ending, _form_fn(mid, form, formula)) for ending in (False, True) for form in _FORMS]


def _form_fn(
    mid: str, form: Callable[[Callable[[int], float]], float], formula: str | None = None
) -> Callable[[_Point], float]:
    def fn(point: _Point) -> float:
        if formula is not None:
            return form(lambda t: point.formula(formula, t))
        return form(lambda t: point.value(mid, t))

    return fn


def _same(
    f: Callable[[_Point], float], g: Callable[[_Point], float], ending: bool = False
) -> tuple[bool | None, bool]:
    """(f == c * g for one constant c != 0, whether f and g read the same line items whatever
    their periods); None when either cannot be evaluated."""
    ratios: list[float] = []
    same_items = True
    for seed in range(_POINTS):
        pf, pg = _Point(seed, ending), _Point(seed, ending)
        try:
            a, b = f(pf), g(pg)
        except Exception:  # noqa: BLE001 - a formula that cannot be evaluated is not judged
            return None, False
        same_items = same_items and {k for k, _t in pf.touched} == {k for k, _t in pg.touched}
        if b == 0 or a == 0:
            return False, same_items
        ratios.append(a / b)
    first = ratios[0]
    return all(abs(r - first) <= _TOL * abs(first) for r in ratios), same_items


def _compare(
    calc: Calculation, ops: Sequence[str | None], mid: str, alternatives: bool = True
) -> tuple[bool | None, bool]:
    """Whether the calculation is the metric's formula or one of the catalogue's other formulas
    of it (as written, or with negative operands
    read as negated line items; with average or period-end balances; the metric itself or its
    change, growth or average across periods), and whether it rests on exactly the formula's
    line items."""
    items = False
    verdict: bool | None = None
    for formula in (None, *(_alternatives(mid) if alternatives else ())):
        for signed in (False, True):
            fn = _calc_fn(calc, ops, signed)
            for ending, metric_fn in _metric_fns(mid, formula):
                same, keys = _same(fn, metric_fn, ending)
                if same:
                    return True, keys
                items = items or keys
                if same is False:
                    verdict = False
    return verdict, items


def _which_metric(calc: Calculation, ops: Sequence[str | None], exclude: set[str]) -> Any | None:
    """The catalogue metric the calculation computes, if it is one (and not excluded): only a
    metric resting on the same line items can be the same formula."""
    point = _Point(0)
    try:
        _calc_fn(calc, ops, False)(point)
    except Exception:  # noqa: BLE001 - a calculation that cannot be evaluated is not judged
        return None
    items = frozenset(k for k, _t in point.touched)
    for mid in _candidates(frozenset(o for o in ops if o)):
        if mid in exclude or _base_items(mid) != items:
            continue
        same, _keys = _compare(calc, ops, mid)
        if same:
            return _metric(mid)
    return None


@lru_cache(maxsize=256)
def _candidates(operands: frozenset[str]) -> tuple[str, ...]:
    """Catalogue metrics that can rest on these operands: the operands themselves and every
    derived metric whose formula (expanded) reads one of them."""
    from finqa.lexicon import METRICS

    out = [m for m in operands if m in METRICS]
    for mid, m in METRICS.items():
        if m.formula and mid not in out and _reads(mid) & operands:
            out.append(mid)
    return tuple(out)


@lru_cache(maxsize=512)
def _touched(mid: str) -> frozenset[str] | None:
    """What evaluating a metric's formula reads (line items and metrics), or None when it
    cannot be evaluated."""
    point = _Point(0)
    try:
        point.value(mid, 0)
    except Exception:  # noqa: BLE001 - a formula that cannot be evaluated reads nothing known
        return None
    return frozenset(k for k, _t in point.touched)


def _base_items(mid: str) -> frozenset[str]:
    """The line items a metric rests on, its formula expanded (periods aside)."""
    return _touched(mid) or frozenset()


def _reads(mid: str) -> frozenset[str]:
    """Every metric a metric's formula reads, expanded."""
    touched = _touched(mid)
    if touched is None:
        return frozenset()
    m = _metric(mid)
    return touched | (frozenset(m.inputs) if m is not None else frozenset())


# --------------------------------------------------------------------------- dimensions


def _dimension(calc: Calculation) -> tuple[int, int] | None:
    """(money, shares) exponents of the calculation's result from its operands' units; None when
    an operand is not an amount or a share count (or its text shows a percentage), or the
    expression mixes dimensions."""
    dims: dict[str, tuple[int, int]] = {}
    for op in calc.operands:
        if op.unit not in _COUNTED_UNITS or _PERCENT_AFTER.search(op.text or ""):
            return None  # a ratio/percent/days operand: its recorded unit is too easily wrong
        dims[op.name] = _UNIT_DIM[op.unit]
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
