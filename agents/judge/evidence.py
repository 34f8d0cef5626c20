"""A read-only view of the evidence the judge checks against: texts, quantities, tokens, years."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from finqa.agents.judge import _lex
from finqa.agents.judge.text import content_tokens
from finqa.agents.types import Evidence, EvidenceItem

__all__ = ["SourceView", "EvidenceView"]


@dataclass(frozen=True)
class SourceView:
    """One evidence item, with its quantities parsed once (bare table figures take the scale of
    the nearest '(in millions)' header above them)."""

    source_id: str
    doc_id: str
    pages: tuple[int, ...]
    text: str
    # other chunks of its pages that carry text aimed at a model (retrieval's page scan)
    page_rest: tuple[str, ...] = ()

    @cached_property
    def quantities(self) -> list[Any]:
        return [
            q for q in _lex.extract_quantities(self.text, auto_scale=True) if q.kind == "number"
        ]

    @cached_property
    def tokens(self) -> frozenset[str]:
        return frozenset(content_tokens(self.text))

    @cached_property
    def lower(self) -> str:
        return " ".join(self.text.lower().split())

    def label(self) -> str:
        pages = ",".join(str(p) for p in self.pages)
        return f"{self.source_id} {self.doc_id} p.{pages}"


@dataclass(frozen=True)
class EvidenceView:
    """All sources of one attempt, addressable by source id."""

    sources: tuple[SourceView, ...] = field(default_factory=tuple)

    @classmethod
    def of(cls, evidence: Evidence) -> EvidenceView:
        return cls(tuple(_view(item) for item in evidence.items))

    def get(self, source_id: str | None) -> SourceView | None:
        return next((s for s in self.sources if s.source_id == source_id), None)

    def ordered(self, preferred: Sequence[str] = ()) -> list[SourceView]:
        """Preferred (cited) sources first, then the rest in rank order."""
        first = [s for s in self.sources if s.source_id in preferred]
        return first + [s for s in self.sources if s.source_id not in preferred]

    @cached_property
    def lower(self) -> str:
        return "\n".join(s.lower for s in self.sources)

    def __bool__(self) -> bool:
        return bool(self.sources)


def _view(item: EvidenceItem) -> SourceView:
    rest = (item.metadata or {}).get("page_instructions") or ()
    texts = tuple(str(r.get("text") or "") for r in rest if isinstance(r, dict))
    return SourceView(item.source_id, item.doc_id, tuple(item.pages), item.text, texts)
