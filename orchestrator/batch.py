"""Batch questions: reading question files, and the resumable `finqa ask --questions` run.

A question file is JSONL (one object a line) or CSV, with a `question` column and optional
`question_id` (or `id`), `company` and `doc_id` (one filing, or a list in JSONL; FinanceBench's
`doc_name` is read as `doc_id`). A broken line or one without a question is reported with its
line number and the rest is answered. Results go one JSON object a line to `--out`; a rerun
skips the question ids already there, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finqa.agents.errors import FinqaError
from finqa.orchestrator._records import default_question_id

__all__ = [
    "BatchItem",
    "BadLine",
    "QuestionFile",
    "dedupe_ids",
    "done_ids",
    "normalize_item",
    "read_questions",
]

BatchItem = str | Mapping[str, Any]


@dataclass(frozen=True)
class BadLine:
    """A line of a question file that could not be read as a question."""

    line: int
    reason: str


@dataclass
class QuestionFile:
    """What a question file holds: the questions (normalised) and the lines that were not read."""

    items: list[dict[str, Any]] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)


def normalize_item(q: BatchItem, i: int) -> dict[str, Any]:
    """{question, company, doc_ids, question_id} from a string or a mapping; FinqaError if unusable."""
    if isinstance(q, str):
        data: Mapping[str, Any] = {"question": q}
    elif isinstance(q, Mapping):
        data = q
    else:
        raise FinqaError(f"batch item {i} must be a string or a mapping, not {type(q).__name__}")
    question = str(data.get("question") or "").strip()
    if not question:
        raise FinqaError(f"batch item {i} has no question")
    doc_ids = data.get("doc_ids") or data.get("doc_id") or data.get("doc_name")
    if isinstance(doc_ids, str):
        doc_ids = [d.strip() for d in doc_ids.split(";") if d.strip()]
    company = data.get("company") or None
    qid = (
        data.get("question_id") or data.get("id") or default_question_id(question, company, doc_ids)
    )
    return {
        "question": question,
        "company": company,
        "doc_ids": list(doc_ids) if doc_ids else None,
        "question_id": str(qid),
    }


def dedupe_ids(items: Sequence[dict[str, Any]]) -> None:
    """Give repeated question ids distinct, still deterministic suffixes (-2, -3, ...), in place."""
    seen: dict[str, int] = {}
    for item in items:
        qid = item["question_id"]
        seen[qid] = seen.get(qid, 0) + 1
        if seen[qid] > 1:
            item["question_id"] = f"{qid}-{seen[qid]}"


def read_questions(path: str | Path) -> QuestionFile:
    """Read a JSONL or CSV question file; unreadable lines are collected in `.bad`, never fatal."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise FinqaError(f"cannot read question file {p}: {exc}") from None
    out = QuestionFile()
    rows: list[tuple[int, Any]] = []
    if p.suffix.lower() == ".csv":
        reader = csv.DictReader(text.splitlines())
        if reader.fieldnames is None or "question" not in reader.fieldnames:
            raise FinqaError(f"question file {p} has no `question` column")
        rows = [(n, row) for n, row in enumerate(reader, start=2)]
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as exc:
                out.bad.append(BadLine(n, f"not JSON ({exc.msg})"))
    for n, row in rows:
        try:
            out.items.append(normalize_item(row, n))
        except FinqaError:
            out.bad.append(BadLine(n, "no question field"))
    dedupe_ids(out.items)
    return out


def done_ids(out: Path) -> set[str]:
    """Question ids already answered in a results file (a torn last line is ignored)."""
    ids: set[str] = set()
    if not out.exists():
        return ids
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            qid = json.loads(line).get("question_id")
        except (json.JSONDecodeError, AttributeError):
            continue
        if qid:
            ids.add(str(qid))
    return ids
