"""The rule-based router of DESIGN: which retrieval pipeline a question gets, and why.

- company / ticker / filings named          -> hybrid + metadata filter
- ... and a computation or comparison        -> hybrid + filter + rerank
- no company (open-ended)                   -> hybrid, broad recall (+ rerank if numeric)
- no usable keywords                        -> semantic only (fallback)
On a BM25-only index (`index.dense: none`) "hybrid" degrades to BM25 and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from finqa.agents.config import EscalationStep
from finqa.agents.retrieval.bm25 import tokenize
from finqa.agents.types import QueryAnalysis

__all__ = ["Route", "route"]


@dataclass(frozen=True)
class Route:
    name: str
    reason: str
    dense: bool
    bm25: bool
    filters: bool
    rerank: bool
    rse: bool
    k: int
    candidates: int


def route(
    analysis: QueryAnalysis,
    step: EscalationStep,
    *,
    has_target: bool,
    dense_available: bool,
    reranker_available: bool,
    filters_enabled: bool = True,
    rerank_all: bool = False,
) -> Route:
    """Pick the pipeline for one attempt; `has_target` = a company or filings were identified."""
    k, candidates = step.k, step.k * step.candidates_factor
    numeric = analysis.is_computation or analysis.is_comparison or bool(analysis.metrics)
    keywords = bool(tokenize(analysis.expanded_query or analysis.question))
    why: list[str] = []
    if not keywords and dense_available:
        return Route(
            "semantic",
            "no usable keywords for BM25: semantic search only",
            True,
            False,
            has_target and filters_enabled,
            False,
            step.rse,
            k,
            candidates,
        )
    use_filters = has_target and filters_enabled
    if use_filters:
        why.append("company/filing identified -> metadata filter")
    elif has_target:
        why.append("company identified but metadata filters are disabled")
    else:
        why.append("no company named -> broad recall over the whole index")
    rerank = (numeric or rerank_all) and reranker_available
    if rerank_all and not numeric and reranker_available:
        why.append("reranking every route (retrieval.rerank_routes: all)")
    if numeric:
        why.append(
            "numeric computation/comparison -> rerank"
            if reranker_available
            else "numeric question but no reranker configured"
        )
    base = "hybrid" if dense_available else "bm25"
    if not dense_available:
        why.append("index has no dense vectors (index.dense: none) -> BM25 only")
    name = base + ("+filter" if use_filters else "-broad") + ("+rerank" if rerank else "")
    if step.rse:
        why.append("escalated attempt -> relevant segment extraction")
    return Route(
        name, "; ".join(why), dense_available, True, use_filters, rerank, step.rse, k, candidates
    )
