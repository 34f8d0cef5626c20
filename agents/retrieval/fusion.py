"""Reciprocal rank fusion of ranked lists, keeping every input's score and rank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Candidate", "rrf_fuse"]


@dataclass
class Candidate:
    """A chunk on its way through the pipeline; `scores` collects every stage's score."""

    chunk_id: str
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        for key in ("rerank", "rrf"):
            if key in self.scores:
                return self.scores[key]
        return 0.0


def rrf_fuse(lists: Mapping[str, Sequence[tuple[str, float]]], *, k: int = 60) -> list[Candidate]:
    """RRF: score = sum over lists of 1 / (k + rank), rank 1-based; ties keep first-seen order."""
    merged: dict[str, Candidate] = {}
    for name, ranked in lists.items():
        for rank, (chunk_id, score) in enumerate(ranked, 1):
            cand = merged.setdefault(chunk_id, Candidate(chunk_id))
            cand.scores[name] = float(score)
            cand.scores[f"{name}_rank"] = float(rank)
            cand.scores["rrf"] = cand.scores.get("rrf", 0.0) + 1.0 / (k + rank)
    return sorted(merged.values(), key=lambda c: -c.scores["rrf"])
