"""Query analysis for retrieval: the lexicon's `analyze` (one reader of years, quarters,
statements and doc types for the whole product; no parallel regexes here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finqa.agents.types import QueryAnalysis, Verdict

__all__ = ["analyze_question", "metric_terms", "primary_year", "with_feedback"]


def analyze_question(question: str) -> QueryAnalysis:
    """lexicon.analyze(question); a bare analysis (no filters) when the lexicon fails on it."""
    from finqa.lexicon import analyze

    try:
        result: QueryAnalysis = analyze(question)
    except Exception as exc:  # noqa: BLE001 - a lexicon bug must not stop retrieval
        return QueryAnalysis(
            question=question,
            expanded_query=question,
            notes=(f"lexicon.analyze failed: {type(exc).__name__}",),
        )
    return result


def primary_year(analysis: QueryAnalysis, fy_label: str | None = None) -> int | None:
    """The fiscal year the question is mainly about (lexicon rule, else the latest year named).
    `fy_label`: a filing's own naming of its years ('start': its 'fiscal 2023' is FY2024),
    which wins over the gazetteer's naming of the company."""
    if not analysis.fiscal_years:
        return None
    try:
        from finqa.lexicon import find_periods, primary_fiscal_year

        company = analysis.companies[0] if analysis.companies else None
        found = find_periods(analysis.question, company, fy_label=fy_label)
        year: int | None = primary_fiscal_year(found)
    except Exception:  # noqa: BLE001 - lexicon failing on odd text: fall back to the latest year
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
        except KeyError:  # a metric id the catalogue does not know (UnknownMetricError)
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
