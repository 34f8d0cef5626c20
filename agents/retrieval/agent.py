"""RetrievalAgent: analysis -> route -> filters -> dense + BM25 -> RRF -> rerank -> RSE -> Evidence."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from finqa.agents.config import Settings
from finqa.agents.retrieval._chunk_stats import letters, number_density
from finqa.agents.retrieval.analysis import analyze_question, metric_terms, with_feedback
from finqa.agents.retrieval.bm25 import token_set, tokenize
from finqa.agents.retrieval.chunker import statement_of
from finqa.agents.retrieval.filters import FilterResult, resolve_filters
from finqa.agents.retrieval.fusion import Candidate, rrf_fuse
from finqa.agents.retrieval.page_scan import with_page_instructions
from finqa.agents.retrieval.rerank import (
    CrossEncoderReranker,
    FinanceReranker,
    build_reranker,
    query_terms,
)
from finqa.agents.retrieval.router import Route, route
from finqa.agents.retrieval.rse import extract_segments, join_chunks
from finqa.agents.retrieval.store import ChunkIndex, open_index
from finqa.agents.types import (
    CandidateVectors,
    Chunk,
    Embedder,
    Evidence,
    EvidenceItem,
    QueryAnalysis,
    Reranker,
    RetrievalPlan,
    Verdict,
)

__all__ = ["RetrievalAgent"]

_META = ("company", "ticker", "doc_type", "fiscal_year", "period", "fy_label")


class RetrievalAgent:
    """Satisfies `finqa.agents.types.Retriever`; every decision is recorded in `Evidence.plan`."""

    def __init__(
        self,
        settings: Settings,
        index: ChunkIndex | None = None,
        *,
        embedder: Embedder | None = None,
        reranker: Reranker | FinanceReranker | None = None,
        candidate_vectors: CandidateVectors | None = None,
    ) -> None:
        """`candidate_vectors`: on an index without vectors, where the query's and candidates'
        vectors come from (the reranker's cosine features; without it they stay 0)."""
        self.settings = settings
        self.candidate_vectors = candidate_vectors
        self.index = index if index is not None else open_index(settings, create=False)
        self._embedder = embedder
        self._titled: dict[tuple[str, int, str], bool] = {}  # (doc, page, section) -> title on page
        self._vectors: dict[str, list[float]] = {}  # query text -> its embedding
        cfg = settings.retrieval
        self.reranker: Any = (
            reranker if reranker is not None else build_reranker(cfg.reranker, cfg.reranker_backend)
        )

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from finqa.agents.retrieval.embedder import query_embedder

            self._embedder = query_embedder(self.index, self.settings)
        return self._embedder

    # ------------------------------------------------------------------ public API
    def page_label(self, doc_id: str, page: int) -> str | None:
        """The printed page number of a filing's 0-based page, when ingest read one (EDGAR
        page footers, PDF page labels); None otherwise (`PageLabeller`)."""
        rec = self.index.catalog().get(doc_id)
        labels = rec.meta.get("page_labels") if rec is not None else None
        if isinstance(labels, list) and 0 <= page < len(labels) and labels[page]:
            return str(labels[page])
        return None

    def retrieve(
        self,
        question: str,
        attempt: int,
        *,
        company: str | None = None,
        doc_ids: Sequence[str] | None = None,
        feedback: Verdict | None = None,
    ) -> Evidence:
        started = time.perf_counter()
        cfg = self.settings.retrieval
        query = with_feedback(question, feedback)
        analysis = analyze_question(query)
        relax = attempt >= cfg.relax_periods_from_attempt
        filt = resolve_filters(
            analysis, self.index.catalog(), company=company, doc_ids=doc_ids, use_periods=not relax
        )
        plan_route = route(
            analysis,
            cfg.step(attempt),
            has_target=filt.doc_ids is not None,
            dense_available=self.index.dense,
            reranker_available=self.reranker is not None,
            filters_enabled=cfg.use_metadata_filters or doc_ids is not None,
            rerank_all=cfg.rerank_routes == "all",
        )
        if relax and filt.applied:
            filt = FilterResult(
                filt.doc_ids,
                filt.applied,
                filt.reason + f"; attempt {attempt}: period filter relaxed",
            )
        return self.run(
            question, analysis, plan_route, filt, attempt=attempt, query=query, started=started
        )

    def run(
        self,
        question: str,
        analysis: QueryAnalysis,
        plan_route: Route,
        filt: FilterResult,
        *,
        attempt: int = 1,
        query: str | None = None,
        started: float | None = None,
    ) -> Evidence:
        """Execute a given route (the benchmark calls this with each configuration)."""
        t0 = started if started is not None else time.perf_counter()
        query = query or question
        scope = filt.doc_ids if plan_route.filters else None
        plan = RetrievalPlan(
            attempt=attempt,
            route=plan_route.name,
            k=plan_route.k,
            candidates=plan_route.candidates,
            rse=plan_route.rse,
            filters=filt.applied if plan_route.filters else {},
            query=query,
            analysis=analysis,
            reason=f"{plan_route.reason}; filters: {filt.reason}",
        )
        if filt.unknown_company or (scope is not None and not scope):
            return Evidence(
                question=question,
                plan=plan.model_copy(update={"reason": f"no evidence: {filt.reason}"}),
                latency_ms=(time.perf_counter() - t0) * 1000,
            )
        items = self._pipeline(query, analysis, plan_route, scope)
        items = with_page_instructions(items, self.index.page_chunks)  # the whole cited page
        if not items:
            plan = plan.model_copy(
                update={
                    "reason": plan.reason + "; nothing matched the query in the selected filings"
                }
            )
        evidence = Evidence(
            question=question,
            items=tuple(items),
            plan=plan,
            latency_ms=(time.perf_counter() - t0) * 1000,
        )
        return evidence

    # ------------------------------------------------------------------ stages
    def _pipeline(
        self, query: str, analysis: QueryAnalysis, r: Route, scope: list[str] | None
    ) -> list[EvidenceItem]:
        fused, chunks, vector = self.candidates(query, analysis, r, scope)
        if not fused:
            return []
        if r.rerank and self.reranker is not None:
            self._rerank(query, analysis, fused, chunks, vector)
            fused.sort(key=lambda c: -c.scores["rerank"])
        if r.rse:
            return self._segments(fused, chunks, r.k)
        if self.settings.retrieval.unit == "page":
            full = self.index.page_chunks if self.settings.retrieval.page_text == "full" else None
            return _page_items(fused, chunks, r.k, full_page=full)
        return [_item(i, [chunks[c.chunk_id]], c.scores) for i, c in enumerate(fused[: r.k], 1)]

    def candidates(
        self, query: str, analysis: QueryAnalysis, r: Route, scope: list[str] | None
    ) -> tuple[list[Candidate], dict[str, Chunk], list[float] | None]:
        """The fused candidate pool of a route (before reranking), its chunks and the query vector."""
        n = r.candidates if (r.rerank or r.rse) else r.k
        lists: dict[str, list[tuple[str, float]]] = {}
        vector: list[float] | None = None
        if r.dense and self.index.dense:
            vector = self._query_vector(query)
            lists["dense"] = self.index.dense_search(vector, n, scope)
        if r.bm25:
            tokens = tokenize(f"{analysis.expanded_query or ''} {query}")
            docs = scope if scope is not None else list(self.index.catalog())
            lists["bm25"] = self.index.bm25.search(tokens, docs, n)
        if r.bm25 and r.rerank and scope and len(scope) <= 8:  # finance-aware candidate expansion
            statement_list = self._statement_candidates(analysis, scope, tokens, n)
            if statement_list:
                lists["statement"] = statement_list
        fused = rrf_fuse(lists, k=self.settings.retrieval.rrf_k)[:n]
        if not fused:
            return [], {}, vector
        chunks = self.index.get_chunks(c.chunk_id for c in fused)
        fused = [c for c in fused if c.chunk_id in chunks]
        if vector is None and self.candidate_vectors is not None and fused:
            vector = self._cosines_from(self.candidate_vectors, query, fused)
        return fused, chunks, vector

    @staticmethod
    def _cosines_from(source: CandidateVectors, query: str, fused: list[Candidate]) -> list[float]:
        """Score the candidates by cosine to the query with vectors from `source`."""
        import numpy as np

        q = np.asarray(source.query(query), dtype=np.float32)
        for cand, vec in zip(fused, source.chunks([c.chunk_id for c in fused]), strict=True):
            if vec is not None:
                cand.scores["dense"] = float(np.asarray(vec, dtype=np.float32) @ q)
        return [float(v) for v in q]

    def warm(self) -> None:
        """Load what a first query would otherwise pay for: the embedder (one embedding) and
        the Chroma collection of a dense index (a process serving many questions pays once)."""
        if self.index.dense:
            self.embedder.embed(["warm up"])
            _ = self.index.collection

    def _query_vector(self, query: str) -> list[float]:
        """The query's embedding; a retry of the same question reuses it (bounded cache)."""
        cache = self._vectors
        if query not in cache:
            if len(cache) >= 256:
                cache.pop(next(iter(cache)))
            cache[query] = list(self.embedder.embed([query])[0])
        return cache[query]

    def _statement_candidates(
        self, analysis: QueryAnalysis, scope: list[str], tokens: list[str], n: int
    ) -> list[tuple[str, float]]:
        """Chunks of the statements the question's metrics live in (structure-aware recall)."""
        _, metric_statements = metric_terms(analysis.metrics)
        wanted = set(analysis.statements) | metric_statements
        if not wanted:
            return []
        found: list[tuple[str, float]] = []
        for doc_id in scope:
            ids = {cid for cid, sec in self.index.sections(doc_id) if statement_of(sec) in wanted}
            found.extend(self.index.bm25.score_ids(tokens, doc_id, ids).items())
        found.sort(key=lambda x: -x[1])
        return found[:n]

    def _rerank(
        self,
        query: str,
        analysis: QueryAnalysis,
        fused: list[Candidate],
        chunks: dict[str, Chunk],
        vector: list[float] | None,
    ) -> None:
        texts = [chunks[c.chunk_id] for c in fused]
        if isinstance(self.reranker, FinanceReranker):
            results = self.reranker.rerank(
                analysis, query, texts, **self.rerank_inputs(analysis, query, fused, chunks, vector)
            )
            for cand, (score, feats) in zip(fused, results, strict=True):
                cand.scores["rerank"] = score
                cand.scores.update({f"f_{k}": v for k, v in feats.items() if v})
        else:
            reranker: Reranker | CrossEncoderReranker = self.reranker
            for cand, score in zip(
                fused, reranker.score(query, [c.text for c in texts]), strict=True
            ):
                cand.scores["rerank"] = float(score)

    def rerank_inputs(
        self,
        analysis: QueryAnalysis,
        query: str,
        fused: list[Candidate],
        chunks: dict[str, Chunk],
        vector: list[float] | None,
    ) -> dict[str, Any]:
        """What the finance reranker reads besides the text: fused score, cosine to the query,
        statement title on the page, per-list scores/ranks, page position in the filing, and
        query-term coverage and number density (from the filings' BM25 partitions)."""
        texts = [chunks[c.chunk_id] for c in fused]
        catalog = self.index.catalog()

        def frac(chunk: Chunk) -> float:
            rec = catalog.get(chunk.doc_id)
            return chunk.page / max(rec.n_pages - 1, 1) if rec and rec.n_pages else 0.0

        coverage, density, titled = self._chunk_stats(texts, query_terms(analysis, query))
        return {
            "fused": [c.scores["rrf"] for c in fused],
            "dense": self._dense_scores(fused, vector) if vector is not None else None,
            "titled": titled,
            "signals": [dict(c.scores) for c in fused],
            "page_frac": [frac(c) for c in texts],
            "coverage": coverage,
            "density": density,
            "filings": [catalog[c.doc_id].meta if c.doc_id in catalog else {} for c in texts],
        }

    def _chunk_stats(
        self, texts: list[Chunk], terms: set[str]
    ) -> tuple[list[float], list[float], list[bool]]:
        """Per candidate: share of the query terms its filing's BM25 partition indexed for it
        (postings, vectorised per filing), number density and title-on-page (stored in the
        partition at ingest; computed here for partitions built before that)."""
        n = len(texts)
        coverage = [0.0] * n
        density: list[float] = [0.0] * n
        titled = [False] * n
        by_doc: dict[str, list[int]] = {}
        for i, chunk in enumerate(texts):
            by_doc.setdefault(chunk.doc_id, []).append(i)
        for doc_id, members in by_doc.items():
            part = self.index.bm25.get(doc_id)
            counts = part.term_counts(terms) if part is not None and terms else None
            for i in members:
                chunk = texts[i]
                row = part.row(chunk.chunk_id) if part is not None else None
                if row is None or part is None:
                    got = token_set(f"{chunk.section or ''} {chunk.text}")
                    coverage[i] = len(terms & got) / len(terms) if terms else 0.0
                    density[i] = number_density(chunk.text)
                    titled[i] = self._title_on_page(chunk)
                    continue
                if counts is not None:
                    coverage[i] = float(counts[row]) / len(terms)
                stored = part.density
                density[i] = (
                    float(stored[row]) if stored is not None else number_density(chunk.text)
                )
                flags = part.titled
                titled[i] = bool(flags[row]) if flags is not None else self._title_on_page(chunk)
        return coverage, density, titled

    def _title_on_page(self, chunk: Chunk) -> bool:
        """Whether the chunk's page shows its section title (for partitions without it)."""
        if not chunk.section:
            return False
        key = (chunk.doc_id, chunk.page, chunk.section)
        cache = self._titled
        if key not in cache:
            if len(cache) > 50_000:
                cache.clear()
            first = self.index.first_text(chunk.doc_id, chunk.page)
            cache[key] = letters(chunk.section) in letters(
                first if first is not None else chunk.text
            )
        return cache[key]

    def _dense_scores(self, fused: list[Candidate], vector: list[float]) -> list[float]:
        """Cosine of every candidate to the query; candidates the dense list did not return are
        scored from their filing's vectors (local copy, else fetched from Chroma once)."""
        missing = [c.chunk_id for c in fused if "dense" not in c.scores]
        if missing:
            import numpy as np

            q = np.asarray(vector, dtype=np.float32)
            by_id: dict[str, float] = {}
            for doc_id in dict.fromkeys(cid.rsplit("#", 1)[0] for cid in missing):
                got = self.index.vectors.get(doc_id, lambda: self.index.collection)
                if got is None:
                    continue
                row = {cid: i for i, cid in enumerate(got[0])}
                for cid in missing:
                    if cid in row:
                        by_id[cid] = float(got[1][row[cid]] @ q)
            for cand in fused:
                if cand.chunk_id in by_id:
                    cand.scores["dense"] = by_id[cand.chunk_id]
        return [c.scores.get("dense", 0.0) for c in fused]

    def _segments(
        self, fused: list[Candidate], chunks: dict[str, Chunk], k: int
    ) -> list[EvidenceItem]:
        cfg = self.settings.retrieval
        ranked = [(chunks[c.chunk_id], c.score) for c in fused]
        segments = extract_segments(
            ranked,
            max_chars=cfg.rse_max_chars,
            min_score=cfg.rse_min_score,
            fetch=self.index.neighbours,
        )
        by_id = {c.chunk_id: c for c in fused}
        items: list[EvidenceItem] = []
        for i, seg in enumerate(segments[:k], 1):
            best = max(
                (by_id[c.chunk_id] for c in seg.chunks if c.chunk_id in by_id),
                key=lambda c: c.score,
            )
            scores = dict(best.scores)
            scores["segment"] = seg.score
            items.append(_item(i, list(seg.chunks), scores, text=seg.text))
        return items


def _page_items(
    fused: list[Candidate],
    chunks: dict[str, Chunk],
    k: int,
    *,
    full_page: Callable[[str, int], list[Chunk]] | None = None,
) -> list[EvidenceItem]:
    """One item per (filing, page), ranked by its best chunk; the page's matching chunks joined
    in order, or all of the page's chunks when `full_page` is given."""
    groups: dict[tuple[str, int], list[Candidate]] = {}
    for cand in fused:
        chunk = chunks[cand.chunk_id]
        key = (chunk.doc_id, chunk.page)
        if key in groups or len(groups) < k:
            groups.setdefault(key, []).append(cand)
    items: list[EvidenceItem] = []
    for rank, members in enumerate(groups.values(), 1):
        ordered = sorted((chunks[c.chunk_id] for c in members), key=lambda c: c.position)
        if full_page is not None:
            ordered = full_page(ordered[0].doc_id, ordered[0].page) or ordered
        scores = dict(members[0].scores)
        scores["page_chunks"] = float(len(members))
        items.append(_item(rank, ordered, scores, text=join_chunks(ordered)))
    return items


def _item(
    rank: int, chunks: list[Chunk], scores: dict[str, float], *, text: str | None = None
) -> EvidenceItem:
    first = chunks[0]
    pages = sorted({p for c in chunks for p in range(c.page, (c.page_end or c.page) + 1)})
    meta: dict[str, Any] = {k: getattr(first, k) for k in _META if getattr(first, k) is not None}
    meta["positions"] = [c.position for c in chunks]
    # each chunk's own section: a page can end one part of the filing and open the next (the
    # judge reads a quoted sentence's part from its chunk: a risk factor is no fact)
    meta["sections"] = [c.section for c in chunks]
    return EvidenceItem(
        source_id=f"S{rank}",
        doc_id=first.doc_id,
        pages=tuple(pages),
        chunk_ids=tuple(c.chunk_id for c in chunks),
        text=text if text is not None else first.text,
        section=first.section,
        scores={k: round(float(v), 6) for k, v in scores.items()},
        metadata=meta,
    )
