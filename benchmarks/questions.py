"""Benchmark questions: FinanceBench JSONL, or any CSV/JSONL with question and answer columns."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.agents.types import Evidence, EvidenceItem, Frozen, RetrievalPlan

__all__ = ["BenchQuestion", "load_questions", "read_rows", "gold_evidence", "QuestionsError"]


class QuestionsError(FinqaError):
    """The questions file is missing, unreadable or lacks a question/answer column."""


class BenchQuestion(Frozen):
    """One benchmark question with its gold answer and, where known, its gold evidence pages."""

    id: str
    question: str
    answer: str
    type: str = "unknown"  # metrics-generated | domain-relevant | novel-generated | ...
    company: str | None = None
    doc_name: str | None = None
    evidence_pages: tuple[tuple[str, int], ...] = ()  # (doc_name, 0-based page)


_ID_KEYS = ("financebench_id", "id", "question_id", "qid")
_QUESTION_KEYS = ("question", "query", "Question")
_ANSWER_KEYS = ("answer", "gold", "gold_answer", "Answer", "expected")
_TYPE_KEYS = ("question_type", "type", "category")


def load_questions(path: str | Path, *, limit: int | None = None) -> list[BenchQuestion]:
    """Questions in file order (`.jsonl`/`.json` lines or `.csv`), the first `limit` if given."""
    p = Path(path)
    if not p.is_file():
        raise QuestionsError(f"questions file not found: {p}", path=str(p))
    rows = _read_csv(p) if p.suffix.lower() == ".csv" else _read_jsonl(p)
    out: list[BenchQuestion] = []
    seen: set[str] = set()
    for n, row in enumerate(rows, start=1):
        q = _to_question(row, n, p)
        if q.id in seen:
            raise QuestionsError(f"{p}: duplicate question id {q.id!r} (row {n})", path=str(p))
        seen.add(q.id)
        out.append(q)
        if limit is not None and len(out) >= limit:
            break
    if not out:
        raise QuestionsError(f"{p}: no questions found", path=str(p))
    return out


def _read_jsonl(p: Path) -> list[Mapping[str, Any]]:
    rows: list[Mapping[str, Any]] = []
    with p.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise QuestionsError(f"{p}: line {n} is not valid JSON", path=str(p)) from None
            if not isinstance(row, dict):
                raise QuestionsError(f"{p}: line {n} is not a JSON object", path=str(p))
            rows.append(row)
    return rows


def _read_csv(p: Path) -> list[Mapping[str, Any]]:
    with p.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def _first(row: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = row.get(key)
        if value not in (None, ""):
            return value
    return None


def _to_question(row: Mapping[str, Any], n: int, p: Path) -> BenchQuestion:
    question = _first(row, _QUESTION_KEYS)
    answer = _first(row, _ANSWER_KEYS)
    if question is None or answer is None:
        raise QuestionsError(f"{p}: row {n} needs a 'question' and an 'answer' column", path=str(p))
    doc_name = _first(row, ("doc_name", "doc_id", "document"))
    return BenchQuestion(
        id=str(_first(row, _ID_KEYS) or f"q{n:05d}"),
        question=str(question),
        answer=str(answer),
        type=str(_first(row, _TYPE_KEYS) or "unknown"),
        company=_first(row, ("company",)),
        doc_name=str(doc_name) if doc_name else None,
        evidence_pages=_evidence_pages(row, doc_name),
    )


def _evidence_pages(row: Mapping[str, Any], doc_name: Any) -> tuple[tuple[str, int], ...]:
    pages: list[tuple[str, int]] = []
    evidence = row.get("evidence")
    if isinstance(evidence, list):
        for ev in evidence:
            if isinstance(ev, dict) and ev.get("evidence_page_num") is not None:
                pages.append((str(ev.get("doc_name") or doc_name), int(ev["evidence_page_num"])))
    elif doc_name and row.get("evidence_pages") not in (None, ""):
        # CSV: "evidence_pages" as "12;13" (0-based) within the question's doc_name.
        for part in str(row["evidence_pages"]).replace(",", ";").split(";"):
            if part.strip().lstrip("-").isdigit():
                pages.append((str(doc_name), int(part)))
    return tuple(dict.fromkeys(pages))


def read_rows(
    path: str | Path, *, limit: int | None = None, qtype: str | None = None
) -> list[dict[str, Any]]:
    """The raw rows of a FinanceBench-format JSONL file (optionally one question type, first N)."""
    rows = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]
    if qtype:
        rows = [r for r in rows if r.get("question_type") == qtype]
    return rows[:limit] if limit else rows


def gold_evidence(
    question: str, pages: Sequence[Mapping[str, Any]], *, offset: int = 0, route: str = "oracle"
) -> Evidence:
    """Evidence made of a question's gold evidence pages (full page text, 0-based page), one
    source per distinct (doc_name, page): the oracle-retrieval setting of the paper."""
    items: list[EvidenceItem] = []
    seen: set[tuple[str, int]] = set()
    for ev in pages:
        key = (str(ev["doc_name"]), int(ev["evidence_page_num"]))
        if key in seen:
            continue
        seen.add(key)
        items.append(
            EvidenceItem(
                source_id=f"S{offset + len(items) + 1}",
                doc_id=key[0],
                pages=(key[1],),
                chunk_ids=(f"{key[0]}:p{key[1]}",),
                text=str(ev.get("evidence_text_full_page") or ev.get("evidence_text") or ""),
            )
        )
    plan = RetrievalPlan(
        attempt=1,
        route=route,
        reason="gold evidence pages",
        k=len(items),
        candidates=len(items),
        rse=False,
    )
    return Evidence(question=question, items=tuple(items), plan=plan)
