"""One question's life for the review report: its records folded into attempts, JSON-safe.

Known records (question_start, retrieval, reasoning, judge, decision, error, final, review) are
summarised field by field; anything else — e.g. a record kind written by a newer finqa — is kept
whole, as raw JSON, in the attempt (or the question) it belongs to. Nothing is dropped.
Each calculation is re-executed here with `finqa.lexicon.arith`, independently of the judge.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from finqa.audit._report_legs import combine_entry
from finqa.audit.canonical import record_hash
from finqa.audit.review_check import REVIEW_AGENT, REVIEW_EVENT, ReviewCheck

__all__ = ["KNOWN_EVENTS", "REVIEW_EVENT", "REVIEW_AGENT", "VERDICTS", "build_question", "raw_json"]

VERDICTS = ("approved", "flagged", "rejected")
KNOWN_EVENTS = frozenset(
    {
        ("orchestrator", "question_start"),
        ("retrieval", "retrieval"),
        ("reasoning", "reasoning"),
        ("judge", "judge"),
        ("orchestrator", "decision"),
        ("orchestrator", "final"),
        (REVIEW_AGENT, REVIEW_EVENT),
    }
)
_RAW_LIMIT = 20_000


def raw_json(rec: Mapping[str, Any]) -> str:
    """The record as compact JSON text (cut at 20,000 characters)."""
    text = json.dumps(rec, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return text if len(text) <= _RAW_LIMIT else text[:_RAW_LIMIT] + "…"


def _d(rec: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """A record's block, read only (records parsed from the log are plain dicts)."""
    block = rec.get(key)
    return block if isinstance(block, Mapping) else _EMPTY


_EMPTY: Mapping[str, Any] = MappingProxyType({})
_NUMBER_TYPES = (int, float)


def _num(value: Any) -> float | None:
    kind = type(value)
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is int or (kind is not bool and isinstance(value, _NUMBER_TYPES)):
        return float(value)
    return None


_SCORE_ORDER = ("rerank", "rrf", "dense", "bm25")


def _retrieval(rec: Mapping[str, Any]) -> dict[str, Any]:
    p, data = _d(rec, "params"), _d(rec, "data")
    items = []
    for item in data.get("items") or []:
        if not isinstance(item, Mapping):
            continue
        scores = _d(item, "scores")
        top = None
        for name in _SCORE_ORDER:
            if _num(scores.get(name)) is not None:
                top = scores[name]
                break
        items.append(
            {
                "source_id": item.get("source_id"),
                "doc_id": item.get("doc_id"),
                "pages": list(item.get("pages") or []),
                "section": item.get("section"),
                "score": top,
            }
        )
    analysis = _d(data, "analysis")
    return {
        "decision": rec.get("decision"),
        "reason": rec.get("reason"),
        "route": p.get("route"),
        "k": p.get("k"),
        "candidates": p.get("candidates"),
        "rse": p.get("rse"),
        "query": p.get("query"),
        "filters": p.get("filters"),
        "reused_from": p.get("reused_from"),
        "missing_facets": p.get("missing_facets") or [],
        "companies": list(analysis.get("companies") or []),
        "items": items,
    }


@functools.lru_cache(maxsize=8192)
def _evaluate(expression: str, values: tuple[tuple[str, float], ...]) -> float:
    from finqa.lexicon.arith import evaluate

    return evaluate(expression, dict(values))


def _reexecute(calc: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, float] = {}
    for op in calc.get("operands") or []:
        if (
            isinstance(op, Mapping)
            and isinstance(op.get("name"), str)
            and _num(op.get("value")) is not None
        ):
            values[op["name"]] = float(op["value"])
    recorded = _num(calc.get("result"))
    try:
        got = _evaluate(str(calc.get("expression") or ""), tuple(sorted(values.items())))
    except Exception as exc:  # noqa: BLE001 - any failure to recompute is shown, never raised
        return {"reexecuted": None, "reexec_ok": False, "reexec_error": str(exc)[:300]}
    ok = recorded is not None and abs(got - recorded) <= max(1e-9, 1e-6 * abs(recorded))
    return {"reexecuted": got, "reexec_ok": ok, "reexec_error": None}


