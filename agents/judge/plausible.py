"""Plausibility from definitions: a figure the asked metric cannot take by its definition sends
the answer back with the reason (the limits live in lexicon/data/plausibility.yaml).

* bounds - a margin outside [-100%, 100%], a negative turnover, a share of a whole outside
  0-100% ('what percentage of total revenue ...');
* sign - a quotient's sign is its numerator's times its denominator's, read by the judge from
  the statement model: an effective tax rate stated negative where the filing shows a tax
  expense on a pre-tax profit, or one stated negative for a tax benefit on a pre-tax loss (a
  positive rate). An effective tax rate is checked by a route of its own (tax_route.py): the
  tax the pre-tax and after-tax rows imply, whatever sign the tax line was read with; a rate of
  the other sign, or of a size that fits neither pre-tax base, is sent back with those rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finqa.agents.judge.kind import KindProblem
from finqa.agents.judge.routes import Reading, Routes
from finqa.agents.judge.tax_route import TaxRoute, tax_conflict, tax_rate_metric, tax_routes

__all__ = ["SignBasis", "implausible", "sign_basis", "in_metric_units", "tax_sign"]


@dataclass(frozen=True)
class SignBasis:
    """The sides of a quotient metric as the statement model gives them, and the sign they make."""

    numerator: float
    denominator: float
    sign: int
    readings: tuple[Reading, ...]

    def describe(self) -> str:
        return "; ".join(r.describe() for r in self.readings)


def in_metric_units(q: Any, unit: str) -> float | None:
    """The figure in the metric's catalogue unit: percent points for '%' ('0.25' written as a
    fraction is 25), a plain number for ratios, turnovers and days; None when it is neither."""
    value = float(q.value)
    written = str(q.unit or "")
    if unit == "%":
        if written == "%":
            return value
        if written in ("", "ratio") and abs(value) <= 1.5 and int(q.decimals or 0) > 0:
            return value * 100.0
        return None
    if unit in ("ratio", "times"):
        if written == "%":
            return value / 100.0
        return value if written in ("", "ratio", "times", "x") else None
    if unit == "days":
        return value if written in ("", "days") else None
    return None


def sign_basis(metric_id: str, routes: Routes, year: int) -> SignBasis | None:
    """The numerator's and denominator's values for `year` from the statement model's first
    source of each line item, and the sign their quotient must have; None without them."""
    from finqa.lexicon.formula import FormulaError, evaluate, ratio_sides
    from finqa.lexicon.metrics import get_metric
    from finqa.lexicon.plausibility import quotient_sign

    try:
        formula = get_metric(metric_id).formula
    except KeyError:
        return None
    sides = ratio_sides(formula) if formula else None
    if sides is None:
        return None
    values: dict[str, float] = {}
    used: list[Reading] = []
    from finqa.agents.judge.routes import leaves

    for item in leaves(metric_id):
        found = sorted(routes.readings(item, year), key=lambda r: not r.strong)
        if not found:
            return None
        values[item] = found[0].value
        used.append(found[0])
    try:
        top, bottom = evaluate(sides[0], values), evaluate(sides[1], values)
    except FormulaError:
        return None
    sign = quotient_sign(metric_id, top, bottom)
    return None if sign is None else SignBasis(top, bottom, sign, tuple(used))


def implausible(
    metric_id: str | None,
    unit: str,
    figures: Sequence[Any],
    *,
    share: bool,
    routes: Routes | None,
    year: int | None,
) -> list[KindProblem]:
    """Every way the answer's figures for the asked metric break its definition (NumberChecks
    of `figures` that do are marked `implausible` / `wrong_sign`)."""
    from finqa.lexicon.plausibility import out_of_bounds, plausibility

    rule = plausibility(metric_id, share=share)
    if rule is None:
        return []
    problems: list[KindProblem] = []
    taxes = (
        tax_routes(routes, year)
        if tax_rate_metric(metric_id) and routes is not None and year
        else []
    )
    basis = (
        sign_basis(metric_id, routes, year)
        if rule.quotient_sign and metric_id and routes is not None and year and not taxes
        else None
    )
    as_unit = unit if unit in ("%", "ratio", "times", "days") else ("%" if share else unit)
    for nc in figures:
        value = in_metric_units(nc.quantity, as_unit)
        if value is None:
            continue
        why = out_of_bounds(value, metric_id, share=share)
        if why is not None:
            nc.status, nc.detail = "implausible", why
            problems.append(
                KindProblem("implausible", f"{nc.text.strip()} is not plausible: {why}", [nc.text])
            )
            continue
        if _tax_problem(nc, value, taxes, problems, size=True):
            continue  # the rate the pre-tax and after-tax rows give (tax_route.py)
        if basis is not None and value and (1 if value > 0 else -1) != basis.sign:
            said = "negative" if value < 0 else "positive"
            real = "positive" if basis.sign > 0 else "negative"
            why = (
                f"{rule.what} has the sign of its numerator over its denominator: "
                f"{basis.describe()} make it {real}, the answer states it {said}"
            )
            nc.status, nc.detail = "wrong_sign", why
            problems.append(KindProblem("wrong_sign", f"{nc.text.strip()}: {why}", [nc.text]))
    return problems


def tax_sign(
    metric_id: str | None, unit: str, figures: Sequence[Any], routes: Routes, year: int
) -> list[KindProblem]:
    """Where the question defines the rate itself (its own pre-tax base), its sign is still tax
    over pre-tax income: a figure of the other sign than the statement's arithmetic gives is
    sent back (its size is the question's definition's, not checked)."""
    if not tax_rate_metric(metric_id):
        return []
    taxes = tax_routes(routes, year)
    problems: list[KindProblem] = []
    for nc in figures:
        value = in_metric_units(nc.quantity, unit)
        if value is not None:
            _tax_problem(nc, value, taxes, problems, size=False)
    return problems


def _tax_problem(
    nc: Any, value: float, taxes: list[TaxRoute], problems: list[KindProblem], *, size: bool
) -> bool:
    """Mark `nc` and add the problem when the statement's arithmetic gives another rate."""
    conflict = tax_conflict(value, int(nc.quantity.decimals or 0), taxes, size=size)
    if conflict is None:
        return False
    code, why = conflict
    nc.status, nc.detail = code, why
    problems.append(KindProblem(code, f"{nc.text.strip()}: {why}", [nc.text]))
    return True
