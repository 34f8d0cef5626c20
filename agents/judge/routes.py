"""A second route for every figure the judge accepts: the asked metric derived from the
statement model by sources of its own, never by the reasoner's reading.

Each line item the catalogue formula needs is read from every source the statement model holds
for it, each a route: the filing's inline-XBRL tag for the total (`xbrl`), a primary statement
table (`statement`; a line printed only as its parts under a heading that names it is their
sum), the sum of a printed total's parts where it is another figure (`components`,
`component_routes`), another table of the filing (MD&A, notes: `other_table`) and a later
filing's comparative column (`later_filing`). The judge evaluates the catalogue formula itself
(`lexicon.evaluate_metric`) over each route's readings. Then, for the answer's figure:

* `corroborated` - a route gives the answer's figure and no primary route gives another;
* `routes_disagree` - a route gives the answer's figure but another primary route gives a
  different one beyond rounding: the filing's own sources contest it, so it is not accepted;
* `contradicted` - every primary route gives one value and the answer's figure is not it;
* `no_route` - the statement model holds nothing to derive it from (the other checks stand).

Notes and MD&A tables corroborate a figure but never contradict it (a note's row of the same
caption may be one part of the line). Values are compared within the figure's written rounding.
One source's reading of a line item lives in `route_reading`, the metric by one choice of
readings and when two of them contest each other in `route_value`.

A question about one part of the business (a segment, region or product line: the asked
dimension, `lexicon.dimensions`) is routed only to that member's facts (its tag, its rows in
the filing's tables), never to the consolidated line: the company's total is no route to a
part's figure, and with no fact of the member the figure has no route (it is not contradicted).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from finqa.agents.judge import _lex
from finqa.agents.judge.component_routes import whole_facts
from finqa.agents.judge.route_reading import (
    Reading,
    RouteKind,
    by_value,
    component_sums,
    fact_reading,
    item_unit,
    one_per_route,
    part_reading,
    same_value,
    summed_lines,
)
from finqa.agents.judge.route_value import (
    RouteValue,
    absolute,
    magnitudes,
    one_value_each,
    other_source,
    printed_negative,
)
from finqa.agents.judge.statement_figures import match_statement_value
from finqa.agents.types import Evidence, StatementStore
from finqa.lexicon.components import side_classes

__all__ = [
    "RouteKind",
    "RouteOutcome",
    "Reading",
    "RouteValue",
    "RouteCheck",
    "Routes",
    "formula_leaves",
    "leaves",
]

RouteOutcome = Literal["corroborated", "routes_disagree", "contradicted", "no_route"]

_MAX_LATER = 2  # later filings of the company read for a comparative column
# a figure contradicts the routes only beyond this multiple of the judge's rounding tolerance
# (matching is 0.2x of it: within 1% of every route's value a figure is not called wrong)
_LOOSE = 10.0


@dataclass
class RouteCheck:
    """What the second route said about the answer's figure for the asked metric."""

    metric: str
    year: int
    outcome: RouteOutcome
    figure: str = ""  # the answer's figure checked (as written)
    detail: str = ""
    values: list[RouteValue] = field(default_factory=list)

    @property
    def rejects(self) -> bool:
        return self.outcome in ("routes_disagree", "contradicted")

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "year": self.year,
            "outcome": self.outcome,
            "figure": self.figure,
            "detail": self.detail,
            "values": [v.to_dict() for v in self.values],
        }


def leaves(metric_id: str) -> list[str]:
    """The line items (catalogue ids without a formula) a metric's formula needs, recursively."""
    out: list[str] = []
    stack = [metric_id]
    seen: set[str] = set()
    while stack:
        mid = stack.pop()
        if mid in seen:
            continue
        seen.add(mid)
        inputs = _lex.metric_inputs(mid)
        if not inputs:
            out.append(mid)
        stack.extend(reversed(inputs))
    return out


def formula_leaves(formula: str) -> list[str]:
    """The line items a formula over catalogue keys needs, its metrics' own formulas expanded."""
    from finqa.lexicon.formula import keys

    return list(dict.fromkeys(leaf for key in keys(formula) for leaf in leaves(key)))


