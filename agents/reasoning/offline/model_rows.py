"""The statement model's facts as the offline reader's rows (the Book reads the model first).

`model_rows(statements, evidence)` reads, for each filing present in the evidence (and only
those), every table of the filing's statement model (`StatementStore.tables`) and turns each
line item into one `Row` with a value per fiscal year: a fiscal-year column, or a balance at a
fiscal year end. When the question asks for shorter periods (`periods`: one
`lexicon.AskedPeriod` per fiscal year, e.g. Q3 FY2025), a row holds instead, under each fiscal
year, the column that is the period asked for that year (the quarter, the year to date, the
balance at the period's end: `AskedPeriod.fits`). When a table has the same year twice (a
restated column beside the original), the restated figure is used.

Only the main printing of each primary statement (the page with the most line items of its
kind, and the pages either side of it: a statement over two pages) counts as the primary
statement; any other table of the same kind (selected financial data, an MD&A summary,
condensed consolidating, parent-only, guarantor statements) is read as a note.

A row cites the evidence source that holds the fact's page when there is one; a fact on a
page the retrieval did not return is cited as `M<n>` (the statement model, with the fact's
doc and page on the citation). Values are as filed (the model's base-unit value divided by
its scale), with the table's scale; a table whose header states no scale takes the scale
every other table of the filing agrees on, else it stays unknown (never guessed).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace

from finqa.agents.reasoning.offline.tables import Row
from finqa.agents.types import Evidence, StatementStore
from finqa.lexicon.asked_period import AskedPeriod
from finqa.lexicon.cash_basis import paid_item_of
from finqa.lexicon.label_keys import borrowed_caption
from finqa.lexicon.line_items import label_key
from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable
from finqa.lexicon.sides import nonoperating_rows
from finqa.lexicon.statements.attribution import EQUITY_OWNERS
from finqa.lexicon.statements.catalogue import worded_item
from finqa.lexicon.statements.cost_lines import COST_ITEM, table_costs
from finqa.lexicon.statements.main_printing import (
    PRIMARY_STATEMENTS,
    main_pages,
    on_main_printing,
)
from finqa.lexicon.statements.tax_identity import PRETAX_ITEM

__all__ = ["model_rows", "fiscal_year_of", "period_slot", "PRIMARY_STATEMENTS"]

# the statement model's kinds in the offline reader's names
_OFFLINE_NAME = {"cashflow": "cash_flow", "quarterly": None, "other": None}
_ORDER_BASE = -1_000_000  # model rows sort before every evidence row on rank ties


def fiscal_year_of(period: StatementPeriod) -> int | None:
    """The fiscal year a column stands for in a per-year row, or None (quarter, YTD, unknown)."""
    if period.fiscal_year is None:
        return None
    if period.instant:
        return period.fiscal_year if period.quarter is None else None
    if period.quarter is not None and period.months != 12:
        return None
    return period.fiscal_year if period.months in (None, 12) else None


Slot = Callable[[StatementPeriod], int | None]


def period_slot(periods: Sequence[AskedPeriod] | None) -> Slot:
    """The fiscal year under which a column's figure is read: by fiscal year when no period is
    asked, else the year whose asked period the column is (None: not a period asked)."""
    if periods is None:
        return fiscal_year_of

    def slot(period: StatementPeriod) -> int | None:
        fitting = [ask.fiscal_year for ask in periods if ask.fits(period)]
        # two spellings of one period ('first quarter of fiscal 2024 (three months ended
        # April 30, 2023)'), one read without the filer's calendar: the column's own fiscal
        # year (resolved by the company's year end) decides
        return period.fiscal_year if period.fiscal_year in fitting else next(iter(fitting), None)

    return slot


def model_rows(
    statements: StatementStore | None,
    evidence: Evidence,
    periods: Sequence[AskedPeriod] | None = None,
) -> list[Row]:
    """Rows of the statement model for the filings in `evidence` (empty without a store);
    `periods`: the periods asked, per fiscal year (None: fiscal years)."""
    if statements is None:
        return []
    slot = period_slot(periods)
    docs = list(dict.fromkeys(item.doc_id for item in evidence.items))
    known = set(statements.docs())
    sources: dict[tuple[str, int], tuple[str, str | None]] = {}
    for item in evidence.items:
        for n, page in enumerate(item.pages):
            chunk = item.chunk_ids[min(n, len(item.chunk_ids) - 1)] if item.chunk_ids else None
            sources.setdefault((item.doc_id, page), (item.source_id, chunk))
    cites = _Cites(sources)
    rows: list[Row] = []
    for doc in docs:
        if doc not in known:
            continue
        tables = statements.tables(doc)
        doc_scale = _agreed_scale(tables)
        main = main_pages(tables)
        printed = _Printed(tables)
        for table in tables:
            rows.extend(_table_rows(table, doc_scale, cites, len(rows), main, slot, printed))
    return rows


class _Printed:
    """The figures a filing prints in its tables, as read from the page (not the tags), by
    (page, period, magnitude): where a tagged fact's table row is printed, and how."""

    def __init__(self, tables: Sequence[StatementTable]) -> None:
        self.at: dict[tuple[int, str, float], StatementFact] = {}
        self.rows: dict[tuple[str, int], list[StatementFact]] = defaultdict(list)
        for table in tables:
            if table.source == "xbrl":
                continue
            for f in table.facts:
                if f.dimensions or not f.raw:
                    continue
                self.at.setdefault(_where(f), f)
                self.rows[(f.table_id, f.row)].append(f)

    def line(self, tagged: Sequence[StatementFact]) -> str | None:
        """The printed row of tagged facts: its caption and its cells as printed (parentheses,
        dashes, '$') from the first column through the last one holding a tagged figure, so
        the quote is one run of the page's text; None when the page's own reading has no row
        printing the first fact's figure on its page for its period."""
        found = [self.at.get(_where(f)) for f in tagged]
        first = found[0]
        if first is None:
            return None
        row = sorted(self.rows[(first.table_id, first.row)], key=lambda f: f.column)
        same = [
            f for f in found if f is not None and (f.table_id, f.row) == (first.table_id, first.row)
        ]
        last = max(f.column for f in same)
        cells = [f.raw for f in row if f.column <= last]
        return f"{first.label} {' '.join(cells)}"


