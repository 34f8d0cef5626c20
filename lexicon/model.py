"""The lexicon's data model: what it reads from a question and from a filing's statements.

Frozen pydantic models, defined here at the bottom of the package so that the lexicon, which
builds them, never imports upwards; `finqa.agents.types` re-exports them with the seams that
carry them (`StatementStore`, `RetrievalPlan.analysis`).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Frozen",
    "QueryAnalysis",
    "AskedDimension",
    "StatementKind",
    "StatementUnit",
    "StatementPeriod",
    "StatementFact",
    "StatementTable",
]


class Frozen(BaseModel):
    """Base for data crossing a seam: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class AskedDimension(Frozen):
    """A part of the business a question names: a segment, region, country or product line.

    `kind` is the kind of part (segment | geography | product, from the XBRL axes that name
    them); `phrase` the question's own words for it. `axis` and `member` are the filing's tag
    of the part (e.g. 'us-gaap:StatementBusinessSegmentsAxis', 'aapl:GreaterChinaSegmentMember'),
    None while the question has not been read against a filing's members; `label` is how the
    member reads ('Greater China').
    """

    kind: str
    phrase: str
    axis: str | None = None
    member: str | None = None
    label: str = ""
    # the filing's printed names the phrase could equally be (no member chosen between them)
    candidates: tuple[str, ...] = ()

    def describe(self) -> str:
        """How an answer names the part: "segment 'Greater China'"."""
        return f"{self.kind} '{self.label or self.phrase}'"


class QueryAnalysis(Frozen):
    """What the question asks, as the lexicon understands it."""

    question: str
    companies: tuple[str, ...] = ()  # canonical company names
    tickers: tuple[str, ...] = ()
    fiscal_years: tuple[int, ...] = ()
    quarters: tuple[int, ...] = ()
    # when a period shorter than a fiscal year is asked: the period asked in each fiscal year
    # named ('Q3 FY2025', 'six months ended June 30, 2024', 'March 31, 2025'; 'FY2023' beside)
    periods: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()  # canonical metric ids
    statements: tuple[str, ...] = ()  # income|balance|cash_flow|equity|...
    doc_types: tuple[str, ...] = ()
    is_computation: bool = False
    is_comparison: bool = False
    # a segment, region or product line the question's words name (no filing read yet: the
    # member is resolved against a filing's own members by `lexicon.dimensions`)
    dimension: AskedDimension | None = None
    expanded_query: str = ""
    notes: tuple[str, ...] = ()  # what normalisation changed, for the audit log


# --------------------------------------------------------------------------- statement model

StatementKind = Literal["income", "balance", "cashflow", "equity", "segment", "quarterly", "other"]
StatementUnit = Literal["USD", "shares", "USD/share", "pure", "%"]


class StatementPeriod(Frozen):
    """One column of a statement table: the period its figures cover, as read from the header.

    `months` is the duration (12 for a fiscal year, 3 for a quarter, 0 for a balance-sheet
    instant); `weeks` is set when the header says '52 weeks' / '53 weeks'. `key` is the
    canonical name used by `StatementStore.lookup`: 'FY2022', '2023Q2', 'FY2022@end' for an
    instant at a fiscal year end, '2023Q2@end' for an instant at a quarter end.
    """

    label: str = ""  # the column header as filed, e.g. "December 31, 2022" or "2022 (As Restated)"
    fiscal_year: int | None = None
    quarter: int | None = None  # 1-4 for a quarter or a quarter-end instant
    end_date: date | None = None  # period end (or the instant) when the header gives a date
    months: int | None = None  # duration in months; 0 for an instant
    weeks: int | None = None  # 52 / 53 when the header states weeks
    instant: bool = False  # balance-sheet style "as of" column
    restated: bool = False  # "As restated", "As adjusted", "Revised"
    unaudited: bool = False

    @property
    def key(self) -> str:
        """'FY2022', '2023Q2', 'FY2022@end', '2023Q2@end', or '?' when no year is known."""
        if self.fiscal_year is None:
            return "?"
        if self.quarter is not None and (self.months in (None, 0, 3) or self.instant):
            base = f"{self.fiscal_year}Q{self.quarter}"
        elif self.months not in (None, 0, 12) and not self.instant:
            base = f"{self.fiscal_year}M{self.months}"  # six / nine months year to date
        else:
            base = f"FY{self.fiscal_year}"
        return f"{base}@end" if self.instant else base

    def matches(self, spec: str | int | StatementPeriod) -> bool:
        """True when this column answers for `spec`: a fiscal year (2022 / 'FY2022' / '2022'),
        a quarter ('2023Q2'), a key ('FY2022@end'), an ISO date ('2022-12-31') or a period."""
        if isinstance(spec, StatementPeriod):
            return spec.key == self.key and (spec.end_date in (None, self.end_date))
        if isinstance(spec, int):
            return self.fiscal_year == spec and self.quarter is None
        s = spec.strip().upper()
        if s.endswith("@END"):
            return self.instant and self.key.upper() == s
        if len(s) == 10 and s[4] == "-" and s[7] == "-":
            return self.end_date is not None and self.end_date.isoformat() == s
        if s.startswith("FY"):
            s = s[2:]
        if s.isdigit():
            return self.fiscal_year == int(s) and (self.quarter is None or self.months == 12)
        return self.key.upper().removesuffix("@END") == s


