"""Ed25519 keys for the audit log: reviewers' sign-offs and the machine's checkpoints.

    finqa audit keygen --out ~/.config/finqa/reviewer.key --holder "A. Reviewer"

A private key is a PEM file (PKCS#8, mode 0600) that never enters the log; its public half is
32 bytes, written as base64 (``public_key``) and named by its *key id*: the first 16 hex digits
of SHA-256 over those bytes. Signatures are Ed25519 over the canonical JSON of what is signed
(``finqa.audit.canonical``), written as base64.

The *trusted keys* file (``audit.trusted_keys`` in the config, ``FINQA_AUDIT__TRUSTED_KEYS``,
or ``--trusted-keys``) is JSON kept by whoever verifies, not by the writers::

    {"keys": [{"holder": "A. Reviewer", "role": "reviewer", "public_key": "base64..."},
              {"holder": "finqa@host", "role": "checkpoint", "public_key": "base64..."}]}

A review verifies only when signed by a key the file lists for that reviewer (role
``reviewer``); a checkpoint only with a key of role ``checkpoint``. `cryptography` is imported
lazily, so reading the log needs it only to check signatures.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from finqa.agents.errors import AuditError
from finqa.agents.types import Frozen
from finqa.audit.canonical import canonical_bytes

__all__ = [
    "ALGORITHM",
    "TrustedKey",
    "TrustedKeys",
    "SigningKey",
    "generate_key",
    "load_signing_key",
    "load_trusted_keys",
    "key_id",
    "verify_signature",
]

ALGORITHM = "ed25519"
Role = Literal["reviewer", "checkpoint"]


def key_id(public: bytes) -> str:
    """The key id: the first 16 hex digits of SHA-256 over the 32 raw public-key bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes | None:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


class SigningKey:
    """A private Ed25519 key loaded from its file (the key itself is never printed or logged)."""

    def __init__(self, private: Any, path: Path) -> None:
        from cryptography.hazmat.primitives import serialization

        self._private = private
        self.path = path
        self.public = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.key_id = key_id(self.public)

    def __repr__(self) -> str:
        return f"SigningKey(key_id={self.key_id!r}, path={str(self.path)!r})"

    def sign(self, body: Mapping[str, Any]) -> str:
        """The base64 Ed25519 signature over the canonical JSON of `body`."""
        return _b64(self._private.sign(canonical_bytes(dict(body))))

    @property
    def public_b64(self) -> str:
        return _b64(self.public)


def generate_key(path: str | os.PathLike[str]) -> SigningKey:
    """Write a new private key to `path` (mode 0600; refuses to overwrite one) and load it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    target = Path(path).expanduser()
    if target.exists():
        raise AuditError(f"{target} exists: not overwriting a key", path=str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.link(tmp, target)  # atomic: a concurrent writer's key is never half-read or replaced
    except FileExistsError:
        raise AuditError(f"{target} exists: not overwriting a key", path=str(target)) from None
    finally:
        tmp.unlink()
    return load_signing_key(target)


def load_signing_key(path: str | os.PathLike[str]) -> SigningKey:
    """The private key in `path`; AuditError (one line) when it is missing or not an Ed25519 key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    source = Path(path).expanduser()
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise AuditError(
            f"key file not found: {source} (create one with `finqa audit keygen --out {source}`)",
            path=str(source),
        ) from None
    except OSError as exc:
        raise AuditError(
            f"cannot read key file {source}: {exc.strerror}", path=str(source)
        ) from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise AuditError(
            f"{source} is not an unencrypted PEM private key", path=str(source)
        ) from None
    if not isinstance(private, Ed25519PrivateKey):
        raise AuditError(f"{source} is not an Ed25519 key", path=str(source))
    return SigningKey(private, source)


def verify_signature(public: bytes, body: Mapping[str, Any], signature: object) -> bool:
    """Whether `signature` (base64) is the Ed25519 signature of `body`'s canonical JSON."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    raw = _unb64(signature) if isinstance(signature, str) else None
    if raw is None or len(raw) != 64 or len(public) != 32:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(raw, canonical_bytes(dict(body)))
    except InvalidSignature:
        return False
    return True


class TrustedKey(Frozen):
    """One public key the verifier trusts, for one holder and one role."""

    holder: str
    role: Role
    public_key: str  # base64 of the 32 raw bytes
    key_id: str


class TrustedKeys(Frozen):
    """The trusted keys file, read (an empty set trusts nothing)."""

    source: str | None = None
    keys: tuple[TrustedKey, ...] = ()

    def find(self, kid: object, role: Role) -> TrustedKey | None:
        """The trusted key of this id and role, or None."""
        return next((k for k in self.keys if k.key_id == kid and k.role == role), None)

    def public_bytes(self, key: TrustedKey) -> bytes:
        return _unb64(key.public_key) or b""


def load_trusted_keys(path: str | os.PathLike[str] | None) -> TrustedKeys:
    """The trusted keys in `path` (JSON, see the module doc); none when `path` is None."""
    if path is None:
        return TrustedKeys()
    source = Path(path).expanduser()
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuditError(f"trusted keys file not found: {source}", path=str(source)) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise AuditError(
            f"trusted keys file {source} is unreadable: {exc}", path=str(source)
        ) from None
    entries = raw.get("keys") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise AuditError(
            f'trusted keys file {source}: expected {{"keys": [...]}}', path=str(source)
        )
    keys: list[TrustedKey] = []
    for n, entry in enumerate(entries, start=1):
        ok = isinstance(entry, dict) and entry.get("role") in ("reviewer", "checkpoint")
        public = (
            _unb64(entry.get("public_key", ""))
            if ok and isinstance(entry.get("public_key"), str)
            else None
        )
        holder = " ".join(str(entry.get("holder") or "").split()) if ok else ""
        if public is None or len(public) != 32 or not holder:
            raise AuditError(
                f"trusted keys file {source}: entry {n} needs holder, role (reviewer or "
                "checkpoint) and public_key (base64 of 32 bytes)",
                path=str(source),
            )
        keys.append(
            TrustedKey(
                holder=holder, role=entry["role"], public_key=_b64(public), key_id=key_id(public)
            )
        )
    return TrustedKeys(source=str(source), keys=tuple(keys))
