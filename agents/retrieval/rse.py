"""Relevant segment extraction: merge adjacent high-value chunks of one filing into segments.

Chunks are scored relative to the best candidate; those at or above `min_score` are grouped
per filing into runs of consecutive positions (a one-chunk gap is bridged by fetching the
missing chunk from the index), each run capped at `max_chars`. A segment's score is its
best chunk's score plus a small bonus per extra relevant chunk, so coherent passages
(a statement spread over chunks) rise above isolated hits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from finqa.agents.types import Chunk

__all__ = ["Segment", "extract_segments", "join_chunks"]


@dataclass(frozen=True)
class Segment:
    doc_id: str
    chunks: tuple[Chunk, ...]
    score: float
    chunk_scores: tuple[float, ...]

    @property
    def text(self) -> str:
        return join_chunks(self.chunks)


def join_chunks(chunks: Sequence[Chunk]) -> str:
    """Chunk texts in the given order, without repeating the overlap between neighbours."""
    lines: list[str] = []
    for chunk in chunks:
        new = chunk.text.split("\n")
        for n in range(min(len(lines), len(new), 40), 0, -1):
            if lines[-n:] == new[:n]:
                new = new[n:]
                break
        lines.extend(new)
    return "\n".join(lines)


def extract_segments(
    ranked: Sequence[tuple[Chunk, float]],
    *,
    max_chars: int,
    min_score: float,
    fetch: Callable[[str, int, int], list[Chunk]] | None = None,
    bonus: float = 0.05,
) -> list[Segment]:
    """Segments in descending score; every input chunk ends up in exactly one segment."""
    if not ranked:
        return []
    top = max(s for _, s in ranked)
    low = min(s for _, s in ranked)
    span = (top - low) or 1.0
    rel = {c.chunk_id: (s - low) / span for c, s in ranked}
    by_doc: dict[str, list[tuple[Chunk, float]]] = {}
    for chunk, score in ranked:
        by_doc.setdefault(chunk.doc_id, []).append((chunk, score))
    segments: list[Segment] = []
    for doc_id, items in by_doc.items():
        items.sort(key=lambda cs: cs[0].position)
        run: list[tuple[Chunk, float]] = []

        def close(run: list[tuple[Chunk, float]], doc_id: str = doc_id) -> None:
            if run:
                best = max(s for _, s in run)
                extra = sum(1 for c, _ in run if rel.get(c.chunk_id, 0.0) >= min_score) - 1
                segments.append(
                    Segment(
                        doc_id,
                        tuple(c for c, _ in run),
                        best + bonus * max(extra, 0) * abs(best or 1.0),
                        tuple(s for _, s in run),
                    )
                )

        for chunk, score in items:
            strong = rel[chunk.chunk_id] >= min_score
            if run:
                prev = run[-1][0]
                gap = chunk.position - prev.position
                size = sum(len(c.text) for c, _ in run) + len(chunk.text)
                prev_strong = rel.get(prev.chunk_id, 0.0) >= min_score
                if strong and prev_strong and gap == 2 and fetch is not None and size < max_chars:
                    filler = fetch(doc_id, prev.position + 1, prev.position + 1)
                    if filler and size + len(filler[0].text) <= max_chars:
                        run.append((filler[0], low))
                        gap = 1
                if not (strong and prev_strong and gap == 1 and size <= max_chars):
                    close(run)
                    run = []
            run.append((chunk, score))
        close(run)
    segments.sort(key=lambda s: -s.score)
    return segments
