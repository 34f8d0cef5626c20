"""Query analysis: companies, periods, metrics and statements of a question, and an expanded
query for BM25 (canonical names, synonyms and filing line items), with notes on what changed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from finqa.lexicon import movement
from finqa.lexicon._data import data_cache
from finqa.lexicon.abbreviations import abbreviate, expand_abbreviations
from finqa.lexicon.asked_period import asked_periods
from finqa.lexicon.dimensions import asked_dimension
from finqa.lexicon.entities import CompanyMatch, find_companies, lookup_company_by_name
from finqa.lexicon.metrics import MetricMatch, find_metrics, get_metric
from finqa.lexicon.periods import PeriodMatch, find_periods

if TYPE_CHECKING:  # pydantic is imported on first use, so `import lexicon` stays light
    from finqa.lexicon.model import QueryAnalysis

__all__ = [
    "analyze",
    "asks_total",
    "named_statements",
    "primary_fiscal_year",
    "STATEMENT_NAMES",
    "STATEMENT_TITLES",
]

STATEMENT_NAMES = {
    "income": "consolidated statements of income operations",
    "balance": "consolidated balance sheets financial position",
    "cash_flow": "consolidated statements of cash flows",
    "equity": "consolidated statements of shareholders equity",
}
# how an answer names each statement a question can name
STATEMENT_TITLES = {
    "income": "income statement",
    "balance": "balance sheet",
    "cash_flow": "cash flow statement",
    "equity": "statement of shareholders' equity",
}
_STATEMENT_RX = [
    (
        "income",
        r"income statements?|statements? of (?:consolidated )?(?:income|operations|earnings)|"
        r"p&l|profit and loss|statement of comprehensive income",
    ),
    ("balance", r"balance sheets?|statements? of financial (?:position|condition)"),
    ("cash_flow", r"cash flows? statements?|statements? of cash flows?"),
    ("equity", r"statements? of (?:changes in )?(?:shareholders'?|stockholders'?) equity"),
]
_DOC_RX = [
    ("10k", r"\b10-?K\b|annual report"),
    ("10q", r"\b10-?Q\b|quarterly report"),
    ("8k", r"\b8-?K\b|current report"),
    ("earnings", r"earnings (?:release|call|report|press release)|press release"),
]


# a figure to compute: the words of a computation, and a literal movement (lexicon.movement)
@data_cache()
def _compute_rx() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:calculate|compute|ratio|margins?|average|difference|percent(?:age)?|"
        r"proportion(?:ally)?|share of|per cent|turnover|times|how many times|round|rate|yoy|"
        r"year over year|cagr|"
        rf"{movement.alternation(('up', 'down', 'change'), ('verbs', 'nouns'), acts=False)})\b|%",
        re.I,
    )


# figures set against each other: the words of a comparison, and an evaluative movement or a
# comparative ('improved', 'weakened', 'higher': lexicon.movement)
@data_cache()
def _compare_rx() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:compare[sd]?|comparison|vs\.?|versus|between|than|highest|lowest|"
        r"most|least|largest|biggest|smallest|consistent|relative to|outperform|best|worst|"
        rf"{movement.alternation(('favourable', 'unfavourable'), ('verbs', 'nouns'))}|"
        rf"{movement.alternation(('up', 'down'), ('comparatives',))})\b",
        re.I,
    )


_TOTAL_RX = re.compile(r"\b(?:total|combined|sum|altogether|in aggregate|by how much)\b", re.I)


def asks_total(question: str) -> bool:
    """True when the question asks for a total or a difference of several figures ('total
    amount ... under its agreements', 'by how much'): no single stated figure answers it."""
    return bool(_TOTAL_RX.search(question))


def primary_fiscal_year(periods: list[PeriodMatch]) -> int | None:
    """The fiscal year a question is mainly about: the latest year it names, leaving out
    bare years in a forward-looking phrase ('expect to pay ... in 2024') when others exist."""
    if periods and all(p.future for p in periods if p.fiscal_year):
        future = [p.fiscal_year for p in periods if p.fiscal_year]
        if future:
            return max(future) - 1  # 'forecasting for FY2023' is read in the FY2022 filing
    fiscal = [p.fiscal_year for p in periods if p.fiscal_year and p.kind != "year"]
    bare = [p.fiscal_year for p in periods if p.fiscal_year and p.kind == "year" and not p.future]
    if fiscal or bare:
        return max(fiscal + bare)
    years = [p.fiscal_year for p in periods if p.fiscal_year]
    return max(years) if years else None


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def analyze(question: str) -> QueryAnalysis:
    """What the question asks, as the lexicon understands it (agents.types.QueryAnalysis).

    Cached per question text (the result is frozen): retrieval, reasoning and the judge all
    ask for the same question's analysis.
    """
    return _analyze(question)


@data_cache(256)
def _analyze(question: str) -> QueryAnalysis:
    from finqa.lexicon.model import QueryAnalysis

    companies: list[CompanyMatch] = find_companies(question)
    names = _unique([c.name for c in companies])
    tickers = _unique([c.ticker for c in companies])
    company = lookup_company_by_name(names[0]) if len(names) == 1 else None
    periods = find_periods(question, company.name if company else None)
    metrics = find_metrics(question)
    metric_ids = _unique([m.canonical for m in metrics])
    statements = _statements(question, metric_ids)
    doc_types = [d for d, rx in _DOC_RX if re.search(rx, question, re.I)]
    plain = question  # the question without company names ('Best Buy' is not a comparison)
    for c in reversed(companies):
        plain = plain[: c.start] + " " * (c.end - c.start) + plain[c.end :]
    primary = primary_fiscal_year(periods)
    mentioned = [str(p.fiscal_year) for p in periods if p.fiscal_year]
    # the year the question is mainly about first (it is the filing filter), then the others
    years = _unique(([str(primary)] if primary and str(primary) in mentioned else []) + mentioned)
    quarters = _unique([str(p.quarter) for p in periods if p.quarter])
    asked = asked_periods(question, company.name if company else None) or ()
    shorter = tuple(a.label() for a in asked) if any(not a.annual for a in asked) else ()
    notes, expansion = _expansion(companies, periods, metrics, statements)
    for short, long in expand_abbreviations(plain):
        notes.append(f"abbreviation {short!r} -> {long!r}")
        expansion.append(long)
    for short, long in abbreviate(plain):
        notes.append(f"abbreviation {long!r} -> {short!r}")
        expansion.append(short)
    extra = [e for e in _unique(expansion) if e.lower() not in question.lower()]
    expanded = question if not extra else question + " | " + " ; ".join(extra)
    return QueryAnalysis(
        question=question,
        companies=names,
        tickers=tickers,
        fiscal_years=tuple(int(y) for y in years),
        quarters=tuple(int(q) for q in quarters),
        periods=shorter,
        metrics=metric_ids,
        statements=statements,
        doc_types=tuple(doc_types),
        is_computation=bool(_compute_rx().search(plain))
        or any(get_metric(m).is_derived for m in metric_ids),
        is_comparison=bool(_compare_rx().search(plain)) or len(names) > 1 or len(years) > 1,
        dimension=asked_dimension(question),
        expanded_query=expanded,
        notes=_unique(notes),
    )


def named_statements(question: str) -> tuple[str, ...]:
    """The financial statements the question names ('income statement', 'balance sheet', ...)."""
    return tuple(sid for sid, rx in _STATEMENT_RX if re.search(rx, question, re.I))


def _statements(question: str, metric_ids: tuple[str, ...]) -> tuple[str, ...]:
    """Statements the question names, then those its metrics (and their inputs) live on."""
    found = list(named_statements(question))
    for mid in metric_ids:
        metric = get_metric(mid)
        for st in (metric.statement, *(get_metric(inp).statement for inp in metric.inputs)):
            if st in STATEMENT_NAMES:
                found.append(st)
    return _unique(found)


def _expansion(
    companies: list[CompanyMatch],
    periods: list[PeriodMatch],
    metrics: list[MetricMatch],
    statements: tuple[str, ...],
) -> tuple[list[str], list[str]]:
    """(notes on what normalisation changed, query expansion terms) for the audit log and search."""
    notes: list[str] = []
    expansion: list[str] = []
    for c in companies:
        canon = f"{c.name} ({c.ticker})"
        if c.matched != c.name:
            notes.append(f"company {c.matched!r} -> {canon} via {c.via}")
        expansion += [c.name] + ([c.ticker] if c.via == "ticker" else [])
    for p in periods:
        if p.fiscal_year:
            label = f"FY{p.fiscal_year}" + (f" Q{p.quarter}" if p.quarter else "")
            label += f" H{p.half}" if p.half else ""
            ends = f", ends {p.end_date}" if p.end_date else ""
            notes.append(f"period {p.text!r} -> {label}{ends}")
            expansion.append(f"fiscal {p.fiscal_year}")
            if p.quarter:
                expansion.append(f"quarter ended {p.end_date}" if p.end_date else "quarter")
    for mm in metrics:
        metric = get_metric(mm.canonical)
        formula = f" = {metric.formula}" if metric.formula else ""
        notes.append(f"metric {mm.matched!r} -> {metric.id}{formula}")
        expansion += [metric.name, *metric.line_items[:4], *metric.synonyms[:3]]
        for inp in metric.inputs:
            expansion += [get_metric(inp).name, *get_metric(inp).line_items[:2]]
    expansion += [STATEMENT_NAMES[st] for st in statements]
    return notes, expansion
