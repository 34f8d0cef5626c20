"""finqa audit: an append-only, hash-chained, tamper-evident log of every decision.

    from finqa.audit import AuditLog, verify_log, write_checkpoint, load_frame, VerifyResult

* Records (JSON Lines): ``seq, ts, run_id, question_id, attempt, agent, event, params, scores,
  decision, reason, data, prev_hash, hash``; ``hash`` = SHA-256 of the canonical JSON of the
  record without ``hash`` (``finqa.audit.canonical``); the first ``prev_hash`` is 64 zeros.
* Writing (``finqa.audit.writer``): flock on the log, re-read the tail, one ``os.write`` per line,
  fsync. Secrets are redacted before hashing (``finqa.audit.redact``).
* Torn lines (a crash mid-write): verify reports them (exit 2). The next append — or
  ``finqa audit recover`` — leaves the torn bytes in place, terminates them with a newline and
  writes a ``recovery`` record (agent ``audit``) whose ``data.torn`` names each torn line's
  byte offset, length and SHA-256, chained to the last complete record. Nothing already written
  is ever rewritten or truncated; verify accepts torn lines only when the very next record
  names exactly those bytes, so a recovery cannot hide an edit or a deletion.
* Verify (``finqa.audit.verify``): 0 ok, 1 tampered, 2 truncated/torn; checkpoints
  (``finqa.audit.checkpoint``, HMAC with ``FINQA_AUDIT_HMAC_KEY``) catch tail truncation and
  wholesale rewrites. Review: ``finqa.audit.review`` (pandas, CSV/Parquet), ``finqa.audit.show``,
  ``finqa.audit.report_html`` (a self-contained HTML review page, ``write_report``) and
  ``finqa.audit.signoff`` (``review_question``: a reviewer's verdict as a hash-chained record).

Linux/POSIX only (``fcntl.flock``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finqa.audit.canonical import (
    GENESIS_HASH,
    RECORD_FIELDS,
    canonical_bytes,
    record_hash,
    to_jsonable,
)
from finqa.audit.checkpoint import make_checkpoint, read_checkpoint, write_checkpoint
from finqa.audit.redact import REDACTED, redact
from finqa.audit.verify import VerifyResult, verify_log
from finqa.audit.writer import AuditLog, detect_code_version

if TYPE_CHECKING:  # pandas is imported lazily
    import pandas as pd

__all__ = [
    "AuditLog",
    "verify_log",
    "VerifyResult",
    "write_checkpoint",
    "make_checkpoint",
    "read_checkpoint",
    "load_frame",
    "load_records",
    "export",
    "redact",
    "REDACTED",
    "to_jsonable",
    "canonical_bytes",
    "record_hash",
    "GENESIS_HASH",
    "RECORD_FIELDS",
    "detect_code_version",
    "write_report",
    "review_question",
]


def load_frame(path: Any, **kwargs: Any) -> pd.DataFrame:
    """The log as a pandas DataFrame (see `finqa.audit.review.load_frame`)."""
    from finqa.audit.review import load_frame as _load_frame

    return _load_frame(path, **kwargs)


def load_records(path: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """The log's records as dicts, torn lines skipped (see `finqa.audit.review.load_records`)."""
    from finqa.audit.review import load_records as _load_records

    return _load_records(path, **kwargs)


def export(path: Any, out: Any, **kwargs: Any) -> Any:
    """Export the log to CSV or Parquet by the file suffix (see `finqa.audit.review.export`)."""
    from finqa.audit.review import export as _export

    return _export(path, out, **kwargs)


def write_report(log: Any, out: Any, **kwargs: Any) -> Any:
    """Write the HTML review page of a log (see `finqa.audit.report_html.write_report`)."""
    from finqa.audit.report_html import write_report as _write_report

    return _write_report(log, out, **kwargs)


def review_question(log: Any, question_id: str, verdict: str, reviewer: str, **kwargs: Any) -> Any:
    """Append a reviewer's sign-off record (see `finqa.audit.signoff.review_question`)."""
    from finqa.audit.signoff import review_question as _review_question

    return _review_question(log, question_id, verdict, reviewer, **kwargs)
