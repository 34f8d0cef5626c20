"""The audit log writer: append-only JSON Lines with a SHA-256 hash chain.

Each append, under an exclusive ``flock`` on the log file itself:

1. re-reads the tail of the file to get the last record's ``seq`` and ``hash`` (another process
   may have appended since);
2. if the file ends with a torn line (a crash mid-write left bytes without a newline, or lines
   that are not JSON objects after the last record), writes ONE ``recovery`` record that names
   the torn bytes (offset, length, SHA-256) — preceded by a newline when the file lacks one —
   leaving the torn bytes where they are: history is never rewritten (see ``finqa.audit.verify``);
3. builds the record (JSON-safe, secrets redacted, UTC timestamp from the injected clock),
   hashes its canonical JSON, writes the whole line with one ``os.write`` and fsyncs.
"""

from __future__ import annotations

import contextlib
import os
import platform
import socket
import subprocess
import threading
import uuid
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from finqa.agents.clock import SystemClock
from finqa.agents.errors import AuditError
from finqa.agents.types import Clock
from finqa.audit._fileio import Tail, locked, scan_tail, write_all
from finqa.audit.canonical import canonical_bytes, record_hash, to_jsonable
from finqa.audit.redact import redact, secret_values

__all__ = ["AuditLog", "format_ts", "detect_code_version", "RECOVERY_EVENT", "RUN_START_EVENT"]

RECOVERY_EVENT = "recovery"
RUN_START_EVENT = "run_start"
_REPO = Path(__file__).resolve().parent.parent
_code_version_cache: dict[str, str] = {}


def format_ts(when: datetime) -> str:
    """UTC ISO-8601 with microseconds and a ``Z`` (naive datetimes are taken as UTC)."""
    aware = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return aware.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def detect_code_version() -> str:
    """`git describe --tags --always --dirty` of the source tree, else the package version."""
    if "v" not in _code_version_cache:
        _code_version_cache["v"] = _git_describe() or _package_version()
    return _code_version_cache["v"]


def _git_describe() -> str | None:
    if not (_REPO / ".git").exists():
        return None
    try:
        out = subprocess.run(
            ["git", "-C", str(_REPO), "describe", "--tags", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = out.stdout.strip()
    return f"git:{text}" if out.returncode == 0 and text else None


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"finqa {version('finqa')}"
    except PackageNotFoundError:
        return "unknown"


class AuditLog:
    """An append-only, hash-chained audit log; satisfies ``finqa.agents.types.AuditSink``.

    Safe for several threads (one lock per instance) and several processes (flock) writing
    the same file. ``fsync=False`` is for throwaway logs in tests and benchmarks only.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        run_id: str | None = None,
        clock: Clock | None = None,
        fsync: bool = True,
    ) -> None:
        self.path = Path(path)
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._fsync = fsync
        self._lock = threading.Lock()
        self.run_id = run_id or self._new_run_id()

    def _new_run_id(self) -> str:
        # wall time, not the injected clock: a run id must not consume a test clock's ticks
        stamp = format_ts(datetime.now(UTC))[:19].replace("-", "").replace(":", "")
        return f"{stamp}Z-{uuid.uuid4().hex[:8]}"

    def close(self) -> None:
        """Nothing to release: every append opens, locks, writes, fsyncs and closes the file."""

    def __enter__(self) -> AuditLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"AuditLog({str(self.path)!r}, run_id={self.run_id!r})"

    # ------------------------------------------------------------------ writing

    def append(
        self,
        *,
        event: str,
        agent: str,
        question_id: str | None = None,
        attempt: int | None = None,
        params: Mapping[str, Any] | None = None,
        scores: Mapping[str, Any] | None = None,
        decision: str | None = None,
        reason: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Append one record (after recovering a torn tail if there is one); returns it."""
        body = {
            "run_id": self.run_id,
            "question_id": question_id,
            "attempt": attempt,
            "agent": agent,
            "event": event,
            "params": params or {},
            "scores": scores or {},
            "decision": decision,
            "reason": reason,
            "data": data or {},
        }
        safe = redact(to_jsonable(body), secret_values())
        with self._lock, locked(self.path) as fd:
            tail = scan_tail(fd)
            if tail.fragments or tail.needs_newline:
                done = self._recover(fd, tail)
                tail = Tail(done["seq"], done["hash"])
            record = self._write(fd, tail, safe)
        return record

    @contextlib.contextmanager
    def locked_head(self) -> Iterator[tuple[int, int, str]]:
        """Hold the writers' lock on the log: yields (fd, last seq, last hash).

        For crash tests that must write beside the writer as it would (e.g. a half record);
        ordinary code appends with `append`.
        """
        with self._lock, locked(self.path) as fd:
            tail = scan_tail(fd)
            yield fd, tail.seq, tail.hash

    def recover(self) -> dict[str, Any] | None:
        """Record a torn tail now (the next append would do it); the recovery record or None."""
        with self._lock, locked(self.path) as fd:
            tail = scan_tail(fd)
            return self._recover(fd, tail) if tail.fragments or tail.needs_newline else None

    def _recover(self, fd: int, tail: Tail) -> dict[str, Any]:
        if tail.fragments:
            total = sum(f.length for f in tail.fragments)
            decision = "skip_torn"
            reason = (
                f"torn tail from an interrupted write: {len(tail.fragments)} line(s), {total} byte(s) "
                f"from byte {tail.fragments[0].offset} left in place and skipped"
            )
        else:
            decision = "newline_added"
            reason = f"record seq {tail.seq} was written without its newline; newline added"
        body = {
            "run_id": self.run_id,
            "question_id": None,
            "attempt": None,
            "agent": "audit",
            "event": RECOVERY_EVENT,
            "params": {},
            "scores": {},
            "decision": decision,
            "reason": reason,
            "data": {
                "torn": [f.as_json() for f in tail.fragments],
                "newline_added": tail.needs_newline,
            },
        }
        return self._write(fd, tail, body, prefix=b"\n" if tail.needs_newline else b"")

    def _write(
        self, fd: int, tail: Tail, body: dict[str, Any], prefix: bytes = b""
    ) -> dict[str, Any]:
        record: dict[str, Any] = {"seq": tail.seq + 1, "ts": format_ts(self._clock.now()), **body}
        record["prev_hash"] = tail.hash
        record["hash"] = record_hash(record)
        write_all(fd, prefix + canonical_bytes(record) + b"\n", self.path)
        if self._fsync:
            try:
                os.fsync(fd)
            except OSError as exc:
                raise AuditError(f"cannot fsync audit log {self.path}: {exc.strerror}") from None
        return record

    # ------------------------------------------------------------------ runs

    def start_run(
        self,
        settings: Any,
        *,
        index_version: str,
        models: Mapping[str, Any],
        code_version: str | None = None,
    ) -> dict[str, Any]:
        """Record what this run is: config hash (+ the config), index version, models, code."""
        from finqa.agents.config import config_hash

        return self.append(
            event=RUN_START_EVENT,
            agent="orchestrator",
            params={
                "config_hash": config_hash(settings),
                "index_version": index_version,
                "models": dict(models),
                "code_version": code_version or detect_code_version(),
                "python": platform.python_version(),
            },
            data={
                "config": settings.model_dump(mode="json"),
                "pid": os.getpid(),
                "host": socket.gethostname(),
            },
            reason="run started",
        )
