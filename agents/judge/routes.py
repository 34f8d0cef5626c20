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

A question about one part of the business (a segment, region or product line: the asked
dimension, `lexicon.dimensions`) is routed only to that member's facts (its tag, its rows in
the filing's tables), never to the consolidated line: the company's total is no route to a
part's figure, and with no fact of the member the figure has no route (it is not contradicted).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from finqa.agents.judge import _lex
from finqa.agents.judge.component_routes import contested_totals, whole_facts
from finqa.agents.judge.statement_figures import StatementValue, match_statement_value
from finqa.agents.types import Evidence, StatementFact, StatementStore
from finqa.lexicon.metrics import metric_key
from finqa.lexicon.statements.main_printing import on_main_printing
from finqa.lexicon.statements.signs import item_nature

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

RouteKind = Literal["xbrl", "statement", "components", "other_table", "later_filing"]
RouteOutcome = Literal["corroborated", "routes_disagree", "contradicted", "no_route"]

_PRIMARY = frozenset({"income", "balance", "cashflow"})
_SAME = 0.005  # two readings within 0.5% are one figure read at two roundings
_MAX_GROUPS = 3  # distinct values kept per line item
_MAX_LATER = 2  # later filings of the company read for a comparative column
# a figure contradicts the routes only beyond this multiple of the judge's rounding tolerance
# (matching is 0.2x of it: within 1% of every route's value a figure is not called wrong)
_LOOSE = 10.0


@dataclass(frozen=True)
class Reading:
    """One line item's value for one fiscal year, as one source of the statement model has it."""

    item: str
    year: int
    value: float  # base units, signed
    unit: str
    route: RouteKind
    doc: str
    page: int
    label: str
    raw: str = ""
    statement: str = ""
    scale: float = 1.0  # as filed ('(in millions)': 1e6)

    @property
    def strong(self) -> bool:
        """A source that may contradict a figure: a tag, a primary statement, a later filing."""
        return self.route != "other_table"

    def describe(self) -> str:
        shown = self.raw or f"{self.value:,.6g}"
        return f"{self.label} FY{self.year} = {shown} ({self.doc} p.{self.page}, {self.route})"


@dataclass(frozen=True)
class RouteValue:
    """The metric's value by one consistent choice of readings (one per line item)."""

    metric: str
    year: int
    value: float
    unit: str
    readings: tuple[Reading, ...]
    variant: str = "signed"  # 'magnitude': cash-flow outflows taken as amounts

    @property
    def routes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.route for r in self.readings))

    @property
    def strong(self) -> bool:
        """Every line item is read from a source that may contradict (not a note alone)."""
        items = {r.item for r in self.readings}
        return all(any(r.strong for r in self.readings if r.item == i) for i in items)

    @property
    def pages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f"{r.doc} p.{r.page}" for r in self.readings))

    def as_statement_value(self) -> StatementValue:
        return StatementValue(
            self.metric,
            self.value,
            self.unit,
            self.year,
            tuple(r.describe() for r in self.readings),
        )

    def describe(self) -> str:
        return (
            f"{self.metric.replace('_', ' ')} FY{self.year} = {_shown(self.value, self.unit)} by "
            f"{'+'.join(self.routes)} from " + "; ".join(r.describe() for r in self.readings)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "unit": self.unit,
            "routes": list(self.routes),
            "pages": list(self.pages),
            "readings": [r.describe() for r in self.readings],
        }


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
        unit = _item_unit(item)
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
                main = self._main_pages(store, doc)
                # a line printed only as its parts under a heading that names it: their sum
                facts = [*facts, *whole_facts(store, doc, item, year)]
                for fact in facts:
                    reading = _reading(fact, item, year, later, main)
                    if reading is None or (unit is not None and reading.unit != unit):
                        continue
                    mark = (reading.doc, reading.page, round(reading.value, 2))
                    if mark not in seen:
                        seen.add(mark)
                        found.append(reading)
                found += _component_sums(store, doc, facts, item, year, later, main)
        return found

    def _part_read(self, part: Any, item: str, year: int) -> list[Reading]:
        """Readings of `item` for the asked part: the facts of its member in the index's
        statement model (the tag with that member, the part's rows in the filing's tables),
        none when the member is unknown or the model holds no fact of it."""
        from finqa.lexicon.dimensions import dimensional_facts

        if self.store is None or part.member is None:
            return []
        unit = _item_unit(item)
        try:
            facts = dimensional_facts(self.store, self._docs(), item, part, year)
        except Exception:  # noqa: BLE001 - a store that cannot read the filing: no reading
            return []
        found: list[Reading] = []
        seen: set[tuple[str, int, float]] = set()
        for fact in facts:
            reading = _part_reading(fact, item, year)
            if reading is None or (unit is not None and reading.unit != unit):
                continue
            mark = (reading.doc, reading.page, round(reading.value, 2))
            if mark not in seen:
                seen.add(mark)
                found.append(reading)
        return found

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
        items = leaves(metric_id) if formula is None else formula_leaves(formula)
        groups = [_groups(self.readings(i, year)) for i in items]
        if any(not g for g in groups):
            return []
        previous: dict[str, float] = {}
        for i in items:
            prior = _groups(self.readings(i, year - 1))
            if prior:
                previous[i] = prior[0][0].value
        out: list[RouteValue] = []
        averages = formula is None and "avg(" in (_lex.metric_formula(metric_id) or "")
        for choice in itertools.islice(itertools.product(*groups), 27):
            if len({g[0].scale for g in choice if g[0].unit == "USD"}) > 1:
                continue  # lines read at different scales (a missed '(in millions)')
            signed = {i: g[0].value for i, g in zip(items, choice, strict=True)}
            readings = tuple(r for g in choice for r in _best(g))
            variants = [("signed", signed, previous)]
            if any(_printed_negative(g[0]) for g in choice):
                # statements print outflows and expenses in parentheses, while the catalogue's
                # formulas ('cfo - capex', 'cogs / avg(inventory)') take them as amounts
                variants.append(("magnitude", _magnitudes(signed, choice), _abs(previous)))
            if averages:
                # 'average balance' by the catalogue; the year-end balance by another convention
                variants += [(f"{v}, year-end", cur, cur) for v, cur, _p in list(variants)]
            for variant, current, earlier in variants:
                try:
                    value = (
                        evaluate_metric(metric_id, current, earlier)
                        if formula is None
                        else evaluate_formula(formula, current, earlier)
                    )
                except Exception:  # noqa: BLE001 - a formula these readings cannot feed
                    continue
                same = [v for v in out if v.variant == variant and _close(value, v.value)]
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

    def check(
        self,
        metric_id: str,
        year: int,
        candidates: Sequence[Any],
        headline: Sequence[Any],
        rel_tol: float,
        *,
        may_contradict: bool = True,
    ) -> RouteCheck:
        """The second route's outcome for the answer's figures: `candidates` are the figures
        that may state the metric (NumberChecks), `headline` those that must (its result).
        `may_contradict` is False when the question asks something the catalogue formula for
        one year is not (its own definition, an average over years)."""
        values = self.values(metric_id, year)
        if not values:
            return RouteCheck(metric_id, year, "no_route", detail="no second route in the filing")
        strong = [v for v in values if v.strong]
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
                and not _close(v.value, hit.value)
                and _other_source(hit, v)
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
        if may_contradict and headline and strong and _one_value_each(strong):
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


