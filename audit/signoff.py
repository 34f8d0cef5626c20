"""Sign-off: a reviewer's verdict on a question, appended to the hash-chained log as a record.

    from finqa.audit import review_question
    review_question("audit.jsonl", "q-1", "approved", "A. Reviewer", note="figures checked")

A review is a record like any other (agent ``reviewer``, event ``review``, ``decision`` = the
verdict, ``params``: reviewer and what was reviewed, ``data``: the note), chained after the
log's head: nothing earlier is edited. It carries the reviewed question's ``run_id`` and id, the
seq and hash of that question's last record at review time, and the verification result the
reviewer had. A later review of the same question supersedes an earlier one in the report;
both stay in the log. A review of a question the log does not hold is refused (nothing written).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from finqa.agents.clock import SystemClock
from finqa.agents.errors import AuditError
from finqa.agents.types import Clock
from finqa.audit._report_life import REVIEW_AGENT, REVIEW_EVENT, VERDICTS
from finqa.audit.canonical import to_jsonable
from finqa.audit.keys import ALGORITHM, SigningKey, load_signing_key
from finqa.audit.redact import redact, secret_values
from finqa.audit.review import iter_records
from finqa.audit.review_check import review_body
from finqa.audit.verify import verify_log
from finqa.audit.writer import AuditLog, format_ts

__all__ = ["VERDICTS", "REVIEW_EVENT", "REVIEW_AGENT", "review_question", "latest_reviews"]

_MAX_NOTE = 4000


def review_question(
    log: str | os.PathLike[str],
    question_id: str,
    verdict: str,
    reviewer: str,
    *,
    note: str | None = None,
    run_id: str | None = None,
    clock: Clock | None = None,
    key: SigningKey | str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Append a review record for `question_id` (latest run holding it, or `run_id`), signed
    with the reviewer's Ed25519 `key` (a key or its file; see `finqa.audit.keys`); returns it.
    Without a key the review is written unsigned, and `finqa audit verify` flags it."""
    if verdict not in VERDICTS:
        raise AuditError(f"unknown verdict {verdict!r}: use one of {', '.join(VERDICTS)}")
    who = " ".join(str(reviewer or "").split())
    if not who:
        raise AuditError("a review needs the reviewer's name (--reviewer NAME)")
    text = (note or "").strip()
    if len(text) > _MAX_NOTE:
        raise AuditError(f"the note has {len(text)} characters: keep it under {_MAX_NOTE}")
    signer = key if isinstance(key, SigningKey) or key is None else load_signing_key(key)
    path = Path(log)
    head: Mapping[str, Any] | None = None
    runs: list[str] = []
    for rec in iter_records(path):
        if rec.get("question_id") != question_id or rec.get("event") == REVIEW_EVENT:
            continue
        if run_id is not None and rec.get("run_id") != run_id:
            continue
        head = rec
        if rec.get("run_id") not in runs:
            runs.append(str(rec.get("run_id")))
    if head is None:
        where = f" in run {run_id}" if run_id else ""
        raise AuditError(
            f"question {question_id!r} is not in {path}{where}: nothing to review, nothing written",
            path=str(path),
        )
    checked = _verified_now(path)
    sink = AuditLog(path, run_id=str(head.get("run_id")), clock=clock)
    params: dict[str, Any] = {
        "reviewer": who,
        "verdict": verdict,
        "question_head_seq": head.get("seq"),
        "question_head_hash": head.get("hash"),
        "runs_with_question": runs,
        "log_status": checked.status,
    }
    if signer is not None:
        params["signed_at"] = format_ts((clock or SystemClock()).now())
        # signed as it will be written: the writer redacts secrets before hashing
        body = redact(
            to_jsonable(review_body(head.get("run_id"), question_id, verdict, params, text)),
            secret_values(),
        )
        params["signature"] = {
            "alg": ALGORITHM,
            "key_id": signer.key_id,
            "value": signer.sign(body),
        }
    return sink.append(
        event=REVIEW_EVENT,
        agent=REVIEW_AGENT,
        question_id=question_id,
        params=params,
        decision=verdict,
        reason=f"{verdict} by {who}",
        data={"note": text, "log_verification": checked.message},
    )


def _verified_now(path: Path) -> Any:
    """The log's verification for the record a review keeps: against its latest automatic
    checkpoint when one can be checked here, else the chain alone (and the message says so)."""
    from finqa.audit.checkpoints import latest_checkpoint, verify_keys

    latest = latest_checkpoint(path)
    if latest is not None:
        try:
            return verify_log(path, latest, keys=verify_keys(None, None))
        except AuditError as exc:
            chain = verify_log(path)
            return chain.model_copy(update={"message": f"{chain.message} (checkpoint: {exc})"})
    return verify_log(path)


def latest_reviews(records: list[Mapping[str, Any]]) -> dict[tuple[str, str], Mapping[str, Any]]:
    """(run_id, question_id) -> the latest review record (later ones supersede earlier ones)."""
    out: dict[tuple[str, str], Mapping[str, Any]] = {}
    for rec in records:
        if rec.get("event") == REVIEW_EVENT and rec.get("agent") == REVIEW_AGENT:
            out[(str(rec.get("run_id")), str(rec.get("question_id")))] = rec
    return out
