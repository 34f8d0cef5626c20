"""Checkpoints: an HMAC-signed note of the log's head, kept apart from the log.

A checkpoint holds the head record's ``seq`` and ``hash``, the log's line count and byte size
at that point, and an HMAC-SHA256 (key: ``FINQA_AUDIT_HMAC_KEY``) over the canonical JSON of
those fields. Against it, ``verify_log`` catches tail truncation (the log is shorter) and
wholesale rewrites (the record at the checkpointed line is no longer the same), which the
unkeyed hash chain alone cannot. Checkpoints are only written for a log that verifies.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from finqa.agents.clock import SystemClock
from finqa.agents.errors import AuditError
from finqa.agents.types import Clock
from finqa.audit.signing import CHECKPOINT_FORMAT, hmac_key, read_checkpoint, sign
from finqa.audit.verify import verify_log
from finqa.audit.writer import format_ts

__all__ = ["CHECKPOINT_FORMAT", "make_checkpoint", "write_checkpoint", "read_checkpoint", "sign"]


def make_checkpoint(
    path: str | os.PathLike[str], *, key: bytes | None = None, clock: Clock | None = None
) -> dict[str, Any]:
    """A signed checkpoint of the log's current head; refuses a log that does not verify."""
    secret = hmac_key(key)
    log = Path(path)
    result = verify_log(log)
    if not result.ok:
        raise AuditError(f"not checkpointing {log}: {result.message}", path=str(log))
    payload: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "log": log.name,
        "seq": result.head_seq,
        "hash": result.head_hash,
        "lines": result.lines,
        "bytes": result.bytes,
        "created": format_ts((clock or SystemClock()).now()),
    }
    payload["hmac"] = sign(payload, secret)
    return payload


def write_checkpoint(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    key: bytes | None = None,
    clock: Clock | None = None,
) -> Path:
    """Write a checkpoint (default ``LOG.checkpoint.json``; better: somewhere else) atomically."""
    payload = make_checkpoint(path, key=key, clock=clock)
    target = Path(out) if out is not None else Path(f"{path}.checkpoint.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    return target
