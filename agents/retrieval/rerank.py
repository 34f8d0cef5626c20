"""Rerankers that work offline: a finance-aware feature reranker, and user cross-encoders.

No cross-encoder ships as a package, so the default (`retrieval.reranker: finance`) scores
each fused candidate with finance knowledge: the metric's line items (lexicon), the title of
the statement that reports the metric, the asked years appearing as column headers, table
density, query-term coverage, page position, the dense/BM25 scores and ranks it came
with, and how its filing's form and period fit the question (an annual report for a year
asked, that quarter's 10-Q or release for a quarter). The weights are a logistic regression
fitted on the development questions' gold pages, asked of a single-filing store and of a
shared store, with company-grouped cross-validation (`python -m finqa.benchmarks.fit_reranker`), shipped
in `reranker_model.json` with its out-of-fold figures; no scikit-learn at run time. A
cross-encoder directory (sentence-transformers `CrossEncoder`, or FlagEmbedding
`FlagReranker`, e.g. bge-reranker-large) replaces it when configured.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from finqa.agents.errors import RetrievalError
from finqa.agents.retrieval._chunk_stats import number_density
from finqa.agents.retrieval.analysis import analyze_question, metric_terms
from finqa.agents.retrieval.bm25 import token_set
from finqa.agents.retrieval.chunker import statement_of
from finqa.agents.types import Chunk, QueryAnalysis

__all__ = [
    "FEATURES",
    "HAND_WEIGHTS",
    "FinanceReranker",
    "CrossEncoderReranker",
    "LinearModel",
    "build_reranker",
    "doc_fit",
    "features",
    "query_terms",
]

# words of headings that say nothing about the topic ("Item 7.", "Consolidated Statements of")
_GENERIC_SECTION = frozenset(
    [
        "item",
        "part",
        "consolidated",
        "condensed",
        "statement",
        "note",
        "financial",
        "table",
        "content",
        "continued",
        "unaudited",
        "company",
        "subsidiary",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "7a",
        "8",
        "9",
        "9a",
        "10",
        "11",
        "12",
        "13",
        "14",
        "15",
        "1a",
        "1b",
    ]
)
# The hand-set weights this reranker shipped with before it was fitted; kept for comparison
# (`FinanceReranker.hand()`, `fit_reranker` reports both out of fold).
HAND_WEIGHTS = {
    "fused": 1.0,
    "metric": 0.8,
    "statement": 0.5,
    "year": 0.35,
    "table": 0.25,
    "coverage": 0.6,
    "section": 0.4,  # the heading names what the question asks about ("Legal Proceedings")
    "dense": 0.4,
    "dense_text": 1.0,  # dense weight for questions without figures (meaning beats keywords)
}
WEIGHTS = HAND_WEIGHTS  # backwards-compatible name
# Every feature `features()` computes, each in [0, 1]; the fitted model weighs these.
FEATURES = (
    "fused",  # 1 - fused rank / pool size
    "rrf",  # fused RRF score relative to the pool's best
    "dense",  # cosine to the query (questions with figures)
    "dense_text",  # cosine to the query (questions without figures)
    "dense_rr",  # 1 / rank in the dense list (0 when not in it)
    "bm25_rel",  # BM25 score relative to the pool's best
    "bm25_rr",  # 1 / rank in the BM25 list
    "stmt_list",  # came from the statement candidates of the asked metric's statement
    "metric",  # line-item phrases of the asked metrics (lexicon) in the text
    "statement",  # the page prints the title of the statement that reports the metric
    "section",  # the heading names what the question asks about
    "year",  # asked fiscal years appear (column headers)
    "table",  # number density, questions with figures
    "table_text",  # number density, questions without figures
    "coverage",  # share of query terms in section + text
    "page_pos",  # page / pages of the filing (front matter, statements, exhibits)
    "doc_form",  # the filing is of a form the question names (10-K, 10-Q, earnings release, 8-K)
    "doc_period",  # the filing's period granularity is the question's (a year: annual report;
    # a quarter: that quarter's 10-Q or release)
    "doc_release",  # the filing is an earnings release or other 8-K (not a periodic report)
)
ANNUAL_FORMS = frozenset(["10k", "10k_annualreport"])
RELEASE_FORMS = frozenset(["earnings", "8k"])
MODEL_FILE = Path(__file__).with_name("reranker_model.json")


@dataclass(frozen=True)
class LinearModel:
    """score = bias + sum(weights[f] * feature f); fitted by `finqa.benchmarks.fit_reranker`."""

    weights: Mapping[str, float]
    bias: float = 0.0
    name: str = "fitted"
    meta: Mapping[str, Any] = field(default_factory=dict)

    def score(self, feats: Mapping[str, float]) -> float:
        return self.bias + sum(w * feats.get(k, 0.0) for k, w in self.weights.items())

    @classmethod
    def load(cls, path: str | Path | None = None) -> LinearModel:
        """The packaged fitted model (or `path`); a missing or damaged file is a one-line error."""
        where = Path(path) if path is not None else MODEL_FILE
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
            weights = {str(k): float(v) for k, v in data["weights"].items()}
            unknown = set(weights) - set(FEATURES)
            if unknown:
                raise ValueError(f"unknown features {sorted(unknown)}")
            return cls(weights, float(data.get("bias", 0.0)), str(data.get("name", "fitted")), data)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise RetrievalError(f"cannot read reranker model {where}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        return {
            **dict(self.meta),
            "name": self.name,
            "bias": self.bias,
            "weights": dict(self.weights),
        }


def query_terms(analysis: QueryAnalysis, query: str) -> set[str]:
    """The query's BM25 terms (with the lexicon's expansion) that `coverage` counts."""
    return token_set(analysis.expanded_query or query) | token_set(query)


@functools.lru_cache(maxsize=16384)
def _section_terms(section: str) -> frozenset[str]:
    return frozenset(token_set(section) - _GENERIC_SECTION)


def features(
    analysis: QueryAnalysis,
    query: str,
    chunks: Sequence[Chunk],
    fused: Sequence[float],
    *,
    dense: Sequence[float] | None = None,
    titled: Sequence[bool] | None = None,
    signals: Sequence[Mapping[str, float]] | None = None,
    page_frac: Sequence[float] | None = None,
    coverage: Sequence[float] | None = None,
    density: Sequence[float] | None = None,
    filings: Sequence[Mapping[str, Any]] | None = None,
) -> list[dict[str, float]]:
    """The FEATURES of each candidate chunk. `fused`: incoming fused score (higher = better);
    `titled[i]`: chunk i's page itself prints its section's statement title; `signals[i]`: the
    candidate's per-list scores and ranks (`bm25`, `bm25_rank`, `dense_rank`, `statement`, `rrf`);
    `page_frac[i]`: page / pages of its filing; `coverage[i]`: share of `query_terms` in what
    the chunk was indexed with, and `density[i]`: its `number_density` (both read from the
    index when it has them, else computed here from section + text); `filings[i]`: its filing's
    catalogue metadata (`doc_type`, `period`), which the `doc_*` features compare with the form
    and period granularity the question asks about."""
    numeric = analysis.is_computation or analysis.is_comparison or bool(analysis.metrics)
    tabular = analysis.is_computation or bool(analysis.metrics)
    phrases, metric_statements = metric_terms(analysis.metrics)
    statements = set(analysis.statements) | metric_statements
    q_tokens = query_terms(analysis, query)
    years = [str(y) for y in analysis.fiscal_years]
    n = len(chunks)
    order = sorted(range(n), key=lambda i: -fused[i])
    fused_rank = {i: r for r, i in enumerate(order)}
    sig = list(signals) if signals is not None else [{} for _ in chunks]
    best_rrf = max((s.get("rrf", 0.0) for s in sig), default=0.0) or 1.0
    best_bm25 = max((s.get("bm25", 0.0) for s in sig), default=0.0) or 1.0
    out: list[dict[str, float]] = []
    for i, chunk in enumerate(chunks):
        text = chunk.text
        s = sig[i]
        feats = dict.fromkeys(FEATURES, 0.0)
        feats["fused"] = 1.0 - fused_rank[i] / max(n, 1)
        feats["rrf"] = s.get("rrf", 0.0) / best_rrf
        cosine = max(dense[i], 0.0) if dense is not None else 0.0
        feats["dense" if numeric else "dense_text"] = cosine
        feats["dense_rr"] = 1.0 / s["dense_rank"] if s.get("dense_rank") else 0.0
        feats["bm25_rel"] = max(s.get("bm25", 0.0), 0.0) / best_bm25
        feats["bm25_rr"] = 1.0 / s["bm25_rank"] if s.get("bm25_rank") else 0.0
        feats["stmt_list"] = float("statement_rank" in s)
        if phrases:
            low = text.lower()
            feats["metric"] = min(sum(1 for p in phrases if p in low) / min(len(phrases), 3), 1.0)
        kind = statement_of(chunk.section)
        on_page = titled[i] if titled is not None else True
        feats["statement"] = float(kind is not None and kind in statements and on_page)
        s_tokens = _section_terms(chunk.section) if chunk.section else frozenset()
        feats["section"] = len(s_tokens & q_tokens) / len(s_tokens) if s_tokens else 0.0
        feats["year"] = sum(1 for y in years if y in text) / len(years) if years else 0.0
        dens = density[i] if density is not None else number_density(text)
        feats["table" if tabular else "table_text"] = float(dens)
        if coverage is not None:
            feats["coverage"] = float(coverage[i])
        elif q_tokens:
            c_tokens = token_set(f"{chunk.section or ''} {text}")
            feats["coverage"] = len(q_tokens & c_tokens) / len(q_tokens)
        feats["page_pos"] = min(max(page_frac[i], 0.0), 1.0) if page_frac is not None else 0.0
        if filings is not None:
            feats.update(doc_fit(analysis, filings[i]))
        out.append(feats)
    return out


def doc_fit(analysis: QueryAnalysis, filing: Mapping[str, Any]) -> dict[str, float]:
    """How the filing's form and period fit what the question asks (the lexicon's reading of the
    question: named forms, quarters, fiscal years): `doc_form` the form is one the question
    names; `doc_period` a quarter asked and the filing is that quarter's (10-Q or release), or
    only years asked and the filing is an annual report; `doc_release` an earnings release/8-K."""
    kind = str(filing.get("doc_type") or "")
    period = str(filing.get("period") or "")
    out = {"doc_form": float(bool(kind) and kind in analysis.doc_types), "doc_period": 0.0}
    out["doc_release"] = float(kind in RELEASE_FORMS)
    if analysis.quarters:
        years = analysis.fiscal_years or ("",)
        asked = {f"{y}Q{q}" for y in years for q in analysis.quarters}
        out["doc_period"] = float(
            kind not in ANNUAL_FORMS and any(period.endswith(q) for q in asked)
        )
    elif analysis.fiscal_years:
        out["doc_period"] = float(kind in ANNUAL_FORMS)
    return out


class FinanceReranker:
    """Linear feature reranker: the packaged fitted model by default, or given weights.
    `rerank` uses the query analysis, `score` (the protocol) computes it from the text."""

    def __init__(
        self, weights: Mapping[str, float] | None = None, *, model: LinearModel | None = None
    ) -> None:
        if model is None:
            model = LinearModel(dict(weights), name="given") if weights else LinearModel.load()
        self.model = model
        self.name = f"finance:{model.name}"
        self.weights = dict(model.weights)

    @classmethod
    def hand(cls) -> FinanceReranker:
        """The hand-set weights (before fitting), for comparison."""
        return cls(model=LinearModel(HAND_WEIGHTS, name="hand"))

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        analysis = analyze_question(query)
        chunks = [
            Chunk(chunk_id=str(i), doc_id="", page=0, position=i, text=t)
            for i, t in enumerate(texts)
        ]
        return [s for s, _ in self.rerank(analysis, query, chunks, [0.0] * len(texts))]

    def rerank(
        self,
        analysis: QueryAnalysis,
        query: str,
        chunks: Sequence[Chunk],
        fused: Sequence[float],
        dense: Sequence[float] | None = None,
        titled: Sequence[bool] | None = None,
        signals: Sequence[Mapping[str, float]] | None = None,
        page_frac: Sequence[float] | None = None,
        coverage: Sequence[float] | None = None,
        density: Sequence[float] | None = None,
        filings: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[tuple[float, dict[str, float]]]:
        """(score, features) per chunk; see `features` for the arguments."""
        feats = features(
            analysis,
            query,
            chunks,
            fused,
            dense=dense,
            titled=titled,
            signals=signals,
            page_frac=page_frac,
            coverage=coverage,
            density=density,
            filings=filings,
        )
        if not feats:
            return []
        names = list(self.model.weights)
        weights = np.array([self.model.weights[k] for k in names], dtype=np.float64)
        matrix = np.array([[f.get(k, 0.0) for k in names] for f in feats], dtype=np.float64)
        scores = matrix @ weights + self.model.bias
        return [(float(score), f) for score, f in zip(scores, feats, strict=True)]


class CrossEncoderReranker:
    """A local cross-encoder directory (or cached HF id), loaded lazily and offline."""

    def __init__(self, model: str, backend: str = "auto", *, max_length: int = 512) -> None:
        self.name = model
        self.backend = backend
        self._model: Any = None
        self.max_length = max_length

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        if self.backend == "flagembedding":
            try:
                from FlagEmbedding import FlagReranker
            except ImportError:
                raise RetrievalError(
                    "retrieval.reranker_backend 'flagembedding' needs FlagEmbedding: pip install 'finqa[flag]' "
                    "(or set reranker_backend: sentence-transformers)"
                ) from None
            self._model = FlagReranker(self.name, use_fp16=False)
            return self._model
        try:
            from sentence_transformers import CrossEncoder

            self._model = CrossEncoder(self.name, max_length=self.max_length, device="cpu")
        except Exception as exc:  # noqa: BLE001 - any load failure becomes one clear RetrievalError
            raise RetrievalError(
                f"cannot load cross-encoder {self.name!r} offline: {str(exc).splitlines()[0][:160]}"
            ) from None
        return self._model

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        model = self._load()
        pairs = [[query, t] for t in texts]
        if self.backend == "flagembedding":
            raw = model.compute_score(pairs, normalize=True)
            return [float(x) for x in (raw if isinstance(raw, list) else [raw])]
        scores = model.predict(pairs, show_progress_bar=False)
        return [
            1.0 / (1.0 + math.exp(-float(s))) if not 0.0 <= float(s) <= 1.0 else float(s)
            for s in scores
        ]


def build_reranker(
    name: str, backend: str = "auto"
) -> FinanceReranker | CrossEncoderReranker | None:
    """`none` -> None, `finance` -> the fitted FinanceReranker, `finance-hand` -> its hand-set
    weights, `finance:PATH.json` -> a model written by fit_reranker; else a cross-encoder."""
    if name in ("none", "", "off"):
        return None
    if name == "finance":
        return FinanceReranker()
    if name == "finance-hand":
        return FinanceReranker.hand()
    if name.startswith("finance:"):
        return FinanceReranker(model=LinearModel.load(name.split(":", 1)[1]))
    return CrossEncoderReranker(name, backend)