def _reading(
    fact: StatementFact, item: str, year: int, later: bool, main: dict[str, int] | None = None
) -> Reading | None:
    """A fact as a reading of the total: tags with a dimension, segment and quarterly tables
    and quarter columns are parts or other periods, not the line item's year; a primary
    statement's table away from its main printing (`main`: parent-only, condensed
    consolidating, a summary) is another table, which corroborates but never contradicts."""
    if fact.dimensions or fact.statement in ("segment", "quarterly"):
        return None
    if not _period_type_fits(fact, item):
        return None
    months = fact.period.months
    if fact.period.quarter is not None or (months not in (None, 0, 12) and not fact.period.instant):
        return None
    route: RouteKind
    if later:
        route = "later_filing"
    elif fact.source == "xbrl":
        route = "xbrl"
    elif fact.statement in _PRIMARY and on_main_printing(
        str(fact.statement), fact.page, str(fact.source), main or {}
    ):
        route = "statement"
    else:
        route = "other_table"
    return Reading(
        item=item,
        year=year,
        value=float(fact.value),
        unit=str(fact.unit),
        route=route,
        doc=fact.doc_id,
        page=fact.page,
        label=fact.label,
        raw=fact.raw,
        statement=str(fact.statement),
        scale=float(fact.scale or 1.0),
    )


def _component_sums(
    store: Any,
    doc: str,
    facts: Sequence[StatementFact],
    item: str,
    year: int,
    later: bool,
    main: dict[str, int],
) -> list[Reading]:
    """The sum of a printed total's parts where it is another figure than the total (beyond
    the printed rounding): a reading of its own (`components`) that contests the total."""
    out: list[Reading] = []
    for fact, value, lines in contested_totals(store, doc, facts):
        total = _reading(fact, item, year, later, main)
        if total is not None and total.strong:
            raw = f"sum of components {lines}"
            out.append(dataclasses.replace(total, value=value, route="components", raw=raw))
    return out


