"""Citations as an analyst reads them: printed page numbers, and source labels that match the list.

`label_pages` gives each citation the printed page label the index recorded at ingest (EDGAR
page footers); `renumber` makes the `[S#]` / `[M#]` labels of an answer the ones its citation
list carries: the sources cited are listed S1..Sn (M1..Mm for statement-model pages) in the
order the answer first cites them, and a label the answer cites that the reasoner gave no
citation for is listed from the evidence item it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from finqa.agents.types import Answer, Calculation, Chunk, Citation, Evidence, EvidenceItem

__all__ = ["PageChunks", "PageLabels", "label_pages", "renumber", "with_cited_pages"]

PageLabels = Callable[[str, int], "str | None"]  # (doc_id, 0-based page) -> printed label
PageChunks = Callable[[str, int], Sequence[Chunk]]  # (doc_id, 0-based page) -> its chunks
_LABEL = re.compile(r"\[([SM])(\d+)\]")


def label_pages(citations: Sequence[Citation], labels: PageLabels | None) -> tuple[Citation, ...]:
    """The citations with `page_label` set where `labels` knows the page's printed number."""
    if labels is None:
        return tuple(citations)
    out = []
    for c in citations:
        label = c.page_label or labels(c.doc_id, c.page)
        out.append(c.model_copy(update={"page_label": label}) if label else c)
    return tuple(out)


def renumber(
    text: str,
    citations: Sequence[Citation],
    calculations: Sequence[Calculation] = (),
    evidence: Evidence | None = None,
) -> tuple[str, tuple[Citation, ...], tuple[Calculation, ...]]:
    """(answer text, citations, calculations) relabelled so the listed sources are S1..Sn (and
    M1..Mm) in the order first cited; the quotes, pages and figures are unchanged."""
    cites = list(citations)
    known = {c.source_id for c in cites}
    order: list[str] = []
    for m in _LABEL.finditer(text):
        sid = m.group(1) + m.group(2)
        if sid not in order:
            order.append(sid)
        if sid not in known and evidence is not None:
            item = evidence.by_source(sid)
            if item is not None:  # cited in the text, not listed: list it from the evidence
                cites.append(
                    Citation(
                        source_id=sid,
                        doc_id=item.doc_id,
                        page=item.pages[0],
                        chunk_id=item.chunk_ids[0] if item.chunk_ids else None,
                    )
                )
                known.add(sid)
    order += [c.source_id for c in cites if c.source_id not in order]
    mapping: dict[str, str] = {}
    counts: dict[str, int] = {}
    for sid in order:
        prefix = sid[:1] if sid[:1] in ("S", "M") else "S"
        counts[prefix] = counts.get(prefix, 0) + 1
        mapping[sid] = f"{prefix}{counts[prefix]}"
    if all(k == v for k, v in mapping.items()) and len(cites) == len(citations):
        return text, tuple(citations), tuple(calculations)

    def sub(m: re.Match[str]) -> str:
        sid = m.group(1) + m.group(2)
        return f"[{mapping.get(sid, sid)}]"

    rank = {sid: i for i, sid in enumerate(order)}
    new_cites = tuple(
        c.model_copy(update={"source_id": mapping.get(c.source_id, c.source_id)})
        for c in sorted(cites, key=lambda c: rank.get(c.source_id, len(rank)))
    )
    new_calcs = tuple(
        calc.model_copy(
            update={
                "operands": tuple(
                    o.model_copy(update={"source_id": mapping.get(o.source_id, o.source_id)})
                    if o.source_id
                    else o
                    for o in calc.operands
                )
            }
        )
        for calc in calculations
    )
    return _LABEL.sub(sub, text), tuple(new_cites), new_calcs


def with_cited_pages(evidence: Evidence, answer: Answer, chunks: PageChunks | None) -> Evidence:
    """The evidence with the text of every statement-model page the answer cites ('[M1]': a
    line the reasoner read from the index's statement model, on a page retrieval did not
    return) added under its label, read from the index's own chunks of that page: the judge
    checks the figure against the filing's printed page, not against the model that gave it.
    Unchanged when the answer cites none, or the index cannot give the page."""
    if chunks is None:
        return evidence
    added: list[EvidenceItem] = []
    for c in answer.citations:
        sid = c.source_id
        if not sid.startswith("M") or evidence.by_source(sid) is not None:
            continue
        if any(item.source_id == sid for item in added):
            continue
        try:
            page = list(chunks(c.doc_id, c.page))
        except Exception:  # noqa: BLE001 - a page the index cannot give: the judge goes without
            continue
        text = "\n".join(ch.text for ch in page).strip()
        if not text:
            continue
        added.append(
            EvidenceItem(
                source_id=sid,
                doc_id=c.doc_id,
                pages=(c.page,),
                chunk_ids=tuple(ch.chunk_id for ch in page),
                text=text,
                section="the page of a statement-model line the answer cites",
                metadata={"route": "cited_model_page"},
            )
        )
    if not added:
        return evidence
    return evidence.model_copy(update={"items": (*evidence.items, *added)})
