"""Checkpoints: an HMAC-signed note of the log's head, kept apart from the log.

A checkpoint holds the head record's ``seq`` and ``hash``, the log's line count and byte size
at that point, and an HMAC-SHA256 (key: ``FINQA_AUDIT_HMAC_KEY``) over the canonical JSON of
those fields. Against it, ``verify_log`` catches tail truncation (the log is shorter) and
wholesale rewrites (the record at the checkpointed line is no longer the same), which the
unkeyed hash chain alone cannot. Checkpoints are only written for a log that verifies.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from finqa.agents.clock import SystemClock
from finqa.agents.errors import AuditError
from finqa.agents.secrets import audit_hmac_key
from finqa.agents.types import Clock
from finqa.audit._fileio import snapshot_size
from finqa.audit.canonical import canonical_bytes
from finqa.audit.writer import format_ts

__all__ = ["CHECKPOINT_FORMAT", "make_checkpoint", "write_checkpoint", "read_checkpoint", "sign"]

CHECKPOINT_FORMAT = "finqa-audit-checkpoint/1"
_FIELDS = ("format", "log", "seq", "hash", "lines", "bytes", "created")


def _key(key: bytes | None) -> bytes:
    found = key if key is not None else audit_hmac_key()
    if not found:
        raise AuditError(
            "FINQA_AUDIT_HMAC_KEY is not set: export a secret key to sign or check audit checkpoints"
        )
    return found


def sign(payload: dict[str, Any], key: bytes) -> str:
    """HMAC-SHA256 (hex) over the canonical JSON of the checkpoint fields."""
    body = {k: payload[k] for k in _FIELDS}
    return hmac.new(key, canonical_bytes(body), hashlib.sha256).hexdigest()


def make_checkpoint(
    path: str | os.PathLike[str], *, key: bytes | None = None, clock: Clock | None = None
) -> dict[str, Any]:
    """A signed checkpoint of the log's current head; refuses a log that does not verify."""
    from finqa.audit.verify import _Bad, _scan

    secret = _key(key)
    log = Path(path)
    size = snapshot_size(log)
    try:
        result = _scan(log, size, None)
    except _Bad as bad:
        raise AuditError(f"not checkpointing {log}: {bad.message}", path=str(log)) from None
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


def read_checkpoint(
    path: str | os.PathLike[str], key: bytes | None = None
) -> tuple[dict[str, Any], bool]:
    """The checkpoint and whether its HMAC is valid for the key (default: from the env)."""
    secret = _key(key)
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuditError(f"checkpoint not found: {path}", path=str(path)) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise AuditError(f"checkpoint {path} is unreadable: {exc}", path=str(path)) from None
    if not isinstance(raw, dict) or raw.get("format") != CHECKPOINT_FORMAT:
        return (raw if isinstance(raw, dict) else {}), False
    typed = all(
        isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool)
        for k in ("seq", "lines", "bytes")
    )
    if not typed or not all(k in raw for k in _FIELDS) or not isinstance(raw.get("hmac"), str):
        return raw, False
    return raw, hmac.compare_digest(sign(raw, secret), raw["hmac"])