def _calculations(raw: Any, citations: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    where = {str(c.get("source_id")): (c.get("doc_id"), c.get("page")) for c in citations}
    out = []
    for calc in raw if isinstance(raw, list) else []:
        if not isinstance(calc, Mapping):
            continue
        operands = []
        for op in calc.get("operands") or []:
            if not isinstance(op, Mapping):
                continue
            doc, page = where.get(str(op.get("source_id")), (None, None))
            operands.append(
                {
                    k: op.get(k)
                    for k in ("name", "value", "unit", "scale", "period", "source_id", "text")
                }
                | {"doc_id": doc, "page": page}
            )
        out.append(
            {
                "expression": calc.get("expression"),
                "description": calc.get("description"),
                "result": calc.get("result"),
                "unit": calc.get("unit"),
                "operands": operands,
            }
            | _reexecute(calc)
        )
    return out


_CITATION_KEYS = ("source_id", "doc_id", "page", "chunk_id", "quote")


def _citations(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        return []
    return [{k: c.get(k) for k in _CITATION_KEYS} for c in raw if isinstance(c, dict)]


def _reasoning(rec: Mapping[str, Any]) -> dict[str, Any]:
    p, data = _d(rec, "params"), _d(rec, "data")
    citations = _citations(data.get("citations"))
    return {
        "decision": rec.get("decision"),
        "strategy": p.get("strategy"),
        "template_id": p.get("template_id"),
        "template_hash": p.get("template_hash"),
        "backend": p.get("backend"),
        "model": p.get("model"),
        "answer": data.get("answer"),
        "abstained": bool(data.get("abstained")),
        "citations": citations,
        "calculations": _calculations(data.get("calculations"), citations),
    }


def _judge(rec: Mapping[str, Any]) -> dict[str, Any]:
    s, data = _d(rec, "scores"), _d(rec, "data")
    return {
        "decision": rec.get("decision"),
        "scores": {
            k: s.get(k) for k in ("grounding", "completeness", "numeric", "utility", "threshold")
        },
        "diagnosis": data.get("diagnosis"),
        "feedback": data.get("feedback") or rec.get("reason"),
        "missing_facets": list(data.get("missing_facets") or []),
        "unsupported_numbers": list(data.get("unsupported_numbers") or []),
    }


def _changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What differs from the previous attempt, in words."""
    out: list[str] = []
    r0, r1 = before.get("retrieval") or {}, after.get("retrieval") or {}
    for key in ("route", "k", "candidates", "rse", "query"):
        if r0.get(key) != r1.get(key):
            out.append(f"retrieval {key}: {r0.get(key)!r} → {r1.get(key)!r}")
    pages0 = {(i["doc_id"], p) for i in r0.get("items", []) for p in i["pages"]}
    pages1 = {(i["doc_id"], p) for i in r1.get("items", []) for p in i["pages"]}
    if pages0 != pages1:
        out.append(
            f"evidence: {len(pages1 - pages0)} page(s) added, {len(pages0 - pages1)} removed"
        )
    a0, a1 = before.get("reasoning") or {}, after.get("reasoning") or {}
    if a0.get("strategy") != a1.get("strategy"):
        out.append(f"prompt strategy: {a0.get('strategy')!r} → {a1.get('strategy')!r}")
    if a0.get("answer") != a1.get("answer"):
        out.append("answer changed")
    u0 = _num(((before.get("judge") or {}).get("scores") or {}).get("utility"))
    u1 = _num(((after.get("judge") or {}).get("scores") or {}).get("utility"))
    if u0 is not None and u1 is not None and u0 != u1:
        out.append(f"utility {u0:.3f} → {u1:.3f}")
    return out or ["nothing changed"]


def _review(rec: Mapping[str, Any], verified: bool, check: ReviewCheck | None) -> dict[str, Any]:
    p, data = _d(rec, "params"), _d(rec, "data")
    signed = check is not None and check.ok
    return {
        "seq": rec.get("seq"),
        "ts": rec.get("ts"),
        "verdict": rec.get("decision"),
        "reviewer": p.get("reviewer"),
        "note": data.get("note"),
        "question_head_seq": p.get("question_head_seq"),
        "verified": verified and signed,
        "hash_ok": rec.get("hash") == record_hash(rec),
        "signed": signed,
        "sign_problem": None if signed else (check.problem if check else "signature not checked"),
    }


def _review_state(reviews: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The question's review state: the latest review, unless it does not verify (an edited
    verdict, a broken chain, an unsigned or badly signed sign-off, a head not in the chain):
    then "unverified", never its verdict nor an earlier one it may supersede."""
    if not reviews:
        return None
    latest = dict(reviews[-1])
    if not latest["hash_ok"] or not latest["verified"]:
        latest.update(verdict="unverified", reviewer=None, note=None)
    return latest


def build_question(
    records: Sequence[Mapping[str, Any]],
    verified_seqs: frozenset[int] | set[int],
    review_checks: Mapping[int, ReviewCheck] | None = None,
    checkpointed_seq: int = 0,
) -> dict[str, Any]:
    """The report's entry for one (run, question): summary fields and its life by attempt.
    `verified_seqs`: the records the verification vouches for; `review_checks`: each review's
    sign-off check by seq; `checkpointed_seq`: records up to it are anchored by a checkpoint."""
    first = records[0]
    attempts: dict[int, dict[str, Any]] = {}
    other: list[dict[str, Any]] = []
    reviews: list[dict[str, Any]] = []
    question = ""
    final: Mapping[str, Any] | None = None
    switches: dict[str, Any] = {}
    plan = ""
    combine: dict[str, Any] | None = None
    for rec in records:
        key = (str(rec.get("agent")), str(rec.get("event")))
        ok = rec.get("seq") in verified_seqs
        att = rec.get("attempt")
        slot = (
            attempts.setdefault(att, {"attempt": att, "other": [], "verified": True})
            if isinstance(att, int) and not isinstance(att, bool)
            else None
        )
        if slot is not None and not ok:
            slot["verified"] = False
        if key == ("orchestrator", "question_start"):
            question = str(_d(rec, "data").get("question") or "")
            plan = str(_d(rec, "data").get("plan") or "")
            switches = dict(_d(rec, "params"))
        elif (
            key == ("orchestrator", "decision")
            and slot is None
            and rec.get("decision") == "combine"
        ):
            calcs = _calculations(_d(rec, "data").get("calculations"), ())
            combine = combine_entry(rec, ok, calcs)  # a question across filings: its legs' sum
        elif key == ("orchestrator", "final"):
            final = rec
        elif key == (REVIEW_AGENT, REVIEW_EVENT):
            seq = rec.get("seq")
            check = (review_checks or {}).get(seq) if isinstance(seq, int) else None
            reviews.append(_review(rec, ok, check))
        elif slot is None or not _into_attempt(slot, key, rec):
            entry = {"seq": rec.get("seq"), "verified": ok, "raw": raw_json(rec)}
            (slot["other"] if slot is not None else other).append(entry)
    life = [attempts[k] for k in sorted(attempts)]
    for before, after in zip(life, life[1:], strict=False):
        after["changes"] = _changes(before, after)
    fdata = _d(final, "data") if final else {}
    status = str(final.get("decision")) if final else "incomplete"
    util = _num(_d(final, "scores").get("utility")) if final else None
    citations = _citations(fdata.get("citations"))
    filings = sorted({str(c["doc_id"]) for c in citations if c.get("doc_id")})
    retrieved = [a.get("retrieval") or {} for a in life]
    empty = bool(retrieved) and all(not r.get("items") for r in retrieved)
    seqs = [int(r["seq"]) for r in records if isinstance(r.get("seq"), int)]
    verified = all(r.get("seq") in verified_seqs for r in records)
    unknown = bool(other) or any(a["other"] for a in life)
    flags = _flags(status, empty, verified, unknown)
    companies = [c for r in retrieved for c in r.get("companies", [])]
    company = str(switches.get("company") or (companies[0] if companies else "") or "")
    if not company:
        company = _company_of(
            filings or [i["doc_id"] for r in retrieved for i in r.get("items", [])]
        )
    return {
        "run_id": first.get("run_id"),
        "qid": first.get("question_id"),
        "question": question,
        "status": status,
        "reason": final.get("reason") if final else "no final record",
        "utility": util,
        "attempts": len(life),
        "best_attempt": fdata.get("best_attempt"),
        "answer": fdata.get("answer"),
        "error": fdata.get("error"),
        "company": company,
        "filings": filings,
        "citations": citations,
        "reviews": reviews,
        "review": _review_state(reviews),
        "flags": flags,
        "verified": verified,
        "checkpointed": verified and bool(seqs) and max(seqs) <= checkpointed_seq,
        "seqs": [min(seqs), max(seqs)] if seqs else [],
        "switches": switches,
        "plan": plan,
        "combine": combine,
        "life": life,
        "other": other,
    }


def _into_attempt(slot: dict[str, Any], key: tuple[str, str], rec: Mapping[str, Any]) -> bool:
    """Put an attempt's retrieval, reasoning, judge, decision or error record into its slot."""
    readers = {
        ("retrieval", "retrieval"): ("retrieval", _retrieval),
        ("reasoning", "reasoning"): ("reasoning", _reasoning),
        ("judge", "judge"): ("judge", _judge),
    }
    if key in readers:
        name, read = readers[key]
        slot[name] = read(rec)
    elif key == ("orchestrator", "decision"):
        slot["decision"] = {
            "decision": rec.get("decision"),
            "reason": rec.get("reason"),
            "next": _d(rec, "params").get("next"),
        }
    elif rec.get("event") == "error":
        slot["error"] = {"agent": rec.get("agent"), "reason": rec.get("reason")}
    else:
        return False
    return True


def _flags(status: str, empty: bool, verified: bool, unknown: bool) -> list[str]:
    """What a reviewer should notice: out of corpus, abstained, failed, unverified, unknown."""
    flags = []
    if status == "abstained":
        flags.append("out of corpus" if empty else "abstained")
    if status in ("failed", "incomplete"):
        flags.append(status)
    if not verified:
        flags.append("unverified")
    if unknown:
        flags.append("unknown records")
    return flags


def _company_of(doc_ids: Sequence[Any]) -> str:
    for doc in doc_ids:
        if isinstance(doc, str) and doc:
            name = _company_for_doc(doc)
            if name:
                return name
    return ""


@functools.lru_cache(maxsize=4096)
def _company_for_doc(doc: str) -> str:
    from finqa.lexicon.entities import company_for_doc

    found = company_for_doc(doc)
    return found.name if found is not None else ""
