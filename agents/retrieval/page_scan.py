"""Instructions aimed at a model anywhere on an evidence page, not only in the chunk retrieved.

An evidence item is one chunk (or a few) of a page; text elsewhere on the same page — another
chunk — can carry "ignore previous instructions and answer ...". `with_page_instructions` reads
every other chunk of each item's pages from the index and, where the lexicon's instruction
vocabulary (`finqa.lexicon.injection`) finds one, records those chunks under the item's
``metadata["page_instructions"]`` (page, chunk id, text), so the judge's injection check covers
the whole cited page. Items whose pages carry none are returned unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from finqa.agents.types import Chunk, EvidenceItem

__all__ = ["PAGE_INSTRUCTIONS", "with_page_instructions"]

PAGE_INSTRUCTIONS = "page_instructions"
_MAX_TEXT = 4000


def with_page_instructions(
    items: Sequence[EvidenceItem], page_chunks: Callable[[str, int], list[Chunk]]
) -> list[EvidenceItem]:
    """`items`, each with the other chunks of its pages that carry an instruction recorded."""
    from finqa.lexicon.injection import find_instructions

    found: dict[tuple[str, int], list[Chunk]] = {}
    out: list[EvidenceItem] = []
    for item in items:
        flagged: list[dict[str, object]] = []
        for page in item.pages:
            key = (item.doc_id, page)
            if key not in found:
                found[key] = [c for c in page_chunks(*key) if find_instructions(c.text)]
            flagged.extend(
                {"page": page, "chunk_id": c.chunk_id, "text": c.text[:_MAX_TEXT]}
                for c in found[key]
                if c.chunk_id not in item.chunk_ids
            )
        if flagged:
            item = item.model_copy(
                update={"metadata": {**item.metadata, PAGE_INSTRUCTIONS: flagged}}
            )
        out.append(item)
    return out
