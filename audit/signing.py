"""Checkpoint signing: HMAC (format 1, a shared secret) or Ed25519 (format 2, the machine key).

A leaf of the audit package: `checkpoint`, `checkpoints` (which write checkpoints of a verified
log) and `verify` (which checks a log against one) all use it. Format 1 is signed with
``FINQA_AUDIT_HMAC_KEY`` (see `finqa.agents.secrets`): whoever can check it can forge it. Format 2
is signed with the machine's Ed25519 key (`finqa.audit.keys`) and checked with its public key
only: from the trusted keys file (role ``checkpoint``), else from the machine key file itself.
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
from finqa.agents.types import Frozen
from finqa.audit.canonical import canonical_bytes
from finqa.audit.keys import TrustedKeys, verify_signature

__all__ = [
    "CHECKPOINT_FORMAT",
    "SIGNED_FORMAT",
    "FIELDS",
    "CheckpointKeys",
    "hmac_key",
    "read_checkpoint",
    "sign",
    "signed_body",
]

CHECKPOINT_FORMAT = "finqa-audit-checkpoint/1"  # HMAC-SHA256, FINQA_AUDIT_HMAC_KEY
SIGNED_FORMAT = "finqa-audit-checkpoint/2"  # Ed25519, the machine key
FIELDS = ("format", "log", "seq", "hash", "lines", "bytes", "created")


class CheckpointKeys(Frozen):
    """What a verifier checks checkpoints with: the HMAC secret and/or Ed25519 public keys."""

    hmac: bytes | None = None
    trusted: TrustedKeys = TrustedKeys()
    machine_public: bytes | None = None  # the public half of the configured machine key
    machine_key_id: str | None = None


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


def signed_body(payload: dict[str, Any]) -> dict[str, Any]:
    """What an Ed25519 checkpoint's signature covers: its fields and its key id."""
    return {**{k: payload[k] for k in FIELDS}, "key_id": payload["key_id"]}


def read_checkpoint(
    path: str | os.PathLike[str],
    key: bytes | None = None,
    *,
    keys: CheckpointKeys | None = None,
) -> tuple[dict[str, Any], bool]:
    """The checkpoint and whether its signature is valid. Format 1 needs the HMAC key (`key`,
    else `keys.hmac`, else the env); format 2 a trusted public key of its key id. AuditError
    (cannot check) when the file is unreadable or no key to check it with is configured."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuditError(f"checkpoint not found: {path}", path=str(path)) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise AuditError(f"checkpoint {path} is unreadable: {exc}", path=str(path)) from None
    if not isinstance(raw, dict):
        return {}, False
    typed = all(
        isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool)
        for k in ("seq", "lines", "bytes")
    )
    if not typed or not all(k in raw for k in FIELDS):
        return raw, False
    if raw.get("format") == SIGNED_FORMAT:
        return raw, _ed25519_ok(raw, keys or CheckpointKeys(), path)
    if raw.get("format") != CHECKPOINT_FORMAT or not isinstance(raw.get("hmac"), str):
        return raw, False
    secret = hmac_key(key if key is not None else (keys.hmac if keys else None))
    return raw, hmac.compare_digest(sign(raw, secret), raw["hmac"])


def _ed25519_ok(raw: dict[str, Any], keys: CheckpointKeys, path: str | os.PathLike[str]) -> bool:
    kid = raw.get("key_id")
    trusted = keys.trusted.find(kid, "checkpoint")
    if trusted is not None:
        public = keys.trusted.public_bytes(trusted)
    elif keys.machine_public is not None and kid == keys.machine_key_id:
        public = keys.machine_public
    elif not keys.trusted.keys and keys.machine_public is None:
        raise AuditError(
            f"checkpoint {path} is signed with Ed25519 key {kid}: configure audit.trusted_keys "
            "(or audit.checkpoint_key) to check it",
            path=str(path),
        )
    else:
        return False  # signed by a key nobody trusts: forged
    return verify_signature(public, signed_body(raw), raw.get("signature"))
