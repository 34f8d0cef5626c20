"""A `Book`: every statement row read from one Evidence, and the best row for (line item, year)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from finqa.agents.reasoning.offline.tables import Row, Table, classify_statement, parse_tables
from finqa.agents.types import Evidence, EvidenceItem
from finqa.lexicon.line_items import LineItem, line_items

__all__ = ["Book", "Fact", "doc_fiscal_year"]

_DOC_FY = re.compile(r"_(\d{4})(?:Q\d)?_(10K|10Q|8K|EARNINGS|10K_ANNUALREPORT)", re.I)
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


_PER_SHARE_OK = frozenset(
    {"eps_basic", "eps_diluted", "dividends_per_share", "book_value_per_share"}
)


def _lexicon_item(item_id: str) -> LineItem | None:
    from finqa.agents.reasoning.offline.lexicon_bridge import lexicon_items

    return lexicon_items().get(item_id)


def doc_fiscal_year(doc_id: str) -> tuple[int | None, str | None]:
    """(fiscal year, doc type) from a FinanceBench-style doc name ('PEPSICO_2022_10K')."""
    try:  # the lexicon knows every naming variant
        from finqa.lexicon import parse_doc_name

        meta = parse_doc_name(doc_id)
        if meta.fiscal_year:
            return meta.fiscal_year, (meta.doc_type or "").lower() or None
    except Exception:  # noqa: BLE001 - lexicon optional / not yet installed
        pass
    m = _DOC_FY.search(doc_id)
    if not m:
        return None, None
    return int(m.group(1)), m.group(2).lower()


@dataclass(frozen=True)
class Fact:
    item: LineItem
    year: int
    row: Row
    value: float  # as written (signed)


class Book:
    """Statement rows from an Evidence, with per-document header context shared across chunks."""

    def __init__(self, evidence: Evidence) -> None:
        self.rows: list[Row] = []
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

    @staticmethod
    def _parse(
        item: EvidenceItem,
        n: int,
        years: tuple[int, ...],
        scale: float | None,
        statement: str | None,
    ) -> Table:
        return parse_tables(
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

    @staticmethod
    def _fallback_years(
        doc_id: str, statement: str | None, orders: Counter[tuple[str, bool]], width: int
    ) -> tuple[int, ...]:
        """Columns of a 10-K statement chunk without its header: FY, FY-1, ... (the filer's order)."""
        fy, doc_type = doc_fiscal_year(doc_id)
        if fy is None or doc_type not in ("10k", "10k_annualreport") or statement is None:
            return ()
        n = width if width in (2, 3) else 0
        if n == 0 or (statement == "balance" and n != 2):
            return ()
        years = tuple(fy - i for i in range(n))
        descending = orders[(doc_id, True)] >= orders[(doc_id, False)]
        return years if descending else tuple(reversed(years))

    # ------------------------------------------------------------------ lookup
    def find(self, item_id: str, year: int, prefer: Row | None = None) -> Fact | None:
        """The best row for a line item and fiscal year, or None (never a guess across items).

        `prefer`: the row already used for this item in another year — reused when it has the
        year, so one metric never mixes a statement with an unrelated table.
        """
        li = line_items().get(item_id) or _lexicon_item(item_id)
        if li is None:
            return None
        if prefer is not None:
            v = prefer.value_for(year)
            if v is not None:
                return Fact(li, year, prefer, float(v))
        exact, prefixes, excludes = li.keys()
        best: tuple[float, Row] | None = None
        for row in self.rows:
            if (
                row.value_for(year) is None
                or row.exhibit
                or (row.header_inferred and not row.primary)
            ):
                continue  # other entities' tables; guessed columns outside a statement
            if row.per_share and li.id not in _PER_SHARE_OK:
                continue
            score = _row_score(row, li.statement, exact, prefixes, excludes)
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


def _row_score(
    row: Row,
    statement: str | None,
    exact: Sequence[str],
    prefixes: Sequence[str],
    excludes: Sequence[str],
) -> float | None:
    """How well a row's label and statement fit a line item; None when it cannot be the item."""
    key = row.key
    if not key or any(x and x in key for x in excludes):
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