def _where(fact: StatementFact) -> tuple[int, str, float]:
    return (fact.page, fact.period.key, round(abs(fact.value), 2))


class _Cites:
    """Evidence source of a (doc, page), else a statement-model id M1, M2, ... per page."""

    def __init__(self, sources: dict[tuple[str, int], tuple[str, str | None]]) -> None:
        self.sources = sources
        self.model: dict[tuple[str, int], str] = {}

    def __call__(self, doc: str, page: int) -> tuple[str, str | None]:
        found = self.sources.get((doc, page))
        if found is not None:
            return found
        sid = self.model.setdefault((doc, page), f"M{len(self.model) + 1}")
        return sid, None


def _agreed_scale(tables: Sequence[StatementTable]) -> float | None:
    scales = Counter(
        t.scale for t in tables if t.source != "xbrl" and t.unit == "USD" and t.scale != 1.0
    )
    return next(iter(scales)) if len(scales) == 1 else None


def _statement(table: StatementTable) -> str | None:
    """The offline name of a table's statement; 'comprehensive' for a statement of comprehensive
    income on its own (its 'Net income' line repeats the income statement's)."""
    key = label_key(table.title)
    combined = ("operationsand", "incomeand", "earningsand", "lossand")
    if "comprehensive" in key and not any(x in key for x in combined):
        return "comprehensive"
    return _OFFLINE_NAME.get(table.statement, table.statement)


