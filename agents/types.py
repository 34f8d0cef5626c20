"""The seams of finqa: data that crosses them (frozen pydantic models) and the Protocols.

Every agent implementation satisfies a Protocol here without inheriting from it;
tests pass fakes. Data that crosses a seam is a frozen model, never a dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

from finqa.lexicon.model import (
    Frozen,
    QueryAnalysis,
    StatementFact,
    StatementKind,
    StatementPeriod,
    StatementTable,
)
from pydantic import Field, model_validator

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
    "FigureStatus",
    "FIGURE_OK",
    "CalcStatus",
    "Verdict",
    "Diagnosis",
    "Retriever",
    "PageLabeller",
    "Reasoner",
    "Judge",
    "LLMClient",
    "Embedder",
    "Reranker",
    "CandidateVectors",
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
    fy_label: str | None = None  # how the filer names its years: 'end' | 'start' (identity)


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
    """A source of an answer: (doc, page, chunk, quote). `page` is the 0-based page index (as in
    the source PDF and the audit log); `page_label` the printed page number when the index knows
    it (EDGAR HTML page footers), filled in by the orchestrator. `quote` is the filing's own
    text at that place (for a tagged figure: its table row as printed, sign included), and
    `xbrl_concept` the figure's inline XBRL tag, apart from the quote."""

    source_id: str
    doc_id: str
    page: int
    chunk_id: str | None = None
    quote: str = ""
    page_label: str | None = None
    xbrl_concept: str | None = None  # the inline XBRL tag of a figure read from it (not quoted)

    @property
    def printed_page(self) -> str:
        """The page an analyst cites: the printed label, else the page's position (index + 1)."""
        return self.page_label or str(self.page + 1)

    @property
    def page_label_source(self) -> str:
        """'printed' when `printed_page` is the filing's own page number, else 'position'."""
        return "printed" if self.page_label else "position"


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
    # what the reasoner tells the judge (records written before these fields carried them as
    # `confidence` keys of the same names; they are read from there when not given)
    missing: tuple[str, ...] = ()  # line items it looked for and could not find (abstentions)
    calc_problems: tuple[str, ...] = ()  # its own calculations it found invalid
    invalid_citations: int = 0  # citations to sources that are not in the evidence

    @model_validator(mode="before")
    @classmethod
    def _from_confidence(cls, data: Any) -> Any:
        """Older answers (audit records, labelled sets) said these in `confidence`."""
        if not isinstance(data, Mapping):
            return data
        conf = data.get("confidence")
        if not isinstance(conf, Mapping):
            return data
        out = dict(data)
        for key in ("missing", "calc_problems"):
            value = conf.get(key)
            if key not in out and isinstance(value, list | tuple):
                out[key] = tuple(str(x) for x in value if x)
        value = conf.get("invalid_citations")
        if "invalid_citations" not in out and isinstance(value, int | float) and value > 0:
            out["invalid_citations"] = int(value)
        return out


# The status of each figure of an answer as the judge checked it (NumberCheck.status): the first
# four accept it; the rest say why it is not supported.
FigureStatus = Literal[
    "evidence",  # printed in a source, in the asked period's column or sentence
    "calculation",  # the judge's re-execution of a recorded calculation over evidence figures
    "derived",  # simple arithmetic of other verified figures of the answer
    "rederived",  # the asked metric as the judge computes it from the statement model
    "period_mismatch",  # printed, but only in another period's column
    "calc_mismatch",  # what the reasoner recorded, not what the arithmetic gives
    "calc_unverified",  # a calculation's result whose operands are not in the evidence
    "calc_invalid",  # beside a calculation the reasoner flagged invalid
    "calc_other_metric",  # a calculation of another metric than the one asked
    "wrong_direction",  # the size of a change, stated as moving the other way
    "wrong_kind",  # not a figure of the kind asked (an amount for a ratio ...)
    "route_conflict",  # the judge's second route gives another value (both shown)
    "convention_dependent",  # another recognised definition of the metric gives another value
    "implausible",  # outside what the metric can be by its definition
    "wrong_sign",  # a quotient stated with the sign its sides do not give
    "off_topic",  # printed, but on a line of another item (internal, becomes not_found)
    "not_found",  # none of the above
]
FIGURE_OK: frozenset[str] = frozenset({"evidence", "calculation", "derived", "rederived"})
# The status of a recorded calculation as the judge re-executed it (CalcCheck.status).
CalcStatus = Literal["verified", "operand_not_found", "period_mismatch", "error"]


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
class PageLabeller(Protocol):
    """A retriever that knows the printed page numbers of the filings it indexed (optional)."""

    def page_label(self, doc_id: str, page: int) -> str | None: ...


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
class CandidateVectors(Protocol):
    """Vectors for an index without dense vectors (`index.dense: none`): the query's and, on
    demand, its candidate chunks', so the reranker's cosine features exist there too (used by
    `benchmarks.fit_reranker` on a BM25-only index)."""

    def query(self, text: str) -> Sequence[float]: ...

    def chunks(self, chunk_ids: Sequence[str]) -> Sequence[Sequence[float] | None]: ...


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime: ...


@runtime_checkable
class StatementStore(Protocol):
    """The one reader of a filing's statements, shared by the reasoner, the judge and the LLM prompt.

    `item` is a catalogue id ("revenue") or a label as filed ("Net sales"; matched letters-only,
    case-insensitively); `period` narrows to one column (see `StatementPeriod.matches`).
    Facts come back with the filing's own inline XBRL tags for the total first (`source="xbrl"`,
    no dimension: exact concept, period and scale), then in table order (primary statements
    first); each fact says where it came from (`source`: xbrl, text, pdf). A fact with
    dimensions (a segment's, a region's or a product line's figure) is never returned by
    `lookup`: it is read from `tables` by `finqa.lexicon.dimensions.dimensional_facts`. An
    unknown document gives [].
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
