"""Many BM25 partitions scored as one: a query over a broad scope (no company named, a
company with many filings) pays per query term, not per term and filing.

Scoring partition by partition costs a few numpy calls per (term, filing): ~80 ms a query
over the 344 filings of the shared store. A union concatenates the partitions' chunk ids
once and, per query term, their postings (rows shifted to the union's row numbers), kept in
a bounded cache; the scores are the same numbers in the same order as scoring the
partitions one by one and concatenating.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["PartitionUnion"]

# (rows in the union, tf part (shared idf), weight (own idf), uses the shared idf)
_Postings = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class PartitionUnion:
    """Concatenated chunk ids and per-term postings of a fixed list of partitions
    (`bm25.BM25Partition`s: their compiled `_terms`, `_idx`, `_w` and `_tf` arrays)."""

    def __init__(self, parts: Sequence[Any], *, max_postings: int = 4_000_000) -> None:
        self.parts = list(parts)
        self.ids: list[str] = []
        self.offsets: list[int] = []
        for part in self.parts:
            self.offsets.append(len(self.ids))
            self.ids.extend(part.chunk_ids)
        self._terms: OrderedDict[str, _Postings] = OrderedDict()
        self._held = 0  # postings held in the term cache
        self._max = max_postings
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def postings(self, term: str) -> _Postings:
        """The term's postings over every partition (cached, least recently used dropped)."""
        with self._lock:
            hit = self._terms.get(term)
            if hit is not None:
                self._terms.move_to_end(term)
                return hit
        rows: list[np.ndarray] = []
        tfs: list[np.ndarray] = []
        ws: list[np.ndarray] = []
        shared: list[np.ndarray] = []
        for part, off in zip(self.parts, self.offsets, strict=True):
            span = part._terms.get(term)
            if span is None:
                continue
            sl = slice(span[0], span[1])
            rows.append(part._idx[sl].astype(np.int64) + off)
            ws.append(part._w[sl])
            tf = part._tf
            tfs.append(tf[sl] if tf is not None else np.zeros(span[1] - span[0], np.float32))
            shared.append(np.full(span[1] - span[0], tf is not None))
        if rows:
            got: _Postings = (
                np.concatenate(rows),
                np.concatenate(tfs),
                np.concatenate(ws),
                np.concatenate(shared),
            )
        else:
            empty = np.zeros(0, np.float32)
            got = (np.zeros(0, np.int64), empty, empty, np.zeros(0, bool))
        with self._lock:
            if term not in self._terms:
                self._terms[term] = got
                self._held += len(got[0])
                while self._held > self._max and len(self._terms) > 1:
                    _, old = self._terms.popitem(last=False)
                    self._held -= len(old[0])
        return got

    def df(self, term: str) -> int:
        """Chunks of the union containing the term."""
        return len(self.postings(term)[0])

    def scores(self, query_tokens: Sequence[str], idf: dict[str, float] | None) -> np.ndarray:
        """Every chunk's score: the shared `idf` where a partition keeps tf parts, else its own
        weights (as `BM25Partition.scores` does partition by partition)."""
        out = np.zeros(len(self.ids), dtype=np.float64)
        for term in query_tokens:
            rows, tf, w, shared = self.postings(term)
            if not len(rows):
                continue
            if idf is None:
                out[rows] += w
            elif shared.all():
                out[rows] += idf.get(term, 0.0) * tf
            else:
                out[rows] += np.where(shared, idf.get(term, 0.0) * tf, w)
        return out
