"""Query analysis for retrieval: the lexicon's `analyze` when available, a small fallback else.

The fallback reads fiscal years, quarters, statements, doc types and computation/comparison
cues with regular expressions; it does not know company names (the filters match the
question against the index catalogue instead).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finqa.agents.types import QueryAnalysis, Verdict

__all__ = ["analyze_question", "metric_terms", "primary_year", "with_feedback", "lexicon_available"]

_YEAR = re.compile(r"\b(?:FY\s?'?|fiscal(?:\s+year)?\s+)?((?:19|20)\d\d)\b", re.I)
_FY2 = re.compile(r"\bFY\s?'?(\d\d)\b", re.I)
_QUARTER = re.compile(r"\b(?:Q([1-4])|([1-4])Q|(first|second|third|fourth)\s+quarter)\b", re.I)
_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_STATEMENTS = {
    "cash_flow": re.compile(
        r"cash\s+flows?\s+statement|statement\s+of\s+cash\s+flows|cash\s+flow", re.I
    ),
    "balance": re.compile(r"balance\s+sheet|statement\s+of\s+financial\s+position", re.I),
    "income": re.compile(
        r"income\s+statement|p&l|statement\s+of\s+(?:operations|income|earnings)", re.I
    ),
    "equity": re.compile(r"statement\s+of\s+(?:shareholders|stockholders)", re.I),
}
_DOC_TYPES = {
    "10k": re.compile(r"\b10-?K\b|annual\s+report", re.I),
    "10q": re.compile(r"\b10-?Q\b|quarterly\s+report", re.I),
    "8k": re.compile(r"\b8-?K\b", re.I),
    "earnings": re.compile(r"earnings\s+(?:release|report|call)|press\s+release", re.I),
}
_COMPUTE = re.compile(
    r"\b(ratio|margin|percent|percentage|%|growth|change|average|calculate|compute|per\s+share|turnover|"
    r"days|rate|difference|increase|decrease|yoy|year-over-year|cagr|proportion|share\s+of)\b",
    re.I,
)
_COMPARE = re.compile(
    r"\b(compare|compared|versus|vs\.?|higher|lower|more|less|between|than)\b", re.I
)


def lexicon_available() -> bool:
    try:
        from finqa.lexicon import analyze  # noqa: F401
    except ImportError:
        return False
    return True


def _fallback(question: str) -> QueryAnalysis:
    years = {int(m.group(1)) for m in _YEAR.finditer(question)}
    years |= {2000 + int(m.group(1)) for m in _FY2.finditer(question)}
    quarters = set()
    for m in _QUARTER.finditer(question):
        quarters.add(int(m.group(1) or m.group(2) or _ORD[m.group(3).lower()]))
    statements = tuple(k for k, rx in _STATEMENTS.items() if rx.search(question))
    doc_types = tuple(k for k, rx in _DOC_TYPES.items() if rx.search(question))
    return QueryAnalysis(
        question=question,
        fiscal_years=tuple(sorted(years)),
        quarters=tuple(sorted(quarters)),
        statements=statements,
        doc_types=doc_types,
        is_computation=bool(_COMPUTE.search(question)),
        is_comparison=bool(_COMPARE.search(question)),
        expanded_query=question,
        notes=("fallback analysis (lexicon not installed)",),
    )


def analyze_question(question: str) -> QueryAnalysis:
    """lexicon.analyze(question), or the regex fallback when the lexicon is absent or fails."""
    try:
        from finqa.lexicon import analyze
    except ImportError:
        return _fallback(question)
    try:
        result: QueryAnalysis = analyze(question)
    except Exception as exc:  # a lexicon bug must not stop retrieval
        fb = _fallback(question)
        return fb.model_copy(update={"notes": (f"lexicon.analyze failed: {type(exc).__name__}",)})
    return result


def primary_year(analysis: QueryAnalysis) -> int | None:
    """The fiscal year the question is mainly about (lexicon rule, else the latest year named)."""
    if not analysis.fiscal_years:
        return None
    try:
        from finqa.lexicon import find_periods, primary_fiscal_year

        company = analysis.companies[0] if analysis.companies else None
        year: int | None = primary_fiscal_year(find_periods(analysis.question, company))
    except Exception:  # lexicon absent or failing: fall back to the latest year
        year = None
    return year if year is not None else max(analysis.fiscal_years)


def metric_terms(metrics: Sequence[str]) -> tuple[list[str], set[str]]:
    """Line-item phrases and statements of the analysis' metrics (empty without the lexicon)."""
    try:
        from finqa.lexicon import get_metric
    except ImportError:
        return [], set()
    phrases: list[str] = []
    statements: set[str] = set()
    for metric_id in metrics:
        try:
            metric: Any = get_metric(metric_id)
        except Exception:
            continue
        phrases.extend(
            str(p) for p in (*getattr(metric, "line_items", ()), getattr(metric, "name", "")) if p
        )
        phrases.extend(str(p) for p in getattr(metric, "synonyms", ()) if p)
        if getattr(metric, "statement", None):
            statements.add(str(metric.statement))
    return list(dict.fromkeys(p.lower() for p in phrases if len(p) > 2)), statements


def with_feedback(query: str, feedback: Verdict | None) -> str:
    """The query plus the judge's missing facets (retries look for what was missing)."""
    if feedback is None or not feedback.missing_facets:
        return query
    extra = " ".join(f for f in feedback.missing_facets if f and f.lower() not in query.lower())
    return f"{query} {extra}".strip()
