"""`finqa demo`: ingest the bundled sample filings, answer sample questions offline, review the log.

Steps, each printed: (1) ingest `orchestrator/samples/filings` into an index (OUT/index by
default; re-ingesting unchanged files is a no-op); (2) answer `samples/questions.json` with the
offline backend, printing answers with citations (doc, page); (3) show one question's audit
trail; (4) verify the audit log's hash chain; (5) check that every decision of every attempt is in
the log (records per attempt against the attempts the results report); (6) print the log path (the index's own, `<index>/audit.jsonl`).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from finqa.agents.terminal import printable
from finqa.orchestrator.result import QAResult

__all__ = [
    "SAMPLES",
    "sample_files",
    "sample_questions",
    "run_demo",
    "attempt_coverage",
    "JUDGED_EVENTS",
]

SAMPLES = Path(__file__).resolve().parent / "samples"
DEFAULT_OUT = Path(".finqa") / "demo"
# The records one judged attempt leaves, in order.
JUDGED_EVENTS = ("retrieval", "reasoning", "judge", "decision")


def sample_files() -> list[Path]:
    return sorted((SAMPLES / "filings").glob("*.jsonl"))


def sample_questions() -> list[dict[str, Any]]:
    data = json.loads((SAMPLES / "questions.json").read_text(encoding="utf-8"))
    return [dict(q) for q in data]


def attempt_coverage(
    results: Sequence[QAResult], records: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Per question: attempts reported vs attempts in the log, records per attempt, and whether
    every reported attempt left its full set of records (judged: retrieval, reasoning, judge,
    decision; ended early: retrieval and/or error, then decision) and a final record exists."""
    rows = []
    for r in results:
        mine = [rec for rec in records if rec.get("question_id") == r.question_id]
        per_attempt: dict[int, list[str]] = {}
        for rec in mine:
            if isinstance(rec.get("attempt"), int):
                per_attempt.setdefault(int(rec["attempt"]), []).append(str(rec.get("event")))
        ok = sorted(per_attempt) == [a.attempt for a in r.attempts]
        for a in r.attempts:
            events = per_attempt.get(a.attempt, [])
            if a.decision in ("accept", "retry"):
                ok = ok and tuple(events) == JUDGED_EVENTS
            else:
                ok = (
                    ok
                    and events[-1:] == ["decision"]
                    and bool({"retrieval", "error"} & set(events))
                )
        finals = [rec for rec in mine if rec.get("event") == "final"]
        ok = ok and len(finals) == 1 and finals[0].get("decision") == r.status
        rows.append(
            {
                "question_id": r.question_id,
                "status": r.status,
                "attempts_reported": len(r.attempts),
                "attempts_logged": len(per_attempt),
                "records_per_attempt": {a: len(ev) for a, ev in sorted(per_attempt.items())},
                "records_total": len(mine),
                "ok": ok,
            }
        )
    return rows


def run_demo(
    index: str | None = None,
    out: str | None = None,
    config: str | None = None,
    *,
    stream: TextIO | None = None,
) -> int:
    """Run the demo; 0 when no question failed and the log verifies and holds every decision."""
    from finqa.agents.config import load_settings
    from finqa.agents.logs import configure_logging
    from finqa.agents.retrieval import ingest_paths
    from finqa.audit import load_records, verify_log
    from finqa.audit.show import render_question
    from finqa.orchestrator.api import FinQA
    from finqa.orchestrator.render import render_result

    w = stream or sys.stdout
    out_dir = Path(out) if out else DEFAULT_OUT
    index_dir = Path(index) if index else out_dir / "index"
    settings = load_settings(  # the audit log is the index's own (<index>/audit.jsonl)
        config,
        overrides={
            "index.path": str(index_dir),
            "llm.backend": "offline",
            "judge.llm_judge": False,
        },
    )
    configure_logging("warning")

    _title(w, "1. ingest the bundled sample filings (public 10-K pages)")
    files = sample_files()
    report = ingest_paths(files, settings, progress=False)
    w.write(f"{report.summary()}\n   index: {index_dir}\n")

    _title(w, "2. answer the sample questions (offline backend, no network)")
    with FinQA(settings) as fq:
        results = fq.ask_batch(sample_questions())
        run_id, log = fq.run_id, fq.audit_path
    for r in results:
        render_result(r, w)
        w.write("\n")

    records = load_records(log, run_id=run_id)
    # Show the most instructive trail: a retry that ended accepted, else the longest one.
    shown = max(
        results, key=lambda r: (r.status == "accepted" and len(r.attempts) > 1, len(r.attempts))
    )
    _title(
        w,
        f"3. the audit trail of one question ({shown.question_id}, `finqa audit show --question-id`)",
    )
    w.write(printable(render_question(records, shown.question_id)) + "\n")

    _title(w, "4. verify the audit log (`finqa audit verify`)")
    verdict = verify_log(log)
    w.write(f"{'OK' if verdict.ok else 'FAILED'} (status {verdict.status}): {verdict.message}\n")

    _title(w, "5. every decision of every attempt is in the log")
    rows = attempt_coverage(results, records)
    for row in rows:
        per = (
            ", ".join(f"attempt {a}: {n}" for a, n in row["records_per_attempt"].items())
            or "no attempt"
        )
        w.write(
            f"{row['question_id']}: {row['status']}, attempts reported {row['attempts_reported']}, "
            f"logged {row['attempts_logged']} ({per}); {row['records_total']} records "
            f"-> {'complete' if row['ok'] else 'INCOMPLETE'}\n"
        )
    complete = all(row["ok"] for row in rows)
    counts = Counter(str(rec.get("event")) for rec in records)
    w.write(
        f"run {run_id}: {len(records)} records ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})\n"
    )

    _title(w, "6. the audit log")
    w.write(f"{Path(log).resolve()}\n")
    w.write(f"review it: finqa audit show {log} --question-id {shown.question_id}\n")
    statuses = Counter(r.status for r in results)
    w.write(
        f"\n{len(results)} questions: {', '.join(f'{n} {s}' for s, n in sorted(statuses.items()))}\n"
    )
    return 0 if verdict.ok and complete and not statuses.get("failed") else 1


def _title(w: TextIO, text: str) -> None:
    w.write(f"\n== {text}\n")
