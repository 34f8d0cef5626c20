"""The seams of finqa: data that crosses them (frozen pydantic models) and the Protocols.

Every agent implementation satisfies a Protocol here without inheriting from it;
tests pass fakes. Data that crosses a seam is a frozen model, never a dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Frozen",
    "Chunk",
    "QueryAnalysis",
    "RetrievalPlan",
    "EvidenceItem",
    "Evidence",
    "Citation",
    "Operand",
    "Calculation",
    "LLMUsage",
    "LLMResponse",
    "Answer",
    "Verdict",
    "Diagnosis",
    "Retriever",
    "Reasoner",
    "Judge",
    "LLMClient",
    "Embedder",
    "Reranker",
    "Clock",
    "AuditSink",
    "StatementKind",
    "StatementPeriod",
    "StatementFact",
    "StatementTable",
    "StatementStore",
]

Diagnosis = Literal["retrieval", "reasoning", "both"]
Strategy = Literal["standard", "conservative", "detailed"]


class Frozen(BaseModel):
    """Base for data crossing a seam: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- retrieval


class Chunk(Frozen):
    """A unit of indexed text: never spans pages without saying so (page..page_end)."""

    chunk_id: str
    doc_id: str  # stable document name, e.g. "3M_2018_10K"
    page: int  # 0-based, as in the source PDF
    page_end: int | None = None  # last page when the chunk crosses a page boundary
    position: int  # 0-based order of the chunk within its document
    section: str | None = None  # heading in force ("Item 7. ...", "CONSOLIDATED BALANCE SHEETS")
    text: str
    company: str | None = None
    ticker: str | None = None
    doc_type: str | None = None  # 10k, 10q, 8k, earnings, ...
    fiscal_year: int | None = None
    period: str | None = None  # e.g. "FY2022", "2023Q2"


class QueryAnalysis(Frozen):
    """What the question asks, as the lexicon understands it."""

    question: str
    companies: tuple[str, ...] = ()  # canonical company names
    tickers: tuple[str, ...] = ()
    fiscal_years: tuple[int, ...] = ()
    quarters: tuple[int, ...] = ()
    metrics: tuple[str, ...] = ()  # canonical metric ids
    statements: tuple[str, ...] = ()  # income|balance|cash_flow|equity|...
    doc_types: tuple[str, ...] = ()
    is_computation: bool = False
    is_comparison: bool = False
    expanded_query: str = ""
    notes: tuple[str, ...] = ()  # what normalisation changed, for the audit log


class RetrievalPlan(Frozen):
    """What the Retrieval agent decided for one attempt, and why."""

    attempt: int
    route: str  # "hybrid+filter" | "hybrid+filter+rerank" | "hybrid-broad" | "semantic"
    reason: str
    k: int
    candidates: int
    rse: bool
    filters: Mapping[str, Any] = Field(default_factory=dict)
    query: str = ""  # the query actually run (after expansion / feedback)
    analysis: QueryAnalysis | None = None


