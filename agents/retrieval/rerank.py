"""Rerankers that work offline: a finance-aware feature reranker, and user cross-encoders.

No cross-encoder ships as a package, so the default (`retrieval.reranker: finance`) scores
each fused candidate with finance knowledge: the metric's line items (lexicon), the title of
the statement that reports the metric, the asked years appearing as column headers, table
density for computations, query-term coverage, and the fused rank it came with. A
cross-encoder directory (sentence-transformers `CrossEncoder`, or FlagEmbedding
`FlagReranker`, e.g. bge-reranker-large) replaces it when configured.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from finqa.agents.errors import RetrievalError
from finqa.agents.retrieval.analysis import analyze_question, metric_terms
from finqa.agents.retrieval.bm25 import tokenize
from finqa.agents.retrieval.chunker import statement_of
from finqa.agents.types import Chunk, QueryAnalysis

__all__ = ["FinanceReranker", "CrossEncoderReranker", "build_reranker"]

_NUMBER = re.compile(r"\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?")
_WORD = re.compile(r"\S+")
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
WEIGHTS = {
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


class FinanceReranker:
    """Feature reranker; `rerank` uses the query analysis, `score` (the protocol) computes it."""

    name = "finance"

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        self.weights = {**WEIGHTS, **(weights or {})}

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
    ) -> list[tuple[float, dict[str, float]]]:
        """(score, features) per chunk; `fused` is the incoming fused score (higher = better);
        `titled[i]` says whether chunk i's page itself carries its section's statement title."""
        numeric = analysis.is_computation or analysis.is_comparison or bool(analysis.metrics)
        phrases, metric_statements = metric_terms(analysis.metrics)
        statements = set(analysis.statements) | metric_statements
        q_tokens = set(tokenize(analysis.expanded_query or query)) | set(tokenize(query))
        years = [str(y) for y in analysis.fiscal_years]
        n = len(chunks)
        order = sorted(range(n), key=lambda i: -fused[i])
        fused_rank = {i: r for r, i in enumerate(order)}
        out: list[tuple[float, dict[str, float]]] = []
        for i, chunk in enumerate(chunks):
            text = chunk.text
            low = text.lower()
            feats: dict[str, float] = {"fused": 1.0 - fused_rank[i] / max(n, 1)}
            feats["metric"] = (
                (sum(1 for p in phrases if p in low) / min(len(phrases), 3)) if phrases else 0.0
            )
            feats["metric"] = min(feats["metric"], 1.0)
            kind = statement_of(chunk.section)
            on_page = titled[i] if titled is not None else True
            feats["statement"] = float(kind is not None and kind in statements and on_page)
            s_tokens = set(tokenize(chunk.section or "")) - _GENERIC_SECTION
            feats["section"] = len(s_tokens & q_tokens) / len(s_tokens) if s_tokens else 0.0
            feats["year"] = sum(1 for y in years if y in text) / len(years) if years else 0.0
            words = len(_WORD.findall(text)) or 1
            density = min(len(_NUMBER.findall(text)) / words * 2.5, 1.0)
            feats["table"] = density if (analysis.is_computation or analysis.metrics) else 0.0
            c_tokens = set(tokenize(f"{chunk.section or ''} {text}"))
            feats["coverage"] = len(q_tokens & c_tokens) / len(q_tokens) if q_tokens else 0.0
            if dense is not None:
                feats["dense"] = max(dense[i], 0.0)
            weights = (
                self.weights if numeric else {**self.weights, "dense": self.weights["dense_text"]}
            )
            score = sum(weights.get(k, 0.0) * v for k, v in feats.items())
            out.append((score, feats))
        return out


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
    """`none` -> None, `finance` -> FinanceReranker, anything else -> a cross-encoder."""
    if name in ("none", "", "off"):
        return None
    if name == "finance":
        return FinanceReranker()
    return CrossEncoderReranker(name, backend)
