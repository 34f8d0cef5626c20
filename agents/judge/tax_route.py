"""The effective tax rate by a route of its own: the tax the income statement's arithmetic
implies, from the pre-tax and after-tax rows, never from the tax line's own sign.

On the main printing of each evidence filing's income statement, the rows that close the tax
identity (`lexicon.statements.tax_identity`: pre-tax income - tax + the lines a layout adds
after tax = the after-tax result) give the year's tax as pre-tax - after-tax + those lines, and
the rate as that tax over pre-tax income ('Income before income taxes 24,178 / Provision for
income taxes (2,863) / Equity-method investment activity 16 / Net income 21,331': a tax expense
of 2,863 on a pre-tax profit, a rate of +11.8%; a benefit on a pre-tax loss is a positive
rate). The pre-tax base may be taken before or after the lines the layout adds after tax: a
figure that is the rate on either base (within the figure's rounding and the judge's loose
tolerance) agrees. A rate of the other sign, or of another size on both bases, does not: the
answer is sent back with the rows that say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finqa.agents.judge.routes import Routes
from finqa.lexicon.model import StatementPeriod, StatementTable
from finqa.lexicon.statements.main_printing import main_pages, on_main_printing
from finqa.lexicon.statements.tax_identity import (
    PRETAX_ITEM,
    TAX_ITEM,
    TaxIdentity,
    printed,
    tax_identities,
)

__all__ = ["TaxRoute", "tax_conflict", "tax_routes", "tax_rate_metric"]

_LOOSE = 0.05  # relative: two rates within 5% of each other are one rate on two bases


@dataclass(frozen=True)
class TaxRoute:
    """One year's tax and effective tax rate by the identity of one income-statement table."""

    year: int
    expense: float  # base units, an expense positive, a benefit negative
    pretax: float
    after_lines: float  # the lines the layout adds after tax (equity-method income), summed
    doc: str
    page: int
    scale: float  # as filed ('(in millions)': 1e6)
    pretax_label: str
    tax_label: str
    after_label: str

    @property
    def rates(self) -> tuple[float, ...]:
        """The rate on pre-tax income, and on pre-tax income with the lines added after tax."""
        out = [self.expense / self.pretax * 100.0] if self.pretax else []
        wider = self.pretax + self.after_lines
        if self.after_lines and wider:
            out.append(self.expense / wider * 100.0)
        return tuple(out)

    def describe(self) -> str:
        kind = "expense" if self.expense > 0 else "benefit"
        rates = self.rates
        rate = f", a rate of {rates[0]:.1f}%" if rates else ""
        return (
            f"'{self.pretax_label}' and '{self.after_label}' give '{self.tax_label}' as a tax "
            f"{kind} of {abs(self.expense) / self.scale:,.0f} on {self.pretax / self.scale:,.0f}"
            f" for FY{self.year}{rate} ({self.doc} p.{self.page})"
        )


def tax_rate_metric(metric_id: str | None) -> bool:
    """Is the metric income tax over pre-tax income (its catalogue formula's sides)?"""
    from finqa.lexicon.formula import ratio_sides
    from finqa.lexicon.metrics import get_metric

    if not metric_id:
        return False
    try:
        formula = get_metric(metric_id).formula
    except KeyError:
        return False
    return bool(formula) and ratio_sides(formula or "") == (TAX_ITEM, PRETAX_ITEM)


def tax_routes(routes: Routes, year: int) -> list[TaxRoute]:
    """The year's tax by the identity of each evidence filing's main income statement (the
    index's statement model, else the judge's reading of the evidence pages)."""
    out: list[TaxRoute] = []
    pages: Any = routes.pages
    if pages is not None and hasattr(pages, "model"):  # LazyPages: read only when needed
        pages = pages.model()
    for store in (routes.store, pages):
        if store is None:
            continue
        for doc in dict.fromkeys(i.doc_id for i in routes.evidence.items):
            try:
                tables = [t for t in store.tables(doc) if t.source != "xbrl"]
            except Exception:  # noqa: BLE001 - a store that cannot read the filing: no route
                continue
            main = main_pages(tables)
            for table in tables:
                if table.statement != "income" or not on_main_printing(
                    "income", table.page, str(table.source), main
                ):
                    continue
                out += _routes_of(table, year, tax_identities(table.facts))
        if out:
            return out  # the index's model first; the pages only where it holds none
    return out


def _routes_of(table: StatementTable, year: int, found: list[TaxIdentity]) -> list[TaxRoute]:
    """The year's route of each identity of `table` (the tax from the rows around the tax
    line: pre-tax + the lines after tax - the after-tax result)."""
    cells = {(f.row, f.column): f for f in table.facts}
    out: list[TaxRoute] = []
    for ident in found:
        for col in ident.expense:
            pre = cells.get((ident.pretax_row, col))
            if pre is None or not _the_year(pre.period, year):
                continue
            after = cells[(ident.after_row, col)]
            tax = cells[(ident.tax_row, col)]
            out.append(
                TaxRoute(
                    year=year,
                    expense=ident.pretax[col]
                    + sum(printed(cells[(r, col)]) for r in ident.between)
                    - after.value,
                    pretax=ident.pretax[col],
                    after_lines=sum(printed(cells[(r, col)]) for r in ident.between),
                    doc=table.doc_id,
                    page=pre.page,
                    scale=pre.scale or 1.0,
                    pretax_label=pre.label,
                    tax_label=tax.label,
                    after_label=after.label,
                )
            )
    return out


def _the_year(period: StatementPeriod, year: int) -> bool:
    """A fiscal year's column (not a quarter, a year to date or an instant)."""
    return (
        period.fiscal_year == year
        and period.quarter is None
        and not period.instant
        and period.months in (None, 12)
    )


def tax_conflict(
    value: float, decimals: int, found: list[TaxRoute], *, size: bool = True
) -> tuple[str, str] | None:
    """The problem code ('wrong_sign', 'route_conflict') and why a stated rate (percent points,
    written to `decimals` places) is not the rate the statement's arithmetic gives, else None
    (some route agrees, or none has a rate); `size` False: the sign only (a question's own
    definition of the rate)."""
    rates = [(r, rate) for r in found for rate in r.rates]
    if not rates or not value:
        return None
    rounding = 0.5 * 10.0 ** (-max(decimals, 0))
    if any(abs(value - rate) <= rounding + _LOOSE * abs(rate) for _r, rate in rates):
        return None
    if not size and any((rate > 0) == (value > 0) for _r, rate in rates):
        return None
    route, rate = rates[0]
    said = "negative" if value < 0 else "positive"
    if (rate > 0) != (value > 0):
        real = "positive" if rate > 0 else "negative"
        return "wrong_sign", (
            f"an effective tax rate has the sign of tax over pre-tax income: {route.describe()},"
            f" {real}; the answer states it {said} ({value:g}%)"
        )
    return "route_conflict", (
        f"the statement's arithmetic gives another rate: {route.describe()}; "
        f"the answer states {value:g}%"
    )
