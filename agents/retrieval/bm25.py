"""BM25 over chunks: rank-bm25 behind an adapter, partitioned per filing and persisted.

rank-bm25 scans every document for every query term, so one corpus-wide BM25 over the
shared store costs ~1 s a query. Partitions per filing keep each query to the filings the
metadata filters selected. The adapter fixes rank-bm25's sharp edges: an empty corpus
(ZeroDivisionError) and `assert`-based index checks.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from finqa.agents.logs import get_logger
from finqa.agents.retrieval._bm25_union import PartitionUnion

__all__ = ["tokenize", "token_set", "BM25Partition", "BM25Store"]

_log = get_logger("finqa.bm25")

UNION_FROM = 16  # a scope of this many partitions or more is scored as one union

_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "what",
        "which",
        "with",
        "how",
        "much",
        "many",
        "did",
        "does",
        "do",
        "their",
        "there",
        "been",
        "than",
        "then",
        "these",
        "those",
        "during",
        "per",
        "based",
        "total",
    ]
)


def _stem(token: str) -> str:
    if token[0].isdigit():
        return token.replace(",", "")
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


_STEMS: dict[str, str] = {}  # token -> stem; a cache tests may clear (bounded below)


def _stemmed(token: str) -> str:
    stem = _STEMS.get(token)
    if stem is None:
        if len(_STEMS) > 500_000:
            _STEMS.clear()
        stem = _STEMS[token] = _stem(token)
    return stem


def tokenize(text: str) -> list[str]:
    """Lower-case word/number tokens, stop words dropped, plurals folded, '1,234' -> '1234'."""
    return [_stemmed(t) for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


def token_set(text: str) -> set[str]:
    """`set(tokenize(text))`, stemming each distinct word once."""
    raw = set(_TOKEN.findall(text.lower()))
    raw -= STOPWORDS
    return {_stemmed(t) for t in raw}


class BM25Partition:
    """BM25Okapi over one filing's chunks, compiled to postings arrays; safe on empty input.

    rank-bm25 computes the statistics (idf with its epsilon floor, document lengths, k1, b);
    the per-term weights idf * tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl)) are then stored
    as postings, so a query costs O(postings of its terms) instead of a Python scan of every
    chunk per term. Scores equal `BM25Okapi.get_scores` exactly.
    """

    upgraded = False  # set on a partition unpickled from the pre-compilation format

    def __init__(
        self,
        chunk_ids: Sequence[str],
        token_lists: Sequence[Sequence[str]],
        *,
        density: Sequence[float] | np.ndarray | None = None,
        titled: Sequence[bool] | np.ndarray | None = None,
    ) -> None:
        self.chunk_ids = list(chunk_ids)
        self.content_hash: str | None = None  # the filing version it was built from, when known
        # per-chunk reranker statistics (`_chunk_stats`); None in partitions built before them
        self.density = None if density is None else np.asarray(density, dtype=np.float32)
        self.titled = None if titled is None else np.asarray(titled, dtype=bool)
        self._rows: dict[str, int] | None = None
        docs = [list(t) for t in token_lists]
        self._terms: dict[str, tuple[int, int]] = {}
        self._idx = np.zeros(0, dtype=np.int32)
        self._w = np.zeros(0, dtype=np.float32)
        self._tf: np.ndarray | None = np.zeros(0, dtype=np.float32)  # tf part, for a shared idf
        if any(docs):
            from rank_bm25 import BM25Okapi

            self._compile(BM25Okapi(docs))

    def _compile(self, bm25: Any) -> None:
        dl = np.asarray(bm25.doc_len, dtype=np.float64)
        norm = bm25.k1 * (1 - bm25.b + bm25.b * dl / bm25.avgdl)
        postings: dict[str, list[tuple[int, int]]] = {}
        for i, freqs in enumerate(bm25.doc_freqs):
            for term, tf in freqs.items():
                postings.setdefault(term, []).append((i, tf))
        idx: list[int] = []
        weights: list[float] = []
        tf_parts: list[float] = []
        for term, plist in postings.items():
            idf = float(bm25.idf.get(term) or 0.0)
            start = len(idx)
            for i, tf in plist:
                idx.append(i)
                part = tf * (bm25.k1 + 1) / (tf + norm[i])
                tf_parts.append(part)
                weights.append(idf * part)
            self._terms[term] = (start, len(idx))
        self._idx = np.asarray(idx, dtype=np.int32)
        self._w = np.asarray(weights, dtype=np.float32)
        self._tf = np.asarray(tf_parts, dtype=np.float32)

    def __setstate__(self, state: dict[str, Any]) -> None:
        old = state.pop("_bm25", None)  # partitions pickled before compilation existed
        self.__dict__.update(state)
        if "_tf" not in state:  # compiled before shared idf existed: local idf only
            self._tf = None
        if "content_hash" not in state:
            self.content_hash = None
        for name in ("density", "titled"):
            state.setdefault(name, None)
            setattr(self, name, state[name])
        self._rows = None
        if "_terms" not in state:
            self._terms, self._idx, self._w = (
                {},
                np.zeros(0, dtype=np.int32),
                np.zeros(0, dtype=np.float32),
            )
            if old is not None:
                self._compile(old)
                self.upgraded = True

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_rows", None)  # a lookup rebuilt on demand
        return state

    def __len__(self) -> int:
        return len(self.chunk_ids)

    def row(self, chunk_id: str) -> int | None:
        """The chunk's row in this partition (None when it is not in it)."""
        if self._rows is None:
            self._rows = {cid: i for i, cid in enumerate(self.chunk_ids)}
        return self._rows.get(chunk_id)

    def term_counts(self, terms: Iterable[str]) -> np.ndarray:
        """How many of the distinct `terms` each chunk contains, read from the postings."""
        out = np.zeros(len(self.chunk_ids), dtype=np.float32)
        for term in set(terms):
            span = self._terms.get(term)
            if span is not None:
                out[self._idx[span[0] : span[1]]] += 1.0
        return out

    def df(self, term: str) -> int:
        """Number of chunks containing the term."""
        span = self._terms.get(term)
        return span[1] - span[0] if span else 0

    def scores(
        self, query_tokens: Sequence[str], idf: dict[str, float] | None = None
    ) -> np.ndarray:
        """rank-bm25 scores; with `idf` (shared across partitions) the term weights use it instead."""
        out = np.zeros(len(self.chunk_ids), dtype=np.float64)
        shared = idf is not None and self._tf is not None
        for term in query_tokens:
            span = self._terms.get(term)
            if span is None:
                continue
            sl = slice(span[0], span[1])
            if shared and idf is not None and self._tf is not None:
                out[self._idx[sl]] += idf.get(term, 0.0) * self._tf[sl]
            else:
                out[self._idx[sl]] += self._w[sl]
        return out