class EvidenceItem(Frozen):
    """One ranked chunk or RSE segment, with every score that ranked it."""

    source_id: str  # "S1", "S2", ... in rank order
    doc_id: str
    pages: tuple[int, ...]
    chunk_ids: tuple[str, ...]
    text: str
    section: str | None = None
    scores: Mapping[str, float] = Field(default_factory=dict)  # dense, bm25, rrf, rerank, ...
    metadata: Mapping[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        """The source boundary shown to the reasoner: `[S3] DOC p.47 — SECTION`."""
        pages = "p." + ",".join(str(p) for p in self.pages)
        head = f"[{self.source_id}] {self.doc_id} {pages}"
        return f"{head} — {self.section}" if self.section else head


class Evidence(Frozen):
    """The Retrieval agent's output for one attempt."""

    question: str
    items: tuple[EvidenceItem, ...] = ()
    plan: RetrievalPlan
    latency_ms: float = 0.0

    def by_source(self, source_id: str) -> EvidenceItem | None:
        return next((i for i in self.items if i.source_id == source_id), None)


# --------------------------------------------------------------------------- reasoning


class Citation(Frozen):
    source_id: str
    doc_id: str
    page: int
    chunk_id: str | None = None
    quote: str = ""


class Operand(Frozen):
    """One input of a calculation, as read from a cited source."""

    name: str  # e.g. "revenue FY2022"
    value: float  # as written in the source, before scale (e.g. 394328)
    unit: str = "USD"  # USD, %, shares, ratio, days, times, ...
    scale: float = 1.0  # 1e6 when the table says "(in millions)"
    period: str | None = None
    source_id: str | None = None
    text: str = ""  # the span it was read from


class Calculation(Frozen):
    """An explicit calculation the Judge can re-execute: result = eval(expression, operands)."""

    expression: str  # over operand names as variables, e.g. "(a - b) / b * 100"
    operands: tuple[Operand, ...]
    result: float  # computed by finqa, never trusted from an LLM
    unit: str = ""
    description: str = ""


class LLMUsage(Frozen):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    retries: int = 0
    latency_ms: float = 0.0


class LLMResponse(Frozen):
    text: str
    model: str
    usage: LLMUsage = LLMUsage()
    finish_reason: str | None = None
    json_mode: bool = False
    # structured output actually used: json_schema | json_object+schema | json_object | text
    response_format: str = "text"


class Answer(Frozen):
    """The Reasoning agent's output for one attempt."""

    text: str
    citations: tuple[Citation, ...] = ()
    calculations: tuple[Calculation, ...] = ()
    abstained: bool = False  # "cannot determine from the filings"
    strategy: str = "standard"
    template_id: str = ""
    template_hash: str = ""
    backend: str = "offline"
    model: str = ""
    usage: LLMUsage = LLMUsage()
    confidence: Mapping[str, Any] = Field(default_factory=dict)  # hedging, refusal, figures, length
    raw: str = ""  # raw LLM text, for the audit log


# --------------------------------------------------------------------------- judge


class Verdict(Frozen):
    """The Judge's blind evaluation of one attempt."""

    grounding: float
    completeness: float
    numeric: float
    utility: float
    threshold: float
    decision: Literal["accept", "retry"]
    diagnosis: Diagnosis | None = None
    missing_facets: tuple[str, ...] = ()
    unsupported_numbers: tuple[str, ...] = ()
    feedback: str = ""  # one paragraph for the next attempt's prompt
    details: Mapping[str, Any] = Field(default_factory=dict)  # per-claim / number / facet


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


# --------------------------------------------------------------------------- protocols


@runtime_checkable
class Retriever(Protocol):
    def retrieve(
        self,
        question: str,
        attempt: int,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        feedback: Verdict | None = None,
    ) -> Evidence: ...


@runtime_checkable
class Reasoner(Protocol):
    def generate(
        self,
        question: str,
        evidence: Evidence,
        attempt: int,
        *,
        feedback: Verdict | None = None,
        strategy: str | None = None,
    ) -> Answer: ...


@runtime_checkable
class Judge(Protocol):
    def evaluate(
        self, question: str, answer: Answer, evidence: Evidence, attempt: int
    ) -> Verdict: ...


@runtime_checkable
class LLMClient(Protocol):
    model: str

    def complete(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        schema: Mapping[str, Any] | None = None,  # JSON schema of the reply, where supported
    ) -> LLMResponse: ...


@runtime_checkable
class Embedder(Protocol):
    name: str
    dimension: int
    max_tokens: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def count_tokens(self, text: str) -> int: ...


@runtime_checkable
class Reranker(Protocol):
    name: str

    def score(self, query: str, texts: Sequence[str]) -> list[float]: ...


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime: ...


@runtime_checkable
class StatementStore(Protocol):
    """The one reader of a filing's statements, shared by the reasoner, the judge and the LLM prompt.

    `item` is a catalogue id ("revenue") or a label as filed ("Net sales"; matched letters-only,
    case-insensitively); `period` narrows to one column (see `StatementPeriod.matches`).
    Facts come back in table order (primary statements first); an unknown document gives [].
    """

    def docs(self) -> list[str]: ...

    def tables(
        self, doc_id: str, statement: StatementKind | None = None
    ) -> list[StatementTable]: ...

    def lookup(
        self, doc_id: str, item: str, period: str | int | StatementPeriod | None = None
    ) -> list[StatementFact]: ...


@runtime_checkable
class AuditSink(Protocol):
    """Where every decision goes: one append-only, hash-chained record per call (see `audit/`)."""

    def append(
        self,
        *,
        event: str,
        agent: str,
        question_id: str | None = None,
        attempt: int | None = None,
        params: Mapping[str, Any] | None = None,
        scores: Mapping[str, Any] | None = None,
        decision: str | None = None,
        reason: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]: ...