def _part_reading(fact: StatementFact, item: str, year: int) -> Reading | None:
    """A fact of the asked member as a reading of the part's line item for the year: the tag
    of the member may contradict; a table's row of the part corroborates only (a text table's
    part may be a narrower or broader breakdown than the tag's)."""
    if not _period_type_fits(fact, item):
        return None
    months = fact.period.months
    if fact.period.quarter is not None or (months not in (None, 0, 12) and not fact.period.instant):
        return None
    return Reading(
        item=item,
        year=year,
        value=float(fact.value),
        unit=str(fact.unit),
        route="xbrl" if fact.source == "xbrl" else "other_table",
        doc=fact.doc_id,
        page=fact.page,
        label=fact.label,
        raw=fact.raw,
        statement=str(fact.statement),
        scale=float(fact.scale or 1.0),
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


def _period_type_fits(fact: StatementFact, item: str) -> bool:
    """A balance (an instant) is not read from a flow statement (the cash-flow line
    'Merchandise inventories (194)' is the year's change, not the year-end inventory, whatever
    date heads its column; only the cash balance closes a cash-flow statement), and a flow (a
    duration) is not read from the balance sheet."""
    nature = item_nature(item)
    if nature is None:
        return True
    if nature.period_type == "instant":
        if fact.statement == "cashflow":  # its lines of balance items are their changes;
            return item.startswith("cash") and fact.period.instant  # only cash itself closes it
        return fact.period.instant or fact.statement != "income"
    if nature.period_type == "duration":
        return fact.statement != "balance" and not fact.period.instant
    return True


def _item_unit(item: str) -> str | None:
    try:
        from finqa.lexicon import get_metric

        return str(get_metric(item).unit)
    except Exception:  # noqa: BLE001 - a label, not a catalogue id: any unit
        return None


def _printed_negative(r: Reading) -> bool:
    """A negative figure read from a printed table: its sign may be the layout's, not the item's."""
    return r.value < 0 and r.route != "xbrl"


def _magnitudes(signed: dict[str, float], choice: Sequence[Sequence[Reading]]) -> dict[str, float]:
    return {
        item: abs(v) if _printed_negative(g[0]) else v
        for (item, v), g in zip(signed.items(), choice, strict=True)
    }


def _abs(values: dict[str, float]) -> dict[str, float]:
    return {k: abs(v) for k, v in values.items()}


def _other_source(hit: RouteValue, other: RouteValue) -> bool:
    """Does `other` differ from `hit` by a source of its own? Two lines of one table that the
    catalogue both maps to an item ('Property, plant and equipment' and its net line) are two
    lines, not two routes to one fact: only a line item read from another table, page, tag or
    filing can contest the figure."""
    for item in {r.item for r in other.readings}:
        mine = [r for r in hit.readings if r.item == item]
        theirs = [r for r in other.readings if r.item == item]
        if {round(r.value, 2) for r in mine} == {round(r.value, 2) for r in theirs}:
            continue
        if {_where(r) for r in mine} & {_where(r) for r in theirs}:
            continue
        if any(_contests(a, b) for a in mine for b in theirs):
            return True
    return False


def _contests(a: Reading, b: Reading) -> bool:
    """Is `b` another source of the same fact as `a` with another figure? The same fact is the
    same line: a tag, or a line of the same caption elsewhere ('Accounts payable and accrued
    liabilities' is another line than 'Accounts payable', 'Property, plant and equipment'
    another than its net line). The same printed figure at another scale ('411' in a table
    whose '(in millions)' was missed beside '$411 million') is the same figure."""
    if _close(abs(a.value / (a.scale or 1.0)), abs(b.value / (b.scale or 1.0))):
        return False
    if _close(abs(a.value), abs(b.value)):
        return False
    if "xbrl" in (a.route, b.route):
        return True
    return _caption(a.label) == _caption(b.label)


def _caption(label: str) -> str:
    words = [w for w in metric_key(label).split() if w != "total"]
    return " ".join(words)


def _where(r: Reading) -> tuple[str, str, int]:
    return (r.route, r.doc, r.page)


def _one_value_each(values: Sequence[RouteValue]) -> bool:
    """Every sign variant of the routes gives one value (the routes agree among themselves)."""
    by: dict[str, list[float]] = {}
    for v in values:
        by.setdefault(v.variant, []).append(v.value)
    return all(all(_close(x, xs[0]) for x in xs) for xs in by.values())


def _shown(value: float, unit: str) -> str:
    if unit == "USD" and abs(value) >= 1e6:
        return f"${value / 1e6:,.1f} million"
    return f"{value:,.4g}" + ("%" if unit == "%" else "")


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= _SAME * max(abs(a), abs(b)) + 1e-9


def _groups(readings: Iterable[Reading]) -> list[list[Reading]]:
    """Readings grouped by value (within rounding): strong sources' groups first, then in
    source order (a tag before a table, a primary statement before a note)."""
    order = {"xbrl": 0, "statement": 1, "components": 2, "later_filing": 3, "other_table": 4}
    groups: list[list[Reading]] = []
    for r in sorted(readings, key=lambda r: order[r.route]):
        for g in groups:
            if _close(g[0].value, r.value):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups[:_MAX_GROUPS]


def _best(group: Sequence[Reading]) -> tuple[Reading, ...]:
    """The readings of one value worth showing: one per route."""
    out: dict[str, Reading] = {}
    for r in group:
        out.setdefault(r.route, r)
    return tuple(out.values())