class StatementFact(Frozen):
    """One cell of a statement: a line item's value for one period, with where it was read.

    `value` is in base units (dollars, shares), i.e. the figure as filed times `scale`, signed
    (a parenthesised cell is negative and `negative` says so). For a per-share or percent
    cell the scale is 1. `raw` is the cell text exactly as read.
    """

    doc_id: str
    statement: StatementKind
    table_id: str = ""
    table_title: str = ""
    label: str  # the line item as filed, e.g. "Cost of products sold"
    item: str | None = None  # catalogue id when the lexicon maps the label, e.g. "cost_of_revenue"
    period: StatementPeriod
    value: float  # base units, after scale and sign
    unit: StatementUnit = "USD"
    scale: float = 1.0  # as filed: 1e6 for "(in millions)"
    negative: bool = False  # the cell was parenthesised / had a minus sign
    page: int  # 0-based, as in the source PDF
    row: int = 0  # 0-based row position within the table
    column: int = 0  # 0-based period column within the table
    raw: str = ""  # the cell text as read, e.g. "(1,234)"
    source: Literal["pdf", "text", "xbrl"] = "text"
    # inline XBRL facts (source="xbrl") also carry their tag: a fact with dimensions (a
    # segment, a product line) has item=None, so it is never read as the line item's total
    concept: str | None = None  # 'us-gaap:Revenues', 'adbe:SubscriptionRevenue'
    dimensions: tuple[tuple[str, str], ...] = ()  # (axis, member), sorted
    decimals: int | None = None  # as tagged; None for INF or not tagged

    @property
    def filed_value(self) -> float:
        """The number as printed in the table (before scale), signed."""
        return self.value / self.scale if self.scale else self.value


class StatementTable(Frozen):
    """One parsed statement table: rows = line items as filed, columns = periods."""

    table_id: str  # unique within the document, e.g. "p47-t0"
    doc_id: str
    statement: StatementKind
    title: str = ""
    pages: tuple[int, ...] = ()  # 0-based pages the table spans
    unit: StatementUnit = "USD"  # of amounts; per-share rows carry their own unit
    scale: float = 1.0  # as filed in the header ("in millions, except per share")
    periods: tuple[StatementPeriod, ...] = ()
    labels: tuple[str, ...] = ()  # row labels in filed order (rows with no value included)
    facts: tuple[StatementFact, ...] = ()
    source: Literal["pdf", "text", "xbrl"] = "text"
    notes: tuple[str, ...] = ()  # what the reader skipped or could not parse, and why

    @property
    def page(self) -> int:
        return self.pages[0] if self.pages else -1

    def frame(self) -> Any:
        """The table as a pandas DataFrame: index = line items as filed (in filed order, repeats
        kept), one column per period key; `attrs` carries doc, statement, title, pages, scale."""
        import pandas as pd

        cols = [p.key for p in self.periods]
        rows: dict[int, dict[str, float]] = {}
        names: dict[int, str] = {}
        for f in self.facts:
            col = cols[f.column] if f.column < len(cols) else f.period.key
            rows.setdefault(f.row, {})[col] = f.value
            names[f.row] = f.label
        order = sorted(rows)
        df = pd.DataFrame(
            [rows[r] for r in order],
            index=pd.Index([names[r] for r in order], name="line_item"),
            columns=list(dict.fromkeys(cols)) or None,
        )
        df.attrs.update(
            doc_id=self.doc_id,
            statement=self.statement,
            title=self.title,
            pages=list(self.pages),
            scale=self.scale,
            unit=self.unit,
        )
        return df
