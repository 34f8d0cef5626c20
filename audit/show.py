"""Readable review of an audit log: the life of one question, or a summary of runs/questions.

A question answered across filings lists its legs (`<qid>/leg<N>`: figure, status, citation,
attempts) after its own records, and the summary indents each leg under its question.

The renderer knows no agent's private payloads: it prints every record as
``#seq time agent/event -> decision: reason``, then its params and scores as ``key=value``,
and the common data keys (question, query, evidence/items, answer/text, feedback, error)
in a readable form; anything else is printed as compact JSON, cut to one line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["render_question", "render_summary", "render_record", "question_text"]

_WIDTH = 110
_EVIDENCE_KEYS = ("evidence", "items", "results", "sources", "citations")
_TEXT_KEYS = ("question", "query", "answer", "text", "feedback", "error", "diagnosis")
_SHOWN_ITEMS = 5
_LEG_ID = re.compile(r"^(?P<parent>.+)/leg(?P<n>[0-9]+)$")  # a leg of a question across filings


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
    lines.extend(_legs_lines(records, question_id, mine))
    return "\n".join(lines)


def _leg_ids(records: Sequence[Mapping[str, Any]], question_id: str) -> list[str]:
    """The ids of a question's legs ('<qid>/leg<N>'), in leg order."""
    found: dict[int, str] = {}
    for rec in records:
        qid = str(rec.get("question_id"))
        m = _LEG_ID.match(qid)
        if m is not None and m.group("parent") == question_id:
            found.setdefault(int(m.group("n")), qid)
    return [found[n] for n in sorted(found)]


def _legs_lines(
    records: Sequence[Mapping[str, Any]], question_id: str, mine: Sequence[Mapping[str, Any]]
) -> list[str]:
    """A question across filings: one line per leg (figure, status, citation, attempts), the
    legs that kept the whole from being accepted, and how to show a leg's life."""
    from finqa.lexicon.display import shown_base

    combine = next(
        (r for r in mine if r.get("event") == "decision" and r.get("decision") == "combine"), None
    )
    data = combine.get("data") if combine is not None else None
    recorded = {
        str(g.get("question_id")): g
        for g in (data.get("legs") or [] if isinstance(data, Mapping) else [])
        if isinstance(g, Mapping)
    }
    ids = list(dict.fromkeys([*recorded, *_leg_ids(records, question_id)]))
    if not ids:
        return []
    out = [f"  ── legs ({len(ids)}) ──"]
    for qid in ids:
        leg = recorded.get(qid, {})
        recs = [r for r in records if r.get("question_id") == qid]
        final = next((r for r in reversed(recs) if r.get("event") == "final"), None)
        status = leg.get("status") or (final.get("decision") if final else "no final record")
        value = leg.get("value")
        figure = (
            shown_base(float(value), leg.get("unit")) if isinstance(value, int | float) else None
        )
        cites = ((final or {}).get("data") or {}).get("citations") or []
        cite = cites[0] if cites and isinstance(cites[0], Mapping) else {}
        where = f" · {cite.get('doc_id')} p.{cite.get('page')}" if cite.get("doc_id") else ""
        attempts = sorted({r["attempt"] for r in recs if isinstance(r.get("attempt"), int)})
        label = leg.get("label") or question_text(recs)
        line = f"  {qid}: {_cut(str(label), 60)} = {figure or 'not found'} [{status}]{where}"
        out.append(line + f" · {len(attempts)} attempt(s), {len(recs)} records")
    failed = [q for q in ids if (recorded.get(q) or {}).get("status", "") != "accepted"]
    if failed:
        out.append("  not accepted: " + ", ".join(failed) + " (the whole is not accepted)")
    out.append(f"  (a leg's life: finqa audit show LOG --question-id {ids[0]})")
    return out


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
    legs_of: dict[str, int] = {}
    for qid in by_q:
        m = _LEG_ID.match(qid)
        if m is not None:
            legs_of[m.group("parent")] = legs_of.get(m.group("parent"), 0) + 1
    if not by_q:
        lines.append("no question records")
    for qid, recs in by_q.items():
        m = _LEG_ID.match(qid)
        indent = "    " if m is not None and m.group("parent") in by_q else ""
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
        shown = f", {legs_of[qid]} legs" if legs_of.get(qid) else ""
        lines.append(
            f"{indent}{qid}: {len(attempts)} attempt(s){shown}, {len(recs)} records, final {outcome}{u}{signed} "
            f"· {_cut(question_text(recs), 60)!r}"
        )
    return "\n".join(lines)
