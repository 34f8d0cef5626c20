"""Readable review of an audit log: the life of one question, or a summary of runs/questions.

The renderer knows no agent's private payloads: it prints every record as
``#seq time agent/event -> decision: reason``, then its params and scores as ``key=value``,
and the common data keys (question, query, evidence/items, answer/text, feedback, error)
in a readable form; anything else is printed as compact JSON, cut to one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["render_question", "render_summary", "render_record", "question_text"]

_WIDTH = 110
_EVIDENCE_KEYS = ("evidence", "items", "results", "sources", "citations")
_TEXT_KEYS = ("question", "query", "answer", "text", "feedback", "error", "diagnosis")
_SHOWN_ITEMS = 5


def _cut(text: str, width: int = _WIDTH) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _pairs(mapping: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={_fmt(v)}" for k, v in mapping.items())


def _evidence_line(item: Any) -> str:
    if not isinstance(item, Mapping):
        return _cut(_fmt(item), 60)
    sid = item.get("source_id") or item.get("id") or item.get("chunk_id") or "?"
    doc = item.get("doc_id") or item.get("doc") or ""
    pages = item.get("pages", item.get("page"))
    where = (
        f" p.{','.join(str(p) for p in pages)}"
        if isinstance(pages, list)
        else (f" p.{pages}" if pages is not None else "")
    )
    scores = item.get("scores")
    score = ""
    if isinstance(scores, Mapping) and scores:
        name, val = next(reversed(list(scores.items())))
        score = f" ({name} {_fmt(val)})"
    elif isinstance(item.get("score"), int | float):
        score = f" ({_fmt(item['score'])})"
    return f"{sid} {doc}{where}{score}".strip()


def render_record(rec: Mapping[str, Any]) -> list[str]:
    ts = str(rec.get("ts", ""))[11:19]
    head = f"#{rec.get('seq')} {ts} {rec.get('agent')}/{rec.get('event')}"
    if rec.get("decision") is not None:
        head += f" -> {rec['decision']}"
    if rec.get("reason"):
        head += f": {rec['reason']}"
    out = ["  " + _cut(head, _WIDTH + 20)]
    pad = "      "
    for label in ("params", "scores"):
        block = rec.get(label) or {}
        if isinstance(block, Mapping) and block:
            out.append(pad + _cut(f"{label}: {_pairs(block)}"))
    data = rec.get("data") or {}
    if not isinstance(data, Mapping):
        return out
    for key, value in data.items():
        if value is None or value == [] or value == {} or value == "":
            continue
        if key in _EVIDENCE_KEYS and isinstance(value, list):
            shown = " | ".join(_evidence_line(v) for v in value[:_SHOWN_ITEMS])
            more = f" | … {len(value) - _SHOWN_ITEMS} more" if len(value) > _SHOWN_ITEMS else ""
            out.append(pad + _cut(f"{key} ({len(value)}): {shown}{more}", _WIDTH + 20))
        elif key in _TEXT_KEYS and isinstance(value, str):
            out.append(pad + _cut(f"{key}: {value}"))
        else:
            out.append(pad + _cut(f"{key}: {_fmt(value)}"))
    return out


def question_text(records: Iterable[Mapping[str, Any]]) -> str:
    """The question as first recorded (data.question or params.question), or ''."""
    for rec in records:
        for block in (rec.get("data"), rec.get("params")):
            if isinstance(block, Mapping) and isinstance(block.get("question"), str):
                return str(block["question"])
    return ""


def render_question(records: Sequence[Mapping[str, Any]], question_id: str) -> str:
    """The life of one question: its records grouped by attempt, then the outcome."""
    mine = [r for r in records if r.get("question_id") == question_id]
    if not mine:
        return f"no records for question {question_id!r}"
    runs = sorted({str(r.get("run_id")) for r in mine})
    lines = [
        f"question {question_id}: {_cut(question_text(mine), 90)!r}",
        f"  run {', '.join(runs)} · {len(mine)} records · seq {mine[0]['seq']}..{mine[-1]['seq']}",
    ]
    attempt: Any = "start"
    for rec in mine:
        current = rec.get("attempt")
        if current != attempt:
            title = f"attempt {current}" if current is not None else "outcome"
            if current is None and attempt == "start":
                title = "start"
            lines.append(f"  ── {title} ──")
            attempt = current
        lines.extend(render_record(rec))
    final = mine[-1]
    verdict = final.get("decision") or final.get("event")
    lines.append(f"  final: {verdict}" + (f" ({final['reason']})" if final.get("reason") else ""))
    return "\n".join(lines)


def render_summary(records: Sequence[Mapping[str, Any]]) -> str:
    """Runs (config hash, index, models, code) and one line per question."""
    lines: list[str] = []
    for rec in records:
        if rec.get("event") == "run_start":
            p = rec.get("params") or {}
            lines.append(
                f"run {rec.get('run_id')} at {rec.get('ts')}: config {str(p.get('config_hash', ''))[:12]} "
                f"index {p.get('index_version')} code {p.get('code_version')} models {_fmt(p.get('models', {}))}"
            )
    by_q: dict[str, list[Mapping[str, Any]]] = {}
    for rec in records:
        if rec.get("question_id") is not None:
            by_q.setdefault(str(rec["question_id"]), []).append(rec)
    if not by_q:
        lines.append("no question records")
    for qid, recs in by_q.items():
        attempts = sorted({r["attempt"] for r in recs if isinstance(r.get("attempt"), int)})
        reviews = [r for r in recs if r.get("event") == "review" and r.get("agent") == "reviewer"]
        final = next((r for r in reversed(recs) if r not in reviews), recs[-1])
        outcome = final.get("decision") or final.get("event")
        utility = (final.get("scores") or {}).get("utility")
        u = f" U={_fmt(utility)}" if isinstance(utility, int | float) else ""
        signed = ""
        if reviews:
            last = reviews[-1]
            who = (last.get("params") or {}).get("reviewer")
            signed = f", review {last.get('decision')} by {who} (seq {last.get('seq')})"
        lines.append(
            f"{qid}: {len(attempts)} attempt(s), {len(recs)} records, final {outcome}{u}{signed} "
            f"· {_cut(question_text(recs), 60)!r}"
        )
    return "\n".join(lines)