class BM25Store:
    """Per-filing partitions pickled under `dir/`, with an in-process LRU of loaded ones.

    With `rebuild` (doc_id -> partition from the chunk store), a partition file that cannot be
    read (truncated, corrupted) or is missing is rebuilt and rewritten; with `current`
    (doc_id -> committed content hash), one built from another version of the filing too.
    """

    def __init__(
        self,
        directory: Path,
        *,
        cache_size: int = 512,
        rebuild: Callable[[str], BM25Partition | None] | None = None,
        current: Callable[[str], str | None] | None = None,
    ) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self._cache: OrderedDict[str, BM25Partition] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._rebuild = rebuild
        self._current = current
        self.rebuilt: list[tuple[str, str]] = []  # (doc_id, why) this process rebuilt
        # broad scopes scored as one union, keyed by the partitions' identities (a rewritten
        # or reloaded partition is another object, so a stale union is never used)
        self._unions: OrderedDict[tuple[int, ...], PartitionUnion] = OrderedDict()

    def _file(self, doc_id: str) -> Path:
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", doc_id)
        return self.dir / f"{safe}.pkl"

    def write(self, doc_id: str, partition: BM25Partition) -> None:
        tmp = self._file(doc_id).with_suffix(".tmp")
        with tmp.open("wb") as fh:
            pickle.dump(partition, fh, protocol=pickle.HIGHEST_PROTOCOL)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self._file(doc_id))
        with self._lock:
            self._cache.pop(doc_id, None)

    def delete(self, doc_id: str) -> None:
        self._file(doc_id).unlink(missing_ok=True)
        with self._lock:
            self._cache.pop(doc_id, None)

    def get(self, doc_id: str) -> BM25Partition | None:
        with self._lock:
            hit = self._cache.get(doc_id)
            if hit is not None:
                self._cache.move_to_end(doc_id)
                return hit
        partition, why = self._read(doc_id)
        want = self._current(doc_id) if self._current is not None else None
        if partition is not None and want and partition.content_hash not in (None, want):
            partition, why = None, "built from another version of the filing"
        if partition is None:
            if self._rebuild is None:
                return None
            partition = self._rebuild(doc_id)
            if partition is None:
                return None
            self.rebuilt.append((doc_id, why))
            first_use = why.startswith("no local partition")
            (_log.info if first_use else _log.warning)("bm25.rebuilt", doc_id=doc_id, reason=why)
            with contextlib.suppress(OSError):
                self.write(doc_id, partition)
        elif partition.upgraded:
            partition.upgraded = False
            # rewrite in the compiled format once; a read-only index just stays slower
            with contextlib.suppress(OSError):
                self.write(doc_id, partition)
        with self._lock:
            self._cache[doc_id] = partition
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return partition

    def _read(self, doc_id: str) -> tuple[BM25Partition | None, str]:
        """The pickled partition, or None and why not (missing, unreadable)."""
        path = self._file(doc_id)
        if not path.exists():
            return None, "no local partition (first use on this machine)"
        try:
            with path.open("rb") as fh:
                partition = pickle.load(fh)  # noqa: S301 - our own index files
            if not isinstance(partition, BM25Partition):
                raise TypeError(type(partition).__name__)
        except Exception as exc:  # noqa: BLE001 - truncated or corrupted file (any unpickling error): rebuilt from the chunk store
            return None, f"unreadable partition ({type(exc).__name__})"
        return partition, ""

    def _union(self, loaded: list[BM25Partition]) -> PartitionUnion:
        """The union of these loaded partitions (a few kept, least recently used dropped)."""
        key = tuple(id(p) for p in loaded)
        with self._lock:
            union = self._unions.get(key)
            if union is not None:
                self._unions.move_to_end(key)
                return union
        union = PartitionUnion(loaded)
        with self._lock:
            self._unions[key] = union
            while len(self._unions) > 4:
                self._unions.popitem(last=False)
        return union

    def score_ids(
        self, query_tokens: Sequence[str], doc_id: str, chunk_ids: set[str]
    ) -> dict[str, float]:
        """BM25 scores of some chunks of one filing."""
        partition = self.get(doc_id)
        if partition is None or not chunk_ids:
            return {}
        scores = partition.scores(query_tokens)
        rows = sorted(r for r in (partition.row(c) for c in chunk_ids) if r is not None)
        return {partition.chunk_ids[i]: float(scores[i]) for i in rows}

    def search(
        self, query_tokens: Sequence[str], doc_ids: Sequence[str], n: int
    ) -> list[tuple[str, float]]:
        """Top-n (chunk_id, score) over the given filings' partitions (score > 0 only).

        Over several filings the idf is computed across all of them (Lucene's
        log(1 + (N - df + 0.5) / (df + 0.5))), so scores are comparable between filings; over
        one filing the scores are rank-bm25's own.
        """
        loaded = [p for p in (self.get(d) for d in doc_ids) if p is not None and len(p)]
        if not loaded or n <= 0:
            return []
        union = self._union(loaded) if len(loaded) >= UNION_FROM else None
        df_of = union.df if union is not None else (lambda t: sum(p.df(t) for p in loaded))
        idf: dict[str, float] | None = None
        if len(loaded) > 1:
            total = sum(len(p) for p in loaded)
            idf = {}
            for term in set(query_tokens):
                df = df_of(term)
                idf[term] = math.log(1.0 + (total - df + 0.5) / (df + 0.5)) if df else 0.0
        if union is not None:
            ids, scores = union.ids, union.scores(query_tokens, idf)
        else:
            ids = [cid for p in loaded for cid in p.chunk_ids]
            scores = np.concatenate([p.scores(query_tokens, idf) for p in loaded])
        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(ids[i], float(scores[i])) for i in top if scores[i] > 0]
