"""Checkpoint signing: the HMAC over a checkpoint's fields, and reading a checkpoint back.

A leaf of the audit package: `checkpoint` (which writes checkpoints of a verified log) and
`verify` (which checks a log against a checkpoint) both use it, so neither imports the other's
insides. The key is ``FINQA_AUDIT_HMAC_KEY`` (see `finqa.agents.secrets`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from finqa.agents.errors import AuditError
from finqa.agents.secrets import audit_hmac_key
from finqa.audit.canonical import canonical_bytes

__all__ = ["CHECKPOINT_FORMAT", "FIELDS", "hmac_key", "read_checkpoint", "sign"]

CHECKPOINT_FORMAT = "finqa-audit-checkpoint/1"
FIELDS = ("format", "log", "seq", "hash", "lines", "bytes", "created")


def hmac_key(key: bytes | None) -> bytes:
    """The signing key given, else FINQA_AUDIT_HMAC_KEY; AuditError when there is none."""
    found = key if key is not None else audit_hmac_key()
    if not found:
        raise AuditError(
            "FINQA_AUDIT_HMAC_KEY is not set: export a secret key to sign or check audit checkpoints"
        )
    return found


def sign(payload: dict[str, Any], key: bytes) -> str:
    """HMAC-SHA256 (hex) over the canonical JSON of the checkpoint fields."""
    body = {k: payload[k] for k in FIELDS}
    return hmac.new(key, canonical_bytes(body), hashlib.sha256).hexdigest()


def read_checkpoint(
    path: str | os.PathLike[str], key: bytes | None = None
) -> tuple[dict[str, Any], bool]:
    """The checkpoint and whether its HMAC is valid for the key (default: from the env)."""
    secret = hmac_key(key)
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
    if not typed or not all(k in raw for k in FIELDS) or not isinstance(raw.get("hmac"), str):
        return raw, False
    return raw, hmac.compare_digest(sign(raw, secret), raw["hmac"])