@dataclass
class Routes:
    """The statement model's sources for the evidence's filings: the index's store (tags, tables
    and later filings of the same company) and the judge's own reading of the evidence pages."""

    evidence: Evidence
    store: StatementStore | None = None  # the index's statement model
    pages: Any = None  # a StatementStore over the evidence pages (StatementFigures.store())
    question: str = ""  # the question: the part of the business it asks, if any (`part`)
    _part: list[Any] = field(default_factory=list, repr=False)  # [AskedDimension | None] once read
    _readings: dict[tuple[str, int], list[Reading]] = field(default_factory=dict, repr=False)
    _main: dict[tuple[int, str], dict[str, int]] = field(default_factory=dict, repr=False)

    def _docs(self) -> list[str]:
        return list(dict.fromkeys(i.doc_id for i in self.evidence.items))

    def _later(self, year: int) -> list[str]:
        """Later annual filings of the evidence's companies in the index (a comparative column)."""
        if self.store is None:
            return []
        from finqa.lexicon.docnames import parse_doc_name

        own = self._docs()
        companies = {parse_doc_name(d).company for d in own} - {None}
        if not companies:
            return []
        later: list[tuple[int, str]] = []
        try:
            docs = self.store.docs()
        except Exception:  # noqa: BLE001 - an index without a statement model: no later filing
            return []
        for doc in docs:
            if doc in own:
                continue
            meta = parse_doc_name(doc)
            fy = meta.fiscal_year
            if (
                meta.company in companies
                and meta.doc_type == "10k"
                and fy
                and year < fy <= year + 2
            ):
                later.append((fy, doc))
        return [d for _y, d in sorted(later)[:_MAX_LATER]]

    def part(self) -> Any:
        """The part of the business the question asks (`lexicon.dimensions.resolve_dimension`
        over the evidence filings' members; the question's own words without a store), None
        when it asks the company as a whole."""
        if not self._part:
            self._part.append(_asked_part(self.question, self.store, self._docs()))
        return self._part[0]

    def readings(self, item: str, year: int) -> list[Reading]:
        """Every source's value of line item `item` for fiscal `year` (one per source and page)."""
        key = (item, year)
        if key not in self._readings:
            self._readings[key] = self._read(item, year)
        return self._readings[key]

    def _read(self, item: str, year: int) -> list[Reading]:
        """Readings of `item`; a cell whose unit is not the item's (a share count for an amount,
        a per-share figure for net income) is no reading of it. For a part of the business,
        only the part's own facts (`_part_read`)."""
        part = self.part()
        if part is not None:
            return self._part_read(part, item, year)
        found: list[Reading] = []
        unit = item_unit(item)
        own = self._docs()
        stores: list[tuple[Any, Sequence[str], bool]] = []
        if self.store is not None:
            stores.append((self.store, own, False))
            stores.append((self.store, self._later(year), True))
        if self.pages is not None:
            stores.append((self.pages, own, False))
        seen: set[tuple[str, int, float]] = set()
        for store, docs, later in stores:
            for doc in docs:
                try:
                    facts = store.lookup(doc, item, year)
                except Exception:  # noqa: BLE001 - a filing the store cannot read: no reading
                    continue
                main = self._main_of(store, doc)
                # a line printed only as its parts under a heading that names it: their sum
                facts = [*facts, *whole_facts(store, doc, item, year)]
                for fact in facts:
                    reading = fact_reading(fact, item, year, later, main)
                    if reading is None or (unit is not None and reading.unit != unit):
                        continue
                    mark = (reading.doc, reading.page, round(reading.value, 2))
                    if mark not in seen:
                        seen.add(mark)
                        found.append(reading)
                found += component_sums(store, doc, facts, item, year, later, main)
        return summed_lines(found, item)

    def _part_read(self, part: Any, item: str, year: int) -> list[Reading]:
        """Readings of `item` for the asked part: the facts of its member in the index's
        statement model (the tag with that member, the part's rows in the filing's tables),
        none when the member is unknown or the model holds no fact of it."""
        from finqa.lexicon.dimensions import dimensional_facts

        if self.store is None or part.member is None:
            return []
        unit = item_unit(item)
        try:
            facts = dimensional_facts(self.store, self._docs(), item, part, year)
        except Exception:  # noqa: BLE001 - a store that cannot read the filing: no reading
            return []
        found: list[Reading] = []
        seen: set[tuple[str, int, float]] = set()
        for fact in facts:
            reading = part_reading(fact, item, year)
            if reading is None or (unit is not None and reading.unit != unit):
                continue
            mark = (reading.doc, reading.page, round(reading.value, 2))
            if mark not in seen:
                seen.add(mark)
                found.append(reading)
        return found

    def _main_of(self, store: Any, doc: str) -> dict[str, int]:
        """The main printings a store's facts of `doc` are judged by: the index's, whose model
        holds the whole filing, for the evidence pages' own reading too (a few retrieved pages
        may hold only a subsidiary registrant's or a parent-only statement, which is then no
        main printing of the filing); the store's own when the index has none for the doc."""
        if store is self.pages and self.store is not None:
            whole = self._main_pages(self.store, doc)
            if whole:
                return whole
        return self._main_pages(store, doc)

    def _main_pages(self, store: Any, doc: str) -> dict[str, int]:
        """The page of each primary statement's main printing in `doc` (a parent-only or
        condensed consolidating balance sheet elsewhere is a part, not the statement)."""
        key = (id(store), doc)
        if key not in self._main:
            from finqa.lexicon.statements.main_printing import main_pages

            try:
                tables = store.tables(doc)
            except Exception:  # noqa: BLE001 - a store without tables (the evidence pages)
                tables = []
            self._main[key] = main_pages(tables)
        return self._main[key]

    def values(
        self, metric_id: str, year: int, formula: str | None = None, unit: str | None = None
    ) -> list[RouteValue]:
        """The metric's distinct values for `year`, one per consistent choice of readings;
        `formula`: by one of its variants' formulas (`lexicon.variants`, in `unit`) instead of
        the catalogue's own formula, its averages kept as the variant states them."""
        try:
            from finqa.lexicon import get_metric
            from finqa.lexicon.formula import evaluate_formula, evaluate_metric

            unit = unit or get_metric(metric_id).unit
        except Exception:  # noqa: BLE001 - an unknown metric: nothing to derive
            return []
        # the catalogue formula under the owners the question states (total equity, amounts
        # including noncontrolling interests: `lexicon.conventions`), else the formula given
        stated = self._owners_formula(metric_id) if formula is None else None
        items = (
            leaves(metric_id)
            if formula is None and stated is None
            else formula_leaves(formula or stated or "")
        )
        groups = [by_value(self.readings(i, year)) for i in items]
        if any(not g for g in groups):
            return []
        previous: dict[str, float] = {}
        for i in items:
            prior = by_value(self.readings(i, year - 1))
            if prior:
                previous[i] = prior[0][0].value
        out: list[RouteValue] = []
        averages = formula is None and "avg(" in (stated or _lex.metric_formula(metric_id) or "")
        for choice in itertools.islice(itertools.product(*groups), 27):
            if len({g[0].scale for g in choice if g[0].unit == "USD"}) > 1:
                continue  # lines read at different scales (a missed '(in millions)')
            signed = {i: g[0].value for i, g in zip(items, choice, strict=True)}
            readings = tuple(r for g in choice for r in one_per_route(g))
            variants = [("signed", signed, previous)]
            if any(printed_negative(g[0]) for g in choice):
                # statements print outflows and expenses in parentheses, while the catalogue's
                # formulas ('cfo - capex', 'cogs / avg(inventory)') take them as amounts
                variants.append(("magnitude", magnitudes(signed, choice), absolute(previous)))
            if averages:
                # 'average balance' by the catalogue; the year-end balance by another convention
                variants += [(f"{v}, year-end", cur, cur) for v, cur, _p in list(variants)]
            for variant, current, earlier in variants:
                try:
                    value = (
                        evaluate_metric(metric_id, current, earlier)
                        if formula is None and stated is None
                        else evaluate_formula(formula or stated or "", current, earlier)
                    )
                except Exception:  # noqa: BLE001 - a formula these readings cannot feed
                    continue
                same = [v for v in out if v.variant == variant and same_value(value, v.value)]
                if same:
                    merged = same[0]
                    out[out.index(merged)] = RouteValue(
                        metric_id,
                        year,
                        merged.value,
                        unit,
                        tuple(dict.fromkeys(merged.readings + readings)),
                        variant,
                    )
                    continue
                out.append(RouteValue(metric_id, year, value, unit, readings, variant))
        return out

    def _owners_formula(self, metric_id: str) -> str | None:
        """The metric's catalogue formula with the consolidated lines where the question states
        them ('return on total equity': consolidated net income over total equity); None when
        the question states no owners or the formula names no line they change."""
        from finqa.lexicon.conventions import Conventions, apply_conventions, stated_conventions

        owners = stated_conventions(self.question).owners if self.question else None
        own = _lex.metric_formula(metric_id)
        if owners is None or not own:
            return None
        stated = apply_conventions(own, Conventions(owners=owners))
        return stated if stated != own else None

    def check(
        self,
        metric_id: str,
        year: int,
        candidates: Sequence[Any],
        headline: Sequence[Any],
        rel_tol: float,
        *,
        may_contradict: bool = True,
        formula: str | None = None,
        unit: str | None = None,
        whole_balance: bool = False,
    ) -> RouteCheck:
        """The second route's outcome for the answer's figures: `candidates` are the figures
        that may state the metric (NumberChecks), `headline` those that must (its result).
        `may_contradict` is False when the question asks something the catalogue formula for
        one year is not (its own definition, an average over years). `formula`: the metric by
        the definition the question's words name (`QuestionAsk.variant`), in `unit`.
        `whole_balance`: a balance is asked with no side named."""
        values = self.values(metric_id, year, formula=formula, unit=unit)
        if not values:
            return RouteCheck(metric_id, year, "no_route", detail="no second route in the filing")
        strong = [v for v in values if v.strong]
        if whole_balance and any(side_classes(r.label) for v in values for r in v.readings):
            # a balance asked whole (no side named) that the filing prints on both sides, one
            # line captioned with its side ('Operating lease liabilities, current'): each line
            # is a part of it, never a contradiction of the sum
            may_contradict = False
        for nc in candidates:
            hit = next(
                (
                    v
                    for v in values
                    if match_statement_value(nc.quantity, v.as_statement_value(), rel_tol)
                ),
                None,
            )
            if hit is None:
                continue
            others = [
                v
                for v in strong
                if v is not hit
                and v.variant == hit.variant
                and not same_value(v.value, hit.value)
                and other_source(hit, v)
            ]
            if others:
                detail = f"the filing's own sources disagree: {hit.describe()}; but " + "; ".join(
                    o.describe() for o in others[:2]
                )
                return RouteCheck(metric_id, year, "routes_disagree", nc.text, detail, values)
            return RouteCheck(metric_id, year, "corroborated", nc.text, hit.describe(), values)
        loose = rel_tol * _LOOSE
        near = [
            (nc, v)
            for nc in candidates
            for v in values
            if match_statement_value(nc.quantity, v.as_statement_value(), loose)
        ]
        if near:
            nc, v = near[0]
            return RouteCheck(metric_id, year, "corroborated", nc.text, v.describe(), values)
        if may_contradict and headline and strong and one_value_each(strong):
            nc = headline[0]
            detail = f"the answer gives {nc.text.strip()}; the filing gives " + "; ".join(
                v.describe() for v in strong[:2]
            )
            return RouteCheck(metric_id, year, "contradicted", nc.text, detail, values)
        return RouteCheck(
            metric_id,
            year,
            "no_route",
            detail="no route of the filing gives or contradicts the figure",
            values=values,
        )


def _asked_part(question: str, store: Any, docs: Sequence[str]) -> Any:
    """The part of the business `question` asks, read against the members of the evidence
    filings in `store` (or by the question's words alone without one); None for the whole."""
    if not question:
        return None
    from finqa.lexicon.dimensions import asked_dimension, members_in, resolve_dimension

    if store is None:
        return asked_dimension(question)
    try:
        held = [d for d in docs if d in store.docs()]
        return resolve_dimension(question, members_in(store, held))
    except Exception:  # noqa: BLE001 - a store without members: the question's words alone
        return asked_dimension(question)
