"""Every attempt of a benchmark run, one line per question x mode: the material for judge labels.

    python -m finqa.benchmarks.llm_answers RUN_DIR... --out answers.jsonl

Joins a `finqa bench financebench` output directory's results.jsonl (answers, gold grades,
statuses) with its audit logs (what the model replied, the citations and calculations finqa kept,
the judge's scores, decision, diagnosis and feedback), matched on run id, question id and attempt.
A row says which code version and backend produced it. Written outside the repository: the rows
carry FinanceBench question and answer text (CC BY-NC).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["answer_rows", "audit_records", "main"]


def audit_records(audit_dir: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(mode, record) for every record of a benchmark run's audit logs (a torn tail skipped)."""
    for path in sorted(audit_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a torn tail
                if isinstance(rec, dict):
                    yield path.stem, rec


def _index(audit_dir: Path) -> tuple[dict[tuple[Any, ...], Mapping[str, Any]], dict[str, Any]]:
    """(reasoning/judge records by (event, run, question, attempt), run_start params by run)."""
    by_key: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    runs: dict[str, Any] = {}
    for _mode, rec in audit_records(audit_dir):
        event = rec.get("event")
        if event == "run_start":
            runs[str(rec.get("run_id"))] = rec.get("params") or {}
        elif event in ("reasoning", "judge"):
            key = (event, rec.get("run_id"), rec.get("question_id"), rec.get("attempt"))
            by_key[key] = rec  # the last record wins (a resumed question's newest)
    return by_key, runs


def _attempt(
    a: Mapping[str, Any], reasoning: Mapping[str, Any] | None, judge: Mapping[str, Any] | None
) -> dict[str, Any]:
    rdata = (reasoning or {}).get("data") or {}
    conf = rdata.get("confidence") or {}
    jdata = (judge or {}).get("data") or {}
    return {
        "attempt": a.get("attempt"),
        "strategy": a.get("strategy"),
        "answer": a.get("answer"),
        "grade": (a.get("grade") or {}).get("label"),
        "abstained": rdata.get("abstained"),
        "raw_reply": rdata.get("raw"),
        "citations": rdata.get("citations") or [],
        "calculations": rdata.get("calculations") or [],
        "backend": ((reasoning or {}).get("params") or {}).get("backend"),
        "answered_by": conf.get("answered_by"),
        "reply_mode": conf.get("mode"),
        "response_format": conf.get("response_format"),
        "schema_valid": conf.get("schema_valid"),
        "plan": conf.get("plan"),
        "llm_error": conf.get("llm_error"),
        "judge": {
            "scores": a.get("scores"),
            "utility": a.get("utility"),
            "threshold": a.get("threshold"),
            "decision": a.get("decision"),
            "diagnosis": a.get("diagnosis"),
            "feedback": jdata.get("feedback"),
            "missing_facets": jdata.get("missing_facets"),
            "unsupported_numbers": jdata.get("unsupported_numbers"),
        },
        "llm_calls": a.get("llm_calls"),
        "prompt_tokens": a.get("prompt_tokens"),
        "completion_tokens": a.get("completion_tokens"),
        "latency_ms": a.get("latency_ms"),
        "evidence_pages": a.get("evidence_pages"),
        "audit_found": reasoning is not None and judge is not None,
    }


def answer_rows(run_dir: Path) -> list[dict[str, Any]]:
    """One row per question x mode of a run directory, every attempt with its audit details."""
    by_key, runs = _index(run_dir / "audit")
    out: list[dict[str, Any]] = []
    results = run_dir / "results.jsonl"
    for line in results.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        run_id, qid = r.get("run_id"), r.get("id")
        params = runs.get(str(run_id), {})
        attempts = [
            _attempt(
                a,
                by_key.get(("reasoning", run_id, qid, a.get("attempt"))),
                by_key.get(("judge", run_id, qid, a.get("attempt"))),
            )
            for a in r.get("attempts") or []
        ]
        out.append(
            {
                "id": qid,
                "mode": r.get("mode"),
                "run": run_dir.name,
                "run_id": run_id,
                "code_version": params.get("code_version"),
                "llm_backend": (params.get("models") or {}).get("llm_backend"),
                "llm": (params.get("models") or {}).get("llm"),
                "question": r.get("question"),
                "gold": r.get("gold"),
                "doc_name": r.get("doc_name"),
                "status": r.get("status"),
                "answer": r.get("answer"),
                "best_attempt": r.get("best_attempt"),
                "gold_grade": (r.get("grade") or {}).get("label"),
                "error": r.get("error"),
                "attempts": attempts,
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m finqa.benchmarks.llm_answers", description=__doc__)
    p.add_argument("runs", nargs="+", help="`finqa bench financebench` output directories")
    p.add_argument("--out", required=True, help="JSONL to write")
    args = p.parse_args(argv)
    rows = [row for d in args.runs for row in answer_rows(Path(d))]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    n_att = sum(len(r["attempts"]) for r in rows)
    joined = sum(a["audit_found"] for r in rows for a in r["attempts"])
    print(
        f"wrote {len(rows)} question rows ({n_att} attempts, {joined} joined to the audit log) to {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
