"""Low-level file access for the audit log: the lock, whole writes, the tail, line reading."""

from __future__ import annotations

import fcntl
import io
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from finqa.agents.errors import AuditError
from finqa.audit.canonical import GENESIS_HASH, canonical_bytes, record_hash, sha256_hex

__all__ = [
    "Fragment",
    "Tail",
    "locked",
    "snapshot_size",
    "write_all",
    "scan_tail",
    "parse_object",
    "iter_lines",
    "open_source",
    "read_at",
    "Source",
]

_BLOCK = 64 * 1024


@dataclass(frozen=True)
class Fragment:
    """Bytes of a torn line: where they start, how many, their SHA-256 (without any newline)."""

    offset: int
    length: int
    sha256: str

    def as_json(self) -> dict[str, Any]:
        return {"offset": self.offset, "bytes": self.length, "sha256": self.sha256}


@dataclass(frozen=True)
class Tail:
    """The end of the log as a writer sees it under the lock."""

    seq: int = 0
    hash: str = GENESIS_HASH
    fragments: tuple[Fragment, ...] = field(default_factory=tuple)
    needs_newline: bool = False  # the file does not end with "\n" (a torn line, or a whole
    # record whose newline was not written: then `fragments` is empty and the chain goes on from it)


def parse_object(content: bytes) -> dict[str, Any] | None:
    """The JSON object on a line, or None when it is not UTF-8 JSON of an object."""
    try:
        obj = json.loads(content.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


@contextmanager
def locked(path: Path, *, exclusive: bool = True, create: bool = True) -> Iterator[int]:
    """An fd of the log held under flock (exclusive for writers, shared for readers)."""
    flags = (os.O_RDWR | os.O_APPEND | os.O_CREAT) if create else os.O_RDONLY
    created = create and not path.exists()
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise AuditError(f"cannot open audit log {path}: {exc.strerror}", path=str(path)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        if created:
            _fsync_dir(path.parent)
        yield fd
    finally:
        os.close(fd)  # closing releases the flock


def _fsync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def snapshot_size(path: Path, timeout_s: float = 10.0) -> int:
    """The log's size between whole appends (under a shared lock, waited for up to `timeout_s`;
    if a writer holds the lock longer, e.g. it is stopped, the current size is used)."""
    if not path.exists():
        raise AuditError(f"audit log not found: {path}", path=str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise AuditError(f"cannot open audit log {path}: {exc.strerror}", path=str(path)) from None
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.01)
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes, path: Path) -> None:
    """Write `data` with one os.write (looping only if the kernel writes short)."""
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as exc:
        raise AuditError(f"cannot write audit log {path}: {exc.strerror}", path=str(path)) from None


def _rfind_newline(fd: int, end: int) -> int:
    """Offset of the last b"\\n" strictly before `end`, or -1."""
    pos = end
    while pos > 0:
        start = max(0, pos - _BLOCK)
        block = os.pread(fd, pos - start, start)
        i = block.rfind(b"\n")
        if i >= 0:
            return start + i
        pos = start
    return -1


def scan_tail(fd: int) -> Tail:
    """The last record's seq and hash, and any torn fragments after it (walking back)."""
    size = os.fstat(fd).st_size
    if size == 0:
        return Tail()
    fragments: list[Fragment] = []
    needs_newline = os.pread(fd, 1, size - 1) != b"\n"
    line_end = size if needs_newline else size - 1  # exclusive end of the current line's content
    first = True
    while True:
        start = _rfind_newline(fd, line_end) + 1
        content = os.pread(fd, line_end - start, start)
        obj = parse_object(content)
        if first and needs_newline and obj is not None and not _complete(obj, content):
            obj = None  # an object without its newline is torn unless it is a whole, valid record
        first = False
        if obj is not None:
            seq, digest = obj.get("seq"), obj.get("hash")
            if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(digest, str):
                raise AuditError(
                    f"cannot continue the hash chain of {fd_name(fd)}: the record at byte {start} "
                    "is damaged; run `finqa audit verify`"
                )
            return Tail(seq, digest, tuple(reversed(fragments)), needs_newline)
        fragments.append(Fragment(start, len(content), sha256_hex(content)))
        if start == 0:
            return Tail(0, GENESIS_HASH, tuple(reversed(fragments)), needs_newline)
        line_end = start - 1


def _complete(obj: dict[str, Any], content: bytes) -> bool:
    try:
        return canonical_bytes(obj) == content and record_hash(obj) == obj.get("hash")
    except (TypeError, ValueError):
        return False


def fd_name(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "the audit log"


Source = Path | bytes


def open_source(source: Source) -> BinaryIO:
    """A binary stream over a log file or over log bytes already in memory."""
    return io.BytesIO(source) if isinstance(source, bytes) else source.open("rb")


def read_at(source: Source, offset: int, length: int) -> bytes:
    with open_source(source) as f:
        f.seek(offset)
        return f.read(length)


def iter_lines(source: Source, size: int, start: int = 0) -> Iterator[tuple[int, bytes, bool]]:
    """(offset, content without newline, has_newline) for each line from byte `start` (a line
    start) up to byte `size`."""
    with open_source(source) as f:
        f.seek(start)
        offset = start
        while offset < size:
            raw = f.readline(size - offset)
            if not raw:
                return
            has_nl = raw.endswith(b"\n")
            yield offset, (raw[:-1] if has_nl else raw), has_nl
            offset += len(raw)
