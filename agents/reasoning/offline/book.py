"""A `Book`: every statement row read for one Evidence, and the best row for (line item, year).

The filing's statement model (`StatementStore`, built once at ingest) is read for the filings
present in the evidence only (`model_rows`) and preferred at equal fit; the tables the statement
text reader reads in the evidence text (`tables.read_tables`, the one reader of figures) are the
fall-back when the model has no fitting row for the line item and year (or a better-fitting one
on the evidence's pages).
A filing's fiscal year and form come from the index's document metadata (carried on the
evidence items), else from `lexicon.identity` (document names of a known shape).

A question about shorter periods than fiscal years (a quarter, a year to date, a balance at a
quarter's end) reads the Book through `periods` (one `lexicon.AskedPeriod` per fiscal year):
each row then holds, under a fiscal year, the figure of the period asked in that year, read
from the statement model only (its columns know their span and end date; the tables parsed
from the evidence text know years only, so they are left out). An empty `periods` (the periods
cannot be told apart per fiscal year) reads nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from finqa.agents.reasoning.offline.model_rows import model_rows
from finqa.agents.reasoning.offline.tables import Row, Table, classify_statement, read_tables
from finqa.agents.types import Evidence, EvidenceItem, StatementStore
from finqa.lexicon.asked_period import AskedPeriod
from finqa.lexicon.cash_basis import paid_item_of
from finqa.lexicon.line_items import LineItem, get_item
from finqa.lexicon.operations_scope import continuing_variant
from finqa.lexicon.qualifiers import caption_keys
from finqa.lexicon.statements.attribution import is_parent_caption
from finqa.lexicon.statements.catalogue import same_balance

__all__ = ["Book", "Fact", "doc_identity", "MODEL_PREFERENCE", "TAG_PREFERENCE"]

_CONTENT_HINTS = (
    (
        "balance",
        ("totalassets", "totalcurrentliabilities", "totalliabilitiesand", "totalcurrentassets"),
    ),
    (
        "cash_flow",
        (
            "netcashprovidedby",
            "netcashusedin",
            "netcashusedfor",
            "operatingactivities",
            "investingactivities",
            "financingactivities",
        ),
    ),
    (
        "income",
        (
            "operatingincome",
            "grossprofit",
            "dilutedearningspershare",
            "incomebeforeincometaxes",
            "earningsbeforeincometaxes",
            "netincomeattributableto",
            "netearningsattributableto",
            "earningspersharebasic",
            "earningspersharediluted",
            "costofsales",
            "costofgoodssold",
        ),
    ),
)


# at equal fit (same label match, statement and primary standing) the statement model's row wins
# over the row parsed from the evidence text; a better-fitting evidence row still wins
MODEL_PREFERENCE = 3.0
TOP_LINE = "revenue"  # the line item read as the income statement's top line when uncaptioned
ATTRIBUTED = "net_income"  # read after noncontrolling interests where a statement shows both
# row keys (letters only): a noncontrolling interests' line
_NCI = re.compile(r"noncontrolling|minorityinterest")
# the rows that close a balance sheet's current side
_CURRENT_TOTALS = ("totalcurrentliabilities", "totalcurrentassets")
# a total's lines are printed within these many rows above it; figures agree to a unit
_TOTAL_REACH = 4
_ROUNDING = 1.0
_PER_SHARE_KEY = re.compile(r"pershare|pershr|eps")
# a row the filing tags as the line item (inline XBRL, no dimension) fits like the item's first
# caption, and wins a tie with a caption read from the text: the tag states concept and period
TAG_PREFERENCE = 1.0
# the caption the question spells for the item ('net sales') over the item's other captions
# printed in the same statement ('Total revenue'): more than any two captions' ranks differ,
# less than a row's statement or primary standing
SPELLED_PREFERENCE = 30.0

_PER_SHARE_OK = frozenset(
    {"eps_basic", "eps_diluted", "dividends_per_share", "book_value_per_share"}
)


def doc_identity(
    doc_id: str, metadata: Mapping[str, Any] | None = None
) -> tuple[int | None, str | None]:
    """(fiscal year, doc type) of a filing: the index's document metadata when the evidence
    carries it (`fiscal_year`, `doc_type`), else `lexicon.identity` from a known name shape."""
    meta = metadata or {}
    fy, doc_type = meta.get("fiscal_year"), meta.get("doc_type")
    if isinstance(fy, int) and fy > 0:
        return fy, str(doc_type).lower() if doc_type else None
    from finqa.lexicon.identity import identify

    ident = identify(file_name=doc_id)
    return ident.fiscal_year, (ident.doc_type or "").lower() or None


@dataclass(frozen=True)
class Fact:
    item: LineItem
    year: int
    row: Row
    value: float  # as written (signed)
    # read in place of a printed total that holds a line the question leaves out: the total's
    # caption and the left-out line's ('Total long-term debt', 'Redeemable preferred stock')
    instead_of: tuple[str, str] | None = None
    # one of a balance's two lines, one on each side of the balance sheet, summed where the
    # question names no side (`Book.other_side`)
    both_sides: bool = False


def _same_table(row: Row, table_id: str | None) -> bool:
    """A statement-model row of the table `table_id`: two rows of one table under one caption
    are two lines (Activision Blizzard's 'Software royalties, ...' under the cost of each of
    its two revenues), while one caption in two readings or printings is one line."""
    return row.model and table_id is not None and row.table_id == table_id


def _tagged(row: Row) -> bool:
    """A row of the filing's inline XBRL facts (not the text's reading of the same line)."""
    return (row.table_id or "").startswith("xbrl-")


class Book:
    """Statement rows for an Evidence: the statement model's rows of the evidence's filings
    first (`statements`; None reads the evidence text only), then the rows parsed from the
    evidence text, with per-document header context shared across chunks."""

    def __init__(
        self,
        evidence: Evidence,
        statements: StatementStore | None = None,
        periods: Sequence[AskedPeriod] | None = None,
        continuing: bool = False,
        left_out: Sequence[str] = (),
        sides_named: bool = True,
        spelled: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.periods = tuple(periods) if periods is not None else None
        self.continuing = continuing  # a continuing-operations figure is asked
        # the lines the question leaves out of what it asks, by their words' keys
        self.left_out = tuple(k for k in (caption_keys(p) for p in left_out) if k)
        # the question names a side of the balance sheet (else a balance printed under one
        # caption on both sides is the two lines: `other_side`)
        self.sides_named = sides_named
        # the caption the question spells for an item (`QuestionAsk.spelled`)
        self.spelled = dict(spelled)
        self.model_rows: list[Row] = model_rows(statements, evidence, self.periods)
        self.rows: list[Row] = []
        self._identity = {
            item.doc_id: doc_identity(item.doc_id, item.metadata) for item in evidence.items
        }
        if self.periods is not None and not (self.periods and all(p.annual for p in self.periods)):
            self.text_rows: list[Row] = []  # per-year text tables cannot tell a quarter apart
            self.rows = list(self.model_rows)
            return
        first: dict[int, Table] = {}
        for n, item in enumerate(evidence.items):
            first[n] = self._parse(item, n, (), None, None)
        # header context learnt per (doc, page) and per (doc, statement)
        page_ctx: dict[tuple[str, int], Table] = {}
        stmt_ctx: dict[tuple[str, str], Table] = {}
        orders: Counter[tuple[str, bool]] = Counter()
        scales: dict[str, Counter[float]] = {}
        for n, item in enumerate(evidence.items):
            t = first[n]
            if t.years:
                page_ctx.setdefault((item.doc_id, item.pages[0]), t)
                if t.statement:
                    stmt_ctx.setdefault((item.doc_id, t.statement), t)
                if len(t.years) > 1:
                    orders[(item.doc_id, t.years[0] > t.years[-1])] += 1
            if t.scale and any(r.primary for r in t.rows):
                scales.setdefault(item.doc_id, Counter())[t.scale] += 1
        for n, item in enumerate(evidence.items):
            t = first[n]
            statement = t.statement or self._content_statement(t)
            if t.years and t.rows:
                rows = t.rows
                if t.scale is None and len(scales.get(item.doc_id, ())) == 1:
                    doc_scale = next(iter(scales[item.doc_id]))  # every titled statement agrees
                    rows = [replace(r, scale=doc_scale) if r.scale is None else r for r in rows]
                self.rows.extend(self._with_statement(rows, statement))
                continue
            ctx = page_ctx.get((item.doc_id, item.pages[0]))
            if ctx is None and statement:
                ctx = stmt_ctx.get((item.doc_id, statement))
            scale = t.scale or (ctx.scale if ctx else None)
            if scale is None and len(scales.get(item.doc_id, ())) == 1:
                scale = next(iter(scales[item.doc_id]))  # every titled statement agrees
            width = (
                max(t.value_counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
                if t.value_counts
                else 0
            )
            years: tuple[int, ...] = ctx.years if ctx and len(ctx.years) == width else ()
            if not years:
                years = self._fallback_years(item.doc_id, statement, orders, width)
            if not years:
                continue
            t2 = self._parse(item, n, years, scale, statement)
            self.rows.extend(self._with_statement(t2.rows, statement))
        modelled = {r.doc_id for r in self.model_rows}
        # a filing the statement model read: its reader saw whole pages, so a column header the
        # text reader could not find is not guessed from the filing's year (never a guess where
        # the model reported the statement as unreadable)
        rows = [r for r in self.rows if not (r.header_inferred and r.doc_id in modelled)]
        self.text_rows = self._demote_later_printings(rows)
        self.rows = self.model_rows + self.text_rows

    def _demote_later_printings(self, rows: list[Row]) -> list[Row]:
        """Text rows of a primary statement printed after the filing's main one (per the
        statement model: condensed consolidating, parent-only) are read as notes."""
        main: dict[tuple[str, str], int] = {}
        for r in self.model_rows:
            if r.primary and r.statement:
                key = (r.doc_id, r.statement)
                main[key] = min(main.get(key, r.page), r.page)
        if not main:
            return rows
        out = []
        for r in rows:
            start = main.get((r.doc_id, r.statement or ""))
            if r.primary and start is not None and r.page > start + 1:
                r = replace(r, primary=False)
            out.append(r)
        return out

    @staticmethod
    def _parse(
        item: EvidenceItem,
        n: int,
        years: tuple[int, ...],
        scale: float | None,
        statement: str | None,
    ) -> Table:
        return read_tables(
            item.text,
            source_id=item.source_id,
            doc_id=item.doc_id,
            page=item.pages[0] if item.pages else 0,
            chunk_id=item.chunk_ids[0] if item.chunk_ids else None,
            section=item.section,
            order=n,
            default_years=years,
            default_scale=scale,
            default_statement=statement,
        )

    @staticmethod
    def _content_statement(t: Table) -> str | None:
        keys = " ".join(t.keys)
        for name, hints in _CONTENT_HINTS:
            if any(h in keys for h in hints):
                return name
        return None

    @staticmethod
    def _with_statement(rows: list[Row], statement: str | None) -> list[Row]:
        if statement is None:
            return rows
        out = []
        for r in rows:
            if r.statement is None:
                r = replace(r, statement=statement)
            out.append(r)
        return out

    def _fallback_years(
        self, doc_id: str, statement: str | None, orders: Counter[tuple[str, bool]], width: int
    ) -> tuple[int, ...]:
        """Columns of a 10-K statement chunk without its header: FY, FY-1, ... (the filer's order)."""
        fy, doc_type = self._identity.get(doc_id) or doc_identity(doc_id)
        if fy is None or doc_type not in ("10k", "10k_annualreport") or statement is None:
            return ()
        n = width if width in (2, 3) else 0
        if n == 0 or (statement == "balance" and n != 2):
            return ()
        years = tuple(fy - i for i in range(n))
        descending = orders[(doc_id, True)] >= orders[(doc_id, False)]
        return years if descending else tuple(reversed(years))

    # ------------------------------------------------------------------ lookup
    def find(
        self,
        item_id: str,
        year: int,
        prefer: Row | None = None,
        named: Sequence[str] = (),
    ) -> Fact | None:
        """The best row for a line item and fiscal year, or None (never a guess across items).

        `prefer`: the row already used for this item in another year — reused when it has the
        year, so one metric never mixes a statement with an unrelated table.
        `named`: the statements the question names (`QuestionAsk.statements`); an item of one
        of them is read from the financial statements' own rows only (that statement's first,
        as always; a flow printed on the other flow statement, restructuring charges added back
        in the cash flow statement, is the same figure), never from a note's or MD&A's table
        (the income-tax note's 'Deferred revenue' line is a deferred tax asset), when the
        evidence holds the named statement; without it, the other tables are read as before.
        """
        li = get_item(item_id)
        if li is None:
            return None
        pool: Sequence[Row] = self.rows
        if li.statement in named and any(
            r.primary and r.statement == li.statement for r in self.rows
        ):
            pool = [r for r in self.rows if r.primary]
            if prefer is not None and not prefer.primary:
                prefer = None
        if prefer is not None:
            v = prefer.value_for(year)
            if v is not None:
                return Fact(li, year, prefer, float(v))
        found = self._best(li, year, pool, self.spelled.get(li.id))
        if found is None and li.id == TOP_LINE:
            found = self._top_line(li, year)
        if found is not None and li.id == ATTRIBUTED:
            found = self._attributable(found) or found
        if found is not None and self.continuing:
            found = self._continuing(found) or found
        if found is not None and self.left_out:
            found = self._without_left_out(found) or found
        return found

    def _beside(self, found: Fact) -> list[Row]:
        """The rows printed with the one found: the same statement of the same filing, on its
        page or the next, from the same reader, amounts with a figure for its year."""
        top, year = found.row, found.year
        return [
            r
            for r in self.rows
            if r.doc_id == top.doc_id
            and r.statement == top.statement
            and r.model == top.model
            and not r.per_share
            and abs(r.page - top.page) <= 1
            and r.value_for(year) is not None
        ]

    def _continuing(self, found: Fact) -> Fact | None:
        """The line for continuing operations printed beside the total line found, in the same
        statement of the same filing ('Net cash provided by continuing operating activities'
        for 'Net cash provided by operating activities'); None when there is none."""
        top, year = found.row, found.year
        pool = self._beside(found)
        variant = continuing_variant(top.label, [r.label for r in pool])
        for row in pool:
            if variant is not None and row.label == variant:
                return Fact(found.item, year, row, float(row.value_for(year) or 0.0))
        return None

    def _without_left_out(self, found: Fact) -> Fact | None:
        """The line a total printed below it holds with a line the question leaves out: with
        'Long-term debt 8,639' / 'Redeemable preferred stock at redemption value 5' / 'Total
        long-term debt 8,644' printed and the preferred stock left out, the first line, read as
        the item too. Both lines are printed within a few rows above the total, in its table, and
        add up to it in every year the three print; None when the total holds no left-out line
        (the total found stands)."""
        li, top, year = found.item, found.row, found.year
        above = [
            r
            for r in self._beside(found)
            if r.table_id == top.table_id and top.order - _TOTAL_REACH <= r.order < top.order
        ]
        exact, prefixes, excludes = li.keys()
        off = li.off_statement_keys()
        for left in (r for r in above if self._left_out_line(r)):
            for row in above:
                if row is left or self._left_out_line(row):
                    continue
                fits = _row_score(row, li.statement, exact, prefixes, excludes, off) is not None
                if not (fits or row.item == li.id):
                    continue
                years = [
                    y
                    for y in top.years
                    if None not in (top.value_for(y), row.value_for(y), left.value_for(y))
                ]
                if year in years and all(
                    abs(
                        float(row.value_for(y) or 0.0)
                        + float(left.value_for(y) or 0.0)
                        - float(top.value_for(y) or 0.0)
                    )
                    <= _ROUNDING
                    for y in years
                ):
                    value = float(row.value_for(year) or 0.0)
                    return Fact(li, year, row, value, instead_of=(top.label, left.label))
        return None

    def _left_out_line(self, row: Row) -> bool:
        """The row's caption names a line the question leaves out (every key of its words)."""
        return any(all(k in row.key for k in keys) for keys in self.left_out)

    def other_side(self, found: Fact) -> Fact | None:
        """The same balance's line on the other side of the balance sheet, where the question
        names no side: the main balance sheet's row under the found row's caption, or under it
        with a side named ('Current portion of operating lease liabilities' beside 'Operating
        lease liabilities': `lexicon.components.side_free`), on the other side of its 'Total
        current ...' row ('Deferred revenue 4,733' among the current liabilities, 'Deferred
        revenue 145' among the long-term ones); None when there is none or the question names
        a side."""
        top, year = found.row, found.year
        if self.sides_named or not top.model or top.statement != "balance" or not top.primary:
            return None
        table = [
            r for r in self.model_rows if r.table_id == top.table_id and r.doc_id == top.doc_id
        ]
        closes = [r.order for r in table if r.key.startswith(_CURRENT_TOTALS)]
        for twin in table:
            value = twin.value_for(year)
            if twin is top or value is None:
                continue
            if twin.key != top.key and not same_balance(twin.label, top.label):
                continue
            low, high = sorted((twin.order, top.order))
            if any(low < c < high for c in closes):
                return Fact(found.item, year, twin, float(value), both_sides=True)
        return None

    def _attributable(self, found: Fact) -> Fact | None:
        """Net income attributable to the company where the statement of the consolidated line
        found deducts noncontrolling interests after it ('Consolidated net income' / 'Less: net
        income attributable to noncontrolling interests' / 'Net income attributable to Acme'):
        the line after the deduction, as us-gaap NetIncomeLoss is; None when there is none."""
        top, year = found.row, found.year
        if any(w in top.key for w in ("attributable", "noncontrolling", "minority")):
            return None
        pool = self._beside(found)
        if not any(_NCI.search(r.key) for r in pool):
            return None
        for row in pool:
            if is_parent_caption(row.label):
                return Fact(found.item, year, row, float(row.value_for(year) or 0.0))
        return None

    def find_summed(self, item_id: str, year: int, named: Sequence[str] = ()) -> list[Fact]:
        """Every line of one statement that is the item, for an item the catalogue sums
        (`LineItem.summed`: 'Commercial paper' + 'Current portion of long-term debt'); the best
        row alone for any other item, or when the best row is not in its primary statement.

        The lines are those of the best row's filing and statement, on its page or the next
        (a statement over two pages), from the same reader (statement model or evidence text,
        never both: one line is counted once), each caption once; a 'Total ...' line of the
        item, when printed, is the sum itself and is used alone. [] when no row is the item.
        `named`: the statements the question names (as for `find`)."""
        best = self.find(item_id, year, named=named)
        if best is None:
            return []
        li, top = best.item, best.row
        if not li.summed or not (top.primary and top.statement == li.statement):
            return [best]
        exact, prefixes, excludes = li.keys()
        off = li.off_statement_keys()
        out, keys = [best], {top.key: top.table_id}
        for row in self.rows:
            v = row.value_for(year)
            if (
                v is None
                or any(row is f.row for f in out)
                or (row.key in keys and not _same_table(row, keys[row.key]))
                or row.doc_id != top.doc_id
                or row.statement != top.statement
                or not row.primary
                or row.exhibit
                or row.model != top.model
                or _tagged(row) != _tagged(top)  # the tag and the text row of one line: once
                or abs(row.page - top.page) > 1
            ):
                continue
            fits = _row_score(row, li.statement, exact, prefixes, excludes, off) is not None
            if not (fits or (row.item is not None and row.item in (li.id, *li.metrics))):
                continue
            out.append(Fact(li, year, row, float(v)))
            keys.setdefault(row.key, row.table_id)
        totals = [f for f in out if f.row.key.startswith("total")]
        if totals and self.left_out:
            # a total holding a line the question leaves out: its other line is the item
            whole = self._without_left_out(totals[0])
            return [whole] if whole is not None else totals[:1]
        return totals[:1] if totals else out

    def _top_line(self, li: LineItem, year: int) -> Fact | None:
        """Revenue is the income statement's top line: in the filing's main income statement
        (statement model), the first line whose caption names sales or revenue and none of the
        item's exclusions ('Sales to customers'), when no catalogue caption matched."""
        _, _, excludes = li.keys()
        for row in self.model_rows:
            if not (row.primary and row.statement == "income") or row.per_share:
                continue
            if not any(w in row.key for w in ("sales", "revenue")):
                continue
            if any(x and x in row.key for x in excludes) or row.value_for(year) is None:
                continue
            return Fact(li, year, row, float(row.value_for(year) or 0.0))
        return None

    @staticmethod
    def _best(
        li: LineItem, year: int, pool: Sequence[Row], spelled: str | None = None
    ) -> Fact | None:
        """The best row of `pool` for the item and year; `spelled`: the caption key the
        question names the item by, whose row wins among rows of one standing."""
        exact, prefixes, excludes = li.keys()
        off = li.off_statement_keys()
        best: tuple[float, Row] | None = None
        # lines the layout typed as the item's partner: their evidence-text rows (same filing,
        # caption and figures; a merged passage gives its first page) are them too
        partnered = {
            (r.doc_id, r.key, y, r.value_for(y))
            for r in pool
            if r.model and not _tagged(r) and r.item in li.partners
            for y in r.years
        }
        spelled = _untagged(spelled, li, year, pool)
        # the text tables that print the item under one of its own captions for the year
        captioned = {
            (r.doc_id, r.table_id)
            for r in pool
            if r.model and r.table_id and r.key in exact and r.value_for(year) is not None
        }
        for row in pool:
            if (
                row.value_for(year) is None
                or row.exhibit
                or (row.header_inferred and not row.primary)
            ):
                continue  # other entities' tables; guessed columns outside a statement
            if row.per_share and li.id not in _PER_SHARE_OK:
                continue
            if li.id in _PER_SHARE_OK and not row.per_share and not _PER_SHARE_KEY.search(row.key):
                continue  # 'Diluted 608.6' under weighted-average shares is a count, not EPS
            if paid_item_of(row.item) == li.id:
                continue  # the cash paid for an expense (read under its heading) is not it
            if (row.model and not _tagged(row) and row.item in li.partners) or (
                not row.model
                and any((row.doc_id, row.key, y, row.value_for(y)) in partnered for y in row.years)
            ):
                # the layout typed this line as the item's partner (the total with
                # noncontrolling interests where the company's equity is asked, or the reverse)
                continue
            score = _row_score(row, li.statement, exact, prefixes, excludes, off)
            tagged = row.item is not None and row.item in (li.id, *li.metrics)
            if score is not None and row.item is not None and not tagged and row.key not in exact:
                # a row the statement model typed as another item is not this one by a
                # caption's first words ('Net income tax payments' is income taxes paid)
                continue
            # read as the item under its own first caption: a row the filing's tag says is it,
            # or 'Net income attributable to Costco' read alone (a quarter's model rows, where
            # the consolidated line is its partner), the item by the catalogue's convention
            # (a text table printing the item under a caption the catalogue lists holds it
            # there: another row of that table read as the item by its words ranks below it,
            # 'Total interest expense - net' beside 'Interest expense' being the net line)
            if (
                score is None
                and exact
                and (tagged or (li.id == ATTRIBUTED and is_parent_caption(row.label)))
            ):
                score = _row_score(
                    replace(row, key=exact[0]), li.statement, exact, prefixes, excludes, off
                )
                if (
                    score is not None
                    and tagged
                    and not _tagged(row)
                    and (row.doc_id, row.table_id) in captioned
                ):
                    score -= len(exact)  # below the last caption the catalogue lists
                elif score is not None and tagged:
                    score += TAG_PREFERENCE
            if score is not None and row.model:
                score += MODEL_PREFERENCE
            if score is not None:
                score += _spelled_bonus(row, li, spelled)
            if score is not None and (best is None or score > best[0]):
                best = (score, row)
        if best is None:
            return None
        row = best[1]
        value = row.value_for(year)
        return Fact(li, year, row, float(value or 0.0))

    def statements_seen(self) -> set[str]:
        return {r.statement for r in self.rows if r.statement}


def statement_of(text: str) -> str | None:
    return classify_statement(text)


def _untagged(spelled: str | None, li: LineItem, year: int, pool: Sequence[Row]) -> str | None:
    """The caption the question spells, unless the filer tags the item for the year (the tag
    states the concept: no caption picks another line)."""
    if spelled is None or any(
        _tagged(r) and r.item in (li.id, *li.metrics) and r.value_for(year) is not None
        for r in pool
    ):
        return None
    return spelled


def _spelled_bonus(row: Row, li: LineItem, spelled: str | None) -> float:
    """`SPELLED_PREFERENCE` for the statement model's row of the item's own statement under
    the caption the question spells (it tells two of the statement's lines apart, never a
    note's table from the statement), else 0."""
    own = row.model and row.primary and row.statement == li.statement
    return SPELLED_PREFERENCE if spelled is not None and row.key == spelled and own else 0.0


def _row_score(
    row: Row,
    statement: str | None,
    exact: Sequence[str],
    prefixes: Sequence[str],
    excludes: Sequence[str],
    off_statement: Sequence[str] = (),
) -> float | None:
    """How well a row's label and statement fit a line item; None when it cannot be the item
    (`off_statement`: words that disqualify a caption off the item's own primary statement)."""
    key = row.key
    if not key or any(x and x in key for x in excludes):
        return None
    on_statement = row.primary and row.statement == statement
    if not on_statement and any(x and x in key for x in off_statement):
        return None
    if key in exact:
        strength = 100 - list(exact).index(key)
    elif any(key.startswith(p) for p in prefixes if p):
        strength = 40
    else:
        return None
    if row.statement == statement:
        strength += 200
    elif row.statement in ("comprehensive", "equity"):
        return None
    elif row.statement is not None:
        if statement == "balance" or row.statement == "balance":
            return None  # a balance is never read off a flow statement, nor vice versa
        strength += 50
    if row.primary:
        strength += 150
    if row.header_inferred:
        strength -= 10
    # ties: primary statements by page (main statements precede notes/exhibits), else rank
    return strength - (row.page * 1e-4 if row.primary else row.order * 1e-6)