def _table_rows(
    table: StatementTable,
    doc_scale: float | None,
    cites: _Cites,
    offset: int,
    main: dict[str, int],
    slot: Slot = fiscal_year_of,
    printed: _Printed | None = None,
) -> list[Row]:
    statement = _statement(table)
    # the main printing (`lexicon.statements.main_printing`) and the pages either side; any other table
    # of the same kind (summaries, condensed consolidating, guarantor) is not the main one
    primary = (
        table.statement in PRIMARY_STATEMENTS
        and statement != "comprehensive"
        and on_main_printing(table.statement, table.page, str(table.source), main)
    )
    by_row: dict[int, list[StatementFact]] = defaultdict(list)
    for fact in table.facts:
        by_row[fact.row].append(fact)
    costs = table_costs(table)  # costs of revenue by the statement's layout
    between = nonoperating_rows(table.facts) if table.statement == "income" else frozenset()
    out: list[Row] = []
    for n, (r, facts) in enumerate(sorted(by_row.items())):
        row = _row(facts, table, statement, primary, doc_scale, cites, offset + n, slot, printed)
        if row is not None and r in costs:
            row = replace(row, item=COST_ITEM)
        if row is not None and r in between:
            row = replace(row, nonoperating=True)
        if row is not None:
            out.append(row)
    return out


def _row(
    facts: list[StatementFact],
    table: StatementTable,
    statement: str | None,
    primary: bool,
    doc_scale: float | None,
    cites: _Cites,
    order: int,
    slot: Slot = fiscal_year_of,
    printed: _Printed | None = None,
) -> Row | None:
    chosen: dict[int, StatementFact] = {}
    for fact in sorted(facts, key=lambda f: f.column):
        if fact.dimensions:
            return None  # a segment's or a member's figure, never the line item's total
        year = slot(fact.period)
        if year is None:
            continue
        if year not in chosen or (fact.period.restated and not chosen[year].period.restated):
            chosen[year] = fact
    if not chosen:
        return None
    first = next(iter(chosen.values()))
    if borrowed_caption(first.label, tuple(f.value / (f.scale or 1.0) for f in facts)):
        return None  # a caption read with its own figures: this row's are another's, uncaptioned
    years = tuple(chosen)
    unit = first.unit
    if unit == "USD" and first.scale == 1.0 and first.source != "xbrl":
        scale: float | None = doc_scale  # no scale in the header: the filing's, or unknown
    else:
        scale = first.scale
    divisor = first.scale or 1.0
    values = tuple(chosen[y].value / divisor for y in years)
    page = first.page
    source_id, chunk_id = cites(first.doc_id, page)
    cells = " ".join(chosen[y].raw or _fmt(chosen[y].value / divisor) for y in years)
    line = f"{first.label} {cells}"
    tagged = first.source == "xbrl"
    if tagged:  # quoted as the page prints the row; the tag goes beside it (`concept`)
        shown = printed.line([chosen[y] for y in years]) if printed is not None else None
        # else the tag's own displayed text, one cell (cells of a row are not contiguous text)
        line = shown or first.raw or _fmt(first.value / divisor)
    return Row(
        label=first.label,
        key=label_key(first.label),
        values=values,
        years=years,
        scale=scale,
        statement=statement,
        source_id=source_id,
        doc_id=first.doc_id,
        page=page,
        chunk_id=chunk_id,
        line=line,
        order=_ORDER_BASE + order,
        primary=primary,
        per_share=unit == "USD/share",
        model=True,
        table_id=table.table_id,
        negatives=() if tagged else tuple(chosen[y].negative for y in years),
        # what the tag says it is; a text row whose caption the catalogue does not list, what
        # its words say ('Operating earnings', 'Cash flow from operations': caption_words)
        # (a payment read under its heading, 'Cash paid during the year for:' / 'Income
        # taxes', is the payment item the model gave it: its caption alone names the expense)
        # (an equity line the model's layout typed by its owners, the company's or the total
        # with noncontrolling interests, is the item the layout says: `statements.attribution`)
        # (the pre-tax income the model names, by its caption or as the row the tax identity
        # closes from, is that item: `statements.tax_identity`)
        item=first.item
        if tagged
        or paid_item_of(first.item)
        or first.item in EQUITY_OWNERS
        or first.item == PRETAX_ITEM
        else worded_item(first.label),
        concept=(first.concept or first.label) if tagged else None,
        ends=tuple(
            (chosen[y].period.end_date, chosen[y].period.instant)
            if chosen[y].period.months in (0, 12) or chosen[y].period.instant
            else (None, False)  # a quarter or year to date is named by the period asked
            for y in years
        ),
    )


def _fmt(v: float) -> str:
    text = f"{abs(v):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if v < 0 else text
