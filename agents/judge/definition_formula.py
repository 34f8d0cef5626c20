"""Formulas as functions of line items: a recorded calculation and a catalogue metric are
evaluated at random points of the line items they rest on and compared up to one constant
factor (units, percent, a 360-day year, a sign convention), periods kept apart
(`definition`)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from finqa.agents.judge.definition_operands import catalogue_metric, period_offsets
from finqa.agents.types import Calculation

_POINTS = 4
_TOL = 1e-6


class _Point:
    """One random assignment of line-item values per (metric, period offset); derived metrics are
    computed through their catalogue formulas. `touched` records the line items read."""

    def __init__(self, seed: int, ending: bool = False) -> None:
        self.seed = seed
        self.ending = ending  # balances at the period end where the definition averages
        self.base: dict[tuple[str, int], float] = {}
        self.touched: set[tuple[str, int]] = set()

    def value(self, mid: str, t: int, depth: int = 0) -> float:
        metric = catalogue_metric(mid)
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
    m = catalogue_metric(mid)
    if m is None:
        return ()
    return tuple(f for f in m.formulas if f != m.formula and _formula_inputs(f) != (f,))


def _calc_fn(
    calc: Calculation, ops: Sequence[str | None], signed: bool
) -> Callable[[_Point], float]:
    """The calculation as a function of line items: each operand is its metric at its period
    (negated when written negative and `signed`: capex recorded as -460.8)."""
    from finqa.lexicon.arith import evaluate

    offsets = period_offsets(calc)
    keys = [(str(mid), t) for mid, t in zip(ops, offsets, strict=True)]
    # distinct figures read as one line item are its parts; the same figure twice is one fact
    # read twice (its tag and its text row, one line on two pages, one row named twice) and is
    # counted twice, so the sum is not the line item
    rows: dict[tuple[str, int], list[float]] = {}
    for op, key in zip(calc.operands, keys, strict=True):
        if abs(op.value) not in rows.setdefault(key, []):
            rows[key].append(abs(op.value))

    def fn(point: _Point) -> float:
        env: dict[str, float] = {}
        for op, key in zip(calc.operands, keys, strict=True):
            parts = rows[key]
            i = parts.index(abs(op.value))
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


def compare_formulas(
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


def which_metric(calc: Calculation, ops: Sequence[str | None], exclude: set[str]) -> Any | None:
    """The catalogue metric the calculation computes, if it is one (and not excluded): only a
    metric resting on the same line items can be the same formula."""
    point = _Point(0)
    try:
        _calc_fn(calc, ops, False)(point)
    except Exception:  # noqa: BLE001 - a calculation that cannot be evaluated is not judged
        return None
    items = frozenset(k for k, _t in point.touched)
    for mid in candidate_metrics(frozenset(o for o in ops if o)):
        if mid in exclude or _base_items(mid) != items:
            continue
        same, _keys = compare_formulas(calc, ops, mid)
        if same:
            return catalogue_metric(mid)
    return None


@lru_cache(maxsize=256)
def candidate_metrics(operands: frozenset[str]) -> tuple[str, ...]:
    """Catalogue metrics that can rest on these operands: the operands themselves and every
    derived metric whose formula (expanded) reads one of them."""
    from finqa.lexicon import METRICS

    out = [m for m in operands if m in METRICS]
    for mid, m in METRICS.items():
        if m.formula and mid not in out and metric_reads(mid) & operands:
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


def metric_reads(mid: str) -> frozenset[str]:
    """Every metric a metric's formula reads, expanded."""
    touched = _touched(mid)
    if touched is None:
        return frozenset()
    m = catalogue_metric(mid)
    return touched | (frozenset(m.inputs) if m is not None else frozenset())
