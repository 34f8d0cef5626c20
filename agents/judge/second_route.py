"""The second-route step of the judge: the answer's figures for the asked metric checked against
the judge's own routes (routes.py) and against the metric's definition (plausible.py).

Which figures are checked: those written in a unit the metric can take, for the asked year (or
none stated). The catalogue formula for one year can contradict a figure only when that is what
is asked (not a span, an average over years or the question's own definition); otherwise a route
may confirm a figure, never reject it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.judge._question import FIGURE_KINDS
from finqa.agents.judge.kind import Expectation, KindProblem
from finqa.agents.judge.numeric import NumberCheck, claimed_year
from finqa.agents.judge.plausible import implausible, tax_sign
from finqa.agents.judge.routes import RouteCheck, Routes
from finqa.agents.judge.statement_figures import StatementFigures, units_agree
from finqa.lexicon.components import one_side_named, side_classes
from finqa.lexicon.line_items import get_item
from finqa.lexicon.question_intent import read_intent

__all__ = ["LazyPages", "second_route"]


def second_route(
    question: str,
    text: str,
    expect: Expectation,
    asked: Sequence[int],
    numbers: Sequence[NumberCheck],
    routes: Routes,
    rel_tol: float,
) -> tuple[RouteCheck | None, list[KindProblem]]:
    """The route check of the answer's figure (figures it rejects become `route_conflict`) and
    the problems it and the definitions find."""
    year = max(asked) if asked else None
    if expect.metric is None or expect.kind not in FIGURE_KINDS or year is None or expect.change:
        return None, []
    intent = read_intent(question)  # the lexicon's one reading of the question
    unit = _metric_unit(expect.metric)
    figures = [
        nc
        for nc in numbers
        if nc.quantity is not None
        and _unit_fits(str(nc.quantity.unit or ""), unit)
        and claimed_year(text, nc.quantity) in (None, year)
    ]
    # the definition the question's words name (DPO over cost of sales): the route derives the
    # figure by its operands, and may contradict a figure of another definition
    named = intent.ask.variant if intent.ask.variant is not None else None
    if named is not None and named.metric != expect.metric:
        named = None
    # one year asked: the question names one, or names a prior year-end only as the opening
    # balance of an average ('the average of total assets at December 31, 2019 and 2020')
    one_year = (
        len(asked) == 1 or (intent.ask.aggregate == "single" and len(intent.ask.agg_years) == 1)
    ) and not intent.aggregates
    single = one_year and (named is not None or not intent.defines_metric)
    candidates = [nc for nc in figures if nc.ok]
    results = [nc for nc in candidates if nc.status == "calculation"]
    headline = results or (candidates if len(candidates) == 1 else [])
    # the routes read whole fiscal years: they cannot contradict a figure of a year-to-date, a
    # quarter or a date within a year (the first half of a year is not its fiscal-year figure in
    # a later filing), as the reasoner reads the period asked (`QuestionAsk.sub_annual`)
    whole_years = not intent.ask.sub_annual
    check = routes.check(
        expect.metric,
        year,
        candidates,
        headline,
        rel_tol,
        may_contradict=single and whole_years,
        formula=named.formula if named is not None else None,
        unit=named.unit if named is not None else None,
        whole_balance=_whole_balance(expect.metric, question),
    )
    problems: list[KindProblem] = []
    if check.rejects:
        for nc in numbers:
            if nc.text == check.figure:
                nc.status, nc.detail = "route_conflict", check.detail
        problems.append(KindProblem("route_conflict", check.detail, [check.figure]))
    share = intent.share
    judged = [
        nc
        for nc in numbers
        if nc.quantity is not None
        and nc.status != "route_conflict"
        and (nc in figures or (share and nc.quantity.unit == "%"))
    ]
    if single:  # a change of a rate over years, or an average, may take any sign or size
        # the tax route reads whole-year columns: a quarter's rate is not held to the year's
        tax_year = year if whole_years else None
        problems += implausible(
            expect.metric, unit, judged, share=share, routes=routes, year=tax_year
        )
    elif one_year and whole_years:  # the question's own definition: the sign of tax over pre-tax
        problems += tax_sign(expect.metric, unit, judged, routes, year)
    return check, problems


# the units an answer's figure may be written in for a metric of each catalogue unit
_FITS: dict[str, frozenset[str]] = {
    "USD": frozenset({"USD", ""}),
    "USD/share": frozenset({"USD", "USD/share", ""}),
    "%": frozenset({"%", "", "ratio"}),
    "ratio": frozenset({"", "ratio", "times", "x", "%"}),
    "times": frozenset({"", "ratio", "times", "x", "%"}),
    "days": frozenset({"", "days"}),
    "shares": frozenset({"", "shares"}),
}


def _unit_fits(written: str, unit: str) -> bool:
    """Can a figure written in `written` be the metric (an amount is no percentage)?"""
    fits = _FITS.get(unit)
    return units_agree(written, unit) if fits is None else written in fits


def _metric_unit(metric_id: str) -> str:
    try:
        from finqa.lexicon import get_metric

        return str(get_metric(metric_id).unit)
    except Exception:  # noqa: BLE001 - an unknown metric: an amount
        return "USD"


class LazyPages:
    """The judge's statement model of the evidence pages, read only when a route needs it."""

    def __init__(self, figures: StatementFigures) -> None:
        self._figures = figures

    def model(self) -> Any:
        """The store itself (its tables: `component_routes`), None when the pages read none."""
        return self._figures.store()

    def lookup(self, doc_id: str, item: str, period: Any = None) -> list[Any]:
        store = self._figures.store()
        return [] if store is None else list(store.lookup(doc_id, item, period))


def _whole_balance(metric: str, question: str) -> bool:
    """A balance-sheet line item asked with no side of the balance sheet named ('total
    operating lease liabilities'): its lines captioned with one side are parts of it."""
    item = get_item(metric)
    return (
        item is not None
        and item.statement == "balance"
        and not side_classes(metric.replace("_", " "))
        and not one_side_named(question)
    )
