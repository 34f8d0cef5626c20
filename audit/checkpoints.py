"""Automatic checkpoints: the log's head, signed with the machine key, kept beside the log.

At the end of every `finqa ask` run and every batch (`FinQA.close`) the orchestrator calls
`auto_checkpoint`: the log is verified, and its head (seq, hash, lines, bytes) is written as an
Ed25519-signed checkpoint (format 2, `finqa.audit.signing`) into the checkpoint folder —
``<log>.checkpoints/`` by default, or ``audit.checkpoint_dir`` (one sub-folder per log) — as
``seq-<000000000123>.json``. The machine key (``audit.checkpoint_key``, default
``$XDG_CONFIG_HOME/finqa/audit-checkpoint.key``) must lie outside the log's folder; it is
created (mode 0600) on first use. `finqa audit verify LOG` checks the log against the latest
checkpoint there; a checkpoint that does not verify makes the log TAMPERED. See
docs/audit-review.md for what a writer with file access can and cannot forge.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from finqa.agents.clock import SystemClock
from finqa.agents.errors import AuditError
from finqa.agents.types import Clock
from finqa.audit.keys import SigningKey, generate_key, load_signing_key, load_trusted_keys
from finqa.audit.signing import SIGNED_FORMAT, CheckpointKeys, signed_body

__all__ = [
    "checkpoint_dir",
    "default_key_path",
    "latest_checkpoint",
    "machine_key",
    "verify_keys",
    "auto_checkpoint",
    "write_signed_checkpoint",
]

_NAME = re.compile(r"^seq-(\d{12})\.json$")


def default_key_path() -> Path:
    """``$XDG_CONFIG_HOME/finqa/audit-checkpoint.key`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "finqa" / "audit-checkpoint.key"


def checkpoint_dir(log: str | os.PathLike[str], configured: str | None = None) -> Path:
    """Where the checkpoints of `log` go: ``<log>.checkpoints/``, or a sub-folder of
    `configured` named by the log's file name and a digest of its absolute path."""
    path = Path(log).resolve()
    if not configured:
        return path.with_name(f"{path.name}.checkpoints")
    digest = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:12]
    return Path(configured).expanduser() / f"{path.name}-{digest}"


def latest_checkpoint(log: str | os.PathLike[str], configured: str | None = None) -> Path | None:
    """The checkpoint of the highest seq in the log's checkpoint folder, or None."""
    return _latest_in(checkpoint_dir(log, configured))


def _latest_in(folder: Path) -> Path | None:
    try:
        names = [n for n in os.listdir(folder) if _NAME.match(n)]
    except (FileNotFoundError, NotADirectoryError):
        return None
    return folder / max(names) if names else None


def _outside(key: Path, log: Path) -> bool:
    return log.resolve().parent not in (key.resolve(), *key.resolve().parents)


def machine_key(path: str | os.PathLike[str] | None, log: str | os.PathLike[str]) -> SigningKey:
    """The machine key (created on first use); AuditError when it lies in the log's folder."""
    target = Path(path).expanduser() if path else default_key_path()
    if not _outside(target, Path(log)):
        raise AuditError(
            f"the checkpoint key {target} is inside the log's folder: set audit.checkpoint_key "
            "to a file elsewhere (whoever can write the log must not read it from there)",
            path=str(target),
        )
    if target.exists():
        return load_signing_key(target)
    try:
        return generate_key(target)
    except AuditError:  # another process created it first
        return load_signing_key(target)


def verify_keys(
    trusted_keys: str | None, checkpoint_key: str | None, hmac: bytes | None = None
) -> CheckpointKeys:
    """The keys `verify` checks checkpoints with: the trusted keys file, and the public half of
    the machine key when its file is readable here (never created by a verifier)."""
    trusted = load_trusted_keys(trusted_keys)
    target = Path(checkpoint_key).expanduser() if checkpoint_key else default_key_path()
    public: bytes | None = None
    kid: str | None = None
    if target.is_file():
        try:
            found = load_signing_key(target)
        except AuditError:
            found = None
        if found is not None:
            public, kid = found.public, found.key_id
    return CheckpointKeys(hmac=hmac, trusted=trusted, machine_public=public, machine_key_id=kid)


def write_signed_checkpoint(
    log: str | os.PathLike[str],
    key: SigningKey,
    *,
    folder: Path,
    clock: Clock | None = None,
) -> Path:
    """Verify `log` — against the latest checkpoint in `folder` when there is one — and write
    its head as a signed checkpoint there; AuditError when it does not verify (nothing is
    written: a checkpoint never vouches for a damaged or rewritten log, so a rewrite cannot be
    laundered by the next run's checkpoint)."""
    from finqa.audit.verify import verify_log, verify_since
    from finqa.audit.writer import format_ts

    path = Path(log)
    previous = _latest_in(folder)
    if previous is None:
        result = verify_log(path)
    else:  # the log must still be what the last checkpoint signed: a rewrite is never re-signed
        own = CheckpointKeys(machine_public=key.public, machine_key_id=key.key_id)
        result = verify_since(path, previous, keys=own)  # only what was appended since
    if not result.ok:
        against = f" against {previous}" if previous is not None else ""
        raise AuditError(
            f"not checkpointing {path}: it does not verify{against}: {result.message}",
            path=str(path),
        )
    payload: dict[str, Any] = {
        "format": SIGNED_FORMAT,
        "log": path.name,
        "seq": result.head_seq,
        "hash": result.head_hash,
        "lines": result.lines,
        "bytes": result.bytes,
        "created": format_ts((clock or SystemClock()).now()),
        "key_id": key.key_id,
    }
    payload["signature"] = key.sign(signed_body(payload))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"seq-{result.head_seq:012d}.json"
    tmp = folder / f".{target.name}.{os.getpid()}.tmp"
    with tmp.open("w", encoding="utf-8") as f:
        f.write(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
    return target


def auto_checkpoint(
    log: str | os.PathLike[str],
    *,
    key_path: str | None,
    folder: str | None,
    clock: Clock | None = None,
) -> Path:
    """The end-of-run checkpoint of `log` (see the module doc); AuditError says why not."""
    key = machine_key(key_path, log)
    return write_signed_checkpoint(log, key, folder=checkpoint_dir(log, folder), clock=clock)
