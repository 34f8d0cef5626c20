"""Labelled judge items from a FinanceBench benchmark run (`finqa bench financebench`): every
attempt's answer, as the reasoner returned it and the judge saw it, with the evidence it was
judged against and the benchmark grader's verdict against the gold (never the judge's own).

A run directory holds `results.jsonl` (one row per question: question, gold, status, attempts)
and the run's audit log (the reasoning record of each attempt carries the whole answer: text,
citations, calculations, confidence; the retrieval record the evidence items: source id, filing,
pages, chunk ids). An item keeps only ids, the answer and labels; the evidence is rebuilt when
judged: from the index's chunks (exactly what the judge saw) or, without the index, from the
full text of the same pages in ../shared/financebench/pages.jsonl.gz.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["items_from_run", "item_key", "RunEvidence"]

_ANSWER_FIELDS = ("text", "abstained", "citations", "calculations", "confidence")


def item_key(rec: Mapping[str, Any]) -> tuple[str, str, int]:
    """(question id, source run, attempt): one labelled item (old single-answer items: '', 0)."""
    return (str(rec.get("qid")), str(rec.get("source") or ""), int(rec.get("attempt") or 0))


def _audit_records(path: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a torn last line of a run still being written
    return out


def _by_attempt(
    records: Iterable[Mapping[str, Any]], run_id: str, qid: str
) -> dict[int, dict[str, Mapping[str, Any]]]:
    """attempt -> {'retrieval': record, 'reasoning': record} of one question of one run."""
    out: dict[int, dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in records:
        if r.get("run_id") != run_id or r.get("question_id") != qid or r.get("attempt") is None:
            continue
        agent = str(r.get("agent"))
        if agent in ("retrieval", "reasoning"):
            out[int(r["attempt"])][agent] = r
    return out


Labeller = Callable[[str, str, Mapping[str, Any]], Mapping[str, Any]]


def items_from_run(
    run_dir: Path, label_row: Labeller, source: str | None = None
) -> list[dict[str, Any]]:
    """One labelled item per judged attempt of every finished question of the run; `label_row`
    (question, gold, answer) -> {label, kind, should_accept} is the benchmark grader's label
    (`judge_labels.label_row`)."""
    # a run still being written may end in a torn line: the rows before it are read, it is not
    rows = _audit_records(run_dir / "results.jsonl")
    audits: dict[Path, list[dict[str, Any]]] = {}
    items: list[dict[str, Any]] = []
    for row in rows:
        log = Path(str(row.get("audit_log") or ""))
        if not log.is_file():
            found = sorted((run_dir / "audit").glob("*.jsonl"))
            if not found:
                continue
            log = found[0]
        records = audits.setdefault(log, _audit_records(log))
        qid = str(row.get("id"))
        per = _by_attempt(records, str(row.get("run_id")), qid)
        for attempt, recs in sorted(per.items()):
            reasoning, retrieval = recs.get("reasoning"), recs.get("retrieval")
            if reasoning is None or retrieval is None:
                continue  # an attempt that ended before the judge
            data = dict(reasoning.get("data") or {})
            answer = {
                "text": str(data.get("answer") or ""),
                "abstained": bool(data.get("abstained")),
                "citations": data.get("citations") or [],
                "calculations": data.get("calculations") or [],
                "confidence": data.get("confidence") or {},
                # typed in newer records; older ones said these in `confidence` (Answer reads both)
                **{
                    k: data[k]
                    for k in ("missing", "calc_problems", "invalid_citations")
                    if k in data
                },
            }
            params = dict(reasoning.get("params") or {})
            answer |= {k: params[k] for k in ("strategy", "backend", "model") if params.get(k)}
            evidence = [
                {k: it.get(k) for k in ("source_id", "doc_id", "pages", "chunk_ids")}
                for it in (retrieval.get("data") or {}).get("items") or []
            ]
            labels = label_row(str(row.get("question")), str(row.get("gold")), answer)
            items.append(
                {
                    "qid": qid,
                    "source": source or f"{run_dir.name}/{row.get('mode') or ''}".rstrip("/"),
                    "attempt": attempt,
                    "question_type": row.get("type"),
                    "doc_name": row.get("doc_name"),
                    "evidence_items": evidence,
                    "answer": answer,
                    "label": labels["label"],
                    "kind": labels["kind"],
                    "should_accept": labels["should_accept"],
                }
            )
    return items


def _page_texts(pages_file: Path, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], str]:
    out: dict[tuple[str, int], str] = {}
    if not wanted or not pages_file.exists():
        return out
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            key = (str(rec.get("doc_name")), int(rec.get("page", -1)))
            if key in wanted:
                out[key] = str(rec.get("text") or "")
    return out


class RunEvidence:
    """Rebuilds the evidence of labelled run items: the index's chunks joined as retrieval joined
    them (exactly what the judge saw), else the full text of the same pages from `pages_file`."""

    def __init__(self, *, index: Path | None = None, pages_file: Path | None = None) -> None:
        self.index = index if index is not None and (index / "chunks.sqlite").exists() else None
        self.pages_file = pages_file
        self._store: Any = None
        self._pages: dict[tuple[str, int], str] = {}
        self.from_index = 0
        self.from_pages = 0

    def prefetch(self, items: Iterable[Mapping[str, Any]]) -> None:
        """Read every page the items may need from `pages_file` in one pass."""
        if self.pages_file is None:
            return
        wanted = {
            (str(it.get("doc_id")), int(p))
            for rec in items
            for it in rec.get("evidence_items") or ()
            for p in it.get("pages") or ()
        }
        self._pages.update(_page_texts(self.pages_file, wanted - set(self._pages)))

    def _chunk_text(self, chunk_ids: Sequence[str]) -> str | None:
        if self.index is None or not chunk_ids:
            return None
        from finqa.agents.retrieval.rse import join_chunks

        if self._store is None:
            from finqa.agents.config import load_settings
            from finqa.agents.retrieval.store import open_index

            self._store = open_index(load_settings(), self.index, create=False)
        chunks = self._store.get_chunks(chunk_ids)
        found = [chunks[c] for c in chunk_ids if c in chunks]
        return join_chunks(found) if found else None

    def evidence(self, question: str, items: Sequence[Mapping[str, Any]]) -> Any:
        """The Evidence of one labelled item (sources whose text cannot be found are left out)."""
        from finqa.agents.types import Evidence, EvidenceItem, RetrievalPlan

        built: list[EvidenceItem] = []
        for n, it in enumerate(items):
            pages = tuple(int(p) for p in it.get("pages") or ())
            text = self._chunk_text([str(c) for c in it.get("chunk_ids") or ()])
            if text is not None:
                self.from_index += 1
            else:
                parts = [self._pages.get((str(it.get("doc_id")), p), "") for p in pages]
                text = "\n".join(p for p in parts if p) or None
                self.from_pages += text is not None
            if text is None:
                continue
            built.append(
                EvidenceItem(
                    source_id=str(it.get("source_id") or f"S{n + 1}"),
                    doc_id=str(it.get("doc_id")),
                    pages=pages,
                    chunk_ids=tuple(str(c) for c in it.get("chunk_ids") or ()),
                    text=text,
                )
            )
        plan = RetrievalPlan(
            attempt=1, route="recorded", reason="the run's evidence", k=len(built),
            candidates=len(built), rse=False,
        )  # fmt: skip
        return Evidence(question=question, items=tuple(built), plan=plan)
